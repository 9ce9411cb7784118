"""囚犯游戏's web interrogation room (issue 17 item 3): with room_mode = "web" the two
partners of a room chat live on a page in a real browser (new lines arrive by
server-sent events, without reloading), labelled only 看守 / 囚犯; the transcript is
the relay's (the same engine command and record); after the window the page is
read-only. One bot process and one browser for the module."""

from __future__ import annotations

import json

import pytest
from web_helpers import bot_with_web, chromium, db_rows, login, screenshot_path, web_access
from webclient import Client

GROUP = "6000"
HOST = "10000"
ALIASES = ["青龙", "白虎", "朱雀", "玄武", "麒麟", "凤凰", "貔貅", "饕餮", "穷奇", "梼杌", "混沌", "白泽"]


def qq(seat: int) -> str:
    return str(3000 + seat)


def state(bp) -> dict:
    """The stored state with its texts read back from their rows (a transcript line's text is
    stored once, in its own row; the state holds its mark and ref)."""
    from plugins.kernel.longtexts import MARK

    gid, raw = db_rows(bp, "SELECT id, state FROM game WHERE group_id = ? ORDER BY id DESC", GROUP)[0]
    texts = dict(db_rows(bp, "SELECT ref, text FROM game_text WHERE game_id = ?", gid))

    def back(node):
        if isinstance(node, dict):
            return {k: back(v) for k, v in node.items()}
        if isinstance(node, list):
            return [back(v) for v in node]
        return texts[int(node[len(MARK):])] if isinstance(node, str) and node.startswith(MARK) else node

    return back(json.loads(raw))


@pytest.fixture(scope="module")
async def night(tmp_path_factory):
    """A 12-player game in web room mode, up to the first interrogation window."""
    async with bot_with_web(tmp_path_factory.mktemp("prison-web")) as (bp, ob):
        await ob.group_message(GROUP, HOST, "/创建 囚犯", role="owner")
        await ob.wait_for("私聊我发送 /报名")
        for seat in range(1, 13):
            await ob.private_message(qq(seat), f"/报名 {GROUP} {ALIASES[seat - 1]}")
        await ob.wait_for("报名成功：12号")
        await ob.group_message(GROUP, HOST, "/配置 prep_minutes = 0")
        await ob.wait_for("配置已更新")
        await ob.group_message(GROUP, HOST, '/配置 room_mode = "web"')
        await ob.wait_for("配置已更新", count=2)
        await ob.group_message(GROUP, HOST, "/开始")
        await ob.wait_for("囚犯游戏开始")
        for n, needle in enumerate(("第1天开始", "选房开始", "审讯开始：你在"), start=1):
            await ob.group_message(GROUP, HOST, "/推进")
            await ob.wait_for(needle)
        st = state(bp)
        pair = st["nights"][-1]["pairs"][0]
        yield bp, ob, pair


@pytest.fixture(scope="module")
async def browser(night):
    bp, _, _ = night
    async with chromium(f"http://127.0.0.1:{bp.port}/") as new_page:
        yield new_page


async def test_partners_chat_live_and_the_transcript_is_the_relays(night, browser):
    bp, ob, pair = night
    guard, prisoner = pair["guard"], pair["prisoner"]
    g_link, g_pw = await web_access(ob, qq(guard))
    p_link, p_pw = await web_access(ob, qq(prisoner))
    gp, pp = await browser(), await browser()
    await login(gp, g_link, g_pw)
    await login(pp, p_link, p_pw)
    await gp.wait_for_selector("#room-state:has-text('审讯进行中')")
    await pp.wait_for_selector("#room-state:has-text('审讯进行中')")
    await gp.fill("#say", "你是谁？报上罪名")
    await gp.click("#send")
    # the prisoner's page shows it without reloading, under the label only
    line = pp.locator("#chat li", has_text="你是谁？报上罪名")
    await line.wait_for()
    assert (await line.inner_text()).startswith("看守")
    await pp.fill("#say", "我是无辜的")
    await pp.click("#send")
    await gp.locator("#chat li", has_text="我是无辜的").wait_for()
    chat = await pp.inner_text("#chat")
    for leak in (ALIASES[guard - 1], qq(guard), f"{guard}号"):
        assert leak not in chat
    await pp.evaluate("window.scrollTo(0, 0)")
    await pp.screenshot(path=str(screenshot_path("web-prison.png")))
    # the transcript is kept as the relay keeps it
    lines = state(bp)["nights"][-1]["pairs"][0]["lines"]
    assert [(x["from"], x["seat"], x["text"]) for x in lines] == [
        ("【看守】", guard, "你是谁？报上罪名"), ("【囚犯】", prisoner, "我是无辜的")]
    assert db_rows(bp, "SELECT source FROM command_log WHERE name = 'relay'") == [("web",), ("web",)]
    # a plain private message still reaches the room (the relay's route): it appears on both pages
    await ob.private_message(qq(guard), "从实招来")
    await pp.locator("#chat li", has_text="从实招来").wait_for()
    # the window closes: the page turns read-only by itself
    await ob.group_message(GROUP, HOST, "/推进")
    await gp.wait_for_selector("#room-state:has-text('只能查看')")
    assert await gp.is_disabled("#say")
    # one of the pair may have been sent out as the window closed (the game's seed decides): ask as one still in
    alive = [who for who in (prisoner, guard) if state(bp)["players"][str(who)]["status"] == "alive"]
    link, pw = (p_link, p_pw) if alive[0] == prisoner else (g_link, g_pw)
    c = Client()
    c.login(link, pw)
    status, body = c.act(link, "", "墙后还能说话吗")
    assert status == 409 and "不是审讯时间" in body["replies"][0]
    assert len(state(bp)["nights"][-1]["pairs"][0]["lines"]) == 3  # nothing added


async def test_the_room_page_is_for_the_pair_only(night):
    """Another room's player reads nothing of this room; an unrelated page has no live stream of it."""
    _bp, ob, pair = night
    other = next(s for s in range(1, 13) if s not in (pair["guard"], pair["prisoner"]))
    link, pw = await web_access(ob, qq(other))
    c = Client()
    c.login(link, pw)
    status, view = c.view(link)
    assert status == 200
    assert "你是谁？报上罪名" not in json.dumps(view, ensure_ascii=False)
