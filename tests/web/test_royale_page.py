"""大逃杀's action page: a player logs in with the password /网页 sent, acts in a real
browser (Chromium) and sees the answer at once; the page action is an ordinary command
of the game (same log, arrival order, rules). One player's session can neither read nor
act on another's page; bad input is refused with a Chinese message and changes nothing.
The page agrees with the bot: what it offers, the times it shows and the words of its
answers, at phone and desktop size. One bot process and one browser for the module.

Set UPDATE_SCREENSHOT=1 to rewrite the README's pictures docs/web-*.png (every tests/web module)."""

from __future__ import annotations

import json
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from web_helpers import PHONE, bot_with_web, chromium, db_rows, login, screenshot_path, web_access
from webclient import Client

GROUP = "5000"
HOST = "10000"
P1, P2, P3 = "300", "301", "302"
GROUP2 = "5001"
P4, P5, P6 = "303", "304", "305"
DESKTOP = {"width": 1280, "height": 800}
SIZES = {"phone": (PHONE, P4, "丁"), "desktop": (DESKTOP, P5, "戊")}
TZ = ZoneInfo("Asia/Shanghai")


@pytest.fixture(scope="module")
async def game(tmp_path_factory):
    async with bot_with_web(tmp_path_factory.mktemp("royale-web")) as (bp, ob):
        await ob.group_message(GROUP, HOST, "/创建 大逃杀", role="owner")
        await ob.wait_for("大逃杀")
        for user, name in ((P1, "甲"), (P2, "乙"), (P3, "丙")):
            await ob.group_message(GROUP, user, f"/报名 {name}")
            await ob.wait_for(name)
        await ob.group_message(GROUP, HOST, "/开始")
        await ob.wait_for("大逃杀开始")
        await ob.group_message(GROUP, HOST, "/推进")
        await ob.wait_for("第1夜行动开始")
        links = {user: await web_access(ob, user) for user in (P1, P2, P3)}
        yield bp, ob, links


@pytest.fixture(scope="module")
async def browser(game):
    bp, _, _ = game
    async with chromium(f"http://127.0.0.1:{bp.port}/") as new_page:
        yield new_page


async def test_a_night_on_the_page(game, browser):
    """Log in (a wrong password first), be born, search: answers appear at once, the
    30-second rule shows as a countdown; the action is in the game's command log with source web."""
    bp, ob, links = game
    link, password = links[P1]
    page = await browser()
    await page.goto(link)
    await page.fill("#password", "wrong1")
    await page.click("#login")
    assert "密码不对" in await page.inner_text("#error")
    await page.fill("#password", password)
    await page.click("#login")
    await page.wait_for_selector("#title:has-text('1号 甲')")
    assert "第1夜" in await page.inner_text("#phase")
    await page.wait_for_selector("#deadline:has-text('秒')")
    await page.select_option("#place-pick", "雾雨小镇")
    await page.click("#btn-birth")
    await page.wait_for_selector("#answer:has-text('你出生在「雾雨小镇」')")
    assert await page.inner_text("#place") == "雾雨小镇"
    await page.click("#btn-search")
    await page.wait_for_selector("#answer:has-text('体力 95')")
    assert await page.inner_text("#st") == "95/100"
    assert await page.is_disabled("#btn-search")  # the 30-second rule, as a countdown
    assert "再次搜索" in await page.inner_text("#search-wait")
    await page.evaluate("window.scrollTo(0, 0)")
    await page.screenshot(path=str(screenshot_path("web-royale.png")), full_page=False)
    sessions = db_rows(bp, "SELECT count(*) FROM web_session")[0][0]
    await page.click("#logout")  # the session ends on the server too
    await page.wait_for_selector("#password")
    assert db_rows(bp, "SELECT count(*) FROM web_session")[0][0] == sessions - 1
    rows = db_rows(bp, "SELECT name, source, user_id FROM command_log WHERE name IN ('birth', 'search') ORDER BY seq")
    assert rows == [("birth", "web", P1), ("search", "web", P1)]
    # the chat side sees the same game: /背包 by private message shows where the page put the player
    await ob.private_message(P1, "/背包")
    bag = await ob.wait_for("位置：雾雨小镇")
    assert "体力 95" in bag[-1]


async def test_another_players_session_reads_and_does_nothing(game):
    """Player 1's session is refused on player 2's link (view and action), nothing applied."""
    bp, _, links = game
    (link1, pw1), (link2, pw2) = links[P1], links[P2]
    one = Client()
    assert one.login(link1, pw1)[0] == 200
    # the cookie is scoped to player 1's link; send it to player 2's by hand anyway
    cookie = next(c for c in one.jar if c.name == "ws")
    forged = {"Cookie": f"ws={cookie.value}", "X-CSRF-Token": one.csrf, "Content-Type": "application/json"}
    status, text = one.request("GET", link2 + "api/view", headers=forged)
    assert status == 401 and "登录已过期" in text and "乙" not in text
    status, text = one.request("POST", link2 + "api/act", json.dumps({"word": "出生", "rest": "动物园"}).encode(), forged)
    assert status == 401 and "乙" not in text
    # player 1's password does not open player 2's page
    assert one.login(link2, pw1)[0] == 401
    two = Client()
    assert two.login(link2, pw2)[0] == 200
    status, view = two.view(link2)
    assert view["alias"] == "乙" and view["page"]["me"]["place"] is None  # nothing was applied for player 2
    assert db_rows(bp, "SELECT count(*) FROM command_log WHERE user_id = ? AND name = 'birth'", P2) == [(0,)]


async def test_bad_input_is_refused_in_chinese(game):
    """Tampered fields, a stale CSRF token, huge and binary bodies, a host's command,
    an action out of phase, an unknown link: a Chinese message, nothing applied, no trace."""
    bp, _, links = game
    link, password = links[P2]
    c = Client()
    c.login(link, password)
    before = db_rows(bp, "SELECT count(*) FROM command_log")
    cases = [
        (c.act(link, "出生", "雾雨小镇", csrf="stale"), 403, "页面已过期"),
        (c.act(link, "", raw=b"\xff\xfe\x00binary"), 400, "无法识别"),
        (c.act(link, "", raw=b"{" + b" " * 200_000 + b"}"), 413, "太大"),
        (c.act(link, "", raw=b"[1, 2]"), 400, "无法识别"),
        (c.act(link, "发放", "1 绷带"), 409, "网页上没有这个操作"),  # a host's command
        (c.act(link, "开始"), 409, "网页上没有这个操作"),
        (c.act(link, "使用", "不存在的东西"), 409, "还没有出生"),  # a tampered item, before the birth
        (c.act(link, "出生", "不存在的地方"), 409, "不存在的地方"),  # a tampered place
        (c.act(link, "出售", "绷带"), 409, ""),  # selling is for the day
        (c.act(link, "攻击"), 409, ""),  # nothing found yet
    ]
    for (status, body), want_status, want in cases:
        assert status == want_status, body
        text = json.dumps(body, ensure_ascii=False)
        assert body["ok"] is False and want in text and "Traceback" not in text
        assert (body.get("replies") or [body.get("error")])[0]  # always says why
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    for body, want_status, want in ((b"\xff\xfe" * 50, 400, "无法识别"), (b"a=1&" * 20, 400, "无法识别"),
                                    (b"password=" + b"x" * 100_000, 413, "太大")):
        status, text = c.request("POST", link + "login", body, form)
        assert status == want_status and want in text and "Traceback" not in text
    assert db_rows(bp, "SELECT count(*) FROM command_log") == before  # nothing applied
    for bad in ("not-a-link", "A" * 30, "../../etc/passwd"):
        status, text = c.request("GET", link.rsplit("/web/g/", 1)[0] + f"/web/g/{bad}/")
        assert status in (404, 307) and "Traceback" not in text
    status, text = c.request("GET", link.rsplit("/web/g/", 1)[0] + "/web/g/" + "B" * 24 + "/")
    assert status == 404 and "链接无效" in text


async def test_wrong_passwords_wait_and_a_host_resets(game):
    """Five wrong passwords make the player wait; a host's /网页 重置 sends a new
    password (the old one stops working) and lifts the wait."""
    _, ob, links = game
    link, password = links[P3]
    c = Client()
    for _ in range(5):
        assert c.login(link, "zzzzzz")[0] == 401
    status, text = c.login(link, password)
    assert status == 429 and "秒后再试" in text  # even the right password waits
    await ob.private_message(HOST, "/网页 重置 3")
    await ob.wait_for("已重置 3号 的网页密码")
    msg = (await ob.wait_for("主持重置了你的网页密码"))[-1]
    new = msg.split("密码：", 1)[1].split()[0]
    assert c.login(link, password)[0] == 401  # the old password no longer works
    assert c.login(link, new)[0] == 200


async def test_an_ended_game_is_read_only(game):
    """After /结束 the page still shows the player's side, says the game is over and refuses actions."""
    bp, ob, links = game
    link, password = links[P1]
    c = Client()
    c.login(link, password)
    await ob.group_message(GROUP, HOST, "/结束 测试")
    await ob.wait_for("游戏结束：测试")
    status, view = c.view(link)
    assert status == 200 and "已经结束" in view["notice"]
    before = db_rows(bp, "SELECT count(*) FROM command_log")
    status, body = c.act(link, "搜索")
    assert status == 409 and "已经结束" in body["replies"][0]
    assert db_rows(bp, "SELECT count(*) FROM command_log") == before
    await ob.private_message(P1, "/网页")
    await ob.wait_for("你现在没有参加任何游戏")  # an ended game hands out no new password


# ---- the page agrees with the bot (a second game, night 1 extended by the host) ------------------

@pytest.fixture(scope="module")
async def night(game):
    """Game 2: three players, night 1 opened by /推进 and extended by /延时 12; each player has
    asked the bot for /背包 in chat (a private message on the page's list) and for /网页."""
    _, ob, _ = game
    await ob.group_message(GROUP2, HOST, "/创建 大逃杀", role="owner")
    await ob.wait_for("开局了", count=2)
    for user, name in ((P4, "丁"), (P5, "戊"), (P6, "己")):
        await ob.group_message(GROUP2, user, f"/报名 {name}")
        await ob.wait_for(f"「{name}」")
    await ob.group_message(GROUP2, HOST, "/开始")
    await ob.wait_for("大逃杀开始", count=2)
    await ob.group_message(GROUP2, HOST, "/推进")
    await ob.wait_for("第1夜行动开始", count=2)
    await ob.group_message(GROUP2, HOST, "/延时 12")
    await ob.wait_for("的截止时间调整为")
    for user in (P4, P5):
        await ob.private_message(user, "/背包")
        await ob.wait_for("位置：未出生", count=1 + (user == P5))
    yield {user: await web_access(ob, user) for user in (P4, P5)}


async def view_json(page) -> dict:
    return await page.evaluate("fetch('api/view').then(r => r.json())")


async def open_page(browser, night, size):
    viewport, user, alias = SIZES[size]
    link, password = night[user]
    page = await browser(viewport)
    await login(page, link, password)
    await page.wait_for_selector(f"#title:has-text('{alias}')")
    await page.wait_for_selector("#deadline:has-text('秒')")
    return page


async def be_born(page) -> None:
    if await page.inner_text("#place") == "未出生":
        await page.select_option("#place-pick", "果园")
        await page.click("#btn-birth")
        await page.wait_for_selector("#answer:has-text('你出生在「果园」')")


@pytest.mark.parametrize("size", list(SIZES))
async def test_the_night_shows_its_real_deadline(browser, night, size):
    """时限 (通常行动时间为21:10-21:25): the page shows tonight's real end — the host opened the night
    early and extended it — not the settings' usual window."""
    page = await open_page(browser, night, size)
    ends = datetime.fromisoformat((await view_json(page))["deadline"]).astimezone(TZ).strftime("%H:%M")
    window = await page.inner_text("#night")
    assert f"截止 {ends}" in window and "21:10–21:25" not in window


@pytest.mark.parametrize("size", list(SIZES))
async def test_answers_name_the_page_buttons(browser, night, size):
    """An answer on the page says which button to press, not which chat command to send."""
    page = await open_page(browser, night, size)
    await page.select_option("#place-pick", "果园")
    await page.click("#btn-birth")
    await page.wait_for_selector("#answer:has-text('你出生在「果园」')")
    answer = await page.inner_text("#answer")
    assert "「搜索」" in answer and "「移动过去」" in answer and "/" not in answer, answer


@pytest.mark.parametrize("size", list(SIZES))
async def test_birth_is_closed_once_born(browser, night, size):
    """【出生】 once, on the first nights: after it the page no longer offers it."""
    page = await open_page(browser, night, size)
    await be_born(page)
    assert await page.inner_text("#place") == "果园"
    assert await page.is_disabled("#btn-birth")


@pytest.mark.parametrize("size", list(SIZES))
async def test_no_search_result_before_a_search(browser, night, size):
    """【搜索】 feeds back what it found: before any search tonight the page says so, not that a
    search found nothing; after one it tells what it found."""
    page = await open_page(browser, night, size)
    found = await page.inner_text("#found")
    assert "今晚还没有搜索" in found and "上次搜索" not in found
    await be_born(page)
    await page.click("#btn-search")
    await page.wait_for_selector("#answer:has-text('体力 95')")
    assert "今晚还没有搜索" not in await page.inner_text("#found")
    await page.evaluate("window.scrollTo(0, 0)")
    await page.screenshot(path=str(screenshot_path(f"web-royale-{size}.png")), full_page=True)


@pytest.mark.parametrize("size", list(SIZES))
async def test_recent_messages_never_show_a_password_message(browser, night, size):
    """The recent private messages list the bot's answers (/背包) but not the /网页 message,
    neither its password nor the placeholder it leaves once sent."""
    page = await open_page(browser, night, size)
    recent = await page.inner_text("#recent")
    assert "位置：未出生" in recent
    assert "密码" not in recent and "/web/g/" not in recent


@pytest.mark.parametrize("size", list(SIZES))
async def test_buying_without_money_is_closed_and_says_why(browser, night, size):
    """商店: 可花费货币在商店换取物资 — with 0 货币 every 购买 is closed and the row says why."""
    page = await open_page(browser, night, size)
    await be_born(page)
    assert await page.inner_text("#money") == "0"
    rows = page.locator("#shop li")
    assert await rows.count() >= 5
    for i in range(await rows.count()):
        row = rows.nth(i)
        assert await row.locator("button").is_disabled()
        assert "货币不足" in await row.inner_text()


@pytest.fixture(scope="module")
async def ended(game, night):
    _, ob, _ = game
    await ob.group_message(GROUP2, HOST, "/结束 演练结束")
    await ob.wait_for("游戏结束：演练结束")
    yield night


async def open_ended(browser, ended, size):
    viewport, user, alias = SIZES[size]
    link, password = ended[user]
    page = await browser(viewport)
    await login(page, link, password)
    await page.wait_for_selector(f"#title:has-text('{alias}')")
    await page.wait_for_selector("#notice:has-text('已经结束')")
    return page


@pytest.mark.parametrize("size", list(SIZES))
async def test_an_ended_game_says_so_once(browser, ended, size):
    """After /结束 the header says 已结束 once, and every action is closed."""
    page = await open_ended(browser, ended, size)
    assert (await page.inner_text("#phase")).strip() == "已结束"
    for b in await page.locator("main button").all():
        assert await b.is_disabled()


@pytest.mark.parametrize("size", list(SIZES))
async def test_an_ended_game_shows_no_night(browser, ended, size):
    """After /结束 no night will come: the page shows neither a night window nor tonight's closures."""
    page = await open_ended(browser, ended, size)
    me = await page.inner_text("#me")
    assert "今晚缩圈" not in me and "夜间行动" not in me
    assert "本局已结束" in await page.inner_text("#night")
    await page.screenshot(path=str(screenshot_path(f"web-royale-ended-{size}.png")), full_page=True)
