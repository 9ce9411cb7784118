"""Hardening: with a token set, every door is guarded — the
reverse WebSocket (header or ``access_token`` query parameter) and the HTTP
event routes; without a token the bot will not listen beyond loopback."""

import asyncio
import json
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
import websockets
from fake_onebot import ROOT, BotProcess, FakeOneBot

from plugins.kernel.gate import check_bind, is_loopback

TOKEN = "s3cret-token"
GROUP = "881001"


def _event(text: str, user: str = "10000") -> bytes:
    ev = {
        "time": int(time.time()), "self_id": 999, "post_type": "message", "message_type": "group",
        "sub_type": "normal", "message_id": int(time.time() * 1000) % 10**9, "group_id": int(GROUP),
        "user_id": int(user), "message": [{"type": "text", "data": {"text": text}}], "raw_message": text,
        "font": 0, "sender": {"user_id": int(user), "nickname": "x", "card": "", "role": "owner"},
    }
    return json.dumps(ev).encode()


def _post(url: str, body: bytes, headers: dict[str, str] | None = None) -> int:
    req = urllib.request.Request(url, data=body, method="POST",
                                 headers={"Content-Type": "application/json", "X-Self-ID": "999", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


async def _ws_status(url: str, headers: dict[str, str]) -> int | None:
    """None when the connection was accepted, else the HTTP status of the refusal."""
    try:
        ws = await websockets.connect(url, additional_headers={"X-Self-ID": "998", **headers})
    except websockets.exceptions.InvalidStatus as e:
        return e.response.status_code
    await ws.close()
    return None


@pytest.fixture(scope="module")
def guarded(tmp_path_factory):
    bp = BotProcess(tmp_path_factory.mktemp("doors") / "bot.sqlite3", env={"ONEBOT_ACCESS_TOKEN": TOKEN})
    bp.start()
    yield bp
    bp.stop()


async def test_websocket_needs_the_token_as_header_or_query(guarded):
    ob = FakeOneBot(guarded.url, token=TOKEN)
    await ob.connect()  # waits for the process to listen
    await ob.close()
    assert await _ws_status(guarded.url, {}) == 403
    assert await _ws_status(guarded.url, {"Authorization": "Bearer wrong"}) == 403
    assert await _ws_status(guarded.url + "?access_token=wrong", {}) == 403
    assert await _ws_status(guarded.url + f"?access_token={TOKEN}", {}) is None
    assert await _ws_status(guarded.url, {"Authorization": f"Bearer {TOKEN}"}) is None


async def test_http_event_posts_are_refused_and_not_processed(guarded):
    ob = FakeOneBot(guarded.url, token=TOKEN)
    await ob.connect()
    base = f"http://127.0.0.1:{guarded.port}"
    for path in ("/onebot/v11/", "/onebot/v11/http", "/onebot/v11/http/"):
        status = await asyncio.to_thread(_post, base + path, _event("/创建 测试局"))
        assert status == 403, path
        status = await asyncio.to_thread(_post, base + path, _event("/创建 测试局"), {"Authorization": f"Bearer {TOKEN}"})
        assert status == 403, path  # HTTP posts are off unless ONEBOT_HTTP_EVENTS=true
    # nothing was created: an authenticated /创建 over the WebSocket still opens the first game
    await ob.group_message(GROUP, "10000", "/创建 测试局", role="owner")
    await ob.wait_for("开局了")
    await ob.close()


async def test_http_events_when_enabled_still_need_the_token(tmp_path):
    bp = BotProcess(tmp_path / "bot.sqlite3", env={"ONEBOT_ACCESS_TOKEN": TOKEN, "ONEBOT_HTTP_EVENTS": "true"})
    bp.start()
    try:
        ob = FakeOneBot(bp.url, token=TOKEN)
        await ob.connect()
        url = f"http://127.0.0.1:{bp.port}/onebot/v11/"
        assert await asyncio.to_thread(_post, url, _event("/在吗")) == 403
        assert await asyncio.to_thread(_post, url, _event("/在吗"), {"Authorization": "Bearer nope"}) == 403
        assert await asyncio.to_thread(_post, url, _event("/在吗"), {"Authorization": f"Bearer {TOKEN}"}) == 204
        await ob.wait_for("在。")  # handled (routing/admission.py takes HTTP-posted events too)
        await ob.close()
    finally:
        bp.stop()


async def test_an_http_posted_event_is_handled_without_a_websocket(tmp_path):
    """OneBot over HTTP only (events posted to the bot): the account is connected by its first
    event, as NoneBot's own adapter does, and the command runs."""
    import sqlite3

    bp = BotProcess(tmp_path / "bot.sqlite3", env={"ONEBOT_ACCESS_TOKEN": TOKEN, "ONEBOT_HTTP_EVENTS": "true"})
    bp.start()
    try:
        url = f"http://127.0.0.1:{bp.port}/onebot/v11/"
        auth = {"Authorization": f"Bearer {TOKEN}"}
        for _ in range(100):  # until it listens
            try:
                status = await asyncio.to_thread(_post, url, _event("/创建 测试局"), auth)
                break
            except OSError:
                await asyncio.sleep(0.2)
        assert status == 204
        for _ in range(50):
            with sqlite3.connect(tmp_path / "bot.sqlite3") as con:
                if con.execute("SELECT count(*) FROM game WHERE group_id = ?", (GROUP,)).fetchone()[0]:
                    break
            await asyncio.sleep(0.2)
        else:
            raise AssertionError("the posted /创建 opened no game")
    finally:
        bp.stop()


def test_no_token_means_loopback_only(tmp_path):
    for host in ("127.0.0.1", "::1", "localhost", "127.0.0.2"):
        assert is_loopback(host)
        check_bind(host, None)
    for host in ("0.0.0.0", "192.0.2.1", "", "example.org"):
        assert not is_loopback(host)
        with pytest.raises(SystemExit):
            check_bind(host, None)
        check_bind(host, TOKEN)  # a token makes it safe
    # the real process says so and exits without listening
    bp = BotProcess(tmp_path / "bot.sqlite3", env={"HOST": "0.0.0.0", "ONEBOT_ACCESS_TOKEN": ""})
    r = subprocess.run([sys.executable, "bot.py"], cwd=ROOT, env=bp.env, capture_output=True, text=True, timeout=60)
    assert r.returncode != 0
    assert "ONEBOT_ACCESS_TOKEN" in r.stdout + r.stderr
