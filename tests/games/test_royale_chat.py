"""Royale through the bot (issue 5): sign-up, start, a night by private
message, the morning post; night deaths stay off /名单 until morning."""

from harness import texts

from plugins.kernel.models import Game, Player


async def test_royale_night_through_the_bot(harness):
    h = harness
    assert "开局了" in texts(await h.group("1", "/创建 大逃杀", role="owner"))
    for i, name in enumerate(["甲", "乙", "丙"]):
        await h.group(str(300 + i), f"/报名 {name}")
    out = await h.group("1", "/开始")
    assert out  # the first day's post
    g = await Game.get(group_id=h.group_id, status="running")
    assert "白天" in texts(await h.group("300", "/状态"))
    # night actions are refused by day and must be private
    assert "请私聊我" in texts(await h.group("300", "/出生 雾雨小镇"))
    out = await h.group("1", "/推进")  # night 1 opens
    assert "第1夜行动开始" in texts(out)
    assert "你出生在「雾雨小镇」" in texts(await h.private("300", "/出生 雾雨小镇"))
    assert "你出生在「雾雨小镇」" in texts(await h.private("301", "/出生 雾雨小镇"))
    assert "已经出生" in texts(await h.private("300", "/出生 雾雨小镇"))
    bag = texts(await h.private("300", "/背包"))
    assert "雾雨小镇" in bag
    # the host puts a player out at night: not shown on the roster until morning
    await h.group("1", "/出局 3 失联")
    assert not (await Player.get(game_id=g.id, seat=3)).alive
    roster = texts(await h.group("300", "/名单"))
    assert "（出局）" not in roster and "存活 3" in roster
    morning = texts(await h.group("1", "/推进"))  # night ends: morning post
    assert "丙" in morning
    roster = texts(await h.group("300", "/名单"))
    assert "3号 丙（出局）" in roster
