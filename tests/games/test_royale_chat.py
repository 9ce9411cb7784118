"""Royale through the bot: sign-up, start, a night by private
message, the morning post; night deaths stay off /名单 until morning."""

import pytest
from harness import texts

from plugins.kernel.models import Game, Player

pytestmark = pytest.mark.usefixtures("leak_scan")  # every group message checked against the game's secrets


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


async def test_royale_map_events_test_mode_and_speech_cards_through_the_bot(harness):
    """Through the bot: the morning map picture and /地图, /事件 in private (host),
    test mode set with /配置 (/申请 → hosts, /发放 → the bag, every post marked), group
    posts counted for the speech cards (白天发言不足1帖: blue)."""
    from pathlib import Path

    from plugins.kernel.models import Card, Outbox

    h = harness
    await h.group("1", "/创建 大逃杀", role="owner")
    await h.private("1", "/配置 rules.test_mode = true")
    await h.private("1", "/配置 rules.speech_cards_short_day = true")  # day 1 is closed early by /推进 below
    for i, name in enumerate(["甲", "乙", "丙"]):
        await h.group(str(400 + i), f"/报名 {name}")
    before = len(h.bot.calls)
    out = await h.group("1", "/开始")
    posts = [t for kind, _, t in out if kind == "group"]
    assert posts and all(t.startswith("【测试赛】") for t in posts if t)
    assert "【事件·月圆之夜】" in texts(out)
    pics = [d["message"] for a, d in h.bot.calls[before:] if a == "send_group_msg"
            and any(seg.type == "image" for seg in d["message"])]
    assert pics, "the morning post carries the map"
    row = await Outbox.filter(image__isnull=False).order_by("-id").first()
    assert Path(row.image).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    before = len(h.bot.calls)
    await h.group("400", "/地图")
    assert any(seg.type == "image" for a, d in h.bot.calls[before:] if a == "send_group_msg" for seg in d["message"])

    # the host plans tomorrow's event in private; a wrong name is refused with the list
    assert "没有「流星」这个事件" in texts(await h.private("1", "/事件 流星"))
    assert "第2天的事件：凛冬已至" in texts(await h.private("1", "/事件 凛冬已至"))
    log = texts(await h.private("1", "/日志"))
    assert "主持（1） /事件 凛冬已至" in log and "流星" not in log  # refused commands change nothing

    # test mode: ask and grant
    assert "转告导演" in texts(await h.private("401", "/申请 急救包"))
    assert "已把「急救包」放进 乙 的背包" in texts(await h.group("1", "/发放 2 急救包"))
    assert "没有「光剑」" in texts(await h.group("1", "/发放 2 光剑"))

    # two of three speak by day: the silent one gets a blue card at nightfall
    await h.group("400", "大家好")
    await h.group("401", "我来了")
    out = await h.group("1", "/推进")
    assert "第1夜行动开始" in texts(out)
    # every post in the group says it is a test: the kernel's own too (the card, /推进, /公告)
    out += await h.group("1", "/公告 今晚加油")
    assert all(t.startswith("【测试赛】") for kind, _, t in out if kind == "group" and t), [t for _, _, t in out]
    g = await Game.get(group_id=h.group_id, status="running")
    cards = await Card.filter(game_id=g.id)
    assert [(c.seat, c.color) for c in cards] == [(3, "blue")]
    assert "第1天白天发言不足1帖" in cards[0].reason

    # the host ends the test game: its records are wiped, the audit log keeps the game
    from plugins.kernel.models import Audit

    out = await h.group("1", "/结束 测试完毕")
    assert "【测试赛】测试赛：记录不计入排名" in texts(out)
    g = await Game.get(id=g.id)
    assert g.status == "ended" and g.state["wiped"] and g.state["deaths"] == []
    assert all(p["items"] == [] for p in g.state["players"].values())
    assert await Audit.exists(game_id=g.id, action="end")


async def test_create_test_game_and_a_night_out_stays_secret_until_morning(harness):
    """测试: 「本场开放测试赛」 — /创建 大逃杀 测试赛 opens a test game (no /配置 needed); words that are
    no option are refused. 公示: a host's /出局 written in the group at night is not answered there
    (night deaths are posted the next morning); the hosts are told privately."""
    h = harness
    out = texts(await h.group("1", "/创建 大逃杀 正式赛", role="owner"))
    assert "测试赛" in out and not await Game.exists(group_id=h.group_id)
    out = texts(await h.group("1", "/创建 测试局 快速", role="owner"))  # a game that takes no option
    assert "不带选项" in out and not await Game.exists(group_id=h.group_id)
    out = await h.group("1", "/创建 大逃杀 测试赛", role="owner")
    assert "【大逃杀】开局了（测试赛）" in texts(out)
    g = await Game.get(group_id=h.group_id, status="signup")
    assert g.settings["rules"]["test_mode"] is True
    for i, name in enumerate(["甲", "乙", "丙"]):
        await h.group(str(500 + i), f"/报名 {name}")
    assert all(t.startswith("【测试赛】") for kind, _, t in await h.group("1", "/开始") if kind == "group" and t)
    await h.group("1", "/推进")
    await h.private("500", "/出生 雾雨小镇")
    out = await h.group("1", "/出局 3 失联")
    assert [t for kind, _, t in out if kind == "group"] == []
    assert "已判 3号「丙」出局：失联" in texts(out, "1")
    assert "你出局了" in texts(out, "502")
    assert "（出局）" not in texts(await h.group("500", "/名单"))
    morning = texts(await h.group("1", "/推进"))
    assert "昨夜出局：丙（判罚）" in morning
    # by day the ruling is public at once: the group hears it and /名单 shows it
    out = await h.group("1", "/出局 2 失联")
    assert "已判 2号「乙」出局：失联" in texts(out, h.group_id)


async def test_a_day_closed_at_once_gives_no_speech_card(harness):
    """The rehearsal room's 大逃杀 opening (/开始, then /推进 at once, nobody had said a word) gave all
    four players a blue card. 违规判定: 「白天发言不足1帖」 counts a day of discussion; the host closed
    day 1 before anyone could speak, so nobody is carded (RULES.md rule 15)."""
    from plugins.kernel.models import Card

    h = harness
    sent = await h.group("1", "/创建 大逃杀", role="owner")
    for n, alias in enumerate(["甲", "乙", "丙", "丁"], 1):
        sent += await h.group(str(600 + n), f"/报名 {alias}")
    sent += await h.group("1", "/开始")
    sent += await h.group("1", "/推进")
    for n, place in ((1, "雾雨小镇"), (2, "动物园"), (3, "果园")):
        sent += await h.private(str(600 + n), f"/出生 {place}")
    sent += await h.private("601", "/背包")
    assert "第1夜" in texts(sent) and "位置：雾雨小镇" in texts(sent)
    g = await Game.get(group_id=h.group_id, status="running")
    assert await Card.filter(game_id=g.id).count() == 0
    assert "蓝牌" not in texts(sent)
