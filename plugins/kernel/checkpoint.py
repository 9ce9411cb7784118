"""SQLite's write-ahead log copied back into the database beside the writes, not inside them.

SQLite checkpoints by itself inside the commit that takes the log past ``wal_autocheckpoint``
pages, and every write queued behind that commit waits: at its default (1,000 pages) a ~10 ms
commit every ~80 votes; at ``db.SQLITE_WAL_PAGES`` (10,000) a ~15 ms one every ~1.2 s of a
royale night, whose writes add ~6,500 pages a second. Under steady load the log is also never
restarted from its start, as every write begins while some of it is not yet copied back.

So while messages arrive the kernel checkpoints every ``EVERY`` seconds, in two steps: first
on a connection of its own in a worker thread (copies the log back while the writes go on),
then on the writers' own connection between two of their transactions (copies the few pages
written meanwhile, ~0.5 ms), after which the next write starts the log afresh. Both are
PASSIVE: they never wait for a writer. SQLite's own checkpoint stays as the fallback."""

from __future__ import annotations

import asyncio
import sqlite3
import time

from nonebot.log import logger
from tortoise import connections
from tortoise.backends.sqlite.client import SqliteClient

from .background import Background
from .bulk import on_sqlite_thread
from .order import last_arrival

EVERY = 0.2  # seconds between checkpoints while messages arrive (~1,300 pages of a royale night)
LOOK = 0.05  # seconds between looks


class Checkpointer(Background):
    def __init__(self) -> None:
        self.seen = -1  # arrivals counted at the last checkpoint
        self.last = float("-inf")  # when it ran (time.monotonic())
        self.side: sqlite3.Connection | None = None  # a connection of its own, for the first step
        self.side_step: asyncio.Future | None = None

    async def step(self, now: float | None = None) -> bool:
        """Checkpoint if messages arrived since the last checkpoint, ``EVERY`` seconds or more ago."""
        _, count = last_arrival()
        now = time.monotonic() if now is None else now
        db = connections.get("default")
        if count == self.seen or now - self.last < EVERY or not isinstance(db, SqliteClient):
            return False
        self.seen, self.last = count, now
        if self.side is None:
            self.side = sqlite3.connect(db.filename, check_same_thread=False, isolation_level=None)
            self.side.execute("PRAGMA synchronous=FULL")
        self.side_step = asyncio.ensure_future(asyncio.to_thread(_checkpoint, self.side))
        await asyncio.shield(self.side_step)  # (a thread cannot be stopped: stop() waits for it)
        await on_sqlite_thread(db, _checkpoint)
        return True

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(LOOK)
            try:
                await self.step()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the next look tries again; SQLite's own checkpoint is the fallback
                logger.opt(exception=exc).warning("kernel: WAL checkpoint failed")

    async def stop(self) -> None:
        await super().stop()
        if self.side_step is not None:
            await asyncio.gather(self.side_step, return_exceptions=True)
            self.side_step = None
        if self.side is not None:
            self.side.close()
            self.side = None


def _checkpoint(raw: sqlite3.Connection) -> tuple[int, int, int]:
    """(busy, pages in the log, pages copied back)."""
    return raw.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()


checkpointer = Checkpointer()
