"""What the hosts see of the outbound queue: a note when one command sends many private messages
(how many, and when the last will have gone at the configured pace), and /队列 (what waits for the
game, how far along, what was given up and why)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from .config import kernel_config
from .messages import text_rows
from .models import Outbox, Player
from .outbox_heads import private_waiting

FAN_OUT = 10  # private messages of one command from which the hosts are told how long they take
GIVEN_UP_SHOWN = 5


def duration(seconds: float) -> str:
    """'2 分 12 秒', '40 秒', '1 小时 3 分'."""
    s = max(0, round(seconds))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    if h:
        return f"{h} 小时 {m} 分"
    return f"{m} 分 {s} 秒" if m else f"{s} 秒"


def private_pace() -> float:
    """Seconds between two private messages (the configured interval; the jitter averages out)."""
    return kernel_config().send_interval


async def fan_out_note(rows: list[dict[str, Any]], hosts: list[str], *, label: str, game_id: int, self_id: str,
                       now: datetime) -> list[dict[str, Any]]:
    """The hosts' note when ``rows`` send many private messages to others than the hosts: how many
    and the expected time at the pace, counting the private messages already waiting ahead."""
    mine = sum(1 for r in rows if r["target_type"] == "private" and r["target_id"] not in hosts)
    if mine < FAN_OUT or not hosts:
        return []
    ahead = await private_waiting()
    took = (ahead + mine) * private_pace()
    text = (f"【发送】{label} {mine} 条，预计 {duration(took)}发完（QQ 限速，每条约 {private_pace():g} 秒"
            + (f"；前面还有 {ahead} 条在排队" if ahead else "") + "）。发送 /队列 可随时查看进度。")
    out: list[dict[str, Any]] = []
    for h in hosts:
        out += text_rows("private", h, text, game_id=game_id, self_id=self_id, priority=0, now=now)
    return out


def reason(error: str | None) -> str:
    """A given-up send's error in words a host can act on."""
    e = error or ""
    if "1200" in e or "not friend" in e.lower() or "好友" in e:
        return "对方没有加机器人好友，或拒收私信"
    if "Timeout" in e or "timeout" in e:
        return "QQ 没有及时回应，可能已送达"
    if "NoBot" in e:
        return "机器人的 QQ 没有连上"
    return "发送失败（" + (e[:60] or "原因不明") + "）"


async def queue_text(game_id: int, now: datetime) -> str:
    """/队列: what waits for this game, what went out in the last hour, what was given up and why."""
    rows = await Outbox.filter(game_id=game_id, created_at__gte=now - timedelta(hours=24)) \
        .values("target_type", "target_id", "status", "last_error", "created_at", "sent_at")
    waiting = [r for r in rows if r["status"] == "pending"]
    hour = now - timedelta(hours=1)
    sent = [r for r in rows if r["status"] == "sent" and r["sent_at"] is not None and r["sent_at"] >= hour]
    failed = [r for r in rows if r["status"] == "failed"]
    kinds = {"private": "私信", "group": "群消息", "api": "群管理"}
    lines = ["【发送队列】本局："]
    if waiting:
        counts = "、".join(f"{kinds[k]} {n}" for k in kinds if (n := sum(1 for r in waiting if r["target_type"] == k)))
        private = sum(1 for r in waiting if r["target_type"] == "private")
        ahead = await Outbox.filter(status="pending", target_type="private").count()
        lines.append(f"待发 {len(waiting)} 条（{counts}）" + (f"，私信预计 {duration(ahead * private_pace())}发完"
                                                         if private else "") + "。")
    else:
        lines.append("没有待发的消息。")
    lines.append(f"最近一小时已发 {len(sent)} 条。")
    if failed:
        seats = {p.user_id: f"{p.seat}号「{p.alias}」"
                 for p in await Player.filter(game_id=game_id).only("user_id", "seat", "alias")}
        lines.append(f"已放弃 {len(failed)} 条（最近 24 小时），最近的：")
        for r in sorted(failed, key=lambda r: r["created_at"], reverse=True)[:GIVEN_UP_SHOWN]:
            who = seats.get(r["target_id"], f"QQ {r['target_id']}") if r["target_type"] == "private" \
                else f"群 {r['target_id']}"
            lines.append(f"· 发给{who}：{reason(r['last_error'])}")
        lines.append("对方确认后，可让其发送 /我的身份 重新获取私密信息。")
    return "\n".join(lines)
