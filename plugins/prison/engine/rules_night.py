"""Night: room choice, pairing by the secret mapping, the interrogation window, deaths."""

from __future__ import annotations

from typing import Any

from plugins.kernel.contract import Ctx, GroupAdmin, Ignored, Rejected, Say

from . import common as c
from . import model as m
from . import rules_end

LABEL = {"guard": "【看守】", "prisoner": "【囚犯】"}
CARD = {"guard": "看守", "prisoner": "囚犯"}  # group cards in a room group


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
    fx.append(Say("group", (
        f"第{state['day']}夜选房开始：看守私聊我 /选房 <{'/'.join(_rooms_of(state, 'guard'))}>，"
        f"囚犯私聊我 /选房 <{'/'.join(_rooms_of(state, 'prisoner'))}>，先到先得；"
        f"{c.hhmm(ends, ctx)} 未选的随机分配，随后开始审讯。"
    )))
    return fx


def choose_room(state: m.JSON, actor: Any, word: str) -> list[Any]:
    """/选房 — first come first served (【游戏流程】<6、进行审讯>)."""
    me = c.me(state, actor)
    if state["phase"] != "rooms":
        raise Rejected("现在不是选房时间，选房在讨论日结束后开始。")
    kind = m.player(state, me)["kind"]
    room = str(word).strip()
    room = room.lower() if kind == "guard" else room.upper()
    valid = _rooms_of(state, kind)
    if room not in valid:
        raise Rejected(f"没有这个房间。{'看守' if kind == 'guard' else '囚犯'}可选：{' '.join(valid)}。")
    holder = state["rooms"].get(room)
    if holder == me:
        return [Say("reply", f"你已经在 {room} 号房。")]
    if holder is not None:
        raise Rejected(f"{room} 号房已被选走，请换一间：{' '.join(_free(state, kind)) or '无'}。")
    for r, s in list(state["rooms"].items()):
        if s == me:
            del state["rooms"][r]
    state["rooms"][room] = me
    return [Say("reply", f"已选 {room} 号房。截止前可以换到空房间。")]


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
            fx.append(Say("hosts", (
                f"房间群不够：今晚需要 {len(pairs)} 个，只绑定了 {len(pool)} 个。请在每个房间群里发送 "
                f"/绑定群 <游戏群号> <该房间群的群号>；没有房间群的 {len(pairs) - len(pool)} 对今晚改用私聊转发。"
            )))
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
            where = f"{room_of[who]} 号房"
            if mode == "relay":
                fx.append(Say(who, f"审讯开始：你在 {where}。直接私聊我发文字，我会只带身份标签转给对方；{until} 墙壁升起。"))
            elif mode == "web":
                fx.append(Say(who, (
                    f"审讯开始：你在 {where}。请打开你的审讯室网页（私聊发送 /网页 获取链接和密码）和对方交谈，"
                    f"对方只看到你的身份标签；{until} 墙壁升起。"
                )))
            elif pair["group"] is None:
                fx.append(Say(who, (
                    f"审讯开始：你在 {where}。今晚房间群不够，你们这间改用私聊转发：直接私聊我发文字，"
                    f"我会只带身份标签转给对方；{until} 墙壁升起。"
                )))
            else:
                fx.append(Say(who, (
                    f"审讯开始：你在 {where}。今晚你的审讯群：{pair['group']}（群号），请用报名的 QQ 申请加入，"
                    f"只有今晚同房的两人会被同意；群名片会被改成「{CARD[m.player(state, who)['kind']]}」。{until} 墙壁升起。"
                )))
    for who in byes:
        fx.append(Say(who, f"你在 {room_of[who]} 号房，今晚轮空，没有审讯对象。"))
    fx.append(Say("group", f"第{state['day']}夜审讯开始，{until} 墙壁升起。"))
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
                fx.append(GroupAdmin(group, "set_card", who, CARD[m.player(state, who)["kind"]]))
        fx.append(GroupAdmin(group, "unmute_all"))
        fx.append(Say(f"chat:{group}", f"第{state['day']}夜审讯开始：本群今晚只有一名看守和一名囚犯，墙壁升起前可以自由交谈。"))
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
        fx.append(Say(f"chat:{group}", "墙壁升起了。"))
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
            raise Rejected("本局审讯在房间群进行，私聊消息不会转发。")
        # group mode, but this pair got no room group tonight: it falls back to the relay
    me = c.me(state, actor)
    if state["phase"] != "night":
        raise Rejected(f"现在不是审讯时间，消息没有转发。审讯在每晚 {cfg['rooms_end']}–{cfg['night_end']}。")
    pair, partner = m.pair_of(state, me)
    if pair is None or partner is None:
        raise Rejected("你今晚轮空，没有审讯对象，消息没有转发。")
    if not m.in_prison(state, partner):
        raise Rejected("对方已不在审讯室，消息没有转发。")
    body = (text or "").strip()
    if not body:
        raise Rejected("图片和表情无法转发，请改发文字。")
    if images:
        body += "（图片已略去）"
    label = LABEL[m.player(state, me)["kind"]]
    pair["lines"].append({"seq": ctx.seq, "at": ctx.now.isoformat(), "from": label, "seat": me, "text": body})
    if cfg["room_mode"] == "web":  # the partner reads it live on the room's web page
        return [Say("reply", "已发到审讯室网页。")]
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
        body = (body + "（图片）") if body else "（图片）"
    label = LABEL[m.player(state, int(actor.seat))["kind"]]
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
        return [GroupAdmin(chat, "set_card", seat, CARD[m.player(state, seat)["kind"]])]
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
    raise Rejected("这个技能只能在夜晚" + ("选房或" if rooms_ok else "") + "审讯时使用。")


def noise(state: m.JSON, actor: Any, ctx: Ctx) -> list[Any]:
    me = c.me(state, actor)
    ab = m.ability(state, ctx.settings, me, "noise")
    if ab is None:
        raise Rejected("你没有噪音技能。")
    _night_window(state, False)
    pair, partner = m.pair_of(state, me)
    if pair is None or partner is None:
        raise Rejected("你今晚轮空，没有人能听到噪音。")
    c.need_uses(state, me, ab, "噪音")
    c.spend(state, me, ab)
    pair["lines"].append({"seq": ctx.seq, "at": ctx.now.isoformat(), "from": "【噪音】", "seat": me, "text": "噪音"})
    c.log_use(state, ctx, me, "噪音", m.name(state, partner), "已播放")
    left = m.uses_left(state, me, ab)
    return [
        Say(partner, "【噪音】刺耳的噪音从墙里涌来，你感到一阵眩晕……"),
        Say("reply", f"噪音已播放。{'' if left is None else f'剩余 {left} 次。'}"),
    ]


def point_kill(state: m.JSON, actor: Any, seat_arg: Any, ctx: Ctx) -> list[Any]:
    """点杀/指杀: tonight the murderer kills this guard instead of its partner."""
    me = c.me(state, actor)
    ab = m.ability(state, ctx.settings, me, "point_kill")
    if ab is None:
        raise Rejected("你没有点杀技能。")
    _night_window(state, True)
    who = c.target(state, seat_arg)
    if m.player(state, who)["kind"] != "guard" or not m.in_prison(state, who):
        raise Rejected("只能点杀监狱中存活的看守。")
    c.need_uses(state, me, ab, "点杀")
    state["tonight"] = {"point_kill": who, "spare": False}
    return [Say("reply", f"今晚将点杀 {m.name(state, who)}（审讯结束时生效，之前可改或 /不杀）。")]


def spare(state: m.JSON, actor: Any, ctx: Ctx) -> list[Any]:
    me = c.me(state, actor)
    ab = m.ability(state, ctx.settings, me, "kill")
    if ab is None or not ab.get("optional"):
        raise Rejected("你不能放弃杀人。")
    _night_window(state, True)
    state["tonight"] = {"point_kill": None, "spare": True}
    return [Say("reply", "今晚不杀人（审讯结束前可用 /点杀 改变主意）。")]


def night_over(state: m.JSON, ctx: Ctx) -> list[Any]:
    fx: list[Any] = []
    night = m.current_night(state)
    assert night is not None
    cfg = ctx.settings
    mode = cfg["room_mode"]
    for pair in night["pairs"]:
        for who in (pair["guard"], pair["prisoner"]):
            fx.append(Say(who, "墙壁升起了，审讯结束。"))
    if mode == "group":
        fx += _room_admin_close(night, room_chats(ctx))
    # （三）1: silent in the room. Group mode: only when the kernel reported room lines tonight.
    if mode in ("relay", "web") or any(pair["lines"] for pair in night["pairs"]):
        for pair in night["pairs"]:
            for who in (pair["guard"], pair["prisoner"]):
                if m.in_prison(state, who) and not any(line["seat"] == who and line["from"] in LABEL.values() for line in pair["lines"]):
                    c.card(state, cfg, fx, who, f"第{state['day']}夜审讯中没有发言（潜水（三）1）")
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
            victim, how = tonight["point_kill"], "点杀"
        elif not tonight["spare"] and m.ability(state, cfg, killer, "kill") is not None:
            _, partner = m.pair_of(state, killer)
            victim, how = partner, "杀人"
        if victim is not None:
            c.kill(state, cfg, victim, f"第{state['day']}夜被杀人犯杀死", fx, dead)
            night["kill"] = {"by": killer, "victim": victim, "how": how}
            c.log_use(state, ctx, killer, how, m.name(state, victim), "死亡")
    night["deaths"] = list(dead)
    state["tonight"] = {"point_kill": None, "spare": False}
    state["rooms"] = {}
    end = rules_end.check(state, ctx)
    state["day"] += 1
    if end is not None:
        state["day"] -= 1
        fx.append(Say("group", f"天亮了。昨夜死亡：{m.names(state, dead)}。"))
        return fx + end
    ends = c.enter(state, "day", ctx, fx)
    fx.append(Say("group", (
        f"第{state['day']}天天亮了。昨夜死亡：{m.names(state, dead)}。\n"
        f"看守请在 {c.hhmm(ends, ctx)} 前私聊我 /处决 <囚犯>、/释放 <囚犯> 或 /弃票。"
    )))
    return fx
