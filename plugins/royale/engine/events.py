"""The ten random events (rules: 随机事件) and the NPCs they bring.

Each event is a data entry of ``content/events.toml`` (``events.list``) whose
``key`` names its rule functions here. A day's events are drawn in the morning
(``morning``), act when the night opens (``night_open``) and when it ends
(``night_close``). All randomness comes from the ``rng`` handed in (ctx.rng).
"""

from __future__ import annotations

import math
import random
from typing import Any

from plugins.kernel.engine import Effect, Rejected, Say

from . import texts as T
from .content import GRADES, Catalog
from .model import (
    CAUSE_EVENT, Player, State, alive, heal, new_item, open_places, player, refresh,
)
from .rules_death import kill, kill_npc, new_batch

Cfg = dict[str, Any]


# ---- definitions -------------------------------------------------------------

def defs(cfg: Cfg) -> list[dict[str, Any]]:
    return list(cfg["events"]["list"])


def event_def(cfg: Cfg, key: str) -> dict[str, Any] | None:
    return next((e for e in defs(cfg) if e["key"] == key), None)


def _norm(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def find_event(cfg: Cfg, text: str) -> dict[str, Any] | None:
    """An event by its Chinese name or key, ignoring case, spaces and punctuation."""
    key = _norm(text or "")
    if not key:
        return None
    return next((e for e in defs(cfg) if key in (_norm(e["name"]), _norm(e["key"]))), None)


def today_has(state: State, key: str) -> bool:
    return any(e["key"] == key for e in state["today"])


def today_data(state: State, key: str) -> dict[str, Any]:
    return next(e for e in state["today"] if e["key"] == key)


# ---- the daily draw ------------------------------------------------------------

def eligible(state: State, cfg: Cfg, day: int, key: str) -> str:
    """"" if event ``key`` may happen on ``day``, else why not (Chinese)."""
    e = event_def(cfg, key)
    if e is None:
        return "没有这个事件"
    if e.get("fixed_day") and e["fixed_day"] != day:
        return f"「{e['name']}」固定在第{e['fixed_day']}天"
    if e.get("fixed_day"):
        return ""
    if e.get("weight", 0) <= 0:
        return f"「{e['name']}」的权重为 0，不会发生"
    if day < e.get("min_day", 1):
        return f"「{e['name']}」不会在第{e['min_day']}天之前发生"
    return ""


def draw(state: State, cfg: Cfg, rng: random.Random) -> list[dict[str, Any]]:
    """Today's event definitions: the fixed ones, a host's forced one, else a weighted draw."""
    day = state["day"]
    plan = state["event_plan"]
    forbid = list(plan.get("forbid", []))
    state["event_plan"] = {"force": None, "forbid": []}
    chosen = [e for e in defs(cfg) if e.get("fixed_day") == day and e["key"] not in forbid]
    if plan.get("force"):
        forced = event_def(cfg, plan["force"])
        if forced is not None and forced not in chosen:
            chosen.append(forced)
        return chosen
    n = cfg["events"]["per_day"] - len(chosen)
    yesterday = [x["key"] for x in state["event_log"] if x["day"] == day - 1]
    pool = [e for e in defs(cfg) if e.get("weight", 0) > 0 and not e.get("fixed_day")
            and day >= e.get("min_day", 1) and e["key"] not in forbid and e not in chosen]
    if cfg["events"]["no_repeat"]:
        pool = [e for e in pool if e["key"] not in yesterday] or pool
    if cfg["events"]["prefer_new"]:
        seen = [x["key"] for x in state["event_log"]]
        fresh = [e for e in pool if e["key"] not in seen]
        pool = fresh or pool
    while n > 0 and pool:
        pick = rng.choices(pool, weights=[e["weight"] for e in pool], k=1)[0]
        chosen.append(pick)
        pool = [e for e in pool if e is not pick]
        n -= 1
    return chosen


# ---- ranking keys (排行榜, 逆袭) ----------------------------------------------

def rank_key(p: Player, cfg: Cfg) -> tuple[int, ...]:
    """排行榜: 武器等级、橙武剩余次数、防具等级、橙防剩余次数、紫防剩余次数、持有血药、持有体力药、
    当前生命值、当前体力值 (grades count items in hand or in the bag)."""
    cat = Catalog(cfg)

    def best(kind: str) -> int:
        return max((GRADES.index(it["grade"]) + 1 for it in p["items"] if it["kind"] == kind), default=0)

    def uses(kind: str, grade: str) -> int:
        return max((it["uses"] or 0 for it in p["items"] if it["kind"] == kind and it["grade"] == grade), default=0)

    def supplies(field: str) -> int:
        return sum(1 for it in p["items"] if it["kind"] == "supply" and cat.get(it["name"]).data.get(field))

    return (best("weapon"), uses("weapon", "orange"), best("armour"), uses("armour", "orange"),
            uses("armour", "purple"), supplies("hp"), supplies("stamina"), p["hp"], p["st"])


def top_players(state: State, cfg: Cfg, n: int) -> list[Player]:
    """The first ``n`` by rank_key; everyone tied with the n-th is included."""
    ps = sorted(alive(state), key=lambda p: (tuple(-k for k in rank_key(p, cfg)), p["seat"]))
    if len(ps) <= n:
        return ps
    cut = rank_key(ps[n - 1], cfg)
    return [p for p in ps if rank_key(p, cfg) >= cut]


def bottom_players(state: State, cfg: Cfg, percent: int) -> list[Player]:
    """The last ``percent``% (at least one) of the born living players; ties included."""
    ps = sorted((p for p in alive(state) if p["place"] is not None), key=lambda p: (rank_key(p, cfg), p["seat"]))
    if not ps:
        return []
    n = max(1, math.ceil(len(ps) * percent / 100))
    cut = rank_key(ps[n - 1], cfg)
    return [p for p in ps if rank_key(p, cfg) <= cut]


# ---- NPCs ----------------------------------------------------------------------

def spawn(state: State, kind: str, name: str, hp: int, place: str) -> dict[str, Any]:
    state["npc_seq"] += 1
    n = {"npc": True, "id": f"n{state['npc_seq']}", "kind": kind, "name": name, "alive": True,
         "hp": hp, "max_hp": hp, "place": place, "items": [], "weapon": None, "armour": None,
         "held": None, "bleed": 0, "bleed_by": None, "damage": [], "day": state["day"]}
    state["npcs"].append(n)
    return n


def witch(state: State) -> dict[str, Any] | None:
    return next((n for n in state["npcs"] if n["kind"] == "witch" and n["alive"]), None)


def _grid(cfg: Cfg) -> dict[str, dict[str, Any]]:
    return {e["name"]: e for e in cfg["map"]["places"]}


def witch_move(state: State, cfg: Cfg, w: dict[str, Any], rng: random.Random) -> None:
    """To an adjacent open place (not closing tonight if possible); if none is adjacent,
    to the nearest open place on the map."""
    grid = _grid(cfg)
    opened = [p for p in open_places(state, cfg) if p != w["place"]]
    if not opened:
        return
    adj = [p for p in grid[w["place"]].get("adjacent", []) if p in opened]
    calm = [p for p in adj if p not in state["closing"]]
    if calm or adj:
        w["place"] = rng.choice(calm or adj)
        return
    x, y = grid[w["place"]]["x"], grid[w["place"]]["y"]
    dist = {p: max(abs(grid[p]["x"] - x), abs(grid[p]["y"] - y)) for p in opened}
    near = min(dist.values())
    w["place"] = rng.choice([p for p in opened if dist[p] == near])


# ---- giving items ----------------------------------------------------------------

def give(state: State, cfg: Cfg, p: Player, name: str) -> bool:
    """Put a new ``name`` in the bag; False (nothing given) if the bag is full."""
    if len(p["items"]) >= cfg["rules"]["bag_size"]:
        return False
    p["items"].append(new_item(state, Catalog(cfg), name))
    return True


def _lose(state: State, p: Player, hp: int, batch: int) -> list[Effect]:
    p["hp"] -= hp
    if p["hp"] <= 0:
        return kill(state, p, CAUSE_EVENT, batch=batch)
    return []


# ---- morning ----------------------------------------------------------------------

def morning(state: State, cfg: Cfg, rng: random.Random) -> tuple[list[str], list[Effect]]:
    """Draw today's events, apply their morning parts. Returns post lines and effects.
    Called after the weather and tonight's closures are set."""
    day = state["day"]
    chosen = draw(state, cfg, rng)
    state["today"] = [{"key": e["key"]} for e in chosen]
    state["holy"] = None
    lines: list[str] = []
    effects: list[Effect] = []
    for e in chosen:
        first = not any(x["key"] == e["key"] for x in state["event_log"])
        state["event_log"].append({"day": day, "key": e["key"]})
        data = today_data(state, e["key"])
        text = e.get("post", "")
        if e["key"] == "moon":
            state["moon"] = True
        elif e["key"] == "wind":
            state["moon"] = False
        elif e["key"] == "winter":
            _set_weather(state, cfg, e["weather"])
        elif e["key"] == "witch":
            if first:
                _set_weather(state, cfg, e["first_weather"])
            w = witch(state)
            if w is None:
                spots = [p for p in open_places(state, cfg) if p not in state["closing"]] or open_places(state, cfg)
                w = spawn(state, "witch", "游荡的女巫", e["hp"], rng.choice(spots))
            text = text.format(place=w["place"] if e.get("public_place", True) else "某个地点")
        elif e["key"] == "wanted":
            pool = [p["seat"] for p in alive(state)]
            data["seats"] = sorted(rng.sample(pool, min(e["count"], len(pool))))
            text = text.format(who="、".join(player(state, s)["alias"] for s in data["seats"]))
        elif e["key"] == "pilgrimage":
            spots = [p for p in open_places(state, cfg) if p not in state["closing"]] or open_places(state, cfg)
            holy = rng.choice(spots)
            state["holy"] = data["place"] = holy
            text = text.format(place=holy)
            for p in alive(state):
                if p["place"] == holy:
                    ok = give(state, cfg, p, e["morning_item"])
                    effects.append(Say(p["seat"], (T.HOLY_GIFT if ok else T.HOLY_FULL).format(name=e["morning_item"])))
        elif e["key"] == "leaderboard":
            top = top_players(state, cfg, e["top"])
            text = text.format(who="、".join(p["alias"] for p in top) or T.NONE)
        lines.append(T.EVENT_LINE.format(name=e["name"], text=text))
    if not chosen:
        lines.append(T.EVENT_NONE)
    moon = event_def(cfg, "moon")
    if state["moon"] and moon and state["closing"]:
        place = rng.choice(state["closing"])
        wolf = spawn(state, "werewolf", "躁动的狼人", moon["hp"], place)
        wolf["items"].append(new_item(state, Catalog(cfg), rng.choice(moon["items"])))
        where = f"（在「{place}」）" if moon.get("public_place") else "（在今晚缩圈的某个地点）"
        lines.append(T.WOLF_SPAWN.format(where=where))
    w = witch(state)
    if w is not None:
        public = (event_def(cfg, "witch") or {}).get("public_place", True)
        line = T.WITCH_WHERE.format(place=w["place"] if public else "某个地点", hp="")
        guests = state.get("witch_guests")
        if guests and guests["seats"]:
            sign = "增加" if guests["delta"] > 0 else "扣除"
            line += T.WITCH_EFFECT.format(n=len(guests["seats"]), sign=sign, v=abs(guests["delta"]))
        lines.append(line)
    return lines, effects


def _set_weather(state: State, cfg: Cfg, name: str) -> None:
    w = next(w for w in cfg["weather"] if w["name"] == name)
    state["weather"], state["see"] = w["name"], w["see"]


# ---- night open -----------------------------------------------------------------

def night_open(state: State, cfg: Cfg, rng: random.Random) -> list[Effect]:
    """夜间行动前: the witch's guests, then she moves; 逆袭; Change！; 朝圣之路's 绷带."""
    effects: list[Effect] = []
    state["night_log"] = {"hits": [], "attackers": [], "holy": []}
    rules = cfg["rules"]
    batch = new_batch(state)
    w = witch(state)
    guests = state.get("witch_guests")
    if guests:
        for s in guests["seats"]:
            p = player(state, s)
            if not p["alive"]:
                continue
            if guests["delta"] > 0:
                heal(p, guests["delta"], rules["max_hp"])
                effects.append(Say(s, T.WITCH_HEAL.format(v=guests["delta"], hp=p["hp"])))
            else:
                effects.append(Say(s, T.WITCH_HURT.format(v=-guests["delta"], hp=max(0, p["hp"] + guests["delta"]))))
                effects += _lose(state, p, -guests["delta"], batch)
        state["witch_guests"] = None
    if w is not None and w["day"] < state["day"]:
        witch_move(state, cfg, w, rng)
    if today_has(state, "comeback"):
        e = event_def(cfg, "comeback")
        pool = bottom_players(state, cfg, e["bottom_percent"])
        if pool:
            lucky = rng.choice(pool)
            cat = Catalog(cfg)
            got = []
            today_data(state, "comeback")["hands"] = [lucky["weapon"], lucky["armour"], lucky.get("held")]
            for kind in ("weapon", "armour"):
                it = new_item(state, cat, rng.choice(cat.names(kind, "orange")))
                it["temp"] = True
                lucky["items"].append(it)
                lucky[kind] = it["id"]
                got.append(it["name"])
            if lucky.get("held") is not None:
                lucky["held"] = None  # both hands now hold the orange gear
            lucky["money"] += e["money"]
            today_data(state, "comeback")["seat"] = lucky["seat"]
            effects.append(Say(lucky["seat"], T.COMEBACK.format(items="、".join(got), money=e["money"])))
    if today_has(state, "change"):
        for p in alive(state):
            p["hp"], p["st"] = min(p["st"], rules["max_hp"]), min(p["hp"], rules["max_stamina"])
            effects.append(Say(p["seat"], T.CHANGE.format(hp=p["hp"], st=p["st"])))
        for p in alive(state):
            if p["hp"] <= 0:
                effects += kill(state, p, CAUSE_EVENT, batch=batch)
    if today_has(state, "pilgrimage") and state["holy"]:
        e = event_def(cfg, "pilgrimage")
        for p in alive(state):
            if p["place"] == state["holy"]:
                state["night_log"]["holy"].append(p["seat"])
                ok = give(state, cfg, p, e["evening_item"])
                effects.append(Say(p["seat"], (T.HOLY_GIFT if ok else T.HOLY_FULL).format(name=e["evening_item"])))
    return effects


# ---- night close ------------------------------------------------------------------

def crowd_counts(state: State) -> dict[str, int]:
    """凛冬已至: living born players per place when the night's actions end."""
    counts: dict[str, int] = {}
    for p in alive(state):
        if p["place"] is not None:
            counts[p["place"]] = counts.get(p["place"], 0) + 1
    return counts


def npc_closures(state: State, cfg: Cfg, rng: random.Random) -> None:
    """Closing places: werewolves vanish with their item; the witch walks away."""
    for n in state["npcs"]:
        if n["alive"] and n["place"] in state["closing"]:
            if n["kind"] == "witch":
                witch_move(state, cfg, n, rng)
                if n["place"] in state["closing"]:
                    kill_npc(state, n, "缩圈", vanish=True)
            else:
                kill_npc(state, n, "缩圈", vanish=True)


def night_close(state: State, cfg: Cfg, rng: random.Random, crowd: dict[str, int]) -> list[Effect]:
    """夜间行动后 (after bleed, closures and drowning, before 静养 recovery)."""
    effects: list[Effect] = []
    rules = cfg["rules"]
    night = state["day"]
    log = state["night_log"]
    batch = new_batch(state)
    if today_has(state, "wanted"):
        e = event_def(cfg, "wanted")
        data = today_data(state, "wanted")
        landed = [d for d in state["landed"] if d["day"] == night]
        for target in data.get("seats", []):
            totals: dict[int, int] = {}
            order: list[int] = []
            for by, whom, dmg in log["hits"]:
                if whom == target:
                    totals[by] = totals.get(by, 0) + dmg
                    if by not in order:
                        order.append(by)
            if totals:
                top = max(totals.values())
                best = next(s for s in order if totals[s] == top)
                hunter = player(state, best)
                if hunter["alive"]:
                    hunter["claims"].append({"kind": "wanted", "options": list(e["rewards"])})
                    effects.append(Say(best, T.WANTED_TOP.format(alias=player(state, target)["alias"],
                                                                 options="、".join(e["rewards"]))))
            death = next((d for d in state["deaths"] if d["seat"] == target and d["night"] == night
                          and d["killer"] is not None and d["killer"] != target), None)
            if death is not None and player(state, death["killer"])["alive"]:
                if landed:
                    names = sorted({d["name"] for d in landed}, key=[d["name"] for d in landed].index)
                    player(state, death["killer"])["claims"].append({"kind": "airdrop", "options": names})
                    effects.append(Say(death["killer"], T.WANTED_KILL.format(options="、".join(names))))
                else:
                    effects.append(Say(death["killer"], T.WANTED_KILL_NONE))
    if today_has(state, "comeback"):
        for p in state["players"].values():
            temp = [it for it in p["items"] if it.get("temp")]
            for it in temp:
                p["items"] = [x for x in p["items"] if x["id"] != it["id"]]
                for slot in ("weapon", "armour", "held"):
                    if p.get(slot) == it["id"]:
                        p[slot] = None
        data = today_data(state, "comeback")
        if data.get("seat") is not None:  # the lucky one's own gear goes back into the hands
            p = player(state, data["seat"])
            own = [it["id"] for it in p["items"]]
            for slot, ident in zip(("weapon", "armour", "held"), data.get("hands", [])):
                if ident in own and p.get(slot) is None and ident not in (p["weapon"], p["armour"], p.get("held")):
                    p[slot] = ident
        for n in state["npcs"]:
            n["items"] = [it for it in n["items"] if not it.get("temp")]
        for place in state["ground"]:
            state["ground"][place] = [it for it in state["ground"][place] if not it.get("temp")]
    if today_has(state, "pilgrimage") and state["holy"]:
        e = event_def(cfg, "pilgrimage")
        for p in alive(state):
            if p["seat"] in log["holy"]:
                continue
            cost = e["penalty"]
            paid = min(cost, p["st"])
            p["st"] -= paid
            effects.append(Say(p["seat"], T.HOLY_PENALTY.format(st=paid, hp=cost - paid)))
            if cost > paid:
                effects += _lose(state, p, cost - paid, batch)
    if today_has(state, "winter"):
        e = event_def(cfg, "winter")
        for p in alive(state):
            if p["place"] is None:
                continue
            n = crowd.get(p["place"], 0)
            if n > e["crowd"]:
                effects.append(Say(p["seat"], T.WINTER_HURT.format(n=n, v=-e["over_hp"])))
                effects += _lose(state, p, -e["over_hp"], batch)
            elif n < e["crowd"]:
                heal(p, e["under_hp"], rules["max_hp"])
                effects.append(Say(p["seat"], T.WINTER_HEAL.format(n=n, v=e["under_hp"], hp=p["hp"])))
            else:
                heal(p, e["exact_hp"], rules["max_hp"])
                refresh(p, e["exact_st"], rules["max_stamina"])
                effects.append(Say(p["seat"], T.WINTER_EXACT.format(hp=p["hp"], st=p["st"])))
    if today_has(state, "war"):
        e = event_def(cfg, "war")
        counts: dict[int, int] = {}
        for by, _whom, _dmg in log["hits"]:
            if player(state, by)["alive"]:
                counts[by] = counts.get(by, 0) + 1
        if counts:
            most = max(counts.values())
            for s in sorted(counts):
                if counts[s] == most:
                    p = player(state, s)
                    if give(state, cfg, p, e["item"]):
                        effects.append(Say(s, T.WAR_PRIZE.format(name=e["item"], n=most)))
                    else:
                        state["ground"][p["place"]].append(new_item(state, Catalog(cfg), e["item"]))
                        effects.append(Say(s, T.WAR_PRIZE_GROUND.format(name=e["item"], n=most, place=p["place"])))
        for p in alive(state):
            if p["place"] is not None and p["seat"] not in log["attackers"]:
                p["rest"] = True  # 没有攻击过别人的玩家视为成功进行了休养
    e = event_def(cfg, "witch")
    for n in state["npcs"]:
        if n["kind"] == "witch" and not n["alive"] and not n.get("gone") and not n.get("rewarded"):
            n["rewarded"] = True
            totals: dict[int, int] = {}
            for by, dmg in n["damage"]:
                totals[by] = totals.get(by, 0) + dmg
            per, reward = (e or {}).get("reward_per", 25), (e or {}).get("reward", 5)
            for s in sorted(totals):
                p = player(state, s)
                units = math.ceil(totals[s] / per)
                if p["alive"] and units:
                    p["claims"].append({"kind": "witch", "units": units, "each": reward})
                    effects.append(Say(s, T.WITCH_REWARD.format(units=units, each=reward)))
    w = witch(state)
    if w is not None:
        seats = [p["seat"] for p in alive(state) if p["place"] == w["place"]]
        v = (e or {}).get("effect", 30)
        state["witch_turn"] += 1
        state["witch_guests"] = {"seats": seats, "delta": -v if state["witch_turn"] % 2 == 1 else v}
    if today_has(state, "wind"):
        for place in state["ground"]:
            state["ground"][place] = []
    return effects


# ---- claims (/领取) ----------------------------------------------------------------

def claim(state: State, cfg: Cfg, p: Player, text: str) -> str:
    """Settle one pending choice: 通缉令 reward, air-drop place, or the witch's reward."""
    claims = p["claims"]
    if not claims:
        raise Rejected(T.CLAIM_NONE)
    words = (text or "").split()
    if not words:
        raise Rejected(T.CLAIM_LIST.format(items=claims_text(p)))
    word = words[0]
    for c in claims:
        if c["kind"] == "witch" and word in ("生命", "体力"):
            n = c["units"]
            if len(words) > 1:
                if not words[1].isdigit() or not 1 <= int(words[1]) <= c["units"]:
                    raise Rejected(T.CLAIM_UNITS.format(n=c["units"]))
                n = int(words[1])
            c["units"] -= n
            if word == "生命":
                p["hp"] += n * c["each"]  # 可以超出100点上限
            else:
                p["st"] += n * c["each"]
            if c["units"] <= 0:
                claims.remove(c)
            return T.CLAIMED_WITCH.format(what=word, v=n * c["each"], hp=p["hp"], st=p["st"])
        if c["kind"] == "wanted" and word in c["options"]:
            if not give(state, cfg, p, word):
                raise Rejected(T.BAG_FULL.format(n=cfg["rules"]["bag_size"]))
            claims.remove(c)
            return T.CLAIMED_ITEM.format(name=word)
        if c["kind"] == "airdrop" and word in c["options"]:
            spot = next(d["place"] for d in state["landed"] if d["name"] == word and d["day"] == max(
                x["day"] for x in state["landed"] if x["name"] == word))
            claims.remove(c)
            return T.CLAIMED_DROP.format(name=word, place=spot)
    raise Rejected(T.CLAIM_LIST.format(items=claims_text(p)))


def claims_text(p: Player) -> str:
    parts = []
    for c in p["claims"]:
        if c["kind"] == "witch":
            parts.append(f"女巫奖励 {c['units']} 份（/领取 生命 [份数] 或 /领取 体力 [份数]，每份 {c['each']} 点）")
        elif c["kind"] == "wanted":
            parts.append(f"通缉令奖励（/领取 {' 或 /领取 '.join(c['options'])}）")
        else:
            parts.append(f"空投地点（/领取 <{'、'.join(c['options'])}中的一件>）")
    return "；".join(parts)


def held_somewhere(state: State) -> list[int]:
    """Every item id wherever it is (players, NPCs, ground) — for invariant checks."""
    ids = [it["id"] for items in state["ground"].values() for it in items]
    ids += [it["id"] for p in state["players"].values() for it in p["items"]]
    ids += [it["id"] for n in state["npcs"] for it in n["items"]]
    return ids

