"""Writes in flight (issue 19). A command that only answers and changes the state hands its
write in and ends its turn: the game's next command runs its rule meanwhile, on the held
state, instead of waiting for the write and its COMMIT. Nothing is acknowledged early — the
answers are rows of the same write and leave once it is written — and a write is made only
if the game's write before it was (``bulk.Link``): when one fails, the later ones fail too
(``Superseded``: the player is asked to send again), and the held game is read afresh once
all its writes in flight have settled (``settled``). A game's writes land in the order they
were handed in: on SQLite one thread writes them in that order; on PostgreSQL one writer per
game does (``_writer``), those that queued behind one as one statement."""

from __future__ import annotations

import asyncio

from tortoise import connections
from tortoise.backends.base.client import TransactionalDBClient
from tortoise.backends.sqlite.client import SqliteClient

from plugins.gamekit.contract import GameEngine

from .bulk import Link, Superseded, hand_in, settle, unwritten, write_at_once
from .held import as_written, forget, handed_in
from .longtexts import Texts, decoded, inflate
from .models import Game
from .statements import Statement

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
    if unwritten(link):
        forget(game_id)
        return False
    return True


async def stored_state(game: Game, engine: GameEngine, texts: Texts) -> tuple[object, bool]:
    """``game``'s state as stored, texts in place: that of its last write handed in when it is the
    write of its current arrival number (no trip, no wait: a flood of refused commands, e.g. a
    night's actions after it ended, read the game once each), else read once its writes land;
    and whether the rest of the held game still matches the database (not when a write it went
    on from was not made, or the row is of another arrival number: then it must be read afresh)."""
    state = as_written(game)
    if state is not None:
        return decoded(engine, game.id, inflate(state, engine.TEXTS, texts)), True
    written = await settled(game.id)
    row = await Game.get(id=game.id)
    state = row.state  # kept as written for the next refusal (a game read afresh, then refusals only)
    handed_in(game.id, row.last_seq, Game._meta.fields_map["state"].to_db_value(state, Game))
    return decoded(engine, game.id, inflate(state, engine.TEXTS, texts)), written and row.last_seq == game.last_seq


def outside_transaction() -> bool:
    return not isinstance(connections.get("default"), TransactionalDBClient)


def begin_write(stmts: list[Statement], link: Link, after: Link | None, game_id: int) -> asyncio.Future[None]:
    """``write_at_once`` outside a transaction, handed in now (the caller may go on before it
    is written): the future settles once written; written only if ``after`` was, and after it
    (``Superseded`` otherwise)."""
    stmts = [s for s in stmts if s.rows]
    db = connections.get("default")
    if isinstance(db, SqliteClient):
        link.done = hand_in(db, stmts, link, after)
        return link.done
    link.done = asyncio.get_running_loop().create_future()
    _queued.setdefault(game_id, []).append((stmts, link, after))
    if game_id not in _writing:  # PostgreSQL: one writer per game keeps the order handed in
        _writing.add(game_id)
        task = asyncio.ensure_future(_writer(game_id))
        _writers.add(task)
        task.add_done_callback(_writers.discard)
    return link.done


Queued = tuple[list[Statement], Link, "Link | None"]
_queued: dict[int, list[Queued]] = {}  # PostgreSQL: each game's writes handed in and not yet taken
_writing: set[int] = set()
_writers: set[asyncio.Future[None]] = set()


async def _writer(game_id: int) -> None:
    """PostgreSQL: the game's writes in the order handed in; those that queued while one was on
    its way go together as one statement (a pool's connections do not keep order by themselves)."""
    try:
        while batch := _queued.pop(game_id, None):
            try:
                await _write_batch(batch)
            except BaseException as exc:  # (cancelled at shutdown): whoever waits is told
                for _, link, _ in batch:
                    _settle(link, exc if isinstance(exc, Exception) else ConnectionError("the database is closed"))
                raise
    finally:
        _writing.discard(game_id)


async def _write_batch(batch: list[Queued]) -> None:
    together = _together([stmts for stmts, _, _ in batch]) if len(batch) > 1 else None
    links = [link for _, link, _ in batch]
    if together is not None and all(after is None or after.failed is False or any(after is k for k in links)
                                    for _, _, after in batch):
        try:
            await write_at_once(together)
        except Exception:
            pass  # one of them broke: each on its own, in order, tells which
        else:
            for _, link, _ in batch:
                _settle(link, None)
            return
    for stmts, link, after in batch:
        if unwritten(after):
            _settle(link, Superseded())
            continue
        try:
            await write_at_once(stmts)
        except Exception as exc:  # its writer gets it
            _settle(link, exc)
        else:
            _settle(link, None)


def _together(writes: list[list[Statement]]) -> list[Statement] | None:
    """The writes as one list of statements, a row updated by several of them once (the last
    update: one statement cannot update a row twice); None where that cannot be done."""
    last: dict[tuple[str, object], tuple[int, str]] = {}  # (table, key) -> its last UPDATE: (place, SQL)
    flat = [st for stmts in writes for st in stmts]
    for i, st in enumerate(flat):
        if st.ids is not None:
            return None  # new keys are asked for: a statement each
        if st.sql.startswith("UPDATE"):
            for row in st.rows:
                seen = last.get((st.table, row[-1]))
                if seen is not None and seen[1] != st.sql:
                    return None
                last[(st.table, row[-1])] = (i, st.sql)
    out: list[Statement] = []
    for i, st in enumerate(flat):
        if st.sql.startswith("UPDATE"):
            rows = [row for row in st.rows if last[(st.table, row[-1])][0] == i]
            if rows:
                out.append(st._replace(rows=rows))
        else:
            out.append(st)
    return out


def _settle(link: Link, outcome: Exception | None) -> None:
    link.failed = outcome is not None
    assert link.done is not None
    settle(link.done, outcome)
