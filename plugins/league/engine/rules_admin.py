"""Violations (§十三), appeals (§八), round transitions (§四) and grouping."""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta, timezone
from typing import Annotated

import plugins.league.engine.texts as T
from plugins.gamekit.args import INT, PLAYER, TEXT, WORD, Args, NoArgs
from plugins.gamekit.clock import fmt_local, parse_hhmm
from plugins.gamekit.contract import Actor, Ctx, Effect, Eliminate, Finish, Rejected, Restore, Say, SetPhase

from .content import Settings
from .lineup import drop_from_round
from .standings import award_blocked, rows
from .state import (
    GROUP_NAMES,
    Appeal,
    AppealStatus,
    AuditRow,
    Award,
    DqCause,
    Game,
    GameStatus,
    Level,
    Reversal,
    Round,
    Source,
    State,
    Status,
    Step,
    Violation,
)
from .texts import fmt, fmt_total
from .views import chat_to, group_texts, name

League = Ctx[Settings]


class ViolationArgs(Args, frozen=True, kw_only=True):
    player: Annotated[int, PLAYER]
    type: Annotated[str, WORD]  # a violation type of the catalogue
    game: Annotated[int | None, INT] = None  # the game it happened in


class UndoArgs(Args, frozen=True, kw_only=True):
    id: Annotated[int, INT]  # the violation's number
    reason: Annotated[str, TEXT] = ""


class AwardArgs(Args, frozen=True, kw_only=True):
    game: Annotated[int, INT]
    award: Annotated[str, WORD]  # 全场最佳 | 败方最佳
    who: Annotated[str, TEXT]  # a player, or 无


class AppealArgs(Args, frozen=True, kw_only=True):
    game: Annotated[int, INT]
    text: Annotated[str, TEXT]


class VerdictArgs(Args, frozen=True, kw_only=True):
    id: Annotated[int, INT]  # the appeal's number
    verdict: Annotated[str, WORD]  # 维持 | 改判
    note: Annotated[str, TEXT] = ""


def audit(state: State, ctx: League, by: str, action: str, detail: str) -> None:
    state.audit.append(AuditRow(at=ctx.now.isoformat(), by=by, action=action, detail=detail))


def disqualify(state: State, seat: int, reason: str) -> list[Effect]:
    """Out of the league for good; a player already out is left alone."""
    p = state.players[seat]
    if p.status is not Status.ACTIVE:
        return []
    p.status = Status.DQ
    p.dq_cause = DqCause.VIOLATIONS
    return [Eliminate(seat, reason), Say("group", T.DQ_DONE.format(who=name(state, seat), reason=reason))]


def disqualify_and_drop(state: State, seat: int, reason: str, ctx: League) -> list[Effect]:
    effects = disqualify(state, seat, reason)
    if effects:
        state.players[seat].dq_group = state.group_of(state.round, seat) or ""
        effects += drop_from_round(state, seat, ctx)
    return effects


def dq_reason(state: State, settings: Settings, seat: int) -> str | None:
    """Why the live violations of ``seat`` put them out (§十三.3, §十三.3.4), or None."""
    opts = settings.options
    mine = [v for v in state.live_violations() if v.seat == seat]
    heavy = [v for v in mine if v.level is Level.HEAVY]
    if heavy:
        return T.DQ_HEAVY.format(type=heavy[0].type)
    light = sum(1 for v in mine if v.level is Level.LIGHT)
    medium = sum(1 for v in mine if v.level is Level.MEDIUM)
    if light >= opts.dq_light:
        return T.DQ_LIGHT.format(n=light)
    if medium >= opts.dq_medium:
        return T.DQ_MEDIUM.format(n=medium)
    return None


def add_violation(state: State, seat: int, vtype: str, r: int, game_id: int | None,
                  factor: int, source: Source, ctx: League, by: str) -> tuple[Violation, list[Effect]]:
    """Record one violation, then apply §十三.3.4 (5 light / 3 medium => out),
    heavy => out, and flag §十三.3.5 (2+ in one game) to the referees."""
    vc = ctx.settings.violations[vtype]
    level = Level(vc.level)
    vid = max((v.id for v in state.violations), default=0) + 1
    v = Violation(id=vid, seat=seat, round=r, game=game_id, type=vtype, level=level, points=round(vc.points * factor, 4),
                  source=source, at=ctx.now.isoformat(), by=by)
    state.violations.append(v)
    effects: list[Effect] = []
    if level in (Level.HEAVY, Level.LIGHT, Level.MEDIUM):
        reason = dq_reason(state, ctx.settings, seat)
        if reason is not None:
            effects += disqualify_and_drop(state, seat, reason, ctx)
    if game_id is not None and level in (Level.LIGHT, Level.MEDIUM):
        in_game = sum(1 for x in state.live_violations()
                      if x.seat == seat and x.game == game_id and x.level in (Level.LIGHT, Level.MEDIUM))
        if in_game == ctx.settings.options.flag_per_game:
            effects.append(Say("hosts", T.FLAG_PER_GAME.format(who=name(state, seat), game=game_id, n=in_game)))
    return v, effects


def award_note(state: State, settings: Settings, v: Violation) -> str:
    """§七.3: what a violation with blocks_award took away in its game ("" if nothing)."""
    vc = settings.violations.get(v.type)
    if v.game is None or vc is None or not vc.blocks_award:
        return ""
    game = find_game(state, v.game)
    pts = game.points.get(v.seat)
    if pts is None or not (pts.mvp or pts.svp):
        return ""
    what = T.MVP if pts.mvp else T.SVP
    return T.AWARD_NOTE.format(game=game.id, what=what, points=fmt(pts.parts.award))


def violation(state: State, actor: Actor, a: ViolationArgs, ctx: League) -> list[Effect]:
    """/违规 <玩家> <类型> [局号]: a referee records a violation (§十三)."""
    seat, vtype = a.player, a.type
    if vtype not in ctx.settings.violations:
        raise Rejected(T.VIOLATION_UNKNOWN.format(type=vtype, known=T.SEP.join(ctx.settings.violations)))
    r, factor = state.round, 1
    if a.game is not None:
        game = find_game(state, a.game)
        if seat not in game.points:
            raise Rejected(T.NOT_IN_GAME.format(who=name(state, seat), game=a.game))
        r, factor = game.round, 2 if game.double else 1
    elif seat not in state.rounds[r].members:
        raise Rejected(T.VIOLATION_NOT_IN_ROUND.format(who=name(state, seat)))
    v, effects = add_violation(state, seat, vtype, r, a.game, factor, Source.CMD, ctx, actor.user_id)
    audit(state, ctx, actor.user_id, T.AUDIT_VIOLATION,
          T.AUDIT_VIOLATION_DETAIL.format(id=v.id, who=name(state, seat), type=vtype, game=a.game or "-",
                                          points=fmt_total(v.points)))
    level = T.LEVEL_NAMES[v.level]
    text = T.VIOLATION_DONE.format(who=name(state, seat), level=level, type=vtype, id=v.id, points=fmt_total(v.points))
    note = award_note(state, ctx.settings, v)
    mine = T.VIOLATION_YOURS.format(level=level, type=vtype, id=v.id, points=fmt_total(v.points))
    if note:
        text += note
        mine += T.VIOLATION_YOURS_AWARD
    return [Say("reply", text + T.VIOLATION_UNDO_HINT.format(id=v.id)),
            Say(seat, mine + T.VIOLATION_YOURS_APPEAL)] + effects


def undo(state: State, actor: Actor, a: UndoArgs, ctx: League) -> list[Effect]:
    """/撤销 <编号> <理由>: take a deduction back (e.g. after an upheld appeal, §八 改判)."""
    vid, reason = a.id, a.reason.strip()
    v = next((x for x in state.violations if x.id == vid), None)
    if v is None:
        raise Rejected(T.UNDO_UNKNOWN.format(id=vid))
    if v.reversed is not None:
        done = v.reversed
        raise Rejected(T.UNDO_TWICE.format(id=vid, at=fmt_local(datetime.fromisoformat(done.at), ctx.tz),
                                           reason=done.reason))
    if not reason:
        raise Rejected(T.UNDO_NO_REASON.format(id=vid))
    note = award_note(state, ctx.settings, v)
    v.reversed = Reversal(at=ctx.now.isoformat(), by=actor.user_id, reason=reason)
    seat = v.seat
    where = T.IN_GAME.format(game=v.game) if v.game else T.OFF_GAME
    points = fmt_total(v.points)
    audit(state, ctx, actor.user_id, T.AUDIT_UNDO,
          T.AUDIT_UNDO_DETAIL.format(id=vid, who=name(state, seat), type=v.type, where=where, points=points,
                                     reason=reason))
    head = T.UNDO_DONE.format(id=vid, who=name(state, seat), type=v.type, where=where, points=points)
    mine = T.UNDO_YOURS.format(type=v.type, id=vid, where=where, points=points, reason=reason)
    if note and award_blocked(state, ctx.settings, seat, v.game) is None:
        head += T.UNDO_AWARD_BACK.format(game=v.game)
        mine += T.UNDO_YOURS_AWARD_BACK
    effects: list[Effect] = [Say("reply", head), Say(seat, mine)]
    p = state.players[seat]
    if p.status is Status.DQ and p.dq_cause is DqCause.VIOLATIONS and dq_reason(state, ctx.settings, seat) is None:
        effects += reinstate(state, seat, ctx)
    return effects


def reinstate(state: State, seat: int, ctx: League) -> list[Effect]:
    """The deduction that disqualified a player was taken back: active again, ranked on
    what they played; back to their group's place if nobody has taken it yet."""
    p = state.players[seat]
    p.status = Status.ACTIVE
    p.dq_cause = None
    g, p.dq_group = p.dq_group or "", None
    rnd = state.current
    settings = ctx.settings
    size = max(settings.boards[d.board].size for d in settings.rounds[state.round].days)
    day = state.current_day()
    place = ""
    if g and g in rnd.groups and len(rnd.groups[g]) < size and seat in rnd.members:
        today = [day.lineups[g]] if day is not None and Step.SEAT not in day.done \
            and g in day.lineups and len(day.lineups[g]) < size else []
        for lineup in [rnd.groups[g], *today]:
            ref = rnd.order.get(g, [])
            later = ref[ref.index(seat) + 1:] if seat in ref else []
            i = next((lineup.index(s) for s in later if s in lineup), len(lineup))
            lineup.insert(i, seat)
        place = T.REINSTATED_PLACE.format(group=g, pos=rnd.groups[g].index(seat) + 1)
    elif seat in rnd.members:
        place = T.REINSTATED_TAKEN
    audit(state, ctx, "system", T.AUDIT_REINSTATE, T.AUDIT_REINSTATE_DETAIL.format(who=name(state, seat), place=place))
    return [Restore(seat, T.REINSTATED_REASON),
            Say("group", T.REINSTATED_GROUP.format(who=name(state, seat))),
            Say("hosts", T.REINSTATED_HOSTS.format(who=name(state, seat), place=place or T.REINSTATED_SUBSTITUTE)),
            Say(seat, T.REINSTATED_YOURS.format(place=place or T.REINSTATED_SUBSTITUTE))]


def award(state: State, actor: Actor, a: AwardArgs, ctx: League) -> list[Effect]:
    """/评选 <局号> <全场最佳|败方最佳> <玩家|无>: the referees re-award (§七.1/§七.3)."""
    game = find_game(state, a.game)
    kind = T.AWARD_WORDS.get(a.award)
    if kind is None:
        raise Rejected(T.AWARD_WHICH)
    if game.status is not GameStatus.OK:
        raise Rejected(T.AWARD_VOID.format(game=game.id))
    what = T.MVP if kind is Award.MVP else T.SVP
    who = a.who.strip()
    seat = None
    if who not in T.NOBODY_WORDS:
        seat = state.resolver().get(who.lstrip("#"))
        if seat is None or seat not in game.points:
            raise Rejected(T.AWARD_UNKNOWN.format(who=who, game=game.id))
        pts = game.points[seat]
        blocked = award_blocked(state, ctx.settings, seat, game.id)
        if blocked:
            raise Rejected(T.AWARD_BLOCKED.format(who=name(state, seat), game=game.id, type=blocked.type, id=blocked.id))
        if kind is Award.SVP and pts.won:
            raise Rejected(T.AWARD_SVP_WINNER.format(who=name(state, seat)))
        other = Award.SVP if kind is Award.MVP else Award.MVP
        if pts.has(other):
            raise Rejected(T.AWARD_ONE_EACH.format(who=name(state, seat), what=T.SVP if other is Award.SVP else T.MVP))
    factor = 2 if game.double else 1
    sc = ctx.settings.scoring
    before = [k for k, p in game.points.items() if p.has(kind)]
    for key, pts in game.points.items():
        if kind is Award.MVP:
            pts.mvp = seat is not None and key == seat
        else:
            pts.svp = seat is not None and key == seat
        pts.parts.award = round(factor * ((sc.mvp if pts.mvp else 0) + (sc.svp if pts.svp else 0)), 4)
    old = T.SEP.join(name(state, k) for k in before) or T.NOBODY
    new = name(state, seat) if seat is not None else T.NOBODY
    audit(state, ctx, actor.user_id, T.AUDIT_AWARD, T.AUDIT_AWARD_DETAIL.format(game=game.id, what=what, old=old, new=new))
    text = T.AWARD_DONE.format(game=game.id, group=game.group, no=game.no, what=what, old=old, new=new)
    return [Say("reply", text + T.AWARD_DONE_REPLY), Say(chat_to(game.group, ctx.chats), T.AWARD_DONE_GROUP + text)]


def find_game(state: State, game_id: int) -> Game:
    for g in state.games:
        if g.id == game_id:
            return g
    raise Rejected(T.GAME_UNKNOWN.format(game=game_id))


def appeal_deadline(game: Game, ctx: League) -> datetime:
    """§八: 12:00 (settings) on the day after the match day."""
    when = date.fromisoformat(game.date) + timedelta(days=1)
    local = datetime.combine(when, parse_hhmm(ctx.settings.times.appeal_until), tzinfo=ctx.tz)
    return local.astimezone(timezone.utc)


def appeal(state: State, actor: Actor, a: AppealArgs, ctx: League) -> list[Effect]:
    """/申诉 <局号> <理由> (private): until the day after the game's match day (§八)."""
    assert actor.seat is not None  # the table lets only players send it
    game = find_game(state, a.game)
    deadline = appeal_deadline(game, ctx)
    text = a.text.strip()
    if not text:
        raise Rejected(T.APPEAL_NO_TEXT)
    heavy = text.startswith(T.APPEAL_HEAVY_WORD)
    if ctx.now > deadline and not heavy:
        local = deadline.astimezone(ctx.tz)
        raise Rejected(T.APPEAL_CLOSED.format(month=local.month, day=local.day, time=local))
    refused = sum(1 for x in state.appeals
                  if x.seat == actor.seat and x.game == game.id and x.status is AppealStatus.UPHELD)
    if refused >= ctx.settings.options.max_appeals:
        raise Rejected(T.APPEAL_USED_UP.format(game=game.id, n=refused))
    aid = len(state.appeals) + 1
    state.appeals.append(Appeal(id=aid, seat=actor.seat, game=game.id, text=text, at=ctx.now.isoformat()))
    return [Say("reply", T.APPEAL_DONE.format(id=aid)),
            Say("hosts", T.APPEAL_HOSTS.format(id=aid, who=name(state, actor.seat), game=game.id, group=game.group,
                                               no=game.no, text=text))]


def appeals(state: State, actor: Actor, a: NoArgs, ctx: League) -> list[Effect]:
    """/申诉列表: the appeals still open (read-only)."""
    open_ = [x for x in state.appeals if x.status is AppealStatus.OPEN]
    if not open_:
        return [Say("reply", T.APPEALS_NONE)]
    lines = [T.APPEALS_HEAD.format(n=len(open_))]
    lines += [T.APPEALS_LINE.format(id=x.id, who=name(state, x.seat), game=x.game, text=x.text) for x in open_]
    lines.append(T.APPEALS_HINT)
    if not actor.private:  # in a group: the count only; who appealed and why go to the referees privately
        return [Say("reply", T.APPEALS_IN_GROUP.format(n=len(open_))), Say("hosts", "\n".join(lines))]
    return [Say("reply", "\n".join(lines))]


def verdict(state: State, actor: Actor, a: VerdictArgs, ctx: League) -> list[Effect]:
    """/裁决 <编号> <维持|改判> [说明]: the referees answer an appeal."""
    match = [x for x in state.appeals if x.id == a.id]
    if not match:
        raise Rejected(T.VERDICT_UNKNOWN.format(id=a.id))
    x = match[0]
    if x.status is not AppealStatus.OPEN:
        raise Rejected(T.VERDICT_TWICE.format(id=a.id, verdict=T.VERDICT_NAMES[x.status]))
    status = T.VERDICT_WORDS.get(a.verdict)
    if status is None:
        raise Rejected(T.VERDICT_WHICH)
    x.status, x.answer = status, a.note
    audit(state, ctx, actor.user_id, T.AUDIT_VERDICT,
          T.AUDIT_VERDICT_DETAIL.format(id=a.id, verdict=T.VERDICT_NAMES[status], note=x.answer))
    effects: list[Effect] = [Say(x.seat, T.VERDICT_YOURS.format(id=a.id, game=x.game, verdict=T.VERDICT_NAMES[status],
                                                                note=x.answer))]
    if status is AppealStatus.CHANGED:
        effects.append(Say("reply", T.VERDICT_CHANGED.format(game=x.game)))
    else:
        effects.append(Say("reply", T.VERDICT_UPHELD.format(id=a.id)))
    return effects


def make_groups(seats: list[int], n_groups: int, seed: int) -> dict[str, list[int]]:
    """Shuffle ``seats`` with the stored seed and cut them into equal groups."""
    order = sorted(seats)
    random.Random(seed).shuffle(order)
    size = len(order) // n_groups
    return {GROUP_NAMES[i]: order[i * size:(i + 1) * size] for i in range(n_groups)}


def new_round(state: State, r: int, seats: list[int], ctx: League) -> list[Effect]:
    rc = ctx.settings.rounds[r]
    seed = ctx.rng.getrandbits(32)
    groups = make_groups(seats, rc.groups, seed)
    state.rounds.append(Round(key=rc.key, name=rc.name, seed=seed, groups=groups, members=sorted(seats),
                              order={g: list(m) for g, m in groups.items()}))
    state.round = r
    effects: list[Effect] = [SetPhase(key=rc.key, label=T.PHASE_GROUPS.format(round=rc.name))]
    effects += [Say(chat_to(g, ctx.chats), t) for g, t in group_texts(state, r).items()]
    return effects


def missing_games(state: State, settings: Settings, r: int) -> list[str]:
    rc = settings.rounds[r]
    opened = [d for d in state.days if d.round == r]
    total = sum(d.games for d in rc.days)
    missing = []
    if len(opened) < len(rc.days):
        missing.append(T.MISSING_DAYS.format(n=len(rc.days) - len(opened)))
    for no in range(1, total + 1):
        for g in sorted(state.rounds[r].groups):
            if not any(x.round == r and x.group == g and x.no == no for x in state.games):
                missing.append(T.MISSING_GAME.format(group=g, no=no))
    return missing


def next_round(state: State, actor: Actor, a: NoArgs, ctx: League) -> list[Effect]:
    """/下一轮: close the round (its ranking is kept) and group the next one, or finish (§四)."""
    if state.finished:
        raise Rejected(T.FINISHED)
    r = state.round
    settings = ctx.settings
    missing = missing_games(state, settings, r)
    if missing:
        shown = T.SEP.join(missing[:10]) + ("…" if len(missing) > 10 else "")
        raise Rejected(T.ROUND_NOT_DONE.format(missing=shown))
    table = rows(state, settings, r)
    ranking = [row.seat for row in table if row.rank]
    state.rounds[r].ranking = ranking
    ties = [row for row in table if row.tie]
    rc = settings.rounds[r]
    audit(state, ctx, actor.user_id, T.AUDIT_NEXT_ROUND, T.AUDIT_NEXT_ROUND_DETAIL.format(round=rc.name))
    effects: list[Effect] = []
    if ties:
        effects.append(Say("hosts", T.TIES_FOR_REFEREES + T.SEP.join(name(state, row.seat) for row in ties)))
    if r + 1 >= len(settings.rounds):
        state.finished = True
        top = [T.FINAL_LINE.format(rank=row.rank, who=name(state, row.seat), total=fmt_total(row.total))
               for row in table[:24] if row.rank]
        return effects + [Finish(T.FINAL_HEAD.format(round=rc.name) + "\n".join(top))]
    need = settings.rounds[r + 1].players
    advanced = ranking[:rc.advance]
    if len(advanced) < need:
        raise Rejected(T.ADVANCE_TOO_FEW.format(n=len(advanced), need=need))
    lines = [T.ADVANCE_HEAD.format(round=rc.name, n=rc.advance)]
    lines += [T.ADVANCE_LINE.format(rank=i, who=name(state, s)) for i, s in enumerate(advanced, 1)]
    effects.append(Say("group", "\n".join(lines)))
    return effects + new_round(state, r + 1, advanced, ctx)
