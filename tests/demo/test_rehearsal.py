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
        await page.goto(room)
        await page.wait_for_selector(f'[data-chat="{GROUP}"].active')
        yield page
        await browser.close()


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


async def test_royale_opening_and_players_speaking(page, tmp_path):
    """The 大逃杀 button plays sign-ups, the start and night 1; group posts land in the
    group view, night actions and their answers in each player's private chat; then
    a player speaks in the group and in private and sees the bot answer there."""
    await play(page, "royale")
    group = await open_chat(page, GROUP)
    assert "/创建 大逃杀" in group and "/报名 丁" in group
    assert any("第1夜" in t for t in await bot_lines(page))
    assert "你出生在" not in group  # private answers never reach the group

    # unread badges on the private chats the bot wrote to
    assert await page.inner_text('[data-chat="private:20002"] .badge') != ""
    private = await open_chat(page, "private:20002")
    assert "/出生 动物园" in private and any("你出生在「动物园」" in t for t in await bot_lines(page))
    assert await page.input_value("#speaker") == "20002"  # a private chat speaks as its owner

    # speaking as a player in the group: the roster comes back in the group view
    await open_chat(page, GROUP)
    await say(page, "20003", "/名单")
    await wait_for_bot(page, "4号 丁")
    mine = await page.locator("#messages .msg.mine .bubble").all_inner_texts()
    assert mine[-1] == "/名单"  # the current speaker's own message is on the right

    # speaking in private: the answer is in that player's private chat only
    await open_chat(page, "private:20001")
    await say(page, "20001", "/背包")
    await wait_for_bot(page, "位置：雾雨小镇", count=2)
    group = await open_chat(page, GROUP)
    assert "位置：雾雨小镇" not in group

    await open_chat(page, GROUP)
    shot = ROOT / "docs" / "rehearsal.png" if os.environ.get("UPDATE_SCREENSHOT") else tmp_path / "rehearsal.png"
    shot.parent.mkdir(exist_ok=True)
    await page.screenshot(path=str(shot))


async def test_every_game_opening(page):
    """Each button plays its game's opening to its first phase; the room checks the
    bot's answers (status "done"); secret things arrive by private chat only."""
    await play(page, "mafia88")
    group = await open_chat(page, GROUP)
    assert "【第1轮】" in group and "你的身份" not in group
    assert "你的身份" in await open_chat(page, "private:20005")
    host = await open_chat(page, "private:10000")
    assert "身份已发出" in host  # the host's list of roles

    await play(page, "prison")
    group = await open_chat(page, GROUP)
    assert "游戏结束：换一局演示" in group  # the previous game was ended first
    assert "第1天" in group and "你是【" not in group
    assert "你是【" in await open_chat(page, "private:20012")
    assert "房间对应" in await open_chat(page, "private:10000")

    await play(page, "league")
    group = await open_chat(page, GROUP)
    assert "第1比赛日" in group and "签到成功" in group
