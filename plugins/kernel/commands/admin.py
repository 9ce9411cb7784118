"""Kernel commands for the records: the audit log and the export."""

from __future__ import annotations

from nonebot import get_plugin_config
from tortoise.transactions import in_transaction

from ..clock import game_tz
from ..config import Config
from ..contract import Ignored, Rejected
from ..delivery import claim_delivery, delivery_committed
from ..export import export_game
from ..models import Audit, Game, Host
from ..order import utcnow
from ..origin import _reply_rows
from ..outbox import enqueue_api
from ..sending import wake_outbox
from .table import Call, _game_for, _need_game, _superusers, kernel_command


async def _hosted_game(call: Call) -> int:
    """The game a host's /日志 or /导出 is about: the live one, else the most
    recent one of this group (in a group) or that this host ran (in private) —
    the tables are complete only after the end."""
    found = _game_for(call)
    uid = call.origin.user_id
    if isinstance(found, int):
        gid = found
    elif call.in_group:
        last = await Game.filter(group_id=call.origin.group_id).order_by("-id").first()
        if last is None:
            raise Rejected("本群还没有开过游戏。")
        gid = last.id
    elif isinstance(found, list):
        gid = _need_game(call, found)
    else:
        hosted = await Host.filter(user_id=uid).order_by("-game_id").first()
        if hosted is None:
            raise Rejected("你没有主持过游戏。")
        gid = hosted.game_id  # type: ignore[attr-defined]
    if uid not in _superusers() and not await Host.exists(game_id=gid, user_id=uid):
        raise Rejected("只有主持可以这样做。")
    return gid


@kernel_command(("日志",), "/日志 [页]", "查看操作日志（谁、何时、做了什么），每页 20 条，第 1 页最新", who="host", where="private",
                example="/日志 2")
async def audit_log(call: Call) -> None:
    if call.in_group:
        raise Rejected("日志可能含私密信息，请私聊我发送 /日志。")
    n = int(call.rest.strip()) if call.rest.strip().isdigit() else 20
    gid = await _hosted_game(call)
    g = await Game.get(id=gid)
    tz = game_tz(g)
    rows = list(reversed(await Audit.filter(game_id=gid).order_by("-id").limit(min(n, 200))))
    lines = [f"最近 {len(rows)} 条日志："] + [
        f"{r.at.astimezone(tz):%m-%d %H:%M:%S} {r.actor or '-'} {r.action} {r.detail}" for r in rows
    ]
    await call.say("\n".join(lines), gid)


@kernel_command(("导出",), "/导出", "把本局的表导出为 XLSX 和 CSV 压缩包，发到私聊（在群里发则传到群文件）", who="host")
async def export(call: Call) -> None:
    gid = await _hosted_game(call)
    done = await export_game(gid, call.now)
    limit = get_plugin_config(Config).export_upload_max_mb
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
    try:  # the uploads and the answer with the message's delivery key: a repeated delivery uploads nothing
        async with in_transaction():
            await claim_delivery(utcnow())
            for path, name in done.files():
                if call.in_group:
                    action = "upload_group_file"
                    params = {"group_id": int(call.origin.group_id or 0), "file": str(path.resolve()), "name": name}
                else:
                    action, params = "upload_private_file", {"user_id": int(uid), "file": str(path.resolve()), "name": name}
                await enqueue_api(str(params.get("group_id") or uid), action, params, game_id=gid,
                                  self_id=call.origin.self_id, now=call.now, fallback=("private", uid, fallback))
            await _reply_rows(call.origin, f"已导出，正在上传到{where}：{names}（表格一个 XLSX，另有每张表的 CSV 压缩包）。", gid)
    except Ignored:
        return
    delivery_committed()
    wake_outbox()
