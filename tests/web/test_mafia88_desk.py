"""88人场's post desk (issue 17 item 4) in a real browser: the 孤杀 sees the role text and
the round's duties, writes a post with the figures /完成 checks shown live, hands it in;
the host's desk lists it with figures and rejects it with a reason, which the author's
page then shows. A player cannot use a host's button or post without the right. One bot
process and one browser for the module."""

from __future__ import annotations

import json

import pytest
from web_helpers import bot_with_web, chromium, db_rows, login, screenshot_path, web_access
from webclient import Client

GROUP = "7000"
HOST = "10000"
ALIASES = ["青锋", "白羽", "赤霄", "墨竹", "流云", "寒星", "听雨", "归雁", "惊鸿", "问剑", "长风", "明月", "孤舟"]
VARIANT = """/配置 [counts]
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

[limits]
post_min = 40

[options]
first_post_aliases = 0

[[rounds]]
votes = 2
out = 1
posts = { "孤杀" = 1 }

[[rounds]]
votes = 1
out = 1
posts = { "杀" = 1 }"""
POST = ("月黑风高的夜里，孤舟独行在长河之上。远处的灯火一盏盏熄灭，只剩下风声和水声。"
        "他握紧手中的剑，想起多年前的誓言，终于决定今夜了结这一切。")


def qq(seat: int) -> str:
    return str(2000 + seat)


@pytest.fixture(scope="module")
async def game(tmp_path_factory):
    async with bot_with_web(tmp_path_factory.mktemp("mafia88-web")) as (bp, ob):
        await ob.group_message(GROUP, HOST, "/创建 88人场", role="owner")
        await ob.wait_for("88人场")
        await ob.group_message(GROUP, HOST, VARIANT)
        await ob.wait_for("配置已更新")
        for seat in range(1, 14):
            await ob.private_message(qq(seat), f"/报名 {GROUP} {ALIASES[seat - 1]}")
        await ob.wait_for("报名成功：13号")
        await ob.group_message(GROUP, HOST, "/开始")
        await ob.wait_for("【第1轮】")
        st = json.loads(db_rows(bp, "SELECT state FROM game WHERE group_id = ?", GROUP)[0][0])
        roles = {int(s): p for s, p in st["players"].items()}
        yield bp, ob, roles


@pytest.fixture(scope="module")
async def browser(game):
    bp, _, _ = game
    async with chromium(f"http://127.0.0.1:{bp.port}/") as new_page:
        yield new_page


async def test_write_hand_in_and_judge_a_post(game, browser):
    bp, ob, roles = game
    author = next(s for s, p in roles.items() if p["role"] == "gu_sha")
    code = roles[author]["code"]
    target = next(s for s in roles if s != author)
    link, pw = await web_access(ob, qq(author))
    page = await browser()
    await login(page, link, pw)
    await page.wait_for_selector("#role:has-text('孤杀')")
    assert "本轮你可以为「孤杀」出贴" in await page.inner_text("#duty")
    assert "交贴截止" in await page.inner_text("#dues")
    await page.fill("#text", "太短了。")
    await page.wait_for_selector("#problems li:has-text('不足 40')")
    await page.fill("#text", POST + "“引用一句很长很长很长很长很长很长很长很长很长很长很长的话”")
    await page.wait_for_selector("#problems li:has-text('引用占')")  # the quote share, as /完成 checks it
    await page.fill("#text", POST)
    await page.wait_for_selector("#figures:has-text('可以交贴')")
    assert "简体：是" in await page.inner_text("#figures")
    await page.fill("#code", code)
    await page.select_option("#target", str(target))
    await page.screenshot(path=str(screenshot_path("web-mafia88.png")), full_page=True)  # the editor and its figures
    await page.click("#btn-submit")
    await page.wait_for_selector("#answer:has-text('杀帖已交（#1）')")
    await page.wait_for_selector("#mine li:has-text('待审')")
    assert db_rows(bp, "SELECT name, source FROM command_log WHERE name IN ('post', 'done')") == [("post", "web"), ("done", "web")]

    # the host's desk: the pending post with its figures; reject it with a reason
    host_link, host_pw = await web_access(ob, HOST)
    desk = await browser({"width": 1000, "height": 900})
    await login(desk, host_link, host_pw)
    item = desk.locator("#desk li[data-post='1']")
    await item.wait_for()
    assert "待审" in await item.inner_text() and "字数" in await item.inner_text()
    await item.locator("input").fill("正文离题")
    await desk.screenshot(path=str(screenshot_path("web-mafia88-host.png")))  # the pending post, its buttons
    await item.locator("button.reject").click()
    await desk.wait_for_selector("#answer:has-text('#1 已退回')")
    await desk.click("#btn-steps")
    await desk.wait_for_selector("#steps:has-text('结算')")  # (wait_for_function would need eval: the CSP forbids it)
    # the author's page shows the state and the reason
    await page.reload()
    await page.wait_for_selector("#mine li:has-text('退回待重写')")
    assert "退回理由：正文离题" in await page.inner_text("#mine")


async def test_a_player_cannot_judge_or_post_without_the_right(game):
    bp, ob, roles = game
    plain = next(s for s, p in roles.items() if p["role"] == "you_xia")
    link, pw = await web_access(ob, qq(plain))
    c = Client()
    c.login(link, pw)
    before = db_rows(bp, "SELECT count(*) FROM command_log")
    status, body = c.act(link, "通过", "1")
    assert status == 409 and "网页上没有这个操作" in body["replies"][0]
    status, text = c.request("POST", link + "api/act", json.dumps({"word": "通过", "rest": "1", "host": True}).encode(),
                             {"Content-Type": "application/json", "X-CSRF-Token": c.csrf})
    assert status == 409 and "只有哨子" in text  # the game's own word for its hosts
    status, body = c.act(link, "出贴", f"X 1 {POST}")
    assert status == 409 and "贴杀权" in body["replies"][0]
    assert db_rows(bp, "SELECT count(*) FROM command_log") == before
    status, view = c.view(link)
    assert view["page"]["desk"] is None  # no host desk, no other player's post
    assert "正文离题" not in json.dumps(view, ensure_ascii=False)
