"""A loop the kernel runs in the background from start-up to shutdown."""

from __future__ import annotations

import asyncio


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
