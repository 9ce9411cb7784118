"""The ten random events (rules: 随机事件) and the NPCs they bring.

Each event is a data entry of ``content/events.toml`` (``events.list``) whose
``key`` names its rule functions here (``RULES[key]``: ``morning``, ``open``,
``close``). A day's events are drawn in the morning (``morning``), act when the
night opens (``night_open``) and when it ends (``night_close``). The NPCs' own
nightly steps (the witch's guests and moves, the werewolf of 月圆之夜) run beside
them. All randomness comes from the ``rng`` handed in (ctx.rng).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from plugins.gamekit.contract import Effect, Rejected, Say

from . import texts as T
from .content import GRADES, catalog
from .model import (
    Player,
    State,
    alive,
    heal,
    new_item,
    open_places,
    player,
    refresh,
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


# ---- the daily draw ------------------------------------------------------------

def eligible(state: State, cfg: Cfg, day: int, key: str) -> str:
    """"" if event ``key`` may happen on ``day``, else why not (Chinese)."""
    e = event_def(cfg, key)
    if e is None:
        return T.EVENT_NO_SUCH
    if e.get("fixed_day") and e["fixed_day"] != day:
        return T.EVENT_FIXED_DAY.format(name=e["name"], day=e["fixed_day"])
    if e.get("fixed_day"):
        return ""
    if e.get("weight", 0) <= 0:
        return T.EVENT_NO_WEIGHT.format(name=e["name"])
    if day < e.get("min_day", 1):
        return T.EVENT_TOO_EARLY.format(name=e["name"], day=e["min_day"])
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
    cat = catalog(cfg)

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
    p["items"].append(new_item(state, catalog(cfg), name))
    return True


def _lose(state: State, p: Player, hp: int, batch: int) -> list[Effect]:
    p["hp"] -= hp
    if p["hp"] <= 0:
        return kill(state, p, T.CAUSE_EVENT, batch=batch)
    return []


# ---- the rule functions, one set per event ----------------------------------------------
#
# morning(state, cfg, e, data, rng, first) -> (text, effects): after weather and closures;
#   ``text`` is the event's post line (the seed's text, filled in).
# night_open(state, cfg, e, data, rng) -> effects: 夜间行动前.
# night_close(state, cfg, e, data, rng, ctx) -> effects: 夜间行动后 (after bleed, closures,
#   drowning; before 静养 recovery). ``ctx`` carries the night's facts (crowd counts, batch).

def _plain(state: State, cfg: Cfg, e: dict[str, Any], data: dict[str, Any], rng: random.Random,
           first: bool) -> tuple[str, list[Effect]]:
    return e.get("post", ""), []


# 1. 通缉令
def wanted_morning(state, cfg, e, data, rng, first):
    pool = [p["seat"] for p in alive(state)]
    data["seats"] = sorted(rng.sample(pool, min(e["count"], len(pool))))
    return e["post"].format(who=T.joined(player(state, s)["alias"] for s in data["seats"])), []


def wanted_close(state, cfg, e, data, rng, night):
    effects: list[Effect] = []
    landed = [d for d in state["landed"] if d["day"] == night["day"]]
    for target in data.get("seats", []):
        totals: dict[int, int] = {}
        order: list[int] = []
        for by, whom, dmg in night["log"]["hits"]:
            if whom == target:
                totals[by] = totals.get(by, 0) + dmg
                if by not in order:
                    order.append(by)
        if totals:
            top = max(totals.values())
            best = next(s for s in order if totals[s] == top)
            if player(state, best)["alive"]:
                player(state, best)["claims"].append({"kind": "wanted", "options": list(e["rewards"])})
                effects.append(Say(best, T.WANTED_TOP.format(alias=player(state, target)["alias"],
                                                             options=T.joined(e["rewards"]))))
        death = next((d for d in state["deaths"] if d["seat"] == target and d["night"] == night["day"]
                      and d["killer"] is not None and d["killer"] != target), None)
        if death is not None and player(state, death["killer"])["alive"]:
            if landed:
                names = sorted({d["name"] for d in landed}, key=[d["name"] for d in landed].index)
                player(state, death["killer"])["claims"].append({"kind": "airdrop", "options": names})
                effects.append(Say(death["killer"], T.WANTED_KILL.format(options=T.joined(names))))
            else:
                effects.append(Say(death["killer"], T.WANTED_KILL_NONE))
    return effects


# 2. 逆袭
def comeback_open(state, cfg, e, data, rng):
    pool = bottom_players(state, cfg, e["bottom_percent"])
    if not pool:
        return []
    lucky = rng.choice(pool)
    cat = catalog(cfg)
    got = []
    data["hands"] = [lucky["weapon"], lucky["armour"], lucky.get("held")]
    for kind in ("weapon", "armour"):
        it = new_item(state, cat, rng.choice(cat.names(kind, "orange")))
        it["temp"] = True
        lucky["items"].append(it)
        lucky[kind] = it["id"]
        got.append(it["name"])
    lucky["held"] = None  # both hands now hold the orange gear
    lucky["money"] += e["money"]
    data["seat"] = lucky["seat"]
    return [Say(lucky["seat"], T.COMEBACK.format(items=T.joined(got), money=e["money"]))]


def comeback_close(state, cfg, e, data, rng, night):
    for p in state["players"].values():
        for it in [it for it in p["items"] if it.get("temp")]:
            p["items"] = [x for x in p["items"] if x["id"] != it["id"]]
            for slot in ("weapon", "armour", "held"):
                if p.get(slot) == it["id"]:
                    p[slot] = None
    for n in state["npcs"]:
        n["items"] = [it for it in n["items"] if not it.get("temp")]
    for place in state["ground"]:
        state["ground"][place] = [it for it in state["ground"][place] if not it.get("temp")]
    if data.get("seat") is not None:  # the lucky one's own gear goes back into the hands
        p = player(state, data["seat"])
        own = [it["id"] for it in p["items"]]
        for slot, ident in zip(("weapon", "armour", "held"), data.get("hands", [])):
            if ident in own and p.get(slot) is None and ident not in (p["weapon"], p["armour"], p.get("held")):
                p[slot] = ident
    return []


# 3. Change！
def change_open(state, cfg, e, data, rng):
    rules = cfg["rules"]
    effects: list[Effect] = []
    for p in alive(state):
        p["hp"], p["st"] = min(p["st"], rules["max_hp"]), min(p["hp"], rules["max_stamina"])
        effects.append(Say(p["seat"], T.CHANGE.format(hp=p["hp"], st=p["st"])))
    batch = new_batch(state)
    for p in alive(state):
        if p["hp"] <= 0:
            effects += kill(state, p, T.CAUSE_EVENT, batch=batch)
    return effects


# 4. 朝圣之路
def pilgrimage_morning(state, cfg, e, data, rng, first):
    spots = [p for p in open_places(state, cfg) if p not in state["closing"]] or open_places(state, cfg)
    holy = rng.choice(spots)
    state["holy"] = data["place"] = holy
    effects: list[Effect] = []
    for p in alive(state):
        if p["place"] == holy:
            ok = give(state, cfg, p, e["morning_item"])
            effects.append(Say(p["seat"], (T.HOLY_GIFT if ok else T.HOLY_FULL).format(name=e["morning_item"])))
    return e["post"].format(place=holy), effects


def pilgrimage_open(state, cfg, e, data, rng):
    effects: list[Effect] = []
    for p in alive(state):
        if p["place"] == state["holy"]:
            state["night_log"]["holy"].append(p["seat"])
            ok = give(state, cfg, p, e["evening_item"])
            effects.append(Say(p["seat"], (T.HOLY_GIFT if ok else T.HOLY_FULL).format(name=e["evening_item"])))
    return effects


def pilgrimage_close(state, cfg, e, data, rng, night):
    effects: list[Effect] = []
    for p in alive(state):
        if p["seat"] in night["log"]["holy"]:
            continue
        cost = e["penalty"]
        paid = min(cost, p["st"])
        p["st"] -= paid
        effects.append(Say(p["seat"], T.HOLY_PENALTY.format(st=paid, hp=cost - paid)))
        if cost > paid:
            effects += _lose(state, p, cost - paid, night["batch"])
    return effects


# 5. 不吞双女巫协会 (her nightly moves and guests: npc_open / npc_close below)
def witch_morning(state, cfg, e, data, rng, first):
    if first:
        _set_weather(state, cfg, e["first_weather"])
    w = witch(state)
    if w is None:
        spots = [p for p in open_places(state, cfg) if p not in state["closing"]] or open_places(state, cfg)
        w = spawn(state, "witch", T.WITCH_NAME, e["hp"], rng.choice(spots))
    return e["post"].format(place=w["place"] if e.get("public_place", True) else T.SOMEWHERE), []


# 6. 起风了
def wind_morning(state, cfg, e, data, rng, first):
    state["moon"] = False
    return e["post"], []


def wind_close(state, cfg, e, data, rng, night):
    for place in state["ground"]:
        state["ground"][place] = []
    return []


# 7. 排行榜
def leaderboard_morning(state, cfg, e, data, rng, first):
    top = top_players(state, cfg, e["top"])
    return e["post"].format(who=T.joined(p["alias"] for p in top) or T.NONE), []


# 8. 凛冬已至
def winter_morning(state, cfg, e, data, rng, first):
    _set_weather(state, cfg, e["weather"])
    return e["post"], []


def winter_close(state, cfg, e, data, rng, night):
    rules = cfg["rules"]
    effects: list[Effect] = []
    for p in alive(state):
        if p["place"] is None:
            continue
        n = night["crowd"].get(p["place"], 0)
        if n > e["crowd"]:
            effects.append(Say(p["seat"], T.WINTER_HURT.format(n=n, v=-e["over_hp"])))
            effects += _lose(state, p, -e["over_hp"], night["batch"])
        elif n < e["crowd"]:
            heal(p, e["under_hp"], rules["max_hp"])
            effects.append(Say(p["seat"], T.WINTER_HEAL.format(n=n, v=e["under_hp"], hp=p["hp"])))
        else:
            heal(p, e["exact_hp"], rules["max_hp"])
            refresh(p, e["exact_st"], rules["max_stamina"])
            effects.append(Say(p["seat"], T.WINTER_EXACT.format(hp=p["hp"], st=p["st"])))
    return effects


# 9. 战争与和平
def war_close(state, cfg, e, data, rng, night):
    effects: list[Effect] = []
    counts: dict[int, int] = {}
    for by, _whom, _dmg in night["log"]["hits"]:
        if player(state, by)["alive"]:
            counts[by] = counts.get(by, 0) + 1
    if counts:
        most = max(counts.values())
        for s in sorted(counts):
            if counts[s] != most:
                continue
            p = player(state, s)
            if give(state, cfg, p, e["item"]):
                effects.append(Say(s, T.WAR_PRIZE.format(name=e["item"], n=most)))
            else:
                state["ground"][p["place"]].append(new_item(state, catalog(cfg), e["item"]))
                effects.append(Say(s, T.WAR_PRIZE_GROUND.format(name=e["item"], n=most, place=p["place"])))
    for p in alive(state):
        if p["place"] is not None and p["seat"] not in night["log"]["attackers"]:
            p["rest"] = True  # 没有攻击过别人的玩家无论移动或者操作几次，都会视为成功进行了休养
    return effects


# 10. 月圆之夜 (the daily werewolf: moon_spawn below, every morning while state["moon"])
def moon_morning(state, cfg, e, data, rng, first):
    state["moon"] = True
    return e["post"], []


RULES: dict[str, dict[str, Callable[..., Any]]] = {
    "wanted": {"morning": wanted_morning, "close": wanted_close},
    "comeback": {"open": comeback_open, "close": comeback_close},
    "change": {"open": change_open},
    "pilgrimage": {"morning": pilgrimage_morning, "open": pilgrimage_open, "close": pilgrimage_close},
    "witch": {"morning": witch_morning},
    "wind": {"morning": wind_morning, "close": wind_close},
    "leaderboard": {"morning": leaderboard_morning},
    "winter": {"morning": winter_morning, "close": winter_close},
    "war": {"close": war_close},
    "moon": {"morning": moon_morning},
}


def _today(state: State, cfg: Cfg) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(definition, today's data) for each of today's events."""
    return [(e, d) for d in state["today"] if (e := event_def(cfg, d["key"]))]


# ---- the three moments -------------------------------------------------------------

def morning(state: State, cfg: Cfg, rng: random.Random) -> tuple[list[str], list[Effect]]:
    """Draw today's events and apply their morning rules. Returns post lines and effects.
    Called after the weather and tonight's closures are set (an event may fix the weather)."""
    day = state["day"]
    chosen = draw(state, cfg, rng)
    state["today"] = [{"key": e["key"]} for e in chosen]
    state["holy"] = None
    lines: list[str] = []
    effects: list[Effect] = []
    for e, data in _today(state, cfg):
        first = not any(x["key"] == e["key"] for x in state["event_log"])
        state["event_log"].append({"day": day, "key": e["key"]})
        text, eff = RULES[e["key"]].get("morning", _plain)(state, cfg, e, data, rng, first)
        lines.append(T.EVENT_LINE.format(name=e["name"], text=text))
        effects += eff
    if not chosen:
        lines.append(T.EVENT_NONE)
    lines += moon_spawn(state, cfg, rng)
    w = witch(state)
    if w is not None:
        public = (event_def(cfg, "witch") or {}).get("public_place", True)
        line = T.WITCH_WHERE.format(place=w["place"] if public else T.SOMEWHERE, hp="")
        guests = state.get("witch_guests")
        if guests and guests["seats"]:
            sign = T.WITCH_PLUS if guests["delta"] > 0 else T.WITCH_MINUS
            line += T.WITCH_EFFECT.format(n=len(guests["seats"]), sign=sign, v=abs(guests["delta"]))
        v = (event_def(cfg, "witch") or {}).get("effect", 30)
        line += T.WITCH_NEXT.format(sign=T.WITCH_MINUS if (state["witch_turn"] + 1) % 2 == 1 else T.WITCH_PLUS, v=v)
        lines.append(line)
    return lines, effects


def moon_spawn(state: State, cfg: Cfg, rng: random.Random) -> list[str]:
    """月圆之夜: until 起风了, one werewolf a day in a random place closing tonight."""
    moon = event_def(cfg, "moon")
    if not (state["moon"] and moon and state["closing"]):
        return []
    place = rng.choice(state["closing"])
    wolf = spawn(state, "werewolf", T.WOLF_NAME, moon["hp"], place)
    wolf["items"].append(new_item(state, catalog(cfg), rng.choice(moon["items"])))
    where = T.WOLF_AT.format(place=place) if moon.get("public_place") else T.WOLF_HIDDEN
    return [T.WOLF_SPAWN.format(where=where)]


def _set_weather(state: State, cfg: Cfg, name: str) -> None:
    w = next(w for w in cfg["weather"] if w["name"] == name)
    state["weather"], state["see"] = w["name"], w["see"]


def night_open(state: State, cfg: Cfg, rng: random.Random) -> list[Effect]:
    """夜间行动前: the witch's guests and her move, then today's events."""
    state["night_log"] = {"hits": [], "attackers": [], "holy": []}
    effects = npc_open(state, cfg, rng)
    for e, data in _today(state, cfg):
        hook = RULES[e["key"]].get("open")
        if hook:
            effects += hook(state, cfg, e, data, rng)
    return effects


def npc_open(state: State, cfg: Cfg, rng: random.Random) -> list[Effect]:
    """女巫: 一同过夜的玩家在次日夜间行动前 −30 / +30 生命; then she moves to an adjacent place."""
    effects: list[Effect] = []
    guests = state.get("witch_guests")
    if guests:
        batch = new_batch(state)
        for s in guests["seats"]:
            p = player(state, s)
            if not p["alive"]:
                continue
            if guests["delta"] > 0:
                heal(p, guests["delta"], cfg["rules"]["max_hp"])
                effects.append(Say(s, T.WITCH_HEAL.format(v=guests["delta"], hp=p["hp"])))
            else:
                effects.append(Say(s, T.WITCH_HURT.format(v=-guests["delta"], hp=max(0, p["hp"] + guests["delta"]))))
                effects += _lose(state, p, -guests["delta"], batch)
        state["witch_guests"] = None
    w = witch(state)
    if w is not None and w["day"] < state["day"]:
        witch_move(state, cfg, w, rng)
    return effects


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
                    kill_npc(state, n, T.CAUSE_CLOSURE, vanish=True)
            else:
                kill_npc(state, n, T.CAUSE_CLOSURE, vanish=True)


def night_close(state: State, cfg: Cfg, rng: random.Random, crowd: dict[str, int]) -> list[Effect]:
    """夜间行动后 (after bleed, closures and drowning, before 静养 recovery)."""
    night = {"day": state["day"], "log": state["night_log"], "crowd": crowd, "batch": new_batch(state)}
    effects: list[Effect] = []
    for e, data in _today(state, cfg):
        hook = RULES[e["key"]].get("close")
        if hook:
            effects += hook(state, cfg, e, data, rng, night)
    return effects + npc_close(state, cfg)


def npc_close(state: State, cfg: Cfg) -> list[Effect]:
    """女巫: rewards after the night she died; who spends this night with her."""
    effects: list[Effect] = []
    e = event_def(cfg, "witch") or {}
    for n in state["npcs"]:
        if n["kind"] == "witch" and not n["alive"] and not n.get("gone") and not n.get("rewarded"):
            n["rewarded"] = True
            totals: dict[int, int] = {}
            for by, dmg in n["damage"]:
                if by is not None:
                    totals[by] = totals.get(by, 0) + dmg
            per, reward = e.get("reward_per", 25), e.get("reward", 5)
            for s in sorted(totals):
                p = player(state, s)
                units = math.ceil(totals[s] / per)
                if p["alive"] and units:
                    p["claims"].append({"kind": "witch", "units": units, "each": reward})
                    effects.append(Say(s, T.WITCH_REWARD.format(units=units, each=reward)))
    w = witch(state)
    if w is not None:
        v = e.get("effect", 30)
        state["witch_turn"] += 1
        state["witch_guests"] = {"seats": [p["seat"] for p in alive(state) if p["place"] == w["place"]],
                                 "delta": -v if state["witch_turn"] % 2 == 1 else v}
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
        if c["kind"] == "witch" and word in (T.CLAIM_HP, T.CLAIM_ST):
            n = c["units"]
            if len(words) > 1:
                if not words[1].isdigit() or not 1 <= int(words[1]) <= c["units"]:
                    raise Rejected(T.CLAIM_UNITS.format(n=c["units"]))
                n = int(words[1])
            c["units"] -= n
            if word == T.CLAIM_HP:
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
    return T.claims_text(p["claims"])


def held_somewhere(state: State) -> list[int]:
    """Every item id wherever it is (players, NPCs, ground) — for invariant checks."""
    ids = [it["id"] for items in state["ground"].values() for it in items]
    ids += [it["id"] for p in state["players"].values() for it in p["items"]]
    ids += [it["id"] for n in state["npcs"] for it in n["items"]]
    return ids

