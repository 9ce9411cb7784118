"""Rows written without a model object each: Tortoise's own INSERT statement, columns,
defaults and value conversions, for rows given as plain dicts (building a model object
cost as much as writing its row: 88 role messages of a /开始, a command's log row); and a
command's few statements written in one transaction with one trip to the database."""

from __future__ import annotations

import sqlite3
from typing import Any

from tortoise import connections
from tortoise.backends.base.client import TransactionalDBClient
from tortoise.backends.sqlite.client import SqliteClient
from tortoise.exceptions import IntegrityError
from tortoise.models import Model
from tortoise.transactions import in_transaction

Statement = tuple[str, list[list[Any]]]
"""SQL with its parameter rows (one execution per row)."""


def insert_statement(model: type[Model], rows: list[dict[str, Any]]) -> Statement:
    """The INSERT of ``rows`` (field name -> value; a missing field takes its default)."""
    db = model._meta.db
    ex = db.executor_class(model=model, db=db)  # its SQL and columns are cached per table
    fields_map = model._meta.fields_map
    columns = [(c, fields_map[c].to_db_value, fields_map[c].default) for c in ex.regular_columns]
    return ex.insert_query, [[conv(r.get(c, default), model) for c, conv, default in columns] for r in rows]


async def insert_rows(model: type[Model], rows: list[dict[str, Any]]) -> None:
    """INSERT ``rows`` in one statement, on the connection of the current transaction."""
    if rows:
        sql, params = insert_statement(model, rows)
        await model._meta.db.execute_many(sql, params)


def update_statement(obj: Model, fields: tuple[str, ...]) -> Statement:
    """``UPDATE`` of these fields of one row, as the model converts them."""
    meta = obj._meta
    numbered = meta.db.capabilities.dialect == "postgres"
    cols = [meta.fields_db_projection[f] for f in fields]
    sets = ", ".join(f'"{c}" = ' + (f"${i}" if numbered else "?") for i, c in enumerate(cols, 1))
    pk = "$" + str(len(cols) + 1) if numbered else "?"
    sql = f'UPDATE "{meta.db_table}" SET {sets} WHERE "{meta.db_pk_column}" = {pk}'
    return sql, [[meta.fields_map[f].to_db_value(getattr(obj, f), obj) for f in fields] + [obj.pk]]


class WriteFailed(IntegrityError):
    """A statement of ``write_at_once`` broke a constraint; nothing of them was written."""

    def __init__(self, index: int, cause: Exception):
        super().__init__(str(cause))
        self.index = index


async def write_at_once(stmts: list[Statement]) -> None:
    """Write ``stmts`` in order, all or nothing. On SQLite outside a transaction the whole
    transaction (BEGIN … COMMIT) is one trip to the connection's thread, under the lock
    Tortoise's own transactions take: the connection is held for the writes only, not for
    the round trips of seven statements (other games' commands wait for it that much less).
    Elsewhere: one transaction, a statement at a time."""
    stmts = [s for s in stmts if s[1]]
    db = connections.get("default")  # a transaction's own connection when one is open in this task
    if isinstance(db, SqliteClient) and not isinstance(db, TransactionalDBClient):
        async with db._lock:
            if not db._connection:
                await db.create_connection(with_db=True)
            conn = db._connection
            assert conn is not None
            await conn._execute(_run_all, conn._conn, stmts)
        return
    async with in_transaction() as tx:
        for i, (sql, params) in enumerate(stmts):
            try:
                await tx.execute_many(sql, params)
            except IntegrityError as exc:
                raise WriteFailed(i, exc) from exc


def _run_all(raw: sqlite3.Connection, stmts: list[Statement]) -> None:
    """In the connection's thread: BEGIN, every statement, COMMIT (ROLLBACK on any error)."""
    raw.execute("BEGIN")
    try:
        for i, (sql, params) in enumerate(stmts):
            try:
                raw.executemany(sql, params)
            except sqlite3.IntegrityError as exc:
                raise WriteFailed(i, exc) from exc
        raw.execute("COMMIT")
    except BaseException:
        raw.execute("ROLLBACK")
        raise
