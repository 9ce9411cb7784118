"""The statements the kernel writes without a model object each: Tortoise's own INSERT and
UPDATE, with its columns, defaults and value conversions, for rows given as plain dicts
(building a model object cost as much as writing its row). ``bulk.py`` writes them."""

from __future__ import annotations

import functools
from datetime import datetime
from typing import Any, NamedTuple

from tortoise.fields import CharField, Field, TextField
from tortoise.models import Model
from tortoise.validators import MaxLengthValidator


class Statement(NamedTuple):
    """SQL run once per parameter row; an INSERT also keeps its head (``INSERT INTO t (…)``) so
    that its rows can go in one VALUES list."""

    sql: str
    rows: list[list[Any]]
    table: str
    head: str = ""
    ids: list[Any] | None = None  # given: the new primary key of each row inserted is appended, in order


def insert_statement(model: type[Model], rows: list[dict[str, Any]], ids: list[Any] | None = None) -> Statement:
    """The INSERT of ``rows`` (field name -> value; a missing field takes its default); with
    ``ids``, their new primary keys are appended to it once written."""
    db = model._meta.db
    ex = db.executor_class(model=model, db=db)  # its SQL and columns are cached per table
    fields_map = model._meta.fields_map
    sqlite = db.capabilities.dialect == "sqlite"
    columns = []
    for c in ex.regular_columns:
        f = fields_map[c]
        default = f.default
        columns.append(_column(f, model, [r.get(c, default) for r in rows], sqlite))
    values = [list(row) for row in zip(*columns)]
    return Statement(ex.insert_query, values, model._meta.db_table, ex.insert_query.split(" VALUES ", 1)[0], ids)


def _column(field: Field, model: type[Model], raw: list[Any], sqlite: bool) -> list[Any]:
    """One column of the rows, as the model converts it: strings into a plain text column as
    they are, their length checked in one pass (the validator per value cost as much as the
    rest of the row); once when every row holds the same object (88 role messages share their
    game, sender, times and flags)."""
    if _plain_text(field) and all(type(v) is str for v in raw):
        cap = getattr(field, "max_length", None)
        if cap is None or max(map(len, raw)) <= cap:
            return raw
    first = raw[0]
    if all(v is first for v in raw):
        return [_bound(field.to_db_value(first, model), sqlite)] * len(raw)
    return [_bound(field.to_db_value(v, model), sqlite) for v in raw]


def _bound(value: Any, sqlite: bool) -> Any:
    """A time as SQLite stores it, converted once: sqlite3 calls Tortoise's adapter
    (``isoformat(" ")``) for every value it binds, ~2 µs each (91 rows of a /开始 share two
    times: 182 calls, a third of that INSERT's time); the text stored is the same."""
    return value.isoformat(" ") if sqlite and type(value) is datetime else value


@functools.cache
def _plain_text(field: Field) -> bool:
    """A text column whose only check is its length: a str is stored as it is."""
    if type(field) is TextField:
        return not field.validators
    return type(field) is CharField and len(field.validators) == 1 and isinstance(field.validators[0], MaxLengthValidator)


def upsert_statement(model: type[Model], rows: list[dict[str, Any]]) -> Statement:
    """The INSERT of ``rows`` that, where the primary key exists, updates the other columns
    (SQLite and PostgreSQL: ``ON CONFLICT … DO UPDATE``); the rows' keys must differ."""
    st = insert_statement(model, rows)
    meta = model._meta
    pk = meta.db_pk_column
    cols = [meta.fields_db_projection[f] for f in meta.fields_db_projection if f != meta.pk_attr]
    sets = ", ".join(f'"{c}" = excluded."{c}"' for c in cols)
    return Statement(f'{st.sql} ON CONFLICT ("{pk}") DO UPDATE SET {sets}', st.rows, st.table)


def update_statement(obj: Model, fields: tuple[str, ...]) -> Statement:
    """``UPDATE`` of these fields of one row, as the model converts them."""
    return update_rows(type(obj), fields, [(obj.pk, {f: getattr(obj, f) for f in fields})])


def update_rows(model: type[Model], fields: tuple[str, ...], rows: list[tuple[Any, dict[str, Any]]]) -> Statement:
    """``UPDATE`` of these fields, row by row: (primary key, field -> value), converted as the
    model converts them."""
    meta = model._meta
    numbered = meta.db.capabilities.dialect == "postgres"
    cols = [meta.fields_db_projection[f] for f in fields]
    sets = ", ".join(f'"{c}" = ' + (f"${i}" if numbered else "?") for i, c in enumerate(cols, 1))
    pk = "$" + str(len(cols) + 1) if numbered else "?"
    sql = f'UPDATE "{meta.db_table}" SET {sets} WHERE "{meta.db_pk_column}" = {pk}'
    conv = [meta.fields_map[f].to_db_value for f in fields]
    sqlite = not numbered and meta.db.capabilities.dialect == "sqlite"
    return Statement(sql, [[_bound(c(values[f], model), sqlite) for c, f in zip(conv, fields)] + [key]
                           for key, values in rows], meta.db_table)
