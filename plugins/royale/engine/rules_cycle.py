"""Start, night open, night end and the morning post (rules: 场所与区域, 公示, 商店)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from plugins.gamekit.clock import next_at, parse_hhmm
from plugins.gamekit.contract import Ctx, Effect, GiveCard, Outcome, Picture, Say, Seat, SetPhase

from . import events as EV
from . import texts as T
from .content import GRADES, catalog
from .model import (
    State,
    alive,
    ensure,
    heal,
    new_item,
    new_player,
    open_places,
    people_at,
    player,
)
from .rules_death import check_end, kill, kill_npc, new_batch

DROWN_BATCH = 0  # drowned players are first in the death order


def start(roster: list[Seat], ctx: Ctx, cfg: dict[str, Any]) -> Outcome:
    cat = catalog(cfg)
    rules = cfg["rules"]
    rng = ctx.rng
    names = cfg["places"]["names"]
    state: State = {
        "day": 1, "phase": "day",
        "players": {str(s.seat): new_player(s.seat, s.alias, rules) for s in roster},
        "closed": [], "closing": [], "ground": {p: [] for p in names}, "next_id": 1,
        "weather": "", "see": 100, "shop": {}, "deaths": [], "deaths_posted": 0, "batch": 0,
        "airdrops": [], "broadcasts": [], "published": {}, "result": None,
    }
    ensure(state)
    for section, kind in (("weapons", "weapon"), ("armours", "armour")):
        for grade in GRADES:
            row = cfg[section][grade]
            pool = list(row["names"])
            count = row["count"]
            picks = rng.sample(pool, count) if count <= len(pool) else [rng.choice(pool) for _ in range(count)]
            for n in picks:
                state["ground"][rng.choice(names)].append(new_item(state, cat, n))
    for row in cfg["others"]:
        for _ in range(row.get("count", 0)):
            state["ground"][rng.choice(names)].append(new_item(state, cat, row["name"]))
    effects: list[Effect] = [Say("group", T.START.format(n=len(roster), deadline=rules["birth_deadline_night"]))]
    effects += begin_day(state, cfg, rng)
    effects.append(day_phase(state, cfg, ctx))
    return Outcome(state, effects)


def map_layout(cfg: dict[str, Any]) -> dict[str, Any]:
    """What the map picture needs of the settings."""
    m = cfg["map"]
    return {"columns": m["columns"], "rows": m["rows"], "safe": cfg["places"].get("safe_zone") or "",
            "pos": {e["name"]: [e["x"], e["y"]] for e in m["places"]},
            "witch_public": (EV.event_def(cfg, "witch") or {}).get("public_place", True),
            "wolf_public": (EV.event_def(cfg, "moon") or {}).get("public_place", False)}


def window(cfg: dict[str, Any]) -> tuple[str, str]:
    return cfg["rules"]["night_start"], cfg["rules"]["night_end"]


def day_phase(state: State, cfg: dict[str, Any], ctx: Ctx) -> SetPhase:
    ends = next_at(ctx.now, cfg["rules"]["night_start"], ctx.tz)
    return SetPhase("day", T.DAY_LABEL.format(day=state["day"]), ends)


def closures_for(state: State, cfg: dict[str, Any], night: int, rng: random.Random) -> list[str]:
    """Places that close at the end of ``night``; the safe zone is forced on its night
    and counts in that night's number."""
    places = cfg["places"]
    sched = places["closures"]
    count = sched[night - 1] if night <= len(sched) else sched[-1]
    safe = places.get("safe_zone") or None
    opened = open_places(state, cfg)
    forced: list[str] = []
    if safe in opened and night >= places["safe_zone_closes_after_night"]:
        forced = [safe]
    pool = [p for p in opened if p != safe]
    k = max(0, min(count - len(forced), len(pool)))
    picked = set(rng.sample(pool, k)) | set(forced)
    return [p for p in cfg["places"]["names"] if p in picked]


def roll_weather(cfg: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    table = cfg["weather"]
    return rng.choices(table, weights=[w["weight"] for w in table], k=1)[0]


def begin_day(state: State, cfg: dict[str, Any], rng: random.Random) -> list[Effect]:
    """Weather, tonight's closures, shop shelf, air-drop names, broadcasts; the post."""
    day = state["day"]
    shop = cfg["shop"]
    lines: list[str] = []
    if day > 1:
        dead = state["deaths"][state["deaths_posted"]:]
        if dead:
            names = [T.DEATH_NAME.format(name=player(state, d["seat"])["alias"], cause=d["cause"]) for d in dead]
            lines.append(T.DEATHS.format(names=T.joined(names)))
        else:
            lines.append(T.NO_DEATHS)
        beasts = [d for d in state["npc_deaths"] if d["night"] == day - 1]
        if beasts:
            lines.append(T.NPC_DEATHS.format(names=T.joined(T.DEATH_NAME.format(name=d["name"], cause=d["cause"])
                                                            for d in beasts)))
    state["deaths_posted"] = len(state["deaths"])
    if day > 1:
        for p in alive(state):
            p["st"] = max(p["st"], min(cfg["rules"]["max_stamina"], p["st"] + cfg["rules"]["daily_stamina"]))
    grant = shop["grant"]
    if day == grant["day"] and grant["amount"]:
        for p in alive(state):
            p["money"] += grant["amount"]
        lines.append(T.GRANT.format(amount=grant["amount"]))
    w = roll_weather(cfg, rng)
    state["weather"], state["see"] = w["name"], w["see"]
    state["closing"] = closures_for(state, cfg, day, rng)
    for name, n in shop["daily"].items():
        state["shop"][name] = state["shop"].get(name, 0) + n
    state["airdrops"] = [n for d in cfg.get("airdrops", []) if d["day"] == day for n in d["items"]]
    event_lines, effects = EV.morning(state, cfg, rng)  # may fix the weather (凛冬已至, 女巫)
    lines.append(T.WEATHER.format(name=state["weather"], see=state["see"]))
    lines.append(T.CLOSING.format(places=T.joined(state["closing"])) if state["closing"] else T.CLOSING_NONE)
    if state["airdrops"]:
        lines.append(T.AIRDROP.format(names=T.joined(state["airdrops"])))
    lines += event_lines
    start, end = window(cfg)
    lines.append(T.ALIVE.format(n=len(alive(state)), start=start, end=end))
    effects.insert(0, Say("group", T.MORNING_HEAD.format(day=day) + "\n" + "\n".join(lines)))
    effects.insert(1, Picture("group", "map", T.MAP_CAPTION.format(day=day)))
    effects += publish_broadcasts(state)
    return effects


def publish_broadcasts(state: State) -> list[Effect]:
    out: list[Effect] = []
    for b in state["broadcasts"]:
        place = b["place"]
        people = [p["alias"] for p in people_at(state, place)]
        people += [n["name"] for n in state.get("npcs", []) if n["alive"] and n["place"] == place]
        items = [it["name"] for it in state["ground"].get(place, [])]
        text = T.BROADCAST_PLACE.format(place=place, people=T.names_or_none(people), items=T.names_or_none(items))
        if b.get("target") is not None:
            t = player(state, b["target"])
            text += "\n" + T.BROADCAST_PLAYER.format(
                alias=t["alias"], hp=t["hp"], st=t["st"], money=t["money"],
                items=T.names_or_none([it["name"] for it in t["items"]]))
        out.append(Say("group", text))
    state["broadcasts"] = []
    return out


def night_end(ctx: Ctx, cfg: dict[str, Any]) -> datetime:
    """A night lasts one window (21:10–21:25 = 15 min) from when it opens, so a day
    advanced (/推进) or extended (/延时) by the host shifts the night with it."""
    start, end = parse_hhmm(cfg["rules"]["night_start"]), parse_hhmm(cfg["rules"]["night_end"])
    length = timedelta(hours=end.hour - start.hour, minutes=end.minute - start.minute)
    if length <= timedelta(0):
        length += timedelta(days=1)
    return ctx.now + length


def open_night(state: State, cfg: dict[str, Any], ctx: Ctx) -> Outcome:
    cat = catalog(cfg)
    night = state["day"]
    state["phase"] = "night"
    targets = [p for p in open_places(state, cfg) if p not in state["closing"]] or open_places(state, cfg)
    if targets:
        for name in state["airdrops"]:
            place = ctx.rng.choice(targets)
            state["ground"][place].append(new_item(state, cat, name))
            state["landed"].append({"day": night, "name": name, "place": place})
    state["airdrops"] = []
    effects: list[Effect] = speech_cards(state, cfg)
    effects += EV.night_open(state, cfg, ctx.rng)
    ends = night_end(ctx, cfg)
    end_local = ends.astimezone(ctx.tz).strftime("%H:%M")
    effects.insert(0, Say("group", T.NIGHT_OPEN.format(night=night, end=end_local)))
    effects.append(SetPhase("night", T.NIGHT_LABEL.format(night=night), ends))
    end = check_end(state, cfg)
    return Outcome(state, effects + end)


def speech_cards(state: State, cfg: dict[str, Any]) -> list[Effect]:
    """违规判定: 白天发言不足1帖，第一次蓝牌一张，第二次（及以后）黄牌一张."""
    rules = cfg["rules"]
    posts, state["posts"] = state["posts"], {}
    if not rules["speech_cards"]:
        return []
    out: list[Effect] = []
    for p in alive(state):
        if posts.get(str(p["seat"]), 0) >= rules["min_posts"]:
            continue
        n = state["misses"].get(str(p["seat"]), 0) + 1
        state["misses"][str(p["seat"])] = n
        reason = T.SPEECH_REASON.format(day=state["day"], n=rules["min_posts"])
        out.append(GiveCard(p["seat"], "blue" if n == 1 else "yellow", reason))
    return out


def close_night(state: State, cfg: dict[str, Any], ctx: Ctx) -> Outcome:
    """Bleed, closures, drowning, rest recovery; then the next morning."""
    rules = cfg["rules"]
    night = state["day"]
    effects: list[Effect] = []
    batch = new_batch(state)
    for p in alive(state):
        if p["bleed"] and p["place"] is not None:
            p["hp"] -= p["bleed"]
            effects.append(Say(p["seat"], T.BLEED_TICK.format(bleed=p["bleed"], hp=max(p["hp"], 0))))
            if p["hp"] <= 0:
                effects += kill(state, p, T.CAUSE_BLEED, batch=batch, killer=p["bleed_by"])
    for n in state["npcs"]:
        if n["alive"] and n["bleed"]:
            n["hp"] -= n["bleed"]
            n["damage"].append([n["bleed_by"], n["bleed"]])
            if n["hp"] <= 0:
                effects += kill_npc(state, n, T.CAUSE_BLEED, killer=n["bleed_by"])
    crowd = EV.crowd_counts(state)
    EV.npc_closures(state, cfg, ctx.rng)
    batch = new_batch(state)
    for place in state["closing"]:
        for p in people_at(state, place):
            effects += kill(state, p, T.CAUSE_CLOSURE, batch=batch, vanish=True)
        state["ground"][place] = []
        state["closed"].append(place)
    state["closing"] = []
    if night == rules["birth_deadline_night"]:
        for p in alive(state):
            if p["place"] is None:
                effects += kill(state, p, T.CAUSE_DROWN, batch=DROWN_BATCH, vanish=True)
    effects += EV.night_close(state, cfg, ctx.rng, crowd)
    for p in alive(state):
        if p["rest"]:
            p["st"] = max(p["st"], rules["max_stamina"])
            heal(p, rules["rest_hp"], rules["max_hp"])
        p["rest"] = False
        p["acted"] = False
        p["search"] = None
    end = check_end(state, cfg)
    if end:
        dead = state["deaths"][state["deaths_posted"]:]
        names = [T.DEATH_NAME.format(name=player(state, d["seat"])["alias"], cause=d["cause"]) for d in dead]
        if names:
            effects.append(Say("group", T.DEATHS.format(names=T.joined(names))))
        return Outcome(state, effects + end)
    state["day"] += 1
    state["phase"] = "day"
    effects += begin_day(state, cfg, ctx.rng)
    effects.append(day_phase(state, cfg, ctx))
    return Outcome(state, effects)

