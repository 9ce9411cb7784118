"""The routing directory: which live game a group runs and which live games a
user is in, kept in memory (mirroring the database) so routing a message
needs no database round trip; with a shared database it looks again for
what another process may have changed."""

from __future__ import annotations

import asyncio
import time
from datetime import datetime

from nonebot.log import logger

from .background import Coalesced
from .leases import THEIRS_RECHECK, leases
from .models import Chat, Contact, Focus, Game, Host, Player
from .store import current
from .writeset import WriteSet

LIVE = ("signup", "running", "paused")
REREAD_AFTER = 1.0  # seconds after another process's routing command before its game's routes are read


def alt_of(p: Player) -> str | None:
    """A player's registered 小号 (second QQ account), if any."""
    return (p.profile or {}).get("alt")


class Directory:
    """Which live game a group runs and which live games a user is in; kept in
    memory so routing a message needs no database round trip."""

    def __init__(self) -> None:
        self.group_game: dict[str, int] = {}  # main and linked groups
        self.chat_label: dict[str, str] = {}  # linked group -> its label
        self.main_group: dict[int, str] = {}
        self.kind: dict[int, str] = {}
        self.members: dict[int, set[str]] = {}
        self.focus: dict[str, int] = {}
        self._looked: dict[str, float] = {}  # "g<group>" / "u<user>" -> when last read (ensure_*)
        self._rereads: dict[int, asyncio.TimerHandle] = {}
        self._reading: set[asyncio.Task] = set()

    async def load(self) -> None:
        for table in (self.group_game, self.chat_label, self.main_group, self.kind, self.members, self.focus):
            table.clear()
        self._looked.clear()
        for g in await Game.filter(status__in=LIVE):
            await self.refresh(g.id)
        for f in await Focus.all():
            self.focus[f.user_id] = f.game_id

    async def refresh(self, game_id: int) -> None:
        """Re-read one game's routes. Everything is read first, then swapped in
        without awaiting, so a routing step never sees half an update."""
        g = await Game.get_or_none(id=game_id)
        live = g is not None and g.status in LIVE
        chats = list(await Chat.filter(game_id=game_id)) if live else []
        roster = list(await Player.filter(game_id=game_id)) if live else []
        hosts = list(await Host.filter(game_id=game_id)) if live else []
        for grp, gid in list(self.group_game.items()):
            if gid == game_id:
                del self.group_game[grp]
                self.chat_label.pop(grp, None)
        if g is None or not live:
            for table in (self.members, self.main_group, self.kind):
                table.pop(game_id, None)
            return
        self.group_game[g.group_id] = g.id
        self.main_group[g.id] = g.group_id
        self.kind[g.id] = g.kind
        for c in chats:
            self.group_game[c.group_id] = g.id
            self.chat_label[c.group_id] = c.label
        users = {p.user_id for p in roster} | {a for p in roster if (a := alt_of(p))}
        self.members[g.id] = users | {h.user_id for h in hosts}

    async def ensure_group(self, group: str) -> None:
        """With a shared database another process may have opened, changed or
        ended the game of this group: look it up unless we serve it."""
        if not leases.shared or not group:
            return
        known = self.group_game.get(group)
        if known is not None and (leases.owns(known) or self._looked_lately(f"g{group}")):
            return
        ids = {int(str(i)) for i in await Game.filter(group_id=group, status__in=LIVE).values_list("id", flat=True)}
        ids |= {int(str(i)) for i in await Chat.filter(group_id=group, game__status__in=LIVE).values_list("game_id", flat=True)}
        if known is not None:
            ids.add(known)
        for gid in sorted(ids):
            await self._refresh_seen(gid)
        self._looked[f"g{group}"] = time.monotonic()

    async def ensure_user(self, user_id: str) -> None:
        """The same for the games a user plays or hosts (private routing)."""
        if not leases.shared:
            return
        known = self.games_of(user_id)
        if known and all(leases.owns(g) for g in known):
            return
        if known and not any(leases.owns(g) for g in known) and (
                self._looked_lately(f"u{user_id}") or all(self._looked_lately(f"r{g}") for g in known)):
            return  # only in games another process serves, read lately
        ids = {int(str(i)) for i in await Player.filter(user_id=user_id, game__status__in=LIVE).values_list("game_id", flat=True)}
        ids |= {int(str(i)) for i in await Host.filter(user_id=user_id, game__status__in=LIVE).values_list("game_id", flat=True)}
        for gid in sorted(ids | set(known)):
            await self._refresh_seen(gid, user_id)
        self._looked[f"u{user_id}"] = time.monotonic()

    def reread_soon(self, game_id: int) -> None:
        """A routing command of a game another process serves (a sign-up, /加主持, …) was seen:
        read its routes again once that process has written them (``REREAD_AFTER`` seconds), so
        the players' first messages (a night's sixty at once) are known as that process's and
        dropped unread, instead of each being taken through NoneBot to find out."""
        if game_id not in self._rereads:
            self._rereads[game_id] = asyncio.get_running_loop().call_later(REREAD_AFTER, self._start_reread, game_id)

    def _start_reread(self, game_id: int) -> None:
        task = asyncio.ensure_future(self._reread(game_id))
        self._reading.add(task)
        task.add_done_callback(self._reading.discard)

    async def stop(self) -> None:
        """At shutdown: no re-read after the database is closed."""
        for handle in self._rereads.values():
            handle.cancel()
        self._rereads.clear()
        for task in list(self._reading):
            task.cancel()
        await asyncio.gather(*self._reading, return_exceptions=True)

    async def _reread(self, game_id: int) -> None:
        self._rereads.pop(game_id, None)
        try:
            await self.refresh(game_id)
        except Exception as exc:  # the next event of the game looks again
            logger.opt(exception=exc).warning(f"kernel: re-reading game {game_id}'s routes failed")
            return
        self._looked[f"r{game_id}"] = time.monotonic()

    def _looked_lately(self, key: str, within: float | None = None) -> bool:
        """Looked up within ``within`` seconds (a third of a lease): a group or user of games
        another process serves (every event reaches every process) is not read again for each
        of its events. Only their owner changes them; our own games are refreshed as we change them."""
        at = self._looked.get(key)
        return at is not None and time.monotonic() - at < (leases.ttl / 3 if within is None else within)

    async def _refresh_seen(self, game_id: int, user_id: str | None = None) -> None:
        """Refresh a game's routes for ensure_*: another process's game at most once a second
        while it already lists ``user_id`` (88 voters seen for the first time read it once)."""
        if (self._looked_lately(f"r{game_id}", THEIRS_RECHECK) and not leases.owns(game_id)
                and (user_id is None or user_id in self.members.get(game_id, ()))):
            return
        await self.refresh(game_id)
        self._looked[f"r{game_id}"] = time.monotonic()

    def games_of(self, user_id: str) -> list[int]:
        return sorted(gid for gid, users in self.members.items() if user_id in users)

    def message_game(self, group_id: str | None, user_id: str) -> int | list[int] | None:
        """The game a message goes to by the routes known here: its group's, or for a private
        message the sender's (``private_game``)."""
        return self.group_game.get(group_id) if group_id is not None else self.private_game(user_id)

    def private_game(self, user_id: str) -> int | list[int] | None:
        """The game a private command goes to: the focused one, the only one,
        None (no game) or the list of candidates (ambiguous)."""
        games = self.games_of(user_id)
        f = self.focus.get(user_id)
        if f in games:
            return f
        if len(games) == 1:
            return games[0]
        return games or None


directory = Directory()


_contact_seen: dict[str, str] = {}


async def load_contacts() -> None:
    """At start-up: every stored contact, so a restart does not look each one up again (a
    process alone on its database then knows them all; with a shared one, ``Work.read_contacts``
    also asks the database for those another process noted)."""
    _contact_seen.update(dict(await Contact.all().values_list("user_id", "self_id")))


def last_account(user_id: str) -> str | None:
    """The bot account this process last saw the user write to privately."""
    return _contact_seen.get(user_id)


async def note_contact(user_id: str, self_id: str, now: datetime) -> None:
    """Remember which bot account a user writes to privately (written on change). The
    contacts noted in the same turn of the event loop go to the database in one write
    (a night's first private actions: 60 new contacts at once, one trip instead of 60
    transactions before other games' writes)."""
    if _contact_seen.get(user_id) == self_id:
        return
    _contact_seen[user_id] = self_id
    await _contacts.add({"user_id": user_id, "self_id": self_id, "at": now})


async def _write_contacts(noted: list[dict]) -> None:
    rows = list({r["user_id"]: r for r in noted}.values())  # the last one noted of each user
    ws = WriteSet()
    ws.upsert(Contact, rows)
    try:
        await current().write(ws)
    except BaseException:
        for r in rows:  # not written: noted again by the user's next message
            if _contact_seen.get(r["user_id"]) == r["self_id"]:
                del _contact_seen[r["user_id"]]
        raise


_contacts: Coalesced[dict] = Coalesced(_write_contacts)
