"""The hosts see the outbound queue: a note when one command sends many private messages, and /队列."""

from datetime import datetime, timezone

from harness import texts

from plugins.kernel.models import Game, Outbox
from plugins.kernel.queueview import duration, reason


def test_durations_read_as_a_host_says_them():
    assert duration(132) == "2 分 12 秒" and duration(40) == "40 秒" and duration(3780) == "1 小时 3 分"


def test_given_up_sends_say_why_in_words_a_host_can_act_on():
    assert "好友" in reason("ActionFailed(retcode=1200)")
    assert "可能已送达" in reason("SendTimeout('timeout')")


async def _start(h, players: int):
    await h.group("1", "/创建 测试局", role="owner")
    for i in range(players):
        await h.group(str(300 + i), f"/报名 玩家{i}")
    return await h.group("1", "/开始")


async def test_a_start_that_sends_many_role_messages_tells_the_hosts_how_long_they_take(harness):
    h = harness
    out = await _start(h, 12)
    note = texts(out, "1")
    assert "【发送】角色私信 12 条，预计" in note and "/队列" in note
    assert "角色私信" not in texts(out, h.group_id)  # the hosts only, in private


async def test_a_start_with_few_players_sends_no_note(harness):
    h = harness
    out = await _start(h, 3)
    assert "【发送】" not in texts(out)


async def test_hosts_see_what_waits_and_what_was_given_up(harness):
    h = harness
    await _start(h, 3)
    g = await Game.get(group_id=h.group_id, status="running")
    now = datetime.now(timezone.utc)
    await Outbox.create(game_id=g.id, target_type="private", target_id="301", text="你的身份", status="failed",
                        last_error="ActionFailed(retcode=1200)", next_try_at=now, created_at=now)
    out = texts(await h.private("1", "/队列"))
    assert "【发送队列】" in out and "已放弃 1 条" in out and "2号「玩家1」" in out and "好友" in out
    refused = texts(await h.group("1", "/队列", role="owner"))
    assert "请私聊" in refused and "玩家1" not in refused
    assert "只有主持" in texts(await h.private("300", "/队列"))
