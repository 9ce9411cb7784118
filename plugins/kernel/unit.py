"""A unit of work from start to written: open the game in its arrival order, run the command on it
(``Work``), hand the write set to the store after the game's last write, wait until it is written,
then arm its timers and wake the outbound queue.

A command that only answers and changes the state (``Work.simple``) gives up its turn once its write
is handed in: the game's next command runs its rule on the held state while this write waits for
the database. Nothing is acknowledged early: the answers are rows of the same write."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from plugins.gamekit.contract import Actor, Command, Ignored, Rejected

from . import held, timers
from .directory import directory
from .leases import leases
from .messages import text_rows
from .order import Turn
from .origin import Handling, reply_target, secret_aliases
from .queueview import fan_out_note
from .sending import wake_outbox
from .store import Conflict, Duplicate, Pending, Superseded, current
from .work import Work
from .writeset import WriteSet

T = TypeVar("T")

RESEND = "这条没有生效：它前面的一条命令没能写入（已记录）。请再发一次。"


class NotOwner(Ignored):
    """Another process serves this game: stay silent, it answers."""


async def in_game(game_id: int, handling: Handling, superusers: set[str], fn: Callable[[Work], Awaitable[T]], *,
                  quick: bool = False) -> T:
    """Run ``fn`` on the game as one unit of work: everything it changes is written together, or
    nothing (a Rejected or any error anywhere). ``quick``: ``fn`` runs a rule on the held game and
    reads nothing else from the database (a game's own command), so it need not wait for the
    game's writes on their way."""
    if not await leases.ensure(game_id):
        raise NotOwner()
    turn = await _turn(handling, game_id)
    try:
        if not quick:
            await held.settled(game_id)  # what it reads from the database includes them
        # a kernel command reads the timers as the database has them (and leaves them held)
        work = await Work.open(game_id, handling, superusers, fresh_timers=not quick)
        try:
            await work.read_contacts()
            result = await fn(work)
        except BaseException:
            if not quick or work.dirty:
                held.forget(game_id)  # what was changed in memory is not the truth
            else:
                work.keep()  # refused before any change: held as it is (a refusal costs no read)
            raise
        await _commit(work, turn)
    finally:
        turn.release()
    return result


async def _turn(handling: Handling, game_id: int) -> Turn:
    """The handling's place in the game's arrival order (taken during routing), or a new one."""
    turn = handling.turn
    if turn is not None and turn.game_id == game_id and turn.held:
        return turn
    return await Turn(game_id).take()


async def _commit(work: Work, turn: Turn) -> None:
    """Hand the unit's write set in after the game's last write; give the turn up early when the
    next command may go on from the held state; wait until written; then what follows a write."""
    g = work.game
    ws = work.writes()
    ws.outbox += await fan_out_note(ws.outbox, work.hosts, label="角色私信" if work.dealt else "私信", game_id=g.id,
                                    self_id=g.self_id, now=work.now)
    if not ws:
        work.keep()
        return
    pending = current().hand_in(ws, after=held.last_write(g.id), game_id=g.id)
    held.follow(g.id, pending, changes=bool(ws.ops))
    simple = work.simple
    if simple:
        work.keep()
        turn.release()  # the game's next command may run its rule now
    await _written(pending, g.id)
    work.handling.claimed = True
    work.written()
    if not simple:
        work.keep()
    for t in work.changed_timers:
        timers.arm(t)
    if work.refresh_directory:
        await directory.refresh(g.id)
    if g.status == "ended":
        await leases.release(g.id)
    wake_outbox()


async def _written(pending: Pending, game_id: int) -> None:
    """Wait for a game's write: a repeated delivery is Ignored, a write after one that failed is
    refused (its sender is asked to send again); either way the held game is read afresh."""
    try:
        await pending.done
    except Duplicate:
        held.forget(game_id)
        raise Ignored() from None
    except Superseded:
        held.forget(game_id)
        raise Rejected(RESEND) from None
    except Conflict:  # a guarded update found nothing to change (another process did it): nothing written
        held.forget(game_id)
        raise Ignored() from None
    except BaseException:
        held.forget(game_id)
        raise


async def run_query(game_id: int, handling: Handling, superusers: set[str],
                    check: Callable[[Work], tuple[Actor, Command]]) -> None:
    """A read-only command: the game as held (or read), the rule run on it, only its answers written
    (with the message's delivery key, after the game's last write: they were worked out from it);
    the game's next command need not wait for that."""
    turn = await _turn(handling, game_id)
    try:
        work = await Work.open(game_id, handling, superusers)
        try:
            await work.read_contacts()
            actor, cmd = check(work)
            await work.query(actor, cmd)
        except BaseException:
            held.forget(game_id) if work.dirty else work.keep()
            raise
        if not work.dirty:
            work.keep()  # held, also when just read (after a restart the first commands may all be queries)
        pending = current().hand_in(work.writes(), after=held.last_write(game_id), game_id=game_id)
    finally:
        turn.release()
    await _written(pending, game_id)
    handling.claimed = True
    wake_outbox()


async def reply(handling: Handling, text: str, *, game_id: int | None = None, ws: WriteSet | None = None) -> bool:
    """Answer where the command came from (through the queue, ahead of announcements), written with
    the message's delivery key (and ``ws``, what the answer reports): a repeated delivery is not
    answered twice. False when it was handled before (nothing written)."""
    origin = handling.origin
    target = reply_target(origin, secret_aliases(game_id))
    ws = ws or WriteSet()
    if target is not None:
        kind, to, prefix = target
        ws.outbox += text_rows(kind, to, prefix + text, game_id=game_id, self_id=origin.self_id, priority=0,
                               now=handling.now)
    return await write(handling, ws)


async def write(handling: Handling, ws: WriteSet) -> bool:
    """A write of the kernel outside any game's turn (a new game, a focus), with the handling's
    delivery key; False when the message was handled before (nothing written)."""
    ws.delivery, ws.at = handling.claim(), handling.now
    if not ws:
        return True
    try:
        await current().write(ws)
    except Duplicate:
        return False
    handling.claimed = True
    wake_outbox()
    return True
