"""The web pages under attack, through the real routes (called in process as ASGI, on this run's
database, so on PostgreSQL too): wrong passwords sent all at once are counted before any is
checked, so at most FREE_TRIES are ever checked before the wait; a new password by /网页 (QQ is
an authenticated channel) lifts the wait; a deeply nested body, a NUL or a lone surrogate in a
JSON string get a short Chinese refusal, never a traceback, and never reach the game."""

from __future__ import annotations

import asyncio
import re
from urllib.parse import urlencode

import pytest
from fastapi import FastAPI
from harness import texts
from loguru import logger

from plugins.kernel.commands import web as web_cmd
from plugins.kernel.models import CommandLog, WebAccess
from plugins.kernel.order import utcnow
from plugins.kernel.web import auth
from plugins.kernel.web.routes import install

BURST = 50


@pytest.fixture
def web_on(monkeypatch):
    monkeypatch.setitem(web_cmd.SITE, "url", "https://games.example.com")


async def asgi(app, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None):
    """One HTTP request to the app: (status, headers, body)."""
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
        "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "", "client": ("127.0.0.1", 5000),
        "server": ("games.example.com", 80),
        "headers": [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()],
    }
    messages = [{"type": "http.request", "body": body, "more_body": False}]
    got: dict = {"status": 0, "headers": [], "body": b""}

    async def receive():
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message):
        if message["type"] == "http.response.start":
            got["status"], got["headers"] = message["status"], message.get("headers", [])
        elif message["type"] == "http.response.body":
            got["body"] += message.get("body", b"")

    await app(scope, receive, send)
    return got["status"], got["headers"], got["body"].decode("utf-8", "replace")


class Page:
    """A browser on one personal link: the login form's token and its cookie."""

    def __init__(self, app, link: str):
        self.app, self.path = app, f"/web/g/{link}/"
        self.token = self.session = ""

    async def open(self) -> None:
        status, _, body = await asgi(self.app, "GET", self.path)
        assert status == 200
        self.token = re.search(r'name="token" value="([^"]+)"', body).group(1)

    async def login(self, password: str) -> tuple[int, str]:
        body = urlencode({"token": self.token, "password": password}).encode()
        status, headers, text = await asgi(self.app, "POST", self.path + "login", body, {
            "content-type": "application/x-www-form-urlencoded", "content-length": str(len(body)),
            "cookie": f"wl={self.token}"})
        for name, value in headers:
            if name == b"set-cookie" and value.startswith(b"ws="):
                self.session = value.split(b";")[0].decode()
        return status, text

    async def act(self, body: bytes) -> tuple[int, str]:
        """A page action with the session and CSRF token of the page after login."""
        status, _, page = await asgi(self.app, "GET", self.path, headers={"cookie": self.session})
        csrf = re.search(r'name="csrf" content="([^"]+)"', page).group(1)
        status, _, text = await asgi(self.app, "POST", self.path + "api/act", body, {
            "content-type": "application/json", "content-length": str(len(body)), "cookie": self.session,
            "x-csrf-token": csrf})
        return status, text


async def royale_with_page(h) -> tuple[FastAPI, str, str]:
    await h.group("1", "/创建 大逃杀", role="owner")
    for i, name in enumerate(["甲", "乙"]):
        await h.group(str(500 + i), f"/报名 {name}")
    await h.group("1", "/开始")
    msg = texts(await h.private("500", "/网页"), "500")
    link = re.search(r"/web/g/([A-Za-z0-9_-]+)/", msg).group(1)
    password = re.search(r"密码：(\w+)", msg).group(1)
    app = FastAPI()
    install(app, "https://games.example.com")
    return app, link, password


async def test_parallel_wrong_passwords_are_counted_before_any_is_checked(harness, web_on, monkeypatch):
    app, link, password = await royale_with_page(harness)
    page = Page(app, link)
    await page.open()
    checked: list[str] = []
    real = auth._scrypt

    def counting(pw: str, salt: bytes) -> bytes:
        checked.append(pw)
        return real(pw, salt)

    monkeypatch.setattr(auth, "_scrypt", counting)
    wrong = "zzzzzz" if password != "zzzzzz" else "yyyyyy"
    results = await asyncio.gather(*(page.login(wrong) for _ in range(BURST)))
    statuses = sorted(s for s, _ in results)
    assert len(checked) <= auth.FREE_TRIES  # scrypt ran at most five times
    assert statuses == [401] * auth.FREE_TRIES + [429] * (BURST - auth.FREE_TRIES)
    assert all("秒后再试" in text for s, text in results if s == 429)
    row = await WebAccess.get(link=link)
    assert row.failures == auth.FREE_TRIES and auth.wait_left(row, utcnow()) > 0
    # the right password waits too now
    assert (await page.login(password))[0] == 429
    assert len(checked) <= auth.FREE_TRIES


async def test_a_new_password_by_qq_lifts_the_wait(harness, web_on):
    h = harness
    app, link, password = await royale_with_page(h)
    page = Page(app, link)
    await page.open()
    for _ in range(auth.FREE_TRIES):
        assert (await page.login("wrong1"))[0] == 401
    status, text = await page.login(password)
    assert status == 429 and "/网页" in text  # the page advises a new password by /网页
    msg = texts(await h.private("500", "/网页"), "500")
    fresh = re.search(r"密码：(\w+)", msg).group(1)
    row = await WebAccess.get(link=link)
    assert row.failures == 0 and auth.wait_left(row, utcnow()) == 0
    status, _ = await page.login(fresh)
    assert status == 303  # logged in at once with the new password


async def test_hostile_json_bodies_are_refused_in_chinese_without_a_traceback(harness, web_on):
    h = harness
    app, link, password = await royale_with_page(h)
    await h.group("1", "/推进")  # the first night: 出生 is open
    page = Page(app, link)
    await page.open()
    assert (await page.login(password))[0] == 303
    errors: list[str] = []
    sink = logger.add(lambda m: errors.append(str(m)), level="WARNING")
    try:
        before = await CommandLog.filter(user_id="500").count()
        deep = b"[" * 30000 + b"]" * 30000  # under the 64 KB cap
        status, text = await page.act(deep)
        assert status == 400 and "无法识别" in text
        deep_object = b'{"word": "\u51fa\u751f", "rest": "x", "more": ' + b"[" * 500 + b"]" * 500 + b"}"
        status, text = await page.act(deep_object)
        assert status == 400 and "无法识别" in text
        for rest in ('"雾雨\\u0000小镇"', '"雾雨\\ud800小镇"'):  # JSON escapes: a NUL, a lone surrogate
            body = ('{"word": "出生", "rest": ' + rest + "}").encode()
            status, text = await page.act(body)
            assert status == 400 and "无法识别" in text, (rest, status, text)
        assert await CommandLog.filter(user_id="500").count() == before  # nothing reached the game
        status, text = await page.act('{"word": "出生", "rest": "雾雨小镇"}'.encode())
        assert status == 200 and "雾雨小镇" in text
    finally:
        logger.remove(sink)
    assert not errors, errors
