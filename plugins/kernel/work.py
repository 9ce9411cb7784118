"""One unit of work on one game: the game as held (or read), a rule run on it, and everything that
changes collected as one write set (``writeset.py``) — the command-log row, the state, timers,
audit rows, roster changes and the queued messages — for the store to write whole.

Nothing is written here: ``unit.py`` opens a ``Work`` in the game's arrival order, runs the
command on it and hands ``Work.writes()`` to the store."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import orjson
from nonebot.log import logger
from tortoise.models import Model

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
    Outcome,
    Picture,
    Rejected,
    Say,
    Seat,
    run_rule,
)
from plugins.gamekit.contract import Timer as TimerInfo

from . import held as held_games
from .directory import alt_of, last_account
from .effects import Effects
from .held import OPEN_TIMERS, Held
from .leases import leases
from .longtexts import Texts, decoded, fingerprint, inflate, read_texts, stored_json
from .messages import api_row, text_rows
from .models import Audit, Chat, CommandLog, Contact, Game, GameText, Host, Player, Timer
from .origin import Handled, Handling, Origin, reply_target
from .registry import GameKind, get_kind
from .roster import Roster
from .store.tables import table
from .web.page import with_page_line
from .writeset import Insert, Key, Update, WriteSet

ROW_FIELDS = ("last_seq", "phase_key", "phase_label", "status", "started_at", "ended_at", "end_reason", "live_group",
              "settings")  # the game row's columns a command may change besides its state


def _typed_settings(kind: GameKind, game: Game) -> None:
    """Make the game's typed settings as it is read, kept with it while it is held (the engine's
    ``settings_of`` keeps one per stored dict): its first rule (/开始 after the sign-ups) does not
    wait for them. A stored form that does not fit is reported by that rule, as before."""
    try:
        kind.engine.settings_of(game.settings)
    except Exception:  # ctx() raises it again, where it is answered
        pass


@dataclass
class Work(Effects, Handled):
    """Everything loaded for one game inside its arrival order, and what the command changes."""

    game: Game
    kind: GameKind
    players: list[Player]
    hosts: list[str]
    handling: Handling
    superusers: set[str]
    chats: list[Chat] = field(default_factory=list)
    texts: Texts = field(default_factory=Texts)  # the game's long texts out of the stored state (longtexts.py)
    _timers: list[Timer] | None = None  # see open_timers
    ws: WriteSet = field(default_factory=WriteSet)
    changed_timers: list[Timer] = field(default_factory=list)
    refresh_directory: bool = False
    roster_kept: bool = False  # the roster changed and ``players`` was kept in step with it: hold on to it
    joiner: dict[int, str] = field(default_factory=dict)  # seat -> the account that just joined a group
    game_saved: bool = False  # the game row changes with this write set
    dirty: bool = False  # a rule ran on the held state and was not undone: drop the held game on a failure
    dealt: bool = False  # the game started (its roles dealt) in this unit
    _saved: dict[int, tuple[Model, Insert | Update, set[str]]] = field(default_factory=dict)  # object -> its op
    _new: list[tuple[Model, Key]] = field(default_factory=list)  # rows inserted, their keys once written
    _contacts: dict[str, str] | None = None

    @classmethod
    async def open(cls, game_id: int, handling: Handling, superusers: set[str], *, fresh_timers: bool = False) -> Work:
        """The game as held, or read from the database (after its writes on their way);
        ``fresh_timers``: its timers as the database has them, also when the game is held."""
        h = held_games.held(game_id)
        if h is not None and leases.owns(game_id) and not held_games.failed(game_id):
            timers = await held_games.read_timers(game_id) if fresh_timers else h.timers
            return cls(h.game, get_kind(h.game.kind), list(h.players), list(h.hosts), handling, superusers,  # type: ignore[arg-type]
                       chats=list(h.chats), texts=h.texts, _timers=timers)
        await held_games.settled(game_id)
        held_games.forget(game_id)
        game = await Game.get(id=game_id)
        kind = get_kind(game.kind)
        if kind is None:
            raise Rejected(f"本群的游戏类型「{game.kind}」未安装，请联系管理员。")
        texts = await read_texts(game, kind.engine)
        players = list(await Player.filter(game_id=game_id).order_by("seat"))
        hosts = [h.user_id for h in await Host.filter(game_id=game_id).order_by("id")]
        chats = list(await Chat.filter(game_id=game_id).order_by("id"))
        timers = await held_games.read_timers(game_id)
        held_games.note_row(game, ROW_FIELDS)
        _typed_settings(kind, game)
        return cls(game, kind, players, hosts, handling, superusers, chats=chats, texts=texts, _timers=timers)

    def keep(self) -> None:
        """Hold this game for the next command (only while we serve it)."""
        g = self.game
        if (self.refresh_directory and not self.roster_kept) or g.status == "ended" or not leases.owns(g.id):
            held_games.forget(g.id)  # roster, hosts or chats changed: read them afresh next time
        else:
            held_games.hold(g.id, Held(g, list(self.players), list(self.hosts), list(self.chats), self.texts, self._timers))

    # ---- who and where --------------------------------------------------------------

    @property
    def roster(self) -> Roster:
        return Roster.of(self.players)

    def player_of(self, user_id: str) -> Player | None:
        """The player using this QQ account: the sign-up account or their registered 小号."""
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

    def who(self, user_id: str) -> str:
        """How hosts' notes name someone: seat and alias, or the QQ of a non-player."""
        p = self.player_of(user_id)
        return f"{p.seat}号「{p.alias}」" if p else f"QQ {user_id}（非玩家）"

    def chat_group(self, chat: str) -> str:
        """QQ group of ``"group"`` or a linked chat's label (the main group if unlinked)."""
        if chat in (GROUP, "main"):
            return self.game.group_id
        label = chat.removeprefix("chat:")
        c = next((c for c in self.chats if c.label == label), None)
        return c.group_id if c else self.game.group_id

    # ---- rows -----------------------------------------------------------------------

    def save(self, obj: Model, *fields: str) -> None:
        """``obj``'s ``fields`` change with this write set, in the order of the first ``save`` of it;
        its values are taken when the write set is made (a row is written once, with its last
        values). A new object (no key yet) is inserted whole, its key back once written."""
        if obj is self.game:
            self.game_saved = True
            return
        hit = self._saved.get(id(obj))
        if hit is not None:
            hit[2].update(fields)
            return
        op: Insert | Update
        if obj.pk is None:
            key = Key()
            op = Insert(type(obj), [{}], [key])
            self._new.append((obj, key))
        else:
            op = Update(type(obj), (), [(obj.pk, {})])
        self.ws.ops.append(op)
        self._saved[id(obj)] = (obj, op, set(fields))

    def delete(self, obj: Model) -> None:
        self.ws.delete(type(obj), id=obj.pk)

    def insert(self, model: type[Model], row: dict[str, Any]) -> None:
        self.ws.insert(model, row)

    def say(self, to: str | int, text: str, origin: Origin | None, priority: int = 1, image: str | None = None,
            scrub: bool = False) -> None:
        """Queue ``text`` (and a picture) for a Say target: "group", "chat:<label>", "hosts", "reply"
        or a seat. Answers go first; in a group they name the sender (a picture's caption does not)."""
        g = self.game
        if to == REPLY and image is None and origin is not None and origin.captured is not None:
            origin.captured.append(text)  # a web page's command: the answer goes back to the page
            return
        answer = reply_target(origin, self.kind.private_signup) if to == REPLY else None
        if answer is not None:
            kind, target, prefix = answer
            targets = [(kind, target, "" if image else prefix)]
            priority = 0
        elif to in (GROUP, REPLY):  # a reply to a timer or the kernel goes to the group
            targets = [("group", g.group_id, "")]
        elif isinstance(to, str) and to.startswith("chat:"):
            targets = [("group", self.chat_group(to), "")]  # an unlinked chat falls back to the main group
        elif to == HOSTS:
            targets = [("private", h, "") for h in self.hosts]
        else:
            targets = [("private", self.seat(int(to)).user_id, "")]
        for kind, target, prefix in targets:
            self_id = (origin.self_id if answer is not None and origin is not None and origin.self_id  # the account asked
                       else self.account_for(target) if kind == "private" else g.self_id)
            body = self.tagged(prefix + text) if kind == "group" else prefix + text
            self.ws.outbox += text_rows(kind, target, body, game_id=g.id, self_id=self_id, priority=priority,
                                        now=self.now, image=image, scrub=scrub)

    def post(self, text: str, *, at_all: bool = False) -> None:
        """A host's announcement in the game's group (``at_all``: @全体成员 first)."""
        g = self.game
        self.ws.outbox += text_rows("group", g.group_id, self.tagged(text), game_id=g.id, self_id=g.self_id,
                                    priority=1, now=self.now, at_all=at_all)

    def api(self, group: str, action: str, params: dict[str, Any], **kw: Any) -> None:
        """A OneBot call (group administration) through the queue (``messages.api_row``)."""
        g = self.game
        self.ws.outbox.append(api_row(group, action, params, game_id=g.id, self_id=g.self_id, now=self.now, **kw))

    def tagged(self, text: str) -> str:
        """A group post with the game's tag in front (e.g. 【测试赛】), once."""
        g, engine = self.game, self.kind.engine
        tag = engine.group_tag(g.state, settings=engine.settings_of(g.settings)) if g.state is not None else ""
        return text if not tag or text.startswith(tag) else tag + text

    def account_for(self, user_id: str) -> str:
        """The bot account a private message to ``user_id`` goes out through: the one they last
        wrote to, else the game's (with several processes, ``read_contacts`` asked the database)."""
        known = last_account(user_id)
        if known:
            return known
        return (self._contacts or {}).get(user_id) or self.game.self_id

    async def read_contacts(self) -> None:
        """Several processes: the accounts of the game's people this process has not seen write."""
        if leases.shared and self._contacts is None:
            users = [u for u in [p.user_id for p in self.players] + self.hosts if not last_account(u)]
            self._contacts = dict(await Contact.filter(user_id__in=users).values_list("user_id", "self_id"))

    def audit(self, actor: str, action: str, detail: str, seq: int | None = None, at: datetime | None = None) -> None:
        self.ws.insert(Audit, {"game_id": self.game.id, "seq": seq, "actor": actor, "action": action,
                               "detail": detail, "at": at or self.now})

    # ---- timers ---------------------------------------------------------------------

    async def open_timers(self, key: str | None = None) -> list[Timer]:
        """The game's armed, paused and stuck timers (of one ``key``, or all): read on first use and
        held with the game."""
        if self._timers is None:
            self._timers = await held_games.read_timers(self.game.id)
        return [t for t in self._timers if t.status in OPEN_TIMERS and key in (None, t.key)]

    async def timers(self) -> list[Timer]:
        return [t for t in await self.open_timers() if t.status != "stuck"]

    def timer_changed(self, t: Timer, *fields: str) -> None:
        self.save(t, *fields)
        if t not in self.changed_timers:
            self.changed_timers.append(t)

    async def set_timer(self, key: str, ends_at: datetime, now: datetime) -> None:
        paused = self.game.status == "paused"
        existing = await self.open_timers(key)
        t = existing[0] if existing else Timer(game_id=self.game.id, key=key)
        if not existing and self._timers is not None:
            self._timers.append(t)
        t.ends_at, t.status, t.attempts, t.last_error = ends_at, "paused" if paused else "armed", 0, None
        t.remaining = max(0.0, (ends_at - now).total_seconds()) if paused else None
        self.timer_changed(t, "ends_at", "status", "attempts", "last_error", "remaining")

    async def cancel_timer(self, key: str) -> None:
        for t in await self.open_timers(key):
            t.status = "cancelled"
            self.timer_changed(t, "status")

    # ---- the engine -----------------------------------------------------------------

    async def ctx(self, seq: int, now: datetime) -> Ctx:
        infos = tuple(TimerInfo(t.key, t.ends_at) for t in await self.timers())
        return Ctx(now=now, rng=random.Random(f"{self.game.seed}:{seq}"), seq=seq, tz=self.tz,
                   settings=self.kind.engine.settings_of(self.game.settings),
                   phase=next((i for i in infos if i.key == PHASE_TIMER), None), timers=infos,
                   chats=tuple(c.label for c in self.chats))

    async def step(self, call: str, *, origin: Origin, now: datetime, actor: Actor | None = None,
                   cmd: Command | None = None, key: str | None = None) -> Outcome:
        """Run one engine call as the next command of the game and apply its effects."""
        g, engine, self.dirty = self.game, self.kind.engine, True
        seq = g.last_seq + 1
        ctx = await self.ctx(seq, now)
        args: dict[str, Any]
        if call == "start":
            roster = [Seat(p.seat, p.alias, p.user_id, dict(p.profile or {})) for p in self.players]
            outcome = engine.start(roster, ctx)
            outcome.effects = with_page_line(outcome.effects, self.kind.key, g.settings or {})
            name, args, self.dealt = "start", {}, True
        elif call == "apply":  # on the held state itself: no copy of the whole state per command
            assert actor is not None and cmd is not None
            try:
                outcome = run_rule(engine, cmd.name, g.state, actor, cmd.args, ctx, copy=False)
            except BaseException:  # a refusal may come after the rule changed things: undone in the held copy
                await self.undo()
                raise
            name, args = cmd.name, as_dict(cmd.args) if isinstance(cmd.args, Args) else cmd.args
        else:
            assert key is not None
            outcome = engine.deadline(g.state, key, ctx)
            name, args = f"timer:{key}", {}
        g.state, g.last_seq = outcome.state, seq
        self.game_saved = True
        self.ws.insert(CommandLog, {"game_id": g.id, "seq": seq, "user_id": origin.user_id, "name": name, "args": args,
                                    "received_at": now, "source": origin.source, "dedup_key": origin.dedup_key})
        await self.apply_effects(outcome.effects, seq, origin, now)
        return outcome

    async def undo(self) -> None:
        """Put back the state as stored, after a rule that changed it refused: that of the game's
        last write handed in when it is of its arrival number (no trip), else read once its writes
        land. The rest of the held game stays when it still matches the database."""
        g, engine = self.game, self.kind.engine
        raw = held_games.as_written(g)
        matches = raw is not None
        if raw is None:
            written = await held_games.settled(g.id)
            row = await Game.get(id=g.id)
            raw = row.state
            matches = written and row.last_seq == g.last_seq
            held_games.note_written(g.id, row.last_seq, orjson.dumps(raw).decode())  # for the next refusal
        g.state = decoded(engine, g.id, inflate(raw, engine.TEXTS, self.texts))
        self.dirty = not matches

    async def query(self, actor: Actor, cmd: Command) -> None:
        """A read-only command (``CommandSpec(query=True)``): its rule reads the held state itself (no
        copy); nothing is logged or written but its answers; a rule that changed the state after all
        (mafia88's ``before`` following a /延时) drops the held game."""
        g = self.game
        before = fingerprint(g.state)
        try:
            ctx = await self.ctx(g.last_seq + 1, self.now)
            outcome = run_rule(self.kind.engine, cmd.name, g.state, actor, cmd.args, ctx, copy=False)
            assert all(isinstance(e, Say | Picture) for e in outcome.effects), f"query {cmd.name} changed more than replies"
            await self.apply_effects(outcome.effects, g.last_seq, self.origin, self.now)
        finally:
            if fingerprint(g.state) != before:
                held_games.forget(g.id)
                logger.info(f"query {cmd.name} of game {g.id} changed the state: the held copy was dropped")
                self.dirty = True

    # ---- the write set --------------------------------------------------------------

    def writes(self) -> WriteSet:
        """Everything this unit changed, as one write set (the handling's delivery key first)."""
        ws = self.ws
        ws.delivery, ws.at = self.handling.claim(), self.now
        for obj, op, fields in self._saved.values():  # each row's last values
            if isinstance(op, Insert):
                op.rows[0].update({f: v for f in table(type(obj)).columns if (v := getattr(obj, f)) is not None})
            else:
                op.fields = tuple(sorted(fields))
                op.rows[0][1].update({f: getattr(obj, f) for f in op.fields})
        self._saved.clear()
        if self.game_saved:
            g = self.game
            state = stored_json(self.kind.engine, g.state, self.texts) if g.state is not None else None
            for ref, text in self.texts.new:  # the state's new long texts, in rows of their own
                ws.insert(GameText, {"game_id": g.id, "ref": ref, "text": text})
            self.texts.new = []
            values = {f: getattr(g, f) for f in held_games.changed_columns(g, ROW_FIELDS)}
            values["state"] = state
            ws.update(Game, g.id, values)
            if state is not None:
                held_games.note_written(g.id, g.last_seq, state)
        return ws

    def written(self) -> None:
        """The write set is written: new rows learn their keys."""
        for obj, key in self._new:
            obj.pk, obj._saved_in_db = key.value, True
        self._new.clear()

    @property
    def simple(self) -> bool:
        """Only answers, the state, the phase and timers of rows that exist: the game's next command
        may run its rule before this write lands (``unit.py``)."""
        return (not self._new and not self.changed_timers and not self.refresh_directory
                and self.game.status != "ended")
