"""Kernel commands of the lobby: open a game, sign up and leave, sign-up
fields, a second account, and choosing which game private commands go to."""

from __future__ import annotations

import secrets

from tortoise.exceptions import IntegrityError

from plugins.gamekit.contract import Ignored, Rejected

from ..config import kernel_config
from ..directory import alt_of, directory
from ..leases import leases
from ..messages import text_rows
from ..models import Audit, Focus, Game, Host, Player
from ..registry import GameKind, find_kind, kinds
from ..roster import check_alias
from ..unit import NotOwner, in_game, reply, write
from ..work import Work
from ..writeset import WriteSet
from .table import Call, game_for, is_group_admin, kernel_command, kind_of, need_game, superusers


@kernel_command(("创建",), "/创建 <游戏>", "开一局游戏（88人场 / 囚犯 / 大逃杀 / 联赛），发起人成为主持；群主、管理员可用", where="group",
                phases=("none",), example="/创建 大逃杀")
async def create(call: Call) -> None:
    if not call.in_group:
        raise Rejected("请在要开游戏的群里发送 /创建 <游戏>。")
    uid = call.origin.user_id
    if uid not in superusers() and not is_group_admin(call):
        raise Rejected("只有群主、群管理员或机器人管理员可以开游戏。")
    word = call.rest.strip()
    name, *more = word.split(maxsplit=1) or [""]
    options = more[0] if more else ""
    kind = find_kind(name) if name else None
    if kind is None:
        names = " / ".join(k.names[0] for k in kinds())
        raise Rejected(f"请写明游戏：/创建 <游戏>，可选：{names}。")
    group = call.origin.group_id or ""
    if group in directory.group_game:
        raise Rejected("本群已有一局游戏在进行或报名中，一个群同时只能有一局。主持可先 /结束。")
    overrides = kind.engine.create_options(options)  # e.g. /创建 大逃杀 测试赛
    try:
        settings = kind.engine.check_settings(overrides)
    except Rejected as exc:
        raise Rejected(f"默认配置有误：{exc}") from None
    try:
        game_id = await _create_game(call, kind, settings, group, uid, options)
    except IntegrityError:  # another process opened a game here at the same moment
        await directory.ensure_group(group)
        raise Ignored() from None
    if game_id is None:
        return  # a repeated delivery: created before
    await directory.refresh(game_id)
    await leases.ensure(game_id)


async def _create_game(call: Call, kind: GameKind, settings: dict, group: str, uid: str, options: str) -> int | None:
    """The new game, its host, its audit row and its opening post: one write set."""
    now, ws = call.now, WriteSet()
    key = ws.insert(Game, {"group_id": group, "live_group": group, "self_id": call.origin.self_id, "kind": kind.key,
                           "seed": secrets.token_hex(16), "created_by": uid, "created_at": now,
                           "settings": {**settings, "timezone": settings.get("timezone", _default_tz())}}, key=True)
    ws.insert(Host, {"game_id": key, "user_id": uid, "added_by": uid, "added_at": now})
    ws.insert(Audit, {"game_id": key, "actor": uid, "action": "create", "detail": kind.key, "at": now})
    signup = f"私聊我发送 /报名 {group} <马甲> 报名（马甲保密）" if kind.private_signup else "发送 /报名 [马甲] 报名"
    text = f"【{kind.title}】开局了{f'（{options}）' if options else ''}，主持：{call.origin.name or uid}。{kind.intro}\n{signup}，/名单 查看名单，/帮助 查看命令。"
    ws.outbox = text_rows("group", group, text, game_id=None, self_id=call.origin.self_id, priority=1, now=now)
    if not await write(call.handling, ws):
        return None
    assert key is not None
    return int(key.value)


def _default_tz() -> str:
    return kernel_config().game_timezone


@kernel_command(("报名",), "/报名 [马甲]（私聊：/报名 <群号> <马甲>）", "报名参加本群的游戏；马甲保密的游戏私聊报名",
                phases=("none", "signup"), example="/报名 小明（私聊：/报名 123456789 小明）")
async def signup(call: Call) -> None:
    rest = call.rest.strip()
    if call.in_group:
        gid = directory.group_game.get(call.origin.group_id or "")
        alias = rest or call.origin.name
    else:
        parts = rest.split(maxsplit=1)
        if not parts or not parts[0].isdigit():
            raise Rejected("私聊报名请写群号和马甲：/报名 <群号> <马甲>")
        await directory.ensure_group(parts[0])
        gid = directory.group_game.get(parts[0])
        alias = parts[1] if len(parts) > 1 else ""
    if gid is None:
        raise Rejected("这个群现在没有报名中的游戏。")
    if not await leases.ensure(gid):
        directory.reread_soon(gid)  # its roster is about to change
        raise NotOwner()
    kind = kind_of(gid)
    assert kind is not None
    if call.in_group and kind.private_signup:
        tip = "（刚才写在群里的马甲已经公开了，建议换一个）" if rest else ""
        raise Rejected(f"本游戏马甲保密，请私聊我发送：/报名 {call.origin.group_id} <马甲>{tip}")
    if not call.in_group and not rest.split(maxsplit=1)[1:]:
        raise Rejected(f"请写上马甲：/报名 {rest} <马甲>")

    async def run(work: Work) -> None:
        g = work.game
        if g.status != "signup":
            raise Rejected("游戏已经开始，不能再报名。")
        uid = call.origin.user_id
        if work.player_of(uid):
            p = work.player_of(uid)
            raise Rejected(f"你已经报名了（{p.seat}号 {p.alias}）。")  # type: ignore[union-attr]
        if len(work.players) >= kind.max_players:
            raise Rejected(f"人数已满（{kind.max_players} 人）。")
        name = check_alias(alias, [p.alias for p in work.players])
        seat = len(work.players) + 1
        p = Player(game_id=g.id, user_id=uid, seat=seat, alias=name, profile={})
        work.save(p)
        work.players.append(p)
        work.audit(uid, "signup", f"{seat}号 {name}", at=call.now)
        work.say("reply", f"报名成功：{seat}号「{name}」。发送 /退出报名 可退出。", call.origin)
        work.refresh_directory = work.roster_kept = True  # work.players has the new row: the held game stays

    await in_game(gid, call.handling, superusers(), run)


@kernel_command(("退出报名",), "/退出报名", "开始前退出报名（后面的座位前移）", who="player", phases=("signup",))
async def leave(call: Call) -> None:
    gid = need_game(call, game_for(call))

    async def run(work: Work) -> None:
        if work.game.status != "signup":
            raise Rejected("游戏已经开始，不能退出报名。有特殊情况请联系主持。")
        p = work.player_of(call.origin.user_id)
        if p is None:
            raise Rejected("你还没有报名。")
        seat = p.seat
        work.delete(p)
        for q in work.players:
            if q.seat > seat:
                q.seat -= 1
                work.save(q, "seat")
        work.players = [q for q in work.players if q.id != p.id]
        work.audit(call.origin.user_id, "leave", f"{seat}号 {p.alias}", at=call.now)
        work.say("reply", f"已退出报名。后面的玩家座位号依次前移，现有 {len(work.players)} 人。", call.origin)
        work.refresh_directory = work.roster_kept = True  # work.players was changed with the rows

    await in_game(gid, call.handling, superusers(), run)


@kernel_command(("资料",), "/资料 [项目=内容 …]", "开始前填写报名资料；不带内容查看已填的", who="player", where="private",
                phases=("signup",), needs="profile", example="/资料 随机号码=123 第一志愿=某角色")
async def profile(call: Call) -> None:
    if call.in_group:
        raise Rejected("报名资料请私聊我填写：/资料 项目=内容")
    gid = need_game(call, game_for(call))
    kind = kind_of(gid)
    assert kind is not None
    fields_ = {f.label: f for f in kind.profile_fields}
    if not fields_:
        raise Rejected(f"{kind.title}不需要填写报名资料。")
    pairs = [part for part in call.rest.replace("＝", "=").split() if part]

    async def run(work: Work) -> None:
        p = work.player_of(call.origin.user_id)
        if p is None:
            raise Rejected("请先报名，再填写资料。")
        data = dict(p.profile or {})
        if pairs:
            if work.game.status != "signup":
                raise Rejected("游戏已经开始，资料不能再改。")
            for part in pairs:
                label, sep, value = part.partition("=")
                f = fields_.get(label)
                if not sep or f is None:
                    raise Rejected(f"看不懂「{part}」。可填：{'、'.join(fields_)}，写成 项目=内容。")
                if f.kind == "int":
                    if not value.isdigit() or not f.low <= int(value) <= f.high:
                        raise Rejected(f"{label} 应为 {f.low}–{f.high} 的整数。")
                    data[f.key] = int(value)
                else:
                    if not value or len(value) > 32:
                        raise Rejected(f"{label} 请写 1–32 个字。")
                    data[f.key] = value
            p.profile = data
            work.save(p, "profile")
            work.audit(call.origin.user_id, "profile", f"{p.seat}号：{'、'.join(pairs)}", at=call.now)
        shown = "，".join(f"{f.label}：{data.get(f.key, '未填')}" for f in kind.profile_fields)
        head = "已保存。" if pairs else ""
        work.say("reply", f"{head}你的报名资料（{p.seat}号「{p.alias}」）：{shown}。", call.origin)

    await in_game(gid, call.handling, superusers(), run)


@kernel_command(("小号",), "/小号 <QQ号>（/小号 无 取消）", "登记一个小号，用它进审讯房间群（只有主持看得到）", who="player", where="private",
                needs="alt", example="/小号 123456789")
async def alt_account(call: Call) -> None:
    if call.in_group:
        raise Rejected("小号请私聊我登记：/小号 <QQ号>（写在群里会暴露，建议换一个小号）。")
    gid = need_game(call, game_for(call))
    kind = kind_of(gid)
    if kind is None or not kind.extra.get("alt_accounts"):
        raise Rejected(f"{kind.title if kind else '这个游戏'}不需要小号。")
    qq = call.rest.strip()
    if qq == call.origin.self_id:
        raise Rejected("那是机器人自己的 QQ 号，请写你的小号。")
    if qq != "无" and not (qq.isdigit() and len(qq) <= 12):
        raise Rejected("请写小号的 QQ 号（数字）：/小号 123456789；取消写 /小号 无。")

    async def run(work: Work) -> None:
        p = next((q for q in work.players if q.user_id == call.origin.user_id), None)
        if p is None:
            raise Rejected("请先用报名时的 QQ 报名，再登记小号。")
        if qq == p.user_id:
            raise Rejected("这就是你报名用的 QQ，请写另一个号。")
        if qq != "无" and (work.is_host(qq) or any(qq in (q.user_id, alt_of(q)) for q in work.players if q.id != p.id)):
            raise Rejected("这个 QQ 号已被本局其他人使用，请换一个。")
        why = work.kind.engine.may_change_alt(work.game.state) if work.game.state is not None else None
        if why:
            raise Rejected(why)
        data = dict(p.profile or {})
        if qq == "无":
            data.pop("alt", None)
        else:
            data["alt"] = qq
        p.profile = data
        work.save(p, "profile")
        work.refresh_directory = True
        work.audit(p.user_id, "alt", f"{p.seat}号 {p.alias}：{qq}", at=call.now)
        work.say("hosts", f"【小号】{p.seat}号「{p.alias}」" + ("取消了小号。" if qq == "无" else f"登记小号 {qq}。"), None)
        tail = "已取消小号。" if qq == "无" else f"已登记小号 {qq}：审讯房间群认你的报名 QQ 和这个小号，名片只显示看守或囚犯。只有主持知道。"
        work.say("reply", tail, call.origin)

    await in_game(gid, call.handling, superusers(), run)


@kernel_command(("切换",), "/切换 <群号>", "同时在多个游戏中时，选定私聊命令发往哪一局", where="private", needs="several",
                example="/切换 123456789")
async def switch(call: Call) -> None:
    group = call.rest.strip()
    gid = directory.group_game.get(group)
    if gid is None or call.origin.user_id not in directory.members.get(gid, set()):
        raise Rejected("你不在这个群的游戏里。请写你参加的游戏所在的群号。")
    ws = WriteSet()
    ws.upsert(Focus, [{"user_id": call.origin.user_id, "game_id": gid}])
    if await reply(call.handling, f"之后的私聊命令发往群 {group} 的游戏。", game_id=gid, ws=ws):
        directory.focus[call.origin.user_id] = gid

