"""Arrival order: every message gets a ticket and a fine receive time the
moment NoneBot takes it (routing/admission.py lets events in per game: in
arrival order within a game, a routing command after every earlier message
and before every later one). A short routing step runs under one lock in ticket order
(which game a message goes to depends on earlier commands, e.g. a sign-up
arriving with /创建); the command then runs under its game's own lock, whose
place in line was reserved during routing — so each game sees its commands
in arrival order and games never wait for each other (on PostgreSQL they run
truly side by side; SQLite still serialises the writes)."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from datetime import datetime, timezone


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


_tickets = itertools.count(1)
_arrived: tuple[float, int] = (0.0, 0)  # monotonic time of the last arrival, and how many so far


def stamp() -> tuple[int, datetime]:
    """An arrival ticket and a receive time finer than a second."""
    global _arrived
    _arrived = (time.monotonic(), _arrived[1] + 1)
    return next(_tickets), utcnow()


def last_arrival() -> tuple[float, int]:
    """When the last message arrived (``time.monotonic()``), and how many have so far."""
    return _arrived


class OrderedLock:
    """A lock granted in ticket order among its waiters (earlier arrival first)."""

    def __init__(self) -> None:
        self._held = False
        self._waiters: list[tuple[int, int, asyncio.Future[None]]] = []
        self._n = itertools.count()

    def reserve(self, ticket: int) -> asyncio.Future[None]:
        """Take a place in line now (done at once when the lock is free); await it later."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if not self._held and not self._waiters:
            self._held = True
            fut.set_result(None)
        else:
            heapq.heappush(self._waiters, (ticket, next(self._n), fut))
        return fut

    async def acquire(self, ticket: int) -> None:
        await self.wait(self.reserve(ticket))

    async def wait(self, fut: asyncio.Future[None]) -> None:
        if fut.done():
            return
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



_game_locks: dict[int, OrderedLock] = {}


def game_lock(game_id: int) -> OrderedLock:
    """The arrival-ordered lock of one game."""
    lock = _game_locks.get(game_id)
    if lock is None:
        lock = _game_locks[game_id] = OrderedLock()
    return lock


class Turn:
    """A place in one game's arrival order: taken (``take``) when every earlier command of the
    game is done, given up once (``release``) — after the command, or earlier, once its write is
    handed in and only waits for the database (the game's next command may run its rule)."""

    __slots__ = ("game_id", "held", "lock", "reserved")

    def __init__(self, game_id: int, reserved: asyncio.Future[None] | None = None):
        self.game_id = game_id
        self.lock = game_lock(game_id)
        self.reserved = reserved  # a place taken during routing (``game_lock(id).reserve(ticket)``)
        self.held = False

    async def take(self) -> Turn:
        await self.lock.wait(self.reserved if self.reserved is not None else self.lock.reserve(stamp()[0]))
        self.held = True
        return self

    def release(self) -> None:
        if self.held:
            self.held = False
            self.lock.release()
