"""Commands in the decision window (§五, §七): /带人, /照出, /指定追魂 and /复活. When every
choice is in, the result goes out at once."""

from __future__ import annotations

from datetime import timedelta

import plugins.mafia88.engine.texts as T
from plugins.gamekit.contract import Actor, Ctx, Effect, Rejected, Say

from .args import Target, Targets
from .content import Settings
from .model import dt, hhmm, iso, name, rnd
from .rules_decide import KIND_WORD, choice_of, window
from .rules_round import finish_decisions
from .state import ChoiceKind, State

KINDS = {ChoiceKind.TAKE: (ChoiceKind.TAKE,), ChoiceKind.REVEAL: (ChoiceKind.REVEAL,),
         ChoiceKind.SOUL: (ChoiceKind.SOUL, ChoiceKind.FIRST_SOUL)}
RIGHT = {ChoiceKind.TAKE: T.RIGHT_TAKE, ChoiceKind.REVEAL: T.RIGHT_REVEAL, ChoiceKind.SOUL: T.RIGHT_SOUL}


def take(state: State, actor: Actor, args: Targets, ctx: Ctx[Settings]) -> list[Effect]:
    """/带人: voters taken along from one's own voter lines (联合蛋, 独立杀, 地雷; §五)."""
    return choose(state, actor, ChoiceKind.TAKE, args.targets, ctx)


def reveal(state: State, actor: Actor, args: Targets, ctx: Ctx[Settings]) -> list[Effect]:
    """/照出: the 魔镜 reveals one of its voters (§五黑6)."""
    return choose(state, actor, ChoiceKind.REVEAL, args.targets, ctx)


def name_soul(state: State, actor: Actor, args: Targets, ctx: Ctx[Settings]) -> list[Effect]:
    """/指定追魂: the 地雷 or round 1's top-voted names the writer of a 追魂 (§五黑5, §七.1)."""
    return choose(state, actor, ChoiceKind.SOUL, args.targets, ctx)


def choose(state: State, actor: Actor, kind: ChoiceKind, targets: list[int], ctx: Ctx[Settings]) -> list[Effect]:
    seat = actor.seat
    assert seat is not None  # who="player"
    dec = window(state)
    c = choice_of(dec, seat, KINDS[kind])
    if c is None:
        raise Rejected(T.NO_RIGHT.format(what=RIGHT[kind]))
    if c.picked is not None:
        raise Rejected(T.ALREADY_CHOSEN.format(items=T.LIST_SEP.join(name(state, s) for s in c.picked)))
    picks = list(dict.fromkeys(targets))
    if seat in picks:
        raise Rejected(T.NOT_SELF)
    if c.kind == ChoiceKind.SOUL:
        if len(picks) != 1:
            raise Rejected(T.ONE_SOUL_ONLY)
        if not state.players[picks[0]].alive:
            raise Rejected(T.SOUL_PICK_OUT.format(pick=name(state, picks[0])))
    else:
        bad = [s for s in picks if s not in c.options]
        if bad:
            raise Rejected(T.NOT_ON_LINES.format(picks=T.LIST_SEP.join(name(state, s) for s in bad), clause=c.clause, lines=T.LIST_SEP.join(name(state, s) for s in c.options)))
        if len(picks) != c.need:
            raise Rejected(T.PICK_EXACTLY.format(need=c.need, clause=c.clause))
    c.picked = picks
    effects: list[Effect] = [
        Say("reply", T.CHOICE_RECORDED.format(kind_word=KIND_WORD[c.kind], items=T.LIST_SEP.join(name(state, s) for s in picks), round=state.round)),
        Say("hosts", T.CHOICE_HOSTS.format(seat=name(state, seat), kind_word=KIND_WORD[c.kind], items=T.LIST_SEP.join(name(state, s) for s in picks))),
    ]
    maybe_finish(state, ctx, effects)
    return effects


def revive(state: State, actor: Actor, args: Target, ctx: Ctx[Settings]) -> list[Effect]:
    """/复活 <玩家> (§五白6)."""
    cfg = ctx.settings
    target = args.target
    seat = actor.seat
    assert seat is not None  # who="player"
    rv = cfg.effects.revive
    me = state.players[seat]
    if me.role != rv.role:
        raise Rejected(T.REVIVE_NO_RIGHT)
    r = state.round
    if r not in rv.rounds:
        raise Rejected(T.REVIVE_WRONG_ROUND.format(rounds=T.LIST_SEP.join(str(x) for x in rv.rounds), r=r))
    if not me.alive:
        raise Rejected(T.REVIVE_HOLDER_OUT)
    dec = window(state)
    info = dec.revive
    if not info or info.holder != seat:
        raise Rejected(T.REVIVE_NOBODY)
    assert dec.ends is not None  # the window is open
    ends = ctx.phase.ends_at if ctx.phase is not None else dt(dec.ends)  # follows /延时
    cutoff = iso(ends - timedelta(minutes=rv.cutoff_minutes))
    if ctx.now >= dt(cutoff):
        raise Rejected(T.REVIVE_TOO_LATE.format(cutoff_minutes=rv.cutoff_minutes, cutoff=hhmm(state, cutoff)))
    if info.picked is not None:
        raise Rejected(T.REVIVE_ALREADY.format(picked=name(state, info.picked)))
    if target == seat:
        raise Rejected(T.REVIVE_SELF)
    if target not in dec.voted_out:
        raise Rejected(T.REVIVE_NOT_HIGH.format(target=name(state, target)))
    info.picked = target
    effects: list[Effect] = [Say("reply", T.REVIVE_RECORDED.format(target=name(state, target), r=r)),
                             Say("hosts", T.REVIVE_HOSTS.format(seat=name(state, seat), target=name(state, target)))]
    maybe_finish(state, ctx, effects)
    return effects


def maybe_finish(state: State, ctx: Ctx[Settings], effects: list[Effect]) -> None:
    """Publish early when every choice is in (optional ones included)."""
    dec = rnd(state).decide
    assert dec is not None
    if any(c.picked is None for c in dec.choices):
        return
    if dec.revive and dec.revive.picked is None:
        return
    if not dec.choices and not dec.revive:
        return  # nobody to wait for, but the window runs its time (see begin)
    finish_decisions(state, ctx, effects)
