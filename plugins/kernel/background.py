"""Work the kernel does in the background: a loop from start-up to shutdown, and small writes
gathered into one."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Background:
    """Runs ``_loop`` as one task: ``start`` (again once it ended), ``stop`` cancels it."""

    _task: asyncio.Task | None = None

    async def _loop(self) -> None:
        raise NotImplementedError

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._loop())

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None


class Coalesced(Generic[T]):
    """What is handed in during one turn of the event loop is written together: the first ``add``
    starts a write that waits that turn out, and every caller awaits that one write (and gets its
    error). Many small writes at once (a night's 60 first private messages' contacts, eight sends
    landing together) become one write set."""

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
