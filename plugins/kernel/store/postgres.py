"""PostgreSQL: a write set is one statement (each operation a data-modifying part of one WITH),
unless it asks for new keys or guards an update (then a transaction, a statement at a time).
A game's write sets are written in the order handed in by one writer of that game; those that
queued while one was on its way go together as one statement (a row several of them update,
once, with its last values). Other write sets (sent marks, contacts) go at once. Through
Tortoise's connection pool (``execute_query``, ``in_transaction``)."""

from __future__ import annotations

import asyncio
import re
import time
from datetime import datetime, timezone
from typing import Any

from tortoise import connections
from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from ..models import Delivery, Outbox
from ..writeset import Delete, Guard, Insert, Update, Upsert, WriteSet
from . import Conflict, Duplicate, Pending, Store, Superseded, timed, unwritten
from .tables import POSTGRES, table

Item = tuple[WriteSet, Pending, "Pending | None"]
_PARAM = re.compile(r"\$(\d+)")


class PostgresStore(Store):
    def __init__(self) -> None:
        self.queued: dict[int, list[Item]] = {}
        self.writers: dict[int, asyncio.Task[None]] = {}
        self.loose: set[asyncio.Task[None]] = set()

    def hand_in(self, ws: WriteSet, *, after: Pending | None = None, game_id: int | None = None) -> Pending:
        pending = Pending(asyncio.get_running_loop().create_future())
        if game_id is None:
            task = asyncio.ensure_future(self._batch([(ws, pending, after)]))
            self.loose.add(task)
            task.add_done_callback(self.loose.discard)
            return pending
        self.queued.setdefault(game_id, []).append((ws, pending, after))
        if game_id not in self.writers:
            self.writers[game_id] = asyncio.ensure_future(self._writer(game_id))
        return pending

    async def _writer(self, game_id: int) -> None:
        try:
            while batch := self.queued.pop(game_id, None):
                await self._batch(batch)
        finally:
            self.writers.pop(game_id, None)

    async def _batch(self, batch: list[Item]) -> None:
        try:
            if len(batch) > 1 and all(after is None or after.failed is False or any(after is p for _, p, _ in batch)
                                      for _, _, after in batch):
                together = _together([ws for ws, _, _ in batch])
                if together is not None:
                    try:
                        await _write(together)
                    except Exception:
                        pass  # one of them broke: each on its own, in order, tells which
                    else:
                        for _, pending, _ in batch:
                            pending.settle(None)
                        return
            for ws, pending, after in batch:
                if unwritten(after):
                    pending.settle(Superseded())
                    continue
                try:
                    await _write(ws)
                except Exception as exc:
                    pending.settle(exc)
                else:
                    pending.settle(None)
        except BaseException as exc:  # (cancelled at shutdown): whoever waits is told
            for _, pending, _ in batch:
                if pending.failed is None:
                    pending.settle(exc if isinstance(exc, Exception) else ConnectionError("the database is closed"))
            raise

    async def fetch(self, sql: str, params: list[Any]) -> list[dict[str, Any]]:
        return await connections.get("default").execute_query_dict(sql, params)

    async def close(self) -> None:
        for task in [*self.writers.values(), *self.loose]:
            await asyncio.gather(task, return_exceptions=True)


async def _write(ws: WriteSet) -> None:
    """One write set: one statement, or a transaction when it needs keys back or a guard."""
    now = datetime.now(timezone.utc)
    began = time.perf_counter()
    try:
        if not _one_statement_will_do(ws):
            await _in_transaction(ws, now)
        else:
            sql, params = _one_statement(ws, now)
            await connections.get("default").execute_query(sql, params)
    except IntegrityError as exc:
        if ws.delivery is not None and getattr(exc.__cause__, "table_name", None) == "delivery":
            raise Duplicate() from None
        raise
    timed(began, "PostgreSQL: a write")


def _one_statement_will_do(ws: WriteSet) -> bool:
    """Every part of one statement sees the same snapshot, in no set order: only inserts and
    updates of distinct rows (no keys asked back, no guard, no delete, no row updated twice)."""
    seen: set[tuple[str, object]] = set()
    for op in ws.ops:
        if isinstance(op, Guard | Delete) or (isinstance(op, Insert) and op.keys):
            return False
        if isinstance(op, Update):
            for pk, _ in op.rows:
                if (table(op.model).name, pk) in seen:
                    return False
                seen.add((table(op.model).name, pk))
    return True


def _parts(ws: WriteSet, now: datetime) -> list[tuple[str, list[list[Any]], bool]]:
    """(SQL, parameter rows, insert) of each operation, the delivery key first and the messages last."""
    ops: list[Any] = []
    if ws.delivery is not None:
        ops.append(Insert(Delivery, [{"key": ws.delivery, "at": ws.at or now}]))
    ops += ws.ops
    if ws.outbox:
        ops.append(Insert(Outbox, ws.outbox))
    out: list[tuple[str, list[list[Any]], bool]] = []
    for op in ops:
        if isinstance(op, Insert | Upsert):
            sql, rows = POSTGRES.insert(op, now)
            out.append((sql, rows, True))
        elif isinstance(op, Update):
            sql, rows = POSTGRES.update(op)
            out.append((sql, rows, False))
        elif isinstance(op, Delete):
            sql, params = POSTGRES.delete(op)
            out.append((sql, [params], False))
        else:
            sql, params = POSTGRES.guard(op)
            out.append((sql, [params], False))
    return out


def _one_statement(ws: WriteSet, now: datetime) -> tuple[str, list[Any]]:
    """The operations as data-modifying parts of one WITH (run once each, all or nothing)."""
    parts: list[str] = []
    params: list[Any] = []
    for i, (sql, rows, insert) in enumerate(_parts(ws, now)):
        if insert:  # one VALUES list for all its rows
            head, _, tail = sql.partition(" VALUES ")
            conflict = tail.partition(") ")[2]  # an upsert's ON CONFLICT …
            values = []
            for row in rows:
                values.append("(" + ", ".join(f"${len(params) + k}" for k in range(1, len(row) + 1)) + ")")
                params.extend(row)
            parts.append(f"w{i} AS ({head} VALUES {', '.join(values)}{' ' + conflict if conflict else ''})")
            continue
        for k, row in enumerate(rows):  # an UPDATE or DELETE: a part per row (each row once in a statement)
            body = _PARAM.sub(lambda m, off=len(params): f"${int(m.group(1)) + off}", sql)  # type: ignore[misc]
            params.extend(row)
            parts.append(f"w{i}_{k} AS ({body})")
    return "WITH " + ", ".join(parts) + " SELECT 1", params


async def _in_transaction(ws: WriteSet, now: datetime) -> None:
    async with in_transaction() as tx:
        if ws.delivery is not None:
            sql, rows = POSTGRES.insert(Insert(Delivery, [{"key": ws.delivery, "at": ws.at or now}]), now)
            await tx.execute_query(sql, rows[0])
        for op in ws.ops:
            if isinstance(op, Insert) and op.keys:
                sql, rows = POSTGRES.insert(op, now)
                for key, row in zip(op.keys, rows):
                    got = await tx.execute_query_dict(POSTGRES.returning(sql, table(op.model)), row)
                    key.value = got[0][table(op.model).pk]
            elif isinstance(op, Guard):
                sql, params = POSTGRES.guard(op)
                changed, _ = await tx.execute_query(sql, params)
                if changed != 1:
                    raise Conflict(f"{table(op.model).name}: {op.where}")
            else:
                for sql, rows, _ in _parts(WriteSet(ops=[op]), now):
                    for row in rows:
                        await tx.execute_query(sql, row)
        if ws.outbox:
            sql, rows = POSTGRES.insert(Insert(Outbox, ws.outbox), now)
            await tx.execute_many(sql, rows)


def _together(sets: list[WriteSet]) -> WriteSet | None:
    """Several write sets as one: their operations in order, a row several of them update updated
    once (its last values: one statement cannot update a row twice); None where that cannot be done."""
    delivery_rows = [{"key": ws.delivery, "at": ws.at} for ws in sets if ws.delivery is not None]
    merged: dict[tuple[str, Any], dict[str, Any]] = {}
    order: list[tuple[Any, ...]] = []
    ops: list[Any] = []
    for ws in sets:
        for op in ws.ops:
            if isinstance(op, Guard | Delete) or (isinstance(op, Insert) and op.keys):
                return None
            if isinstance(op, Update):
                for pk, values in op.rows:
                    key = (table(op.model).name, pk)
                    if key not in merged:
                        merged[key] = {}
                        order.append((op.model, pk))
                    merged[key].update(values)
            else:
                ops.append(op)
    for model, pk in order:
        values = merged[(table(model).name, pk)]
        ops.append(Update(model, tuple(values), [(pk, values)]))
    return WriteSet(ops=([Insert(Delivery, delivery_rows)] if delivery_rows else []) + ops,
                    outbox=[row for ws in sets for row in ws.outbox])
