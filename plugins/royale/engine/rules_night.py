"""Night actions, each settled at once in arrival order (rules: 夜间行动, 角色行动, 游戏道具).

Every action is ``act(state, seat, args, ctx, cfg) -> (effects)`` working on a
state the caller already copied; a refusal raises Rejected before any change
(the caller drops the copy). A web endpoint can call ``ACTIONS[name]`` too.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import datetime
from typing import Any

from plugins.gamekit.contract import Ctx, Effect, Rejected, Say

from . import texts as T
from .content import GRADES, catalog
from .model import (
    Player,
    State,
    equipped,
    find_own,
    find_place,
    hands_used,
    heal,
    is_equipped,
    new_item,
    npc,
    npcs_at,
    people_at,
    player,
    refresh,
    remove_item,
)
from .rules_death import check_end, kill, kill_by_attack, kill_npc, new_batch

Cfg = dict[str, Any]
Action = Callable[[State, int, dict[str, Any], Ctx, Cfg], list[Effect]]


def reply(text: str) -> Say:
    return Say("reply", text)


# ---- guards ------------------------------------------------------------------

def _alive(state: State, seat: int) -> Player:
    if state["phase"] == "over":
        raise Rejected(T.OVER)
    p = player(state, seat)
    if not p["alive"]:
        raise Rejected(T.DEAD)
    return p


def _night(state: State, seat: int, cfg: Cfg, *, born: bool = True, resting_ok: bool = False) -> Player:
    p = _alive(state, seat)
    if state["phase"] != "night":
        r = cfg["rules"]
        raise Rejected(T.NOT_NIGHT.format(start=r["night_start"], end=r["night_end"]))
    if born and p["place"] is None:
        raise Rejected(T.NOT_BORN)
    if p["rest"] and not resting_ok:
        raise Rejected(T.RESTING)
    return p


def _place(state: State, cfg: Cfg, text: str) -> str:
    place = find_place(cfg, text)
    if place is None:
        raise Rejected(T.UNKNOWN_PLACE.format(text=(text or "").strip()))
    if place in state["closed"]:
        raise Rejected(T.CLOSED_PLACE.format(place=place))
    return place


def _pay(p: Player, cost: int, what: str) -> None:
    if p["st"] < cost:
        raise Rejected(T.NO_STAMINA.format(what=what, need=cost, have=p["st"]))
    p["st"] -= cost


# ---- actions -----------------------------------------------------------------

def birth(state: State, seat: int, args: dict[str, Any], ctx: Ctx, cfg: Cfg) -> list[Effect]:
    p = _night(state, seat, cfg, born=False)
    if p["place"] is not None:
        raise Rejected(T.ALREADY_BORN.format(place=p["place"]))
    limit = cfg["rules"]["birth_deadline_night"]
    if state["day"] > limit:
        raise Rejected(T.BIRTH_TOO_LATE.format(n=limit))
    p["place"] = _place(state, cfg, args.get("place", ""))
    arrived(state, p)
    return [reply(T.BORN.format(place=p["place"]))]


def arrived(state: State, p: Player) -> None:
    """朝圣之路: remember who reached tonight's holy place."""
    holy = state.get("holy")
    log = state["night_log"]["holy"]
    if holy and p["place"] == holy and p["seat"] not in log:
        log.append(p["seat"])


def move(state: State, seat: int, args: dict[str, Any], ctx: Ctx, cfg: Cfg) -> list[Effect]:
    p = _night(state, seat, cfg)
    place = _place(state, cfg, args.get("place", ""))
    if place == p["place"]:
        raise Rejected(T.SAME_PLACE.format(place=place))
    _pay(p, cfg["rules"]["move_cost"], T.WHAT_MOVE)
    p["place"], p["search"], p["acted"] = place, None, True
    arrived(state, p)
    return [reply(T.MOVED.format(place=place, st=p["st"]))]


def search(state: State, seat: int, args: dict[str, Any], ctx: Ctx, cfg: Cfg) -> list[Effect]:
    p = _night(state, seat, cfg)
    rules = cfg["rules"]
    interval = rules["search_interval_s"]
    if p["search_at"] is not None:
        waited = (ctx.now - datetime.fromisoformat(p["search_at"])).total_seconds()
        if waited < interval:
            raise Rejected(T.SEARCH_TOO_SOON.format(interval=interval, wait=math.ceil(interval - waited)))
    _pay(p, rules["search_cost"], T.WHAT_SEARCH)
    place = p["place"]
    found: list[tuple[str, Any]] = [("item", it) for it in state["ground"][place]]
    found += [("player", q) for q in people_at(state, place, exclude=seat)]
    found += [("npc", n) for n in npcs_at(state, place)]
    p["search_at"], p["acted"] = ctx.now.isoformat(), True
    if not found:
        p["search"] = None
        return [reply(T.FOUND_NOTHING.format(place=place, st=p["st"]))]
    kind, what = ctx.rng.choice(found)
    if kind == "item":
        p["search"] = {"kind": "item", "id": what["id"], "name": what["name"], "place": place}
        return [reply(T.FOUND_ITEM.format(name=what["name"], st=p["st"]))]
    if kind == "npc":
        p["search"] = {"kind": "npc", "id": what["id"], "place": place}
    else:
        p["search"] = {"kind": "player", "seat": what["seat"], "place": place}
    if ctx.rng.randrange(100) < state["see"]:
        who = what["name"] if kind == "npc" else what["alias"]
        return [reply(T.FOUND_PERSON.format(who=who, st=p["st"]))]
    return [reply(T.FOUND_SHADOW.format(st=p["st"]))]


def _hit(state: State, victim: Player, dmg: int, bleed: int, by: int) -> list[Effect]:
    victim["hp"] -= dmg
    if victim.get("npc"):
        if dmg > 0:
            victim["damage"].append([by, dmg])
        if bleed:
            victim["bleed"] = max(victim["bleed"], bleed)
            victim["bleed_by"] = by
        return []
    if bleed:
        victim["bleed"] = max(victim["bleed"], bleed)
        victim["bleed_by"] = by
        return [Say(victim["seat"], T.HURT_BLEED.format(dmg=dmg, bleed=bleed, hp=max(victim["hp"], 0)))]
    return [Say(victim["seat"], T.HURT.format(dmg=dmg, hp=max(victim["hp"], 0)))]


def attack(state: State, seat: int, args: dict[str, Any], ctx: Ctx, cfg: Cfg) -> list[Effect]:
    p = _night(state, seat, cfg)
    s = p["search"]
    if not s or s["kind"] not in ("player", "npc"):
        raise Rejected(T.NO_SEARCH_PERSON)
    q = npc(state, s["id"]) if s["kind"] == "npc" else player(state, s["seat"])
    if not q["alive"] or q["place"] != p["place"] or s["place"] != p["place"]:
        raise Rejected(T.TARGET_GONE.format(place=p["place"]))
    if p["place"] == cfg["places"].get("safe_zone"):
        raise Rejected(T.SAFE_ZONE.format(place=p["place"]))
    cat = catalog(cfg)
    weapon = equipped(p, "weapon")
    wdata = cat.get(weapon["name"]).data if weapon else {}
    dmg = wdata.get("damage", cfg["rules"]["fist_damage"])
    bleed = wdata.get("bleed", 0)
    splash = wdata.get("splash", 0)
    effects: list[Effect] = []
    armour = equipped(q, "armour")
    if armour:
        dmg = max(0, dmg - cat.get(armour["name"]).data.get("reduce", 0))
        if armour["uses"] is not None:
            armour["uses"] -= 1
            if armour["uses"] <= 0:
                remove_item(q, armour)
                effects.append(Say(q["seat"], T.ARMOUR_BROKEN.format(name=armour["name"])))
    splashed = people_at(state, p["place"], exclude=seat) + npcs_at(state, p["place"])
    splashed = [r for r in splashed if r is not q] if splash else []
    effects += _hit(state, q, dmg, bleed, seat)
    log = state["night_log"]
    if seat not in log["attackers"]:
        log["attackers"].append(seat)
    if dmg > 0:  # a direct effective hit (通缉令, 战争与和平)
        log["hits"].append([seat, q["id"] if q.get("npc") else q["seat"], dmg])
    for r in splashed:
        effects += _hit(state, r, splash, bleed, seat)
    if weapon and weapon["uses"] is not None:
        weapon["uses"] -= 1
        if weapon["uses"] <= 0:
            remove_item(p, weapon)
            effects.append(reply(T.WEAPON_BROKEN.format(name=weapon["name"])))
    p["search"], p["acted"] = None, True
    batch = new_batch(state)
    kills: list[str] = []
    for v in [q] + splashed:
        if v["hp"] <= 0:
            eff, taken, dropped = kill_by_attack(state, cfg["rules"]["bag_size"], v, p, batch, ctx.rng)
            effects += eff
            rest = T.ATTACK_DROPPED.format(place=p["place"], items=T.joined(i["name"] for i in dropped)) if dropped else ""
            who = v["name"] if v.get("npc") else v["alias"]
            kills.append(T.ATTACK_KILL.format(alias=who, got=T.names_or_none([i["name"] for i in taken]), dropped=rest))
    effects.insert(0, reply("\n".join(kills) if kills else T.ATTACK_DONE))
    return effects + check_end(state, cfg)


def pickup(state: State, seat: int, args: dict[str, Any], ctx: Ctx, cfg: Cfg) -> list[Effect]:
    p = _night(state, seat, cfg)
    s = p["search"]
    if not s or s["kind"] != "item":
        raise Rejected(T.NO_SEARCH_ITEM)
    ground = state["ground"][p["place"]]
    hits = [it for it in ground if it["id"] == s["id"]] if s["place"] == p["place"] else []
    if not hits:
        raise Rejected(T.ITEM_GONE.format(name=s["name"]))
    cap = cfg["rules"]["bag_size"]
    if len(p["items"]) >= cap:
        raise Rejected(T.BAG_FULL.format(n=cap))
    item = hits[0]
    state["ground"][p["place"]] = [it for it in ground if it["id"] != item["id"]]
    p["items"].append(item)
    p["search"], p["acted"] = None, True
    return [reply(T.PICKED.format(name=item["name"], n=len(p["items"]), cap=cap))]


def equip(state: State, seat: int, args: dict[str, Any], ctx: Ctx, cfg: Cfg) -> list[Effect]:
    """【更换】: take an item in hand (two hands: at most one weapon and one armour;
    with rules.use_from = "hand" any other item can be held in a hand to be used)."""
    p = _night(state, seat, cfg)
    words = (args.get("item") or "").split()[:1] + ([args["swap"]] if args.get("swap") else [])
    item = find_own(p, words[0] if words else "", prefer_unequipped=True)
    slot = {"weapon": "weapon", "armour": "armour"}.get(item["kind"])
    if slot is None:
        if cfg["rules"]["use_from"] != "hand":
            raise Rejected(T.NOT_EQUIPPABLE.format(name=item["name"]))
        slot = "held"
    if p.get(slot) == item["id"]:
        raise Rejected(T.ALREADY_EQUIPPED.format(name=item["name"]))
    old = equipped(p, slot)
    if old is None and hands_used(p) >= 2:
        # both hands busy with the other two slots: put one back in the bag
        others = {s: it for s in ("weapon", "armour", "held") if s != slot and (it := equipped(p, s)) is not None}
        if len(words) > 1:
            named = [s for s, it in others.items() if it["name"] == words[1]]
            if not named:
                raise Rejected(T.HANDS_FULL.format(name=item["name"], hands=T.joined(it["name"] for it in others.values())))
            free = named[0]
        else:
            free = "held" if "held" in others else "armour"
        old = equipped(p, free)
        p[free] = None
    p[slot], p["acted"] = item["id"], True
    if old:
        return [reply(T.EQUIPPED_SWAP.format(name=item["name"], old=old["name"]))]
    return [reply(T.EQUIPPED.format(name=item["name"]))]


def drop(state: State, seat: int, args: dict[str, Any], ctx: Ctx, cfg: Cfg) -> list[Effect]:
    p = _night(state, seat, cfg)
    item = find_own(p, args.get("item", ""), prefer_unequipped=True)
    remove_item(p, item)
    state["ground"][p["place"]].append(item)
    p["acted"] = True
    return [reply(T.DROPPED.format(name=item["name"], place=p["place"]))]


def rest(state: State, seat: int, args: dict[str, Any], ctx: Ctx, cfg: Cfg) -> list[Effect]:
    p = _night(state, seat, cfg)
    if p["acted"]:
        raise Rejected(T.ALREADY_ACTED)
    text = (args.get("place") or "").strip()
    if text:
        place = _place(state, cfg, text)
        if place != p["place"]:
            _pay(p, cfg["rules"]["rest_move_cost"], T.WHAT_MOVE)
            p["place"] = place
            arrived(state, p)
    p["rest"], p["search"] = True, None
    return [reply(T.RESTING_OK.format(place=p["place"], hp=cfg["rules"]["rest_hp"]))]


# ---- items -------------------------------------------------------------------

def _find_seat(state: State, token: str) -> int:
    token = token.strip().lstrip("@")
    for s, p in sorted(state["players"].items(), key=lambda kv: int(kv[0])):
        if token == s or token == p["alias"]:
            return int(s)
    raise Rejected(T.RADAR_UNKNOWN.format(text=token))


def use(state: State, seat: int, args: dict[str, Any], ctx: Ctx, cfg: Cfg) -> list[Effect]:
    p = _night(state, seat, cfg)
    rules = cfg["rules"]
    in_hand = rules["use_from"] == "hand"
    item = find_own(p, args.get("item", ""), prefer_unequipped=not in_hand, prefer_equipped=in_hand)
    target = (args.get("target") or "").strip()
    cat = catalog(cfg)
    d = cat.get(item["name"]).data
    kind = item["kind"]
    night = state["day"]
    if kind in ("weapon", "armour"):
        raise Rejected(T.CANNOT_USE.format(name=item["name"]))
    if in_hand and not is_equipped(p, item):
        raise Rejected(T.NOT_IN_HAND.format(name=item["name"]))
    if kind in ("gps", "radar") and item.get("used_night") == night:
        raise Rejected(T.USED_TONIGHT.format(name=item["name"]))
    effects: list[Effect] = []
    if kind == "upgrader":
        if not target:
            raise Rejected(T.UPGRADE_WHICH.format(name=item["name"]))
        gear = find_own(p, target)
        if gear["kind"] not in ("weapon", "armour"):
            raise Rejected(T.UPGRADE_TARGET.format(name=gear["name"]))
        idx = GRADES.index(gear["grade"])
        if idx + 1 >= len(GRADES):
            raise Rejected(T.UPGRADE_TOP.format(name=gear["name"]))
        if idx + 1 > GRADES.index(d["max_grade"]):
            raise Rejected(T.UPGRADE_MAX.format(up=item["name"], grade=cat.grade_label(d["max_grade"]), name=gear["name"]))
        new_name = ctx.rng.choice(cat.names(gear["kind"], GRADES[idx + 1]))
        old = gear["name"]
        gear.update(name=new_name, grade=GRADES[idx + 1], uses=cat.get(new_name).uses)
        remove_item(p, item)
        effects.append(reply(T.UPGRADED.format(old=old, new=T.item_line(cat, gear))))
    elif kind == "gps":
        if not target:
            raise Rejected(T.GPS_WHICH.format(name=item["name"]))
        item["used_night"] = night
        effects.append(reply(_locate(state, cfg, target, seat, equipped_only=rules["gps_finds"] == "equipped")))
    elif kind == "radar":
        tokens = target.split()
        if not 1 <= len(tokens) <= 2:
            raise Rejected(T.RADAR_WHICH.format(name=item["name"]))
        lines = []
        for tok in tokens:
            t = player(state, _find_seat(state, tok))
            lines.append(T.RADAR_LINE.format(alias=t["alias"], items=T.names_or_none([T.item_line(cat, i) for i in t["items"]])))
        item["used_night"] = night
        effects.append(reply("\n".join(lines)))
    elif kind == "broadcast":
        place, who = _broadcast_args(state, cfg, target, item["name"])
        if who is not None:
            days = state["published"].get(str(who), [])
            if len(days) >= 3 or any(night + 1 - day < 3 for day in days):
                raise Rejected(T.BROADCAST_LIMIT.format(alias=player(state, who)["alias"]))
            state["published"][str(who)] = days + [night + 1]
        state["broadcasts"].append({"by": seat, "place": place, "target": who})
        remove_item(p, item)
        extra = T.BROADCAST_EXTRA.format(alias=player(state, who)["alias"]) if who is not None else ""
        effects.append(reply(T.BROADCAST_OK.format(place=place, extra=extra)))
    elif kind == "bomb":
        remove_item(p, item)
        batch = new_batch(state)
        victims = people_at(state, p["place"], exclude=seat)
        beasts = npcs_at(state, p["place"])
        dead: list[str] = []
        for v in victims:
            v["hp"] -= d["damage"]
            effects.append(Say(v["seat"], T.HURT.format(dmg=d["damage"], hp=max(v["hp"], 0))))
        for n in beasts:
            n["hp"] -= d["damage"]
            n["damage"].append([seat, d["damage"]])
        if seat not in state["night_log"]["attackers"]:
            state["night_log"]["attackers"].append(seat)
        for v in victims:
            if v["hp"] <= 0:
                effects += kill(state, v, T.CAUSE_BOMB, batch=batch, killer=seat)
                dead.append(v["alias"])
        for n in beasts:
            if n["hp"] <= 0:
                effects += kill_npc(state, n, T.CAUSE_BOMB, killer=seat)
                dead.append(n["name"])
        text = T.BOMBED + (T.BOMB_KILLS.format(names=T.joined(dead)) if dead else "")
        effects.insert(0, reply(text))
        effects += check_end(state, cfg)
    elif kind == "supply":
        remove_item(p, item)
        if d.get("stamina"):
            refresh(p, d["stamina"], rules["max_stamina"])
            effects.append(reply(T.USED_ST.format(name=item["name"], st=p["st"])))
        if d.get("hp"):
            cure = d.get("cure", "none")
            if p["bleed"] and cure in ("instead", "also"):
                p["bleed"], p["bleed_by"] = 0, None
                if cure == "also":
                    heal(p, d["hp"], rules["max_hp"])
                effects.append(reply(T.USED_CURE.format(name=item["name"], hp=p["hp"])))
            else:
                heal(p, d["hp"], rules["max_hp"])
                effects.append(reply(T.USED_HP.format(name=item["name"], hp=p["hp"])))
    elif kind == "money":
        remove_item(p, item)
        p["money"] += d["money"]
        effects.append(reply(T.USED_MONEY.format(name=item["name"], money=p["money"])))
    p["acted"] = True
    return effects


def _locate(state: State, cfg: Cfg, name: str, seat: int, *, equipped_only: bool) -> str:
    """心跳探测仪: 可获知1件道具所在区域，如果被角色装备，则反馈角色所在区域."""
    for place in cfg["places"]["names"]:
        if any(it["name"] == name for it in state["ground"].get(place, [])):
            return T.GPS_GROUND.format(target=name, place=place)
    holders = [player(state, s) for s in sorted(int(k) for k in state["players"])]
    holders = [q for q in holders if q["seat"] != seat and q["alive"] and q["place"]]
    holders += [n for n in state["npcs"] if n["alive"]]
    for q in holders:
        if any(it["name"] == name and (is_equipped(q, it) or not equipped_only) for it in q["items"]):
            return T.GPS_HELD.format(target=name, place=q["place"])
    return T.GPS_NONE.format(target=name)


def _broadcast_args(state: State, cfg: Cfg, text: str, name: str) -> tuple[str, int | None]:
    tokens = text.split()
    for i in range(len(tokens), 0, -1):
        place = find_place(cfg, " ".join(tokens[:i]))
        if place is not None:
            if place in state["closed"]:
                raise Rejected(T.CLOSED_PLACE.format(place=place))
            rest = tokens[i:]
            if len(rest) > 1:
                break
            return place, (_find_seat(state, rest[0]) if rest else None)
    raise Rejected(T.BROADCAST_WHICH.format(name=name))


# ---- shop --------------------------------------------------------------------

def buy(state: State, seat: int, args: dict[str, Any], ctx: Ctx, cfg: Cfg) -> list[Effect]:
    p = _night(state, seat, cfg)
    name = (args.get("item") or "").strip()
    price = cfg["shop"]["prices"].get(name)
    if price is None:
        raise Rejected(T.NOT_FOR_SALE.format(name=name))
    if state["shop"].get(name, 0) <= 0:
        raise Rejected(T.SOLD_OUT.format(name=name))
    if p["money"] < price:
        raise Rejected(T.NO_MONEY.format(name=name, price=price, money=p["money"]))
    cap = cfg["rules"]["bag_size"]
    if len(p["items"]) >= cap:
        raise Rejected(T.BAG_FULL.format(n=cap))
    cat = catalog(cfg)
    real = name
    if name in (T.GREEN_WEAPON, T.GREEN_ARMOUR):
        real = ctx.rng.choice(cat.names("weapon" if name == T.GREEN_WEAPON else "armour", "green"))
    p["money"] -= price
    state["shop"][name] -= 1
    p["items"].append(new_item(state, cat, real))
    p["acted"] = True
    return [reply(T.BOUGHT.format(name=real, money=p["money"]))]


def sell(state: State, seat: int, args: dict[str, Any], ctx: Ctx, cfg: Cfg) -> list[Effect]:
    p = _alive(state, seat)
    when = cfg["rules"]["sell_phase"]
    if when == "day" and state["phase"] != "day":
        raise Rejected(T.NOT_DAY)
    if when == "night" and state["phase"] != "night":
        raise Rejected(T.NOT_NIGHT_SELL)
    which = cfg["rules"]["sell_which"]
    item = find_own(p, args.get("item", ""), prefer_unequipped=which == "unequipped",
                    prefer_equipped=which == "equipped")
    if item["kind"] not in ("weapon", "armour"):
        raise Rejected(T.SELL_ONLY_GEAR)
    if which == "unequipped" and is_equipped(p, item):
        raise Rejected(T.SELL_EQUIPPED.format(name=item["name"]))
    if which == "equipped" and not is_equipped(p, item):
        raise Rejected(T.SELL_UNEQUIPPED.format(name=item["name"]))
    remove_item(p, item)
    sell_cfg = cfg["shop"]["sell"]
    if item["grade"] == "green":
        p["green_sold"] += 1
        per = sell_cfg["green_per_coin"]
        shown = p["green_sold"]
        if p["green_sold"] >= per:
            p["green_sold"] = 0
            p["money"] += 1
        return [reply(T.SOLD_GREEN.format(name=item["name"], n=shown, per=per, money=p["money"]))]
    p["money"] += sell_cfg["better_price"]
    return [reply(T.SOLD.format(name=item["name"], money=p["money"]))]


ACTIONS: dict[str, Action] = {
    "birth": birth, "move": move, "search": search, "attack": attack, "pickup": pickup,
    "equip": equip, "drop": drop, "rest": rest, "use": use, "buy": buy, "sell": sell,
}
