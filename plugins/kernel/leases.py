"""Several processes, one database: each game is served by one process at a
time, under a lease row that its owner renews. A process that does not own a
game neither answers its commands nor sends its queued messages; a game whose
owner died (its lease expired) is taken over by another process within one
lease period. On SQLite there is one process (the file is locked), so every
lease is simply ours."""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta, timezone

from nonebot.log import logger
from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from .background import Background
from .models import Delivery, Game, Lease, Outbox

PROCESS = f"{socket.gethostname()[:24]}:{os.getpid()}:{secrets.token_hex(3)}"
"""This process's name in lease rows and outbox rows."""

LIVE = ("signup", "running", "paused")
THEIRS_RECHECK = 1.0  # seconds: a game served by another process is asked about again after this
ALONE_FULL_EVERY = 300.0  # seconds: alone on the database, the whole renewal runs this often (else one UPDATE)


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def game_key(game_id: int) -> str:
    return f"game:{game_id}"


NODE_KEY = f"node:{PROCESS}"


class Leases(Background):
    def __init__(self) -> None:
        self.ttl = 30.0
        self.shared = False  # True on PostgreSQL: other processes may serve the same database
        self.valid_until: dict[int, datetime] = {}  # games we own -> lease expiry as last written
        self.theirs_until: dict[int, datetime] = {}  # games another process serves -> when to ask again
        self.on_acquire: Callable[[int], Awaitable[None]] | None = None
        self.on_alive: Callable[[int, float], None] | None = None
        self.seen: dict[int, tuple[str, datetime, float]] = {}  # another's game -> (owner, expiry, when read)
        self.clock: Callable[[], float] = time.monotonic  # when lease rows were read, and messages kept

    def configure(self, *, ttl: float, shared: bool, on_acquire: Callable[[int], Awaitable[None]],
                  on_alive: Callable[[int, float], None] | None = None) -> None:
        """``on_acquire(game)``: this process now serves the game. ``on_alive(game, before)``: the
        game's owner was seen alive a while after ``before`` (``time.monotonic()``)."""
        self.ttl, self.shared, self.on_acquire, self.on_alive = ttl, shared, on_acquire, on_alive

    def owns(self, game_id: int, now: datetime | None = None) -> bool:
        until = self.valid_until.get(game_id)
        return until is not None and until - timedelta(seconds=self.ttl / 3) > (now or utcnow())

    def theirs(self, game_id: int, now: datetime | None = None) -> bool:
        """Another process served ``game_id`` when last asked, under a second ago."""
        now = now or utcnow()
        until = self.theirs_until.get(game_id)
        return until is not None and now < until and not self.owns(game_id, now)

    async def ensure(self, game_id: int) -> bool:
        """True when this process serves ``game_id`` (taking a free or expired
        lease of a live game if needed)."""
        now = utcnow()
        if self.owns(game_id, now):
            return True
        if self.theirs(game_id, now):
            return False  # every event reaches every process: the owner's game costs the others no query
        return await self._take(game_id, now)

    async def _take(self, game_id: int, now: datetime) -> bool:
        until = now + timedelta(seconds=self.ttl)
        key = game_key(game_id)
        fresh = game_id not in self.valid_until
        try:
            async with in_transaction():
                n = await Lease.filter(key=key).filter(owner=PROCESS).update(expires_at=until)
                if n == 0:
                    # alone on the database (SQLite is locked to one process): a lease left
                    # by a killed predecessor is ours at once
                    free = Lease.filter(key=key) if not self.shared else Lease.filter(key=key, expires_at__lt=now)
                    n = await free.update(owner=PROCESS, expires_at=until)
                    fresh = True
                if n == 0:
                    row = await Lease.filter(key=key).first().values_list("owner", "expires_at")
                    if row is not None:
                        self._read(game_id, str(row[0]), row[1])
                        self.valid_until.pop(game_id, None)
                        self.theirs_until[game_id] = now + timedelta(seconds=min(THEIRS_RECHECK, self.ttl / 3))
                        return False
                    if not await Game.exists(id=game_id, status__in=LIVE):
                        return False
                    await Lease.create(key=key, owner=PROCESS, expires_at=until)
                    fresh = True
                if fresh:  # what the previous owner left unsent is ours to send now
                    await Outbox.filter(game_id=game_id, status="pending").exclude(owner=PROCESS).update(owner=PROCESS)
        except IntegrityError:  # another process inserted it at the same moment
            return False
        fresh = fresh and game_id not in self.valid_until  # (not taken by another of our calls meanwhile)
        self.valid_until[game_id] = until
        self.theirs_until.pop(game_id, None)
        if fresh:
            logger.info(f"kernel: this process now serves game {game_id}")
            if self.on_acquire:
                await self.on_acquire(game_id)
        return True

    def _read(self, game_id: int, owner: str, expires: datetime) -> None:
        """Another process's lease of the game as read now. When its expiry moved on since the last
        read, its owner renewed it after that read: it was alive then, a third of a lease after the
        game's messages that reached us before that read (they are answered)."""
        now = self.clock()
        last = self.seen.get(game_id)
        self.seen[game_id] = (owner, expires, now)
        if last is not None and last[0] == owner and expires > last[1] and self.on_alive is not None:
            self.on_alive(game_id, last[2] - self.ttl / 3)

    async def release(self, game_id: int) -> None:
        """The game ended: let the lease go (nobody needs to take it over)."""
        self.valid_until.pop(game_id, None)
        await Lease.filter(key=game_key(game_id), owner=PROCESS).delete()

    async def renew(self, full: bool = True) -> None:
        """Renew our leases, notice lost ones, take over orphaned games, adopt
        the unsent messages of dead processes, prune old delivery keys. Not ``full``
        (alone on the database, between full passes): only renew, one statement."""
        now = utcnow()
        until = now + timedelta(seconds=self.ttl)
        await Lease.filter(owner=PROCESS).update(expires_at=until)
        if not full and not self.shared:  # nobody else takes, leaves or dies meanwhile
            for gid in self.valid_until:
                self.valid_until[gid] = until
            return
        if not await Lease.exists(key=NODE_KEY):
            await Lease.create(key=NODE_KEY, owner=PROCESS, expires_at=until)
        mine = {int(str(k).split(":", 1)[1]) for k in await Lease.filter(owner=PROCESS, key__startswith="game:").values_list("key", flat=True)}
        for gid in list(self.valid_until):
            if gid in mine:
                self.valid_until[gid] = until
            else:
                logger.warning(f"kernel: lost the lease of game {gid}")
                self.valid_until.pop(gid, None)
        # games nobody serves (never leased, or the owner died)
        live = [int(str(i)) for i in await Game.filter(status__in=LIVE).values_list("id", flat=True)]
        rows = await Lease.filter(key__startswith="game:", expires_at__gte=now).values_list("key", "owner", "expires_at")
        held = {k: o for k, o, _ in rows}
        for key, owner, expires in rows:
            if owner != PROCESS:
                self._read(int(str(key).split(":", 1)[1]), str(owner), expires)
        for gid in [g for g in self.seen if game_key(g) not in held]:
            del self.seen[gid]
        for gid in sorted(live):
            if game_key(gid) not in held or (not self.shared and gid not in self.valid_until):
                await self._take(gid, now)
        # a dead process's messages that belong to no game
        dead = [str(k).split(":", 1)[1] for k in await Lease.filter(key__startswith="node:", expires_at__lt=now).values_list("key", flat=True)]
        if dead:
            await Outbox.filter(owner__in=dead, status="pending").update(owner=PROCESS)
            await Lease.filter(key__in=[f"node:{d}" for d in dead]).delete()
        await Delivery.filter(at__lt=now - timedelta(days=7)).delete()

    async def _loop(self) -> None:
        full_at = utcnow()  # start-up ran a full pass
        while True:
            now = utcnow()
            full = self.shared or (now - full_at).total_seconds() >= ALONE_FULL_EVERY
            try:
                await self.renew(full=full)
                full_at = now if full else full_at
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                logger.opt(exception=exc).error("kernel: lease renewal failed")
            await asyncio.sleep(self.ttl / 3)

    async def stop(self) -> None:
        await super().stop()
        await Lease.filter(owner=PROCESS).delete()  # a clean stop hands everything over at once
        self.valid_until.clear()


leases = Leases()
