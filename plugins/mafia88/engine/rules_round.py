"""The round's timeline and resolution: posts due → publication → vote close
→ (overtime) → result → next round."""

from __future__ import annotations

from datetime import datetime, timedelta

import plugins.mafia88.engine.texts as T
from plugins.gamekit.clock import next_at
from plugins.gamekit.contract import CancelTimer, Ctx, Effect, Say, SetPhase, SetTimer

from .content import Settings
from .ending import check_end, sides_left
from .model import alive, iso, name, new_round, rnd, role_name, row, tz, when
from .resolution import RESULT_STEPS, ResultInput, result_steps_text, run
from .rules_complaints import close_reports_window, complaint_due
from .rules_decide import after_result, begin, letter_due_fired, settle
from .rules_posts import posts_due, publish, redo_due, white_due
from .rules_reports import failing_reports
from .rules_souls import convert_roles
from .rules_votes import decide, non_voters, resolve_overtime, start_overtime
from .state import Candidate, Cause, Death, Result, ResultStep, State, Step, Take


def schedule_round(state: State, cfg: Settings, r: int, base: datetime, effects: list[Effect], first: bool = False) -> None:
    t = cfg.times
    state.round = r
    state.step = Step.ROUND
    if r not in state.rounds:
        state.rounds[r] = new_round(r)
    posts = base + timedelta(minutes=t.first_posts_minutes if first else t.post_due_minutes)
    publish_at = posts + timedelta(minutes=t.publish_delay_minutes)
    close = next_at(publish_at + timedelta(minutes=t.min_vote_minutes), t.vote_close, tz(state))
    due = rnd(state, r).due
    due.posts, due.publish, due.close = iso(posts), iso(publish_at), iso(close)
    table_row = row(state, r)
    quotas = T.LIST_SEP.join(f"{g}{n}" for g, n in table_row.posts.items() if n > 0) or T.NONE
    extra = T.OVERTIME_ROUND_MARK if r > len(state.table) else ""
    cutoff = close - timedelta(minutes=t.proxy_cutoff_minutes)
    text = (
        T.ROUND_OPEN.format(r=r, extra=extra, votes=table_row.votes, out=table_row.out, quotas=quotas, posts=when(state, iso(posts)), publish=when(state, iso(publish_at)), close=when(state, iso(close)), cutoff=when(state, iso(cutoff)))
    )
    if first:
        text = (
            T.GAME_START.format(n_players=len(state.players), report_min=cfg.limits.report_min) + text
        )
    effects.append(Say("group", text))
    convert_roles(state, cfg, r, effects)
    effects.append(SetPhase("round", T.ROUND_PHASE.format(r=r), close))
    effects.append(SetTimer(f"posts_due:{r}", posts))
    effects.append(SetTimer(f"publish:{r}", publish_at))


def on_deadline(state: State, key: str, ctx: Ctx[Settings]) -> list[Effect]:
    cfg = ctx.settings
    effects: list[Effect] = []
    if state.step == Step.OVER:
        return effects
    if key == "phase":
        if state.step == Step.OVERTIME:
            finish_overtime(state, ctx, effects)
        elif state.step == Step.DECIDING:
            finish_decisions(state, ctx, effects)
        else:
            close(state, ctx, effects)
        return effects
    kind, _, num = key.partition(":")
    if kind == "letter" and num.isdigit():
        letter_due_fired(state, int(num), ctx, effects)
        return effects
    if kind == "complaint" and num.isdigit():
        complaint_due(state, int(num), ctx, effects)
        return effects
    if kind == "redo" and num.isdigit():
        redo_due(state, int(num), ctx, effects)
        check_end(state, cfg, effects)
        return effects
    if not num.isdigit() or int(num) not in state.rounds:
        return effects
    r = int(num)
    if kind == "posts_due" and r == state.round:
        posts_due(state, r, ctx, effects)
        check_end(state, cfg, effects)
    elif kind == "publish" and r == state.round:
        publish(state, r, ctx, effects)
        check_end(state, cfg, effects)
    elif kind == "white":
        white_due(state, r, ctx, effects)
        check_end(state, cfg, effects)
    return effects


def close(state: State, ctx: Ctx[Settings], effects: list[Effect]) -> None:
    """Vote close (§十三): late steps of the round run first if a host
    advanced the deadline; then the tally, or an overtime vote."""
    cfg = ctx.settings
    r = state.round
    cur = rnd(state)
    if not cur.posts_done:
        posts_due(state, r, ctx, effects)
        effects.append(CancelTimer(f"posts_due:{r}"))
    if not cur.published:
        publish(state, r, ctx, effects)
        effects.append(CancelTimer(f"publish:{r}"))
    if check_end(state, cfg, effects):
        return
    cur.closed = True
    # §十三.2: a living player who did not vote is out (marked now, applied with the result)
    for s in non_voters(state, r):
        cur.marks.append(Death(seat=s, cause=Cause.NOVOTE, reason=T.OUT_NO_VOTE.format(r=r)))
    if r == 1:
        close_reports_window(state, cfg, ctx.now)
        for s in failing_reports(state, cfg):
            cur.marks.append(Death(seat=s, cause=Cause.REPORT, reason=T.OUT_REPORT))
    # §五白1/黑1: a 隐剑/孤杀 that posted the 魔镜 goes out with the result of its last round
    for c in state.countdowns:
        if c.until == r and state.players[c.seat].alive:
            cur.marks.append(Death(seat=c.seat, cause=Cause.COUNTDOWN, reason=T.OUT_COUNTDOWN.format(r=r)))
    for d in state.doomed:  # §五白6: a revived player who wrote no thank-you letter
        if d.round == r and state.players[d.seat].alive:
            cur.marks.append(Death(seat=d.seat, cause=Cause.THANKS, reason=d.reason))
    decided = decide(state, r)
    cur.cands = [Candidate(seat=c.seat, full=c.full, half=c.half, last=c.last) for c in decided.cands]
    if decided.tied:
        start_overtime(state, decided, ctx, effects)
        return
    begin_result(state, decided.out, ctx, effects)


def finish_overtime(state: State, ctx: Ctx[Settings], effects: list[Effect]) -> None:
    out = resolve_overtime(state, ctx)
    state.step = Step.ROUND
    begin_result(state, out, ctx, effects)


def begin_result(state: State, voted_out: list[int], ctx: Ctx[Settings], effects: list[Effect]) -> None:
    """§五: a decision window first when someone chooses from their voter lines."""
    if not begin(state, state.round, voted_out, ctx, effects):
        finish_decisions(state, ctx, effects)


def finish_decisions(state: State, ctx: Ctx[Settings], effects: list[Effect]) -> None:
    r = state.round
    dec = rnd(state).decide
    assert dec is not None  # set by begin()
    takes, notes = settle(state, r, ctx)
    state.step = Step.ROUND
    rv = dec.revive
    revived = [rv.picked] if rv and rv.picked is not None else []
    result(state, dec.voted_out, ctx, effects, takes=takes, revived=revived, notes=notes)


def result(state: State, voted_out: list[int], ctx: Ctx[Settings], effects: list[Effect], takes: list[Take],
           revived: list[int], notes: list[str]) -> None:
    """The result post: marks are applied once each (nobody dies twice)."""
    cfg = ctx.settings
    r = state.round
    cur = rnd(state)
    votes = {c.seat: c for c in cur.cands}
    vote_lines: list[str] = []
    other: list[str] = []
    res, applied = run(state, r, RESULT_STEPS, ResultInput(voted_out, cur.marks, takes, revived), effects)
    taken = [m for m in applied if m.cause == Cause.TAKE]
    for m in applied:
        if m.cause == Cause.TAKE:
            continue
        if m.cause == Cause.VOTE:
            c = votes.get(m.seat)
            vote_lines.append(T.VOTED_OUT_LINE.format(seat=name(state, m.seat), full=c.full) if c else name(state, m.seat))
        else:
            other.append(T.OTHER_OUT_LINE.format(seat=name(state, m.seat), reason=m.reason))
    cur.marks = []
    posted = [name(state, o.seat) for o in cur.outs if o.cause == Cause.POST]
    survivors = len(alive(state))
    cur.result = Result(voted_out=voted_out, survivors=survivors, at=iso(ctx.now))
    lines = [T.RESULT_HEAD.format(r=r), T.RESULT_VOTED_OUT.format(vote_lines=T.LIST_SEP.join(vote_lines) or T.NONE), T.RESULT_POSTED.format(posted=T.LIST_SEP.join(posted) or T.NONE)]
    if other:
        lines.append(T.RESULT_OTHERS + T.SEMI_SEP.join(other))
    for rv in cur.reveals:
        lines.append(T.RESULT_REVEAL.format(seat=name(state, rv.seat), seat_name=role_name(state, cfg, rv.seat), why=rv.why))
    lines += notes  # who took whom along (§五白3、黑3、黑5)
    if taken and not notes:
        lines.append(T.RESULT_TAKEN + T.LIST_SEP.join(name(state, m.seat) for m in taken))
    lines += after_result(state, r, ctx, effects)
    lines += res.notes
    over = sides_left(state, cfg) < 2
    lines.append(T.RESULT_LEFT.format(survivors=survivors) + (T.RESULT_OVER if over else T.RESULT_ROLES_NEXT))
    effects.append(Say("group", "\n".join(lines)))
    cur.result.steps = [ResultStep(seat=m.seat, out=True, reason=m.reason) for m in applied]
    cur.result.steps += [ResultStep(seat=s, out=False, reason=T.REVIVED_STEP) for s in revived]
    effects.append(Say("hosts", result_steps_text(state, cfg, r)))
    if not check_end(state, cfg, effects):
        schedule_round(state, cfg, r + 1, ctx.now, effects)
