"""End to end: bot.py as a real process, a fake OneBot implementation over a
real reverse WebSocket, and a hard kill between a deadline
and its firing (item 5)."""

import asyncio
import json
import sqlite3
from datetime import datetime, timedelta, timezone

import pytest
from fake_onebot import BotProcess, FakeOneBot, postgres_skip_reason

GROUP = "880001"


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(
    postgres_skip_reason() is not None, reason=postgres_skip_reason() or ""))])
async def database_url(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite://{tmp_path / 'bot.sqlite3'}"
        return
    import os

    import asyncpg

    name = f"qqgames_test_{tmp_path.name[-20:]}_{os.getpid()}".replace("-", "_").lower()
    con = await asyncpg.connect("postgresql://postgres@127.0.0.1:5432/postgres")
    await con.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    await con.execute(f'CREATE DATABASE "{name}"')
    await con.close()
    yield f"postgresql://postgres@127.0.0.1:5432/{name}"
    con = await asyncpg.connect("postgresql://postgres@127.0.0.1:5432/postgres")
    await con.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    await con.close()


async def _rows(database_url: str, sql: str) -> list[tuple]:
    if database_url.startswith("sqlite://"):
        with sqlite3.connect(database_url.removeprefix("sqlite://")) as con:
            return con.execute(sql).fetchall()
    import asyncpg

    con = await asyncpg.connect(database_url)
    try:
        return [tuple(r) for r in await con.fetch(sql)]
    finally:
        await con.close()


@pytest.fixture
def bot_process(tmp_path):
    procs = []

    def make(**kw):
        p = BotProcess(tmp_path / "bot.sqlite3", **kw)
        procs.append(p)
        return p

    yield make
    for p in procs:
        p.stop()


async def test_game_over_real_websocket(bot_process, database_url):
    """The same code on SQLite and on PostgreSQL (asyncpg)."""
    bp = bot_process(env={"GAMEHOST__DATABASE_URL": database_url})
    bp.start()
    ob = FakeOneBot(bp.url)
    await ob.connect()
    try:
        # offered compression (as NapCat's client does) is declined: GAMEHOST__WS_COMPRESSION is off
        assert "permessage-deflate" in ob._ws.request.headers["Sec-WebSocket-Extensions"]
        assert "Sec-WebSocket-Extensions" not in ob._ws.response.headers
        await ob.group_message(GROUP, "1", "/创建 测试局", role="owner")
        await ob.wait_for("开局了")
        await ob.group_message(GROUP, "11", "/报名 甲")
        await ob.group_message(GROUP, "12", "/报名 乙")
        await ob.wait_for("2号「乙」")
        await ob.group_message(GROUP, "1", "/开始")
        await ob.wait_for("你是 2号「乙」")
        await ob.private_message("11", "/我的身份")
        await ob.wait_for("你是 1号。")
        # a duplicate delivery is answered once
        mid = await ob.group_message(GROUP, "11", "/票 2")
        await ob.group_message(GROUP, "11", "/票 2", message_id=mid)
        await ob.wait_for("投给 2号")
        await asyncio.sleep(0.5)
        assert len([t for *_, t in ob.sent() if "投给 2号" in t]) == 1
        # texts live in rows of their own, the stored state holds refs, on both databases
        note = "记" + "长" * 400
        await ob.private_message("11", note)
        await ob.private_message("12", note)  # the same text: the same row
        await ob.wait_for("已记下。", count=2)
        assert await _rows(database_url, "SELECT ref, text FROM game_text") == [(1, note)]
        (stored,) = await _rows(database_url, "SELECT state FROM game")
        assert json.loads(stored[0])["notes"] == ["\x01text:1", "\x01text:1"]  # both the same text: one row
        # user text is sent as a plain text segment, never as CQ code
        await ob.group_message(GROUP, "11", "/报名 [CQ:at,qq=all]")
        await ob.wait_for("游戏已经开始")
        for action, params in ob.calls:
            if action.startswith("send_"):
                msg = params["message"]
                assert isinstance(msg, list) and all(seg["type"] == "text" for seg in msg)
        # at LOG_LEVEL=INFO the bot's log holds its own lines, not players' (private) messages
        log = bp.log.read_text(errors="replace")
        assert "deadlines armed" in log
        assert note not in log and "/我的身份" not in log and "Event will be handled" not in log
    finally:
        await ob.close()


async def test_a_sign_up_sent_with_the_create_behind_a_burst_is_taken(bot_process):
    """Bot.py admits events per game (routing/admission.py): a burst read in one go loses
    nothing, and a private /报名 naming a group, read together with that group's /创建 just before
    it, is routed after it. (The admission order itself is tested step by step in test_admission.py;
    here the bot is often quick enough to need none of it.)"""
    bp = bot_process()
    bp.start()
    ob = FakeOneBot(bp.url)
    await ob.connect()
    try:
        ob.send_at_once([*(ob.group_event(GROUP, str(30 + i), f"闲聊 {i}") for i in range(12)),
                         ob.group_event(GROUP, "1", "/创建 测试局", role="owner"),
                         ob.private_event("11", f"/报名 {GROUP} 甲"), ob.private_event("12", "/在吗")])
        await ob.wait_for("报名成功：1号「甲」")
        await ob.wait_for("在")
    finally:
        await ob.close()


async def test_send_failure_is_retried(bot_process):
    bp = bot_process(env={"SEND_BACKOFF": "0.2"})
    bp.start()
    ob = FakeOneBot(bp.url)
    await ob.connect()
    try:
        ob.fail_sends = 2  # NapCat answers retcode 1200 twice
        await ob.group_message(GROUP, "1", "/创建 测试局", role="owner")
        await ob.wait_for("开局了", timeout=30)
        assert len([t for *_, t in ob.sent() if "开局了" in t]) == 1
    finally:
        await ob.close()


def _db(path):
    return sqlite3.connect(path)


async def test_deadline_survives_hard_kill_and_fires_exactly_once(bot_process, tmp_path):
    bp = bot_process()
    bp.start()
    ob = FakeOneBot(bp.url)
    await ob.connect()
    await ob.group_message(GROUP, "1", "/创建 测试局", role="owner")
    await ob.group_message(GROUP, "11", "/报名 甲")
    await ob.group_message(GROUP, "12", "/报名 乙")
    await ob.wait_for("2号「乙」")
    await ob.group_message(GROUP, "1", "/开始")
    await ob.wait_for("游戏开始")
    await ob.close()
    bp.kill()  # hard kill: no shutdown hook runs

    # while the bot is down, its deadline passes
    past = (datetime.now(timezone.utc) - timedelta(minutes=3)).strftime("%Y-%m-%d %H:%M:%S.%f+00:00")
    with _db(bp.db) as con:
        n = con.execute("UPDATE timer SET ends_at=? WHERE key='phase' AND status='armed'", (past,)).rowcount
    assert n == 1

    bp.start()  # back up: the overdue deadline fires as soon as it is back
    ob = FakeOneBot(bp.url)
    await ob.connect()
    await ob.wait_for("天亮了，第2天", timeout=30)
    await asyncio.sleep(1.0)
    await ob.close()
    bp.kill()

    bp.start()  # and never twice
    ob = FakeOneBot(bp.url)
    await ob.connect()
    await ob.group_message(GROUP, "11", "/状态")
    await ob.wait_for("第2天")
    await asyncio.sleep(1.0)
    assert not [t for *_, t in ob.sent() if "天亮了" in t]
    await ob.close()
    with _db(bp.db) as con:
        fired = con.execute("SELECT count(*) FROM command_log WHERE name='timer:phase'").fetchone()[0]
    assert fired == 1
