"""The one way the kernel writes: a :class:`~..writeset.WriteSet` handed to the store, written whole
or not at all. Two implementations behind one interface: :mod:`.sqlite` (one writer; what is handed
in while it writes goes in its next transaction, each write set in a savepoint of its own) and
:mod:`.postgres` (a game's write sets in the order handed in, those that queued as one statement).

A write set may name the write it comes after (``after``): it is written only if that one was, and
after it; otherwise it fails with :class:`Superseded`. That lets a game's next command run its rule
while the last one's write is on its way: nothing is acknowledged early, the answers are rows of
the same write and leave once it is written.
"""

from __future__ import annotations

import asyncio
import time
from abc import ABC, abstractmethod
from typing import Any

from nonebot.log import logger

from ..writeset import WriteSet


class Duplicate(Exception):
    """The write set's delivery key was written before (a repeated delivery): nothing was written."""


class Superseded(Exception):
    """Not written: the write it came after was not, and it was worked out from what that one changed."""


class Conflict(Exception):
    """A guarded update found no row to change (e.g. the deadline fired already): nothing was written."""


class Pending:
    """A write set handed in: ``done`` settles with its outcome; ``failed`` is set once it was tried,
    before any write set handed in after it is."""

    __slots__ = ("done", "failed")

    def __init__(self, done: asyncio.Future[None]) -> None:
        self.done = done
        self.failed: bool | None = None

    def settle(self, outcome: BaseException | None) -> None:
        self.failed = outcome is not None
        if self.done.done():  # its caller was cancelled
            return
        if outcome is None:
            self.done.set_result(None)
        else:
            self.done.set_exception(outcome)


def unwritten(after: Pending | None) -> bool:
    """``after`` is a write that was not (or is not known to be yet) written."""
    return after is not None and after.failed is not False


class Store(ABC):
    """Where write sets go, and the queue's reads."""

    @abstractmethod
    def hand_in(self, ws: WriteSet, *, after: Pending | None = None, game_id: int | None = None) -> Pending:
        """Write ``ws`` (after ``after``, only if it was written); the caller may go on before it is."""

    async def write(self, ws: WriteSet) -> None:
        """Write ``ws`` and wait until it is written."""
        await self.hand_in(ws).done

    @abstractmethod
    async def fetch(self, sql: str, params: list[Any]) -> list[dict[str, Any]]:
        """A query's rows as dicts, from what is committed (the outbound queue's heads)."""

    async def close(self) -> None:
        """Finish what was handed in; nothing more is taken."""


SLOW = 0.1  # seconds: a write slower than this was the disk's; logged, so a slow moment has a reason


def timed(began: float, what: str) -> None:
    took = time.perf_counter() - began
    if took > SLOW:
        logger.warning(f"{what} took {took * 1000:.0f} ms (the disk was slow; the writes behind it waited)")


_current: list[Store] = []


def install(store: Store | None) -> None:
    """The store of the database just opened (None: closed)."""
    _current[:] = [store] if store is not None else []


def installed() -> bool:
    return bool(_current)


def current() -> Store:
    if not _current:
        raise RuntimeError("the database is not open")
    return _current[0]
