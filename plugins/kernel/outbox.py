"""The one outbound queue. Every message the bot sends is a row first.

One worker sends rows oldest first, keeping order per recipient, taking
games in turns (one game's backlog never holds up another's), pacing
private messages globally (QQ punishes bursts) and group messages on their
own pace, retrying failures with back-off, giving a message up after
``send_max_attempts`` (and telling the hosts), and pausing the whole queue
after ``send_pause_after`` failures in a row.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta, timezone
from functools import partial
from typing import Any

from nonebot.log import logger

from .background import Coalesced
from .config import KernelConfig
from .messages import text_rows
from .metrics import send_given_up
from .models import Host, Outbox
from .order import utcnow
from .outbox_heads import Head, first_head, ranked_heads, replies_after, vacuum_now_and_then
from .store import current
from .writeset import WriteSet

SCRUBBED = "（已发送；内容含密码，不保留）"
IDLE = 30.0
TARGET_TYPES = ("private", "group", "api")
UNPACED_IN_FLIGHT = 8  # sends to different recipients at once when a type has no pace


PARKED: set[str] = set()
"""Groups the bot was removed from: their queued posts wait there (status "parked"), neither sent
nor given up, until the bot is back in the group."""


async def park(group: str) -> None:
    """The bot was removed from ``group``: its queued posts (and those queued later) wait."""
    PARKED.add(group)
    await Outbox.filter(status="pending", target_type__in=("group", "api"), target_id=group).update(status="parked")


async def unpark(group: str) -> bool:
    """The bot is back in ``group``: what waited there goes out. False when nothing waited."""
    PARKED.discard(group)
    return await Outbox.filter(status="parked", target_id=group).update(status="pending") > 0


async def load_parked() -> None:
    """At start-up: the groups that have posts waiting."""
    PARKED.update(str(g) for g in await Outbox.filter(status="parked").distinct().values_list("target_id", flat=True))


class NoBot(Exception):
    """No OneBot connection: wait, this is not a failed send."""


class SendTimeout(Exception):
    """The OneBot implementation did not answer in time: the message may have
    been delivered (a crash between QQ's answer and our "sent" mark can also
    resend once)."""


Send = Callable[..., Awaitable[None]]  # (self_id, type, target, text, *, at_all=False)


async def _write_sent(sent: list[tuple[list[Head], datetime]]) -> None:
    """Sent: status, time and attempts (a web password's text cleared); a turn of the loop's sends in one write."""
    ws = WriteSet()
    for group, now in sent:
        for r in group:
            values: dict[str, Any] = {"status": "sent", "sent_at": now, "attempts": r.attempts + 1}
            ws.update(Outbox, r.id, values | {"text": SCRUBBED} if r.scrub else values)
    await current().write(ws)
    vacuum_now_and_then(sum(len(group) for group, _ in sent))


async def park_rows(rows: list[Head]) -> None:
    """Rows queued for a group the bot was removed from: they wait with the rest (``park``)."""
    ws = WriteSet()
    for r in rows:
        ws.update(Outbox, r.id, {"status": "parked"})
    await current().write(ws)


async def _wait(event: asyncio.Event, timeout: float) -> None:
    """Until ``event`` is set or ``timeout`` seconds passed (then it is set). ``asyncio.wait_for``
    on Python 3.11 wraps the wait in a task of its own: one more turn of the event loop each time
    the queue wakes, and a busy loop's turns are what a vote beside a royale night waits for."""
    if event.is_set():
        return
    timer = asyncio.get_running_loop().call_later(timeout, event.set)
    try:
        await event.wait()
    finally:
        timer.cancel()


class OutboxWorker:
    def __init__(
        self,
        cfg: KernelConfig,
        send: Send,
        *,
        clock: Callable[[], datetime] = utcnow,
        rng: random.Random | None = None,
    ):
        self.cfg = cfg
        self.send = send
        self.clock = clock
        self.rng = rng or random.Random()
        self.free_at: dict[str, datetime] = {}
        self.failures_in_a_row = 0
        self.paused_until: datetime | None = None
        self.nobot_until: datetime | None = None
        self.inflight: dict[tuple[str, str], asyncio.Future] = {}  # until sent and marked sent
        self.sending: set[tuple[str, str]] = set()  # until sent: what ``UNPACED_IN_FLIGHT`` counts
        self.slot = asyncio.Event()  # a send has landed
        self.served: dict[int | None, int] = {}  # game id -> the turn it was last served
        self.turn = 0
        self.wake = asyncio.Event()
        self.marks: Coalesced[tuple[list[Head], datetime]] = Coalesced(_write_sent)
        self._task: asyncio.Task | None = None

    def interval(self, target_type: str) -> float:
        if target_type in ("group", "api"):
            return self.cfg.group_send_interval
        j = self.cfg.send_jitter
        return max(0.0, self.cfg.send_interval + self.rng.uniform(-j, j))

    async def tick(self) -> float:
        """Start sending the next message (with no pace: the next few, to different
        recipients); return seconds to wait before the next tick. A send still unanswered
        after ``send_wait`` seconds goes on in the background while other recipients'
        messages continue (one slow recipient never blocks the queue)."""
        now = self.clock()
        if self.paused_until and now < self.paused_until:
            return (self.paused_until - now).total_seconds()
        if self.nobot_until and now < self.nobot_until:
            return (self.nobot_until - now).total_seconds()
        # the oldest pending message of each recipient (order is kept per recipient), chosen by
        # the database with games in turns, however many recipients wait
        epoch = datetime.min.replace(tzinfo=timezone.utc)
        open_types = [t for t in TARGET_TYPES if self.free_at.get(t, epoch) <= now]
        unpaced = all(self._unpaced(t) for t in open_types)
        room = UNPACED_IN_FLIGHT - len(self.sending) if unpaced else 1
        rows, later = await self._fair_heads(open_types, now, max(1, room)) if open_types else ([], None)
        if PARKED and any(r.target_id in PARKED and r.target_type != "private" for r in rows):
            await park_rows([r for r in rows if r.target_id in PARKED and r.target_type != "private"])
            return 0.0
        if not rows:
            return await self._next_due(now, epoch, open_types, later)
        for row in rows:
            batch = await replies_after(row, now)
            recipient = (row.target_type, row.target_id)
            self.sending.add(recipient)
            task = asyncio.ensure_future(self._deliver(row, batch, now))
            self.inflight[recipient] = task
            task.add_done_callback(partial(self._landed, recipient))
            pace = self.interval(row.target_type)
            self.free_at[row.target_type] = now + timedelta(seconds=pace)
            if not unpaced:
                await asyncio.wait({task}, timeout=self.cfg.send_wait)
            elif len(self.sending) >= UNPACED_IN_FLIGHT:  # until one lands (not until it is marked sent:
                self.slot.clear()  # beside a royale night that wait held up every other game's answers)
                await _wait(self.slot, self.cfg.send_wait)
        if unpaced and len(rows) < room:  # every head due now is on its way: wait for a wake-up (new
            return await self._next_due(now, epoch, open_types, later)  # rows, a send landed) or the next due
        return 0.0

    def _landed(self, recipient: tuple[str, str], _task: object) -> None:
        """A send's task is over (sent and marked, failed, or cancelled): the recipient's next
        message may go. The wake-up comes after it is out of ``inflight``, or a tick woken
        earlier would still leave the recipient out and, nothing else to do, go idle."""
        self.inflight.pop(recipient, None)
        self._sent(recipient)
        self.wake.set()

    def _sent(self, recipient: tuple[str, str]) -> None:
        self.sending.discard(recipient)
        self.slot.set()

    def _unpaced(self, target_type: str) -> bool:
        if target_type in ("group", "api"):
            return self.cfg.group_send_interval == 0
        return self.cfg.send_interval == 0 and self.cfg.send_jitter == 0

    async def _fair_heads(self, types: list[str], now: datetime, limit: int) -> tuple[list[Head], datetime | None]:
        """The next ``limit`` rows to send: replies before announcements, games in turns (the
        game served least recently first), then the oldest. One game's backlog (a royale
        night's 60 replies) never holds up another's (a vote burst's confirmations). And when
        the earliest head of ``types`` not yet due will be."""
        ranked, later = await ranked_heads(types, now, list(self.inflight), limit)
        ranked.sort(key=lambda rr: (rr[1].priority, rr[0], self.served.get(rr[1].game_id, 0), rr[1].id))
        rows = [row for _, row in ranked[:limit]]
        for row in rows:
            self.turn += 1
            self.served[row.game_id] = self.turn
        return rows, later

    async def _next_due(self, now: datetime, epoch: datetime, asked: list[str], later: datetime | None) -> float:
        """Nothing more to send now: seconds until the next head is due. A type whose pace has
        passed waits for its earliest head (for ``asked``, the open types, the heads' query told:
        ``later``); one still paced waits for the later of the two."""
        due: list[float] = []
        paced = [t for t in TARGET_TYPES if self.free_at.get(t, epoch) > now]
        groups = [[t for t in TARGET_TYPES if t not in paced]] + [[t] for t in paced]
        for types in groups:  # no query when no type is paced (an unpaced queue, or idle)
            if not types:
                continue
            if types == asked:
                if later is not None:
                    due.append((later - now).total_seconds())
                continue
            head = await first_head(types, None, list(self.inflight), "next_try_at, id")
            if head is not None:
                free = max(self.free_at.get(t, epoch) for t in types)
                due.append((max(head.next_try_at, free) - now).total_seconds())
        if due:
            return max(0.01, min(due))
        return 0.5 if self.inflight else IDLE

    async def _deliver(self, row: Head, batch: list[Head], now: datetime) -> None:
        text = "\n".join([row.text] + [r.text for r in batch])
        try:
            extra = {k: v for k, v in (("at_all", row.at_all), ("image", row.image)) if v}
            await self.send(row.self_id, row.target_type, row.target_id, text, **extra)
        except NoBot:
            self.nobot_until = now + timedelta(seconds=2)
        except Exception as exc:
            try:
                await self._failed(row, now, exc)
            except Exception as e2:
                logger.opt(exception=e2).error("outbound queue: recording a failure failed")
        else:
            self.failures_in_a_row = 0
            self._sent((row.target_type, row.target_id))
            await self.marks.add(([row, *batch], now))

    async def _failed(self, row: Head, now: datetime, exc: Exception) -> None:
        attempts = row.attempts + 1
        options = json.loads(row.text) if row.target_type == "api" else {}
        ws = WriteSet()
        if options.get("once"):  # a best effort: drop it quietly
            ws.update(Outbox, row.id, {"status": "failed", "attempts": attempts, "last_error": repr(exc)[:500]})
            await current().write(ws)
            return
        timed_out = isinstance(exc, (SendTimeout, asyncio.TimeoutError))
        timeouts = row.timeouts + (1 if timed_out else 0)
        self.failures_in_a_row += 1
        logger.warning(f"send failed ({attempts}x) to {row.target_type} {row.target_id}: {exc!r}")
        # a timeout may have been delivered: resend it once at most
        if attempts >= self.cfg.send_max_attempts or timeouts >= 2:
            send_given_up(row.target_type)
            ws.update(Outbox, row.id, {"status": "failed", "attempts": attempts, "timeouts": timeouts,
                                       "last_error": repr(exc)[:500]})
            where = f"{'群' if row.target_type == 'group' else 'QQ'} {row.target_id}"
            fallback = options.get("fallback")
            if fallback:
                ws.outbox += text_rows(fallback[0], fallback[1], fallback[2], game_id=row.game_id,
                                       self_id=row.self_id, priority=0, now=now)
            elif timeouts:
                await self._tell_hosts(ws, row, f"【发送超时】发给{where}的消息 QQ 没有及时回应（{timeouts} 次），可能已送达，"
                                       "为免重复不再重发。请向对方确认；若没收到，请让其发送 /我的身份 重新获取私密信息。", now)
            else:
                await self._tell_hosts(ws, row, f"【发送失败】发给{where}的消息重试 {attempts} 次仍失败，已放弃。"
                                       "请确认对方已加机器人好友，并让其发送 /我的身份 重新获取私密信息。", now)
        else:
            delay = self.cfg.send_backoff * (2 ** (attempts - 1))
            ws.update(Outbox, row.id, {"attempts": attempts, "timeouts": timeouts,
                                       "next_try_at": now + timedelta(seconds=delay), "last_error": repr(exc)[:500]})
        if self.failures_in_a_row >= self.cfg.send_pause_after:
            self.paused_until = now + timedelta(seconds=self.cfg.send_pause_seconds)
            self.failures_in_a_row = 0
            logger.error(f"outbound queue paused for {self.cfg.send_pause_seconds}s after repeated failures")
            await self._tell_hosts(
                ws, row,
                f"【发送暂停】连续多次发送失败，发送队列暂停 {int(self.cfg.send_pause_seconds)} 秒后自动恢复，"
                "期间的消息不会丢失。若持续失败，请检查 QQ 客户端（NapCat）是否在线或被风控。",
                now,
            )
        await current().write(ws)

    async def _tell_hosts(self, ws: WriteSet, row: Head, text: str, now: datetime) -> None:
        if row.game_id is None:
            return
        for h in await Host.filter(game_id=row.game_id):
            if not (row.target_type == "private" and row.target_id == h.user_id):
                ws.outbox += text_rows("private", h.user_id, text, game_id=row.game_id, self_id=row.self_id,
                                       priority=0, now=now)

    async def run(self) -> None:
        while True:
            self.wake.clear()  # before the tick: a wake-up during its queries is not lost
            try:
                delay = await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                logger.opt(exception=exc).error("outbound queue tick failed")
                delay = 5.0
            if delay > 0:
                await _wait(self.wake, delay)

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self.run())

    async def stop(self) -> None:
        for t in list(self.inflight.values()):
            t.cancel()
        if self._task:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
            self._task = None
