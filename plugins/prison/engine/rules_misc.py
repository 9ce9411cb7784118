"""Generic abilities and the host's settlement, submissions (（二）4、6), 树洞, post counts, the
room mapping for hosts, and the kernel's out/back commands."""

from __future__ import annotations

import re

from plugins.gamekit.args import NoArgs, SeatReason
from plugins.gamekit.contract import Actor, Ctx, Effect, Eliminate, Ignored, Rejected, Restore, Say

from . import common as c
from . import model as m
from . import rules_end
from . import texts as T
from .args import AbilityArgs, SettleArgs, TextArgs
from .content import Settings
from .model import Note, Phase, State, Status, Submission

MAP_TOKEN = re.compile(T.MAP_PAIR_RE)
PHASES_FOR = {
    "day": (Phase.DAY,),
    "night": (Phase.ROOMS, Phase.NIGHT),
    "any": (Phase.DAY, Phase.VERDICT, Phase.ROOMS, Phase.NIGHT),
}


def use_ability(state: State, actor: Actor, args: AbilityArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/技能 <名> [内容]: a generic ability of the identity file, settled by a host."""
    me = c.me(state, actor)
    name = args.ability
    ab = m.ability(ctx.settings, state, me, "generic", name)
    if ab is None:
        other = next((a for a in m.role_of(ctx.settings, state, me).abilities if a.label == name and a.kind in T.COMMAND_OF), None)
        if other is not None:
            raise Rejected(T.USE_COMMAND.format(name=name, usage=T.COMMAND_OF[other.kind]))
        mine = [a.label for a in m.role_of(ctx.settings, state, me).abilities if a.kind == "generic"]
        raise Rejected(T.NO_SUCH_ABILITY.format(name=name)
                       + (T.YOUR_ABILITIES.format(names=T.SEP.join(mine)) if mine else ""))
    if state.phase not in PHASES_FOR[ab.timing]:
        raise Rejected(T.ABILITY_ONLY_WHEN.format(name=name, when=T.ABILITY_WHEN[ab.timing]))
    c.need_uses(state, me, ab, T.QUOTED.format(name=name))
    c.spend(state, me, ab)
    entry = c.log_use(state, ctx, me, name, args.text, None)
    return [
        Say("hosts", T.ABILITY_TO_HOSTS.format(id=entry.id, who=m.name(state, me), role=m.role_of(ctx.settings, state, me).name,
                                               name=name, text=args.text or T.NO_CONTENT)),
        Say("reply", T.ABILITY_SENT.format(name=name, id=entry.id)),
    ]


def settle(state: State, actor: Actor, args: SettleArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/结算 <编号> <结果> (hosts): the result goes to the player privately."""
    use_id = args.id
    if not 1 <= use_id <= len(state.log):
        raise Rejected(T.NO_SUCH_USE)
    entry = state.log[use_id - 1]
    if entry.result is not None:
        raise Rejected(T.ALREADY_SETTLED.format(id=use_id, result=entry.result))
    result = args.text.strip()
    if not result:
        raise Rejected(T.SETTLE_WHAT)
    entry.result = result
    entry.settled_seq = ctx.seq
    return [
        Say(entry.seat, T.SETTLED_TO_PLAYER.format(ability=entry.ability, id=use_id, result=result)),
        Say("reply", T.SETTLED.format(id=use_id)),
    ]


def show_map(state: State, actor: Actor, args: NoArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/房间对应 (hosts): the secret room mapping."""
    return [Say("reply", T.SECRET_MAP.format(pairs=" ".join(f"{g}-{p}" for g, p in state.mapping.items())))]


def _limit(state: State, cfg: Settings, subs: list[Submission], seat: int) -> None:
    """``max_submissions`` per kind and player; 0 (default) = no limit (the seed sets none)."""
    n = sum(1 for s in subs if s.seat == seat)
    cap = cfg.max_submissions
    if cap and n >= cap:
        raise Rejected(T.SUBMIT_LIMIT.format(n=n))


def submit_map(state: State, actor: Actor, args: TextArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """（二）4: /提交对应 a-E b-C …, timestamped by arrival number."""
    me = c.member(state, actor)
    if state.phase is Phase.OVER:
        raise Rejected(T.SUBMIT_OVER)
    lower = list(state.mapping)
    upper = sorted(state.mapping.values())
    pairs: dict[str, str] = {}
    for g, p in MAP_TOKEN.findall(args.text):
        g, p = g.lower(), p.upper()
        if g not in lower or p not in upper:
            raise Rejected(T.NO_SUCH_ROOM_PAIR.format(g=g, p=p, lower="".join(lower), upper="".join(upper)))
        if g in pairs or p in pairs.values():
            raise Rejected(T.ROOM_TWICE.format(g=g, p=p))
        pairs[g] = p
    if len(pairs) != len(lower):
        raise Rejected(T.MAP_INCOMPLETE.format(n=len(lower), example=" ".join(f"{g}-{p}" for g, p in zip(lower, upper))))
    _limit(state, ctx.settings, state.subs.map, me)
    state.subs.map.append(Submission(seq=ctx.seq, at=ctx.now.isoformat(), seat=me, pairs=dict(sorted(pairs.items()))))
    shown = " ".join(f"{g}-{p}" for g, p in sorted(pairs.items()))
    return [
        Say("hosts", T.MAP_TO_HOSTS.format(who=m.name(state, me), seq=ctx.seq, pairs=shown)),
        Say("reply", T.MAP_RECEIVED.format(seq=ctx.seq)),
    ]


def submit_alias(state: State, actor: Actor, args: TextArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """（二）6: /提交马甲 马甲=玩家 …, one entry per line or separated by spaces."""
    me = c.member(state, actor)
    if state.phase is Phase.OVER:
        raise Rejected(T.SUBMIT_OVER)
    aliases = [state.players[s].alias for s in state.order]
    pairs: dict[str, str] = {}
    for token in re.split(T.LIST_SPLIT_RE, args.text):
        if not token:
            continue
        parts = re.split(T.ALIAS_EQ_RE, token, maxsplit=1)
        if len(parts) != 2 or not parts[0] or not parts[1]:
            raise Rejected(T.ALIAS_FORMAT.format(token=token))
        if parts[0] not in aliases:
            raise Rejected(T.NO_SUCH_ALIAS.format(alias=parts[0]))
        pairs[parts[0]] = parts[1]
    if not pairs:
        raise Rejected(T.ALIAS_EXAMPLE)
    _limit(state, ctx.settings, state.subs.alias, me)
    state.subs.alias.append(Submission(seq=ctx.seq, at=ctx.now.isoformat(), seat=me, pairs=pairs))
    return [
        Say("hosts", T.ALIAS_TO_HOSTS.format(who=m.name(state, me), seq=ctx.seq, n=len(pairs))),
        Say("reply", T.ALIAS_RECEIVED.format(n=len(pairs), seq=ctx.seq)),
    ]


def note(state: State, actor: Actor, args: TextArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/树洞: an anonymous note, made public at the end (no seat is kept)."""
    c.member(state, actor)
    if state.phase is Phase.OVER:
        raise Rejected(T.NOTES_OPEN)
    body = args.text.strip()
    if not body:
        raise Rejected(T.NOTE_EMPTY)
    state.notes.append(Note(seq=ctx.seq, text=body))
    return [Say("reply", T.NOTE_KEPT)]


def post(state: State, actor: Actor) -> list[Effect]:
    """A group message from a player during a discussion day (（三）4 counts)."""
    seat = actor.seat
    if state.phase not in (Phase.DAY, Phase.VERDICT) or seat is None or seat not in state.players:
        raise Ignored()
    p = state.players[seat]
    if p.status is not Status.ALIVE:
        raise Ignored()
    p.posts[state.day] = p.posts.get(state.day, 0) + 1
    return []


def kernel_out(state: State, actor: Actor, args: SeatReason, ctx: Ctx[Settings]) -> list[Effect]:
    """A host's /出局 or a red card: the player leaves the prison (（三） is checked)."""
    seat = c.target(state, args.seat)
    p = state.players[seat]
    if p.status is not Status.ALIVE:
        raise Rejected(T.NOT_IN_PRISON.format(name=m.name(state, seat)))
    p.status, p.out_day, p.reason = Status.OUT, state.day, args.reason or T.REASON_OUT
    fx: list[Effect] = [Eliminate(seat, p.reason)]
    if state.phase is not Phase.OVER:
        end = rules_end.check(state, ctx)
        if end is not None:
            fx += end
    return fx


def kernel_back(state: State, actor: Actor, args: SeatReason, ctx: Ctx[Settings]) -> list[Effect]:
    """A host's /回场: back in prison (not after a release)."""
    seat = c.target(state, args.seat)
    p = state.players[seat]
    if p.status is Status.ALIVE:
        raise Rejected(T.ALREADY_IN.format(name=m.name(state, seat)))
    if p.status is Status.RELEASED:
        raise Rejected(T.RELEASED_NO_BACK.format(name=m.name(state, seat)))
    p.status, p.out_day, p.reason = Status.ALIVE, None, ""
    return [Restore(seat, args.reason or T.REASON_BACK)]
