"""A command's writes after its rule ran (``in_game(quick=True)``): when it only answers
and changes the state, its delivery key, log row, state and queued answers go to the
database in one transaction of one trip (``bulk.write_at_once``), the state's two columns
only; anything more is written in a transaction of its own, as every other command is."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from tortoise.transactions import in_transaction

from .bulk import Statement, insert_statement, update_statement
from .contract import Outcome, Say
from .delivery import claim_delivery, commit_at_once, delivery_committed
from .models import CommandLog, GameText
from .order import utcnow
from .origin import Origin
from .outbox import batched, collected

if TYPE_CHECKING:
    from .txn import Txn


async def commit_step(txn: Txn, outcome: Outcome, log: dict[str, Any], seq: int, origin: Origin, now: datetime) -> None:
    if all(isinstance(e, Say) for e in outcome.effects):
        with collected() as queued:
            await txn.apply_effects(outcome.effects, seq, origin, now)
        writes = [insert_statement(CommandLog, [log]), *state_writes(txn)]
        await commit_at_once(utcnow(), writes, queued)
        txn.texts.new.clear()  # written (on a failure the held game is dropped with them)
    else:
        async with in_transaction(), batched():
            await claim_delivery(utcnow())
            await txn.write_step(outcome, log, seq, origin, now)
        delivery_committed()


def state_writes(txn: Txn) -> list[Statement]:
    """The game's new texts and its state and arrival number (nothing else of the row changed)."""
    g = txn.game
    with txn.stored_form():
        update = update_statement(g, ("state", "last_seq"))
    rows = [{"game_id": g.id, "ref": r, "text": t} for r, t in txn.texts.new]
    return ([insert_statement(GameText, rows)] if rows else []) + [update]
