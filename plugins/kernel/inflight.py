"""Writes in flight (issue 19). A command that only answers and changes the state hands its
write in and ends its turn: the game's next command runs its rule meanwhile, on the held
state, instead of waiting for the write and its COMMIT. Nothing is acknowledged early — the
answers are rows of the same write and leave once it is written — and a write is made only
if the game's write before it was (``bulk.Link``): when one fails, the later ones fail too
(``Superseded``: the player is asked to send again), and the held game is read afresh once
all its writes in flight have settled (``settled``). A game's writes land in the order they
were handed in: on SQLite one thread writes them in that order; on PostgreSQL each waits
for the one before it."""

from __future__ import annotations

import asyncio

from tortoise import connections
from tortoise.backends.base.client import TransactionalDBClient
from tortoise.backends.sqlite.client import SqliteClient

from .bulk import Link, Statement, Superseded, hand_in, write_at_once
from .held import forget

_last: dict[int, Link] = {}  # each game's last write that changes it, until a command waits it out


def follow(game_id: int, *, changes: bool = True) -> tuple[Link, Link | None]:
    """A link for the game's next write, and the write it comes after; ``changes``: later
    writes come after this one (an answer of a read-only command changes nothing)."""
    link, after = Link(), _last.get(game_id)
    if changes:
        _last[game_id] = link
    return link, after


def failed(game_id: int) -> bool:
    """A write of the game in flight is known to have failed: its held copy is not the truth."""
    link = _last.get(game_id)
    return link is not None and link.failed is True


async def settled(game_id: int) -> bool:
    """Wait until the game's writes in flight have landed (call holding its turn: no new ones
    come meanwhile); False, and the held game dropped, if one was not written."""
    link = _last.get(game_id)
    if link is None:
        return True
    if link.done is not None and not link.done.done():
        await asyncio.wait([link.done])
    if _last.get(game_id) is link:
        del _last[game_id]
    if link.failed is not False:
        forget(game_id)
        return False
    return True


def outside_transaction() -> bool:
    return not isinstance(connections.get("default"), TransactionalDBClient)


def begin_write(stmts: list[Statement], link: Link, after: Link | None) -> asyncio.Future[None]:
    """``write_at_once`` outside a transaction, handed in now (the caller may go on before it
    is written): the future settles once written; written only if ``after`` was, and after it
    (``Superseded`` otherwise)."""
    stmts = [s for s in stmts if s.rows]
    db = connections.get("default")
    if isinstance(db, SqliteClient):
        link.done = hand_in(db, stmts, link, after)
    else:
        link.done = asyncio.ensure_future(_chained(stmts, link, after))
    return link.done


async def _chained(stmts: list[Statement], link: Link, after: Link | None) -> None:
    """PostgreSQL: written once the write it follows has landed (a pool's connections do not
    keep the order writes are handed in)."""
    try:
        if after is not None and after.done is not None and not after.done.done():
            await asyncio.wait([after.done])
        if after is not None and after.failed is not False:
            raise Superseded()
        await write_at_once(stmts)
    except BaseException:
        link.failed = True
        raise
    link.failed = False
