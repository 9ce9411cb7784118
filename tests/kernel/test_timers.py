"""Phases and deadlines: rows are the truth, re-armed at
start-up; an overdue deadline fires once, never twice."""

import asyncio
from datetime import timedelta

from harness import texts
from nonebot_plugin_apscheduler import scheduler

from plugins.kernel import rearm_all
from plugins.kernel.deadlines import fire_timer
from plugins.kernel.models import CommandLog, Game, Timer
from plugins.kernel.order import utcnow
from plugins.kernel.held import forget


async def _started(h):
    await h.group("1", "/创建 测试局", role="owner")
    await h.group("31", "/报名 甲")
    await h.group("32", "/报名 乙")
    await h.group("1", "/开始")
    g = await Game.get(group_id=h.group_id, status="running")
    return g, await Timer.get(game_id=g.id, key="phase", status="armed")


async def test_overdue_deadline_fires_once_even_when_fired_twice(harness):
    h = harness
    g, t = await _started(h)
    await Timer.filter(id=t.id).update(ends_at=utcnow() - timedelta(minutes=5))
    await asyncio.gather(fire_timer(t.id, set()), fire_timer(t.id, set()))
    out = await h.drain()
    assert texts(out).count("天亮了，第2天") == 1
    assert await CommandLog.filter(game_id=g.id, name="timer:phase").count() == 1
    assert (await Timer.get(id=t.id)).status == "fired"
    # a fresh phase deadline is armed for day 2
    nxt = await Timer.get(game_id=g.id, key="phase", status="armed")
    assert nxt.ends_at > utcnow()


async def test_rearm_at_startup_fires_overdue_deadline_once(harness):
    h = harness
    g, t = await _started(h)
    await Timer.filter(id=t.id).update(ends_at=utcnow() - timedelta(hours=2))
    scheduler.resume()  # the tests keep it paused
    try:
        await rearm_all()  # what start-up does
        for _ in range(100):
            if (await Timer.get(id=t.id)).status == "fired":
                break
            await asyncio.sleep(0.05)
        await rearm_all()  # a second start-up: nothing more fires
        await asyncio.sleep(0.2)
    finally:
        scheduler.pause()
    assert await CommandLog.filter(game_id=g.id, name="timer:phase").count() == 1
    assert texts(await h.drain()).count("天亮了，第2天") == 1


async def test_moved_deadline_does_not_fire_early(harness):
    h = harness
    g, t = await _started(h)
    await fire_timer(t.id, set())  # the old job wakes up, but the deadline is an hour away
    assert (await Timer.get(id=t.id)).status == "armed"
    assert await CommandLog.filter(game_id=g.id, name="timer:phase").count() == 0


async def test_paused_game_does_not_fire_and_resume_rearms_remaining(harness):
    h = harness
    g, t = await _started(h)
    await h.group("1", "/暂停")
    await fire_timer(t.id, set())
    assert (await Timer.get(id=t.id)).status == "paused"
    await h.group("1", "/继续")
    t2 = await Timer.get(id=t.id)
    assert t2.status == "armed"
    assert abs((t2.ends_at - utcnow()).total_seconds() - 3600) < 120


async def test_command_after_deadline_refused_before_the_timer_fires(harness):
    """Engines see the deadline in ctx.phase: a late vote is refused even if
    the firing is still queued behind it."""
    h = harness
    g, t = await _started(h)
    await Timer.filter(id=t.id).update(ends_at=utcnow() - timedelta(seconds=1))
    forget(g.id)  # the row was moved behind the bot's back (time passing): it reads its timers again
    assert "投票已截止" in texts(await h.group("31", "/票 2"))
    assert await CommandLog.filter(game_id=g.id, name="vote").count() == 0


async def test_extend_moves_the_deadline_a_stale_job_does_not_fire(harness):
    h = harness
    g, t = await _started(h)
    await Timer.filter(id=t.id).update(ends_at=utcnow() - timedelta(seconds=5))
    await h.group("1", "/延时 120")  # the host moves it (from the past) two hours on
    await fire_timer(t.id, set())  # the job armed for the old time wakes up
    assert (await Timer.get(id=t.id)).status == "armed"
    assert await CommandLog.filter(game_id=g.id, name="timer:phase").count() == 0
