"""A deadline passed: apply it once, in arrival order. A deadline whose work
fails is rolled back, retried with back-off, then parked with the hosts told
(the game never silently stops)."""

from __future__ import annotations

from datetime import datetime, timedelta

from nonebot import get_driver
from nonebot.log import logger

from plugins.gamekit.contract import HOSTS, Ignored, Rejected

from . import timers
from .models import Timer
from .order import utcnow
from .origin import Handling, Origin
from .unit import in_game
from .work import Work


async def _timer(work: Work, timer_id: int) -> Timer | None:
    """The game's open timer ``timer_id`` (None: not open any more)."""
    return next((t for t in await work.open_timers() if t.id == timer_id), None)


async def fire_timer(timer_id: int, superusers: set[str]) -> None:
    """A deadline passed: apply it once. A timer that was moved, paused, cancelled or already fired
    is skipped. If its work fails, nothing is written and it is retried with back-off, then parked
    with the hosts told (the game never silently stops)."""
    t = await Timer.get_or_none(id=timer_id)
    if t is None or t.status != "armed":
        return
    now = utcnow()

    async def run(work: Work) -> None:
        current = await _timer(work, timer_id)
        if current is None or current.status != "armed" or now + timedelta(seconds=1) < current.ends_at:
            return  # paused, cancelled, fired, or moved later (the new job will fire it)
        current.status, current.fired_at = "fired", now
        work.ws.guard(Timer, {"id": timer_id, "status": "armed"}, {"status": "fired", "fired_at": now})  # once
        if work.game.status != "running":
            return
        await work.step("deadline", origin=Origin("", "timer"), now=now, key=t.key)

    try:
        await in_game(t.game_id, Handling(Origin("", "timer"), now), superusers, run)  # in the game's arrival order
    except Ignored:
        pass
    except Exception as exc:
        logger.opt(exception=exc).error(f"timer {timer_id} ({t.key}) failed")
        await _deadline_failed(t.game_id, timer_id, superusers, exc, now)


async def _deadline_failed(game_id: int, timer_id: int, superusers: set[str], exc: Exception, now: datetime) -> None:
    error = str(exc) if isinstance(exc, Rejected) else f"{type(exc).__name__}: {exc}"
    retry_at: datetime | None = None

    async def run(work: Work) -> None:
        nonlocal retry_at
        t = await _timer(work, timer_id)
        if t is None or t.status != "armed":
            return
        t.attempts += 1
        t.last_error = error[:500]
        label = work.game.phase_label or t.key
        if t.attempts <= len(timers.DEADLINE_BACKOFF):
            retry_at = now + timedelta(seconds=timers.DEADLINE_BACKOFF[t.attempts - 1])
            work.save(t, "attempts", "last_error")
            work.audit("kernel", "deadline_retry", f"{label}：第 {t.attempts} 次出错，稍后重试（{error[:200]}）", at=now)
            return
        t.status = "stuck"
        work.timer_changed(t, "attempts", "last_error", "status")
        work.audit("kernel", "deadline_stuck", f"{label}：{error[:200]}", at=now)
        work.say(
            HOSTS,
            f"【出错】「{label}」到时后的处理连续 {t.attempts} 次出错，游戏停在这一步，没有任何改动。"
            f"错误：{error[:200]}\n请发送 /推进 重试这一步，或 /延时 <分钟> 过一会儿再自动处理；仍出错请联系机器人管理员（错误已记录）。",
            None,
        )

    try:
        await in_game(game_id, Handling(Origin("", "timer"), now), superusers, run)
    except Ignored:
        return
    if retry_at is not None:
        timers.retry(timer_id, retry_at)


async def fire_job(timer_id: int) -> None:
    """The scheduler's job (named by reference in :mod:`.timers`)."""
    await fire_timer(timer_id, set(get_driver().config.superusers))
