"""Night: room choice, pairing by the secret mapping, the interrogation window (relay, room
groups, the web room), deaths."""

from __future__ import annotations

from plugins.gamekit.args import NoArgs, TextIn
from plugins.gamekit.contract import Actor, Ctx, Effect, GroupAdmin, Ignored, Rejected, Say

from . import common as c
from . import model as m
from . import rules_abilities as ra
from . import rules_end, rules_misc
from . import texts as T
from .args import RoomArgs, SeatArgs
from .content import Settings
from .model import Kill, Kind, Line, Night, Pair, Phase, State, Tonight


def is_room_label(label: str) -> bool:
    """A linked chat is a room group when its label is the group's QQ number (all digits):
    the engine never sees QQ group numbers, so the label is what players are told to join."""
    return label.isdigit()


def room_chats(ctx: Ctx[Settings]) -> list[str]:
    """Linked chats usable as rooms tonight, in link order. ``room_groups`` (optional) narrows
    the pool to the labels it lists."""
    return [chat for chat in ctx.chats if is_room(ctx.settings, chat)]


def _rooms_of(state: State, kind: Kind) -> list[str]:
    return list(state.mapping) if kind is Kind.GUARD else sorted(state.mapping.values())


def _free(state: State, kind: Kind) -> list[str]:
    return [r for r in _rooms_of(state, kind) if r not in state.rooms]


def open_rooms(state: State, ctx: Ctx[Settings]) -> list[Effect]:
    fx: list[Effect] = []
    state.rooms = {}
    state.tonight = Tonight()
    ends = c.enter(state, Phase.ROOMS, ctx, fx)
    fx.append(Say("group", T.ROOMS_OPEN.format(
        day=state.day, guard_rooms="/".join(_rooms_of(state, Kind.GUARD)),
        prisoner_rooms="/".join(_rooms_of(state, Kind.PRISONER)), time=c.hhmm(ends, ctx))))
    return fx


def choose_room(state: State, actor: Actor, args: RoomArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/选房 — first come first served (【游戏流程】<6、进行审讯>)."""
    me = c.me(state, actor)
    if state.phase is not Phase.ROOMS:
        raise Rejected(T.NOT_ROOM_TIME)
    kind = state.players[me].camp
    room = args.room.strip()
    room = room.lower() if kind is Kind.GUARD else room.upper()
    valid = _rooms_of(state, kind)
    if room not in valid:
        raise Rejected(T.NO_SUCH_ROOM.format(kind=T.KIND[kind], rooms=" ".join(valid)))
    holder = state.rooms.get(room)
    if holder == me:
        return [Say("reply", T.ALREADY_IN_ROOM.format(room=room))]
    if holder is not None:
        raise Rejected(T.ROOM_TAKEN.format(room=room, free=" ".join(_free(state, kind)) or T.NONE))
    for r, s in list(state.rooms.items()):
        if s == me:
            del state.rooms[r]
    state.rooms[room] = me
    return [Say("reply", T.ROOM_CHOSEN.format(room=room))]


def rooms_over(state: State, ctx: Ctx[Settings]) -> list[Effect]:
    fx: list[Effect] = []
    for kind in (Kind.GUARD, Kind.PRISONER):
        for s in m.living(state, kind):
            if s not in state.rooms.values():
                state.rooms[ctx.rng.choice(_free(state, kind))] = s
    ra.swap_rooms(state, ctx, state.rooms, fx)  # 换房, before the pairs are made
    by_room = dict(state.rooms)
    pairs: list[Pair] = []
    byes: list[int] = []
    for g_room in _rooms_of(state, Kind.GUARD):
        p_room = state.mapping[g_room]
        g, p = by_room.get(g_room), by_room.get(p_room)
        if g is not None and p is not None:
            pairs.append(Pair(g_room=g_room, p_room=p_room, guard=g, prisoner=p))
        else:
            byes += [x for x in (g, p) if x is not None]
    mode = ctx.settings.room_mode
    linked: list[str] = []
    if mode == "group":
        linked = room_chats(ctx)
        pool = list(linked)
        ctx.rng.shuffle(pool)
        if len(pool) < len(pairs):
            fx.append(Say("hosts", T.ROOM_GROUPS_SHORT.format(need=len(pairs), have=len(pool), left=len(pairs) - len(pool))))
        for i, pair in enumerate(pairs):
            pair.group = pool[i] if i < len(pool) else None
        fx += _room_admin_open(state, pairs, linked)
    state.nights.append(Night(night=state.day, rooms=dict(sorted(by_room.items())), pairs=pairs, byes=sorted(byes)))
    ends = c.enter(state, Phase.NIGHT, ctx, fx)
    until = c.hhmm(ends, ctx)
    room_of = {s: r for r, s in by_room.items()}
    for pair in pairs:
        for who in (pair.guard, pair.prisoner):
            where = T.ROOM_NAME.format(room=room_of[who])
            if mode == "relay":
                fx.append(Say(who, T.NIGHT_RELAY.format(where=where, until=until)))
            elif mode == "web":
                fx.append(Say(who, T.NIGHT_WEB.format(where=where, until=until)))
            elif pair.group is None:
                fx.append(Say(who, T.NIGHT_NO_GROUP.format(where=where, until=until)))
            else:
                card = T.ROOM_CARD[state.players[who].camp]
                fx.append(Say(who, T.NIGHT_GROUP.format(where=where, group=pair.group, card=card, until=until)))
    for who in byes:
        fx.append(Say(who, T.NIGHT_BYE.format(room=room_of[who])))
    fx.append(Say("group", T.NIGHT_OPEN.format(day=state.day, until=until)))
    return fx


def _room_admin_open(state: State, pairs: list[Pair], linked: list[str]) -> list[Effect]:
    """Group mode, the window opens (called before tonight's record is appended):
    kick last night's occupants (unless they are back in the same group tonight), set the
    group cards 看守 / 囚犯 of occupants already inside (back in last night's group; newcomers
    get theirs when they join: QQ refuses cards for non-members), unmute tonight's rooms and
    mute the unused ones."""
    fx: list[Effect] = []
    tonight = {p.group: (p.guard, p.prisoner) for p in pairs if p.group is not None}
    inside: list[tuple[str, int]] = []
    if state.nights:
        for old in state.nights[-1].pairs:
            group = old.group
            if group is None or group not in linked:
                continue  # unlinked meanwhile: a GroupAdmin would fall back to the main group
            for who in (old.guard, old.prisoner):
                if who not in tonight.get(group, ()):
                    fx.append(GroupAdmin(group, "kick", who))
                else:
                    inside.append((group, who))
    for pair in pairs:
        group = pair.group
        if group is None:
            continue
        for who in (pair.guard, pair.prisoner):
            if (group, who) in inside:
                fx.append(GroupAdmin(group, "set_card", who, T.ROOM_CARD[state.players[who].camp]))
        fx.append(GroupAdmin(group, "unmute_all"))
        fx.append(Say(f"chat:{group}", T.ROOM_GROUP_OPEN.format(day=state.day)))
    for group in linked:
        if group not in tonight:
            fx.append(GroupAdmin(group, "mute_all"))
    return fx


def _room_admin_close(night: Night, linked: list[str]) -> list[Effect]:
    """Group mode, the window closes: mute every room used tonight and post 墙壁升起了."""
    fx: list[Effect] = []
    for pair in night.pairs:
        group = pair.group
        if group is None or group not in linked:
            continue
        fx.append(GroupAdmin(group, "mute_all"))
        fx.append(Say(f"chat:{group}", T.WALL_UP))
    return fx


def relay(state: State, actor: Actor, args: TextIn, ctx: Ctx[Settings]) -> list[Effect]:
    """Plain private text (and a web room page's line): in relay or web mode a line from a paired
    player goes to the partner under the label only. Group text sent here is read as such."""
    if not actor.private:
        return group_text(state, actor, args, ctx)
    if actor.seat is None or actor.seat not in state.players:
        raise Ignored()
    cfg = ctx.settings
    if cfg.room_mode not in ("relay", "web"):
        pair, _ = m.pair_of(state, actor.seat) if state.phase is Phase.NIGHT else (None, None)
        if pair is None or pair.group is not None:
            raise Rejected(T.RELAY_IN_GROUPS)
        # group mode, but this pair got no room group tonight: it falls back to the relay
    me = c.me(state, actor)
    if state.phase is not Phase.NIGHT:
        raise Rejected(T.NOT_NIGHT.format(start=cfg.rooms_end, end=cfg.night_end))
    pair, partner = m.pair_of(state, me)
    if pair is None or partner is None:
        raise Rejected(T.RELAY_BYE)
    if not m.in_prison(state, partner):
        raise Rejected(T.PARTNER_GONE)
    body = args.text.strip()
    if not body:
        raise Rejected(T.RELAY_NO_TEXT)
    if args.images:
        body += T.IMAGES_DROPPED
    label = T.ROOM_LABEL[state.players[me].camp]
    pair.lines.append(Line(seq=ctx.seq, at=ctx.now.isoformat(), from_=label, seat=me, text=body))
    if cfg.room_mode == "web":  # the partner reads it live on the room's web page
        return [Say("reply", T.SENT_TO_WEB)]
    return [Say(partner, label + body)]


def group_text(state: State, actor: Actor, args: TextIn, ctx: Ctx[Settings]) -> list[Effect]:
    """Plain group text: in the game group it counts a discussion post (（三）4); in a linked
    room group it is a room line (transcript, （三）1)."""
    if actor.private or actor.chat in (None, "main"):
        return rules_misc.post(state, actor)
    if ctx.settings.room_mode != "group":
        raise Ignored()
    return room_line(state, actor, args, ctx)


def room_line(state: State, actor: Actor, args: TextIn, ctx: Ctx[Settings]) -> list[Effect]:
    """Group mode: a line said in a room group (the kernel's plain group-text route with
    ``actor.chat`` = the room's label). Kept for the transcript and （三）1; nothing is forwarded.
    Chat in a linked group that is not one of tonight's rooms of this player is ignored."""
    seat = actor.seat
    if state.phase is not Phase.NIGHT or seat is None or seat not in state.players:
        raise Ignored()
    pair, partner = m.pair_of(state, seat)
    if pair is None or partner is None:
        raise Ignored()
    if actor.chat not in (None, "main") and pair.group != actor.chat:
        raise Ignored()  # said in some other linked group
    body = args.text.strip()
    if args.images:
        body = (body + T.IMAGE) if body else T.IMAGE
    label = T.ROOM_LABEL[state.players[seat].camp]
    pair.lines.append(Line(seq=ctx.seq, at=ctx.now.isoformat(), from_=label, seat=seat, text=body))
    return []


def is_room(cfg: Settings, chat: str) -> bool:
    allow = cfg.room_groups
    return cfg.room_mode == "group" and is_room_label(chat) and (not allow or chat in allow)


def may_join(state: State, cfg: Settings, chat: str, seat: int | None) -> bool | None:
    """Group mode: only tonight's two occupants of a room group may join it. Any other group
    of the game (the main group, a 联谊群 labelled 联谊, every chat in relay mode) is left to
    its admins (None)."""
    if not is_room(cfg, chat):
        return None
    return seat is not None and seat in room_occupants(state, cfg, chat)


def joined(state: State, cfg: Settings, chat: str, seat: int) -> list[Effect]:
    """A player joined a room group: now QQ lets the bot set their card to 看守 / 囚犯."""
    if is_room(cfg, chat) and seat in room_occupants(state, cfg, chat):
        return [GroupAdmin(chat, "set_card", seat, T.ROOM_CARD[state.players[seat].camp])]
    return []


def room_occupants(state: State, cfg: Settings, group: str) -> list[int]:
    """Group mode: the two seats allowed in ``group`` tonight (the kernel approves only them)."""
    night = m.current_night(state)
    if night is None or state.phase is not Phase.NIGHT or cfg.room_mode != "group":
        return []
    for pair in night.pairs:
        if pair.group is not None and pair.group == group:
            return [pair.guard, pair.prisoner]
    return []


def _night_window(state: State, rooms_ok: bool) -> None:
    if state.phase is Phase.NIGHT or (rooms_ok and state.phase is Phase.ROOMS):
        return
    raise Rejected(T.NIGHT_ONLY.format(rooms=T.OR_ROOMS if rooms_ok else ""))


def noise(state: State, actor: Actor, args: NoArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """【补充规则】噪音: a guard plays noise to the prisoner in the same room."""
    me = c.me(state, actor)
    ab = m.ability(ctx.settings, state, me, "noise")
    if ab is None:
        raise Rejected(T.NO_NOISE)
    _night_window(state, False)
    pair, partner = m.pair_of(state, me)
    if pair is None or partner is None:
        raise Rejected(T.NOISE_BYE)
    c.need_uses(state, me, ab, T.NOISE)
    c.spend(state, me, ab)
    if me in ra.blocked(state):  # 封锁: the use is spent, nobody hears it
        c.log_use(state, ctx, me, T.NOISE, m.name(state, partner), T.FAILED_BLOCKED)
        return [Say("reply", T.NOISE_BLOCKED)]
    pair.lines.append(Line(seq=ctx.seq, at=ctx.now.isoformat(), from_=T.NOISE_LABEL, seat=me, text=T.NOISE))
    c.log_use(state, ctx, me, T.NOISE, m.name(state, partner), T.LOG_PLAYED)
    left = m.uses_left(state, me, ab)
    return [
        Say(partner, T.NOISE_HEARD),
        Say("reply", T.NOISE_DONE.format(left="" if left is None else T.USES_LEFT.format(n=left))),
    ]


def point_kill(state: State, actor: Actor, args: SeatArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """点杀/指杀: tonight the murderer kills this guard instead of its partner."""
    me = c.me(state, actor)
    ab = m.ability(ctx.settings, state, me, "point_kill")
    if ab is None:
        raise Rejected(T.NO_POINT_KILL)
    _night_window(state, True)
    who = c.target(state, args.seat)
    if state.players[who].kind is not Kind.GUARD or not m.in_prison(state, who):
        raise Rejected(T.POINT_KILL_GUARD)
    c.need_uses(state, me, ab, T.KILL_HOW["point_kill"])
    state.tonight = Tonight(point_kill=who)
    return [Say("reply", T.POINT_KILL_SET.format(name=m.name(state, who)))]


def spare(state: State, actor: Actor, args: NoArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/不杀: no kill tonight (a murderer whose kill is ``optional``)."""
    me = c.me(state, actor)
    ab = m.ability(ctx.settings, state, me, "kill")
    if ab is None or not ab.optional:
        raise Rejected(T.CANNOT_SPARE)
    _night_window(state, True)
    state.tonight = Tonight(spare=True)
    return [Say("reply", T.SPARED)]


def night_over(state: State, ctx: Ctx[Settings]) -> list[Effect]:
    fx: list[Effect] = []
    night = m.current_night(state)
    assert night is not None
    cfg = ctx.settings
    mode = cfg.room_mode
    labels = T.ROOM_LABEL.values()
    for pair in night.pairs:
        for who in (pair.guard, pair.prisoner):
            fx.append(Say(who, T.WALL_UP_END))
    if mode == "group":
        fx += _room_admin_close(night, room_chats(ctx))
    # （三）1: silent in the room. Group mode: only when the kernel reported room lines tonight.
    if mode in ("relay", "web") or any(pair.lines for pair in night.pairs):
        for pair in night.pairs:
            for who in (pair.guard, pair.prisoner):
                if m.in_prison(state, who) and not any(line.seat == who and line.from_ in labels for line in pair.lines):
                    c.card(state, cfg, fx, who, T.CARD_SILENT_ROOM.format(day=state.day))
    c.compulsory_check(state, cfg, fx, "night")
    res = ra.start_close(state)  # 封锁 and 保护, before the kill
    dead: list[int] = []
    killer = m.murderer_seat(cfg, state)
    tonight = state.tonight
    if m.in_prison(state, killer):
        victim: int | None = None
        how = ""
        if tonight.point_kill is not None and m.in_prison(state, tonight.point_kill):
            ab = m.ability(cfg, state, killer, "point_kill")
            if ab is not None:
                c.spend(state, killer, ab)
            victim, how = tonight.point_kill, T.KILL_HOW["point_kill"]
        elif not tonight.spare and m.ability(cfg, state, killer, "kill") is not None:
            _, victim = m.pair_of(state, killer)
            how = T.KILL_HOW["kill"]
        if victim is not None and not ra.kill_stopped(state, ctx, res, killer, victim, how, fx):
            c.kill(state, cfg, victim, T.REASON_KILLED.format(day=state.day), fx, dead)
            night.kill = Kill(by=killer, victim=victim, how=how)
            c.log_use(state, ctx, killer, how, m.name(state, victim), T.LOG_DEAD)
            if res.used:
                res.summary.append(T.SUM_LINE.format(kind=how, who=m.name(state, killer), what=m.name(state, victim),
                                                     result=T.LOG_DEAD))
    ra.finish_close(state, ctx, res, fx)  # 查验, 窃听, 传话 … and the hosts' summary
    night.deaths = list(dead)
    state.tonight = Tonight()
    state.rooms = {}
    end = rules_end.check(state, ctx)
    if end is not None:
        fx.append(Say("group", T.DAWN_END.format(names=m.names(state, dead))))
        return fx + end
    state.day += 1
    ends = c.enter(state, Phase.DAY, ctx, fx)
    fx.append(Say("group", T.DAWN.format(day=state.day, names=m.names(state, dead), time=c.hhmm(ends, ctx))))
    return fx
