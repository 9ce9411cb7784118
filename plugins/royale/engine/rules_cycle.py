"""Start, night open, night end and the morning post (rules: 场所与区域, 公示, 商店)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta

import plugins.royale.engine.events as EV
import plugins.royale.engine.texts as T
from plugins.gamekit.clock import next_at, parse_hhmm
from plugins.gamekit.contract import Effect, GiveCard, Picture, Say, Seat, SetPhase

from .content import Rules, Settings, Weather
from .model import RoyaleCtx, heal, new_item, new_player, open_places
from .rules_death import check_end, kill, kill_npc
from .state import Blow, Landed, Phase, Searched, State

DROWN_BATCH = 0  # drowned players are first in the death order


def start(roster: list[Seat], ctx: RoyaleCtx) -> tuple[State, list[Effect]]:
    settings = ctx.settings
    cat = settings.catalog
    rules = settings.rules
    rng = ctx.rng
    names = settings.places.names
    state = State(day=1, phase=Phase.DAY, players={s.seat: new_player(s.seat, s.alias, rules) for s in roster},
                  closed=[], closing=[], ground={p: [] for p in names}, next_id=1, weather="", see=100, shop={},
                  deaths=[], deaths_posted=0, batch=0, airdrops=[], broadcasts=[], published={}, result=None)
    for rows in (settings.weapons.by_grade(), settings.armours.by_grade()):
        for row in rows.values():
            pool = list(row.names)
            count = row.count
            picks = rng.sample(pool, count) if count <= len(pool) else [rng.choice(pool) for _ in range(count)]
            for n in picks:
                state.ground[rng.choice(names)].append(new_item(state, cat, n))
    for other in settings.others:
        for _ in range(other.count):
            state.ground[rng.choice(names)].append(new_item(state, cat, other.name))
    effects: list[Effect] = [Say("group", T.START.format(n=len(roster), deadline=rules.birth_deadline_night))]
    effects += begin_day(state, settings, rng)
    effects.append(day_phase(state, ctx))
    return state, effects


@dataclass(frozen=True)
class MapLayout:
    """What the map picture needs of the settings."""

    columns: int
    rows: int
    safe: str
    pos: dict[str, tuple[int, int]]  # place -> (x, y)
    witch_public: bool
    wolf_public: bool


def map_layout(settings: Settings) -> MapLayout:
    m = settings.map
    return MapLayout(columns=m.columns, rows=m.rows, safe=settings.places.safe_zone or "",
                     pos={e.name: (e.x, e.y) for e in m.places},
                     witch_public=EV.public_place(settings.event("witch"), EV.WITCH_PUBLIC),
                     wolf_public=EV.public_place(settings.event("moon"), EV.WOLF_PUBLIC))


def window(settings: Settings) -> tuple[str, str]:
    return settings.rules.night_start, settings.rules.night_end


SHORT_DAY_GRACE = timedelta(minutes=1)  # a day closed this close to its deadline ran its course


def day_phase(state: State, ctx: RoyaleCtx) -> SetPhase:
    ends = next_at(ctx.now, ctx.settings.rules.night_start, ctx.tz)
    state.day_ends = ends.isoformat()
    return SetPhase("day", T.DAY_LABEL.format(day=state.day), ends)


def cut_short(state: State, now: datetime) -> bool:
    """The day was closed before its deadline (the host's /推进, or /延时 to an earlier time)."""
    return state.day_ends is not None and now + SHORT_DAY_GRACE < datetime.fromisoformat(state.day_ends)


def closures_for(state: State, settings: Settings, night: int, rng: random.Random) -> list[str]:
    """Places that close at the end of ``night``; the safe zone is forced on its night
    and counts in that night's number."""
    places = settings.places
    sched = places.closures
    count = sched[night - 1] if night <= len(sched) else sched[-1]
    safe = places.safe_zone or None
    opened = open_places(state, settings)
    forced: list[str] = []
    if safe in opened and night >= places.safe_zone_closes_after_night:
        assert safe is not None
        forced = [safe]
    pool = [p for p in opened if p != safe]
    k = max(0, min(count - len(forced), len(pool)))
    picked = set(rng.sample(pool, k)) | set(forced)
    return [p for p in places.names if p in picked]


def roll_weather(settings: Settings, rng: random.Random) -> Weather:
    table = settings.weather
    return rng.choices(table, weights=[w.weight for w in table], k=1)[0]


def begin_day(state: State, settings: Settings, rng: random.Random) -> list[Effect]:
    """Weather, tonight's closures, shop shelf, air-drop names, broadcasts; the post."""
    day = state.day
    shop = settings.shop
    rules = settings.rules
    lines: list[str] = []
    if day > 1:
        dead = state.deaths[state.deaths_posted:]
        if dead:
            names = [T.DEATH_NAME.format(name=state.players[d.seat].alias, cause=d.cause) for d in dead]
            lines.append(T.DEATHS.format(names=T.joined(names)))
        else:
            lines.append(T.NO_DEATHS)
        beasts = [d for d in state.npc_deaths if d.night == day - 1]
        if beasts:
            lines.append(T.NPC_DEATHS.format(names=T.joined(T.DEATH_NAME.format(name=d.name, cause=d.cause)
                                                            for d in beasts)))
    state.deaths_posted = len(state.deaths)
    if day > 1:
        for p in state.alive():
            p.st = max(p.st, min(rules.max_stamina, p.st + rules.daily_stamina))
    grant = shop.grant
    if day == grant.day and grant.amount:
        for p in state.alive():
            p.money += grant.amount
        lines.append(T.GRANT.format(amount=grant.amount))
    w = roll_weather(settings, rng)
    state.weather, state.see = w.name, w.see
    state.closing = closures_for(state, settings, day, rng)
    for name, n in shop.daily.items():
        state.shop[name] = state.shop.get(name, 0) + n
    state.airdrops = [n for d in settings.airdrops if d.day == day for n in d.items] + state.airdrops_next
    state.airdrops_next = []
    event_lines, effects = EV.morning(state, settings, rng)  # may fix the weather (凛冬已至, 女巫)
    lines.append(T.WEATHER.format(name=state.weather, see=state.see))
    lines.append(T.CLOSING.format(places=T.joined(state.closing)) if state.closing else T.CLOSING_NONE)
    if state.airdrops:
        lines.append(T.AIRDROP.format(names=T.joined(state.airdrops)))
    lines += event_lines
    start, end = window(settings)
    lines.append(T.ALIVE.format(n=len(state.alive()), start=start, end=end))
    effects.insert(0, Say("group", T.MORNING_HEAD.format(day=day) + "\n" + "\n".join(lines)))
    effects.insert(1, Picture("group", "map", T.MAP_CAPTION.format(day=day)))
    effects += publish_broadcasts(state)
    return effects


def publish_broadcasts(state: State) -> list[Effect]:
    out: list[Effect] = []
    for b in state.broadcasts:
        place = b.place
        people = [p.alias for p in state.people_at(place)]
        people += [n.name for n in state.npcs if n.alive and n.place == place]
        items = [it.name for it in state.ground.get(place, [])]
        text = T.BROADCAST_PLACE.format(place=place, people=T.names_or_none(people), items=T.names_or_none(items))
        if b.target is not None:
            t = state.players[b.target]
            text += "\n" + T.BROADCAST_PLAYER.format(
                alias=t.alias, hp=t.hp, st=t.st, money=t.money, items=T.names_or_none([it.name for it in t.items]))
        out.append(Say("group", text))
    state.broadcasts = []
    return out


def window_length(rules: Rules) -> timedelta:
    """The night window's length (21:10–21:25: 15 minutes)."""
    start, end = parse_hhmm(rules.night_start), parse_hhmm(rules.night_end)
    length = timedelta(hours=end.hour - start.hour, minutes=end.minute - start.minute)
    return length if length > timedelta(0) else length + timedelta(days=1)


def night_end(ctx: RoyaleCtx) -> datetime:
    """A night lasts one window (21:10–21:25 = 15 min) from when it opens, so a day
    advanced (/推进) or extended (/延时) by the host shifts the night with it."""
    return ctx.now + window_length(ctx.settings.rules)


def open_night(state: State, ctx: RoyaleCtx) -> list[Effect]:
    settings = ctx.settings
    cat = settings.catalog
    night = state.day
    state.phase = Phase.NIGHT
    targets = [p for p in open_places(state, settings) if p not in state.closing] or open_places(state, settings)
    if targets:
        for name in state.airdrops:
            place = ctx.rng.choice(targets)
            state.ground[place].append(new_item(state, cat, name))
            state.landed.append(Landed(day=night, name=name, place=place))
    state.airdrops = []
    effects: list[Effect] = speech_cards(state, settings, short=cut_short(state, ctx.now))
    effects += EV.night_open(state, settings, ctx.rng)
    ends = night_end(ctx)
    end_local = ends.astimezone(ctx.tz).strftime("%H:%M")
    effects.insert(0, Say("group", T.NIGHT_OPEN.format(night=night, end=end_local)))
    effects.append(SetPhase("night", T.NIGHT_LABEL.format(night=night), ends))
    return effects + check_end(state, settings)


def speech_cards(state: State, settings: Settings, *, short: bool) -> list[Effect]:
    """违规判定: 白天发言不足1帖，第一次蓝牌一张，第二次（及以后）黄牌一张 — for a day of discussion:
    a day the host cut short counts only with ``rules.speech_cards_short_day``."""
    rules = settings.rules
    posts, state.posts = state.posts, {}
    if not rules.speech_cards or (short and not rules.speech_cards_short_day):
        return []
    out: list[Effect] = []
    for p in state.alive():
        if posts.get(p.seat, 0) >= rules.min_posts:
            continue
        n = state.misses.get(p.seat, 0) + 1
        state.misses[p.seat] = n
        reason = T.SPEECH_REASON.format(day=state.day, n=rules.min_posts)
        out.append(GiveCard(p.seat, "blue" if n == 1 else "yellow", reason))
    return out


def close_night(state: State, ctx: RoyaleCtx) -> list[Effect]:
    """Bleed, closures, drowning, rest recovery; then the next morning."""
    settings = ctx.settings
    rules = settings.rules
    night = state.day
    effects: list[Effect] = []
    batch = state.new_batch()
    for p in state.alive():
        if p.bleed and p.place is not None:
            p.hp -= p.bleed
            effects.append(Say(p.seat, T.BLEED_TICK.format(bleed=p.bleed, hp=max(p.hp, 0))))
            if p.hp <= 0:
                effects += kill(state, p, T.CAUSE_BLEED, batch=batch, killer=p.bleed_by)
    for n in state.npcs:
        if n.alive and n.bleed:
            n.hp -= n.bleed
            n.damage.append(Blow(n.bleed_by, n.bleed))
            if n.hp <= 0:
                effects += kill_npc(state, n, T.CAUSE_BLEED, killer=n.bleed_by)
    crowd = EV.crowd_counts(state)
    EV.npc_closures(state, settings, ctx.rng)
    batch = state.new_batch()
    for place in state.closing:
        for p in state.people_at(place):
            effects += kill(state, p, T.CAUSE_CLOSURE, batch=batch, vanish=True)
        state.ground[place] = []
        state.closed.append(place)
    state.closing = []
    if night == rules.birth_deadline_night:
        for p in state.alive():
            if p.place is None:
                effects += kill(state, p, T.CAUSE_DROWN, batch=DROWN_BATCH, vanish=True)
    effects += EV.night_close(state, settings, ctx.rng, crowd)
    for p in state.alive():
        if p.rest:
            p.st = max(p.st, rules.max_stamina)
            heal(p, rules.rest_hp, rules.max_hp)
        p.rest = False
        p.acted = False
        p.search = None
        p.searched = Searched.NOT_YET
    end = check_end(state, settings)
    if end:
        dead = state.deaths[state.deaths_posted:]
        names = [T.DEATH_NAME.format(name=state.players[d.seat].alias, cause=d.cause) for d in dead]
        if names:
            effects.append(Say("group", T.DEATHS.format(names=T.joined(names))))
        return effects + end
    state.day += 1
    state.phase = Phase.DAY
    effects += begin_day(state, settings, ctx.rng)
    effects.append(day_phase(state, ctx))
    return effects
