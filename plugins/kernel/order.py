"""Arrival order: every message gets a ticket and a fine receive time the
moment it arrives; commands and deadlines then run one at a time in ticket
order (routing itself depends on earlier commands, and SQLite serialises
writes anyway)."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from datetime import datetime, timezone


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


_tickets = itertools.count(1)


def stamp() -> tuple[int, datetime]:
    """An arrival ticket and a receive time finer than a second."""
    return next(_tickets), utcnow()


class OrderedLock:
    """A lock granted in ticket order among its waiters (earlier arrival first)."""

    def __init__(self) -> None:
        self._held = False
        self._waiters: list[tuple[int, int, asyncio.Future[None]]] = []
        self._n = itertools.count()

    async def acquire(self, ticket: int) -> None:
        if not self._held and not self._waiters:
            self._held = True
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiters, (ticket, next(self._n), fut))
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():
                self.release()
            else:
                self._waiters = [w for w in self._waiters if w[2] is not fut]
                heapq.heapify(self._waiters)
            raise

    def release(self) -> None:
        while self._waiters:
            _, _, fut = heapq.heappop(self._waiters)
            if not fut.done():
                fut.set_result(None)
                return
        self._held = False


ORDER = OrderedLock()


class ordered:
    """``async with ordered(ticket):`` — run in arrival order."""

    def __init__(self, ticket: int):
        self.ticket = ticket

    async def __aenter__(self) -> None:
        await ORDER.acquire(self.ticket)

    async def __aexit__(self, *exc: object) -> None:
        ORDER.release()

