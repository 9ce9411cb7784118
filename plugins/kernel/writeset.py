"""What one command writes, as plain data: rows to insert, update, upsert or delete, an update
that must find its row (a deadline fires once), the queued messages, and the message's delivery
key. A unit of work (``work.py``) fills a write set; a store (``store/``) writes it whole or not
at all. Nothing here talks to a database."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tortoise.models import Model


@dataclass
class Key:
    """The key an inserted row gets, known once written; a later row of the same write set may
    name it (a new game's host row names the game)."""

    value: Any = None


@dataclass
class Insert:
    model: type[Model]
    rows: list[dict[str, Any]]  # field name -> value; a missing field takes its default
    keys: list[Key] | None = None  # one per row: the new primary keys, filled in once written


@dataclass
class Update:
    model: type[Model]
    fields: tuple[str, ...]
    rows: list[tuple[Any, dict[str, Any]]]  # (primary key, field -> value)


@dataclass
class Upsert:
    """Insert the rows, or update every other column where the primary key exists."""

    model: type[Model]
    rows: list[dict[str, Any]]


@dataclass
class Delete:
    model: type[Model]
    where: dict[str, Any]  # column = value, all of them


@dataclass
class Guard:
    """``UPDATE model SET values WHERE where``, which must change exactly one row, or nothing of
    the write set is written (``store.Conflict``): what makes a deadline fire once."""

    model: type[Model]
    where: dict[str, Any]
    values: dict[str, Any]


Op = Insert | Update | Upsert | Delete | Guard


@dataclass
class WriteSet:
    """One unit of work's writes, in order; the queued messages (outbox rows) go last."""

    delivery: str | None = None  # the handled message's delivery key: a repeat writes nothing (store.Duplicate)
    at: Any = None  # when (the delivery row's time)
    ops: list[Op] = field(default_factory=list)
    outbox: list[dict[str, Any]] = field(default_factory=list)

    def insert(self, model: type[Model], row: dict[str, Any], *, key: bool = False) -> Key | None:
        k = Key() if key else None
        last = self.ops[-1] if self.ops else None
        if not key and isinstance(last, Insert) and last.model is model and last.keys is None:
            last.rows.append(row)  # rows of one table in a row: one statement
        else:
            self.ops.append(Insert(model, [row], [k] if k else None))
        return k

    def update(self, model: type[Model], pk: Any, values: dict[str, Any]) -> None:
        fields = tuple(values)
        last = self.ops[-1] if self.ops else None
        if isinstance(last, Update) and last.model is model and last.fields == fields:
            last.rows.append((pk, values))
        else:
            self.ops.append(Update(model, fields, [(pk, values)]))

    def upsert(self, model: type[Model], rows: list[dict[str, Any]]) -> None:
        self.ops.append(Upsert(model, rows))

    def delete(self, model: type[Model], **where: Any) -> None:
        self.ops.append(Delete(model, where))

    def guard(self, model: type[Model], where: dict[str, Any], values: dict[str, Any]) -> None:
        self.ops.append(Guard(model, where, values))

    def __bool__(self) -> bool:
        return bool(self.delivery or self.ops or self.outbox)
