"""SQLite's write-ahead log copied back into the database while the bot is idle. SQLite
checkpoints by itself inside the commit that takes the log past ``wal_autocheckpoint`` pages:
at its default (1,000 pages) that was one ~10 ms commit every ~80 votes of an 88-player game,
so nearly every vote burst had one. The kernel raises that threshold (``db.SQLITE_WAL_PAGES``)
and checkpoints when no message has arrived for half a second, or for a short lull once the
log is as long as SQLite's default would allow (on the connection's own thread, between
transactions). Under steady load with no lull at all, SQLite's own checkpoint still runs."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time

from nonebot.log import logger
from tortoise import connections
from tortoise.backends.sqlite.client import SqliteClient

from .background import Background
from .bulk import on_sqlite_thread
from .order import last_arrival

IDLE = 0.5  # seconds without a message: checkpoint whatever the log holds
LULL = 0.05  # … or this long, once the log is LONG_LOG bytes (a vote burst's messages come ~10 ms apart)
LONG_LOG = 4 << 20  # SQLite's own default threshold: 1,000 pages of 4 KiB
EVERY = 0.05  # seconds between looks


class Checkpointer(Background):
    def __init__(self) -> None:
        self.seen = 0  # arrivals counted at the last checkpoint

    async def step(self, now: float | None = None) -> bool:
        """Checkpoint if messages arrived since the last one and none since ``IDLE`` seconds
        (``LULL`` seconds once the log is long)."""
        at, count = last_arrival()
        quiet = (time.monotonic() if now is None else now) - at
        db = connections.get("default")
        if count == self.seen or quiet < LULL or not isinstance(db, SqliteClient):
            return False
        if quiet < IDLE and _log_size(db) < LONG_LOG:
            return False
        await on_sqlite_thread(db, _checkpoint)
        self.seen = count
        return True

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(EVERY)
            try:
                await self.step()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the next look tries again; SQLite's own checkpoint is the fallback
                logger.opt(exception=exc).warning("kernel: WAL checkpoint failed")


def _log_size(db: SqliteClient) -> int:
    try:
        return os.path.getsize(f"{db.filename}-wal")
    except OSError:
        return 0


def _checkpoint(raw: sqlite3.Connection) -> tuple[int, int, int]:
    return raw.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()


checkpointer = Checkpointer()
