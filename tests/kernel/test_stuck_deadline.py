"""No stuck deadline: a deadline whose engine call or effects
raise is rolled back, retried with back-off a bounded number of times, then
parked with every host told privately what failed and how to act."""

from datetime import timedelta

import msgspec
import pytest
from demo_game.engine import DemoEngine
from harness import texts

from plugins.gamekit.contract import Outcome, Say
from plugins.kernel import timers
from plugins.kernel.deadlines import fire_timer
from plugins.kernel.models import Audit, CommandLog, Game, Timer
from plugins.kernel.order import utcnow
from plugins.kernel.timers import DEADLINE_BACKOFF


class _Broken:
    """Not an effect the kernel knows: applying it raises."""


@pytest.fixture
def broken_effect(monkeypatch):
    def deadline(self, state, key, ctx):
        return Outcome(msgspec.structs.replace(state, day=99), [Say("group", "这句不该发出"), _Broken()])

    monkeypatch.setattr(DemoEngine, "deadline", deadline)
    return monkeypatch


async def _started(h):
    await h.group("1", "/创建 测试局", role="owner")
    await h.group("1", "/加主持 @2")
    await h.group("31", "/报名 甲")
    await h.group("32", "/报名 乙")
    await h.group("1", "/开始")
    g = await Game.get(group_id=h.group_id, status="running")
    t = await Timer.get(game_id=g.id, key="phase", status="armed")
    await Timer.filter(id=t.id).update(ends_at=utcnow() - timedelta(minutes=1))
    return g, t


async def test_failing_effect_is_rolled_back_retried_then_parked_and_hosts_told(harness, broken_effect):
    h = harness
    retries: list = []
    old_retry = timers.retry
    timers.retry = lambda tid, at: retries.append((tid, at))
    try:
        g, t = await _started(h)
        seq = (await Game.get(id=g.id)).last_seq
        for attempt in range(len(DEADLINE_BACKOFF) + 1):
            await fire_timer(t.id, set())
            row = await Timer.get(id=t.id)
            if attempt < len(DEADLINE_BACKOFF):
                assert row.status == "armed" and row.attempts == attempt + 1
        assert len(retries) == len(DEADLINE_BACKOFF)  # each retry scheduled later, with back-off
        gaps = [(at - utcnow()).total_seconds() for _, at in retries]
        assert gaps == sorted(gaps)
    finally:
        timers.retry = old_retry
    row = await Timer.get(id=t.id)
    assert row.status == "stuck" and "_Broken" in (row.last_error or "")
    game = await Game.get(id=g.id)
    assert game.state["day"] == 1 and game.last_seq == seq  # nothing of the failed work was applied
    assert not await CommandLog.filter(game_id=g.id, name="timer:phase").exists()
    out = await h.drain()
    assert "这句不该发出" not in texts(out)
    for host in ("1", "2"):
        note = texts(out, host)
        assert "【出错】" in note and "/推进" in note and "/延时" in note
    assert "【出错】" not in texts(out, h.group_id)  # hosts only, in private
    actions = [a.action for a in await Audit.filter(game_id=g.id)]
    assert actions.count("deadline_retry") == len(DEADLINE_BACKOFF) and "deadline_stuck" in actions
    # a parked deadline never fires again by itself
    await fire_timer(t.id, set())
    assert (await Game.get(id=g.id)).state["day"] == 1


async def test_host_advances_a_parked_deadline_once_fixed(harness, broken_effect):
    h = harness
    g, t = await _started(h)
    await Timer.filter(id=t.id).update(status="stuck", attempts=4)
    broken_effect.undo()  # the bug is fixed (or the host's /推进 avoids it)
    out = await h.group("1", "/推进")
    assert "天亮了，第2天" in texts(out)
    assert (await Timer.get(id=t.id)).status == "cancelled"
    assert (await Game.get(id=g.id)).state["day"] == 2


async def test_host_delays_a_parked_deadline(harness, broken_effect):
    h = harness
    g, t = await _started(h)
    await Timer.filter(id=t.id).update(status="stuck", attempts=4)
    out = await h.group("1", "/延时 5")
    assert "5 分钟后" in texts(out)
    row = await Timer.get(id=t.id)
    assert row.status == "armed" and row.attempts == 0 and row.ends_at > utcnow()


async def test_engine_bug_in_a_deadline_gets_the_same_treatment(harness, monkeypatch):
    h = harness

    def deadline(self, state, key, ctx):
        raise ZeroDivisionError("bug")

    monkeypatch.setattr(DemoEngine, "deadline", deadline)
    g, t = await _started(h)
    await Timer.filter(id=t.id).update(attempts=len(DEADLINE_BACKOFF))
    await fire_timer(t.id, set())
    assert (await Timer.get(id=t.id)).status == "stuck"
    assert "ZeroDivisionError" in texts(await h.drain(), "1")
