"""Night: room choice, pairing by the secret mapping, the interrogation window, deaths."""

from __future__ import annotations

from typing import Any

from plugins.gamekit.contract import Ctx, GroupAdmin, Ignored, Rejected, Say

from . import common as c
from . import model as m
from . import rules_end
from . import texts as T


def is_room_label(label: str) -> bool:
    """A linked chat is a room group when its label is the group's QQ number (all digits):
    the engine never sees QQ group numbers, so the label is what players are told to join."""
    return label.isdigit()


def room_chats(ctx: Ctx) -> list[str]:
    """Linked chats usable as rooms tonight, in link order. ``room_groups`` (optional) narrows
    the pool to the labels it lists."""
    return [c for c in ctx.chats if is_room(ctx.settings, c)]


def _rooms_of(state: m.JSON, kind: str) -> list[str]:
    lower = list(state["mapping"].keys())
    return lower if kind == "guard" else sorted(state["mapping"].values())


def _free(state: m.JSON, kind: str) -> list[str]:
    return [r for r in _rooms_of(state, kind) if r not in state["rooms"]]


def open_rooms(state: m.JSON, ctx: Ctx) -> list[Any]:
    fx: list[Any] = []
    state["rooms"] = {}
    state["tonight"] = {"point_kill": None, "spare": False}
    ends = c.enter(state, "rooms", ctx, fx)
    fx.append(Say("group", T.ROOMS_OPEN.format(
        day=state["day"], guard_rooms="/".join(_rooms_of(state, "guard")),
        prisoner_rooms="/".join(_rooms_of(state, "prisoner")), time=c.hhmm(ends, ctx))))
    return fx


def choose_room(state: m.JSON, actor: Any, word: str) -> list[Any]:
    """/选房 — first come first served (【游戏流程】<6、进行审讯>)."""
    me = c.me(state, actor)
    if state["phase"] != "rooms":
        raise Rejected(T.NOT_ROOM_TIME)
    kind = m.player(state, me)["kind"]
    room = str(word).strip()
    room = room.lower() if kind == "guard" else room.upper()
    valid = _rooms_of(state, kind)
    if room not in valid:
        raise Rejected(T.NO_SUCH_ROOM.format(kind=T.KIND[kind], rooms=" ".join(valid)))
    holder = state["rooms"].get(room)
    if holder == me:
        return [Say("reply", T.ALREADY_IN_ROOM.format(room=room))]
    if holder is not None:
        raise Rejected(T.ROOM_TAKEN.format(room=room, free=" ".join(_free(state, kind)) or T.NONE))
    for r, s in list(state["rooms"].items()):
        if s == me:
            del state["rooms"][r]
    state["rooms"][room] = me
    return [Say("reply", T.ROOM_CHOSEN.format(room=room))]


def rooms_over(state: m.JSON, ctx: Ctx) -> list[Any]:
    fx: list[Any] = []
    for kind in ("guard", "prisoner"):
        for s in m.living(state, kind):
            if s not in state["rooms"].values():
                state["rooms"][ctx.rng.choice(_free(state, kind))] = s
    by_room = dict(state["rooms"])
    pairs = []
    byes = []
    for g_room in _rooms_of(state, "guard"):
        p_room = state["mapping"][g_room]
        g, p = by_room.get(g_room), by_room.get(p_room)
        if g is not None and p is not None:
            pairs.append({"g_room": g_room, "p_room": p_room, "guard": g, "prisoner": p, "group": None, "lines": []})
        else:
            byes += [x for x in (g, p) if x is not None]
    mode = ctx.settings["room_mode"]
    linked: list[str] = []
    if mode == "group":
        linked = room_chats(ctx)
        pool = list(linked)
        ctx.rng.shuffle(pool)
        if len(pool) < len(pairs):
            fx.append(Say("hosts", T.ROOM_GROUPS_SHORT.format(need=len(pairs), have=len(pool), left=len(pairs) - len(pool))))
        for i, pair in enumerate(pairs):
            pair["group"] = pool[i] if i < len(pool) else None
        fx += _room_admin_open(state, pairs, linked)
    state["nights"].append({
        "night": state["day"], "rooms": {k: v for k, v in sorted(by_room.items())}, "pairs": pairs,
        "byes": sorted(byes), "deaths": [], "kill": None,
    })
    ends = c.enter(state, "night", ctx, fx)
    until = c.hhmm(ends, ctx)
    room_of = {s: r for r, s in by_room.items()}
    for pair in pairs:
        for who in (pair["guard"], pair["prisoner"]):
            where = T.ROOM_NAME.format(room=room_of[who])
            if mode == "relay":
                fx.append(Say(who, T.NIGHT_RELAY.format(where=where, until=until)))
            elif mode == "web":
                fx.append(Say(who, T.NIGHT_WEB.format(where=where, until=until)))
            elif pair["group"] is None:
                fx.append(Say(who, T.NIGHT_NO_GROUP.format(where=where, until=until)))
            else:
                card = T.ROOM_CARD[m.player(state, who)["kind"]]
                fx.append(Say(who, T.NIGHT_GROUP.format(where=where, group=pair["group"], card=card, until=until)))
    for who in byes:
        fx.append(Say(who, T.NIGHT_BYE.format(room=room_of[who])))
    fx.append(Say("group", T.NIGHT_OPEN.format(day=state["day"], until=until)))
    return fx


def _room_admin_open(state: m.JSON, pairs: list[dict[str, Any]], linked: list[str]) -> list[Any]:
    """Group mode, the window opens (called before tonight's record is appended):
    kick last night's occupants (unless they are back in the same group tonight), set the
    group cards 看守 / 囚犯 of occupants already inside (back in last night's group; newcomers
    get theirs when they join: QQ refuses cards for non-members), unmute tonight's rooms and
    mute the unused ones."""
    fx: list[Any] = []
    tonight = {p["group"]: (p["guard"], p["prisoner"]) for p in pairs if p["group"] is not None}
    inside: set[tuple[str, int]] = set()
    if state["nights"]:
        for old in state["nights"][-1]["pairs"]:
            group = old.get("group")
            if group is None or group not in linked:
                continue  # unlinked meanwhile: a GroupAdmin would fall back to the main group
            for who in (old["guard"], old["prisoner"]):
                if who not in tonight.get(group, ()):
                    fx.append(GroupAdmin(group, "kick", who))
                else:
                    inside.add((group, who))
    for pair in pairs:
        group = pair["group"]
        if group is None:
            continue
        for who in (pair["guard"], pair["prisoner"]):
            if (group, who) in inside:
                fx.append(GroupAdmin(group, "set_card", who, T.ROOM_CARD[m.player(state, who)["kind"]]))
        fx.append(GroupAdmin(group, "unmute_all"))
        fx.append(Say(f"chat:{group}", T.ROOM_GROUP_OPEN.format(day=state["day"])))
    for group in linked:
        if group not in tonight:
            fx.append(GroupAdmin(group, "mute_all"))
    return fx


def _room_admin_close(night: dict[str, Any], linked: list[str]) -> list[Any]:
    """Group mode, the window closes: mute every room used tonight and post 墙壁升起了."""
    fx: list[Any] = []
    for pair in night["pairs"]:
        group = pair.get("group")
        if group is None or group not in linked:
            continue
        fx.append(GroupAdmin(group, "mute_all"))
        fx.append(Say(f"chat:{group}", T.WALL_UP))
    return fx


def relay(state: m.JSON, actor: Any, text: str, images: int, ctx: Ctx) -> list[Any]:
    """Relay mode: a line from a paired player goes to the partner under the label only."""
    if actor.seat is None or str(actor.seat) not in state["players"]:
        raise Ignored()
    if state["phase"] == "over":
        raise Ignored()
    cfg = ctx.settings
    if cfg["room_mode"] not in ("relay", "web"):
        pair, _ = m.pair_of(state, int(actor.seat)) if state["phase"] == "night" else (None, None)
        if pair is None or pair.get("group") is not None:
            raise Rejected(T.RELAY_IN_GROUPS)
        # group mode, but this pair got no room group tonight: it falls back to the relay
    me = c.me(state, actor)
    if state["phase"] != "night":
        raise Rejected(T.NOT_NIGHT.format(start=cfg["rooms_end"], end=cfg["night_end"]))
    pair, partner = m.pair_of(state, me)
    if pair is None or partner is None:
        raise Rejected(T.RELAY_BYE)
    if not m.in_prison(state, partner):
        raise Rejected(T.PARTNER_GONE)
    body = (text or "").strip()
    if not body:
        raise Rejected(T.RELAY_NO_TEXT)
    if images:
        body += T.IMAGES_DROPPED
    label = T.ROOM_LABEL[m.player(state, me)["kind"]]
    pair["lines"].append({"seq": ctx.seq, "at": ctx.now.isoformat(), "from": label, "seat": me, "text": body})
    if cfg["room_mode"] == "web":  # the partner reads it live on the room's web page
        return [Say("reply", T.SENT_TO_WEB)]
    return [Say(partner, label + body)]


def room_line(state: m.JSON, actor: Any, text: str, images: int, ctx: Ctx) -> list[Any]:
    """Group mode: a line said in a room group (the kernel's plain group-text route with
    ``actor.chat`` = the room's label). Kept for the transcript and （三）1; nothing is forwarded.
    Chat in a linked group that is not one of tonight's rooms of this player is ignored."""
    if state["phase"] != "night" or actor.seat is None or str(actor.seat) not in state["players"]:
        raise Ignored()
    pair, partner = m.pair_of(state, int(actor.seat))
    if pair is None or partner is None:
        raise Ignored()
    chat = getattr(actor, "chat", None)
    if chat not in (None, "main") and pair.get("group") != chat:
        raise Ignored()  # said in some other linked group
    body = (text or "").strip()
    if images:
        body = (body + T.IMAGE) if body else T.IMAGE
    label = T.ROOM_LABEL[m.player(state, int(actor.seat))["kind"]]
    pair["lines"].append({"seq": ctx.seq, "at": ctx.now.isoformat(), "from": label, "seat": int(actor.seat),
                          "text": body})
    return []


def is_room(cfg: m.Settings, chat: str) -> bool:
    allow = [str(g) for g in cfg.get("room_groups", [])]
    return cfg["room_mode"] == "group" and is_room_label(chat) and (not allow or chat in allow)


def may_join(state: m.JSON, cfg: m.Settings, chat: str, seat: int | None) -> bool | None:
    """Group mode: only tonight's two occupants of a room group may join it. Any other group
    of the game (the main group, a 联谊群 labelled 联谊, every chat in relay mode) is left to
    its admins (None)."""
    if not is_room(cfg, chat):
        return None
    return seat is not None and seat in room_occupants(state, cfg, chat)


def joined(state: m.JSON, cfg: m.Settings, chat: str, seat: int) -> list[Any]:
    """A player joined a room group: now QQ lets the bot set their card to 看守 / 囚犯."""
    if is_room(cfg, chat) and seat in room_occupants(state, cfg, chat):
        return [GroupAdmin(chat, "set_card", seat, T.ROOM_CARD[m.player(state, seat)["kind"]])]
    return []


def room_occupants(state: m.JSON, cfg: m.Settings, group: str) -> list[int]:
    """Group mode: the two seats allowed in ``group`` tonight (the kernel approves only them)."""
    night = m.current_night(state)
    if night is None or state["phase"] != "night" or cfg["room_mode"] != "group":
        return []
    for pair in night["pairs"]:
        if pair["group"] is not None and pair["group"] == str(group):
            return [pair["guard"], pair["prisoner"]]
    return []


def _night_window(state: m.JSON, rooms_ok: bool) -> None:
    if state["phase"] == "night" or (rooms_ok and state["phase"] == "rooms"):
        return
    raise Rejected(T.NIGHT_ONLY.format(rooms=T.OR_ROOMS if rooms_ok else ""))


def noise(state: m.JSON, actor: Any, ctx: Ctx) -> list[Any]:
    me = c.me(state, actor)
    ab = m.ability(state, ctx.settings, me, "noise")
    if ab is None:
        raise Rejected(T.NO_NOISE)
    _night_window(state, False)
    pair, partner = m.pair_of(state, me)
    if pair is None or partner is None:
        raise Rejected(T.NOISE_BYE)
    c.need_uses(state, me, ab, T.NOISE)
    c.spend(state, me, ab)
    pair["lines"].append({"seq": ctx.seq, "at": ctx.now.isoformat(), "from": T.NOISE_LABEL, "seat": me, "text": T.NOISE})
    c.log_use(state, ctx, me, T.NOISE, m.name(state, partner), T.LOG_PLAYED)
    left = m.uses_left(state, me, ab)
    return [
        Say(partner, T.NOISE_HEARD),
        Say("reply", T.NOISE_DONE.format(left="" if left is None else T.USES_LEFT.format(n=left))),
    ]


def point_kill(state: m.JSON, actor: Any, seat_arg: Any, ctx: Ctx) -> list[Any]:
    """点杀/指杀: tonight the murderer kills this guard instead of its partner."""
    me = c.me(state, actor)
    ab = m.ability(state, ctx.settings, me, "point_kill")
    if ab is None:
        raise Rejected(T.NO_POINT_KILL)
    _night_window(state, True)
    who = c.target(state, seat_arg)
    if m.player(state, who)["kind"] != "guard" or not m.in_prison(state, who):
        raise Rejected(T.POINT_KILL_GUARD)
    c.need_uses(state, me, ab, T.KILL_HOW["point_kill"])
    state["tonight"] = {"point_kill": who, "spare": False}
    return [Say("reply", T.POINT_KILL_SET.format(name=m.name(state, who)))]


def spare(state: m.JSON, actor: Any, ctx: Ctx) -> list[Any]:
    me = c.me(state, actor)
    ab = m.ability(state, ctx.settings, me, "kill")
    if ab is None or not ab.get("optional"):
        raise Rejected(T.CANNOT_SPARE)
    _night_window(state, True)
    state["tonight"] = {"point_kill": None, "spare": True}
    return [Say("reply", T.SPARED)]


def night_over(state: m.JSON, ctx: Ctx) -> list[Any]:
    fx: list[Any] = []
    night = m.current_night(state)
    assert night is not None
    cfg = ctx.settings
    mode = cfg["room_mode"]
    for pair in night["pairs"]:
        for who in (pair["guard"], pair["prisoner"]):
            fx.append(Say(who, T.WALL_UP_END))
    if mode == "group":
        fx += _room_admin_close(night, room_chats(ctx))
    # （三）1: silent in the room. Group mode: only when the kernel reported room lines tonight.
    if mode in ("relay", "web") or any(pair["lines"] for pair in night["pairs"]):
        for pair in night["pairs"]:
            for who in (pair["guard"], pair["prisoner"]):
                if m.in_prison(state, who) and not any(line["seat"] == who and line["from"] in T.ROOM_LABEL.values() for line in pair["lines"]):
                    c.card(state, cfg, fx, who, T.CARD_SILENT_ROOM.format(day=state["day"]))
    c.compulsory_check(state, cfg, fx, "night")
    dead: list[int] = []
    killer = m.murderer_seat(state, cfg)
    tonight = state["tonight"]
    if m.in_prison(state, killer):
        victim = None
        how = ""
        if tonight["point_kill"] is not None and m.in_prison(state, tonight["point_kill"]):
            ab = m.ability(state, cfg, killer, "point_kill")
            if ab is not None:
                c.spend(state, killer, ab)
            victim, how = tonight["point_kill"], T.KILL_HOW["point_kill"]
        elif not tonight["spare"] and m.ability(state, cfg, killer, "kill") is not None:
            _, partner = m.pair_of(state, killer)
            victim, how = partner, T.KILL_HOW["kill"]
        if victim is not None:
            c.kill(state, cfg, victim, T.REASON_KILLED.format(day=state["day"]), fx, dead)
            night["kill"] = {"by": killer, "victim": victim, "how": how}
            c.log_use(state, ctx, killer, how, m.name(state, victim), T.LOG_DEAD)
    night["deaths"] = list(dead)
    state["tonight"] = {"point_kill": None, "spare": False}
    state["rooms"] = {}
    end = rules_end.check(state, ctx)
    state["day"] += 1
    if end is not None:
        state["day"] -= 1
        fx.append(Say("group", T.DAWN_END.format(names=m.names(state, dead))))
        return fx + end
    ends = c.enter(state, "day", ctx, fx)
    fx.append(Say("group", T.DAWN.format(day=state["day"], names=m.names(state, dead), time=c.hhmm(ends, ctx))))
    return fx
