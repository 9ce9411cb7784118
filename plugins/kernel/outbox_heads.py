"""Which outbound rows are next: each recipient's oldest pending row (order is kept per recipient),
chosen by the database however many recipients wait, read through the store (on SQLite a reading
connection that waits for no writer). The statements are written here: building the same query
through the ORM on every tick cost more than running it. On PostgreSQL the table is kept fit for
them (``vacuum_now_and_then``). A group's replies waiting behind its head go with it (``replies_after``)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from nonebot.log import logger
from tortoise import connections

from .leases import PROCESS
from .pieces import MAX_CHUNK
from .store import current

VACUUM_AFTER = 1000  # rows marked sent between two clean-ups of the queue's table (PostgreSQL)
_marked = 0
_vacuum: asyncio.Task[None] | None = None


@dataclass(slots=True)
class Head:
    """An outbound row as the sender reads it."""

    id: int
    game_id: int | None
    self_id: str
    target_type: str
    target_id: str
    text: str
    priority: int
    at_all: bool
    image: str | None
    attempts: int
    timeouts: int
    scrub: bool
    next_try_at: datetime

    @classmethod
    def of(cls, v: dict[str, Any]) -> Head:
        return cls(v["id"], v["game_id"], v["self_id"], v["target_type"], v["target_id"], v["text"], v["priority"],
                   bool(v["at_all"]), v["image"], v["attempts"], v["timeouts"], bool(v["scrub"]), read_time(v["next_try_at"]))


def _postgres() -> bool:
    return connections.get("default").capabilities.dialect == "postgres"


def vacuum_now_and_then(marked: int) -> None:
    """PostgreSQL: each row of the queue is written twice (pending, then sent) and the old version
    stays in the table and its status index until VACUUM; with autovacuum off or between its runs,
    the head query read every one of them, and without ANALYZE it planned blind. After every
    ``VACUUM_AFTER`` rows marked, the table is vacuumed and analysed in the background, one at a
    time (SKIP_LOCKED: another process's clean-up will do); reads and writes go on meanwhile."""
    global _marked, _vacuum
    if not _postgres():
        return
    _marked += marked
    if _marked >= VACUUM_AFTER and (_vacuum is None or _vacuum.done()):
        _marked = 0
        _vacuum = asyncio.ensure_future(_clean_up())


async def _clean_up() -> None:
    try:
        await connections.get("default").execute_script("VACUUM (ANALYZE, SKIP_LOCKED) outbox")
    except Exception as exc:  # the next one may succeed; sending goes on either way
        logger.opt(exception=exc).warning("outbound queue: VACUUM of its table failed")


def heads_sql(types: list[str], due: datetime | None, busy: Iterable[tuple[str, str]]) -> tuple[str, list[Any]]:
    """Each recipient's oldest pending row of this process among ``types``, due by ``due``,
    recipients in ``busy`` (a send in flight) left out."""
    numbered = _postgres()
    params: list[Any] = []

    def p(value: Any) -> str:
        params.append(value)
        return f"${len(params)}" if numbered else "?"

    # 'pending' written out, not a parameter: PostgreSQL may plan a prepared statement (asyncpg keeps
    # them) once for any value, as if half the rows matched; with the value in the text it plans from
    # the statistics (kept fresh by vacuum_now_and_then) that few rows are pending, and reads the index
    where = [f"id IN (SELECT MIN(id) FROM outbox WHERE status = 'pending' AND owner = {p(PROCESS)} "
             "GROUP BY target_type, target_id)",
             f"target_type IN ({', '.join(p(t) for t in types)})"]
    if due is not None:
        where.append(f"next_try_at <= {p(_bound(due, numbered))}")
    where += [f"NOT (target_type = {p(kind)} AND target_id = {p(target)})" for kind, target in busy]
    return f"SELECT * FROM outbox WHERE {' AND '.join(where)}", params


def _bound(at: datetime, postgres: bool) -> Any:
    """A time as the database compares it (SQLite keeps the text Tortoise writes)."""
    return at if postgres else at.isoformat(" ")


def read_time(value: Any) -> datetime:
    """A time as read (SQLite: Tortoise's text, read by ``fromisoformat``, ~0.1 µs against ~6 µs for
    Tortoise's parser, three to a row and every head of every tick), aware in UTC."""
    at = datetime.fromisoformat(value) if isinstance(value, str) else value
    return at if at.tzinfo is not None else at.replace(tzinfo=timezone.utc)


async def first_head(types: list[str], due: datetime | None, busy: Iterable[tuple[str, str]], order: str) -> Head | None:
    """The first head in ``order``."""
    sql, params = heads_sql(types, due, busy)
    rows = await current().fetch(f"{sql} ORDER BY {order} LIMIT 1", params)
    return Head.of(rows[0]) if rows else None


async def ranked_heads(types: list[str], due: datetime, busy: Iterable[tuple[str, str]],
                       per_game: int) -> tuple[list[tuple[int, Head]], datetime | None]:
    """Up to ``per_game`` heads of each game due by ``due`` (replies first, then the oldest), each
    with its rank in its game (1: the game's first); and when the earliest head not yet due will
    be (None: none waits), from the same query — an idle worker needs no second one."""
    sql, heads = heads_sql(types, None, busy)
    postgres = _postgres()
    at_value = _bound(due, postgres)
    if postgres:
        at, later, params = f"${len(heads) + 1}", f"${len(heads) + 2}", heads + [at_value, at_value]
    else:  # "?" in the order they appear: the three below come before the heads' own
        at, later, params = "?", "?", [at_value, at_value, at_value] + heads
    ranked = (f"SELECT h.*, CASE WHEN next_try_at <= {at} THEN 1 ELSE 0 END AS is_due, "
              "ROW_NUMBER() OVER (PARTITION BY game_id ORDER BY CASE WHEN next_try_at <= "
              f"{at} THEN 0 ELSE 1 END, priority, id) AS turn_rank, "
              f"MIN(CASE WHEN next_try_at > {later} THEN next_try_at END) OVER () AS later_due FROM ({sql}) h")
    rows = await current().fetch(f"SELECT * FROM ({ranked}) r WHERE turn_rank <= {int(per_game)}", params)
    out, next_due = [], None
    for values in rows:
        rank, is_due, next_due = int(values.pop("turn_rank")), values.pop("is_due"), values.pop("later_due")
        if is_due:
            out.append((rank, Head.of(values)))
    return out, read_time(next_due) if next_due is not None else None


async def replies_after(row: Head, now: datetime) -> list[Head]:
    """Replies waiting behind ``row`` for the same group go out with it as one message (in order):
    88 votes in the last minute get their arrival numbers in a few messages instead of 88 paced ones."""
    if row.target_type != "group" or row.priority != 0 or row.image or row.at_all:
        return []
    mark = "$" if _postgres() else "?"
    marks = [f"{mark}{i}" if mark == "$" else "?" for i in (1, 2)]
    rows = await current().fetch(f"SELECT * FROM outbox WHERE status = 'pending' AND target_type = 'group' "
                                 f"AND target_id = {marks[0]} AND id > {marks[1]} ORDER BY id LIMIT 100",
                                 [row.target_id, row.id])
    batch: list[Head] = []
    size = len(row.text)
    for r in map(Head.of, rows):
        if r.priority != 0 or r.image or r.at_all or r.self_id != row.self_id or r.next_try_at > now:
            break
        size += 1 + len(r.text)
        if size > MAX_CHUNK:
            break
        batch.append(r)
    return batch


async def private_waiting() -> int:
    """How many private messages wait to be sent (all games): read where the queue's heads are, so
    a command's note about its own fan-out does not wait for the writer."""
    rows = await current().fetch("SELECT COUNT(*) AS n FROM outbox WHERE status = 'pending' AND target_type = 'private'", [])
    return int(rows[0]["n"]) if rows else 0
