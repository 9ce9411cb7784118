"""The rehearsal room (issue 18 item 6): `python -m demo` (what `make demo` runs)
starts bot.py and a fake QQ page; driven here in a real headless Chromium through
Playwright. One room process (with its bot) and one browser for the module.

Set UPDATE_SCREENSHOT=1 to rewrite docs/rehearsal.png (the README's picture)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from fake_onebot import free_port

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser_setup import ensure  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
GROUP = "group:10001"
TIMEOUT = 90_000  # ms; generous: the machine may be busy (nothing here measures time)


def _state(url: str) -> dict | None:
    try:
        with urllib.request.urlopen(url + "api/state", timeout=2) as r:
            return json.load(r)
    except OSError:
        return None


@pytest.fixture(scope="module")
def room(tmp_path_factory):
    """`python -m demo` on a free loopback port; stopped with SIGTERM (it stops its bot)."""
    port = free_port()
    data = tmp_path_factory.mktemp("rehearsal")
    log = open(data / "room.log", "wb")
    proc = subprocess.Popen([sys.executable, "-m", "demo", "--port", str(port), "--data-dir", str(data)],
                            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 120
    while _state(url) is None:
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise AssertionError("the room did not start:\n" + (data / "room.log").read_text(errors="replace")
                                 + (data / "bot.log").read_text(errors="replace")[-3000:])
        time.sleep(0.2)
    yield url
    proc.send_signal(signal.SIGTERM)
    try:
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)  # the room's own process group: the room and its bot
        log.close()
    assert "演练室已结束" in (data / "room.log").read_text()


@pytest.fixture(scope="module")
async def page(room):
    reason = ensure()
    if reason:
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
        page = await browser.new_page(viewport={"width": 1280, "height": 860})
        page.set_default_timeout(TIMEOUT)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        page.on("request", lambda req: None if req.url.startswith((room, "data:")) else errors.append(req.url))
        await page.goto(room)
        await page.wait_for_selector(f'[data-chat="{GROUP}"].active')
        yield page
        await browser.close()
    assert not errors  # no script error, nothing fetched from outside the room


async def play(page, game: str) -> None:
    await page.click(f'header button[data-game="{game}"]')
    await page.wait_for_selector(f'#status[data-game="{game}"]:not([data-state="running"])')
    status = page.locator("#status")
    assert await status.get_attribute("data-state") == "done", await page.inner_text("#messages")


async def open_chat(page, chat: str) -> str:
    await page.click(f'[data-chat="{chat}"]')
    await page.wait_for_selector(f'[data-chat="{chat}"].active')
    return await page.inner_text("#messages")


async def bot_lines(page) -> list[str]:
    return await page.locator('#messages .msg[data-kind="bot"] .bubble').all_inner_texts()


async def say(page, speaker: str, text: str) -> None:
    await page.select_option("#speaker", speaker)
    await page.fill("#text", text)
    await page.press("#text", "Enter")


async def wait_for_bot(page, needle: str, count: int = 1) -> None:
    """Until the open chat shows `count` bot messages containing `needle`."""
    await page.wait_for_function(
        """([needle, count]) => [...document.querySelectorAll('#messages .msg[data-kind="bot"] .bubble')]
               .filter(b => b.textContent.includes(needle)).length >= count""", arg=[needle, count])


def test_refuses_to_listen_beyond_loopback():
    """Bad input: the room is not for production and binds to loopback only."""
    for host in ("0.0.0.0", "::", "192.168.1.20", "example.com"):
        r = subprocess.run([sys.executable, "-m", "demo", "--host", host, "--port", str(free_port())], cwd=ROOT,
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 2, (host, r.stdout, r.stderr)
        assert "只能监听本机回环地址" in r.stderr and f"「{host}」" in r.stderr and "不能用于生产" in r.stderr
        assert "正在启动机器人" not in r.stdout  # refused before anything started

    from demo.server import loopback_refusal

    assert [loopback_refusal(h) for h in ("127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost")] == [None] * 5


async def chat_shows(page, chat: str, needle: str) -> str:
    """Open `chat` and wait until it shows `needle`; its text."""
    await open_chat(page, chat)
    await page.wait_for_function("needle => document.getElementById('messages').textContent.includes(needle)",
                                 arg=needle)
    return await page.inner_text("#messages")


async def test_royale_opening_and_players_speaking(page, tmp_path):
    """The 大逃杀 button plays sign-ups, the start and night 1; group posts land in the
    group view, night actions and their answers in each player's private chat; then
    a player speaks in the group and in private and sees the bot answer there."""
    await play(page, "royale")
    group = await chat_shows(page, GROUP, "/报名 丁")
    assert "/创建 大逃杀" in group and any("第1夜" in t for t in await bot_lines(page))

    # unread badges on the private chats the bot wrote to
    await page.wait_for_selector('[data-chat="private:20002"] .badge:not(:empty)')
    await chat_shows(page, "private:20002", "你出生在「动物园」")
    assert "/出生 动物园" in await page.inner_text("#messages")
    assert await page.input_value("#speaker") == "20002"  # a private chat speaks as its owner
    assert "你出生在" not in await open_chat(page, GROUP)  # private answers never reach the group

    # speaking as a player in the group: the roster comes back in the group view
    await say(page, "20003", "/名单")
    await wait_for_bot(page, "4号 丁")
    # the current speaker's own message is on the right (the view may still be re-rendering)
    await page.wait_for_function(
        """() => { const m = [...document.querySelectorAll('#messages .msg.mine .bubble')];
                   return m.length > 0 && m[m.length - 1].textContent.trim() === '/名单'; }""")

    # speaking in private: the answer is in that player's private chat only
    await open_chat(page, "private:20001")
    await say(page, "20001", "/背包")
    await wait_for_bot(page, "位置：雾雨小镇", count=2)  # the opening's /背包 and this one
    assert "位置：雾雨小镇" not in await open_chat(page, GROUP)

    shot = ROOT / "docs" / "rehearsal.png" if os.environ.get("UPDATE_SCREENSHOT") else tmp_path / "rehearsal.png"
    shot.parent.mkdir(exist_ok=True)
    await page.screenshot(path=str(shot))


async def test_every_game_opening(page):
    """Each button plays its game's opening to its first phase; the room checks the
    bot's answers (status "done"); secret things arrive by private chat only."""
    await play(page, "mafia88")
    assert "【第1轮】" in await chat_shows(page, GROUP, "/票型")
    await chat_shows(page, "private:20005", "你的身份")
    await chat_shows(page, "private:10000", "身份已发出")  # the host's list of roles
    assert "你的身份" not in await open_chat(page, GROUP)

    await play(page, "prison")
    group = await chat_shows(page, GROUP, "第1天")
    assert "游戏结束：换一局演示" in group  # the previous game was ended first
    await chat_shows(page, "private:20012", "你是【")
    await chat_shows(page, "private:10000", "房间对应")
    assert "你是【" not in await open_chat(page, GROUP)

    await play(page, "league")
    group = await chat_shows(page, GROUP, "签到成功")
    assert "第1比赛日" in group


def test_bot_actions_shown_where_qq_shows_them():
    """Group actions become system lines in that group; sends go to the group or the
    private chat; queries show nothing."""
    from demo.server import Users, describe_call

    u = Users(3)
    assert describe_call("send_group_msg", {"group_id": 7, "message": [{"type": "text", "data": {"text": "早"}}]}, u) \
        == ("group:7", "bot", [{"t": "text", "v": "早"}])
    assert describe_call("send_private_msg", {"user_id": 20001, "message": "嗨"}, u) \
        == ("private:20001", "bot", [{"t": "text", "v": "嗨"}])
    assert describe_call("send_msg", {"message_type": "group", "group_id": 7, "message": [
        {"type": "at", "data": {"qq": "all"}}, {"type": "image", "data": {"file": "base64://iVBO"}}]}, u)[2] \
        == [{"t": "at", "v": "@全体成员"}, {"t": "image", "v": "data:image/png;base64,iVBO"}]
    lines = {a: describe_call(a, p, u) for a, p in [
        ("set_group_card", {"group_id": 8, "user_id": 20002, "card": "2号 乙"}),
        ("set_group_kick", {"group_id": 8, "user_id": 20003}),
        ("set_group_ban", {"group_id": 8, "user_id": 20001, "duration": 3600}),
        ("set_group_add_request", {"flag": "x", "sub_type": "add", "approve": True}),
        ("upload_private_file", {"user_id": 10000, "file": "/tmp/a/局.xlsx", "name": "局.xlsx"}),
    ]}
    assert lines["set_group_card"] == ("group:8", "system", [{"t": "text", "v": "机器人把 玩家2 的群名片改为「2号 乙」"}])
    assert lines["set_group_kick"][2][0]["v"] == "机器人把 玩家3 移出了本群"
    assert lines["set_group_ban"][2][0]["v"] == "机器人禁言了 玩家1 1 小时"
    assert lines["set_group_add_request"][:2] == ("group:10001", "system")
    assert lines["upload_private_file"][:2] == ("private:10000", "system") and "局.xlsx" in lines["upload_private_file"][2][0]["v"]
    assert describe_call("get_group_member_info", {"group_id": 8, "user_id": 1}, u) is None
