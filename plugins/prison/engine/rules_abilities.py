"""Designed abilities (RULES.md "Designed abilities"): 查验, 保护, 封锁, 窃听, 换房, 传话, 投票加权.
Each is used by its own command and resolved by the bot at its time: a day use at once (a vote
weight at the day's tally), a night use when the window opens (换房) or closes (the rest), in the
order RULES.md gives. The director's data says uses, timing, targets and who learns what."""

from __future__ import annotations

from dataclasses import dataclass, field

from plugins.gamekit.args import NoArgs
from plugins.gamekit.contract import Actor, Ctx, Effect, Rejected, Say

from . import common as c
from . import model as m
from . import texts as T
from .args import MessageArgs, RoomArgs, SeatArgs, SwapArgs
from .content import Ability, Settings
from .model import Act, Kind, Night, Pair, Phase, State

NIGHT = (Phase.ROOMS, Phase.NIGHT)
DAY = (Phase.DAY, Phase.VERDICT)
MESSAGE_MAX = 200  # characters of one 传话


# ---- using an ability ------------------------------------------------------------------


def _mine(state: State, actor: Actor, kind: str, ctx: Ctx[Settings]) -> tuple[int, Ability]:
    me = c.me(state, actor)
    ab = m.ability(ctx.settings, state, me, kind)
    if ab is None:
        raise Rejected(T.NO_KIND.format(name=T.KIND_NAME[kind]))
    return me, ab


def _now(state: State, ab: Ability) -> str:
    """"day" or "night": when this use happens; refused outside the ability's timing."""
    if ab.kind == "swap":
        if state.phase is not Phase.ROOMS:
            raise Rejected(T.SWAP_WHEN.format(name=ab.label))
        return "night"
    timing = ab.timing
    if state.phase in NIGHT and timing in ("night", "any"):
        return "night"
    if state.phase in DAY and timing in ("day", "any"):
        return "day"
    raise Rejected(T.ABILITY_ONLY_WHEN.format(name=ab.label, when=T.ABILITY_WHEN[timing]))


def _target(state: State, me: int, ab: Ability, seat: int | None) -> int:
    who = c.target(state, seat)
    if who == me and not ab.may_self:
        raise Rejected(T.NOT_SELF_ABILITY.format(name=ab.label))
    if not m.in_prison(state, who):
        raise Rejected(T.TARGET_NOT_IN_PRISON)
    want = ab.targets
    if want != "any" and state.players[who].kind != want:
        raise Rejected(T.TARGET_KIND.format(name=ab.label, kind=T.KIND[want]))
    return who


def _used_today(state: State, me: int, ab: Ability) -> bool:
    return state.players[me].used_phase.get(ab.key, "") in (f"{Phase.DAY}:{state.day}", f"{Phase.VERDICT}:{state.day}")


def _queue(state: State, ctx: Ctx[Settings], me: int, ab: Ability, targets: list[int] | None = None,
           room: str = "", text: str = "") -> bool:
    """Keep tonight's use for its resolution (a new one of the same kind replaces it); True when it
    replaced one. The use is spent at the resolution; marking the phase now counts it as used
    for a compulsory ability."""
    old = [a for a in state.acts if a.seat == me and a.kind == ab.kind]
    state.acts = [a for a in state.acts if a not in old]
    state.acts.append(Act(seq=ctx.seq, at=ctx.now.isoformat(), day=state.day, phase=state.phase, seat=me,
                          kind=ab.kind, targets=list(targets or []), room=room, text=text))
    state.players[me].used_phase[ab.key] = m.phase_tag(state)
    return bool(old)


def _queued(ab: Ability, what: str, replaced: bool, when: str) -> list[Effect]:
    return [Say("reply", T.QUEUED.format(name=ab.label, what=what, when=when, again=T.REPLACED if replaced else ""))]


def camp_word(cfg: Settings, state: State, seat: int) -> str:
    if state.players[seat].kind is Kind.GUARD:
        return T.CAMP_RESULT["guard"]
    return T.CAMP_RESULT["murderer" if m.murderer_side(cfg, state, seat) else "prisoner"]


def _learned(cfg: Settings, state: State, who: int, ab: Ability) -> str:
    if ab.learns == "camp":
        return camp_word(cfg, state, who)
    r = m.role_of(cfg, state, who)
    crimes = T.PAREN.format(text=T.SEP.join(r.crimes)) if r.crimes else ""
    return T.ROLE_RESULT.format(kind=T.KIND[state.players[who].camp], role=r.name, crimes=crimes)


def check(state: State, actor: Actor, args: SeatArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/查验 <玩家>: learn the player's camp or identity (by day at once, by night at dawn)."""
    me, ab = _mine(state, actor, "check", ctx)
    when = _now(state, ab)
    c.need_uses(state, me, ab, T.QUOTED.format(name=ab.label))
    who = _target(state, me, ab, args.seat)
    if when == "night":
        return _queued(ab, m.name(state, who), _queue(state, ctx, me, ab, [who]), T.AT_DAWN)
    if _used_today(state, me, ab):
        raise Rejected(T.ONCE_A_DAY.format(name=ab.label))
    c.spend(state, me, ab)
    result = T.CHECK_RESULT.format(name=ab.label, target=m.name(state, who), result=_learned(ctx.settings, state, who, ab))
    c.log_use(state, ctx, me, ab.label, m.name(state, who), result)
    fx: list[Effect] = [Say("reply", result)]
    if ab.tells:
        fx.append(Say(who, T.CHECKED_YOU))
    return fx


def protect(state: State, actor: Actor, args: SeatArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/保护 <玩家>: the player cannot be killed tonight."""
    me, ab = _mine(state, actor, "protect", ctx)
    _now(state, ab)
    c.need_uses(state, me, ab, T.QUOTED.format(name=ab.label))
    who = _target(state, me, ab, args.seat)
    return _queued(ab, m.name(state, who), _queue(state, ctx, me, ab, [who]), T.AT_CLOSE)


def block(state: State, actor: Actor, args: SeatArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/封锁 <玩家>: the player's abilities fail tonight."""
    me, ab = _mine(state, actor, "block", ctx)
    _now(state, ab)
    c.need_uses(state, me, ab, T.QUOTED.format(name=ab.label))
    who = _target(state, me, ab, args.seat)
    return _queued(ab, m.name(state, who), _queue(state, ctx, me, ab, [who]), T.AT_ONCE_TONIGHT)


def eavesdrop(state: State, actor: Actor, args: RoomArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/窃听 <房间>: read that room's transcript of tonight at dawn."""
    me, ab = _mine(state, actor, "eavesdrop", ctx)
    _now(state, ab)
    c.need_uses(state, me, ab, T.QUOTED.format(name=ab.label))
    token = args.room.strip()
    guard_rooms, prisoner_rooms = list(state.mapping), sorted(state.mapping.values())
    room = token if token in guard_rooms or token in prisoner_rooms else ""
    if not room:
        raise Rejected(T.NO_ROOM_TO_HEAR.format(rooms=" ".join(guard_rooms + prisoner_rooms)))
    return _queued(ab, T.ROOM_NAME.format(room=room), _queue(state, ctx, me, ab, room=room), T.AT_DAWN)


def swap(state: State, actor: Actor, args: SwapArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/换房 <玩家> <玩家>: the two swap rooms when the window opens (both guards or both prisoners)."""
    me, ab = _mine(state, actor, "swap", ctx)
    _now(state, ab)
    c.need_uses(state, me, ab, T.QUOTED.format(name=ab.label))
    a, b = _target(state, me, ab, args.a), _target(state, me, ab, args.b)
    if a == b:
        raise Rejected(T.SWAP_TWO)
    if state.players[a].kind is not state.players[b].kind:
        raise Rejected(T.SWAP_SAME_CAMP)
    what = T.SWAP_WHAT.format(a=m.name(state, a), b=m.name(state, b))
    return _queued(ab, what, _queue(state, ctx, me, ab, [a, b]), T.AT_OPEN)


def message(state: State, actor: Actor, args: MessageArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/传话 <玩家> <内容>: the line reaches the player without a name (by day at once, by night
    when the window closes)."""
    me, ab = _mine(state, actor, "message", ctx)
    when = _now(state, ab)
    c.need_uses(state, me, ab, T.QUOTED.format(name=ab.label))
    who = _target(state, me, ab, args.seat)
    text = args.text.strip()
    if not text:
        raise Rejected(T.MESSAGE_EMPTY)
    if len(text) > MESSAGE_MAX:
        raise Rejected(T.MESSAGE_LONG.format(n=MESSAGE_MAX))
    if when == "night":
        return _queued(ab, m.name(state, who), _queue(state, ctx, me, ab, [who], text=text), T.AT_CLOSE)
    if _used_today(state, me, ab):
        raise Rejected(T.ONCE_A_DAY.format(name=ab.label))
    c.spend(state, me, ab)
    c.log_use(state, ctx, me, ab.label, m.name(state, who), text)
    return [Say(who, T.MESSAGE_IN.format(text=text)), Say("reply", T.MESSAGE_SENT.format(name=m.name(state, who)))]


def vote_weight(state: State, actor: Actor, args: NoArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/加权: today this player's verdict vote (a prisoner's: the uprising vote) counts ``weight``."""
    me, ab = _mine(state, actor, "vote_weight", ctx)
    if ab.passive:
        raise Rejected(T.WEIGHT_ALWAYS.format(name=ab.label, n=ab.votes))
    guard = state.players[me].kind is Kind.GUARD
    if state.phase is not Phase.DAY or state.day < 2 or (not guard and state.uprising is None):
        raise Rejected(T.WEIGHT_WHEN if guard else T.WEIGHT_UPRISING)
    if any(a.seat == me and a.kind == "vote_weight" and a.day == state.day for a in state.acts):
        raise Rejected(T.ONCE_A_DAY.format(name=ab.label))
    c.need_uses(state, me, ab, T.QUOTED.format(name=ab.label))
    c.spend(state, me, ab)
    _queue(state, ctx, me, ab)
    c.log_use(state, ctx, me, ab.label, "", T.WEIGHT_LOG.format(n=ab.votes))
    left = m.uses_left(state, me, ab)
    return [Say("reply", T.WEIGHT_SET.format(name=ab.label, n=ab.votes, vote=T.WEIGHT_VOTE[guard],
                                             left="" if left is None else T.USES_LEFT.format(n=left)))]


# ---- the day's tally ----------------------------------------------------------------------


def weights(state: State, cfg: Settings) -> dict[int, int]:
    """Today's vote weights by seat: passive ones and those activated today (/加权)."""
    out: dict[int, int] = {}
    for s in state.order:
        ab = m.ability(cfg, state, s, "vote_weight")
        if ab is None:
            continue
        if ab.passive or any(a.seat == s and a.kind == "vote_weight" and a.day == state.day for a in state.acts):
            out[s] = ab.votes
    return out


def end_of_day(state: State) -> None:
    state.acts = [a for a in state.acts if a.kind != "vote_weight"]


# ---- the night's resolution ---------------------------------------------------------------


@dataclass
class Resolution:
    """What tonight's resolution found, for the kill, the other uses and the hosts' summary."""

    present: list[int]  # in prison when the window closed (before the kill)
    used: bool  # any designed ability was used tonight (else the hosts get no summary)
    blocked: list[int]
    blocks: list[int]  # the arrival numbers of the blocks that took effect
    guarded: dict[int, list[int]] = field(default_factory=dict)  # protected seat -> its protectors
    saved: list[int] = field(default_factory=list)  # protected seats the murderer attacked
    summary: list[str] = field(default_factory=list)


def _acts(state: State, kind: str) -> list[Act]:
    return sorted((a for a in state.acts if a.kind == kind), key=lambda a: a.seq)


def blocks(state: State) -> tuple[list[int], list[int]]:
    """(seats blocked tonight, arrival numbers of the blocks that took effect): blocks in arrival
    order, a block whose user an earlier one blocked failing; a block of a player no longer in
    prison counts for nothing."""
    out: list[int] = []
    took: list[int] = []
    for act in _acts(state, "block"):
        if act.seat in out or not m.in_prison(state, act.seat):
            continue
        took.append(act.seq)
        if act.targets[0] not in out:
            out.append(act.targets[0])
    return out, took


def blocked(state: State) -> list[int]:
    return blocks(state)[0]


def _spent(state: State, cfg: Settings, act: Act) -> Ability | None:
    ab = m.ability(cfg, state, act.seat, act.kind)
    if ab is not None:
        c.spend(state, act.seat, ab)
    return ab


def swap_rooms(state: State, ctx: Ctx[Settings], rooms: dict[str, int], fx: list[Effect]) -> None:
    """The window opens: 换房 in arrival order, each on the rooms as the earlier ones left them;
    a blocked user's fails. ``rooms``: room -> seat, changed in place."""
    cfg = ctx.settings
    stopped = blocked(state)
    summary: list[str] = []
    for act in _acts(state, "swap"):
        if not m.in_prison(state, act.seat):
            continue
        ab = _spent(state, cfg, act)
        if ab is None:
            continue
        a, b = act.targets
        what = T.SWAP_WHAT.format(a=m.name(state, a), b=m.name(state, b))
        if act.seat in stopped:
            result = T.FAILED_BLOCKED
            fx.append(Say(act.seat, T.YOU_FAILED.format(name=ab.label, why=T.BLOCKED_WHY)))
        elif not (m.in_prison(state, a) and m.in_prison(state, b)):
            result = T.FAILED_GONE
            fx.append(Say(act.seat, T.YOU_FAILED.format(name=ab.label, why=T.GONE_WHY)))
        else:
            room_of = {s: r for r, s in rooms.items()}
            rooms[room_of[a]], rooms[room_of[b]] = b, a
            result = T.SWAP_DONE.format(ra=room_of[a], rb=room_of[b])
            fx.append(Say(act.seat, T.SWAP_OK.format(name=ab.label, what=what)))
            if ab.tells:
                fx += [Say(a, T.SWAPPED_YOU), Say(b, T.SWAPPED_YOU)]
        c.log_use(state, ctx, act.seat, ab.label, what, result)
        summary.append(T.SUM_LINE.format(kind=ab.label, who=m.name(state, act.seat), what=what, result=result))
    state.acts = [a for a in state.acts if a.kind != "swap"]
    if summary:
        fx.append(Say("hosts", T.SUMMARY_OPEN.format(day=state.day, lines="\n".join(summary))))


def start_close(state: State) -> Resolution:
    """The window closes, before the kill: who is blocked (封锁) and who protected (保护)."""
    out, took = blocks(state)
    used = any(a.kind != "vote_weight" for a in state.acts)
    res = Resolution(present=m.living(state), used=used, blocked=out, blocks=took)
    for act in _acts(state, "protect"):
        if act.seat not in res.present or act.seat in res.blocked:
            continue
        res.guarded.setdefault(act.targets[0], []).append(act.seat)
    return res


def kill_stopped(state: State, ctx: Ctx[Settings], res: Resolution, killer: int, victim: int, how: str,
                 fx: list[Effect]) -> bool:
    """The murderer's kill meets 封锁 or 保护: True when it fails (nobody dies)."""
    cfg = ctx.settings
    what = m.name(state, victim)
    if killer in res.blocked:
        fx.append(Say(killer, T.KILL_BLOCKED))
        c.log_use(state, ctx, killer, how, what, T.FAILED_BLOCKED)
        res.summary.append(T.SUM_LINE.format(kind=how, who=m.name(state, killer), what=what, result=T.FAILED_BLOCKED))
        return True
    guards = res.guarded.get(victim, [])
    if not guards:
        return False
    res.saved.append(victim)
    for s in guards:
        ab = m.ability(cfg, state, s, "protect")
        fx.append(Say(s, T.PROTECT_SAVED.format(name=ab.label if ab else T.KIND_NAME["protect"], target=what)))
    c.log_use(state, ctx, killer, how, what, T.FAILED_PROTECTED)
    res.summary.append(T.SUM_LINE.format(kind=how, who=m.name(state, killer), what=what, result=T.FAILED_PROTECTED))
    return True


def _transcript(night: Night | None, room: str) -> Pair | None:
    if night is None:
        return None
    return next((p for p in night.pairs if room in (p.g_room, p.p_room)), None)


def finish_close(state: State, ctx: Ctx[Settings], res: Resolution, fx: list[Effect]) -> None:
    """After the kill: every other use of tonight in arrival order (封锁, 保护, 查验, 窃听, 传话), each
    spending a use, each user told the result or why it failed; the hosts get the whole."""
    cfg = ctx.settings
    night = m.current_night(state)
    for act in sorted((a for a in state.acts if a.kind != "vote_weight"), key=lambda a: a.seq):
        if act.seat not in res.present:
            continue  # left the prison before the window closed (a host's /出局)
        ab = _spent(state, cfg, act)
        if ab is None:
            continue
        who = act.targets[0] if act.targets else None
        what = T.ROOM_NAME.format(room=act.room) if who is None else m.name(state, who)
        stopped = act.seq not in res.blocks if act.kind == "block" else act.seat in res.blocked
        if stopped:
            result = T.FAILED_BLOCKED
            fx.append(Say(act.seat, T.YOU_FAILED.format(name=ab.label, why=T.BLOCKED_WHY)))
        elif who is not None and who not in res.present:
            result = T.FAILED_GONE
            fx.append(Say(act.seat, T.YOU_FAILED.format(name=ab.label, why=T.GONE_WHY)))
        else:
            result = _resolve(state, cfg, act, ab, who, night, res.saved, fx)
        c.log_use(state, ctx, act.seat, ab.label, what, result)
        res.summary.append(T.SUM_LINE.format(kind=ab.label, who=m.name(state, act.seat), what=what, result=result))
    for use in state.log:
        if use.day == state.day and use.phase in NIGHT and use.result is None and use.seat in res.blocked:
            res.summary.append(T.SUM_GENERIC_BLOCKED.format(id=use.id, who=m.name(state, use.seat), name=use.ability))
    state.acts = [a for a in state.acts if a.kind == "vote_weight"]
    if res.summary:
        fx.append(Say("hosts", T.SUMMARY_CLOSE.format(day=state.day, lines="\n".join(res.summary))))


def _resolve(state: State, cfg: Settings, act: Act, ab: Ability, who: int | None, night: Night | None,
             saved: list[int], fx: list[Effect]) -> str:
    """One use that goes through: its effect and who learns what; returns the result for the log."""
    if act.kind == "check" and who is not None:
        learned = _learned(cfg, state, who, ab)
        fx.append(Say(act.seat, T.CHECK_RESULT.format(name=ab.label, target=m.name(state, who), result=learned)))
        if ab.tells:
            fx.append(Say(who, T.CHECKED_YOU))
        return learned
    if act.kind == "protect" and who is not None:
        stopped = who in saved
        if ab.tells:
            fx.append(Say(who, T.PROTECTED_SAVED if stopped else T.PROTECTED_YOU))
        return T.PROTECT_STOPPED if stopped else T.DONE
    if act.kind == "block" and who is not None:
        if ab.tells:
            fx.append(Say(who, T.BLOCKED_YOU))
        return T.DONE
    if act.kind == "message" and who is not None:
        fx.append(Say(who, T.MESSAGE_IN.format(text=act.text)))
        fx.append(Say(act.seat, T.MESSAGE_SENT.format(name=m.name(state, who))))
        return act.text
    if act.kind == "eavesdrop":
        pair = _transcript(night, act.room)
        room = T.ROOM_NAME.format(room=act.room)
        if pair is None:
            fx.append(Say(act.seat, T.HEARD_NOBODY.format(name=ab.label, room=room)))
            return T.NO_INTERROGATION
        lines = "\n".join(line.from_ + line.text for line in pair.lines) or T.HEARD_SILENCE
        fx.append(Say(act.seat, T.HEARD.format(name=ab.label, room=room, night=state.day, lines=lines)))
        if ab.tells:
            fx += [Say(pair.guard, T.HEARD_YOU), Say(pair.prisoner, T.HEARD_YOU)]
        return T.HEARD_LOG.format(n=len(pair.lines))
    return T.DONE


# ---- what a player has chosen tonight (/我的身份) --------------------------------------------


def pending_line(state: State, cfg: Settings, seat: int) -> str:
    mine = [a for a in sorted(state.acts, key=lambda a: a.seq) if a.seat == seat]
    parts: list[str] = []
    for act in mine:
        ab = m.ability(cfg, state, seat, act.kind)
        if ab is None:
            continue
        if act.kind == "eavesdrop":
            what = T.ROOM_NAME.format(room=act.room)
        elif act.kind == "swap":
            what = T.SWAP_WHAT.format(a=m.name(state, act.targets[0]), b=m.name(state, act.targets[1]))
        elif act.targets:
            what = m.name(state, act.targets[0])
        else:
            what = T.TODAY
        parts.append(T.PENDING_ITEM.format(name=ab.label, what=what))
    return T.PENDING.format(items=T.SEMI.join(parts)) if parts else ""
