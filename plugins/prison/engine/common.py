"""Shared mutations and timing helpers (each acts on the state the rule was given)."""

from __future__ import annotations

from datetime import datetime, timedelta

from plugins.gamekit.clock import fmt_local, next_at
from plugins.gamekit.contract import Actor, Ctx, Effect, Eliminate, GiveCard, Rejected, SetPhase

from . import model as m
from . import texts as T
from .content import Ability, Settings
from .model import CardNote, Phase, State, Status, Use

Fx = list[Effect]
PCtx = Ctx[Settings]


def hhmm(at: datetime | None, ctx: PCtx) -> str:
    return fmt_local(at, ctx.tz) if at is not None else T.BY_HOST


def phase_end(key: Phase, ctx: PCtx) -> datetime | None:
    cfg = ctx.settings
    if key in (Phase.PREP, Phase.AUCTION):
        minutes = cfg.prep_minutes if key is Phase.PREP else cfg.auction.minutes
        return ctx.now + timedelta(minutes=minutes) if minutes else None
    if key is Phase.VERDICT:
        return ctx.now + timedelta(minutes=cfg.verdict_minutes)
    at = cfg.day_end if key is Phase.DAY else cfg.rooms_end if key is Phase.ROOMS else cfg.night_end
    return next_at(ctx.now, at, ctx.tz)


def enter(state: State, key: Phase, ctx: PCtx, fx: Fx) -> datetime | None:
    ends = phase_end(key, ctx)
    state.phase = key
    label = T.day_label(key, state.day) if key not in (Phase.PREP, Phase.AUCTION) else T.PHASE_LABELS[key]
    fx.append(SetPhase(key.value, label, ends))
    return ends


def log_use(state: State, ctx: PCtx, seat: int, ability: str, target: str, result: str | None) -> Use:
    entry = Use(id=len(state.log) + 1, seq=ctx.seq, at=ctx.now.isoformat(), day=state.day, phase=state.phase,
                seat=seat, ability=ability, target=target, result=result)
    state.log.append(entry)
    return entry


def spend(state: State, seat: int, ab: Ability) -> None:
    p = state.players[seat]
    p.uses[ab.key] = p.uses.get(ab.key, 0) + 1
    p.used_phase[ab.key] = m.phase_tag(state)


def need_uses(state: State, seat: int, ab: Ability, label: str) -> None:
    left = m.uses_left(state, seat, ab)
    if left is not None and left <= 0:
        raise Rejected(T.USED_UP.format(label=label))


def kill(state: State, cfg: Settings, seat: int, reason: str, fx: Fx, dead: list[int] | None = None) -> None:
    """A death, with the lovers' linked fate (情侣)."""
    p = state.players[seat]
    if p.status is not Status.ALIVE:
        return
    p.status = Status.DEAD
    p.out_day = state.day
    p.reason = reason
    fx.append(Eliminate(seat, reason))
    if dead is not None:
        dead.append(seat)
    other = m.lover_of(cfg, state, seat)
    if other is not None and state.players[other].status is Status.ALIVE:
        kill(state, cfg, other, T.DIED_FOR_LOVE.format(name=m.name(state, seat)), fx, dead)


def release(state: State, seat: int, fx: Fx) -> None:
    p = state.players[seat]
    if p.status is not Status.ALIVE:
        return
    p.status = Status.RELEASED
    p.out_day = state.day
    p.reason = T.REASON_RELEASED
    fx.append(Eliminate(seat, T.OUT_RELEASED))


def member(state: State, actor: Actor) -> int:
    """The acting player's seat, in the prison or out (for 树洞 and submissions)."""
    if actor.seat is None or actor.seat not in state.players:
        raise Rejected(T.NOT_PLAYER)
    return actor.seat


def me(state: State, actor: Actor) -> int:
    """The acting player's seat; refuses players who left the prison."""
    seat = member(state, actor)
    status = state.players[seat].status
    if status is Status.DEAD or status is Status.OUT:
        raise Rejected(T.YOU_ARE_OUT)
    if status is Status.RELEASED:
        raise Rejected(T.YOU_ARE_RELEASED)
    return seat


def target(state: State, seat: int | None) -> int:
    if seat is None or seat not in state.players:
        raise Rejected(T.NO_SUCH_PLAYER)
    return seat


def card(state: State, cfg: Settings, fx: Fx, seat: int, reason: str, public: str | None = None) -> None:
    """【规则判罚】（三）潜水: an automatic yellow card. ``public`` is what the
    group sees when the full reason would reveal a role or ability."""
    if cfg.auto_cards:
        fx.append(GiveCard(seat, "yellow", reason, public))
        state.cards.append(CardNote(day=state.day, seat=seat, reason=reason))


def compulsory_check(state: State, cfg: Settings, fx: Fx, when: str) -> None:
    """（三）3: compulsory abilities of ``when`` not used in this phase -> yellow card."""
    d = state.day
    ok = [f"day:{d}"] if when == "day" else [f"rooms:{d}", f"night:{d}"]
    for s in m.living(state):
        for ab in m.role_of(cfg, state, s).abilities:
            if not ab.compulsory or ab.timing != when:
                continue
            left = m.uses_left(state, s, ab)
            if left is not None and left <= 0:
                continue
            if state.players[s].used_phase.get(ab.key, "") not in ok:
                card(state, cfg, fx, s, T.CARD_COMPULSORY.format(day=d, label=ab.label),
                     T.CARD_COMPULSORY_PUBLIC.format(day=d))
