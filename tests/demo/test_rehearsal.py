"""The rehearsal room: `python -m demo` (what `make demo` runs) starts bot.py and a fake QQ page;
driven here in a real headless Chromium through Playwright. One room process (with its bot) and
one browser for the module; the Ctrl+C tests start rooms of their own.

Set UPDATE_SCREENSHOT=1 to rewrite docs/rehearsal.png and docs/rehearsal-phone.png (the README's
pictures)."""

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
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 860}


def _state(url: str) -> dict | None:
    try:
        with urllib.request.urlopen(url + "api/state", timeout=2) as r:
            return json.load(r)
    except OSError:
        return None


def start_room(data: Path, env: dict[str, str] | None = None) -> tuple[subprocess.Popen, str]:
    """`python -m demo` on a free loopback port, in a process group of its own (as a terminal's
    foreground job: the room and its bot); its output in data/room.log."""
    port = free_port()
    log = open(data / "room.log", "wb")
    proc = subprocess.Popen([sys.executable, "-m", "demo", "--port", str(port), "--data-dir", str(data)],
                            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                            env={**os.environ, **(env or {})})
    log.close()
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 120
    while _state(url) is None:
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise AssertionError("the room did not start:\n" + (data / "room.log").read_text(errors="replace")
                                 + (data / "bot.log").read_text(errors="replace")[-3000:])
        time.sleep(0.2)
    return proc, url


def stop(proc: subprocess.Popen, sig: int, group: bool = False) -> int:
    (os.killpg if group else os.kill)(proc.pid, sig)
    try:
        return proc.wait(60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)  # the room's own process group: the room and its bot


@pytest.fixture(scope="module")
def room(tmp_path_factory):
    """The room, its bot given another database the way a .env written by `make install` names
    the real one; stopped with SIGTERM (it stops its bot)."""
    data = tmp_path_factory.mktemp("rehearsal")
    decoy = tmp_path_factory.mktemp("real-data") / "bot.sqlite3"
    proc, url = start_room(data, {"GAMEHOST__DATABASE_URL": f"sqlite://{decoy}"})
    yield url
    assert stop(proc, signal.SIGTERM) == 0
    assert "演练室已结束" in (data / "room.log").read_text()
    assert (data / "demo.sqlite3").exists() and not decoy.exists()  # the room's own database, never the real one


def _watch(page, errors: list[str], room_url: str) -> None:
    page.set_default_timeout(TIMEOUT)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("request", lambda req: None if req.url.startswith((room_url, "data:")) else errors.append(req.url))


@pytest.fixture(scope="module")
async def browser(room):
    reason = ensure()
    if reason:
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        chromium = await pw.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
        yield chromium
        await chromium.close()


@pytest.fixture(scope="module")
async def page(room, browser):
    ctx = await browser.new_context(viewport=DESKTOP)
    page = await ctx.new_page()
    errors: list[str] = []
    _watch(page, errors, room)
    await page.goto(room)
    await page.wait_for_selector(f'[data-chat="{GROUP}"].active')
    yield page
    await ctx.close()
    assert not errors  # no script error, nothing fetched from outside the room


async def play(page, game: str) -> None:
    await page.click(f'header button[data-game="{game}"]')
    await page.wait_for_selector(f'#status[data-game="{game}"]:not([data-state="running"])')
    status = page.locator("#status")
    assert await status.get_attribute("data-state") == "done", await page.inner_text("#messages")


async def open_chat(page, chat: str) -> str:
    if await page.locator("#menu").is_visible():  # a phone: the chat list is a drawer
        await page.click("#menu")
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


async def chat_shows(page, chat: str, needle: str) -> str:
    """Open `chat` and wait until it shows `needle`; its text."""
    await open_chat(page, chat)
    await page.wait_for_function("needle => document.getElementById('messages').textContent.includes(needle)",
                                 arg=needle)
    return await page.inner_text("#messages")


def shot(name: str, tmp_path: Path) -> str:
    path = ROOT / "docs" / name if os.environ.get("UPDATE_SCREENSHOT") else tmp_path / name
    path.parent.mkdir(exist_ok=True)
    return str(path)


def test_refuses_to_listen_beyond_loopback_or_on_a_wrong_port():
    """Bad input: the room is not for production and binds to loopback only; a port out of
    range is refused with a message, not a traceback."""
    for host in ("0.0.0.0", "::", "192.168.1.20", "example.com"):
        r = subprocess.run([sys.executable, "-m", "demo", "--host", host, "--port", str(free_port())], cwd=ROOT,
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 2, (host, r.stdout, r.stderr)
        assert "只能监听本机回环地址" in r.stderr and f"「{host}」" in r.stderr and "不能用于生产" in r.stderr
        assert "正在启动机器人" not in r.stdout  # refused before anything started
    for port in ("0", "70000"):
        r = subprocess.run([sys.executable, "-m", "demo", "--port", port], cwd=ROOT, capture_output=True, text=True,
                           timeout=60)
        assert r.returncode == 2 and "端口应在 1–65535 之间" in r.stderr and "Traceback" not in r.stderr, r.stderr

    from demo.server import loopback_refusal

    assert [loopback_refusal(h) for h in ("127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost")] == [None] * 5


async def test_royale_opening_and_players_speaking(page, tmp_path):
    """The 大逃杀 button plays sign-ups, the start, day 1's talk and night 1; group posts land in
    the group view, night actions and their answers in each player's private chat; then a
    player speaks in the group and in private and sees the bot answer there."""
    await play(page, "royale")
    group = await chat_shows(page, GROUP, "/报名 丁")
    assert "/创建 大逃杀" in group and any("第1夜" in t for t in await bot_lines(page))
    assert "蓝牌" not in group  # everyone spoke on day 1 (seed 【蓝牌】: 白天发言不足1帖)
    assert "本局有网页：私聊我发送 /网页" in group  # the start post says how to get the page (no private start message)

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
    await page.screenshot(path=shot("rehearsal.png", tmp_path))


async def test_every_game_opening_checks_each_step(page):
    """Each button plays its game's opening as players would (88人场's votes and 囚犯's choices
    in private, where the secret-alias rule wants them); the room checks the bot's answer to
    every step (status "done"); secret things arrive by private chat only; each opening starts
    on empty chats."""
    await play(page, "mafia88")
    tally = await chat_shows(page, GROUP, "/票型")
    assert "9 人已投" in tally and "请私聊我" not in tally  # §十一: votes are cast privately and counted
    said = await page.locator('#messages .msg[data-kind="user"] .bubble').all_inner_texts()
    assert not [t for t in said if t.startswith("/投票")]  # nobody voted in the group
    assert "/投票 7 8" in await chat_shows(page, "private:20001", "已投票")
    role = await chat_shows(page, "private:20005", "你的身份")
    assert "本局有网页：私聊我发送 /网页 获取你的链接和密码。" in role  # the start message says how to get the page
    await chat_shows(page, "private:10000", "身份已发出")  # the host's list of roles
    assert "你的身份" not in await open_chat(page, GROUP)

    await play(page, "prison")
    group = await chat_shows(page, GROUP, "第1天")
    assert "/创建 88人场" not in group and "票型" not in group  # the chats were cleared for the new opening
    assert await open_chat(page, "private:20013") == ""  # 88人场's 13th player has no part in 囚犯
    assert "已记录" in await chat_shows(page, "private:20012", "你是【")  # （二）1: love/hate chosen privately
    await chat_shows(page, "private:10000", "房间对应")
    assert "你是【" not in await open_chat(page, GROUP)

    await play(page, "league")
    group = await chat_shows(page, GROUP, "签到成功")
    assert "第1比赛日" in group and group.count("签到成功") == 12
    assert "积分榜" in group


async def test_a_player_opens_their_page_from_the_room(page):
    """The 网页 button beside a player's private chat sends /网页 as that player (the answer
    shows in their chat) and opens their page in a new tab, logged in."""
    await play(page, "mafia88")
    await open_chat(page, "private:20005")
    async with page.expect_popup() as opened:
        await page.click("#web-open")
    tab = await opened.value
    await tab.wait_for_url("**/web/g/*/", timeout=TIMEOUT)
    await tab.wait_for_selector("#role:has-text('你的身份')", timeout=TIMEOUT)  # the post desk, logged in
    assert "/web/g/" in tab.url and "127.0.0.1" in tab.url
    await tab.close()
    chat = await chat_shows(page, "private:20005", "密码：")
    assert "/网页" in chat

    await play(page, "league")  # a player's page of another game, from the room too
    async with page.expect_popup() as opened:
        await page.click('[data-chat="private:20003"] .web')
    tab = await opened.value
    await tab.wait_for_url("**/web/g/*/", timeout=TIMEOUT)
    assert "127.0.0.1" in tab.url
    await tab.close()


async def test_the_room_on_a_phone(room, browser, tmp_path):
    """At 390 × 844 the open chat takes the width, the input is on screen, and the chat list is a
    drawer; a chat picked from it opens and the drawer closes."""
    ctx = await browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    phone = await ctx.new_page()
    errors: list[str] = []
    _watch(phone, errors, room)
    await phone.goto(room)
    await phone.wait_for_selector(f'[data-chat="{GROUP}"].active')
    for sel in ("#text", "#send", "#speaker"):
        box = await phone.locator(sel).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (sel, box)
        assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (sel, box)
    messages = await phone.locator("#messages").bounding_box()
    assert messages and messages["width"] >= PHONE["width"] - 2 and messages["height"] >= 400
    assert not await phone.locator("aside").is_visible() or (await phone.locator("aside").bounding_box())["x"] < 0

    await phone.click("#menu")
    await phone.wait_for_function("() => document.querySelector('aside').getBoundingClientRect().left >= 0")
    await phone.screenshot(path=str(tmp_path / "rehearsal-phone-chats.png"))
    await phone.click('[data-chat="private:20001"]')
    await phone.wait_for_selector('[data-chat="private:20001"].active')
    await phone.wait_for_function("() => document.querySelector('aside').getBoundingClientRect().right <= 0")
    assert "玩家1 与机器人的私聊" in await phone.inner_text("#title")
    await say(phone, "20001", "/帮助")
    await wait_for_bot(phone, "/")
    box = await phone.locator("#text").bounding_box()
    assert box and box["y"] + box["height"] <= PHONE["height"]  # still on screen after the answer
    await phone.screenshot(path=shot("rehearsal-phone.png", tmp_path))
    await ctx.close()
    assert not errors


def test_a_failed_step_is_reported_with_what_the_bot_said():
    """A step is checked before the next one: refused group votes stop the opening at that step,
    named with what was expected and what the bot answered; nothing after it is said."""
    import asyncio

    from demo.openings import Users
    from demo.server import Room

    game = {"title": "88人场", "summary": "测试", "steps": [
        {"by": "host", "text": "/创建 88人场", "expect": "开局了"},
        {"by": "players 1-2", "text": "/投票 7", "expect": "已投票"},
        {"by": "player 2", "text": "/票型", "expect": "人已投"},
    ]}

    class Bot:
        """Answers like the bot: a game is opened; a vote in the group is refused."""

        def __init__(self, room: Room):
            self.room, self.said, self.ids = room, [], 0

        async def group_message(self, group, user, text, role="member"):
            self.said.append(text)
            answer = "【88人场】开局了。" if text.startswith("/创建") else "本游戏马甲保密，请私聊我发送 /投票 <玩家>。"
            if not text.startswith("/结束"):
                self.room.on_call("send_group_msg", {"group_id": int(group), "message": answer})
            self.ids += 1
            return self.ids

    async def run() -> dict:
        room = Room(Users(3), {"mafia88": game}, pace=0)
        room.ob = Bot(room)  # type: ignore[assignment]
        room.play("mafia88")
        await room._task
        return {"script": room.script, "notes": [e["text"] for e in room.entries if e["kind"] == "note"],
                "said": room.ob.said}

    out = asyncio.run(run())
    assert out["script"]["status"] == "failed" and out["script"]["step"] == 2
    note = out["notes"][-1]
    assert "第 2 步" in note and "玩家1–2 在群里发「/投票 7」" in note and "「已投票」" in note
    assert "请私聊我" in note  # what the bot said instead
    assert "/票型" not in out["said"]  # the opening stopped there


def test_every_step_says_what_the_bot_answers(tmp_path):
    """A step without an expected answer (or silent = true) is a mistake in openings.toml."""
    from demo.openings import load_openings

    bad = tmp_path / "openings.toml"
    bad.write_text('[x]\ntitle = "x"\nsummary = "x"\nsteps = [{ by = "host", text = "/创建 x" }]\n', encoding="utf-8")
    with pytest.raises(ValueError, match="第 1 步"):
        load_openings(bad)
    steps = [s for g in load_openings().values() for s in g["steps"]]
    assert steps and all(bool(s.get("expect")) != bool(s.get("silent")) for s in steps)


def _ctrl_c_room(data: Path) -> tuple[subprocess.Popen, str]:
    proc, url = start_room(data)
    urllib.request.urlopen(urllib.request.Request(url + "api/play/royale", method="POST"), timeout=10).read()
    return proc, url


def test_ctrl_c_stops_the_room_and_its_bot_quietly(tmp_path):
    """Ctrl+C (SIGINT to the terminal's whole foreground group: the room and its bot) during an
    opening: the room ends with its farewell line and no traceback, and the bot is gone."""
    proc, _ = _ctrl_c_room(tmp_path)
    stop(proc, signal.SIGINT, group=True)
    out = (tmp_path / "room.log").read_text(errors="replace")
    assert "演练室已结束" in out and "Traceback" not in out, out
    with pytest.raises(ProcessLookupError):
        os.killpg(proc.pid, 0)  # nothing of the room's group is left


def test_ctrl_c_while_starting_is_quiet():
    """Ctrl+C before the room has loaded (an interrupt inside its imports) ends it with exit code
    130 and no traceback."""
    code = ("import sys, runpy\n"
            "class Stop:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'demo.server':\n"
            "            raise KeyboardInterrupt\n"
            "sys.meta_path.insert(0, Stop())\n"
            "runpy.run_module('demo', run_name='__main__')\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 130 and "Traceback" not in r.stderr, r.stderr


def test_bot_actions_shown_where_qq_shows_them():
    """Group actions become system lines in that group; sends go to the group or the
    private chat; queries show nothing; a recall names whose message it was."""
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
    assert describe_call("delete_msg", {"message_id": 5}, u, {5: ("group:10001", "20001")}) \
        == ("group:10001", "system", [{"t": "text", "v": "机器人撤回了 玩家1 的一条消息"}])
