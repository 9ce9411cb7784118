"""Shared set-up of the web page tests: bot.py as a process with WEB_PUBLIC_URL on
loopback, the fake QQ (FakeOneBot) for the chat side, Debian's Chromium driven by
Playwright (the pattern of tests/demo/test_rehearsal.py), and a player's link and
password as /网页 sends them."""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import sys
import tempfile
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from fake_onebot import ROOT, BotProcess, FakeOneBot

sys.path.insert(0, str(ROOT / "tests" / "demo"))
from browser_setup import ensure

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
TIMEOUT = 60_000  # ms; generous: the machine may be busy (nothing here measures time)
PHONE = {"width": 390, "height": 844}
DOCS = ROOT / "docs"


@asynccontextmanager
async def bot_with_web(tmp: Path, env: dict[str, str] | None = None):
    """bot.py with the web pages on, and a connected fake QQ."""
    bp = BotProcess(tmp / "bot.sqlite3", env=env)
    bp.env["GAMEHOST__WEB_PUBLIC_URL"] = f"http://127.0.0.1:{bp.port}"
    bp.start()
    ob = FakeOneBot(bp.url)
    try:
        await ob.connect(timeout=60)
        yield bp, ob
    finally:
        await ob.close()
        bp.stop()


async def web_access(ob: FakeOneBot, user: str) -> tuple[str, str]:
    """/网页 in private chat: the link and the password the bot sends back."""
    before = len([t for *_, t in ob.sent() if "密码：" in t])
    await ob.private_message(user, "/网页")
    msg = (await ob.wait_for("密码：", count=before + 1))[-1]
    link = re.search(r"http://\S+/web/g/\S+/", msg)
    password = re.search(r"密码：(\w+)", msg)
    assert link and password, msg
    return link.group(0), password.group(1)


def db_rows(bp: BotProcess, sql: str, *args: object) -> list[tuple]:
    with sqlite3.connect(bp.db) as conn:
        return conn.execute(sql, args).fetchall()


@asynccontextmanager
async def chromium(allowed: str):
    """One headless Chromium; fails the test on a script error or a request outside ``allowed``."""
    reason = ensure()
    if reason:
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    from playwright.async_api import async_playwright

    errors: list[str] = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)

        async def new_page(viewport: dict[str, int] = PHONE):
            ctx = await browser.new_context(viewport=viewport, device_scale_factor=1)
            page = await ctx.new_page()
            page.set_default_timeout(TIMEOUT)
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "status of 4" not in m.text else None)
            page.on("request", lambda req: None if req.url.startswith((allowed, "data:")) else errors.append(req.url))
            return page

        yield new_page
        await browser.close()
    assert not errors  # no script error, nothing fetched from outside the bot


async def login(page, link: str, password: str) -> None:
    await page.goto(link)
    await page.fill("#password", password)
    await page.click("#login")
    await page.wait_for_selector("#title")


def screenshot_path(name: str) -> Path:
    """docs/<name> (the README's pictures) with UPDATE_SCREENSHOT=1, else a throw-away file."""
    if os.environ.get("UPDATE_SCREENSHOT") == "1":
        DOCS.mkdir(exist_ok=True)
        return DOCS / name
    return Path(tempfile.gettempdir()) / f"qqgames-{os.getpid()}-{name}"
