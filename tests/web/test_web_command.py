"""/网页 through the bot, in process: off without WEB_PUBLIC_URL; private
only; a link and a fresh password each time, of which only a scrypt hash is stored;
wrong passwords make the player wait; a host resets someone's."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from harness import texts

from plugins.kernel.commands import web as web_cmd
from plugins.kernel.models import WebAccess
from plugins.kernel.order import utcnow
from plugins.kernel.web import auth


@pytest.fixture
def web_on(monkeypatch):
    monkeypatch.setitem(web_cmd.SITE, "url", "https://games.example.com")


async def royale(h) -> None:
    await h.group("1", "/创建 大逃杀", role="owner")
    for i, name in enumerate(["甲", "乙"]):
        await h.group(str(500 + i), f"/报名 {name}")
    await h.group("1", "/开始")


async def test_off_without_a_public_address(harness):
    await royale(harness)
    assert "没有开启网页" in texts(await harness.private("500", "/网页"))


async def test_link_and_password_privately_only_a_hash_kept(harness, web_on):
    h = harness
    await royale(h)
    out = await h.group("500", "/网页")
    assert "只能私聊" in texts(out) and "密码：" not in texts(out)
    out = await h.private("500", "/网页")
    msg = texts(out, "500")
    link = re.search(r"https://games\.example\.com/web/g/([A-Za-z0-9_-]+)/", msg)
    password = re.search(r"密码：(\w+)", msg)
    assert link and password and [k for k, *_ in out] == ["private"]
    access = await WebAccess.get(link=link.group(1))
    assert access.user_id == "500" and access.pw_hash.startswith("scrypt$") and password.group(1) not in access.pw_hash
    assert await auth.password_ok(access.pw_hash, password.group(1))
    # the sent message is not kept with the password in the outbound queue's table
    from plugins.kernel.models import Outbox

    assert not await Outbox.filter(text__contains=password.group(1)).exists()
    assert await Outbox.filter(target_id="500", scrub=True, status="sent").exists()
    # /网页 again: the same link, a new password; the old one stops working
    again = texts(await h.private("500", "/网页"), "500")
    assert link.group(0) in again
    access = await WebAccess.get(link=link.group(1))
    assert not await auth.password_ok(access.pw_hash, password.group(1))
    # someone in no game gets no page
    out = await h.private("9990", "/网页")  # (999 is the bot itself)
    assert "没有参加任何游戏" in texts(out) and "密码：" not in texts(out)


async def test_wrong_passwords_wait_and_a_host_resets(harness, web_on):
    h = harness
    await royale(h)
    await h.private("501", "/网页")
    access = await WebAccess.get(user_id="501")
    now = utcnow()
    for _ in range(auth.FREE_TRIES - 1):
        assert await auth.take_try(access, now) == 0
    assert auth.wait_left(access, now) == 0  # four wrong ones: no wait yet
    assert await auth.take_try(access, now) == 0  # the fifth is still checked
    assert 55 <= auth.wait_left(access, now) <= 61
    assert await auth.take_try(access, now) > 0  # the sixth waits, unchecked
    later = now + timedelta(seconds=61)
    assert await auth.take_try(access, later) == 0  # after the wait, one more try
    assert auth.wait_left(access, later + timedelta(seconds=61)) > 0  # the wait doubles
    assert "只有主持" in texts(await h.private("500", "/网页 重置 2"))
    out = await h.private("1", "/网页 重置 2")
    assert "已重置 2号" in texts(out, "1") and "密码：" in texts(out, "501") and "密码：" not in texts(out, "1")
    access = await WebAccess.get(user_id="501")
    assert access.failures == 0 and auth.wait_left(access, now) == 0
