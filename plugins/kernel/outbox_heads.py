"""Which outbound rows are next: each recipient's oldest pending row (order is kept per
recipient), chosen by the database however many recipients wait. The statements are
written here: building the same query through the ORM on every tick cost more than
running it."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from .bulk import fetch_rows
from .leases import PROCESS
from .models import Outbox


def heads_sql(types: list[str], due: datetime | None, busy: Iterable[tuple[str, str]]) -> tuple[str, list[Any]]:
    """Each recipient's oldest pending row of this process among ``types``, due by ``due``,
    recipients in ``busy`` (a send in flight) left out."""
    numbered = Outbox._meta.db.capabilities.dialect == "postgres"
    params: list[Any] = []

    def p(value: Any) -> str:
        params.append(value)
        return f"${len(params)}" if numbered else "?"

    where = [f"id IN (SELECT MIN(id) FROM outbox WHERE status = {p('pending')} AND owner = {p(PROCESS)} "
             "GROUP BY target_type, target_id)",
             f"target_type IN ({', '.join(p(t) for t in types)})"]
    if due is not None:
        where.append(f"next_try_at <= {p(due)}")
    where += [f"NOT (target_type = {p(kind)} AND target_id = {p(target)})" for kind, target in busy]
    return f"SELECT * FROM outbox WHERE {' AND '.join(where)}", params


async def first_head(types: list[str], due: datetime | None, busy: Iterable[tuple[str, str]], order: str) -> Outbox | None:
    """The first head in ``order``."""
    sql, params = heads_sql(types, due, busy)
    rows = await fetch_rows(f"{sql} ORDER BY {order} LIMIT 1", params)
    return Outbox._init_from_db(**rows[0]) if rows else None


async def ranked_heads(types: list[str], due: datetime, busy: Iterable[tuple[str, str]],
                       per_game: int) -> list[tuple[int, Outbox]]:
    """Up to ``per_game`` heads of each game (replies first, then the oldest), each with its
    rank in its game (1: the game's first)."""
    sql, params = heads_sql(types, due, busy)
    ranked = f"SELECT h.*, ROW_NUMBER() OVER (PARTITION BY game_id ORDER BY priority, id) AS turn_rank FROM ({sql}) h"
    rows = await fetch_rows(f"SELECT * FROM ({ranked}) r WHERE turn_rank <= {int(per_game)}", params)
    out = []
    for values in rows:
        rank = int(values.pop("turn_rank"))
        out.append((rank, Outbox._init_from_db(**values)))
    return out
