"""Places in a round and on a match day: substitutes (§十.2/§十.3), who takes a place
when someone leaves it, and the gaps filled when a day opens."""

from __future__ import annotations

from datetime import datetime

import plugins.league.engine.texts as T
from plugins.gamekit.contract import Ctx, Effect, Say

from .content import Settings
from .standings import UNRANKED, rows
from .state import Day, State, Status, Step


def seat_time_passed(day: Day, now: datetime) -> bool:
    """The day's 18:50 step has run or its time has come."""
    return Step.SEAT in day.done or day.times.of(Step.SEAT) <= now


def substitutes(state: State, settings: Settings, r: int, day: Day | None) -> list[int]:
    """§十.2/§十.3 order: never-demoted substitutes first (registration order in
    round 1, previous round ranking after), then this round's demoted players by
    current ranking."""
    rnd = state.rounds[r]
    used: set[int] = {s for m in rnd.groups.values() for s in m}
    if day is not None:
        used |= {s for m in day.lineups.values() for s in m} | set(day.demoted)
    cands = sorted(k for k, p in state.players.items() if p.status is Status.ACTIVE and k not in used)
    demoted = rnd.demoted
    if r == 0:
        prev = {s: s for s in cands}
    else:
        ranking = state.rounds[r - 1].ranking or []
        prev = {s: (ranking.index(s) if s in ranking else UNRANKED) for s in cands}
    primary = sorted((s for s in cands if s not in demoted), key=lambda s: (prev[s], s))
    current = {row.seat: i for i, row in enumerate(rows(state, settings, r))}
    secondary = sorted((s for s in cands if s in demoted), key=lambda s: (current.get(s, UNRANKED), s))
    return primary + secondary


def put_in(state: State, r: int, sub: int) -> None:
    """A substitute takes a place: a member of the round, ranked on what they play
    (a player demoted earlier this round is ranked again, §五/§十.2 reading in RULES.md)."""
    rnd = state.rounds[r]
    if sub not in rnd.members:
        rnd.members.append(sub)
    if sub in rnd.benched:
        rnd.benched.remove(sub)


def replace(state: State, day: Day, seat: int, presumed_seated: bool, ctx: Ctx[Settings]) -> tuple[int | None, str]:
    """Take ``seat`` out of today's lineup and the round's groups; the next
    substitute takes the same position. Returns (substitute or None, group)."""
    r = day.round
    rnd = state.rounds[r]
    g = day.group_of(seat) or ""
    queue = substitutes(state, ctx.settings, r, day)
    sub = queue[0] if queue else None
    for lineup in (day.lineups[g], rnd.groups.get(g, [])):
        if seat in lineup:
            i = lineup.index(seat)
            if sub is None:
                lineup.pop(i)
            else:
                lineup[i] = sub
    ref = rnd.order.setdefault(g, [])
    if sub is not None and sub not in ref:  # the group's positions in order, for a reinstated player
        ref.insert(ref.index(seat) + 1 if seat in ref else len(ref), sub)
    if sub is not None:
        put_in(state, r, sub)
        day.promoted[sub] = g
        if presumed_seated:
            day.checked[sub] = ctx.now.isoformat()
    return sub, g


def drop_from_round(state: State, seat: int, ctx: Ctx[Settings]) -> list[Effect]:
    """A player who left the league (disqualified, red card): before 18:50 the
    next substitute takes the place today; later, today's lineup stays as played
    and the place is refilled when the next match day opens."""
    day = state.current_day()
    if day is not None and Step.SEAT not in day.done and ctx.now < day.times.of(Step.SEAT) \
            and day.group_of(seat) is not None:
        sub, g = replace(state, day, seat, False, ctx)
        if sub is None:
            return [Say("hosts", T.DROP_NO_SUBSTITUTE.format(group=g))]
        pos = day.lineups[g].index(sub) + 1
        return [Say(sub, T.DROP_SUBSTITUTE_YOURS.format(group=g, pos=pos, **ctx.settings.times.words()))]
    for members in state.current.groups.values():
        if seat in members:
            members.remove(seat)
    return []


def fill_gaps(state: State, day: Day, ctx: Ctx[Settings]) -> list[Effect]:
    """At opening: groups short of players (someone left the league) take substitutes."""
    effects: list[Effect] = []
    size = ctx.settings.boards[day.board].size
    rnd = state.rounds[day.round]
    for g in sorted(day.lineups):
        while len(day.lineups[g]) < size:
            queue = substitutes(state, ctx.settings, day.round, day)
            if not queue:
                effects.append(Say("hosts", T.GAP_NO_SUBSTITUTE.format(group=g, n=size - len(day.lineups[g]))))
                break
            sub = queue[0]
            day.lineups[g].append(sub)
            rnd.groups[g].append(sub)
            rnd.order.setdefault(g, []).append(sub)
            put_in(state, day.round, sub)
            effects.append(Say(sub, T.GAP_SUBSTITUTE_YOURS.format(group=g, pos=len(day.lineups[g]))))
    return effects
