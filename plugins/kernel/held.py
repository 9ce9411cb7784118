"""The games this process holds in memory between commands (issue 19), each as loaded by
``Txn.open`` and kept by ``Txn.keep``."""

from __future__ import annotations

from dataclasses import dataclass

from .longtexts import Texts
from .models import Chat, Game, Player, Timer


@dataclass
class Loaded:
    """A game as its serving process holds it between commands (issue 19): the
    row with its decoded state, the roster, the hosts and the linked chats.
    Written through in each command's transaction; dropped on any failure, on
    a roster/host/chat change, and whenever this process does not own the game."""

    game: Game
    players: list[Player]
    hosts: list[str]
    chats: list[Chat]
    texts: Texts
    timers: list[Timer] | None  # its armed, paused and stuck timers (None: read them next time)


_cache: dict[int, Loaded] = {}
OPEN_TIMERS = ("armed", "paused", "stuck")


def forget(game_id: int | None = None) -> None:
    """Drop the held copy of one game (or all): the next command reads the database."""
    if game_id is None:
        _cache.clear()
    else:
        _cache.pop(game_id, None)
