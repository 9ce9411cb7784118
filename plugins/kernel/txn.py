"""A game transaction: everything loaded for one game inside its arrival
order and database transaction, running an engine call and applying it."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import TypeVar
from zoneinfo import ZoneInfo

from nonebot.log import logger
from tortoise.transactions import in_transaction

from plugins.gamekit.args import Args, as_dict
from plugins.gamekit.clock import game_tz
from plugins.gamekit.contract import (
    GROUP,
    HOSTS,
    PHASE_TIMER,
    REPLY,
    Actor,
    Command,
    Ctx,
    Ignored,
    Outcome,
    Picture,
    Rejected,
    Say,
    Seat,
    run_rule,
)
from plugins.gamekit.contract import Timer as TimerInfo

from . import inflight
from .bulk import insert_rows
from .delivery import claim_delivery, delivery_committed
from .directory import alt_of, last_account
from .effects import Effects
from .held import OPEN_TIMERS, Loaded, _cache, forget, handed_in
from .leases import leases
from .longtexts import Texts, fingerprint, read_texts, stored
from .models import Audit, Chat, CommandLog, Contact, Game, Host, Player, Timer
from .order import game_turn, utcnow
from .origin import Origin, _reply_target
from .outbox import batched, enqueue, queue_now
from .registry import GameKind, get_kind
from .roster import Roster
from .statements import insert_statement
from .writes import Deferred, after_commit, commit_step

T = TypeVar("T")


@dataclass
class Txn(Effects):
    """Everything loaded for one game inside its lock and transaction."""

    game: Game
    kind: GameKind
    players: list[Player]
    hosts: list[str]
    superusers: set[str]
    changed_timers: list[Timer] = field(default_factory=list)
    refresh_directory: bool = False
    roster_kept: bool = False  # the roster changed but ``players`` was kept in step with it: hold on to it
    _contacts: dict[str, str] | None = None
    joiner: dict[int, str] = field(default_factory=dict)  # seat -> the account that just joined a group
    chats: list[Chat] = field(default_factory=list)
    texts: Texts = field(default_factory=Texts)  # the game's texts out of the stored state (longtexts.py)
    _timers: list[Timer] | None = None  # see _open_timers
    deferred: Deferred | None = None  # in_game(quick=True): rows held for the next step's one write (writes.py)
    committed: bool = False  # … and that step wrote them
    handed: bool = False  # … and ended the game's turn before the write landed (inflight.py)
    dirty: bool = False  # a rule ran on the held state and what it did was not undone: drop it on a failure

    @classmethod
    async def open(cls, game_id: int, superusers: set[str]) -> Txn:
        held = _cache.get(game_id)
        if held is not None and leases.owns(game_id) and not inflight.failed(game_id):
            return cls(held.game, get_kind(held.game.kind), list(held.players), list(held.hosts), superusers,  # type: ignore[arg-type]  # checked when it was loaded
                       chats=list(held.chats), texts=held.texts, _timers=held.timers)
        await inflight.settled(game_id)  # what the database holds is read after the writes in flight
        forget(game_id)
        game = await Game.get(id=game_id)
        kind = get_kind(game.kind)
        if kind is None:
            raise Rejected(f"本群的游戏类型「{game.kind}」未安装，请联系管理员。")
        players = list(await Player.filter(game_id=game_id).order_by("seat"))
        hosts = [h.user_id for h in await Host.filter(game_id=game_id).order_by("id")]
        chats = list(await Chat.filter(game_id=game_id).order_by("id"))
        texts = await read_texts(game, kind.engine)
        timers = list(await Timer.filter(game_id=game_id, status__in=OPEN_TIMERS).order_by("id"))
        return cls(game, kind, players, hosts, superusers, chats=chats, texts=texts, _timers=timers)

    def keep(self) -> None:
        """After commit: hold this game for the next command (only while we serve it)."""
        if (self.refresh_directory and not self.roster_kept) or self.game.status == "ended" or not leases.owns(self.game.id):
            forget(self.game.id)  # roster, hosts or chats changed: read them afresh next time
        else:
            _cache[self.game.id] = Loaded(self.game, list(self.players), list(self.hosts), list(self.chats), self.texts,
                                          self._timers)

    @property
    def roster(self) -> Roster:
        return Roster.of(self.players)

    def player_of(self, user_id: str) -> Player | None:
        """The player using this QQ account: the sign-up account or their
        registered 小号 (a second account, e.g. for prison's room groups)."""
        hit = next((p for p in self.players if p.user_id == user_id), None)
        return hit or next((p for p in self.players if alt_of(p) == user_id), None)

    def seat(self, seat: int) -> Player:
        if 0 < seat <= len(self.players) and self.players[seat - 1].seat == seat:
            return self.players[seat - 1]  # seats 1..n in order, as loaded: no search (88 role messages)
        p = next((p for p in self.players if p.seat == seat), None)
        if p is None:
            raise Rejected(f"没有 {seat} 号玩家。")
        return p

    def is_host(self, user_id: str) -> bool:
        return user_id in self.hosts or user_id in self.superusers

    @property
    def tz(self) -> ZoneInfo:
        return game_tz(self.game)

    async def chat_group(self, chat: str) -> str:
        """QQ group of ``"group"`` or a linked chat's label (the main group if unlinked)."""
        if chat in (GROUP, "main"):
            return self.game.group_id
        label = chat.removeprefix("chat:")
        c = next((c for c in self.chats if c.label == label), None)
        return c.group_id if c else self.game.group_id

    async def say(self, to: str | int, text: str, origin: Origin | None, priority: int = 1, image: str | None = None,
                  scrub: bool = False) -> None:
        """Queue ``text`` (and a picture) for a Say target: "group", "chat:<label>",
        "hosts", "reply" or a seat. Answers go first; in a group they name the
        sender (a picture's caption does not)."""
        g = self.game
        if to == REPLY and image is None and origin is not None and origin.captured is not None:
            origin.captured.append(text)  # a web page's command: the answer goes back to the page
            return
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
            self_id = (self._account_known(target) or await self.account_for(target)) if kind == "private" else g.self_id
            body = self.tagged(prefix + text) if kind == "group" else prefix + text
            if not queue_now(kind, target, body, g.id, self_id, priority, image, scrub):  # no coroutine per message
                await enqueue(kind, target, body, game_id=g.id, self_id=self_id, priority=priority, image=image, scrub=scrub)

    def tagged(self, text: str) -> str:
        """A group post with the game's tag in front (e.g. 【测试赛】), once."""
        g = self.game
        tag = self.kind.engine.group_tag(g.state, settings=self.kind.engine.settings_of(g.settings)) if g.state is not None else ""
        return text if not tag or text.startswith(tag) else tag + text

    def _account_known(self, user_id: str) -> str | None:  # account_for without a query, when it needs none
        known = last_account(user_id)
        if known or self._contacts is None:
            return known or None
        return self._contacts.get(user_id) or self.game.self_id

    async def account_for(self, user_id: str) -> str:
        """The bot account a private message to ``user_id`` goes out through: the one they last wrote to, else the game's."""
        known = self._account_known(user_id)
        if known is not None:
            return known
        if leases.shared:  # one query for everyone of the game this process has not seen write
            users = [u for u in [p.user_id for p in self.players] + self.hosts if not last_account(u)]
            self._contacts = dict(await Contact.filter(user_id__in=users).values_list("user_id", "self_id"))
        else:  # alone: every contact is known (directory.py)
            self._contacts = {}
        return self._contacts.get(user_id) or self.game.self_id

    async def audit(self, actor: str, action: str, detail: str, seq: int | None = None, at: datetime | None = None) -> None:
        row = {"game_id": self.game.id, "seq": seq, "actor": actor, "action": action, "detail": detail, "at": at or utcnow()}
        if self.deferred is not None:
            self.deferred.stmts.append(insert_statement(Audit, [row]))
        else:
            await insert_rows(Audit, [row])

    async def _save_timer(self, t: Timer) -> None:
        if self.deferred is not None:
            self.deferred.save(t, ("ends_at", "status", "attempts", "last_error", "remaining"))
        else:
            await t.save()

    async def _open_timers(self, key: str | None = None) -> list[Timer]:
        """The game's armed, paused and stuck timers (of one ``key``, or all): read on first use and
        held with the game; the kernel changes timers through these rows (or calls ``timers_changed``)."""
        if self._timers is None:
            self._timers = list(await Timer.filter(game_id=self.game.id, status__in=OPEN_TIMERS).order_by("id"))
        return [t for t in self._timers if t.status in OPEN_TIMERS and key in (None, t.key)]

    def timers_changed(self) -> None:
        """Timer rows were changed by a query, not through ``_open_timers``: read them afresh."""
        self._timers = None

    async def timers(self) -> list[Timer]:
        return [t for t in await self._open_timers() if t.status != "stuck"]

    async def set_timer(self, key: str, ends_at: datetime, now: datetime) -> None:
        paused = self.game.status == "paused"
        existing = await self._open_timers(key)
        t = existing[0] if existing else Timer(game_id=self.game.id, key=key)
        if not existing and self._timers is not None:  # read by _open_timers just above
            self._timers.append(t)
        t.ends_at = ends_at
        t.status = "paused" if paused else "armed"
        t.attempts = 0
        t.last_error = None  # a nullable TextField (tortoise types it str)
        t.remaining = max(0.0, (ends_at - now).total_seconds()) if paused else None
        await self._save_timer(t)
        self.changed_timers.append(t)

    async def cancel_timer(self, key: str) -> None:
        for t in await self._open_timers(key):
            t.status = "cancelled"
            await self._save_timer(t)
            self.changed_timers.append(t)

    async def ctx(self, seq: int, now: datetime) -> Ctx:
        timers = await self.timers()
        infos = tuple(TimerInfo(t.key, t.ends_at) for t in timers)
        phase = next((i for i in infos if i.key == PHASE_TIMER), None)
        settings = self.kind.engine.settings_of(self.game.settings)
        chats = tuple(c.label for c in self.chats)
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
        g, self.dirty = self.game, True  # from here on a failure drops the held game (unless undone below)
        seq = g.last_seq + 1
        ctx = await self.ctx(seq, now)
        engine = self.kind.engine
        if call == "start":
            roster = [Seat(p.seat, p.alias, p.user_id, dict(p.profile or {})) for p in self.players]
            outcome = engine.start(roster, ctx)
            name, args = "start", {}
        elif call == "apply":  # the spec's rule on the single copy of the state (see run_rule)
            assert actor is not None and cmd is not None
            try:  # on the held state itself: no copy of the whole state per command
                outcome = run_rule(engine, cmd.name, g.state, actor, cmd.args, ctx, copy=False)
            except BaseException:  # a refusal may come after the rule changed things: undone in the held copy
                g.state, held = await inflight.stored_state(g, self.kind.engine, self.texts)
                self.dirty = not held  # refused, undone: the game stays held (a refusal costs no read)
                raise
            name, args = cmd.name, cmd.args
        else:
            assert key is not None
            outcome = engine.deadline(g.state, key, ctx)
            name, args = f"timer:{key}", {}
        g.state = outcome.state
        g.last_seq = seq
        log = {"game_id": g.id, "seq": seq, "user_id": origin.user_id, "name": name,
               "args": as_dict(args) if isinstance(args, Args) else args,
               "received_at": now, "source": origin.source, "dedup_key": origin.dedup_key}
        if self.deferred is not None:  # in_game(quick=True): no transaction is open yet; write now (writes.py)
            deferred, self.deferred, self.committed = self.deferred, None, True
            await commit_step(self, deferred, outcome, log, seq, origin, now)
        else:
            await self.write_step(outcome, log, seq, origin, now)
        return outcome

    async def write_step(self, outcome: Outcome, log: dict, seq: int, origin: Origin, now: datetime) -> None:
        """In the open transaction: the log row, the effects, the game row."""
        await insert_rows(CommandLog, [log])
        await self.apply_effects(outcome.effects, seq, origin, now)
        await self.save_game()

    async def save_game(self) -> None:
        """Write the game row; its state's texts go to rows of their own (longtexts.py)."""
        handed_in(self.game.id, self.game.last_seq, None)
        with self.stored_form():
            await self.texts.flush(self.game.id)
            await self.game.save()

    @contextmanager
    def stored_form(self) -> Iterator[None]:
        """Meanwhile the row holds the state as stored (texts as refs, new ones in ``texts.new``)."""
        g, held = self.game, self.game.state
        g.state = stored(self.kind.engine.encode(held), self.kind.engine.TEXTS, self.texts)
        try:
            yield
        finally:
            g.state = held

    async def query(self, actor: Actor, cmd: Command, origin: Origin, now: datetime) -> None:
        """A read-only command (``CommandSpec(query=True)``) outside any write transaction: its
        rule reads the held state itself (no copy), nothing is logged or written, its answers are
        queued; if it changed the state after all (mafia88's ``before`` following a /延时), the
        held game is dropped and the next command reads the stored state."""
        g = self.game
        before = fingerprint(g.state)  # a few hundredths of a millisecond; a copy cost ten times that
        try:
            ctx = await self.ctx(g.last_seq + 1, now)
            outcome = run_rule(self.kind.engine, cmd.name, g.state, actor, cmd.args, ctx, copy=False)
            assert all(isinstance(e, Say | Picture) for e in outcome.effects), f"query {cmd.name} changed more than replies"
            kept, g.state = g.state, outcome.state  # pictures are drawn from it; the row is never saved
            try:
                await self.apply_effects(outcome.effects, g.last_seq, origin, now)
            finally:
                g.state = kept
        finally:
            if fingerprint(g.state) != before:
                forget(g.id)
                logger.info(f"query {cmd.name} of game {g.id} changed the state: the held copy was dropped")
            else:
                self.keep()  # held, also when just read (after a restart the first commands may all be queries)

    def who(self, user_id: str) -> str:
        """How hosts' notes name someone: seat and alias, or the QQ of a non-player."""
        p = self.player_of(user_id)
        return f"{p.seat}号「{p.alias}」" if p else f"QQ {user_id}（非玩家）"


class NotOwner(Ignored):
    """Another process serves this game: stay silent, it answers."""


async def in_game(game_id: int, superusers: set[str], work: Callable[[Txn], Awaitable[T]], *,
                  quick: bool = False) -> T:
    """Run ``work`` for one game in one transaction (the caller holds the arrival-order
    lock). A Rejected raised by ``work`` rolls everything back; the delivery key of the
    message being handled is recorded first, in the same transaction, so a repeated
    delivery changes nothing. With ``quick``, ``work`` checks (and audits) and runs one
    ``Txn.step`` that writes everything the command causes at its end (writes.py)."""
    if not await leases.ensure(game_id):
        raise NotOwner()
    async with game_turn(game_id):  # the game's arrival order (already held when routed here)
        if quick:
            return await _quick(game_id, superusers, work)
        await inflight.settled(game_id)
        try:
            async with in_transaction(), batched():
                txn = await Txn.open(game_id, superusers)
                await claim_delivery(utcnow())
                result = await work(txn)
        except BaseException:
            forget(game_id)  # what was changed in memory was rolled back in the database
            raise
        delivery_committed()
        txn.keep()
        await after_commit(txn)
    return result


async def _quick(game_id: int, superusers: set[str], work: Callable[[Txn], Awaitable[T]]) -> T:
    txn: Txn | None = None
    try:
        txn = await Txn.open(game_id, superusers)
        txn.deferred = Deferred()
        result = await work(txn)
    except BaseException:
        if txn is None or txn.committed or txn.dirty:
            forget(game_id)  # the rule may have changed the held state, or its write failed
        else:
            txn.keep()  # refused, the game as stored: held (also when it was just read)
        raise
    if txn.committed:
        if not txn.handed:  # (a handed-over command kept it then: the next one may have kept it since)
            txn.keep()
        await after_commit(txn)
    return result

