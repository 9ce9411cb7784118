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
from dataclasses import dataclass

import plugins.royale.engine.texts as T
from plugins.gamekit.contract import Effect, Rejected, Say

from .content import Event, Settings
from .model import heal, new_item, open_places, refresh
from .rules_death import kill, kill_npc
from .state import (
    GRADES,
    AirdropClaim,
    EventKey,
    Grade,
    Guests,
    ItemKind,
    LoggedEvent,
    NightLog,
    Npc,
    NpcKind,
    OwnHands,
    Plan,
    Player,
    State,
    Today,
    WantedClaim,
    WitchClaim,
)

WITCH_PUBLIC = True  # the witch's place is posted unless her event says public_place = false
WOLF_PUBLIC = False  # the werewolf's place is not (the seed does not post it)


# ---- definitions -------------------------------------------------------------

def _norm(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def find_event(settings: Settings, text: str) -> Event | None:
    """An event by its Chinese name or key, ignoring case, spaces and punctuation."""
    key = _norm(text or "")
    if not key:
        return None
    return next((e for e in settings.events.list if key in (_norm(e.name), _norm(e.key))), None)


def public_place(e: Event | None, default: bool) -> bool:
    return default if e is None or e.public_place is None else e.public_place


def witch_def(settings: Settings) -> Event:
    """The witch's event (its numbers as the defaults give them when a variant dropped it)."""
    return settings.event(EventKey.WITCH) or Event(key="witch", name=T.WITCH_NAME)


# ---- the daily draw ------------------------------------------------------------

def eligible(settings: Settings, day: int, key: str) -> str:
    """"" if event ``key`` may happen on ``day``, else why not (Chinese)."""
    e = settings.event(key)
    if e is None:
        return T.EVENT_NO_SUCH
    if e.fixed_day and e.fixed_day != day:
        return T.EVENT_FIXED_DAY.format(name=e.name, day=e.fixed_day)
    if e.fixed_day:
        return ""
    if e.weight <= 0:
        return T.EVENT_NO_WEIGHT.format(name=e.name)
    if day < e.min_day:
        return T.EVENT_TOO_EARLY.format(name=e.name, day=e.min_day)
    return ""


def draw(state: State, settings: Settings, rng: random.Random) -> list[Event]:
    """Today's event definitions: the fixed ones, a host's forced one, else a weighted draw."""
    day = state.day
    plan = state.event_plan
    forbid = list(plan.forbid)
    state.event_plan = Plan()
    defs = settings.events.list
    chosen = [e for e in defs if e.fixed_day == day and e.key not in forbid]
    if plan.force:
        forced = settings.event(plan.force)
        if forced is not None and forced not in chosen:
            chosen.append(forced)
        return chosen
    n = settings.events.per_day - len(chosen)
    yesterday = [x.key for x in state.event_log if x.day == day - 1]
    pool = [e for e in defs if e.weight > 0 and not e.fixed_day
            and day >= e.min_day and e.key not in forbid and e not in chosen]
    if settings.events.no_repeat:
        pool = [e for e in pool if e.key not in yesterday] or pool
    if settings.events.prefer_new:
        seen = [x.key for x in state.event_log]
        fresh = [e for e in pool if e.key not in seen]
        pool = fresh or pool
    while n > 0 and pool:
        pick = rng.choices(pool, weights=[e.weight for e in pool], k=1)[0]
        chosen.append(pick)
        pool = [e for e in pool if e is not pick]
        n -= 1
    return chosen


# ---- ranking keys (排行榜, 逆袭) ----------------------------------------------

def rank_key(p: Player, settings: Settings) -> tuple[int, ...]:
    """排行榜: 武器等级、橙武剩余次数、防具等级、橙防剩余次数、紫防剩余次数、持有血药、持有体力药、
    当前生命值、当前体力值 (grades count items in hand or in the bag)."""
    cat = settings.catalog

    def best(kind: ItemKind) -> int:
        return max((GRADES.index(it.grade) + 1 for it in p.items if it.kind == kind and it.grade is not None),
                   default=0)

    def uses(kind: ItemKind, grade: str) -> int:
        return max((it.uses or 0 for it in p.items if it.kind == kind and it.grade == grade), default=0)

    def supplies(hp: bool) -> int:
        return sum(1 for it in p.items if it.kind == ItemKind.SUPPLY
                   and (cat.get(it.name).hp if hp else cat.get(it.name).stamina))

    return (best(ItemKind.WEAPON), uses(ItemKind.WEAPON, "orange"), best(ItemKind.ARMOUR),
            uses(ItemKind.ARMOUR, "orange"), uses(ItemKind.ARMOUR, "purple"), supplies(True), supplies(False),
            p.hp, p.st)


def top_players(state: State, settings: Settings, n: int) -> list[Player]:
    """The first ``n`` by rank_key; everyone tied with the n-th is included."""
    ps = sorted(state.alive(), key=lambda p: (tuple(-k for k in rank_key(p, settings)), p.seat))
    if len(ps) <= n:
        return ps
    cut = rank_key(ps[n - 1], settings)
    return [p for p in ps if rank_key(p, settings) >= cut]


def bottom_players(state: State, settings: Settings, percent: int) -> list[Player]:
    """The last ``percent``% (at least one) of the born living players; ties included."""
    ps = sorted((p for p in state.alive() if p.place is not None), key=lambda p: (rank_key(p, settings), p.seat))
    if not ps:
        return []
    n = max(1, math.ceil(len(ps) * percent / 100))
    cut = rank_key(ps[n - 1], settings)
    return [p for p in ps if rank_key(p, settings) <= cut]


# ---- NPCs ----------------------------------------------------------------------

def spawn(state: State, kind: NpcKind, name: str, hp: int, place: str) -> Npc:
    state.npc_seq += 1
    n = Npc(id=f"n{state.npc_seq}", kind=kind, name=name, alive=True, hp=hp, max_hp=hp, place=place,
            day=state.day)
    state.npcs.append(n)
    return n


def witch_move(state: State, settings: Settings, w: Npc, rng: random.Random) -> None:
    """To an adjacent open place (not closing tonight if possible); if none is adjacent,
    to the nearest open place on the map."""
    grid = settings.grid
    opened = [p for p in open_places(state, settings) if p != w.place]
    if not opened:
        return
    adj = [p for p in grid[w.place].adjacent if p in opened]
    calm = [p for p in adj if p not in state.closing]
    if calm or adj:
        w.place = rng.choice(calm or adj)
        return
    x, y = grid[w.place].x, grid[w.place].y
    dist = {p: max(abs(grid[p].x - x), abs(grid[p].y - y)) for p in opened}
    near = min(dist.values())
    w.place = rng.choice([p for p in opened if dist[p] == near])


# ---- giving items ----------------------------------------------------------------

def give(state: State, settings: Settings, p: Player, name: str) -> bool:
    """Put a new ``name`` in the bag; False (nothing given) if the bag is full."""
    if len(p.items) >= settings.rules.bag_size:
        return False
    p.items.append(new_item(state, settings.catalog, name))
    return True


def _lose(state: State, p: Player, hp: int, batch: int) -> list[Effect]:
    p.hp -= hp
    if p.hp <= 0:
        return kill(state, p, T.CAUSE_EVENT, batch=batch)
    return []


# ---- the rule functions, one set per event ----------------------------------------------
#
# morning(state, settings, e, data, rng, first) -> (text, effects): after weather and closures;
#   ``text`` is the event's post line (the seed's text, filled in).
# open(state, settings, e, data, rng) -> effects: 夜间行动前.
# close(state, settings, e, data, rng, night) -> effects: 夜间行动后 (after bleed, closures,
#   drowning; before 静养 recovery). ``night`` carries the night's facts (crowd counts, batch).

@dataclass(frozen=True)
class NightEnd:
    day: int
    log: NightLog
    crowd: dict[str, int]  # 凛冬已至: living born players per place
    batch: int


Morning = Callable[[State, Settings, Event, Today, random.Random, bool], tuple[str, list[Effect]]]
Open = Callable[[State, Settings, Event, Today, random.Random], list[Effect]]
Close = Callable[[State, Settings, Event, Today, random.Random, NightEnd], list[Effect]]


def plain(state: State, settings: Settings, e: Event, data: Today, rng: random.Random,
          first: bool) -> tuple[str, list[Effect]]:
    return e.post, []


# 1. 通缉令
def wanted_morning(state: State, settings: Settings, e: Event, data: Today, rng: random.Random,
                   first: bool) -> tuple[str, list[Effect]]:
    pool = [p.seat for p in state.alive()]
    data.seats = sorted(rng.sample(pool, min(e.count, len(pool))))
    return e.post.format(who=T.joined(state.players[s].alias for s in data.seats)), []


def wanted_close(state: State, settings: Settings, e: Event, data: Today, rng: random.Random,
                 night: NightEnd) -> list[Effect]:
    effects: list[Effect] = []
    landed = [d for d in state.landed if d.day == night.day]
    for target in data.seats or []:
        totals: dict[int, int] = {}
        order: list[int] = []
        for hit in night.log.hits:
            if hit.whom == target:
                totals[hit.by] = totals.get(hit.by, 0) + hit.dmg
                if hit.by not in order:
                    order.append(hit.by)
        if totals:
            top = max(totals.values())
            best = next(s for s in order if totals[s] == top)
            if state.players[best].alive:
                state.players[best].claims.append(WantedClaim(options=list(e.rewards)))
                effects.append(Say(best, T.WANTED_TOP.format(alias=state.players[target].alias,
                                                             options=T.joined(e.rewards))))
        death = next((d for d in state.deaths if d.seat == target and d.night == night.day
                      and d.killer is not None and d.killer != target), None)
        if death is not None and death.killer is not None and state.players[death.killer].alive:
            if landed:
                names = sorted({d.name for d in landed}, key=[d.name for d in landed].index)
                state.players[death.killer].claims.append(AirdropClaim(options=names))
                effects.append(Say(death.killer, T.WANTED_KILL.format(options=T.joined(names))))
            else:
                effects.append(Say(death.killer, T.WANTED_KILL_NONE))
    return effects


# 2. 逆袭
def comeback_open(state: State, settings: Settings, e: Event, data: Today, rng: random.Random) -> list[Effect]:
    pool = bottom_players(state, settings, e.bottom_percent)
    if not pool:
        return []
    lucky = rng.choice(pool)
    cat = settings.catalog
    got = []
    data.hands = OwnHands(lucky.weapon, lucky.armour, lucky.held)
    for kind in (ItemKind.WEAPON, ItemKind.ARMOUR):
        it = new_item(state, cat, rng.choice(cat.names(kind, Grade.ORANGE)))
        it.temp = True
        lucky.items.append(it)
        if kind == ItemKind.WEAPON:
            lucky.weapon = it.id
        else:
            lucky.armour = it.id
        got.append(it.name)
    lucky.held = None  # both hands now hold the orange gear
    lucky.money += e.money
    data.seat = lucky.seat
    return [Say(lucky.seat, T.COMEBACK.format(items=T.joined(got), money=e.money))]


def comeback_close(state: State, settings: Settings, e: Event, data: Today, rng: random.Random,
                   night: NightEnd) -> list[Effect]:
    for p in state.players.values():
        for it in [it for it in p.items if it.temp]:
            p.remove(it)
    for n in state.npcs:
        n.items = [it for it in n.items if not it.temp]
    for place in state.ground:
        state.ground[place] = [it for it in state.ground[place] if not it.temp]
    if data.seat is not None and data.hands is not None:  # the lucky one's own gear goes back into the hands
        p = state.players[data.seat]
        own = [it.id for it in p.items]
        hands = data.hands
        if hands.weapon in own and p.weapon is None and hands.weapon not in (p.weapon, p.armour, p.held):
            p.weapon = hands.weapon
        if hands.armour in own and p.armour is None and hands.armour not in (p.weapon, p.armour, p.held):
            p.armour = hands.armour
        if hands.held in own and p.held is None and hands.held not in (p.weapon, p.armour, p.held):
            p.held = hands.held
    return []


# 3. Change！
def change_open(state: State, settings: Settings, e: Event, data: Today, rng: random.Random) -> list[Effect]:
    rules = settings.rules
    effects: list[Effect] = []
    for p in state.alive():
        p.hp, p.st = min(p.st, rules.max_hp), min(p.hp, rules.max_stamina)
        effects.append(Say(p.seat, T.CHANGE.format(hp=p.hp, st=p.st)))
    batch = state.new_batch()
    for p in state.alive():
        if p.hp <= 0:
            effects += kill(state, p, T.CAUSE_EVENT, batch=batch)
    return effects


# 4. 朝圣之路
def pilgrimage_morning(state: State, settings: Settings, e: Event, data: Today, rng: random.Random,
                       first: bool) -> tuple[str, list[Effect]]:
    spots = [p for p in open_places(state, settings) if p not in state.closing] or open_places(state, settings)
    holy = rng.choice(spots)
    state.holy = data.place = holy
    effects: list[Effect] = []
    for p in state.alive():
        if p.place == holy and e.morning_item is not None:
            ok = give(state, settings, p, e.morning_item)
            effects.append(Say(p.seat, (T.HOLY_GIFT if ok else T.HOLY_FULL).format(name=e.morning_item)))
    return e.post.format(place=holy), effects


def pilgrimage_open(state: State, settings: Settings, e: Event, data: Today, rng: random.Random) -> list[Effect]:
    effects: list[Effect] = []
    for p in state.alive():
        if p.place == state.holy:
            state.night_log.holy.append(p.seat)
            if e.evening_item is not None:
                ok = give(state, settings, p, e.evening_item)
                effects.append(Say(p.seat, (T.HOLY_GIFT if ok else T.HOLY_FULL).format(name=e.evening_item)))
    return effects


def pilgrimage_close(state: State, settings: Settings, e: Event, data: Today, rng: random.Random,
                     night: NightEnd) -> list[Effect]:
    effects: list[Effect] = []
    for p in state.alive():
        if p.seat in night.log.holy:
            continue
        cost = e.penalty
        paid = min(cost, p.st)
        p.st -= paid
        effects.append(Say(p.seat, T.HOLY_PENALTY.format(st=paid, hp=cost - paid)))
        if cost > paid:
            effects += _lose(state, p, cost - paid, night.batch)
    return effects


# 5. 不吞双女巫协会 (her nightly moves and guests: npc_open / npc_close below)
def witch_morning(state: State, settings: Settings, e: Event, data: Today, rng: random.Random,
                  first: bool) -> tuple[str, list[Effect]]:
    if first and e.first_weather is not None:
        set_weather(state, settings, e.first_weather)
    w = state.witch()
    if w is None:
        spots = [p for p in open_places(state, settings) if p not in state.closing] or open_places(state, settings)
        w = spawn(state, NpcKind.WITCH, T.WITCH_NAME, e.hp, rng.choice(spots))
    return e.post.format(place=w.place if public_place(e, WITCH_PUBLIC) else T.SOMEWHERE), []


# 6. 起风了
def wind_morning(state: State, settings: Settings, e: Event, data: Today, rng: random.Random,
                 first: bool) -> tuple[str, list[Effect]]:
    state.moon = False
    return e.post, []


def wind_close(state: State, settings: Settings, e: Event, data: Today, rng: random.Random,
               night: NightEnd) -> list[Effect]:
    for place in state.ground:
        state.ground[place] = []
    return []


# 7. 排行榜
def leaderboard_morning(state: State, settings: Settings, e: Event, data: Today, rng: random.Random,
                        first: bool) -> tuple[str, list[Effect]]:
    top = top_players(state, settings, e.top)
    return e.post.format(who=T.joined(p.alias for p in top) or T.NONE), []


# 8. 凛冬已至
def winter_morning(state: State, settings: Settings, e: Event, data: Today, rng: random.Random,
                   first: bool) -> tuple[str, list[Effect]]:
    if e.weather is not None:
        set_weather(state, settings, e.weather)
    return e.post, []


def winter_close(state: State, settings: Settings, e: Event, data: Today, rng: random.Random,
                 night: NightEnd) -> list[Effect]:
    rules = settings.rules
    effects: list[Effect] = []
    for p in state.alive():
        if p.place is None:
            continue
        n = night.crowd.get(p.place, 0)
        if n > e.crowd:
            effects.append(Say(p.seat, T.WINTER_HURT.format(n=n, v=-e.over_hp)))
            effects += _lose(state, p, -e.over_hp, night.batch)
        elif n < e.crowd:
            heal(p, e.under_hp, rules.max_hp)
            effects.append(Say(p.seat, T.WINTER_HEAL.format(n=n, v=e.under_hp, hp=p.hp)))
        else:
            heal(p, e.exact_hp, rules.max_hp)
            refresh(p, e.exact_st, rules.max_stamina)
            effects.append(Say(p.seat, T.WINTER_EXACT.format(hp=p.hp, st=p.st)))
    return effects


# 9. 战争与和平
def war_close(state: State, settings: Settings, e: Event, data: Today, rng: random.Random,
              night: NightEnd) -> list[Effect]:
    effects: list[Effect] = []
    counts: dict[int, int] = {}
    for hit in night.log.hits:
        if state.players[hit.by].alive:
            counts[hit.by] = counts.get(hit.by, 0) + 1
    if counts and e.item is not None:
        most = max(counts.values())
        for s in sorted(counts):
            if counts[s] != most:
                continue
            p = state.players[s]
            if give(state, settings, p, e.item):
                effects.append(Say(s, T.WAR_PRIZE.format(name=e.item, n=most)))
            else:
                assert p.place is not None  # they hit someone there
                state.ground[p.place].append(new_item(state, settings.catalog, e.item))
                effects.append(Say(s, T.WAR_PRIZE_GROUND.format(name=e.item, n=most, place=p.place)))
    for p in state.alive():
        if p.place is not None and p.seat not in night.log.attackers:
            p.rest = True  # 没有攻击过别人的玩家无论移动或者操作几次，都会视为成功进行了休养
    return effects


# 10. 月圆之夜 (the daily werewolf: moon_spawn below, every morning while state.moon)
def moon_morning(state: State, settings: Settings, e: Event, data: Today, rng: random.Random,
                 first: bool) -> tuple[str, list[Effect]]:
    state.moon = True
    return e.post, []


@dataclass(frozen=True)
class EventRules:
    morning: Morning = plain
    open: Open | None = None
    close: Close | None = None


RULES: dict[EventKey, EventRules] = {
    EventKey.WANTED: EventRules(morning=wanted_morning, close=wanted_close),
    EventKey.COMEBACK: EventRules(open=comeback_open, close=comeback_close),
    EventKey.CHANGE: EventRules(open=change_open),
    EventKey.PILGRIMAGE: EventRules(morning=pilgrimage_morning, open=pilgrimage_open, close=pilgrimage_close),
    EventKey.WITCH: EventRules(morning=witch_morning),
    EventKey.WIND: EventRules(morning=wind_morning, close=wind_close),
    EventKey.LEADERBOARD: EventRules(morning=leaderboard_morning),
    EventKey.WINTER: EventRules(morning=winter_morning, close=winter_close),
    EventKey.WAR: EventRules(close=war_close),
    EventKey.MOON: EventRules(morning=moon_morning),
}


def todays(state: State, settings: Settings) -> list[tuple[Event, Today]]:
    """(definition, today's data) for each of today's events."""
    return [(e, d) for d in state.today if (e := settings.event(d.key))]


# ---- the three moments -------------------------------------------------------------

def morning(state: State, settings: Settings, rng: random.Random) -> tuple[list[str], list[Effect]]:
    """Draw today's events and apply their morning rules. Returns post lines and effects.
    Called after the weather and tonight's closures are set (an event may fix the weather)."""
    day = state.day
    chosen = draw(state, settings, rng)
    state.today = [Today(key=e.event) for e in chosen]
    state.holy = None
    lines: list[str] = []
    effects: list[Effect] = []
    for e, data in todays(state, settings):
        first = not any(x.key == e.key for x in state.event_log)
        state.event_log.append(LoggedEvent(day=day, key=e.event))
        text, eff = RULES[e.event].morning(state, settings, e, data, rng, first)
        lines.append(T.EVENT_LINE.format(name=e.name, text=text))
        effects += eff
    if not chosen:
        lines.append(T.EVENT_NONE)
    lines += moon_spawn(state, settings, rng)
    w = state.witch()
    if w is not None:
        e_witch = witch_def(settings)
        line = T.WITCH_WHERE.format(place=w.place if public_place(e_witch, WITCH_PUBLIC) else T.SOMEWHERE, hp="")
        guests = state.witch_guests
        if guests and guests.seats:
            sign = T.WITCH_PLUS if guests.delta > 0 else T.WITCH_MINUS
            line += T.WITCH_EFFECT.format(n=len(guests.seats), sign=sign, v=abs(guests.delta))
        line += T.WITCH_NEXT.format(sign=T.WITCH_MINUS if (state.witch_turn + 1) % 2 == 1 else T.WITCH_PLUS,
                                    v=e_witch.effect)
        lines.append(line)
    return lines, effects


def moon_spawn(state: State, settings: Settings, rng: random.Random) -> list[str]:
    """月圆之夜: until 起风了, one werewolf a day in a random place closing tonight."""
    moon = settings.event(EventKey.MOON)
    if not (state.moon and moon and state.closing):
        return []
    place = rng.choice(state.closing)
    wolf = spawn(state, NpcKind.WEREWOLF, T.WOLF_NAME, moon.hp, place)
    wolf.items.append(new_item(state, settings.catalog, rng.choice(moon.items)))
    where = T.WOLF_AT.format(place=place) if public_place(moon, WOLF_PUBLIC) else T.WOLF_HIDDEN
    return [T.WOLF_SPAWN.format(where=where)]


def set_weather(state: State, settings: Settings, name: str) -> None:
    w = next(w for w in settings.weather if w.name == name)
    state.weather, state.see = w.name, w.see


def night_open(state: State, settings: Settings, rng: random.Random) -> list[Effect]:
    """夜间行动前: the witch's guests and her move, then today's events."""
    state.night_log = NightLog()
    effects = npc_open(state, settings, rng)
    for e, data in todays(state, settings):
        hook = RULES[e.event].open
        if hook:
            effects += hook(state, settings, e, data, rng)
    return effects


def npc_open(state: State, settings: Settings, rng: random.Random) -> list[Effect]:
    """女巫: 一同过夜的玩家在次日夜间行动前 −30 / +30 生命; then she moves to an adjacent place."""
    effects: list[Effect] = []
    guests = state.witch_guests
    if guests:
        batch = state.new_batch()
        for s in guests.seats:
            p = state.players[s]
            if not p.alive:
                continue
            if guests.delta > 0:
                heal(p, guests.delta, settings.rules.max_hp)
                effects.append(Say(s, T.WITCH_HEAL.format(v=guests.delta, hp=p.hp)))
            else:
                effects.append(Say(s, T.WITCH_HURT.format(v=-guests.delta, hp=max(0, p.hp + guests.delta))))
                effects += _lose(state, p, -guests.delta, batch)
        state.witch_guests = None
    w = state.witch()
    if w is not None and w.day < state.day:
        witch_move(state, settings, w, rng)
    return effects


def crowd_counts(state: State) -> dict[str, int]:
    """凛冬已至: living born players per place when the night's actions end."""
    counts: dict[str, int] = {}
    for p in state.alive():
        if p.place is not None:
            counts[p.place] = counts.get(p.place, 0) + 1
    return counts


def npc_closures(state: State, settings: Settings, rng: random.Random) -> None:
    """Closing places: werewolves vanish with their item; the witch walks away."""
    for n in state.npcs:
        if n.alive and n.place in state.closing:
            if n.kind == NpcKind.WITCH:
                witch_move(state, settings, n, rng)
                if n.place in state.closing:
                    kill_npc(state, n, T.CAUSE_CLOSURE, vanish=True)
            else:
                kill_npc(state, n, T.CAUSE_CLOSURE, vanish=True)


def night_close(state: State, settings: Settings, rng: random.Random, crowd: dict[str, int]) -> list[Effect]:
    """夜间行动后 (after bleed, closures and drowning, before 静养 recovery)."""
    night = NightEnd(day=state.day, log=state.night_log, crowd=crowd, batch=state.new_batch())
    effects: list[Effect] = []
    for e, data in todays(state, settings):
        hook = RULES[e.event].close
        if hook:
            effects += hook(state, settings, e, data, rng, night)
    return effects + npc_close(state, settings)


def npc_close(state: State, settings: Settings) -> list[Effect]:
    """女巫: rewards after the night she died; who spends this night with her."""
    effects: list[Effect] = []
    e = witch_def(settings)
    per, reward = e.reward_per, e.reward
    for n in state.npcs:
        if n.kind == NpcKind.WITCH and not n.alive and not n.gone and not n.rewarded:
            n.rewarded = True
            totals: dict[int, int] = {}
            for blow in n.damage:
                if blow.by is not None:
                    totals[blow.by] = totals.get(blow.by, 0) + blow.dmg
            for s in sorted(totals):
                p = state.players[s]
                units = math.ceil(totals[s] / per)
                if p.alive and units:
                    p.claims.append(WitchClaim(units=units, each=reward))
                    effects.append(Say(s, T.WITCH_REWARD.format(units=units, each=reward)))
    w = state.witch()
    if w is not None:
        v = e.effect
        state.witch_turn += 1
        state.witch_guests = Guests(seats=[p.seat for p in state.alive() if p.place == w.place],
                                    delta=-v if state.witch_turn % 2 == 1 else v)
    return effects


# ---- claims (/领取) ----------------------------------------------------------------

def claim(state: State, settings: Settings, p: Player, text: str) -> str:
    """Settle one pending choice: 通缉令 reward, air-drop place, or the witch's reward."""
    claims = p.claims
    if not claims:
        raise Rejected(T.CLAIM_NONE)
    words = (text or "").split()
    if not words:
        raise Rejected(T.CLAIM_LIST.format(items=claims_text(p)))
    word = words[0]
    for c in claims:
        if isinstance(c, WitchClaim) and word in (T.CLAIM_HP, T.CLAIM_ST):
            n = c.units
            if len(words) > 1:
                if not words[1].isdigit() or not 1 <= int(words[1]) <= c.units:
                    raise Rejected(T.CLAIM_UNITS.format(n=c.units))
                n = int(words[1])
            c.units -= n
            if word == T.CLAIM_HP:
                p.hp += n * c.each  # 可以超出100点上限
            else:
                p.st += n * c.each
            if c.units <= 0:
                claims.remove(c)
            return T.CLAIMED_WITCH.format(what=word, v=n * c.each, hp=p.hp, st=p.st)
        if isinstance(c, WantedClaim) and word in c.options:
            if not give(state, settings, p, word):
                raise Rejected(T.BAG_FULL.format(n=settings.rules.bag_size))
            claims.remove(c)
            return T.CLAIMED_ITEM.format(name=word)
        if isinstance(c, AirdropClaim) and word in c.options:
            last = max(x.day for x in state.landed if x.name == word)
            spot = next(d.place for d in state.landed if d.name == word and d.day == last)
            claims.remove(c)
            return T.CLAIMED_DROP.format(name=word, place=spot)
    raise Rejected(T.CLAIM_LIST.format(items=claims_text(p)))


def claims_text(p: Player) -> str:
    """A player's pending /领取 choices, one part each."""
    parts = []
    for c in p.claims:
        if isinstance(c, WitchClaim):
            parts.append(T.CLAIM_WITCH.format(units=c.units, each=c.each))
        elif isinstance(c, WantedClaim):
            parts.append(T.CLAIM_WANTED.format(options=T.CLAIM_WANTED_OR.join(c.options)))
        else:
            parts.append(T.CLAIM_AIRDROP.format(options=T.joined(c.options)))
    return T.semicolons(parts)


def held_somewhere(state: State) -> list[int]:
    """Every item id wherever it is (players, NPCs, ground) — for invariant checks."""
    ids = [it.id for items in state.ground.values() for it in items]
    ids += [it.id for p in state.players.values() for it in p.items]
    ids += [it.id for n in state.npcs for it in n.items]
    return ids

