"""A command that only answers and changes its game's state is written in one transaction
of one trip to the database (issue 19 item 4: writes proportional to the change), all or
nothing: a failed write leaves the game as it was, and the next command starts from the
stored state."""

from datetime import datetime, timezone

import pytest
from harness import demo_running, group_payload, texts
from nonebot.adapters.onebot.v11 import Adapter
from nonebot.message import handle_event
from tortoise.transactions import in_transaction

import plugins.kernel.delivery as delivery
from plugins.kernel.bulk import WriteFailed, insert_statement, write_at_once
from plugins.kernel.models import CommandLog, Delivery, Game


async def test_write_at_once_writes_all_or_nothing(nonebug_init):
    now = datetime.now(timezone.utc)
    first = insert_statement(Delivery, [{"key": "w-first", "at": now}])
    again = insert_statement(Delivery, [{"key": "w-first", "at": now}])
    with pytest.raises(WriteFailed) as failed:
        await write_at_once([first, again])
    assert failed.value.index == 1
    assert not await Delivery.exists(key="w-first")  # the first was rolled back with the second
    await write_at_once([first])
    assert await Delivery.exists(key="w-first")
    async with in_transaction():  # inside a transaction: part of it
        await write_at_once([insert_statement(Delivery, [{"key": "w-inside", "at": now}])])
    assert await Delivery.exists(key="w-inside")


async def test_a_vote_whose_write_fails_changes_nothing(harness, monkeypatch):
    h = harness
    g = await demo_running(h)
    logged = await CommandLog.filter(game_id=g.id).count()
    real = delivery.write_at_once

    failures = [RuntimeError("disk full")]

    async def broken(stmts):  # the vote's write fails; the error reply after it goes out
        if failures:
            raise failures.pop()
        await real(stmts)

    monkeypatch.setattr(delivery, "write_at_once", broken)
    out = await h.group("31", "/票 2")
    assert "机器人出错了" in texts(out) and "投给" not in texts(out)
    monkeypatch.setattr(delivery, "write_at_once", real)
    stored = await Game.get(id=g.id)
    assert stored.state["votes"] == [] and await CommandLog.filter(game_id=g.id).count() == logged
    out = await h.group("32", "/票 1")
    assert "投给 1号" in texts(out)
    assert "已投 1 票" in texts(await h.group("31", "/查票"))  # the failed vote left nothing in memory either


async def test_a_vote_is_one_trip_to_the_database(harness, monkeypatch):
    import aiosqlite

    h = harness
    await demo_running(h)
    await h.group("31", "/票 2")  # the game is held in memory from here on
    trips = []
    real = aiosqlite.Connection._execute

    async def counted(self, fn, *args, **kwargs):
        trips.append(fn)
        return await real(self, fn, *args, **kwargs)

    monkeypatch.setattr(aiosqlite.Connection, "_execute", counted)
    ev = Adapter.json_to_event(group_payload(h.bot.self_id, h.group_id, "32", "/票 1"))
    await handle_event(h.bot, ev)
    monkeypatch.setattr(aiosqlite.Connection, "_execute", real)
    assert len(trips) == 1  # delivery key, log row, state and answer: one transaction, one trip
    assert "投给 1号" in texts(await h.drain())
