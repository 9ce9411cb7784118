"""Exactly once: the delivery key of the message being handled is written in
the same transaction as what it causes, so a repeated delivery (after a
restart, or to another process) changes nothing."""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from tortoise.exceptions import IntegrityError

from .bulk import Statement, WriteFailed, insert_statement, write_at_once
from .contract import Ignored
from .models import Delivery, Outbox

if TYPE_CHECKING:
    from .origin import Origin


@dataclass
class _Claim:
    key: str
    owned: bool = False  # recorded by a committed transaction of this handling


_claim: ContextVar[_Claim | None] = ContextVar("kernel_delivery", default=None)


def handling(origin: Origin) -> None:
    """Start handling a message: what it causes records its delivery key."""
    key = origin.dedup_key
    _claim.set(_Claim(key) if key else None)


async def claim_delivery(now: datetime) -> None:
    """Inside a transaction: record that the message being handled was acted
    on, in the same transaction as what it causes; Ignored if it already was."""
    c = _claim.get()
    if c is None or c.owned:
        return
    try:
        await Delivery.create(key=c.key, at=now)
    except IntegrityError:
        raise Ignored() from None


def delivery_committed() -> None:
    c = _claim.get()
    if c is not None:
        c.owned = True


async def commit_at_once(now: datetime, stmts: list[Statement], queued: list[dict[str, Any]]) -> None:
    """The delivery key, ``stmts`` and the ``queued`` outbox rows written in one transaction
    (``bulk.write_at_once``: on SQLite one trip to the database); Ignored if the message was
    already acted on (a repeated delivery), and then nothing is written."""
    c = _claim.get()
    claim = [] if c is None or c.owned else [insert_statement(Delivery, [{"key": c.key, "at": now}])]
    tail = [insert_statement(Outbox, queued)] if queued else []
    try:
        await write_at_once(claim + stmts + tail)
    except WriteFailed as exc:
        if claim and exc.index == 0:
            raise Ignored() from None
        raise
    delivery_committed()
