"""The messages of games another process serves, kept for a while instead of dropped.

Every event reaches every process. The owner of a game answers its messages; the others keep
them here, so that if the owner dies before it answers them, the process that takes the game
over applies them (``router.replay``), in arrival order and before newer messages. A message
the dead owner did apply is skipped then: its delivery key was written with what it caused.

Kept messages go when the owner is seen renewing its lease a while after they arrived (it was
alive, so it answered them: ``Leases.on_alive``), when they are older than a takeover can take
(``max_age``), and past ``KEEP_MAX`` a game."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..leases import leases

Arrival = tuple[int, datetime]  # the arrival ticket and the receive time

KEEP_MAX = 5000
"""Messages kept a game (a royale night of a large game is a few hundred)."""


@dataclass(order=True)
class Kept:
    """One message: its arrival ticket and time, the account it came through, its event (parsed)
    or its JSON (dropped before NoneBot parsed it), and when it was kept (``leases.clock()``)."""

    ticket: int
    arrival: Arrival = field(compare=False)
    self_id: str = field(compare=False)
    event: Any = field(compare=False)
    at: float = field(compare=False, default_factory=lambda: leases.clock())


_kept: dict[int, deque[Kept]] = {}


def max_age() -> float:
    """Seconds a kept message may still be needed: the owner's lease runs out at most one lease
    after it died, and the next renewal or message here takes the game over."""
    return 2 * leases.ttl + 5


def keep(game_id: int, arrival: Arrival, self_id: str, event: Any) -> None:
    """Keep a message of a game another process serves."""
    queue = _kept.get(game_id)
    if queue is None:
        queue = _kept[game_id] = deque(maxlen=KEEP_MAX)
    queue.append(Kept(arrival[0], arrival, self_id, event))
    _expire(queue, leases.clock() - max_age())


def answered(game_id: int, before: float) -> None:
    """The game's owner was alive a while after ``before`` (``leases.clock()``): it answered
    the messages kept until then."""
    queue = _kept.get(game_id)
    if queue is not None:
        _expire(queue, before)
        if not queue:
            del _kept[game_id]


def take(game_id: int) -> list[Kept]:
    """This process now serves the game: its kept messages young enough to matter, oldest first."""
    queue = _kept.pop(game_id, None)
    if not queue:
        return []
    _expire(queue, leases.clock() - max_age())
    return sorted(queue)


def count(game_id: int | None = None) -> int:
    """Messages kept (of one game, or of all)."""
    if game_id is not None:
        return len(_kept.get(game_id, ()))
    return sum(len(q) for q in _kept.values())


def _expire(queue: deque[Kept], before: float) -> None:
    """Drop what was kept before ``before`` (kept in about arrival order: from the left)."""
    while queue and queue[0].at < before:
        queue.popleft()
