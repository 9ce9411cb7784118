"""The games this process holds in memory between commands (issue 19), each as loaded by
``Txn.open`` and kept by ``Txn.keep``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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
# game id -> (its arrival number, its state as stored: JSON text) of its last one-trip write handed in (or last read)
_written: dict[int, tuple[int, Any]] = {}


def forget(game_id: int | None = None) -> None:
    """Drop the held copy of one game (or all): the next command reads the database."""
    if game_id is None:
        _cache.clear()
        _written.clear()
    else:
        _cache.pop(game_id, None)
        _written.pop(game_id, None)


def handed_in(game_id: int, seq: int, stored: Any) -> None:
    """A command's write was handed in with ``stored``, the state as its game row gets it (``None``:
    the game was written another way, ask the database)."""
    if stored is None:
        _written.pop(game_id, None)
    else:
        _written[game_id] = (seq, stored)


def as_written(game: Game) -> Any | None:
    """The state of ``game``'s last write handed in (decoded, texts as refs), if it was the write
    of its current arrival number: what a refused rule is undone to without reading the database
    (a flood of refusals, e.g. night actions after the night ended, read the game once each)."""
    kept = _written.get(game.id)
    if kept is None or kept[0] != game.last_seq:
        return None
    return Game._meta.fields_map["state"].to_python_value(kept[1])
