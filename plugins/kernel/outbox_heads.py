"""Which outbound rows are next: each recipient's oldest pending row (order is kept per
recipient), chosen by the database however many recipients wait. The statements are
written here: building the same query through the ORM on every tick cost more than
running it. On PostgreSQL the table is kept fit for them (``vacuum_now_and_then``). A group's
replies waiting behind its head go with it (``replies_after``)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from nonebot.log import logger

from .bulk import fetch_rows
from .leases import PROCESS
from .models import Outbox
from .pieces import MAX_CHUNK

VACUUM_AFTER = 1000  # rows marked sent between two clean-ups of the queue's table (PostgreSQL)
_marked = 0
_vacuum: asyncio.Task[None] | None = None


def vacuum_now_and_then(marked: int) -> None:
    """PostgreSQL: each row of the queue is written twice (pending, then sent) and the old version
    stays in the table and its status index until VACUUM; with autovacuum off (as on this machine)
    or between its runs, the head query read every one of them (42 ms a query, 3,255 of them in three
    royale nights), and without ANALYZE it planned blind. After every ``VACUUM_AFTER`` rows marked,
    the table is vacuumed and analysed in the background, one at a time (SKIP_LOCKED: another
    process's clean-up will do); reads and writes go on meanwhile."""
    global _marked, _vacuum
    if Outbox._meta.db.capabilities.dialect != "postgres":
        return
    _marked += marked
    if _marked >= VACUUM_AFTER and (_vacuum is None or _vacuum.done()):
        _marked = 0
        _vacuum = asyncio.ensure_future(_clean_up())


async def _clean_up() -> None:
    try:
        await Outbox._meta.db.execute_script("VACUUM (ANALYZE, SKIP_LOCKED) outbox")
    except Exception as exc:  # the next one may succeed; sending goes on either way
        logger.opt(exception=exc).warning("outbound queue: VACUUM of its table failed")


def heads_sql(types: list[str], due: datetime | None, busy: Iterable[tuple[str, str]]) -> tuple[str, list[Any]]:
    """Each recipient's oldest pending row of this process among ``types``, due by ``due``,
    recipients in ``busy`` (a send in flight) left out."""
    numbered = Outbox._meta.db.capabilities.dialect == "postgres"
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
        where.append(f"next_try_at <= {p(due)}")
    where += [f"NOT (target_type = {p(kind)} AND target_id = {p(target)})" for kind, target in busy]
    return f"SELECT * FROM outbox WHERE {' AND '.join(where)}", params


_TIMES = ("next_try_at", "created_at", "sent_at")


def _time(value: Any) -> Any:
    """SQLite's time text (Tortoise's own format) read by ``fromisoformat``, ~0.1 µs against ~6 µs
    for Tortoise's parser (three to a row, every head of every tick); anything else as it is."""
    return datetime.fromisoformat(value) if isinstance(value, str) else value


def _outbox(values: dict[str, Any]) -> Outbox:
    """A queue row as read, its times read first (``_time``)."""
    for k in _TIMES:
        if k in values:
            values[k] = _time(values[k])
    return Outbox._init_from_db(**values)


async def first_head(types: list[str], due: datetime | None, busy: Iterable[tuple[str, str]], order: str) -> Outbox | None:
    """The first head in ``order``."""
    sql, params = heads_sql(types, due, busy)
    rows = await fetch_rows(f"{sql} ORDER BY {order} LIMIT 1", params)
    return _outbox(rows[0]) if rows else None


async def ranked_heads(types: list[str], due: datetime, busy: Iterable[tuple[str, str]],
                       per_game: int) -> tuple[list[tuple[int, Outbox]], datetime | None]:
    """Up to ``per_game`` heads of each game due by ``due`` (replies first, then the oldest), each
    with its rank in its game (1: the game's first); and when the earliest head not yet due will
    be (None: none waits), from the same query — an idle worker needs no second one."""
    sql, heads = heads_sql(types, None, busy)
    if Outbox._meta.db.capabilities.dialect == "postgres":
        at, later, params = f"${len(heads) + 1}", f"${len(heads) + 2}", heads + [due, due]
    else:  # "?" in the order they appear: the three below come before the heads' own
        at, later, params = "?", "?", [due, due, due] + heads
    ranked = (f"SELECT h.*, CASE WHEN next_try_at <= {at} THEN 1 ELSE 0 END AS is_due, "
              "ROW_NUMBER() OVER (PARTITION BY game_id ORDER BY CASE WHEN next_try_at <= "
              f"{at} THEN 0 ELSE 1 END, priority, id) AS turn_rank, "
              f"MIN(CASE WHEN next_try_at > {later} THEN next_try_at END) OVER () AS later_due FROM ({sql}) h")
    rows = await fetch_rows(f"SELECT * FROM ({ranked}) r WHERE turn_rank <= {int(per_game)}", params)
    out, next_due = [], None
    for values in rows:
        rank, is_due, next_due = int(values.pop("turn_rank")), values.pop("is_due"), values.pop("later_due")
        if is_due:
            out.append((rank, _outbox(values)))
    if next_due is not None:
        next_due = Outbox._meta.fields_map["next_try_at"].to_python_value(_time(next_due))
    return out, next_due


async def replies_after(row: Outbox, now: datetime) -> list[Outbox]:
    """Replies waiting behind ``row`` for the same group go out with it as one
    message (in order): 88 votes in the last minute get their arrival numbers
    in a few messages instead of 88 paced ones."""
    if row.target_type != "group" or row.priority != 0 or row.image or row.at_all:
        return []
    rows = await Outbox.filter(
        status="pending", target_type="group", target_id=row.target_id, id__gt=row.id
    ).order_by("id").limit(100)
    batch: list[Outbox] = []
    size = len(row.text)
    for r in rows:
        if r.priority != 0 or r.image or r.at_all or r.self_id != row.self_id or r.next_try_at > now:
            break
        size += 1 + len(r.text)
        if size > MAX_CHUNK:
            break
        batch.append(r)
    return batch
