"""The store: a write set is written whole or not at all; write sets handed in together share one
transaction and fail alone; one that comes after another is written only if that one was; a
repeated delivery key writes nothing. Run on SQLite and, with ``make test-postgres``, on PostgreSQL."""

import asyncio
from datetime import datetime, timezone

import pytest
from harness import sqlite_only

from plugins.kernel import store as store_module
from plugins.kernel.models import Audit, Delivery, Game, Host, Outbox, Timer
from plugins.kernel.store import Conflict, Duplicate, Superseded, current
from plugins.kernel.writeset import WriteSet


def _now() -> datetime:
    return datetime.now(timezone.utc)


async def _game() -> int:
    g = await Game.create(group_id="store-test", kind="demo", seed="s", created_by="1", settings={})
    return g.id


def _audit(game_id: int, detail: str) -> WriteSet:
    ws = WriteSet()
    ws.insert(Audit, {"game_id": game_id, "actor": "t", "action": "store", "detail": detail, "at": _now()})
    return ws


async def test_a_write_set_is_written_whole_or_not_at_all(nonebug_init):
    gid = await _game()
    ws = _audit(gid, "kept?")
    ws.insert(Host, {"game_id": gid, "user_id": "1", "added_by": "1", "added_at": _now()})
    ws.insert(Host, {"game_id": gid, "user_id": "1", "added_by": "1", "added_at": _now()})  # (game, user) is unique
    with pytest.raises(Exception):  # noqa: B017 - the database's own integrity error
        await current().write(ws)
    assert not await Audit.exists(game_id=gid, detail="kept?") and not await Host.exists(game_id=gid)


async def test_a_delivery_key_written_before_writes_nothing(nonebug_init):
    gid = await _game()
    await Delivery.create(key="store-dup", at=_now())
    ws = _audit(gid, "repeat")
    ws.delivery, ws.at = "store-dup", _now()
    with pytest.raises(Duplicate):
        await current().write(ws)
    assert not await Audit.exists(game_id=gid, detail="repeat")


async def test_write_sets_handed_in_together_fail_alone(nonebug_init):
    gid = await _game()
    await Delivery.create(key="store-taken", at=_now())
    sets = [_audit(gid, f"together {i}") for i in range(3)]
    sets[1].delivery, sets[1].at = "store-taken", _now()
    pending = [current().hand_in(ws) for ws in sets]  # in one turn: one transaction on SQLite
    outcomes = await asyncio.gather(*(p.done for p in pending), return_exceptions=True)
    assert outcomes[0] is None and isinstance(outcomes[1], Duplicate) and outcomes[2] is None
    details = sorted(await Audit.filter(game_id=gid).values_list("detail", flat=True))
    assert details == ["together 0", "together 2"]


async def test_a_write_set_after_one_that_failed_is_not_written(nonebug_init):
    gid = await _game()
    await Delivery.create(key="store-first", at=_now())
    first, then, alone = _audit(gid, "first"), _audit(gid, "then"), _audit(gid, "alone")
    first.delivery, first.at = "store-first", _now()
    a = current().hand_in(first, game_id=gid)
    b = current().hand_in(then, after=a, game_id=gid)
    c = current().hand_in(alone, game_id=gid + 1000)
    outcomes = await asyncio.gather(a.done, b.done, c.done, return_exceptions=True)
    assert isinstance(outcomes[0], Duplicate) and isinstance(outcomes[1], Superseded) and outcomes[2] is None
    assert (a.failed, b.failed, c.failed) == (True, True, False)
    assert await Audit.filter(game_id=gid).values_list("detail", flat=True) == ["alone"]


async def test_a_new_rows_key_is_given_to_the_rows_that_name_it(nonebug_init):
    ws = WriteSet()
    key = ws.insert(Game, {"group_id": "store-key", "kind": "demo", "seed": "s", "created_by": "1", "settings": {}},
                    key=True)
    ws.insert(Host, {"game_id": key, "user_id": "9", "added_by": "9", "added_at": _now()})
    await current().write(ws)
    assert key is not None and isinstance(key.value, int)
    assert await Host.exists(game_id=key.value, user_id="9")


async def test_a_guarded_update_that_finds_nothing_writes_nothing(nonebug_init):
    gid = await _game()
    t = await Timer.create(game_id=gid, key="phase", ends_at=_now(), status="fired")
    ws = _audit(gid, "guarded")
    ws.guard(Timer, {"id": t.id, "status": "armed"}, {"status": "fired", "fired_at": _now()})
    with pytest.raises(Conflict):
        await current().write(ws)
    assert not await Audit.exists(game_id=gid, detail="guarded")
    await Timer.filter(id=t.id).update(status="armed")
    await current().write(ws)
    assert (await Timer.get(id=t.id)).status == "fired" and await Audit.exists(game_id=gid, detail="guarded")


async def test_a_game_row_updated_by_write_sets_of_one_transaction_keeps_the_last_values(nonebug_init):
    gid = await _game()
    sets = []
    for seq in (1, 2, 3):
        ws = WriteSet()
        ws.update(Game, gid, {"last_seq": seq, "phase_label": f"第{seq}步"})
        sets.append(ws)
    await asyncio.gather(*(current().hand_in(ws, game_id=gid).done for ws in sets))  # (a game's writes: in order)
    g = await Game.get(id=gid)
    assert (g.last_seq, g.phase_label) == (3, "第3步")


async def test_a_value_longer_than_its_column_is_refused_before_anything_is_written(nonebug_init):
    gid = await _game()
    ws = _audit(gid, "too long?")
    ws.insert(Host, {"game_id": gid, "user_id": "1" * 40, "added_by": "1", "added_at": _now()})  # CharField(32)
    with pytest.raises(ValueError):
        await current().write(ws)
    assert not await Audit.exists(game_id=gid, detail="too long?")


async def test_many_rows_keep_their_order(nonebug_init):
    ws = WriteSet()
    for i in range(300):
        ws.outbox.append({"target_type": "private", "target_id": "store-order", "text": f"{i}", "next_try_at": _now(),
                          "created_at": _now(), "status": "sent"})
    await current().write(ws)
    texts = await Outbox.filter(target_id="store-order").order_by("id").values_list("text", flat=True)
    assert texts == [str(i) for i in range(300)]


async def test_a_slow_write_is_logged_with_its_time(nonebug_init, monkeypatch):
    from nonebot.log import logger

    gid = await _game()
    seen: list[str] = []
    sink = logger.add(lambda m: seen.append(str(m)), level="WARNING")
    monkeypatch.setattr(store_module, "SLOW", -1.0)
    try:
        await current().write(_audit(gid, "slow"))
    finally:
        logger.remove(sink)
    assert any("took" in line and "ms" in line for line in seen)


@sqlite_only
async def test_sqlite_write_sets_handed_in_while_one_is_written_share_the_next_transaction(nonebug_init, monkeypatch):
    import plugins.kernel.store.sqlite as sqlite_store

    gid = await _game()
    transactions = 0
    real = sqlite_store.SqliteStore._write

    def counted(self, *args, **kwargs):
        nonlocal transactions
        transactions += 1
        return real(self, *args, **kwargs)

    monkeypatch.setattr(sqlite_store.SqliteStore, "_write", counted)
    first = current().hand_in(_audit(gid, "alone"))
    rest = [current().hand_in(_audit(gid, f"batched {i}")) for i in range(5)]  # while the first is on its way
    await asyncio.gather(first.done, *(p.done for p in rest))
    assert transactions <= 2
    assert await Audit.filter(game_id=gid).count() == 6


@sqlite_only
async def test_sqlite_a_write_set_is_one_trip_to_the_writers_thread(nonebug_init, monkeypatch):
    """However many statements a write set holds, the event loop hands it over once."""
    gid = await _game()
    loop = asyncio.get_running_loop()
    trips = 0
    real = loop.run_in_executor

    def counted(executor, fn, *args):
        nonlocal trips
        trips += getattr(fn, "__name__", "") == "_write"
        return real(executor, fn, *args)

    monkeypatch.setattr(loop, "run_in_executor", counted)
    ws = _audit(gid, "one")
    for i in range(4):
        ws.insert(Audit, {"game_id": gid, "seq": None, "actor": "t", "action": "t", "detail": f"more {i}",
                          "at": datetime.now(timezone.utc)})
    await current().write(ws)
    assert trips == 1
    assert await Audit.filter(game_id=gid).count() == 5


@sqlite_only
async def test_sqlite_checkpoints_between_its_transactions(nonebug_init, monkeypatch):
    import plugins.kernel.store.sqlite as sqlite_store

    gid = await _game()
    monkeypatch.setattr(sqlite_store, "CHECKPOINT_EVERY", 0.0)
    asked: list[str] = []
    real = sqlite_store.SqliteStore._checkpoint

    def spied(self):
        asked.append("wal_checkpoint")
        return real(self)

    monkeypatch.setattr(sqlite_store.SqliteStore, "_checkpoint", spied)
    await current().write(_audit(gid, "then a checkpoint"))
    await asyncio.sleep(0.05)
    assert asked


async def test_on_postgresql_a_plain_write_set_is_one_statement(nonebug_init, monkeypatch):
    from tortoise import connections

    db = connections.get("default")
    if db.capabilities.dialect != "postgres":
        pytest.skip("PostgreSQL only (make test-postgres)")
    gid = await _game()
    asked: list[str] = []
    real = db.execute_query

    async def spied(sql, values=None):
        asked.append(sql)
        return await real(sql, values)

    monkeypatch.setattr(db, "execute_query", spied)
    ws = _audit(gid, "one statement")
    ws.delivery, ws.at = "store-pg-one", _now()
    ws.update(Game, gid, {"last_seq": 7})
    await current().write(ws)
    assert len(asked) == 1 and asked[0].startswith("WITH ")
    assert (await Game.get(id=gid)).last_seq == 7 and await Delivery.exists(key="store-pg-one")


@pytest.mark.parametrize("dialect", ["sqlite", "postgres"])
def test_an_inserts_parameters_are_each_value_as_its_column_stores_it(dialect):
    """Many rows sharing one time, a default, a JSON column, a key of a row written earlier, a text
    at its column's limit and one over it."""
    from plugins.kernel.models import CommandLog
    from plugins.kernel.store.tables import POSTGRES, SQLITE, _default, table
    from plugins.kernel.writeset import Insert, Key

    d = SQLITE if dialect == "sqlite" else POSTGRES
    now, key = _now(), Key()
    key.value = 41
    rows = [{"game_id": key if i == 1 else 7, "seq": i, "user_id": "u" * 32 if i == 1 else "1", "name": "vote",
             "args": {"seat": i}, "received_at": now if i < 2 else datetime(2026, 1, i, tzinfo=timezone.utc),
             "source": "group"} for i in range(1, 4)]
    sql, params = d.insert(Insert(CommandLog, rows), now)
    t = table(CommandLog)
    expected = [[d.value(t, n, r[n] if n in r else _default(t, n, now)) for n in t.columns] for r in rows]
    assert params == expected and params[0][list(t.columns).index("game_id")] == 41
    assert params[0][list(t.columns).index("args")] == '{"seat":1}'
    limit = t.limits["user_id"]
    with pytest.raises(ValueError, match="user_id"):
        d.insert(Insert(CommandLog, [{**rows[0], "user_id": "u" * (limit + 1)}]), now)
