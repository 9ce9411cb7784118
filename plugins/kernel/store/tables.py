"""The SQL of a write set's operations, per dialect, built from the models' public description
(``Model.describe``): column names, defaults and how each value is stored. Once per model."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import orjson
from tortoise import fields
from tortoise.models import Model

from ..writeset import Delete, Guard, Insert, Key, Update, Upsert


@dataclass(frozen=True)
class Table:
    name: str
    pk: str  # the primary key's column
    generated: bool  # the primary key is made by the database
    columns: dict[str, str]  # field name -> column, every column an INSERT writes
    kinds: dict[str, str]  # field name -> "json", "time" or ""
    defaults: dict[str, Any]  # field name -> default value, or a callable making one
    limits: dict[str, int]  # field name -> the longest text it holds
    plan: tuple[tuple[str, str, int], ...]  # each column an INSERT writes: (field, kind, longest text or 0)


_NOW = object()  # the default of an auto_now_add time: the moment it is written


@functools.cache
def table(model: type[Model]) -> Table:
    d = model.describe(serializable=False)
    pk = d["pk_field"]
    columns: dict[str, str] = {}
    kinds: dict[str, str] = {}
    defaults: dict[str, Any] = {}
    limits: dict[str, int] = {}
    if not pk["generated"]:
        columns[pk["name"]] = pk["db_column"]
    for f in d["data_fields"]:
        name, kind = f["name"], f["field_type"]
        columns[name] = f["db_column"]
        kinds[name] = "json" if issubclass(kind, fields.JSONField) else "time" if issubclass(kind, fields.DatetimeField) else ""
        if f.get("auto_now_add") or f.get("auto_now"):
            defaults[name] = _NOW
        elif f["default"] is not None or f["nullable"]:
            defaults[name] = f["default"]
        if issubclass(kind, fields.CharField) and "max_length" in f["constraints"]:
            limits[name] = int(f["constraints"]["max_length"])
    for f in d["fk_fields"]:  # a foreign key's column: <name>_id
        columns[f"{f['name']}_id"] = f"{f['name']}_id"
        kinds[f"{f['name']}_id"] = ""
        if f["nullable"]:
            defaults[f"{f['name']}_id"] = None
    plan = tuple((n, kinds.get(n, ""), limits.get(n, 0)) for n in columns)
    return Table(d["table"], pk["db_column"], bool(pk["generated"]), columns, kinds, defaults, limits, plan)


@dataclass(frozen=True)
class Dialect:
    postgres: bool

    def mark(self, i: int) -> str:
        return f"${i}" if self.postgres else "?"

    def value(self, t: Table, name: str, v: Any) -> Any:
        """A value as its column stores it."""
        if isinstance(v, Key):  # a row written earlier in the same write set
            v = v.value
        kind = t.kinds.get(name, "")
        if v is None or not kind:
            limit = t.limits.get(name)
            if limit is not None and isinstance(v, str) and len(v) > limit:
                raise ValueError(f"{t.name}.{name}: {len(v)} characters, at most {limit}")
            return v
        if kind == "json":
            return v if isinstance(v, str) else orjson.dumps(v).decode()
        if kind == "time" and isinstance(v, datetime):
            if v.tzinfo is None:
                v = v.replace(tzinfo=timezone.utc)
            return v if self.postgres else v.isoformat(" ")  # as Tortoise stores it in SQLite
        return v

    def insert(self, op: Insert | Upsert, now: datetime) -> tuple[str, list[list[Any]]]:
        t = table(op.model)
        names = list(t.columns)
        marks = ", ".join(self.mark(i) for i in range(1, len(names) + 1))
        cols = ", ".join(f'"{t.columns[n]}"' for n in names)
        sql = f'INSERT INTO "{t.name}" ({cols}) VALUES ({marks})'
        if isinstance(op, Upsert):
            sets = ", ".join(f'"{t.columns[n]}" = excluded."{t.columns[n]}"' for n in names if t.columns[n] != t.pk)
            sql += f' ON CONFLICT ("{t.pk}") DO UPDATE SET {sets}'
        value, missing = self.value, _MISSING
        times: dict[int, tuple[datetime, Any]] = {}  # a time shared by rows (their ``now``) converted once; kept alive
        rows = []
        for row in op.rows:
            out = []
            for name, kind, limit in t.plan:
                v = row.get(name, missing)
                if v is missing:
                    v = _default(t, name, now)
                if v is None or (not kind and not limit and type(v) is not Key):
                    out.append(v)
                elif kind == "time" and type(v) is datetime:
                    hit = times.get(id(v))
                    if hit is None:
                        hit = times[id(v)] = (v, value(t, name, v))
                    out.append(hit[1])
                else:
                    out.append(value(t, name, v))
            rows.append(out)
        return sql, rows

    def returning(self, sql: str, t: Table) -> str:
        return f'{sql} RETURNING "{t.pk}"'

    def update(self, op: Update) -> tuple[str, list[list[Any]]]:
        t = table(op.model)
        sets = ", ".join(f'"{t.columns[f]}" = {self.mark(i)}' for i, f in enumerate(op.fields, 1))
        sql = f'UPDATE "{t.name}" SET {sets} WHERE "{t.pk}" = {self.mark(len(op.fields) + 1)}'
        return sql, [[self.value(t, f, values[f]) for f in op.fields] + [pk] for pk, values in op.rows]

    def delete(self, op: Delete) -> tuple[str, list[Any]]:
        t = table(op.model)
        where = " AND ".join(f'"{t.columns.get(k, k)}" = {self.mark(i)}' for i, k in enumerate(op.where, 1))
        return f'DELETE FROM "{t.name}" WHERE {where}', [self.value(t, k, v) for k, v in op.where.items()]

    def guard(self, op: Guard) -> tuple[str, list[Any]]:
        t = table(op.model)
        names = list(op.values) + list(op.where)
        sets = ", ".join(f'"{t.columns.get(k, k)}" = {self.mark(i)}' for i, k in enumerate(op.values, 1))
        where = " AND ".join(f'"{t.columns.get(k, k)}" = {self.mark(i)}' for i, k in enumerate(op.where, len(op.values) + 1))
        params = [self.value(t, k, v) for k, v in (*op.values.items(), *op.where.items())]
        assert len(params) == len(names)
        return f'UPDATE "{t.name}" SET {sets} WHERE {where}', params


_MISSING = object()


def _default(t: Table, name: str, now: datetime) -> Any:
    if name not in t.defaults:
        raise KeyError(f"{t.name}: no value for {name}")
    default = t.defaults[name]
    if default is _NOW:
        return now
    return default() if isinstance(default, Callable) else default  # type: ignore[arg-type]


SQLITE = Dialect(postgres=False)
POSTGRES = Dialect(postgres=True)
