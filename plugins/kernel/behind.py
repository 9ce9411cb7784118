"""A busy game's work runs behind everything else ready on the event loop.

One process serves every game on one event loop, which runs what is ready in arrival order:
beside a royale night (sixty players, each sending the next action when answered: a closed
loop that keeps the process busy) a vote of another game waited, at each of its steps (its
admission, NoneBot, the router, the write, the send), for every step of the night ready
before it. Here the loop's ready queue has two parts: callbacks whose context says
``BEHIND`` (a game whose lane has a backlog, ``routing/admission.py``; its sends,
``outbox.py``) run when nothing else is ready. Nothing waits idle: the busy game takes every
turn the others leave, so it loses only the time their work takes, as before.

Shared things are never held behind: the routing step's lock (``order.ordered``) clears the
mark while held, and the database trips and writers run in ``neutral`` contexts.
Installed on asyncio's own loop (``BaseEventLoop._ready``, a deque on every CPython it runs
on here); any other loop (uvloop) keeps arrival order, and ``install`` says so.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

BEHIND: contextvars.ContextVar[bool] = contextvars.ContextVar("kernel_behind", default=False)


class ReadyQueue:
    """The loop's ready callbacks: those not behind first, each part in arrival order. What the
    loop uses of its deque: ``append``, ``popleft``, ``len``, truth and ``clear``. A callback
    made ready during a turn may run in that turn before one behind (the loop runs as many
    callbacks a turn as were ready when the turn began, so I/O is polled as often as before)."""

    __slots__ = ("later", "now")

    def __init__(self, items: Iterable[Any] = ()) -> None:
        self.now: deque[Any] = deque()
        self.later: deque[Any] = deque()
        for handle in items:
            self.append(handle)

    def append(self, handle: Any) -> None:
        context = getattr(handle, "_context", None)
        if context is not None and context.get(BEHIND, False):
            self.later.append(handle)
        else:
            self.now.append(handle)

    def appendleft(self, handle: Any) -> None:
        self.now.appendleft(handle)

    def popleft(self) -> Any:
        return self.now.popleft() if self.now else self.later.popleft()

    def clear(self) -> None:
        self.now.clear()
        self.later.clear()

    def __len__(self) -> int:
        return len(self.now) + len(self.later)

    def __bool__(self) -> bool:
        return bool(self.now) or bool(self.later)

    def __iter__(self) -> Iterator[Any]:
        yield from self.now
        yield from self.later


def install(loop: asyncio.AbstractEventLoop | None = None) -> bool:
    """Give ``loop`` (the running one) the two-part ready queue; False if it has no deque to
    replace (another loop implementation: it keeps arrival order)."""
    loop = loop or asyncio.get_running_loop()
    ready = getattr(loop, "_ready", None)
    if isinstance(ready, ReadyQueue):
        return True
    if type(ready) is not deque:
        return False
    loop._ready = ReadyQueue(ready)  # type: ignore[attr-defined]
    return True


def _never(game_id: int) -> bool:
    return False


busy: Callable[[int], bool] = _never
"""Whether a game's work goes behind now (set by ``routing/admission.py``: its lane has a backlog)."""


def context(behind: bool) -> contextvars.Context:
    """A copy of the current context, behind or not."""
    ctx = contextvars.copy_context()
    ctx.run(BEHIND.set, behind)
    return ctx


def neutral() -> contextvars.Context:
    """For a task several games' work waits on (a database trip, a writer): never behind."""
    return context(False)


class ahead:
    """``with ahead():`` — this task's callbacks are not behind while inside (a shared lock held)."""

    __slots__ = ("token",)

    def __enter__(self) -> None:
        self.token = BEHIND.set(False)

    def __exit__(self, *exc: object) -> None:
        BEHIND.reset(self.token)
