"""Match days: opening, check-in (§五), the 18:30/18:35/18:50 steps, substitutes (§十)."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone
from typing import Any

from plugins.gamekit.clock import fmt_local, parse_hhmm
from plugins.gamekit.contract import Actor, Ctx, Eliminate, Rejected, Say, SetPhase, SetTimer

from . import texts as T
from .model import ACTIVE, current_day, lineup_group, per_group, round_cfg
from .rules_admin import add_violation, audit
from .standings import UNRANKED, rows
from .texts import name

STEPS = ("late", "demote", "seat")
TIMER_KEYS = {f"checkin.{s}": s for s in STEPS}
DATE_RE = re.compile(T.DATE_PATTERN)


def _at(day: dict[str, Any], key: str) -> datetime:
    return datetime.fromisoformat(day["times"][key])


def _hhmm(cfg: dict[str, Any], key: str) -> str:
    return cfg["times"][key]


def _parse_date(text: str | None, ctx: Ctx) -> date:
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


def open_day(state: dict[str, Any], actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Any]:
    if state["finished"]:
        raise Rejected(T.FINISHED)
    pending = catch_up(state, ctx)  # a previous day whose timers never fired is finished first
    r = state["round"]
    rc = round_cfg(ctx.settings, r)
    done = [d for d in state["days"] if d["round"] == r]
    if len(done) >= len(rc["days"]):
        raise Rejected(T.DAYS_ALL_OPENED.format(round=rc["name"], n=len(rc["days"])))
    prev = current_day(state)
    if prev is not None and "seat" not in prev["done"] and _at(prev, "seat") > ctx.now:
        raise Rejected(T.DAY_PREVIOUS_OPEN)
    when = _parse_date(args.get("date"), ctx)
    if when < ctx.now.astimezone(ctx.tz).date():
        raise Rejected(T.DAY_PAST.format(month=when.month, day=when.day))
    times = {}
    for key in ("checkin_open", "late", "demote", "seat"):
        local = datetime.combine(when, parse_hhmm(_hhmm(ctx.settings, key)), tzinfo=ctx.tz)
        times[key] = local.astimezone(timezone.utc).isoformat()
    twice = next((d for d in state["days"] if d["date"] == when.isoformat()), None)
    if twice is not None:
        raise Rejected(T.DAY_TWICE.format(month=when.month, day=when.day, round=state["rounds"][twice["round"]]["name"],
                                          no=twice["index"] + 1))
    index = len(done)
    dcfg = rc["days"][index]
    first_no = sum(d["games"] for d in rc["days"][:index]) + 1
    day = {"round": r, "index": index, "date": when.isoformat(), "board": dcfg["board"],
           "label": dcfg.get("label", ""), "games": dcfg["games"], "first_no": first_no,
           "times": times, "lineups": {g: list(m) for g, m in state["rounds"][r]["groups"].items()},
           "checked": {}, "late": [], "absent": [], "promoted": {}, "done": [], "forfeit": [],
           "demoted": []}
    state["days"].append(day)
    gap_effects = _fill_gaps(state, day, ctx)
    roles = T.SEP.join(T.ROLE_COUNT.format(role=k, n=v) for k, v in ctx.settings["boards"][dcfg["board"]]["roles"].items())
    nos = T.SEP.join(T.GAME_NO.format(no=n) for n in range(first_no, first_no + dcfg["games"]))
    label = T.DAY_LABEL.format(round=rc["name"], no=index + 1, month=when.month, day=when.day, board=dcfg["board"])
    text = T.DAY_OPENED.format(label=label, roles=roles, games=nos, **ctx.settings["times"])
    unlinked = [g for g in sorted(day["lineups"]) if g not in ctx.chats]
    if unlinked and len(unlinked) < len(day["lineups"]):
        text += T.DAY_UNLINKED_SOME.format(groups=T.SEP.join(T.GROUP.format(group=g) for g in unlinked))
    elif unlinked:
        text += T.DAY_UNLINKED_ALL
    early = state.get("early", {}).pop(when.isoformat(), {})
    for key, at_iso in sorted(early.items(), key=lambda kv: kv[1]):
        if lineup_group(day, int(key)) is not None:
            day["checked"][key] = at_iso
    state.get("early", {}).clear()  # check-ins kept for another date are of no use now
    past = [step for step in STEPS if _at(day, step) <= ctx.now]
    lineups = []
    for g in sorted(day["lineups"]):
        if g in ctx.chats:
            lines = [T.DAY_LINEUP_HEAD.format(label=label, group=g)]
            lines += [T.POSITION_LINE.format(pos=i, who=name(state, s)) for i, s in enumerate(day["lineups"][g], 1)]
            lines.append(T.DAY_LINEUP_CHECKIN.format(**ctx.settings["times"]))
            lineups.append(Say(f"chat:{g}", "\n".join(lines)))
    timers = [SetTimer(f"checkin.{step}", datetime.fromisoformat(times[step])) for step in STEPS if step not in past]
    effects = pending + [SetPhase(key=f"r{r + 1}d{index + 1}", label=T.PHASE_CHECKIN.format(label=label)), *timers,
                         Say("group", text)] + lineups + gap_effects
    detail = f"{label}"
    if past:  # opened late: the steps whose time has passed run now, in order (§五)
        effects += catch_up(state, ctx)
        report = _late_open_report(state, day, past, ctx)
        effects.append(Say("reply", report))
        detail += T.AUDIT_DAY_LATE.format(report=report.splitlines()[0])
    audit(state, ctx, actor.user_id, T.AUDIT_OPEN_DAY, detail)
    return effects


def _late_open_report(state: dict[str, Any], day: dict[str, Any], past: list[str], ctx: Ctx) -> str:
    """What a late /开赛日 applied at once, with the real time of each step."""
    now = fmt_local(ctx.now, ctx.tz)
    counts = {"late": len(day["late"]), "demote": len(day["demoted"]), "seat": len(day["forfeit"])}
    done = T.LATE_OPEN_SEP.join(T.LATE_OPEN_STEP.format(time=_hhmm(ctx.settings, step), step=T.STEP_NAMES[step],
                                                         n=counts[step]) for step in past)
    lines = [T.LATE_OPEN_HEAD.format(done=done, now=now), T.LATE_OPEN_CHECKED.format(n=len(day["checked"]))]
    if counts["late"]:
        lines.append(T.LATE_OPEN_UNDO)
    rest = [s for s in STEPS if s not in past]
    if rest:
        lines.append(T.LATE_OPEN_NEXT.format(steps=T.SEP.join(T.STEP_AT.format(time=_hhmm(ctx.settings, s), step=T.STEP_NAMES[s])
                                                              for s in rest)))
    return "\n".join(lines)


def catch_up(state: dict[str, Any], ctx: Ctx, upto: str | None = None) -> list[Any]:
    """Run every check-in step whose time has come and that has not run yet.
    ``upto``: the step whose kernel timer fired — it and the steps before it run
    even if ``ctx.now`` is a little short of the stored time (the kernel's timer
    row is the authority; it may fire up to a second early)."""
    day = current_day(state)
    effects: list[Any] = []
    if day is None:
        return effects
    forced = STEPS[: STEPS.index(upto) + 1] if upto in STEPS else ()
    for step in STEPS:
        if step in day["done"] or (_at(day, step) > ctx.now and step not in forced):
            continue
        day["done"].append(step)
        day.setdefault("ran", {})[step] = ctx.now.isoformat()  # the real time the step ran
        effects += {"late": _late, "demote": _demote, "seat": _seat}[step](state, day, ctx)
    return effects


def _late(state: dict[str, Any], day: dict[str, Any], ctx: Ctx) -> list[Any]:
    effects: list[Any] = []
    late: dict[str, list[str]] = {}
    for g in sorted(day["lineups"]):
        for seat in day["lineups"][g]:
            if _checked_by(day, seat, "late") or str(seat) in day["promoted"]:
                continue
            late.setdefault(g, []).append(name(state, seat))
            day["late"].append(seat)
            tail = T.LATE_YOURS_TAIL.format(**ctx.settings["times"]) if _at(day, "demote") > ctx.now else ""
            effects.append(Say(seat, T.LATE_YOURS.format(tail=tail, **ctx.settings["times"])))
            effects += add_violation(state, seat, T.LATE_VIOLATION, day["round"], None, 1, "auto", ctx, "system")
    effects += per_group(T.LATE_GROUP.format(**ctx.settings["times"]), late, ctx.chats, T.SEP)
    return effects


def _checked_by(day: dict[str, Any], seat: int, step: str) -> bool:
    """Checked in no later than the step's time (a check-in sent before a late
    /开赛日 keeps the time it was sent)."""
    at_iso = day["checked"].get(str(seat))
    return at_iso is not None and datetime.fromisoformat(at_iso) <= _at(day, step)


def substitutes(state: dict[str, Any], cfg: dict[str, Any], r: int, day: dict[str, Any] | None) -> list[int]:
    """§十.2/§十.3 order: never-demoted substitutes first (registration order in
    round 1, previous round ranking after), then this round's demoted players by
    current ranking."""
    used: set[int] = {s for m in state["rounds"][r]["groups"].values() for s in m}
    if day is not None:
        used |= {s for m in day["lineups"].values() for s in m} | set(day["demoted"])
    cands = sorted(int(k) for k, p in state["players"].items() if p["status"] == ACTIVE and int(k) not in used)
    demoted = state["rounds"][r]["demoted"]
    if r == 0:
        prev = {s: s for s in cands}
    else:
        ranking = state["rounds"][r - 1].get("ranking") or []
        prev = {s: (ranking.index(s) if s in ranking else UNRANKED) for s in cands}
    primary = sorted((s for s in cands if s not in demoted), key=lambda s: (prev[s], s))
    current = {row["seat"]: i for i, row in enumerate(rows(state, cfg, r))}
    secondary = sorted((s for s in cands if s in demoted), key=lambda s: (current.get(s, UNRANKED), s))
    return primary + secondary


def replace(state: dict[str, Any], day: dict[str, Any], seat: int, presumed_seated: bool,
            ctx: Ctx) -> tuple[int | None, str]:
    """Take ``seat`` out of today's lineup and the round's groups; the next
    substitute takes the same position. Returns (substitute or None, group)."""
    r = day["round"]
    g = lineup_group(day, seat) or ""
    queue = substitutes(state, ctx.settings, r, day)
    sub = queue[0] if queue else None
    for lineup in (day["lineups"][g], state["rounds"][r]["groups"].get(g, [])):
        if seat in lineup:
            i = lineup.index(seat)
            if sub is None:
                lineup.pop(i)
            else:
                lineup[i] = sub
    ref = state["rounds"][r].setdefault("order", {}).setdefault(g, [])
    if sub is not None and sub not in ref:  # the group's positions in order, for a reinstated player
        ref.insert(ref.index(seat) + 1 if seat in ref else len(ref), sub)
    if sub is not None:
        put_in(state, r, sub)
        day["promoted"][str(sub)] = g
        if presumed_seated:
            day["checked"][str(sub)] = ctx.now.isoformat()
    return sub, g


def put_in(state: dict[str, Any], r: int, sub: int) -> None:
    """A substitute takes a place: a member of the round, ranked on what they play
    (a player demoted earlier this round is ranked again, §五/§十.2 reading in RULES.md)."""
    rnd = state["rounds"][r]
    if sub not in rnd["members"]:
        rnd["members"].append(sub)
    if sub in rnd.get("benched", []):
        rnd["benched"].remove(sub)


def drop_from_round(state: dict[str, Any], seat: int, ctx: Ctx) -> list[Any]:
    """A player who left the league (disqualified, red card): before 18:50 the
    next substitute takes the place today; later, today's lineup stays as played
    and the place is refilled when the next match day opens."""
    day = current_day(state)
    before_seat = day is not None and "seat" not in day["done"] and ctx.now < _at(day, "seat")
    if day is not None and before_seat and lineup_group(day, seat) is not None:  # day repeated: a type checker narrows only here
        sub, g = replace(state, day, seat, False, ctx)
        if sub is None:
            return [Say("hosts", T.DROP_NO_SUBSTITUTE.format(group=g))]
        pos = day["lineups"][g].index(sub) + 1
        return [Say(sub, T.DROP_SUBSTITUTE_YOURS.format(group=g, pos=pos, **ctx.settings["times"]))]
    for members in state["rounds"][state["round"]]["groups"].values():
        if seat in members:
            members.remove(seat)
    return []


def _fill_gaps(state: dict[str, Any], day: dict[str, Any], ctx: Ctx) -> list[Any]:
    """At opening: groups short of players (someone left the league) take substitutes."""
    effects: list[Any] = []
    size = sum(ctx.settings["boards"][day["board"]]["roles"].values())
    for g in sorted(day["lineups"]):
        while len(day["lineups"][g]) < size:
            queue = substitutes(state, ctx.settings, day["round"], day)
            if not queue:
                effects.append(Say("hosts", T.GAP_NO_SUBSTITUTE.format(group=g, n=size - len(day["lineups"][g]))))
                break
            sub = queue[0]
            day["lineups"][g].append(sub)
            state["rounds"][day["round"]]["groups"][g].append(sub)
            state["rounds"][day["round"]].setdefault("order", {}).setdefault(g, []).append(sub)
            put_in(state, day["round"], sub)
            effects.append(Say(sub, T.GAP_SUBSTITUTE_YOURS.format(group=g, pos=len(day["lineups"][g]))))
    return effects


def _demote(state: dict[str, Any], day: dict[str, Any], ctx: Ctx) -> list[Any]:
    effects: list[Any] = []
    lines: dict[str, list[str]] = {}
    for g in sorted(day["lineups"]):
        for seat in list(day["lineups"][g]):
            if _checked_by(day, seat, "demote") or str(seat) in day["promoted"]:
                continue
            rnd = state["rounds"][day["round"]]
            rnd["demoted"].append(seat)
            rnd.setdefault("benched", []).append(seat)
            day["demoted"].append(seat)
            sub, _ = replace(state, day, seat, False, ctx)
            effects.append(Say(seat, T.DEMOTED_YOURS.format(**ctx.settings["times"])))
            if sub is None:
                lines.setdefault(g, []).append(T.DEMOTED_LINE_NO_SUBSTITUTE.format(group=g, who=name(state, seat)))
                effects.append(Say("hosts", T.DEMOTED_NO_SUBSTITUTE.format(group=g, who=name(state, seat))))
            else:
                pos = day["lineups"][g].index(sub) + 1
                lines.setdefault(g, []).append(T.DEMOTED_LINE.format(group=g, who=name(state, seat), sub=name(state, sub),
                                                                     pos=pos))
                effects.append(Say(sub, T.DEMOTED_SUBSTITUTE_YOURS.format(group=g, pos=pos, **ctx.settings["times"])))
    effects += per_group(T.DEMOTED_GROUP.format(**ctx.settings["times"]), lines, ctx.chats)
    return effects


def _seat(state: dict[str, Any], day: dict[str, Any], ctx: Ctx) -> list[Any]:
    effects: list[Any] = []
    lines: dict[str, list[str]] = {}
    refill = ctx.settings["options"]["refill_on_forfeit"]
    for g in sorted(day["lineups"]):
        for seat in list(day["lineups"][g]):
            if str(seat) in day["checked"] and seat not in day["absent"]:
                continue
            state["players"][str(seat)]["status"] = "forfeit"
            day["forfeit"].append(seat)
            effects.append(Eliminate(seat, T.FORFEIT_REASON.format(**ctx.settings["times"])))
            if refill:
                sub, _ = replace(state, day, seat, True, ctx)
            else:
                sub = None
                for lineup in (day["lineups"][g], state["rounds"][day["round"]]["groups"][g]):
                    if seat in lineup:
                        lineup.remove(seat)
            if sub is None:
                lines.setdefault(g, []).append(T.FORFEIT_LINE_NO_SUBSTITUTE.format(group=g, who=name(state, seat)))
                effects.append(Say("hosts", T.FORFEIT_NO_SUBSTITUTE.format(group=g, who=name(state, seat))))
            else:
                lines.setdefault(g, []).append(T.FORFEIT_LINE.format(group=g, who=name(state, seat), sub=name(state, sub)))
                effects.append(Say(sub, T.FORFEIT_SUBSTITUTE_YOURS.format(group=g)))
    effects += per_group(T.FORFEIT_GROUP.format(**ctx.settings["times"]), lines, ctx.chats)
    return effects


def checkin(state: dict[str, Any], actor: Actor, ctx: Ctx) -> list[Any]:
    day = current_day(state)
    today = ctx.now.astimezone(ctx.tz).date()
    if day is None or day["date"] != today.isoformat():
        early = _early_checkin(state, actor, ctx, today)
        if early is not None:
            return early
    if day is None:
        raise Rejected(T.CHECKIN_NO_DAY)
    effects = catch_up(state, ctx)
    seat = actor.seat
    if seat is None:
        raise Rejected(T.CHECKIN_NOT_PLAYER)
    if ctx.now < _at(day, "checkin_open"):
        opens = fmt_local(_at(day, "checkin_open"), ctx.tz)
        raise Rejected(T.CHECKIN_TOO_EARLY.format(opens=opens))
    g = lineup_group(day, seat)
    if g is None:
        if seat in day["demoted"]:
            raise Rejected(T.CHECKIN_DEMOTED.format(**ctx.settings["times"]))
        if seat in day["forfeit"]:
            raise Rejected(T.CHECKIN_FORFEITED.format(**ctx.settings["times"]))
        raise Rejected(T.CHECKIN_NOT_TODAY)
    wrong = wrong_chat(g, actor.chat, ctx.chats)
    if wrong:
        raise Rejected(wrong)
    if str(seat) in day["checked"]:
        raise Rejected(T.CHECKIN_TWICE.format(group=g, pos=day["lineups"][g].index(seat) + 1))
    day["checked"][str(seat)] = ctx.now.isoformat()
    pos = day["lineups"][g].index(seat) + 1
    if seat in day["late"]:
        text = T.CHECKIN_DONE_LATE.format(group=g, pos=pos, **ctx.settings["times"])
    else:
        text = T.CHECKIN_DONE.format(group=g, pos=pos, **ctx.settings["times"])
    return effects + [Say("reply", text)]


def _early_checkin(state: dict[str, Any], actor: Actor, ctx: Ctx, today: date) -> list[Any] | None:
    """Today's check-in window is open but the referee has not opened today's match
    day yet: the check-in is kept with its time and applied when the day opens.
    None when this is not such a moment (the caller answers as usual)."""
    r = state["round"]
    if len([d for d in state["days"] if d["round"] == r]) >= len(round_cfg(ctx.settings, r)["days"]):
        return None
    if any(d["date"] == today.isoformat() for d in state["days"]):
        return None

    def local(key: str) -> datetime:
        return datetime.combine(today, parse_hhmm(_hhmm(ctx.settings, key)), tzinfo=ctx.tz)

    if not local("checkin_open") <= ctx.now < local("demote"):
        return None
    seat = actor.seat
    if seat is None:
        raise Rejected(T.CHECKIN_NOT_PLAYER)
    groups = state["rounds"][r]["groups"]
    g = next((k for k, m in groups.items() if seat in m), None)
    if g is None:
        raise Rejected(T.CHECKIN_NOT_IN_ROUND)
    wrong = wrong_chat(g, actor.chat, ctx.chats)
    if wrong:
        raise Rejected(wrong)
    kept = state.setdefault("early", {}).setdefault(today.isoformat(), {})
    pos = groups[g].index(seat) + 1
    if str(seat) in kept:
        raise Rejected(T.CHECKIN_EARLY_TWICE.format(group=g, pos=pos))
    kept[str(seat)] = ctx.now.isoformat()
    late = ctx.now > local("late")
    tail = T.CHECKIN_EARLY_LATE.format(**ctx.settings["times"]) if late else T.CHECKIN_EARLY_ON_TIME
    return [Say("reply", T.CHECKIN_EARLY.format(at=fmt_local(ctx.now, ctx.tz), group=g, pos=pos) + tail)]


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


def absent(state: dict[str, Any], actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Any]:
    day = current_day(state)
    if day is None or "seat" in day["done"] or _at(day, "seat") <= ctx.now:
        raise Rejected(T.ABSENT_NOT_NOW)
    effects = catch_up(state, ctx)
    marked = []
    for seat in args["players"]:
        if lineup_group(day, seat) is None:
            raise Rejected(T.ABSENT_NOT_TODAY.format(who=name(state, seat)))
        if seat not in day["absent"]:
            day["absent"].append(seat)
        marked.append(name(state, seat))
    return effects + [Say("reply", T.ABSENT_DONE.format(who=T.SEP.join(marked), **ctx.settings["times"]))]


def timer(state: dict[str, Any], key: str, ctx: Ctx) -> list[Any]:
    if key not in TIMER_KEYS:
        return []
    return catch_up(state, ctx, TIMER_KEYS[key])


def appeal_deadline(state: dict[str, Any], game: dict[str, Any], ctx: Ctx) -> datetime:
    """§八: 12:00 (settings) on the day after the match day."""
    when = date.fromisoformat(game["date"]) + timedelta(days=1)
    local = datetime.combine(when, parse_hhmm(_hhmm(ctx.settings, "appeal_until")), tzinfo=ctx.tz)
    return local.astimezone(timezone.utc)
