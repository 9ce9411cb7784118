"""Writing statements (``statements.py``): rows in one INSERT, a command's few statements in
one transaction with one trip to the database, writes in flight chained per game."""

from __future__ import annotations

import asyncio
import functools
import re
import sqlite3
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any, Generic, TypeVar

from nonebot.log import logger
from tortoise import connections
from tortoise.backends.base.client import TransactionalDBClient
from tortoise.backends.sqlite.client import SqliteClient
from tortoise.exceptions import IntegrityError
from tortoise.models import Model
from tortoise.transactions import in_transaction

from .statements import Statement, insert_statement

T = TypeVar("T")


class Coalesced(Generic[T]):
    """What is handed in during one turn of the event loop is written together: the first
    ``add`` starts a write that waits that turn out, and every caller awaits that one write
    (and gets its error). Many small writes at once (a night's 60 first private messages,
    eight sends landing together) become one trip to the database."""

    def __init__(self, write: Callable[[list[T]], Awaitable[None]]) -> None:
        self.write = write
        self.items: list[T] = []
        self.pending: asyncio.Future[None] | None = None

    async def add(self, item: T) -> None:
        self.items.append(item)
        if self.pending is None:
            self.pending = asyncio.ensure_future(self._flush())
        await asyncio.shield(self.pending)

    async def _flush(self) -> None:
        await asyncio.sleep(0)  # what is added in this turn of the loop joins this write
        items, self.items, self.pending = self.items, [], None
        await self.write(items)


async def insert_rows(model: type[Model], rows: list[dict[str, Any]]) -> None:
    """INSERT ``rows`` in one statement, on the connection of the current transaction."""
    if rows:
        st = insert_statement(model, rows)
        await model._meta.db.execute_many(st.sql, st.rows)


def _new_key(inserted: Any) -> Any:
    """The key of a row just inserted: SQLite's client gives it, asyncpg's the row it returned."""
    return inserted if isinstance(inserted, int) else inserted[0]


class WriteFailed(IntegrityError):
    """A statement of ``write_at_once`` broke a constraint; nothing of them was written."""

    def __init__(self, index: int, cause: Exception):
        super().__init__(str(cause))
        self.index = index


class Superseded(Exception):
    """Not written: the write it came after was not, and it was worked out from what that one
    changed (inflight.py)."""


class Link:
    """A game's write its next command may go on from before it is written (inflight.py):
    ``failed`` is set once it was tried — on SQLite in the connection's thread, before any
    write handed in after it — and ``done`` settles with its outcome."""

    __slots__ = ("done", "failed")

    def __init__(self) -> None:
        self.failed: bool | None = None
        self.done: asyncio.Future[None] | None = None


def unwritten(link: Link | None) -> bool:
    """A write follows ``link``, and that one was not written (or is not known to be yet)."""
    return link is not None and link.failed is not False


async def write_at_once(stmts: list[Statement]) -> None:
    """Write ``stmts`` in order, all or nothing. On SQLite outside a transaction the whole
    transaction (BEGIN … COMMIT) is one trip to the connection's thread, under the lock
    Tortoise's own transactions take: the connection is held for the writes only, not for
    the round trips of seven statements (other games' commands wait for it that much less);
    writes handed in while the thread is busy share one trip and one COMMIT (``_group_commit``).
    On PostgreSQL outside a transaction: one statement (each write a part of one WITH), unless
    new keys are asked for (``Statement.ids``). Inside a transaction: part of it, a statement
    at a time."""
    stmts = [s for s in stmts if s.rows]
    db = connections.get("default")  # a transaction's own connection when one is open in this task
    outside = not isinstance(db, TransactionalDBClient)
    if outside and isinstance(db, SqliteClient):
        await _group_commit(db, stmts)
        return
    if outside and db.capabilities.dialect == "postgres" and stmts and all(s.ids is None for s in stmts):
        sql, params = _one_statement(stmts)
        began = time.perf_counter()
        try:
            await db.execute_query(sql, params)
            _slow_commit(time.perf_counter() - began, "PostgreSQL: a write")
        except IntegrityError as exc:  # which write: the table of the constraint PostgreSQL names
            table = getattr(exc.__cause__, "table_name", None)
            raise WriteFailed(next((i for i, s in enumerate(stmts) if s.table == table), -1), exc) from exc
        return
    async with in_transaction() as tx:
        for i, st in enumerate(stmts):
            try:
                if st.ids is None:
                    await tx.execute_many(st.sql, st.rows)
                else:
                    st.ids.extend([_new_key(await tx.execute_insert(st.sql, row)) for row in st.rows])
            except IntegrityError as exc:
                raise WriteFailed(i, exc) from exc


async def on_sqlite_thread(db: SqliteClient, fn: Callable[..., T], *args: Any) -> T:
    """``fn(raw connection, *args)`` in the SQLite connection's own thread, after everything
    queued there before it. Tortoise's lock is held only while queueing, not until this task
    runs again: the thread runs one queued call at a time (nothing else runs inside ``fn``'s
    transaction), and a Tortoise transaction, which holds the lock from BEGIN to COMMIT, is
    never open when ``fn`` is queued (its BEGIN comes after ``fn`` in the queue)."""
    async with db._lock:
        if not db._connection:
            await db.create_connection(with_db=True)
        conn = db._connection
        assert conn is not None
        if not conn._running:
            raise ValueError("Connection closed")
        done: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        conn._tx.put_nowait((done, functools.partial(fn, conn._conn, *args)))  # aiosqlite's own queue (Connection._execute)
    return await done


async def fetch_rows(sql: str, params: list[Any]) -> list[dict[str, Any]]:
    """A query's rows as dicts (the committed rows: never inside a transaction). On SQLite in WAL
    mode read at once in this thread (``_reader``); otherwise on the connection's thread without
    holding its lock while this task waits for its turn (``on_sqlite_thread``)."""
    db = connections.get("default")
    if isinstance(db, SqliteClient) and not isinstance(db, TransactionalDBClient):
        reader = _reader(db)
        if reader is not None:
            try:
                return _fetch(reader, sql, params)
            except sqlite3.OperationalError as exc:  # busy in WAL's rare cases (a recovery): read as before
                logger.debug(f"kernel: the queue's reading connection: {exc}; read on the connection's thread")
        return await on_sqlite_thread(db, _fetch, sql, params)
    _, rows = await db.execute_query(sql, params)
    return [dict(r) for r in rows]


_reading: tuple[SqliteClient, sqlite3.Connection | None] | None = None  # the database, its reader


def _reader(db: SqliteClient) -> sqlite3.Connection | None:
    """A read-only connection of the event loop's thread to ``db``'s file, when it is in WAL mode
    (a reader then waits for no writer and sees every committed write). Beside a royale night the
    connection's thread is busy with writes half the time, and under the GIL each of its calls
    costs more: the outbound queue's read of a vote's answer waited 3-4 ms there for a 0.15 ms
    query (bench/RESULTS.md, stop 33). None when not in WAL mode (a database in memory)."""
    global _reading
    if _reading is not None and _reading[0] is db:
        return _reading[1]
    close_reader()  # (another database was opened since)
    conn = sqlite3.connect(db.filename, check_same_thread=False, isolation_level=None)
    conn.execute("PRAGMA query_only=1")
    wal = str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower() == "wal"
    if not wal:
        conn.close()
    _reading = (db, conn if wal else None)
    return _reading[1]


def close_reader() -> None:
    """Close the reading connection (the database is closed, or another one opened)."""
    global _reading
    if _reading is not None and _reading[1] is not None:
        _reading[1].close()
    _reading = None


def _fetch(raw: sqlite3.Connection, sql: str, params: list[Any]) -> list[dict[str, Any]]:
    cur = raw.execute(sql, params)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, row)) for row in cur.fetchall()]


_PARAM = re.compile(r"\$(\d+)")


def _one_statement(stmts: list[Statement]) -> tuple[str, list[Any]]:
    """PostgreSQL: the writes as data-modifying parts of one WITH (run once each, all or nothing)."""
    parts: list[str] = []
    params: list[Any] = []
    for i, st in enumerate(stmts):
        if st.head:
            values = []
            for row in st.rows:
                values.append("(" + ", ".join(f"${len(params) + k}" for k in range(1, len(row) + 1)) + ")")
                params.extend(row)
            body = f"{st.head} VALUES {', '.join(values)}"
            parts.append(f"w{i} AS ({body})")
            continue
        for k, row in enumerate(st.rows):  # an UPDATE: a part per row (each row once in a statement)
            body = _PARAM.sub(lambda m, off=len(params): f"${int(m.group(1)) + off}", st.sql)  # type: ignore[misc]
            params.extend(row)
            parts.append(f"w{i}_{k} AS ({body})")
    return "WITH " + ", ".join(parts) + " SELECT 1", params


_Written = tuple[list[Statement], asyncio.Future[None], "Link | None", "Link | None"]  # (stmts, done, link, after)
_batch: list[_Written] = []  # writes not yet taken by a trip
_batch_guard = threading.Lock()  # the batch is taken in the connection's thread
_trip_queued = False  # a trip is queued that has not yet taken the batch
_trips: set[asyncio.Task[None]] = set()


async def _group_commit(db: SqliteClient, stmts: list[Statement]) -> None:
    """SQLite: ``stmts`` written with the other writes handed in until the connection's thread
    takes them: one trip and one COMMIT for them all, each write in a savepoint of its own (a
    write that fails is undone alone, and only its caller gets the error). Under load (a royale
    night's commands, a vote burst's, the sent marks) each write waited for its own trip behind
    the others'; now it waits for one trip."""
    await hand_in(db, stmts, None, None)


def hand_in(db: SqliteClient, stmts: list[Statement], link: Link | None, after: Link | None) -> asyncio.Future[None]:
    """``_group_commit`` handed in now; the future settles once written (inflight.py)."""
    global _trip_queued
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()
    with _batch_guard:
        _batch.append((stmts, done, link, after))
        start, _trip_queued = not _trip_queued, True
    if start:  # a task of its own: the trip is queued even if this caller is cancelled meanwhile
        trip = asyncio.ensure_future(_trip(db, loop))
        _trips.add(trip)
        trip.add_done_callback(_trips.discard)
    return done


def _take() -> list[_Written]:
    """The writes handed in so far (the next write queues a trip of its own)."""
    global _trip_queued
    with _batch_guard:
        taken, _batch[:], _trip_queued = list(_batch), [], False
    return taken


async def _trip(db: SqliteClient, loop: asyncio.AbstractEventLoop) -> None:
    try:
        await on_sqlite_thread(db, _run_all, loop)
    except BaseException as exc:  # not run (the connection was closed): whoever waits gets the error
        for _, done, link, _after in _take():
            if link is not None:
                link.failed = True
            settle(done, exc if isinstance(exc, Exception) else ConnectionError("SQLite connection closed"))


def _run_all(raw: sqlite3.Connection, loop: asyncio.AbstractEventLoop) -> None:
    """In the connection's thread: BEGIN, each write of the batch (in a savepoint when there are
    several; not at all when the write it follows was not written), COMMIT; then every writer is
    told its outcome."""
    taken = _take()
    several = len(taken) > 1
    outcomes: list[Exception | None] = []
    last: dict[tuple[str, Any], list[Any]] = {}  # a game row's UPDATE, once per trip: the last write's
    try:
        raw.execute("BEGIN")
        for stmts, _, link, after in taken:
            if unwritten(after):
                outcomes.append(Superseded())
            elif several:
                raw.execute("SAVEPOINT w")
                later: list[tuple[tuple[str, Any], list[Any]]] = []
                try:
                    _statements(raw, stmts, later)
                except WriteFailed as exc:
                    raw.execute("ROLLBACK TO w")
                    outcomes.append(exc)
                else:
                    outcomes.append(None)
                    for key, row in later:
                        last.pop(key, None)
                        last[key] = row
                raw.execute("RELEASE w")
            else:
                _statements(raw, stmts)
                outcomes.append(None)
            if link is not None:  # (known before the writes after it in this trip are tried)
                link.failed = outcomes[-1] is not None
        for (sql, _key), row in last.items():
            raw.execute(sql, row)
        began = time.perf_counter()
        raw.execute("COMMIT")
        _slow_commit(time.perf_counter() - began)
    except Exception as exc:
        if raw.in_transaction:  # (a failed BEGIN left none to roll back)
            raw.execute("ROLLBACK")
        outcomes = [exc] * len(taken)
    for (_, done, link, _after), outcome in zip(taken, outcomes):
        if link is not None:
            link.failed = outcome is not None
        loop.call_soon_threadsafe(settle, done, outcome)


SLOW_COMMIT = 0.1  # seconds: a COMMIT slower than this is the disk's (logged, so a slow moment has a reason)


def _slow_commit(took: float, what: str = "SQLite: a commit") -> None:
    """This host's disk has stalled single commits (one fsync) for 50-900 ms a few times a minute
    in some hours; every write handed in meanwhile waited for it (bench/RESULTS.md, stop 30). On
    PostgreSQL the time is the statement's round trip (its commit included)."""
    if took > SLOW_COMMIT:
        logger.warning(f"{what} took {took * 1000:.0f} ms (the disk was slow; the writes behind it waited)")


def _statements(raw: sqlite3.Connection, stmts: list[Statement],
                later: list[tuple[tuple[str, Any], list[Any]]] | None = None) -> None:
    """``later``: the game rows' UPDATEs are handed back instead, to be run once per trip (a
    royale night's trip held three or four writes of its ~33 KiB state, each overwriting the one
    before in the same transaction: the same columns of the same row)."""
    for i, st in enumerate(stmts):
        try:
            if later is not None and st.table == "game" and st.sql.startswith("UPDATE") and st.ids is None:
                later.extend(((st.sql, row[-1]), row) for row in st.rows)
            elif st.ids is None and st.head and len(st.rows) > 1:
                _insert_many(raw, st)
            elif st.ids is None:
                raw.executemany(st.sql, st.rows)
            else:
                st.ids.extend([raw.execute(st.sql, row).lastrowid for row in st.rows])
        except sqlite3.IntegrityError as exc:
            raise WriteFailed(i, exc) from exc


def _insert_many(raw: sqlite3.Connection, st: Statement) -> None:
    """The rows of an INSERT in multi-row VALUES statements of a few sizes (powers of two, at
    most 999 values each: SQLite's oldest limit), each compiled once and kept in sqlite3's
    statement cache: a third cheaper than a statement per row (88 role messages)."""
    width, rows, i = len(st.rows[0]), st.rows, 0
    size = 1 << ((999 // width).bit_length() - 1)
    while size > 1:
        while len(rows) - i >= size:
            raw.execute(_values_sql(st.head, width, size), [v for row in rows[i:i + size] for v in row])
            i += size
        size //= 2
    if i < len(rows):
        raw.executemany(st.sql, rows[i:])


@functools.lru_cache(maxsize=64)
def _values_sql(head: str, width: int, size: int) -> str:
    row = "(" + ", ".join("?" * width) + ")"
    return f"{head} VALUES {', '.join([row] * size)}"


def settle(done: asyncio.Future[None], outcome: Exception | None) -> None:
    if done.done():  # its caller was cancelled
        return
    if outcome is None:
        done.set_result(None)
    else:
        done.set_exception(outcome)
