"""A command's writes after its rule ran (``in_game(quick=True)``): when it only answers,
changes the state, the phase and timers (and was audited before its step), its delivery key,
log row, timers, audit rows, state and queued answers go to the database in one transaction
of one trip (``bulk.write_at_once``); anything more is written in a transaction of its own,
as every other command is."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from tortoise.models import Model
from tortoise.transactions import in_transaction

from plugins.gamekit.contract import CancelTimer, Outcome, Rejected, Say, SetPhase, SetTimer

from . import timers
from .bulk import write_at_once
from .delivery import RESEND, claim_delivery, commit_at_once, delivery_committed
from .directory import directory
from .held import handed_in
from .inflight import settled
from .leases import leases
from .models import CommandLog, GameText
from .order import hand_over, utcnow
from .origin import Origin
from .outbox import batched, collected
from .sending import wake_outbox
from .statements import Statement, insert_statement, update_statement

if TYPE_CHECKING:
    from .txn import Txn

QUICK_EFFECTS = (Say, SetPhase, SetTimer, CancelTimer)
GAME_FIELDS = ("state", "last_seq", "phase_key", "phase_label", "status", "started_at")  # what a quick command changes


@dataclass
class Deferred:
    """Rows of a quick command held for its one write: the statements, and the new rows
    whose keys come back from it (a new timer is armed by its key)."""

    stmts: list[Statement] = field(default_factory=list)
    _new: list[tuple[Model, list[Any]]] = field(default_factory=list)

    def save(self, obj: Model, fields: tuple[str, ...]) -> None:
        """``obj.save()``, deferred: an UPDATE of ``fields``, or the INSERT of a new row."""
        if obj._saved_in_db:
            self.stmts.append(update_statement(obj, fields))
            return
        ids: list[Any] = []
        names = [f for f in obj._meta.fields_db_projection if f != obj._meta.pk_attr]
        self.stmts.append(insert_statement(type(obj), [{f: getattr(obj, f) for f in names}], ids))
        self._new.append((obj, ids))

    def written(self) -> None:
        for obj, ids in self._new:
            obj.pk, obj._saved_in_db = ids[0], True


async def commit_step(txn: Txn, deferred: Deferred, outcome: Outcome, log: dict[str, Any], seq: int,
                      origin: Origin, now: datetime) -> None:
    if all(isinstance(e, QUICK_EFFECTS) for e in outcome.effects):
        txn.deferred = deferred
        try:
            with collected() as queued:
                await txn.apply_effects(outcome.effects, seq, origin, now)
        finally:
            txn.deferred = None
        writes = [insert_statement(CommandLog, [log]), *deferred.stmts, *state_writes(txn)]
        g = txn.game

        def go_on() -> None:  # handed in: the game's next command may run its rule meanwhile (inflight.py)
            txn.texts.new.clear()  # in the write (on a failure the held game is dropped with them)
            if not deferred._new and not txn.changed_timers and not txn.refresh_directory and g.status != "ended":
                txn.keep()
                txn.handed = True
                hand_over(g.id)

        await commit_at_once(utcnow(), writes, queued, game_id=g.id, go_on=go_on)
        deferred.written()
        if not txn.handed:  # still its turn (written inside a caller's transaction, go_on was not called)
            txn.texts.new.clear()
    else:
        if not await settled(txn.game.id):  # its rule went on from a write that was not made
            raise Rejected(RESEND)
        async with in_transaction(), batched():
            await claim_delivery(utcnow())
            if deferred.stmts:  # what was audited before the step
                await write_at_once(deferred.stmts)
                deferred.written()
            await txn.write_step(outcome, log, seq, origin, now)
        delivery_committed()


def state_writes(txn: Txn) -> list[Statement]:
    """The game's new texts, and its state, arrival number, phase and status (nothing else of
    the row changes in a quick command)."""
    g = txn.game
    with txn.stored_form():
        update = update_statement(g, GAME_FIELDS)
    handed_in(g.id, g.last_seq, update.rows[0][GAME_FIELDS.index("state")])
    rows = [{"game_id": g.id, "ref": r, "text": t} for r, t in txn.texts.new]
    return ([insert_statement(GameText, rows)] if rows else []) + [update]


async def after_commit(txn: Txn) -> None:
    """Once a command's writes are in: its timers armed, routes read afresh, the game let go
    when it ended, and the sender woken for its answers."""
    for t in txn.changed_timers:
        timers.arm(t)
    if txn.refresh_directory:
        await directory.refresh(txn.game.id)
    if txn.game.status == "ended":
        await leases.release(txn.game.id)
    wake_outbox()
