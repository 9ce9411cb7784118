"""Dealing, the secret room mapping, love/hate (【身份与胜利条件】（二）1)."""

from __future__ import annotations

from typing import Any

import msgspec

from plugins.gamekit.contract import Actor, Ctx, Effect, Rejected, Say, Seat

from . import common as c
from . import model as m
from . import texts as T
from .args import SeatArgs
from .content import Settings, Signup
from .identity import identity
from .model import Kind, Phase, Player, SignupInfo, State


def deal(roster: list[Seat], cfg: Settings, signup: dict[int, SignupInfo], ctx: Ctx[Settings],
         ) -> tuple[dict[int, tuple[Kind, str]], dict[int, int], int]:
    """seat -> (camp, role id), the random numbers used, and the draw key. ``signup``: the
    players' sign-up fields (:func:`signup_table`).

    Guard/prisoner follows the players' random numbers (【游戏流程】<3、竞拍马甲>): a key K in
    1..999 is drawn with ctx.rng; players are ordered by (number - K) mod 999, then seat; the
    first len(guards) become guards. Missing numbers are drawn with ctx.rng. Roles are then
    shuffled within each camp. A host's explicit ``deal`` table overrides all of this.
    """
    guards = [r.id for r in cfg.guards]
    prisoners = [r.id for r in cfg.prisoners]
    seat_list = sorted(s.seat for s in roster)
    numbers: dict[int, int] = {}
    for s in seat_list:
        info = signup.get(s)
        num = info.number if info is not None else None
        numbers[s] = num if num is not None else ctx.rng.randint(1, 999)
    fixed = cfg.dealt
    if fixed:
        if sorted(fixed) != seat_list or sorted(fixed.values()) != sorted(guards + prisoners):
            raise Rejected(T.DEAL_INCOMPLETE)
        return {s: (Kind.GUARD if fixed[s] in guards else Kind.PRISONER, fixed[s]) for s in seat_list}, numbers, 0
    key = ctx.rng.randint(1, 999)
    order = sorted(seat_list, key=lambda s: ((numbers[s] - key) % 999, s))
    ctx.rng.shuffle(guards)
    ctx.rng.shuffle(prisoners)
    out: dict[int, tuple[Kind, str]] = {}
    for s, rid in zip(order[: len(guards)], guards):
        out[s] = (Kind.GUARD, rid)
    for s, rid in zip(order[len(guards):], prisoners):
        out[s] = (Kind.PRISONER, rid)
    return out, numbers, key


def signup_table(roster: list[Seat], host: dict[int, Signup]) -> dict[int, SignupInfo]:
    """Players' own sign-up fields (the kernel's /资料) under the fields a host's ``signup`` table
    gives for them."""
    out: dict[int, SignupInfo] = {}
    for s in roster:
        given = host.get(s.seat)
        if not s.profile and given is None:
            continue
        fields: dict[str, Any] = {**s.profile, **(given.model_dump(exclude_none=True) if given is not None else {})}
        out[s.seat] = msgspec.convert(fields, SignupInfo)
    return out


def start(roster: list[Seat], ctx: Ctx[Settings]) -> tuple[State, list[Effect]]:
    """/开始 without a character list: the deal, then the game proper."""
    signup = signup_table(roster, ctx.settings.signed_up)
    dealt, numbers, key = deal(roster, ctx.settings, signup, ctx)
    return begin(roster, signup, ctx, dealt, numbers, key)


def begin(roster: list[Seat], signup: dict[int, SignupInfo], ctx: Ctx[Settings], dealt: dict[int, tuple[Kind, str]],
          numbers: dict[int, int], key: int, before: dict[int, str] | None = None) -> tuple[State, list[Effect]]:
    """The game proper: identities dealt, the secret room mapping drawn, love/hate opens.
    ``signup``: the players' sign-up fields, kept in the state (the export and （二）6 read them).
    ``before``: text put at the head of a player's identity message (the auction result)."""
    cfg = ctx.settings
    n_rooms = max(len(cfg.guards), len(cfg.prisoners))
    lower, upper = m.room_letters(n_rooms)
    perm = list(upper)
    ctx.rng.shuffle(perm)
    state = State(phase=Phase.PREP, mapping=dict(zip(lower, perm)), draw_key=key, signup=signup)
    for s in sorted(roster, key=lambda x: x.seat):
        kind, rid = dealt[s.seat]
        state.order.append(s.seat)
        state.players[s.seat] = Player(seat=s.seat, alias=s.alias, user_id=s.user_id, kind=kind, role=rid,
                                       number=numbers[s.seat])
    fx: list[Effect] = []
    ends = c.enter(state, Phase.PREP, ctx, fx)
    fx.append(Say("group", T.BEGIN_POST.format(
        head=T.BEGIN_AFTER_AUCTION if before else T.BEGIN, guards=m.names(state, m.living(state, Kind.GUARD)),
        prisoners=m.names(state, m.living(state, Kind.PRISONER)),
        until=T.BEGIN_UNTIL_HOST if ends is None else T.BEGIN_UNTIL.format(time=c.hhmm(ends, ctx)),
    )))
    for seat in state.order:
        head = (before or {}).get(seat, "")
        fx.append(Say(seat, head + identity(cfg, state, seat) + T.IDENTITY_TAIL))
    pairs = " ".join(f"{g}-{p}" for g, p in state.mapping.items())
    fx.append(Say("hosts", T.SECRET_MAP.format(pairs=pairs)))
    return state, fx


def _choose(state: State, actor: Actor, seat: int, love: bool) -> list[Effect]:
    """/爱 or /恨 — （二）1: one player, not oneself, before play starts."""
    me = c.me(state, actor)
    if state.phase is not Phase.PREP:
        raise Rejected(T.LOVE_TOO_LATE)
    who = c.target(state, seat)
    if who == me:
        raise Rejected(T.NOT_SELF)
    p = state.players[me]
    p.love = who if love else None
    p.hate = None if love else who
    verb = T.LOVE_VERB["love" if love else "hate"]
    return [Say("reply", T.LOVE_RECORDED.format(verb=verb, name=m.name(state, who)))]


def love(state: State, actor: Actor, args: SeatArgs, ctx: Ctx[Settings]) -> list[Effect]:
    return _choose(state, actor, args.seat, True)


def hate(state: State, actor: Actor, args: SeatArgs, ctx: Ctx[Settings]) -> list[Effect]:
    return _choose(state, actor, args.seat, False)


def prep_over(state: State, ctx: Ctx[Settings]) -> list[Effect]:
    fx: list[Effect] = []
    silent = [s for s in state.order if state.players[s].love is None and state.players[s].hate is None]
    if silent:
        fx.append(Say("hosts", T.SILENT_LOVE.format(names=m.names(state, silent))))
    state.day = 1
    ends = c.enter(state, Phase.DAY, ctx, fx)
    fx.append(Say("group", T.DAY1_OPEN.format(time=c.hhmm(ends, ctx)) + _posts_hint(ctx.settings)))
    return fx


def _posts_hint(cfg: Settings) -> str:
    n = cfg.min_posts
    return T.POSTS_HINT.format(n=n) if n else ""
