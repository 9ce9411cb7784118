"""The kernel's core: arrival order, per-game locks, transactions, running an
engine and applying its effects, and timers that fire exactly once."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

from contextvars import ContextVar

from nonebot.log import logger
from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from . import cards as cardmath
from .engine import (
    GROUP,
    HOSTS,
    KERNEL_OUT,
    PHASE_TIMER,
    REPLY,
    Actor,
    CancelTimer,
    Command,
    Ctx,
    Eliminate,
    Finish,
    GiveCard,
    GroupAdmin,
    Ignored,
    Outcome,
    Picture,
    Rejected,
    Rename,
    Restore,
    Say,
    Seat,
    SetPhase,
    SetTimer,
    Timer as TimerInfo,
)
from .leases import leases
from .models import Audit, Card, Chat, CommandLog, Contact, Delivery, Focus, Game, Host, Player, Timer
from .outbox import enqueue, enqueue_api
from .registry import GameKind, get_kind
from .roster import Entry, Roster
from .settings import engine_settings

T = TypeVar("T")
LIVE = ("signup", "running", "paused")


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def alt_of(p: Player) -> str | None:
    """A player's registered 小号 (second QQ account), if any."""
    return (p.profile or {}).get("alt")


# ---- arrival order ---------------------------------------------------------

_tickets = itertools.count(1)


def stamp() -> tuple[int, datetime]:
    """An arrival ticket and a receive time finer than a second."""
    return next(_tickets), utcnow()


class OrderedLock:
    """A lock granted in ticket order among its waiters (earlier arrival first)."""

    def __init__(self) -> None:
        self._held = False
        self._waiters: list[tuple[int, int, asyncio.Future[None]]] = []
        self._n = itertools.count()

    async def acquire(self, ticket: int) -> None:
        if not self._held and not self._waiters:
            self._held = True
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiters, (ticket, next(self._n), fut))
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():
                self.release()
            else:
                self._waiters = [w for w in self._waiters if w[2] is not fut]
                heapq.heapify(self._waiters)
            raise

    def release(self) -> None:
        while self._waiters:
            _, _, fut = heapq.heappop(self._waiters)
            if not fut.done():
                fut.set_result(None)
                return
        self._held = False


ORDER = OrderedLock()
"""Every command and deadline is handled under this one lock, in arrival
order: routing itself (which game a group runs, who is in it) depends on
earlier commands, and SQLite serialises writes anyway."""


class ordered:
    """``async with ordered(ticket):`` — run in arrival order."""

    def __init__(self, ticket: int):
        self.ticket = ticket

    async def __aenter__(self) -> None:
        await ORDER.acquire(self.ticket)

    async def __aexit__(self, *exc: object) -> None:
        ORDER.release()


def game_tz(game: Game) -> ZoneInfo:
    """The game's clock zone (set at /创建, changed with /配置)."""
    return ZoneInfo(game.settings.get("timezone", "Asia/Shanghai"))


# ---- routing directory (in memory, mirrors the database) -------------------


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

    async def load(self) -> None:
        for table in (self.group_game, self.chat_label, self.main_group, self.kind, self.members, self.focus):
            table.clear()
        for g in await Game.filter(status__in=LIVE):
            await self.refresh(g.id)
        for f in await Focus.all():
            self.focus[f.user_id] = f.game_id  # type: ignore[attr-defined]

    async def refresh(self, game_id: int) -> None:
        g = await Game.get_or_none(id=game_id)
        for grp, gid in list(self.group_game.items()):
            if gid == game_id:
                del self.group_game[grp]
                self.chat_label.pop(grp, None)
        if g is None or g.status not in LIVE:
            for table in (self.members, self.main_group, self.kind):
                table.pop(game_id, None)
            return
        self.group_game[g.group_id] = g.id
        self.main_group[g.id] = g.group_id
        self.kind[g.id] = g.kind
        for c in await Chat.filter(game_id=g.id):
            self.group_game[c.group_id] = g.id
            self.chat_label[c.group_id] = c.label
        roster = list(await Player.filter(game_id=g.id))
        users = {p.user_id for p in roster} | {alt_of(p) for p in roster if alt_of(p)}
        users |= {h.user_id for h in await Host.filter(game_id=g.id)}
        self.members[g.id] = users

    async def ensure_group(self, group: str) -> None:
        """With a shared database another process may have opened, changed or
        ended the game of this group: look it up unless we serve it."""
        if not leases.shared or not group:
            return
        known = self.group_game.get(group)
        if known is not None and leases.owns(known):
            return
        ids = set(await Game.filter(group_id=group, status__in=LIVE).values_list("id", flat=True))
        ids |= set(await Chat.filter(group_id=group, game__status__in=LIVE).values_list("game_id", flat=True))
        if known is not None:
            ids.add(known)
        for gid in sorted(ids):
            await self.refresh(gid)

    async def ensure_user(self, user_id: str) -> None:
        """The same for the games a user plays or hosts (private routing)."""
        if not leases.shared:
            return
        known = self.games_of(user_id)
        if known and all(leases.owns(g) for g in known):
            return
        ids = set(await Player.filter(user_id=user_id, game__status__in=LIVE).values_list("game_id", flat=True))
        ids |= set(await Host.filter(user_id=user_id, game__status__in=LIVE).values_list("game_id", flat=True))
        for gid in sorted(ids | set(known)):
            await self.refresh(gid)

    def games_of(self, user_id: str) -> list[int]:
        return sorted(gid for gid, users in self.members.items() if user_id in users)

    def private_game(self, user_id: str) -> int | None | list[int]:
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


async def note_contact(user_id: str, self_id: str, now: datetime) -> None:
    """Remember which bot account a user writes to privately (written on change)."""
    if _contact_seen.get(user_id) == self_id:
        return
    await Contact.update_or_create(defaults={"self_id": self_id, "at": now}, user_id=user_id)
    _contact_seen[user_id] = self_id


# ---- where a command came from -------------------------------------------------


@dataclass(frozen=True)
class Origin:
    user_id: str
    source: str  # group|private|timer|kernel
    group_id: str | None = None
    self_id: str = ""
    message_id: str | None = None
    name: str = ""  # the sender's nickname, to address group replies

    @property
    def private(self) -> bool:
        return self.source == "private"

    @property
    def chat(self) -> str | None:
        if self.source != "group":
            return None
        return directory.chat_label.get(self.group_id or "", "main")

    @property
    def dedup_key(self) -> str | None:
        if self.message_id is None:
            return None
        peer = f"g{self.group_id}" if self.source == "group" else f"p{self.user_id}"
        return f"{self.self_id}:{peer}:{self.message_id}"


# ---- exactly once: the delivery key of the message being handled ----------------


@dataclass
class _Claim:
    key: str
    owned: bool = False  # recorded by a committed transaction of this handling


_claim: ContextVar[_Claim | None] = ContextVar("kernel_delivery", default=None)


def handling(origin: Origin) -> None:
    """Start handling a message: what it causes records its delivery key."""
    key = origin.dedup_key
    _claim.set(_Claim(key) if key else None)


async def seen(origin: Origin) -> bool:
    """The message was already acted on (before a restart, or by another process)."""
    key = origin.dedup_key
    return key is not None and await Delivery.exists(key=key)


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


async def reply(origin: Origin, text: str, *, game_id: int | None = None) -> None:
    """Answer where the command came from (through the queue, high priority)."""
    try:
        async with in_transaction():
            await claim_delivery(utcnow())
            await _reply_rows(origin, text, game_id)
    except Ignored:
        return  # already answered (a repeated delivery)
    delivery_committed()
    wake_outbox()


def secret_aliases(game_id: int | None) -> bool:
    """The game keeps aliases secret: nothing in a group may join a QQ account to a seat or alias."""
    from .registry import get_kind

    kind = get_kind(directory.kind.get(game_id, "")) if game_id is not None else None
    return bool(kind and kind.private_signup)


def _reply_target(origin: Origin | None, secret: bool = False) -> tuple[str, str, str] | None:
    """(type, target, prefix) of an answer to where a command came from; None
    when it came from no chat (a timer, the kernel). Group answers name the
    sender, except in a game with secret aliases."""
    if origin is not None and origin.source == "group" and origin.group_id:
        return "group", origin.group_id, f"{origin.name}：" if origin.name and not secret else ""
    if origin is not None and origin.source == "private":
        return "private", origin.user_id, ""
    return None


async def _reply_rows(origin: Origin, text: str, game_id: int | None) -> None:
    target = _reply_target(origin, secret_aliases(game_id))
    if target is not None:
        kind, to, prefix = target
        await enqueue(kind, to, prefix + text, game_id=game_id, self_id=origin.self_id, priority=0)


_outbox_wake: Callable[[], None] | None = None
_arm: Callable[[Timer], None] | None = None
_retry: Callable[[int, datetime], None] | None = None


def wake_outbox() -> None:
    if _outbox_wake:
        _outbox_wake()


def set_hooks(outbox_wake: Callable[[], None], arm: Callable[[Timer], None],
              retry: Callable[[int, datetime], None] | None = None) -> None:
    global _outbox_wake, _arm, _retry
    _outbox_wake, _arm, _retry = outbox_wake, arm, retry


# ---- a game transaction -----------------------------------------------------


@dataclass
class Txn:
    """Everything loaded for one game inside its lock and transaction."""

    game: Game
    kind: GameKind
    players: list[Player]
    hosts: list[str]
    superusers: set[str]
    changed_timers: list[Timer] = field(default_factory=list)
    refresh_directory: bool = False
    _contacts: dict[str, str] | None = None
    joiner: dict[int, str] = field(default_factory=dict)  # seat -> the account that just joined a group

    @classmethod
    async def open(cls, game_id: int, superusers: set[str]) -> "Txn":
        game = await Game.get(id=game_id)
        kind = get_kind(game.kind)
        if kind is None:
            raise Rejected(f"本群的游戏类型「{game.kind}」未安装，请联系管理员。")
        players = list(await Player.filter(game_id=game_id).order_by("seat"))
        hosts = [h.user_id for h in await Host.filter(game_id=game_id).order_by("id")]
        return cls(game, kind, players, hosts, superusers)

    # -- people
    @property
    def roster(self) -> Roster:
        return Roster([Entry(p.seat, p.alias, p.user_id, p.alive) for p in self.players])

    def player_of(self, user_id: str) -> Player | None:
        """The player using this QQ account: the sign-up account or their
        registered 小号 (a second account, e.g. for prison's room groups)."""
        hit = next((p for p in self.players if p.user_id == user_id), None)
        return hit or next((p for p in self.players if alt_of(p) == user_id), None)

    def seat(self, seat: int) -> Player:
        p = next((p for p in self.players if p.seat == seat), None)
        if p is None:
            raise Rejected(f"没有 {seat} 号玩家。")
        return p

    def is_host(self, user_id: str) -> bool:
        return user_id in self.hosts or user_id in self.superusers

    @property
    def tz(self) -> ZoneInfo:
        return game_tz(self.game)

    # -- output
    async def chat_group(self, chat: str) -> str:
        """QQ group of ``"group"`` or a linked chat's label (the main group if unlinked)."""
        if chat in (GROUP, "main"):
            return self.game.group_id
        c = await Chat.get_or_none(game_id=self.game.id, label=chat.removeprefix("chat:"))
        return c.group_id if c else self.game.group_id

    async def say(self, to: str | int, text: str, origin: Origin | None, priority: int = 1, image: str | None = None) -> None:
        """Queue ``text`` (and a picture) for a Say target: "group", "chat:<label>",
        "hosts", "reply" or a seat. Answers go first; in a group they name the
        sender (a picture's caption does not)."""
        g = self.game
        reply = _reply_target(origin, self.kind.private_signup) if to == REPLY else None
        if reply is not None:
            kind, target, prefix = reply
            targets = [(kind, target, "" if image else prefix)]
            priority = 0
        elif to in (GROUP, REPLY):  # a reply to a timer or the kernel goes to the group
            targets = [("group", g.group_id, "")]
        elif isinstance(to, str) and to.startswith("chat:"):
            targets = [("group", await self.chat_group(to), "")]  # an unlinked chat falls back to the main group
        elif to == HOSTS:
            targets = [("private", h, "") for h in self.hosts]
        else:
            targets = [("private", self.seat(int(to)).user_id, "")]
        for kind, target, prefix in targets:
            self_id = await self.account_for(target) if kind == "private" else g.self_id
            await enqueue(kind, target, prefix + text, game_id=g.id, self_id=self_id, priority=priority, image=image)

    async def account_for(self, user_id: str) -> str:
        """The bot account a private message to ``user_id`` goes out through:
        the one they last wrote to, else the game's."""
        if self._contacts is None:
            users = [p.user_id for p in self.players] + self.hosts
            self._contacts = dict(await Contact.filter(user_id__in=users).values_list("user_id", "self_id"))
        return self._contacts.get(user_id) or self.game.self_id

    async def audit(self, actor: str, action: str, detail: str, seq: int | None = None, at: datetime | None = None) -> None:
        await Audit.create(game_id=self.game.id, seq=seq, actor=actor, action=action, detail=detail, at=at or utcnow())

    # -- timers
    async def timers(self) -> list[Timer]:
        return list(await Timer.filter(game_id=self.game.id, status__in=("armed", "paused")).order_by("id"))

    async def set_timer(self, key: str, ends_at: datetime, now: datetime) -> None:
        paused = self.game.status == "paused"
        existing = await Timer.filter(game_id=self.game.id, key=key, status__in=("armed", "paused", "stuck")).first()
        t = existing or Timer(game_id=self.game.id, key=key)
        t.ends_at = ends_at
        t.status = "paused" if paused else "armed"
        t.attempts, t.last_error = 0, None
        t.remaining = max(0.0, (ends_at - now).total_seconds()) if paused else None
        await t.save()
        self.changed_timers.append(t)

    async def cancel_timer(self, key: str) -> None:
        for t in await Timer.filter(game_id=self.game.id, key=key, status__in=("armed", "paused", "stuck")):
            t.status = "cancelled"
            await t.save()
            self.changed_timers.append(t)

    async def ctx(self, seq: int, now: datetime) -> Ctx:
        timers = await self.timers()
        infos = tuple(TimerInfo(t.key, t.ends_at) for t in timers)
        phase = next((i for i in infos if i.key == PHASE_TIMER), None)
        settings = engine_settings(self.game.settings)
        chats = tuple(c.label for c in await Chat.filter(game_id=self.game.id).order_by("id"))
        return Ctx(
            chats=chats,
            now=now,
            rng=random.Random(f"{self.game.seed}:{seq}"),
            seq=seq,
            tz=self.tz,
            settings=settings,
            phase=phase,
            timers=infos,
        )

    # -- running the engine
    async def step(
        self,
        call: str,
        *,
        origin: Origin,
        now: datetime,
        actor: Actor | None = None,
        cmd: Command | None = None,
        key: str | None = None,
    ) -> Outcome:
        """Run one engine call as the next command of the game and apply it."""
        g = self.game
        seq = g.last_seq + 1
        ctx = await self.ctx(seq, now)
        engine = self.kind.engine
        if call == "start":
            roster = [Seat(p.seat, p.alias, p.user_id, dict(p.profile or {})) for p in self.players]
            outcome = engine.start(roster, ctx)
            name, args = "start", {}
        elif call == "apply":
            assert actor is not None and cmd is not None
            outcome = engine.apply(g.state, actor, cmd, ctx)
            name, args = cmd.name, cmd.args
        else:
            assert key is not None
            outcome = engine.deadline(g.state, key, ctx)
            name, args = f"timer:{key}", {}
        g.state = outcome.state
        g.last_seq = seq
        await CommandLog.create(
            game_id=g.id,
            seq=seq,
            user_id=origin.user_id,
            name=name,
            args=args,
            received_at=now,
            source=origin.source,
            dedup_key=origin.dedup_key,
        )
        await self.apply_effects(outcome.effects, seq, origin, now)
        await g.save()
        return outcome

    async def apply_effects(self, effects: list[Any], seq: int, origin: Origin, now: datetime) -> None:
        sent_off: list[tuple[int, str]] = []
        for e in effects:
            if isinstance(e, Say):
                await self.say(e.to, e.text, origin, priority=0 if e.to == REPLY else 1)
            elif isinstance(e, Eliminate):
                p = self.seat(e.seat)
                p.alive, p.out_reason = False, e.reason
                await p.save()
                await self.audit("engine", "out", f"{p.seat}号 {p.alias}：{e.reason}", seq, now)
            elif isinstance(e, Restore):
                p = self.seat(e.seat)
                p.alive, p.out_reason = True, None
                await p.save()
                await self.audit("engine", "back", f"{p.seat}号 {p.alias}：{e.reason}", seq, now)
            elif isinstance(e, SetPhase):
                self.game.phase_key, self.game.phase_label = e.key, e.label
                if e.ends_at is None:
                    await self.cancel_timer(PHASE_TIMER)
                else:
                    await self.set_timer(PHASE_TIMER, e.ends_at, now)
                await self.audit("engine", "phase", f"{e.label}（{e.key}）", seq, now)
            elif isinstance(e, SetTimer):
                await self.set_timer(e.key, e.ends_at, now)
            elif isinstance(e, CancelTimer):
                await self.cancel_timer(e.key)
            elif isinstance(e, GiveCard):
                if await self.give_card(e.seat, e.color, e.reason, "系统", now, e.public):
                    sent_off.append((e.seat, e.public or e.reason))
            elif isinstance(e, Picture):
                await self.picture(e, origin, now)
            elif isinstance(e, GroupAdmin):
                await self.group_admin(e, now)
            elif isinstance(e, Rename):
                await self.rename(dict(e.aliases), seq, now)
            elif isinstance(e, Finish):
                await self.finish(e.summary, now, seq)
            else:  # pragma: no cover - a programming error in an engine
                raise TypeError(f"unknown effect {e!r}")
        for seat, reason in sent_off:
            await self.send_off(seat, reason, Origin("", "kernel"), Actor("", None, True, True), now)

    async def rename(self, aliases: dict[int, str], seq: int, now: datetime) -> None:
        """New aliases, applied in two passes so that swapped names never collide."""
        changed = [(self.seat(s), self.seat(s).alias, a) for s, a in sorted(aliases.items()) if self.seat(s).alias != a]
        for p, _, _ in changed:
            p.alias = f"[{p.seat}]"  # never a real alias (check_alias refuses brackets)
            await p.save()
        for p, old, alias in changed:
            p.alias = alias
            await p.save()
            await self.audit("engine", "rename", f"{p.seat}号 {old} → {alias}", seq, now)

    async def send_off(self, seat: int, reason: str, origin: Origin, actor: Actor, now: datetime) -> None:
        """Cards added up to a red: the engine puts the player out (if still in)."""
        if self.game.status != "ended" and self.seat(seat).alive:
            cmd = Command(KERNEL_OUT, {"seat": seat, "reason": f"红牌罚下：{reason}"})
            await self.step("apply", origin=origin, now=now, actor=actor, cmd=cmd)

    async def picture(self, e: Picture, origin: Origin, now: datetime) -> None:
        render = self.kind.renderers.get(e.name)
        if render is None:  # pragma: no cover - a programming error in a plugin
            raise TypeError(f"no renderer {e.name!r} for {self.kind.key}")
        from nonebot import get_plugin_config

        from .config import Config

        folder = Path(get_plugin_config(Config).data_dir) / "pictures"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{self.game.id}-{e.name}-{now:%Y%m%d-%H%M%S-%f}.png"
        path.write_bytes(render(self.game.state))
        await self.say(e.to, e.caption, origin, image=str(path))

    async def group_admin(self, e: GroupAdmin, now: datetime) -> None:
        g = self.game
        group = await self.chat_group(e.chat)
        if e.action in ("mute_all", "unmute_all"):
            action, params = "set_group_whole_ban", {"group_id": int(group), "enable": e.action == "mute_all"}
        elif e.action == "set_card":
            assert e.seat is not None
            action = "set_group_card"
            who = self.joiner.get(e.seat) or self.seat(e.seat).user_id  # the account that just joined
            params = {"group_id": int(group), "user_id": int(who), "card": e.card}
        elif e.action == "kick":
            assert e.seat is not None
            p = self.seat(e.seat)
            for account in filter(None, (p.user_id, alt_of(p))):  # the 小号 too
                await self.kick(group, account, now)
            return
        else:  # pragma: no cover - a programming error in an engine
            raise TypeError(f"unknown group action {e.action!r}")
        await enqueue_api(group, action, params, game_id=g.id, self_id=g.self_id, now=now)

    async def kick(self, group: str, user_id: str, now: datetime) -> None:
        params = {"group_id": int(group), "user_id": int(user_id), "reject_add_request": False}
        await enqueue_api(group, "set_group_kick", params, game_id=self.game.id, self_id=self.game.self_id, now=now)

    def who(self, user_id: str) -> str:
        """How hosts' notes name someone: seat and alias, or the QQ of a non-player."""
        p = self.player_of(user_id)
        return f"{p.seat}号「{p.alias}」" if p else f"QQ {user_id}（非玩家）"

    async def give_card(self, seat: int, color: str, reason: str, by: str, now: datetime, public: str | None = None) -> bool:
        """Record a card; True when it sends the player off (first red). The
        group sees ``public`` when given (a full reason may reveal a role);
        the player and the hosts then hear the full one privately."""
        p = self.seat(seat)
        shown = public or reason
        before = cardmath.tally([c.color for c in await Card.filter(game_id=self.game.id, seat=seat)])
        await Card.create(game_id=self.game.id, seat=seat, user_id=p.user_id, color=color, reason=shown,
                          private_reason=reason if public else None, given_by=by, at=now)
        after = cardmath.tally([c.color for c in await Card.filter(game_id=self.game.id, seat=seat)])
        await self.audit(by, "card", f"{p.seat}号 {p.alias} {cardmath.COLORS[color]}：{reason}", at=now)
        line = f"【判罚】{p.seat}号 {p.alias} 获得{cardmath.COLORS[color]}，理由：{shown}。累计：{after.describe()}"
        await self.say(GROUP, line, None)
        if public and public != reason:
            full = f"【判罚】{p.seat}号 {p.alias} 获得{cardmath.COLORS[color]}，完整理由：{reason}。"
            await self.say(seat, full + "（群里只公布了「" + public + "」）", None)
            await self.say(HOSTS, full, None)
        return after.sent_off and not before.sent_off

    async def finish(self, summary: str, now: datetime, seq: int | None = None) -> None:
        g = self.game
        g.status, g.ended_at, g.live_group = "ended", now, None
        g.phase_key, g.phase_label = "ended", "已结束"
        await g.save()
        for t in await Timer.filter(game_id=g.id, status__in=("armed", "paused", "stuck")):
            t.status = "cancelled"
            await t.save()
            self.changed_timers.append(t)
        if summary:
            await self.say(GROUP, summary, None)
        await self.audit("engine" if seq else "host", "end", summary[:200], seq, now)
        self.refresh_directory = True


class NotOwner(Ignored):
    """Another process serves this game: stay silent, it answers."""


async def in_game(game_id: int, superusers: set[str], work: Callable[[Txn], Awaitable[T]]) -> T:
    """Run ``work`` for one game in one transaction (the caller holds the
    arrival-order lock). A Rejected raised by ``work`` rolls everything back;
    the delivery key of the message being handled is recorded first, in the
    same transaction, so a repeated delivery changes nothing."""
    if not await leases.ensure(game_id):
        raise NotOwner()
    async with in_transaction():
        txn = await Txn.open(game_id, superusers)
        await claim_delivery(utcnow())
        result = await work(txn)
    delivery_committed()
    await after_commit(txn)
    return result


async def after_commit(txn: Txn) -> None:
    if _arm:
        for t in txn.changed_timers:
            _arm(t)
    if txn.refresh_directory:
        await directory.refresh(txn.game.id)
    if txn.game.status == "ended":
        await leases.release(txn.game.id)
    wake_outbox()


DEADLINE_BACKOFF = (5.0, 30.0, 120.0)
"""Seconds before each retry of a deadline whose work failed; then it is parked."""


async def fire_timer(timer_id: int, superusers: set[str]) -> None:
    """A deadline passed: apply it once. A timer that was moved, paused,
    cancelled or already fired is skipped. If its work fails, everything is
    rolled back and it is retried with back-off, then parked with the hosts
    told (the game never silently stops)."""
    _claim.set(None)
    t = await Timer.get_or_none(id=timer_id)
    if t is None or t.status != "armed":
        return
    ticket, now = stamp()

    async def work(txn: Txn) -> None:
        current = await Timer.get(id=timer_id)  # re-read under the lock: it may have moved
        if current.status != "armed" or now + timedelta(seconds=1) < current.ends_at:
            return  # paused, cancelled, fired, or moved later (the new job will fire it)
        n = await Timer.filter(id=timer_id, status="armed").update(status="fired", fired_at=now)
        if n != 1:
            return
        if txn.game.status != "running":
            return
        await txn.step("deadline", origin=Origin("", "timer"), now=now, key=t.key)

    try:
        async with ordered(ticket):
            await in_game(t.game_id, superusers, work)  # type: ignore[attr-defined]
    except Ignored:
        pass
    except Exception as exc:  # noqa: BLE001 - a failed deadline is retried, then parked, never lost
        logger.opt(exception=exc).error(f"timer {timer_id} ({t.key}) failed")
        async with ordered(stamp()[0]):
            await _deadline_failed(timer_id, superusers, exc, now)


async def _deadline_failed(timer_id: int, superusers: set[str], exc: Exception, now: datetime) -> None:
    error = str(exc) if isinstance(exc, Rejected) else f"{type(exc).__name__}: {exc}"
    retry_at: datetime | None = None

    async def work(txn: Txn) -> None:
        nonlocal retry_at
        t = await Timer.get(id=timer_id)
        if t.status != "armed":
            return
        t.attempts += 1
        t.last_error = error[:500]
        label = txn.game.phase_label or t.key
        if t.attempts <= len(DEADLINE_BACKOFF):
            retry_at = now + timedelta(seconds=DEADLINE_BACKOFF[t.attempts - 1])
            await t.save()
            await txn.audit("kernel", "deadline_retry", f"{label}：第 {t.attempts} 次出错，稍后重试（{error[:200]}）", at=now)
            return
        t.status = "stuck"
        await t.save()
        txn.changed_timers.append(t)
        await txn.audit("kernel", "deadline_stuck", f"{label}：{error[:200]}", at=now)
        await txn.say(
            HOSTS,
            f"【出错】「{label}」到时后的处理连续 {t.attempts} 次出错，游戏停在这一步，没有任何改动。"
            f"错误：{error[:200]}\n请发送 /推进 重试这一步，或 /延时 <分钟> 过一会儿再自动处理；仍出错请联系机器人管理员（错误已记录）。",
            None,
        )

    try:
        await in_game(await _game_of_timer(timer_id), superusers, work)
    except Ignored:
        return
    if retry_at is not None and _retry:
        _retry(timer_id, retry_at)


async def _game_of_timer(timer_id: int) -> int:
    t = await Timer.get(id=timer_id)
    return t.game_id  # type: ignore[attr-defined]
