"""Exactly once: the delivery key of the message being handled is written in
the same transaction as what it causes, so a repeated delivery (after a
restart, or to another process) changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from tortoise.exceptions import IntegrityError

from plugins.gamekit.contract import Ignored, Rejected

from .bulk import Superseded, WriteFailed, write_at_once
from .inflight import begin_write, follow, outside_transaction
from .models import Delivery, Outbox
from .statements import Statement, insert_statement

if TYPE_CHECKING:
    from .origin import Origin


@dataclass
class _Claim:
    key: str
    owned: bool = False  # recorded by a committed transaction of this handling


_claim: ContextVar[_Claim | None] = ContextVar("kernel_delivery", default=None)
RESEND = "这条没有生效：它前面的一条命令没能写入（已记录）。请再发一次。"


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


async def commit_at_once(now: datetime, stmts: list[Statement], queued: list[dict[str, Any]], *,
                         game_id: int | None = None, changes: bool = True,
                         go_on: Callable[[], None] | None = None) -> None:
    """The delivery key, ``stmts`` and the ``queued`` outbox rows written in one transaction
    (``bulk.write_at_once``: on SQLite one trip to the database); Ignored if the message was
    already acted on (a repeated delivery), and then nothing is written. With ``game_id``: after
    the game's writes in flight, and only if they were written (inflight.py); ``go_on`` is
    called once the write is handed in (the game's next command may start)."""
    c = _claim.get()
    key = c.key if c is not None and not c.owned else None
    claim = [insert_statement(Delivery, [{"key": key, "at": now}])] if key else []
    tail = [insert_statement(Outbox, queued)] if queued else []
    try:
        if game_id is None or not outside_transaction():
            await write_at_once(claim + stmts + tail)
        else:
            link, after = follow(game_id, changes=changes)
            done = begin_write(claim + stmts + tail, link, after, game_id)
            if go_on is not None:
                go_on()
            await done
    except WriteFailed as exc:
        if key and exc.index == 0:
            raise Ignored() from None
        raise
    except Superseded:
        raise Rejected(RESEND) from None
    delivery_committed()
