"""The pages on a real server (bot.py as a process): a page's first load stays light (HTML, CSS,
JS and the Chinese font under ~300 KB) — the pages ask for the phone's own Chinese fonts first,
and the font the bot serves holds only the glyphs the pages can show; a phone-sized Chromium shows
Chinese text. Fifty wrong passwords sent at once over HTTP get at most five checks."""

from __future__ import annotations

import asyncio
import io
import json
import re
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlencode, urljoin

import pytest
from fontTools.ttLib import TTFont
from web_helpers import PHONE, bot_with_web, chromium, db_rows, login, screenshot_path, web_access
from webclient import Client

GROUP = "5000"
HOST = "10000"
PLAYER = "300"
FIRST_LOAD = 300_000  # bytes


@pytest.fixture(scope="module")
async def game(tmp_path_factory):
    async with bot_with_web(tmp_path_factory.mktemp("weight-web")) as (bp, ob):
        await ob.group_message(GROUP, HOST, "/创建 大逃杀", role="owner")
        await ob.wait_for("大逃杀")
        for user, name in ((PLAYER, "甲"), ("301", "乙")):
            await ob.group_message(GROUP, user, f"/报名 {name}")
            await ob.wait_for(name)
        await ob.group_message(GROUP, HOST, "/开始")
        await ob.wait_for("大逃杀开始")
        yield bp, ob, await web_access(ob, PLAYER)


def _named(url: str, text: str) -> list[str]:
    """The resources an HTML page or a style sheet names (links, scripts, url(...))."""
    found = re.findall(r'<(?:link|script)[^>]*?(?:href|src)="([^"]+)"', text) + re.findall(r'url\("?([^")]+)"?\)', text)
    return [urljoin(url, f) for f in found if not f.startswith("data:")]


def first_load(c: Client, url: str) -> dict[str, bytes]:
    """Every resource a page names, fetched once each, as bytes by address."""
    got: dict[str, bytes] = {}
    todo = [url]
    while todo:
        u = todo.pop()
        if u in got:
            continue
        req = c.opener.open(u, timeout=60)
        body = req.read()
        got[u] = body
        if u == url or u.endswith(".css"):
            todo += _named(u, body.decode("utf-8", "replace"))
    return got


def test_every_page_loads_under_300_kb_font_included(game):
    _, _, (link, password) = game
    c = Client()
    before = first_load(c, link)  # the login page, before any session
    fonts = [u for u in before if "font" in u]
    assert fonts, list(before)  # the served font is counted
    assert sum(map(len, before.values())) < FIRST_LOAD, {u: len(b) for u, b in before.items()}
    assert c.login(link, password)[0] == 200
    page = first_load(c, link)  # the game's page
    assert any(u.endswith(".js") for u in page) and any("font" in u for u in page)
    assert sum(map(len, page.values())) < FIRST_LOAD, {u: len(b) for u, b in page.items()}


def test_the_served_font_holds_every_character_of_the_pages(game):
    _, _, (link, password) = game
    c = Client()
    c.login(link, password)
    loaded = first_load(c, link)
    font = TTFont(io.BytesIO(next(b for u, b in loaded.items() if "font" in u)))
    cmap = font.getBestCmap()
    shown = "".join(b.decode("utf-8") for u, b in loaded.items() if u.endswith((".html", ".js", "/")))
    shown += json.dumps(c.view(link)[1], ensure_ascii=False)  # what the script fills in: places, weather, messages
    missing = {ch for ch in shown if ord(ch) > 0x2E80 and ord(ch) not in cmap}
    assert not missing, "".join(sorted(missing))


async def test_chinese_renders_on_a_phone_with_the_phones_fonts_first(game):
    bp, _, (link, password) = game
    async with chromium(f"http://127.0.0.1:{bp.port}/") as new_page:
        page = await new_page(PHONE)
        await login(page, link, password)
        await page.wait_for_selector("#title:has-text('1号 甲')")
        family = await page.evaluate("getComputedStyle(document.body).fontFamily")
        assert family.startswith("system-ui") and family.index("sans-serif") < family.index("Noto Sans SC Web")
        # the served font loads and is a font the browser can use
        faces = await page.evaluate("document.fonts.load('15px \"Noto Sans SC Web\"', '大逃杀我的状态').then(f => f.length)")
        assert faces == 1
        await page.screenshot(path=str(screenshot_path("web-weight-phone.png")), full_page=False)


async def test_fifty_wrong_passwords_at_once_get_five_checks(game):
    bp, ob, _ = game
    link, _ = await web_access(ob, "301")  # another player: the first one's page stays open
    c = Client()
    token = re.search(r'name="token" value="([^"]+)"', c.request("GET", link)[1]).group(1)
    body = urlencode({"token": token, "password": "wrong1"}).encode()
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": f"wl={token}"}

    def burst() -> list[int]:
        with ThreadPoolExecutor(50) as pool:
            return sorted(pool.map(lambda _: Client().request("POST", link + "login", body, headers)[0], range(50)))

    assert await asyncio.to_thread(burst) == [401] * 5 + [429] * 45
    assert db_rows(bp, "SELECT failures FROM web_access WHERE user_id = ?", "301") == [(5,)]
