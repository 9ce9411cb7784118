"""Match days: opening, check-in (§五), the 18:30/18:35/18:50 steps, substitutes (§十)."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, timezone
from typing import Annotated

import plugins.league.engine.texts as T
from plugins.gamekit.args import PLAYERS, WORD, Args, NoArgs
from plugins.gamekit.clock import fmt_local, parse_hhmm
from plugins.gamekit.contract import Actor, Ctx, Effect, Eliminate, Rejected, Say, SetPhase, SetTimer

from .content import Settings
from .lineup import fill_gaps, replace, seat_time_passed
from .rules_admin import add_violation, audit
from .state import STEPS, Day, DayTimes, Source, State, Status, Step
from .views import name, per_group

League = Ctx[Settings]
TIMER_KEYS = {f"checkin.{s}": s for s in STEPS}
DATE_RE = re.compile(T.DATE_PATTERN)


class OpenDayArgs(Args, frozen=True, kw_only=True):
    date: Annotated[str, WORD] = ""  # 月-日; today when left out


class AbsentArgs(Args, frozen=True, kw_only=True):
    players: Annotated[list[int], PLAYERS]


def _hhmm(settings: Settings, step: Step) -> str:
    """The league's wall-clock time of a step (e.g. "18:30")."""
    times = settings.times
    return {Step.LATE: times.late, Step.DEMOTE: times.demote, Step.SEAT: times.seat}[step]


def _parse_date(text: str, ctx: League) -> date:
    today = ctx.now.astimezone(ctx.tz).date()
    if not text:
        return today
    m = DATE_RE.match(text.strip())
    if not m:
        raise Rejected(T.DATE_BAD.format(text=text))
    try:
        return date(int(m.group(1) or today.year), int(m.group(2)), int(m.group(3)))
    except ValueError:
        raise Rejected(T.DATE_NONE.format(text=text)) from None


def open_day(state: State, actor: Actor, a: OpenDayArgs, ctx: League) -> list[Effect]:
    """/开赛日 [月-日]: open the round's next match day and arm its clock (§五)."""
    if state.finished:
        raise Rejected(T.FINISHED)
    pending = catch_up(state, ctx)  # a previous day whose timers never fired is finished first
    r = state.round
    settings = ctx.settings
    rc = settings.rounds[r]
    done = [d for d in state.days if d.round == r]
    if len(done) >= len(rc.days):
        raise Rejected(T.DAYS_ALL_OPENED.format(round=rc.name, n=len(rc.days)))
    prev = state.current_day()
    if prev is not None and Step.SEAT not in prev.done and prev.times.of(Step.SEAT) > ctx.now:
        raise Rejected(T.DAY_PREVIOUS_OPEN)
    when = _parse_date(a.date, ctx)
    if when < ctx.now.astimezone(ctx.tz).date():
        raise Rejected(T.DAY_PAST.format(month=when.month, day=when.day))

    def utc(hhmm: str) -> str:
        return datetime.combine(when, parse_hhmm(hhmm), tzinfo=ctx.tz).astimezone(timezone.utc).isoformat()

    st = settings.times
    times = DayTimes(checkin_open=utc(st.checkin_open), late=utc(st.late), demote=utc(st.demote), seat=utc(st.seat))
    twice = next((d for d in state.days if d.date == when.isoformat()), None)
    if twice is not None:
        raise Rejected(T.DAY_TWICE.format(month=when.month, day=when.day, round=state.rounds[twice.round].name,
                                          no=twice.index + 1))
    index = len(done)
    dcfg = rc.days[index]
    first_no = sum(d.games for d in rc.days[:index]) + 1
    day = Day(round=r, index=index, date=when.isoformat(), board=dcfg.board, label=dcfg.label, games=dcfg.games,
              first_no=first_no, times=times, lineups={g: list(m) for g, m in state.rounds[r].groups.items()})
    state.days.append(day)
    gap_effects = fill_gaps(state, day, ctx)
    words = st.words()
    roles = T.SEP.join(T.ROLE_COUNT.format(role=k, n=v) for k, v in settings.boards[dcfg.board].roles.items())
    nos = T.SEP.join(T.GAME_NO.format(no=n) for n in range(first_no, first_no + dcfg.games))
    label = T.DAY_LABEL.format(round=rc.name, no=index + 1, month=when.month, day=when.day, board=dcfg.board)
    text = T.DAY_OPENED.format(label=label, roles=roles, games=nos, **words)
    unlinked = [g for g in sorted(day.lineups) if g not in ctx.chats]
    if unlinked and len(unlinked) < len(day.lineups):
        text += T.DAY_UNLINKED_SOME.format(groups=T.SEP.join(T.GROUP.format(group=g) for g in unlinked))
    elif unlinked:
        text += T.DAY_UNLINKED_ALL
    early = state.early.pop(when.isoformat(), {})
    for seat, at_iso in sorted(early.items(), key=lambda kv: kv[1]):
        if day.group_of(seat) is not None:
            day.checked[seat] = at_iso
    state.early.clear()  # check-ins kept for another date are of no use now
    past = [step for step in STEPS if times.of(step) <= ctx.now]
    lineups: list[Effect] = []
    for g in sorted(day.lineups):
        if g in ctx.chats:
            lines = [T.DAY_LINEUP_HEAD.format(label=label, group=g)]
            lines += [T.POSITION_LINE.format(pos=i, who=name(state, s)) for i, s in enumerate(day.lineups[g], 1)]
            lines.append(T.DAY_LINEUP_CHECKIN.format(**words))
            lineups.append(Say(f"chat:{g}", "\n".join(lines)))
    timers: list[Effect] = [SetTimer(f"checkin.{step}", times.of(step)) for step in STEPS if step not in past]
    effects: list[Effect] = pending + [SetPhase(key=f"r{r + 1}d{index + 1}", label=T.PHASE_CHECKIN.format(label=label)),
                                       *timers, Say("group", text)] + lineups + gap_effects
    detail = f"{label}"
    if past:  # opened late: the steps whose time has passed run now, in order (§五)
        effects += catch_up(state, ctx)
        report = _late_open_report(day, past, ctx)
        effects.append(Say("reply", report))
        detail += T.AUDIT_DAY_LATE.format(report=report.splitlines()[0])
    audit(state, ctx, actor.user_id, T.AUDIT_OPEN_DAY, detail)
    return effects


def _late_open_report(day: Day, past: list[Step], ctx: League) -> str:
    """What a late /开赛日 applied at once, with the real time of each step."""
    now = fmt_local(ctx.now, ctx.tz)
    counts = {Step.LATE: len(day.late), Step.DEMOTE: len(day.demoted), Step.SEAT: len(day.forfeit)}
    done = T.LATE_OPEN_SEP.join(T.LATE_OPEN_STEP.format(time=_hhmm(ctx.settings, step), step=T.STEP_NAMES[step],
                                                         n=counts[step]) for step in past)
    lines = [T.LATE_OPEN_HEAD.format(done=done, now=now), T.LATE_OPEN_CHECKED.format(n=len(day.checked))]
    if counts[Step.LATE]:
        lines.append(T.LATE_OPEN_UNDO)
    rest = [s for s in STEPS if s not in past]
    if rest:
        lines.append(T.LATE_OPEN_NEXT.format(steps=T.SEP.join(T.STEP_AT.format(time=_hhmm(ctx.settings, s), step=T.STEP_NAMES[s])
                                                              for s in rest)))
    return "\n".join(lines)


def catch_up(state: State, ctx: League, upto: Step | None = None) -> list[Effect]:
    """Run every check-in step whose time has come and that has not run yet.
    ``upto``: the step whose kernel timer fired — it and the steps before it run
    even if ``ctx.now`` is a little short of the stored time (the kernel's timer
    row is the authority; it may fire up to a second early)."""
    day = state.current_day()
    effects: list[Effect] = []
    if day is None:
        return effects
    forced = STEPS[: STEPS.index(upto) + 1] if upto is not None else ()
    for step in STEPS:
        if step in day.done or (day.times.of(step) > ctx.now and step not in forced):
            continue
        day.done.append(step)
        day.ran[step] = ctx.now.isoformat()  # the real time the step ran
        effects += STEP_RULES[step](state, day, ctx)
    return effects


def _late(state: State, day: Day, ctx: League) -> list[Effect]:
    effects: list[Effect] = []
    late: dict[str, list[str]] = {}
    words = ctx.settings.times.words()
    for g in sorted(day.lineups):
        for seat in day.lineups[g]:
            if day.checked_by(seat, Step.LATE) or seat in day.promoted:
                continue
            late.setdefault(g, []).append(name(state, seat))
            day.late.append(seat)
            tail = T.LATE_YOURS_TAIL.format(**words) if day.times.of(Step.DEMOTE) > ctx.now else ""
            effects.append(Say(seat, T.LATE_YOURS.format(tail=tail, **words)))
            effects += add_violation(state, seat, T.LATE_VIOLATION, day.round, None, 1, Source.AUTO, ctx, "system")[1]
    effects += per_group(T.LATE_GROUP.format(**words), late, ctx.chats, T.SEP)
    return effects


def _demote(state: State, day: Day, ctx: League) -> list[Effect]:
    effects: list[Effect] = []
    lines: dict[str, list[str]] = {}
    words = ctx.settings.times.words()
    rnd = state.rounds[day.round]
    for g in sorted(day.lineups):
        for seat in list(day.lineups[g]):
            if day.checked_by(seat, Step.DEMOTE) or seat in day.promoted:
                continue
            rnd.demoted.append(seat)
            rnd.benched.append(seat)
            day.demoted.append(seat)
            sub, _ = replace(state, day, seat, False, ctx)
            effects.append(Say(seat, T.DEMOTED_YOURS.format(**words)))
            if sub is None:
                lines.setdefault(g, []).append(T.DEMOTED_LINE_NO_SUBSTITUTE.format(group=g, who=name(state, seat)))
                effects.append(Say("hosts", T.DEMOTED_NO_SUBSTITUTE.format(group=g, who=name(state, seat))))
            else:
                pos = day.lineups[g].index(sub) + 1
                lines.setdefault(g, []).append(T.DEMOTED_LINE.format(group=g, who=name(state, seat), sub=name(state, sub),
                                                                     pos=pos))
                effects.append(Say(sub, T.DEMOTED_SUBSTITUTE_YOURS.format(group=g, pos=pos, **words)))
    effects += per_group(T.DEMOTED_GROUP.format(**words), lines, ctx.chats)
    return effects


def _seat(state: State, day: Day, ctx: League) -> list[Effect]:
    effects: list[Effect] = []
    lines: dict[str, list[str]] = {}
    words = ctx.settings.times.words()
    refill = ctx.settings.options.refill_on_forfeit
    for g in sorted(day.lineups):
        for seat in list(day.lineups[g]):
            if seat in day.checked and seat not in day.absent:
                continue
            state.players[seat].status = Status.FORFEIT
            day.forfeit.append(seat)
            effects.append(Eliminate(seat, T.FORFEIT_REASON.format(**words)))
            sub: int | None = None
            if refill:
                sub, _ = replace(state, day, seat, True, ctx)
            else:
                for lineup in (day.lineups[g], state.rounds[day.round].groups[g]):
                    if seat in lineup:
                        lineup.remove(seat)
            if sub is None:
                lines.setdefault(g, []).append(T.FORFEIT_LINE_NO_SUBSTITUTE.format(group=g, who=name(state, seat)))
                effects.append(Say("hosts", T.FORFEIT_NO_SUBSTITUTE.format(group=g, who=name(state, seat))))
            else:
                lines.setdefault(g, []).append(T.FORFEIT_LINE.format(group=g, who=name(state, seat), sub=name(state, sub)))
                effects.append(Say(sub, T.FORFEIT_SUBSTITUTE_YOURS.format(group=g)))
    effects += per_group(T.FORFEIT_GROUP.format(**words), lines, ctx.chats)
    return effects


STEP_RULES: dict[Step, Callable[[State, Day, League], list[Effect]]] = {
    Step.LATE: _late, Step.DEMOTE: _demote, Step.SEAT: _seat}


def checkin(state: State, actor: Actor, a: NoArgs, ctx: League) -> list[Effect]:
    """/签到 (in the group's chat): on a match day from 18:00; after 18:30 it is late (§五)."""
    seat = actor.seat
    assert seat is not None  # the table lets only players send it
    day = state.current_day()
    today = ctx.now.astimezone(ctx.tz).date()
    if day is None or day.date != today.isoformat():
        early = _early_checkin(state, seat, actor.chat, ctx, today)
        if early is not None:
            return early
    if day is None or day.date < today.isoformat():  # no match day today: say so, never answer about an earlier one
        raise Rejected(_no_day_today(ctx, today))
    effects = catch_up(state, ctx)
    if ctx.now < day.times.opens():
        raise Rejected(T.CHECKIN_TOO_EARLY.format(opens=fmt_local(day.times.opens(), ctx.tz)))
    words = ctx.settings.times.words()
    g = day.group_of(seat)
    if g is None:
        if seat in day.demoted:
            raise Rejected(T.CHECKIN_DEMOTED.format(**words))
        if seat in day.forfeit:
            raise Rejected(T.CHECKIN_FORFEITED.format(**words))
        raise Rejected(T.CHECKIN_NOT_TODAY)
    wrong = wrong_chat(g, actor.chat, ctx.chats)
    if wrong:
        raise Rejected(wrong)
    if seat in day.checked:
        raise Rejected(T.CHECKIN_TWICE.format(group=g, pos=day.lineups[g].index(seat) + 1))
    day.checked[seat] = ctx.now.isoformat()
    pos = day.lineups[g].index(seat) + 1
    if seat in day.late:
        text = T.CHECKIN_DONE_LATE.format(group=g, pos=pos, **words)
    else:
        text = T.CHECKIN_DONE.format(group=g, pos=pos, **words)
    return effects + [Say("reply", text)]


def _early_checkin(state: State, seat: int, chat: str | None, ctx: League, today: date) -> list[Effect] | None:
    """Today's check-in window is open but the referee has not opened today's match
    day yet: the check-in is kept with its time and applied when the day opens.
    None when this is not such a moment (the caller answers as usual)."""
    r = state.round
    if len([d for d in state.days if d.round == r]) >= len(ctx.settings.rounds[r].days):
        return None
    if any(d.date == today.isoformat() for d in state.days):
        return None

    def local(hhmm: str) -> datetime:
        return datetime.combine(today, parse_hhmm(hhmm), tzinfo=ctx.tz)

    times = ctx.settings.times
    if not local(times.checkin_open) <= ctx.now < local(times.demote):
        return None
    groups = state.rounds[r].groups
    g = state.group_of(r, seat)
    if g is None:
        raise Rejected(T.CHECKIN_NOT_IN_ROUND)
    wrong = wrong_chat(g, chat, ctx.chats)
    if wrong:
        raise Rejected(wrong)
    kept = state.early.setdefault(today.isoformat(), {})
    pos = groups[g].index(seat) + 1
    if seat in kept:
        raise Rejected(T.CHECKIN_EARLY_TWICE.format(group=g, pos=pos))
    kept[seat] = ctx.now.isoformat()
    late = ctx.now > local(times.late)
    tail = T.CHECKIN_EARLY_LATE.format(**times.words()) if late else T.CHECKIN_EARLY_ON_TIME
    return [Say("reply", T.CHECKIN_EARLY.format(at=fmt_local(ctx.now, ctx.tz), group=g, pos=pos) + tail)]


def _no_day_today(ctx: League, today: date) -> str:
    """Why a check-in finds no match day today: before today's window, after it, or
    (within it) because the round's match days have all been opened."""
    times = ctx.settings.times
    words = times.words() | {"month": today.month, "day": today.day}

    def local(hhmm: str) -> datetime:
        return datetime.combine(today, parse_hhmm(hhmm), tzinfo=ctx.tz)

    if ctx.now < local(times.checkin_open):
        return T.CHECKIN_TODAY_NOT_YET.format(**words)
    if ctx.now >= local(times.demote):
        return T.CHECKIN_TODAY_CLOSED.format(**words)
    return T.CHECKIN_TODAY_NONE.format(**words)


def wrong_chat(group: str, chat: str | None, chats: tuple[str, ...]) -> str | None:
    """Why a check-in sent from ``chat`` ("main", a linked chat's label; None when
    unknown, taken as the main group) is in the wrong place, or None when it is right:
    a group with a linked chat checks in there; a group without one in the main group."""
    here = chat or "main"
    if group in chats:
        if here != group:
            return T.CHECKIN_WRONG_CHAT.format(group=group)
        return None
    if here != "main":
        return T.CHECKIN_MAIN_GROUP.format(group=group)
    return None


def absent(state: State, actor: Actor, a: AbsentArgs, ctx: League) -> list[Effect]:
    """/未到 <玩家>…: checked in but not in the room; forfeits at 18:50 (§十二.5)."""
    day = state.current_day()
    if day is None or seat_time_passed(day, ctx.now):
        raise Rejected(T.ABSENT_NOT_NOW)
    effects = catch_up(state, ctx)
    marked = []
    for seat in a.players:
        if day.group_of(seat) is None:
            raise Rejected(T.ABSENT_NOT_TODAY.format(who=name(state, seat)))
        if seat not in day.absent:
            day.absent.append(seat)
        marked.append(name(state, seat))
    return effects + [Say("reply", T.ABSENT_DONE.format(who=T.SEP.join(marked), **ctx.settings.times.words()))]


def timer(state: State, key: str, ctx: League) -> list[Effect]:
    """A check-in timer fired: its step (and any earlier one not yet run)."""
    step = TIMER_KEYS.get(key)
    if step is None:
        return []
    return catch_up(state, ctx, step)
