"""SQLite: one writer, with a connection and a thread of its own. Every write set handed in while
it writes goes in its next transaction (one COMMIT for them all, each in a savepoint of its own so
one that fails is undone alone); a game row updated by several of them is updated once, with its
last values. A transaction is one call on the writer's thread (the standard library's ``sqlite3``),
however many statements it holds: the event loop hands it over and is woken once, when it is
committed. Tortoise's connection goes on serving every other query; in WAL mode its readers never
wait for the writer, and its rare writes (leases, web logins) wait their turn through SQLite's busy
timeout. The queue's heads are read on a read-only connection of the event loop's thread. Between
transactions, now and then, the write-ahead log is copied back (``PRAGMA wal_checkpoint``)."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from typing import Any

from nonebot.log import logger
from tortoise import connections
from tortoise.exceptions import IntegrityError

from ..models import Delivery, Game, Outbox
from ..writeset import Delete, Guard, Insert, Update, Upsert, WriteSet
from . import Conflict, Duplicate, Pending, Store, Superseded, timed, unwritten
from .tables import SQLITE, table

CHECKPOINT_EVERY = 0.2  # seconds between passive checkpoints while writes go on
BUSY_TIMEOUT = 5.0  # seconds a write waits for Tortoise's connection to finish one of its own

Item = tuple[WriteSet, Pending, "Pending | None"]


class SqliteStore(Store):
    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.queue: deque[Item] = deque()
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-writer")
        self.conn: sqlite3.Connection | None = None  # the writer's, opened on its thread
        self.reader: sqlite3.Connection | None = None
        self.read_checked = False
        self.checkpointed = 0.0
        self.closing = False

    def hand_in(self, ws: WriteSet, *, after: Pending | None = None, game_id: int | None = None) -> Pending:
        pending = Pending(asyncio.get_running_loop().create_future())
        self.queue.append((ws, pending, after))
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self._writer())
        self.wake.set()
        return pending

    async def _writer(self) -> None:
        loop = asyncio.get_running_loop()
        pragmas = dict(getattr(connections.get("default"), "pragmas", {}))  # the same as Tortoise's connection
        while True:
            if not self.queue:
                if self.closing:
                    return
                self.wake.clear()
                await self.wake.wait()
                continue
            batch = list(self.queue)
            self.queue.clear()
            try:
                outcomes = await loop.run_in_executor(self.thread, self._write, batch, pragmas)
            except BaseException as exc:  # the transaction as a whole failed (the disk, or the bot stops): all of it
                for _, pending, _ in batch:
                    pending.settle(exc if isinstance(exc, Exception) else ConnectionError("the database is closed"))
                if not isinstance(exc, Exception):
                    raise
                logger.opt(exception=exc).error("SQLite: a write failed")
            else:
                for (_, pending, _), outcome in zip(batch, outcomes):
                    pending.settle(outcome)
            if not self.queue and time.monotonic() - self.checkpointed >= CHECKPOINT_EVERY:
                self.checkpointed = time.monotonic()
                await loop.run_in_executor(self.thread, self._checkpoint)

    # ---- on the writer's thread ---------------------------------------------------------

    def _connection(self, pragmas: dict[str, Any]) -> sqlite3.Connection:
        if self.conn is None:
            conn = sqlite3.connect(self.filename, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False)
            for name, value in pragmas.items():
                conn.execute(f"PRAGMA {name}={value}")
            self.conn = conn
        return self.conn

    def _write(self, batch: list[Item], pragmas: dict[str, Any]) -> list[BaseException | None]:
        """One transaction for the batch; a write set alone fails by itself, several each in a savepoint."""
        conn = self._connection(pragmas)
        began, now = time.perf_counter(), datetime.now(timezone.utc)
        several = len(batch) > 1
        outcomes: list[BaseException | None] = []
        conn.execute("BEGIN IMMEDIATE")
        try:
            games: dict[Any, dict[str, Any]] = {}  # game rows' last values, written once before COMMIT
            for ws, pending, after in batch:
                outcome = _one(conn, ws, after, now, games, several)
                outcomes.append(outcome)
                pending.failed = outcome is not None  # known before the next write set is tried
            for pk, values in games.items():
                sql, params = SQLITE.update(Update(Game, tuple(values), [(pk, values)]))
                conn.executemany(sql, params)
            conn.execute("COMMIT")
        except EXPECTED as exc:  # a write set alone that failed: its transaction is rolled back
            conn.execute("ROLLBACK")
            outcomes = [exc]
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        timed(began, "SQLite: a write")
        return outcomes

    def _checkpoint(self) -> None:
        """Copy the write-ahead log back between two transactions (PASSIVE: waits for nobody);
        SQLite's own checkpoint inside a commit is the fallback."""
        try:
            if self.conn is not None:
                self.conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error as exc:  # the next one may succeed
            logger.debug(f"SQLite: checkpoint: {exc}")

    # ---- reads --------------------------------------------------------------------------

    async def fetch(self, sql: str, params: list[Any]) -> list[dict[str, Any]]:
        reader = self._reader()
        if reader is not None:
            try:
                cur = reader.execute(sql, params)
                names = [d[0] for d in cur.description]
                return [dict(zip(names, row)) for row in cur.fetchall()]
            except sqlite3.OperationalError as exc:  # busy in WAL's rare cases (a recovery): ask the connection
                logger.debug(f"SQLite: the queue's reading connection: {exc}")
        return await connections.get("default").execute_query_dict(sql, params)

    def _reader(self) -> sqlite3.Connection | None:
        """A read-only connection to the file in WAL mode (None: not a file in WAL mode). Beside a
        royale night the writer is busy half the time; a queue read behind it waited."""
        if not self.read_checked:
            self.read_checked = True
            conn = sqlite3.connect(self.filename, check_same_thread=False, isolation_level=None)
            conn.execute("PRAGMA query_only=1")
            if str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower() == "wal":
                self.reader = conn
            else:
                conn.close()
        return self.reader

    async def close(self) -> None:
        """Write what was handed in, then stop the writer."""
        self.closing = True
        self.wake.set()
        if self.task is not None:
            await asyncio.gather(self.task, return_exceptions=True)
            self.task = None
        if self.conn is not None:
            await asyncio.get_running_loop().run_in_executor(self.thread, self.conn.close)
            self.conn = None
        self.thread.shutdown(wait=True)
        if self.reader is not None:
            self.reader.close()
            self.reader = None


EXPECTED = (IntegrityError, Conflict, Duplicate, ValueError)
"""What fails one write set alone (the others of its transaction are written)."""


def _one(conn: sqlite3.Connection, ws: WriteSet, after: Pending | None, now: datetime,
         games: dict[Any, dict[str, Any]], several: bool) -> BaseException | None:
    if unwritten(after):
        return Superseded()
    if several:
        conn.execute("SAVEPOINT w")
    rows: dict[Any, dict[str, Any]] = {}
    try:
        try:
            _apply(conn, ws, now, rows)
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(exc) from exc
    except EXPECTED as exc:
        if not several:
            raise
        conn.execute("ROLLBACK TO w")
        conn.execute("RELEASE w")
        return exc
    if several:
        conn.execute("RELEASE w")
    for pk, values in rows.items():
        games.setdefault(pk, {}).update(values)
    return None


def _apply(conn: sqlite3.Connection, ws: WriteSet, now: datetime, games: dict[Any, dict[str, Any]]) -> None:
    """The write set's statements, in order; the game row's updates are handed back in ``games``."""
    if ws.delivery is not None:
        sql, rows = SQLITE.insert(Insert(Delivery, [{"key": ws.delivery, "at": ws.at or now}]), now)
        try:
            conn.executemany(sql, rows)
        except sqlite3.IntegrityError:
            raise Duplicate() from None
    for op in ws.ops:
        if isinstance(op, Update):
            if op.model is Game:
                for pk, values in op.rows:
                    games.setdefault(pk, {}).update(values)
                continue
            sql, rows = SQLITE.update(op)
            conn.executemany(sql, rows)
        elif isinstance(op, Insert | Upsert):
            sql, rows = SQLITE.insert(op, now)
            if isinstance(op, Insert) and op.keys is not None:
                for key, row in zip(op.keys, rows):
                    key.value = conn.execute(sql, row).lastrowid
            else:
                conn.executemany(sql, rows)
        elif isinstance(op, Delete):
            sql, params = SQLITE.delete(op)
            conn.execute(sql, params)
        elif isinstance(op, Guard):
            sql, params = SQLITE.guard(op)
            if conn.execute(sql, params).rowcount != 1:
                raise Conflict(f"{table(op.model).name}: {op.where}")
    if ws.outbox:
        sql, rows = SQLITE.insert(Insert(Outbox, ws.outbox), now)
        conn.executemany(sql, rows)
