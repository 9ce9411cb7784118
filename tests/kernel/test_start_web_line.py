"""At /开始, when the bot has a public address for pages and the game has one enabled, each
player's start message ends with one line telling how to get the page; no message is added.
Without the address, or for a game without a page (联赛, 囚犯 without room_mode = "web"),
the start is unchanged."""

from __future__ import annotations

import pytest
from harness import texts

from plugins.kernel.commands import web as web_cmd

LINE = "本局有网页：私聊我发送 /网页 获取你的链接和密码。"
HOST = "1"
MAFIA_VARIANT = """[counts]
yin_jian = 0
lianhe_jian = 0
lianhe_dan = 0
yi_hun = 0
du_dan = 0
fu_huo = 0
di_lei = 0
hei_dan = 0
mo_jing = 0
gong_bing = 0
huan_hun = 0
you_xia = 6
an_dan = 1
gu_sha = 1
lianhe_sha = 2
du_sha = 3

[[rounds]]
votes = 2
out = 1
posts = { "孤杀" = 1 }"""


def qq(n: int) -> str:
    return str(3000 + n)


@pytest.fixture
def web_on(monkeypatch):
    monkeypatch.setitem(web_cmd.SITE, "url", "https://games.example.com")


async def mafia88_start(h) -> list[tuple[str, str, str]]:
    await h.group(HOST, "/创建 88人场", role="owner")
    await h.group(HOST, "/配置 " + MAFIA_VARIANT, role="owner")
    for n in range(1, 14):
        await h.private(qq(n), f"/报名 {h.group_id} 侠{n}")
    return await h.group(HOST, "/开始", role="owner")


async def prison_start(h, room_mode: str) -> list[tuple[str, str, str]]:
    await h.group(HOST, "/创建 囚犯", role="owner")
    await h.group(HOST, f'/配置 room_mode = "{room_mode}"', role="owner")
    for n in range(1, 13):
        await h.private(qq(n), f"/报名 {h.group_id} 囚{n}")
    return await h.group(HOST, "/开始", role="owner")


def privately(sent, user: str) -> list[str]:
    return [t for kind, target, t in sent if kind == "private" and target == user]


async def test_mafia88_role_message_ends_with_the_page_line(harness, web_on):
    sent = await mafia88_start(harness)
    for n in range(1, 14):
        mine = privately(sent, qq(n))
        assert len(mine) == 1, mine  # the role message only: nothing added to QQ's pace
        assert mine[0].rstrip().endswith(LINE)
        assert "你的身份" in mine[0]
    assert LINE not in texts([m for m in sent if m[0] == "group"])  # said privately, once per player


async def test_mafia88_without_a_public_address_the_start_is_unchanged(harness):
    sent = await mafia88_start(harness)
    assert LINE not in texts(sent)
    assert all(len(privately(sent, qq(n))) == 1 for n in range(1, 14))


async def test_prison_only_when_its_page_is_enabled(harness, web_on):
    sent = await prison_start(harness, "group")
    assert "你是【" in texts(sent, qq(1)) and LINE not in texts(sent)


async def test_prison_with_the_web_room(harness, web_on):
    sent = await prison_start(harness, "web")
    for n in range(1, 13):
        mine = privately(sent, qq(n))
        assert len(mine) == 1 and mine[0].rstrip().endswith(LINE), mine


async def test_royale_without_private_start_messages_says_it_once_in_the_group(harness, web_on):
    """大逃杀 sends nobody a private message at /开始: its start post in the group carries the
    line (it names no player), and no private message is added."""
    h = harness
    await h.group(HOST, "/创建 大逃杀", role="owner")
    for n, name in enumerate(["甲", "乙", "丙"], 1):
        await h.group(qq(n), f"/报名 {name}")
    sent = await h.group(HOST, "/开始", role="owner")
    assert not [m for m in sent if m[0] == "private" and m[1] != HOST]
    group = [t for kind, _, t in sent if kind == "group"]
    assert sum(t.count(LINE) for t in group) == 1
    assert "大逃杀开始" in next(t for t in group if LINE in t)


async def test_league_has_no_page(harness, web_on):
    h = harness
    await h.group(HOST, "/创建 联赛", role="owner")
    for n in range(1, 15):
        await h.group(qq(n), f"/报名 选手{n}")
    sent = await h.group(HOST, "/开始", role="owner")
    assert sent and LINE not in texts(sent)
