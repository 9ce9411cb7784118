"""A command that only answers and changes its game's state is written in one transaction
of one trip to the database (issue 19 item 4: writes proportional to the change), all or
nothing: a failed write leaves the game as it was, and the next command starts from the
stored state."""

import os
import sqlite3
from datetime import datetime, timezone

import pytest
from fake_onebot import PostgresDatabase, postgres_skip_reason
from harness import demo_running, group_payload, sqlite_only, sqlite_trips, texts
from nonebot.adapters.onebot.v11 import Adapter
from nonebot.message import handle_event
from tortoise.transactions import in_transaction

from plugins.kernel.bulk import WriteFailed, write_at_once
from plugins.kernel.models import CommandLog, Delivery, Game
from plugins.kernel.statements import insert_statement


async def test_write_at_once_writes_all_or_nothing(nonebug_init):
    """The failed write is named by its index (on PostgreSQL, whose one statement names only the table
    of the broken constraint: the first write to that table; the kernel's writes have one per table)."""
    from plugins.kernel.models import Outbox

    now = datetime.now(timezone.utc)
    await write_at_once([insert_statement(Delivery, [{"key": "w-taken", "at": now}])])
    first = insert_statement(Outbox, [{"target_type": "private", "target_id": "t-all", "text": "x",
                                       "next_try_at": now, "created_at": now}])
    again = insert_statement(Delivery, [{"key": "w-taken", "at": now}])
    with pytest.raises(WriteFailed) as failed:
        await write_at_once([first, again])
    assert failed.value.index == 1
    assert not await Outbox.exists(target_id="t-all")  # the first was rolled back with the second
    await write_at_once([first])
    assert await Outbox.exists(target_id="t-all")
    async with in_transaction():  # inside a transaction: part of it
        await write_at_once([insert_statement(Delivery, [{"key": "w-inside", "at": now}])])
    assert await Delivery.exists(key="w-inside")


async def test_times_are_stored_as_tortoise_stores_them(nonebug_init):
    """On SQLite a time is bound as text once per statement (sqlite3 would call Tortoise's adapter
    for every row): the text is the adapter's, so comparisons with times Tortoise binds hold."""
    from tortoise import connections

    from plugins.kernel.models import Outbox

    at = datetime(2026, 12, 2, 3, 4, 5, 678901, tzinfo=timezone.utc)
    row = {"target_type": "private", "target_id": "t-time", "text": "x", "next_try_at": at, "created_at": at}
    await write_at_once([insert_statement(Outbox, [row, dict(row, text="y")])])
    assert await Outbox.filter(target_id="t-time", next_try_at__lte=at).count() == 2
    assert await Outbox.filter(target_id="t-time", next_try_at__lt=at).count() == 0
    if connections.get("default").capabilities.dialect == "sqlite":
        _, raw = await connections.get("default").execute_query(
            "SELECT next_try_at FROM outbox WHERE target_id = ?", ["t-time"])
        assert [r[0] for r in raw] == [str(sqlite3.adapters[(datetime, sqlite3.PrepareProtocol)](at))] * 2
    assert [o.created_at for o in await Outbox.filter(target_id="t-time")] == [at, at]


async def test_a_slow_commit_is_logged_with_its_time(nonebug_init, monkeypatch):
    """A COMMIT slower than ``bulk.SLOW_COMMIT`` (the disk's fsync stalled) is logged, so a slow
    moment of the bot has its reason in the log (here every commit counts as slow); on PostgreSQL
    the write's round trip."""
    from nonebot.log import logger
    from tortoise import connections

    import plugins.kernel.bulk as bulk

    sqlite = connections.get("default").capabilities.dialect == "sqlite"
    lines: list[str] = []
    sink = logger.add(lambda m: lines.append(str(m)), level="WARNING")
    monkeypatch.setattr(bulk, "SLOW_COMMIT", -1.0)
    try:
        await write_at_once([insert_statement(Delivery, [{"key": "w-slow", "at": datetime.now(timezone.utc)}])])
    finally:
        logger.remove(sink)
    said = "SQLite: a commit took" if sqlite else "PostgreSQL: a write took"
    assert any(said in line and " ms " in line for line in lines)


@sqlite_only
async def test_writes_handed_in_while_sqlite_is_busy_share_one_trip_and_fail_alone(nonebug_init, monkeypatch):
    """Group commit: writes that wait for SQLite's connection thread go in one trip and one
    COMMIT, each in a savepoint of its own: the one that breaks a constraint is undone alone
    and only its caller hears of it (as with a trip of its own)."""
    import asyncio
    import threading

    from tortoise import connections

    import plugins.kernel.bulk as bulk

    now = datetime.now(timezone.utc)
    await write_at_once([insert_statement(Delivery, [{"key": "g-taken", "at": now}])])
    gate = threading.Event()
    busy = asyncio.ensure_future(bulk.on_sqlite_thread(connections.get("default"), lambda raw: gate.wait(5)))
    outcomes: list = []

    async def three() -> None:
        writes = [asyncio.ensure_future(write_at_once([insert_statement(Delivery, [{"key": k, "at": now}])]))
                  for k in ("g-1", "g-taken", "g-2")]
        await asyncio.sleep(0.05)  # all three wait behind the busy thread
        gate.set()
        outcomes.extend(await asyncio.gather(*writes, return_exceptions=True))

    trips = await sqlite_trips(monkeypatch, three())
    await busy
    assert trips == [bulk._run_all]
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], WriteFailed) and outcomes[1].index == 0
    assert await Delivery.filter(key__in=["g-1", "g-2"]).count() == 2


@sqlite_only
async def test_a_trip_that_cannot_run_fails_its_writes_instead_of_leaving_them_waiting(nonebug_init, monkeypatch):
    """The connection closed under a group commit's trip (shutdown): every write waiting for that
    trip gets the error, and the next write takes a trip of its own."""
    import plugins.kernel.bulk as bulk

    now = datetime.now(timezone.utc)
    real = bulk.on_sqlite_thread

    async def closed(db, fn, *args):
        raise ValueError("Connection closed")

    monkeypatch.setattr(bulk, "on_sqlite_thread", closed)
    with pytest.raises(ValueError, match="Connection closed"):
        await write_at_once([insert_statement(Delivery, [{"key": "t-lost", "at": now}])])
    monkeypatch.setattr(bulk, "on_sqlite_thread", real)
    await write_at_once([insert_statement(Delivery, [{"key": "t-next", "at": now}])])
    assert await Delivery.exists(key="t-next") and not await Delivery.exists(key="t-lost")


@sqlite_only
async def test_a_vote_whose_write_fails_changes_nothing(harness, monkeypatch):
    h = harness
    g = await demo_running(h)
    logged = await CommandLog.filter(game_id=g.id).count()
    import plugins.kernel.bulk as bulk

    real = bulk._statements
    failures = [sqlite3.OperationalError("disk full")]

    def broken(raw, stmts, later=None):  # the vote's write fails in SQLite's thread; the error reply after it goes out
        if failures:
            raise failures.pop()
        real(raw, stmts, later)

    monkeypatch.setattr(bulk, "_statements", broken)
    out = await h.group("31", "/票 2")
    assert "机器人出错了" in texts(out) and "投给" not in texts(out)
    monkeypatch.setattr(bulk, "_statements", real)
    stored = await Game.get(id=g.id)
    assert stored.state["votes"] == [] and await CommandLog.filter(game_id=g.id).count() == logged
    out = await h.group("32", "/票 1")
    assert "投给 1号" in texts(out)
    assert "已投 1 票" in texts(await h.group("31", "/查票"))  # the failed vote left nothing in memory either


async def _trips(h, payload: dict, monkeypatch) -> list:
    """What each trip to SQLite's connection thread ran while ``payload`` was handled."""
    return await sqlite_trips(monkeypatch, handle_event(h.bot, Adapter.json_to_event(payload)))


@sqlite_only
async def test_a_vote_is_one_trip_to_the_database(harness, monkeypatch):
    import plugins.kernel.bulk as bulk

    h = harness
    await demo_running(h)
    await h.group("31", "/票 2")  # the game is held in memory from here on
    trips = await _trips(h, group_payload(h.bot.self_id, h.group_id, "32", "/票 1"), monkeypatch)
    assert trips == [bulk._run_all]  # delivery key, log row, state and answer: one transaction, one trip
    assert "投给 1号" in texts(await h.drain())


PG_SCRIPT = r"""
import asyncio, json, sys
from datetime import datetime, timezone
sys.path.insert(0, sys.argv[2])
import nonebot
from nonebot.adapters.onebot.v11 import Adapter
nonebot.init(driver="~fastapi", log_level="WARNING")
nonebot.get_driver().register_adapter(Adapter)
nonebot.load_from_toml(sys.argv[2] + "/pyproject.toml")
from tortoise import Tortoise
from plugins.kernel.bulk import WriteFailed, write_at_once
from plugins.kernel.statements import insert_statement, update_statement, upsert_statement
from plugins.kernel.db import tortoise_config, upgrade
from plugins.kernel.models import Contact, Delivery, Game, Outbox

async def main():
    url = sys.argv[1]
    await upgrade(url)
    await Tortoise.init(config=tortoise_config(url))
    from tortoise import connections
    client = type(connections.get("default"))
    seen, real = [], client.execute_query
    async def recorded(self, query, values=None):
        seen.append(query)
        return await real(self, query, values)
    client.execute_query = recorded
    now = datetime.now(timezone.utc)
    g = await Game.create(group_id="1", kind="demo", seed="s", created_by="h", state={"n": 0})
    g.state, g.last_seq = {"n": 1, "text": "长文"}, 7
    rows = [{"target_type": "private", "target_id": str(i), "text": f"第{i}条", "next_try_at": now,
             "created_at": now, "game_id": g.id} for i in range(3)]
    key = [insert_statement(Delivery, [{"key": "k1", "at": now}])]
    await write_at_once(key + [update_statement(g, ("state", "last_seq")), insert_statement(Outbox, rows)])
    out = {"first": [(await Game.get(id=g.id)).state, (await Game.get(id=g.id)).last_seq,
                     await Outbox.filter(game_id=g.id).count()]}
    g.state = {"n": 2}
    try:
        await write_at_once(key + [update_statement(g, ("state", "last_seq")), insert_statement(Outbox, rows)])
    except WriteFailed as exc:
        out["again"] = exc.index
    out["after"] = [(await Game.get(id=g.id)).state, await Outbox.filter(game_id=g.id).count()]
    out["one"] = sum(q.startswith("WITH w0 AS (INSERT INTO") for q in seen)
    for self_id in ("901", "902"):  # a new contact, then the same user through another account
        await write_at_once([upsert_statement(Contact, [{"user_id": "7", "self_id": self_id, "at": now},
                                                        {"user_id": f"8{self_id}", "self_id": self_id, "at": now}])])
    out["contacts"] = sorted(await Contact.all().values_list("user_id", "self_id"))
    async with connections.get("default")._pool.acquire() as con:  # handed back without a reset query...
        out["reset_query"] = con.get_reset_query()
        await con.execute("BEGIN")
        await con.execute("INSERT INTO delivery (key, at) VALUES ('left-open', now())")
    out["left_open"] = await Delivery.filter(key="left-open").exists()  # ...but an open transaction is rolled back
    import plugins.kernel.outbox_heads as heads
    from plugins.kernel.outbox import _write_sent
    heads.VACUUM_AFTER = 5
    sent = [r for r in await Outbox.filter(game_id=g.id)]
    await _write_sent([(sent, now)])  # 3 rows marked: not yet
    out["vacuumed_early"] = heads._vacuum is not None
    await _write_sent([(sent[:2], now)])  # 5: the table is cleaned up in the background
    await heads._vacuum
    async with connections.get("default")._pool.acquire() as con:
        await con.execute("SELECT pg_stat_clear_snapshot()")
        out["vacuums"] = await con.fetchval("SELECT vacuum_count + autovacuum_count FROM pg_stat_user_tables WHERE relname = 'outbox'")
        out["analysed"] = await con.fetchval("SELECT count(*) FROM pg_stats WHERE tablename = 'outbox' AND attname = 'status'")
    from plugins.kernel.bulk import Link
    from plugins.kernel.inflight import begin_write
    a, b, c, d = Link(), Link(), Link(), Link()  # b after a (whose key is taken), d after c
    fa = begin_write([insert_statement(Delivery, [{"key": "k1", "at": now}])], a, None, g.id)
    fb = begin_write([insert_statement(Delivery, [{"key": "chain-b", "at": now}])], b, a, g.id)
    g.state = {"n": 10}
    fc = begin_write([update_statement(g, ("state",))], c, None, g.id)
    g.state = {"n": 11}
    fd = begin_write([update_statement(g, ("state",))], d, c, g.id)
    done = await asyncio.gather(fa, fb, fc, fd, return_exceptions=True)
    out["chain"] = [type(r).__name__ for r in done] + [await Delivery.filter(key="chain-b").exists(),
                                                       (await Game.get(id=g.id)).state]
    e, f = Link(), Link()  # two that queued behind a third: one statement, the row updated once
    first = begin_write([insert_statement(Delivery, [{"key": "chain-first", "at": now}])], Link(), None, g.id)
    g.state = {"n": 20}
    fe = begin_write([update_statement(g, ("state",)), insert_statement(Delivery, [{"key": "chain-e", "at": now}])], e, None, g.id)
    g.state = {"n": 21}
    ff = begin_write([update_statement(g, ("state",)), insert_statement(Delivery, [{"key": "chain-f", "at": now}])], f, e, g.id)
    before = len(seen)
    await asyncio.gather(first, fe, ff)
    out["together"] = [len(seen) - before, (await Game.get(id=g.id)).state,
                       await Delivery.filter(key__in=["chain-e", "chain-f"]).count()]
    import plugins.kernel.bulk as bulk
    from nonebot.log import logger
    lines = []
    sink = logger.add(lambda m: lines.append(str(m)), level="WARNING")
    bulk.SLOW_COMMIT = -1.0  # every write counts as slow: it is logged with its time
    await write_at_once([insert_statement(Delivery, [{"key": "slow-pg", "at": now}])])
    logger.remove(sink)
    out["slow_logged"] = any("PostgreSQL: a write took" in line for line in lines)
    from plugins.kernel.models import Timer
    keys = []  # a new row whose key is asked for (a timer a command arms): the key itself, as on SQLite
    await write_at_once([insert_statement(Timer, [{"game_id": g.id, "key": "k", "ends_at": now, "status": "armed",
                                                   "attempts": 0}], keys)])
    t = await Timer.get(game_id=g.id, key="k")
    out["new_keys"] = [type(keys[0]).__name__, keys[0] == t.id]
    print(json.dumps(out, ensure_ascii=False))
    await Tortoise.close_connections()

asyncio.run(main())
"""


@pytest.mark.skipif(postgres_skip_reason() is not None, reason=postgres_skip_reason() or "")
async def test_on_postgresql_the_writes_are_one_statement_all_or_nothing(tmp_path):
    """PostgreSQL: the writes go as one statement (parts of one WITH); a repeated delivery key
    is told apart (the failed part's index) and nothing of the statement is written."""
    import json
    import subprocess
    import sys

    from fake_onebot import ROOT

    async with PostgresDatabase("writes") as url:
        script = tmp_path / "pg_writes.py"
        script.write_text(PG_SCRIPT, "utf-8")
        run = subprocess.run([sys.executable, str(script), url, str(ROOT)], capture_output=True, text=True,
                             timeout=120, env={**os.environ, "DATA_DIR": str(tmp_path)})
        assert run.returncode == 0, run.stderr[-2000:]
        out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["first"] == [{"n": 1, "text": "长文"}, 7, 3]
    assert out["again"] == 0  # the delivery key: a repeated delivery, to be ignored
    assert out["after"] == [{"n": 1, "text": "长文"}, 3]  # nothing of the second write
    assert out["one"] == 2  # each write was one statement
    assert out["contacts"] == [["7", "902"], ["8901", "901"], ["8902", "902"]]  # upserts: inserted, then updated
    # a pooled connection goes back without asyncpg's reset query (one round trip more per query: the
    # kernel keeps no session state on them), and a transaction left open is still rolled back
    assert out["reset_query"] == "" and out["left_open"] is False
    # every row of the queue leaves an old version when it is marked sent: the table is vacuumed and
    # analysed after every VACUUM_AFTER rows marked, whether PostgreSQL's autovacuum runs or not
    assert out["vacuumed_early"] is False and out["vacuums"] == 1 and out["analysed"] == 1
    # writes handed in one after another (inflight.py): each lands after the one it follows, and not at
    # all when that one did not
    assert out["chain"] == ["WriteFailed", "Superseded", "NoneType", "NoneType", False, {"n": 11}]
    assert out["together"][1:] == [{"n": 21}, 2] and out["together"][0] <= 2  # the last two as one statement
    assert out["slow_logged"] is True  # a write slower than bulk.SLOW_COMMIT is logged with its time
    # a key asked for comes back as the key (asyncpg gives the returned row: a timer armed by a command
    # and changed by a later one failed to save on PostgreSQL, "int() argument must be … not Record")
    assert out["new_keys"] == ["int", True]


@sqlite_only
async def test_a_one_trip_write_never_lands_inside_another_tasks_transaction(nonebug_init):
    """SQLite has one connection: a one-trip write waits for a transaction another task has open
    (it holds the connection's lock from BEGIN to COMMIT), and both land whole."""
    import asyncio

    now = datetime.now(timezone.utc)
    order: list[str] = []

    async def long_transaction():
        async with in_transaction():
            await Delivery.create(key="t-a1", at=now)
            order.append("a begun")
            await asyncio.sleep(0.05)
            await Delivery.create(key="t-a2", at=now)
        order.append("a committed")

    async def one_trip():
        while "a begun" not in order:
            await asyncio.sleep(0)
        await write_at_once([insert_statement(Delivery, [{"key": "t-b", "at": now}])])
        order.append("b written")

    await asyncio.gather(long_transaction(), one_trip())
    assert order == ["a begun", "a committed", "b written"]
    assert await Delivery.filter(key__in=["t-a1", "t-a2", "t-b"]).count() == 3


async def _signed_up(h):
    await h.group("1", "/创建 测试局", role="owner")
    await h.group("31", "/报名 甲")
    await h.group("32", "/报名 乙")
    return await Game.get(group_id=h.group_id, status="signup")


@sqlite_only
async def test_a_start_is_one_trip_and_its_deadline_is_armed(harness, monkeypatch):
    """/开始 (the deal, its role messages, the phase, its deadline and the audit rows) is one
    transaction of one trip; the new deadline row's key comes back from it and arms the job."""
    from nonebot_plugin_apscheduler import scheduler

    import plugins.kernel.bulk as bulk
    from plugins.kernel.models import Audit, Timer

    h = harness
    g = await _signed_up(h)
    trips = await _trips(h, group_payload(h.bot.self_id, h.group_id, "1", "/开始", role="owner"), monkeypatch)
    assert trips == [bulk._run_all]
    g = await Game.get(id=g.id)
    assert (g.status, g.phase_key, g.phase_label, g.last_seq) == ("running", "day1", "第1天", 1) and g.started_at
    t = await Timer.get(game_id=g.id, key="phase", status="armed")
    assert scheduler.get_job(f"timer-{t.id}") is not None
    assert await Audit.filter(game_id=g.id, action__in=["start", "phase"]).count() == 2
    out = await h.drain()
    assert "你是 1号「甲」" in texts(out) and "你是 2号「乙」" in texts(out) and "游戏开始，第1天。" in texts(out)
    out = await h.group("1", "/推进")  # the held timer row is the stored one: it is updated, not inserted again
    assert "天亮了，第2天" in texts(out)
    assert (await Timer.get(id=t.id)).status == "cancelled"
    assert await Timer.filter(game_id=g.id, status="armed").count() == 1


async def test_a_start_whose_effects_need_a_transaction_writes_everything_in_it(harness, monkeypatch):
    """An effect beyond answers, phase and timers (here a player out at the start): the step
    goes to an ordinary transaction, with the audit row written before it."""
    from plugins.gamekit.contract import Eliminate
    from plugins.kernel.models import Audit, Player, Timer
    from plugins.kernel.registry import get_kind

    h = harness
    g = await _signed_up(h)
    eng = get_kind(g.kind).engine
    real = eng.start

    def start(roster, ctx):
        out = real(roster, ctx)
        out.effects.append(Eliminate(2, "开局即出局"))
        return out

    monkeypatch.setattr(eng, "start", start)
    await h.group("1", "/开始")
    assert not (await Player.get(game_id=g.id, seat=2)).alive
    assert await Audit.filter(game_id=g.id, action="start").count() == 1
    assert await Timer.filter(game_id=g.id, status="armed").count() == 1
    assert (await Game.get(id=g.id)).status == "running"


@sqlite_only
async def test_a_start_whose_write_fails_changes_nothing(harness, monkeypatch):
    from plugins.kernel.models import Audit, Timer

    h = harness
    g = await _signed_up(h)
    import plugins.kernel.bulk as bulk

    real = bulk._statements
    failures = [sqlite3.OperationalError("disk full")]

    def broken(raw, stmts, later=None):
        if failures:
            raise failures.pop()
        real(raw, stmts, later)

    monkeypatch.setattr(bulk, "_statements", broken)
    out = await h.group("1", "/开始")
    assert "机器人出错了" in texts(out)
    monkeypatch.setattr(bulk, "_statements", real)
    assert (await Game.get(id=g.id)).status == "signup"
    assert not await Timer.filter(game_id=g.id).exists() and not await Audit.filter(game_id=g.id, action="start").exists()
    out = await h.group("1", "/开始")
    assert "游戏开始，第1天。" in texts(out)
    assert await Timer.filter(game_id=g.id, status="armed").count() == 1


def test_sqlite_checkpoints_by_itself_only_after_a_long_log():
    """SQLite checkpoints inside the commit that takes its log past ``wal_autocheckpoint`` pages
    (a ~10 ms commit every ~80 votes at its default of 1,000): the kernel raises the threshold
    and checkpoints beside the writes (checkpoint.py); a threshold in DATABASE_URL is kept."""
    from plugins.kernel.db import SQLITE_WAL_PAGES, tortoise_config

    url = tortoise_config("sqlite:///srv/bot/bot.sqlite3")["connections"]["default"]
    assert url == f"sqlite:///srv/bot/bot.sqlite3?wal_autocheckpoint={SQLITE_WAL_PAGES}"
    assert tortoise_config("sqlite:///tmp/b.sqlite3?wal_autocheckpoint=500")["connections"]["default"].endswith("=500")
    assert "wal_autocheckpoint" not in tortoise_config("postgresql://u@h/db")["connections"]["default"]["credentials"]


@sqlite_only
async def test_while_messages_arrive_the_log_is_checkpointed_beside_the_writes_and_restarted(harness, monkeypatch):
    from tortoise import connections

    import plugins.kernel.checkpoint as checkpoint

    h = harness
    running = checkpoint.checkpointer._task is not None  # the bot's own (started with the kernel)
    await checkpoint.checkpointer.stop()  # its checkpoints would land in ``done`` too
    await demo_running(h)
    db = connections.get("default")
    assert (await db.execute_query("PRAGMA wal_autocheckpoint"))[1][0][0] == 10_000  # set from DATABASE_URL
    writer = db._connection._conn
    done: list[tuple[str, tuple[int, int, int]]] = []
    real = checkpoint._checkpoint
    monkeypatch.setattr(checkpoint, "_checkpoint",
                        lambda raw: done.append(("writer" if raw is writer else "own", real(raw))) or done[-1][1])
    c = checkpoint.Checkpointer()
    try:
        assert await c.step(now=1000.0)
        (first, (busy, frames, copied)), (second, after) = done
        # first on a connection of its own (the writes go on meanwhile), then between two writes
        assert (first, second) == ("own", "writer")
        assert busy == 0 and frames > 0 and copied == frames  # the log's pages are in the database file
        assert after[0] == 0 and after[1] == after[2]
        assert not await c.step(now=1000.0 + 10 * checkpoint.EVERY) and len(done) == 2  # nothing arrived since
        await h.group("31", "/票 2")
        assert not await c.step(now=1000.0 + checkpoint.EVERY / 2) and len(done) == 2  # too soon after the last
        assert await c.step(now=1000.0 + checkpoint.EVERY) and len(done) == 4
        # the vote's write started the log afresh: only its own pages were in it
        assert 0 < done[2][1][1] < frames
    finally:
        await c.stop()
        if running:
            checkpoint.checkpointer.start()
    assert c.side is None


def test_rows_written_without_model_objects_are_checked_as_the_model_checks_them(nonebug_init):
    """``insert_statement`` stores strings of plain text columns as they are (no validator per
    value), but a value longer than its column still fails as ``Model.save`` would fail."""
    from tortoise.exceptions import ValidationError

    from plugins.kernel.models import Outbox

    now = datetime.now(timezone.utc)
    rows = [{"target_type": "private", "target_id": str(i), "text": f"第{i}条", "next_try_at": now, "created_at": now}
            for i in range(3)]
    st = insert_statement(Outbox, rows)
    columns = [c.strip('" ') for c in st.head.split("(", 1)[1].rstrip(")").split(",")]
    assert [r[columns.index("text")] for r in st.rows] == ["第0条", "第1条", "第2条"]
    rows[1]["target_id"] = "9" * 33  # target_id is VARCHAR(32)
    with pytest.raises(ValidationError):
        insert_statement(Outbox, rows)


async def test_many_rows_are_written_in_their_order_and_all_or_nothing(nonebug_init):
    """An INSERT of many rows goes in multi-row statements of a few sizes (bulk._insert_many):
    every row lands once, in the order given (the outbound queue sends by id), for counts
    on and beside the sizes; a row that breaks a constraint undoes the whole write."""
    from plugins.kernel.models import Outbox

    now = datetime.now(timezone.utc)
    for n in (2, 3, 31, 32, 33, 91):
        rows = [{"target_type": "private", "target_id": f"many-rows-{n}", "text": f"{n}-{i}", "next_try_at": now, "created_at": now}
                for i in range(n)]
        await write_at_once([insert_statement(Outbox, rows)])
        stored = await Outbox.filter(target_id=f"many-rows-{n}").order_by("id").values_list("text", flat=True)
        assert stored == [f"{n}-{i}" for i in range(n)], n
    keys = [{"key": f"many-{i}", "at": now} for i in range(40)]
    keys[35] = {"key": "many-3", "at": now}  # a repeated key deep in the second statement
    with pytest.raises(WriteFailed) as failed:
        await write_at_once([insert_statement(Outbox, [{"target_type": "private", "target_id": "many-rows-x", "text": "x",
                                                        "next_try_at": now, "created_at": now}]),
                             insert_statement(Delivery, keys)])
    assert failed.value.index == 1
    assert not await Delivery.filter(key__startswith="many-").exists()
    assert not await Outbox.filter(target_id="many-rows-x").exists()


@sqlite_only
async def test_a_trip_writes_a_game_row_once_with_the_last_written_state(nonebug_init):
    """Writes of one game that share a trip each set its whole state: the row is updated once, at
    the end of the trip, with the state of the last write that was written (a write that fails
    takes its state along)."""
    import asyncio
    import threading

    from tortoise import connections

    import plugins.kernel.bulk as bulk
    from plugins.kernel.statements import update_statement

    now = datetime.now(timezone.utc)
    await Delivery.create(key="once-taken", at=now)
    g = await Game.create(group_id="once", kind="demo", seed="s", created_by="h", state={"n": 0})

    def setting(n: int, *more):
        g.state = {"n": n}
        return [update_statement(g, ("state",)), *more]

    db = connections.get("default")
    updates: list[str] = []
    await bulk.on_sqlite_thread(db, lambda r: r.set_trace_callback(
        lambda sql: updates.append(sql) if sql.startswith('UPDATE "game"') else None))
    gate = threading.Event()
    busy = asyncio.ensure_future(bulk.on_sqlite_thread(db, lambda r: gate.wait(5)))
    await asyncio.sleep(0.05)
    try:
        writes = [asyncio.ensure_future(write_at_once(w)) for w in (
            setting(1), setting(2), setting(3, insert_statement(Delivery, [{"key": "once-taken", "at": now}])))]
        await asyncio.sleep(0.05)
        gate.set()
        await busy
        outcomes = await asyncio.gather(*writes, return_exceptions=True)
    finally:
        await bulk.on_sqlite_thread(db, lambda r: r.set_trace_callback(None))
    assert outcomes[:2] == [None, None] and isinstance(outcomes[2], WriteFailed)
    assert len(updates) == 1 and (await Game.get(id=g.id)).state == {"n": 2}
