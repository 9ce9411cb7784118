"""The games this process holds in memory between commands, and each game's last write on its way.

A game is read once and then held: its row (with the decoded state), roster, hosts, linked chats,
texts and open timers. Every command changes the held copy and hands in a write set; the next
command of the game may run its rule before that write has landed (nothing is acknowledged early:
its answers are rows of the same write). Each write names the game's write before it and is made
only if that one was (``store.Superseded`` otherwise); the held game is dropped on any failure
and read afresh once the game's writes on their way have settled (``settled``)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import orjson

from .longtexts import Texts
from .models import Chat, Game, Player, Timer
from .store import Pending, unwritten

OPEN_TIMERS = ("armed", "paused", "stuck")


@dataclass
class Held:
    """A game as its serving process holds it between commands."""

    game: Game
    players: list[Player]
    hosts: list[str]
    chats: list[Chat]
    texts: Texts
    timers: list[Timer] | None  # its armed, paused and stuck timers (None: read them next time)


_held: dict[int, Held] = {}
_last: dict[int, Pending] = {}  # each game's last write that changes it, until a command waits it out
_written: dict[int, tuple[int, str]] = {}  # game -> (arrival number, its state as its last write stored it)
_rows: dict[int, dict[str, Any]] = {}  # game -> its row's other columns as its last write (or read) left them


async def read_timers(game_id: int) -> list[Timer]:
    """The game's armed, paused and stuck timers as the database has them."""
    return list(await Timer.filter(game_id=game_id, status__in=OPEN_TIMERS).order_by("id"))


def held(game_id: int) -> Held | None:
    return _held.get(game_id)


def hold(game_id: int, h: Held) -> None:
    _held[game_id] = h


def forget(game_id: int | None = None) -> None:
    """Drop the held copy of one game (or all): the next command reads the database."""
    if game_id is None:
        _held.clear()
        _written.clear()
        _rows.clear()
    else:
        _held.pop(game_id, None)
        _written.pop(game_id, None)
        _rows.pop(game_id, None)


def follow(game_id: int, pending: Pending, *, changes: bool = True) -> None:
    """``pending`` is the game's newest write (``changes``: later writes come after it)."""
    if changes:
        _last[game_id] = pending


def last_write(game_id: int) -> Pending | None:
    return _last.get(game_id)


def failed(game_id: int) -> bool:
    """A write of the game on its way is known to have failed: its held copy is not the truth."""
    p = _last.get(game_id)
    return p is not None and p.failed is True


async def settled(game_id: int) -> bool:
    """Wait until the game's writes on their way have landed (call holding its turn: none come
    meanwhile); False, and the held game dropped, if one was not written."""
    p = _last.get(game_id)
    if p is None:
        return True
    if not p.done.done():
        await asyncio.wait([p.done])
    if _last.get(game_id) is p:
        del _last[game_id]
    if unwritten(p):
        forget(game_id)
        return False
    return True


def note_written(game_id: int, seq: int, stored: str) -> None:
    """A write handed in stores this state (JSON text, texts as refs) for arrival number ``seq``:
    what a refused rule is undone to without reading the database."""
    _written[game_id] = (seq, stored)


def as_written(game: Game) -> Any | None:
    """The state of ``game``'s last write handed in (plain JSON, texts as refs), if it was the write
    of its current arrival number (a flood of refusals, e.g. a night's actions after it ended,
    would otherwise read the game once each)."""
    kept = _written.get(game.id)
    if kept is None or kept[0] != game.last_seq:
        return None
    return orjson.loads(kept[1])


def changed_columns(game: Game, columns: tuple[str, ...]) -> list[str]:
    """Which of the game row's ``columns`` (not its state) differ from what its last write handed in
    (or the read) left in the database: a command writes those alone (a vote changes none of its
    settings, 33 KiB of JSON in an 88-player game). All of them when that is not known."""
    now = _row(game, columns)
    before = _rows.get(game.id)
    _rows[game.id] = now
    return list(columns) if before is None else [c for c in columns if before.get(c) != now[c]]


def note_row(game: Game, columns: tuple[str, ...]) -> None:
    """The game row's ``columns`` as just read from the database."""
    _rows[game.id] = _row(game, columns)


def _row(game: Game, columns: tuple[str, ...]) -> dict[str, Any]:
    """The columns' values as they compare. A JSON column (the settings) is replaced, never changed
    in place (/配置 stores a new dict; ``deep_merge`` changes neither input), so its object is kept:
    the same object compares equal without walking its values, a new one key by key (not 33 KiB
    of JSON at each command)."""
    return {c: getattr(game, c) for c in columns}
