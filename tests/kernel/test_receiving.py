"""Receiving: duplicates handled once, arrival order kept
under a burst, a sequence number and a sub-second receive time per command."""

import asyncio

from harness import group_payload, texts
from nonebot.adapters.onebot.v11 import Adapter
from nonebot.message import handle_event

from plugins.kernel.models import CommandLog, Game
from plugins.kernel.routing import events


async def _started(h, n):
    await h.group("1", "/创建 测试局", role="owner")
    for i in range(n):
        await h.group(str(20000 + i), f"/报名 p{i + 1}")
    await h.group("1", "/开始")
    return await Game.get(group_id=h.group_id, status="running")


async def test_same_event_twice_is_handled_once(harness):
    h = harness
    g = await _started(h, 3)
    payload = group_payload(h.bot.self_id, h.group_id, "20000", "/票 2", message_id=777001)
    first = await h.event(payload)
    second = await h.event(dict(payload))
    assert "投给 2号" in texts(first)
    assert second == []
    assert await CommandLog.filter(game_id=g.id, name="vote").count() == 1


async def test_redelivery_after_restart_is_still_ignored(harness):
    """The in-memory filter is lost on restart; the command log's key is not."""
    h = harness
    g = await _started(h, 3)
    payload = group_payload(h.bot.self_id, h.group_id, "20001", "/票 1", message_id=777002)
    await h.event(payload)
    events._SEEN.clear()  # as after a restart
    assert await h.event(dict(payload)) == []
    assert await CommandLog.filter(game_id=g.id, name="vote").count() == 1


async def test_same_message_id_from_another_peer_is_not_a_duplicate(harness):
    h = harness
    g = await _started(h, 3)
    await h.event(group_payload(h.bot.self_id, h.group_id, "20000", "/票 2", message_id=777003))
    await h.private("20001", "/密 你好", message_id=777003)
    assert await CommandLog.filter(game_id=g.id).filter(name__in=["vote", "secret"]).count() == 2


async def test_burst_of_200_concurrent_commands_keeps_arrival_order(harness):
    h = harness
    g = await _started(h, 200)
    events = [
        Adapter.json_to_event(group_payload(h.bot.self_id, h.group_id, str(20000 + i), "/票 1", message_id=900000 + i))
        for i in range(200)
    ]
    await asyncio.gather(*(handle_event(h.bot, ev) for ev in events))
    logs = await CommandLog.filter(game_id=g.id, name="vote").order_by("seq")
    assert len(logs) == 200
    assert [log.user_id for log in logs] == [str(20000 + i) for i in range(200)]
    seqs = [log.seq for log in logs]
    assert seqs == list(range(seqs[0], seqs[0] + 200))
    times = [log.received_at for log in logs]
    assert times == sorted(times)
    assert any(t.microsecond for t in times)  # finer than OneBot's whole seconds
    await h.drain()


async def test_a_handled_message_is_not_checked_against_the_notice_matchers(harness, monkeypatch):
    """NoneBot checks each matcher of a priority in a task of its own for every event: the join
    request and member notice matchers come after the router, which stops a handled message."""
    import nonebot.message as nm

    checked = []
    real = nm._check_matcher

    async def recorded(Matcher, *args, **kwargs):
        checked.append(Matcher.type)
        return await real(Matcher, *args, **kwargs)

    monkeypatch.setattr(nm, "_check_matcher", recorded)
    out = await harness.private("31", "/在吗")
    assert "在。" in texts(out)
    assert checked == ["message"]
