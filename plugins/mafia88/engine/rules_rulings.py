"""Host rulings after the fact: /改判 on a vote result's steps (§十四.6)."""

from __future__ import annotations

import plugins.mafia88.engine.texts as T
from plugins.gamekit.contract import Actor, Ctx, Effect, Rejected, Say

from .args import OverrideArgs
from .content import Settings
from .ending import check_end
from .model import bring_back, iso, mark_out, name
from .resolution import result_steps_text
from .rules_posts import override_post
from .state import Cause, Note, State

RESULT_STEP_MARKS = T.RESULT_STEP_MARKS


def override(state: State, actor: Actor, args: OverrideArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/改判 <步骤> <结果> <理由>: a post step before publication, or 结果<n>: a step of the latest vote result."""
    step = str(args.step).strip()
    for mark in RESULT_STEP_MARKS:
        if step.startswith(mark):
            return override_result(state, actor, step[len(mark):], args, ctx)
    return override_post(state, actor, args, ctx)


def latest_result(state: State) -> int:
    done = [r for r, rd in state.rounds.items() if rd.result is not None]
    if not done:
        raise Rejected(T.OVERRIDE_NO_RESULT)
    return max(done)


def override_result(state: State, actor: Actor, number: str, args: OverrideArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/改判 结果<n> <出局|无人出局> <理由>: the latest vote result's step n, ruled again (§十四.6: published)."""
    cfg = ctx.settings
    r = latest_result(state)
    res = state.rounds[r].result
    assert res is not None
    if not number.strip().isdigit():
        raise Rejected(T.NOT_A_STEP.format(value=args.step))
    n = int(number)
    if not 1 <= n <= len(res.steps):
        raise Rejected(T.RESULT_OVERRIDE_NO_STEP.format(step=n, r=r, n_steps=len(res.steps)))
    word = args.result.strip()
    if word not in T.RESULT_OVERRIDE_WORDS:
        raise Rejected(T.RESULT_OVERRIDE_BAD_WORD.format(word=word, words=T.LIST_SEP.join(T.RESULT_OVERRIDE_WORDS)))
    why = args.reason.strip()
    if not why:
        raise Rejected(T.OVERRIDE_NO_REASON)
    st = res.steps[n - 1]
    seat = st.seat
    effects: list[Effect] = []
    if word == T.RESULT_OVERRIDE_SPARE:
        if state.players[seat].alive:
            raise Rejected(T.RESULT_OVERRIDE_ALIVE.format(seat=name(state, seat)))
        bring_back(state, seat, T.BACK_BY_OVERRIDE.format(r=r, why=why), effects)
        notice = T.RESULT_OVERRIDE_BACK.format(r=r, seat=name(state, seat), why=why)
    else:
        if not state.players[seat].alive:
            raise Rejected(T.ALREADY_OUT.format(seat=name(state, seat)))
        mark_out(state, seat, Cause.HOST, T.OUT_BY_OVERRIDE.format(r=r, why=why), effects)
        notice = T.RESULT_OVERRIDE_OUT.format(r=r, seat=name(state, seat), why=why)
    st.override = word
    state.audit.append(Note(seq=ctx.seq, at=iso(ctx.now), by=actor.user_id,
                            what=T.RESULT_OVERRIDE_AUDIT.format(r=r, step=n, seat=seat, word=word, why=why)))
    effects += [Say("group", notice), Say("reply", T.RESULT_OVERRIDE_DONE.format(r=r, step=n, word=word)),
                Say("hosts", result_steps_text(state, cfg, r))]
    check_end(state, cfg, effects)
    return effects
