"""Kernel commands for the records: the audit log and the export."""

from __future__ import annotations

import re

from plugins.gamekit.clock import game_tz
from plugins.gamekit.contract import KERNEL_BACK, KERNEL_OUT, Rejected

from ..config import kernel_config
from ..export import export_game
from ..messages import api_row
from ..models import Audit, Game, Host, Player
from ..registry import GameKind, get_kind
from ..unit import reply
from ..writeset import WriteSet
from .table import Call, game_for, kernel_command, need_game, superusers


async def _hosted_game(call: Call) -> int:
    """The game a host's /日志 or /导出 is about: the live one, else the most
    recent one of this group (in a group) or that this host ran (in private) —
    the tables are complete only after the end."""
    found = game_for(call)
    uid = call.origin.user_id
    if isinstance(found, int):
        gid = found
    elif call.in_group:
        last = await Game.filter(group_id=call.origin.group_id).order_by("-id").first()
        if last is None:
            raise Rejected("本群还没有开过游戏。")
        gid = last.id
    elif isinstance(found, list):
        gid = need_game(call, found)
    else:
        hosted = await Host.filter(user_id=uid).order_by("-game_id").first()
        if hosted is None:
            raise Rejected("你没有主持过游戏。")
        gid = hosted.game_id
    if uid not in superusers() and not await Host.exists(game_id=gid, user_id=uid):
        raise Rejected("只有主持可以这样做。")
    return gid


@kernel_command(("日志",), "/日志 [页]", "查看操作日志（谁、何时、做了什么），每页 20 条，第 1 页最新", who="host", where="private",
                example="/日志 2")
async def audit_log(call: Call) -> None:
    if call.in_group:
        raise Rejected("日志可能含私密信息，请私聊我发送 /日志。")
    arg = call.rest.strip()
    if arg and not arg.isdigit():
        raise Rejected("请写页码：/日志 2（第 1 页是最新的 20 条）。")
    page = max(1, int(arg)) if arg else 1
    gid = await _hosted_game(call)
    g = await Game.get(id=gid)
    total = await Audit.filter(game_id=gid).count()
    if total == 0:
        raise Rejected("这局还没有日志。")
    pages = (total + LOG_PAGE - 1) // LOG_PAGE
    if page > pages:
        raise Rejected(f"日志只有 {pages} 页（共 {total} 条）。")
    rows = list(reversed(await Audit.filter(game_id=gid).order_by("-id").offset((page - 1) * LOG_PAGE).limit(LOG_PAGE)))
    names = await _names(g)
    kind = get_kind(g.kind)
    tz = game_tz(g)
    lines = [f"【日志】第 {page}/{pages} 页，共 {total} 条（时间为游戏时区，新的在下）："]
    lines += [f"{r.at.astimezone(tz):%m-%d %H:%M:%S} {_actor(r.actor, names)} {_what(r.action, r.detail, kind, names)}"
              for r in rows]
    if page < pages:
        lines.append(f"更早的日志：/日志 {page + 1}")
    await call.say("\n".join(lines), gid)


LOG_PAGE = 20
ACTIONS = {
    "signup": "报名", "leave": "退出报名", "profile": "填写资料", "alt": "登记小号", "start": "开始游戏",
    "add_host": "添加副主持", "advance": "推进阶段", "extend": "延时", "pause": "暂停", "resume": "继续",
    "configure": "修改配置", "announce": "公告", "link_chat": "绑定群", "unlink_chat": "解绑群", "card": "判牌",
    KERNEL_OUT: "判出局", KERNEL_BACK: "判回场", "out": "出局", "back": "回到场上", "phase": "进入阶段",
    "rename": "改马甲", "end": "游戏结束", "deadline_retry": "截止出错，稍后重试", "deadline_stuck": "截止出错，已停下",
    "speak": "马甲发言", "join_request": "入群申请", "joined": "入群", "removed": "移出群",
}
ACTORS = {"engine": "规则", "kernel": "机器人", "host": "主持", "system": "系统", "": "—"}


async def _names(g: Game) -> dict[str, str]:
    """QQ -> how the log shows a person: a player by seat and alias, a host as 主持."""
    names = {h.user_id: f"主持（{h.user_id}）" for h in await Host.filter(game_id=g.id)}
    for p in await Player.filter(game_id=g.id):
        names[p.user_id] = f"{p.seat}号 {p.alias}"
    return names


def _actor(actor: str, names: dict[str, str]) -> str:
    return ACTORS.get(actor) or names.get(actor) or (f"QQ {actor}" if actor.isdigit() else actor)


def _action(action: str, kind: GameKind | None) -> str:
    if action in ACTIONS:
        return ACTIONS[action]
    spec = next((s for s in kind.commands if s.name == action and s.words), None) if kind else None
    return f"/{spec.words[0]}" if spec else action


def _what(action: str, detail: str, kind: GameKind | None, names: dict[str, str]) -> str:
    if action == "create":
        return f"开局：{kind.title if kind else detail}"
    what = _action(action, kind)
    if what.startswith("/") and detail.startswith(what):  # a game's command, written as sent
        return detail
    detail = _detail(action, detail, names)
    return f"{what}：{detail}" if detail else what


def _detail(action: str, detail: str, names: dict[str, str]) -> str:
    if action == "phase":
        detail = re.sub(r"（[A-Za-z0-9_:.\-]+）$", "", detail)  # the engine's key, for developers
    if action in ("add_host",):
        return names.get(detail, detail)
    return detail


@kernel_command(("导出",), "/导出", "把本局的表导出为 XLSX 和 CSV 压缩包，发到私聊（在群里发则传到群文件）", who="host")
async def export(call: Call) -> None:
    gid = await _hosted_game(call)
    done = await export_game(gid, call.now)
    limit = kernel_config().export_upload_max_mb
    sizes = [path.stat().st_size for path, _ in done.files()]
    if max(sizes) > limit * 1024 * 1024:
        mb = max(sizes) / 1024 / 1024
        await call.say(f"已导出，但文件有 {mb:.1f} MB，超过上传上限 {limit:g} MB，没有上传。"
                       f"文件在机器人所在电脑的 {done.folder}，请找管理员取（上限可在 .env 的 EXPORT_UPLOAD_MAX_MB 调整）。", gid)
        return
    uid = call.origin.user_id
    where = "群文件" if call.in_group else "私聊"
    fallback = (f"【导出】文件上传到{where}失败，文件在机器人所在电脑的 {done.folder}，请找管理员取。"
                "也可以稍后再发一次 /导出。")
    names = "、".join(name for _, name in done.files())
    ws = WriteSet()  # the uploads with the answer and the message's delivery key: a repeat uploads nothing
    for path, name in done.files():
        if call.in_group:
            action = "upload_group_file"
            params = {"group_id": int(call.origin.group_id or 0), "file": str(path.resolve()), "name": name}
        else:
            action, params = "upload_private_file", {"user_id": int(uid), "file": str(path.resolve()), "name": name}
        ws.outbox.append(api_row(str(params.get("group_id") or uid), action, params, game_id=gid,
                                 self_id=call.origin.self_id, now=call.now, fallback=("private", uid, fallback)))
    await reply(call.handling, f"已导出，正在上传到{where}：{names}（表格一个 XLSX，另有每张表的 CSV 压缩包）。",
                game_id=gid, ws=ws)
