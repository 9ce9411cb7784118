"""Rows written without a model object each: Tortoise's own INSERT statement, columns,
defaults and value conversions, for rows given as plain dicts (building a model object
cost as much as writing its row: 88 role messages of a /开始, a command's log row)."""

from __future__ import annotations

from typing import Any

from tortoise.models import Model


async def insert_rows(model: type[Model], rows: list[dict[str, Any]]) -> None:
    """INSERT ``rows`` (field name -> value; a missing field takes its default) in one statement,
    on the connection of the current transaction."""
    if not rows:
        return
    db = model._meta.db
    ex = db.executor_class(model=model, db=db)  # its SQL and columns are cached per table
    fields_map = model._meta.fields_map
    columns = [(c, fields_map[c].to_db_value, fields_map[c].default) for c in ex.regular_columns]
    await db.execute_many(ex.insert_query, [[conv(r.get(c, default), model) for c, conv, default in columns] for r in rows])
