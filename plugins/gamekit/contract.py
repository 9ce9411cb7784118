"""The contract between the kernel and a game's pure rules engine.

An engine does no I/O, reads no clock and uses no global random: every call gets the typed
state, the typed arguments, the time (``ctx.now``), the game's typed settings (``ctx.settings``)
and the game's own random generator (``ctx.rng``, derived from the stored seed and the
command's arrival number). A game subclasses :class:`GameEngine`, names its ``State`` (a
:class:`~.state.GameState`) and ``Settings`` (a :class:`~.settings.GameSettings`), and lists its
commands as :class:`CommandSpec` rows, each naming its rule::

    def vote(state: State, actor: Actor, args: VoteArgs, ctx: Ctx[Settings]) -> list[Effect]: ...

A rule changes the state it is given (a copy, or the kernel's held state, put back by the kernel
when the rule raises) and returns the effects to apply. Replaying a game = ``start`` then
``apply``/``deadline`` again with the logged commands, times and the same seed: the result is
identical. Read-only commands (``CommandSpec(query=True)``) are not logged: they change nothing.

This package imports neither NoneBot nor Tortoise: an engine runs and is tested without a bot.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar, Generic, Literal, TypeVar
from zoneinfo import ZoneInfo

import orjson

from .args import Args, NoArgs, SeatReason, fields_of
from .datafile import Content
from .effects import (
    GROUP,
    HOSTS,
    REPLY,
    CancelTimer,
    Effect,
    Eliminate,
    Finish,
    GiveCard,
    GroupAdmin,
    Picture,
    Rename,
    Restore,
    Say,
    SetPhase,
    SetTimer,
)
from .errors import Ignored, Rejected
from .settings import GameSettings, engine_settings
from .state import VERSION_KEY, GameState, StateTooNew, copied, from_plain, to_plain, version_of

JSON = Any
Settings = Any
"""A game's settings as ``ctx.settings`` and the hooks' ``settings`` keyword give them: the
engine's ``Settings`` model (one object per game, never changed)."""

S = TypeVar("S")
C = TypeVar("C")
A = TypeVar("A", bound=Args)

__all__ = [
    "GROUP", "HOSTS", "JSON", "KERNEL_BACK", "KERNEL_OUT", "PHASE_TIMER", "REPLY", "Actor", "ArgSpec", "CancelTimer",
    "Command", "CommandSpec", "Ctx", "Effect", "Eliminate", "Finish", "GameEngine", "GiveCard", "GroupAdmin",
    "Ignored", "Outcome", "Picture", "Rejected", "Rename", "Restore", "Rule", "Say", "Seat", "SetPhase", "SetTimer",
    "Settings", "Timer", "check_who", "copy_state", "run_rule", "stamped",
]


@dataclass(frozen=True)
class Seat:
    """One roster entry handed to an engine at start."""

    seat: int
    alias: str
    user_id: str
    profile: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)  # /资料 fields


@dataclass(frozen=True)
class Actor:
    """Who sent a command."""

    user_id: str
    seat: int | None  # None: not a player of this game (e.g. a host)
    is_host: bool
    private: bool  # arrived by private chat
    chat: str | None = None  # group chats: "main" or a linked chat's label; None in private


@dataclass(frozen=True)
class Timer:
    key: str
    ends_at: datetime  # aware


@dataclass(frozen=True)
class Ctx(Generic[C]):
    now: datetime  # aware (UTC); finer than a second
    rng: random.Random
    seq: int  # this command's arrival number in the game
    tz: ZoneInfo  # the game's clock zone (Asia/Shanghai by default)
    settings: C
    phase: Timer | None = None  # the current phase deadline, if any
    timers: tuple[Timer, ...] = ()  # every armed timer of the game
    chats: tuple[str, ...] = ()  # labels of the QQ groups linked to the game (/绑定群)


@dataclass(frozen=True)
class Command:
    name: str
    args: Any = field(default_factory=NoArgs)  # the spec's Args (a plain dict for an engine not yet typed)


PHASE_TIMER = "phase"


@dataclass
class Outcome(Generic[S]):
    state: S
    effects: list[Effect] = field(default_factory=list)


# Commands the kernel itself sends to every engine (``kernel_out`` / ``kernel_back``, args SeatReason):
KERNEL_OUT = "kernel.out"  # a host's /出局 or a red card puts a player out: answer with Eliminate
KERNEL_BACK = "kernel.back"  # a host's /回场: answer with Restore


Rule = Callable[[Any, Actor, Any, Ctx], list[Effect]]
"""A game's rule for one command: ``rule(state, actor, args, ctx) -> effects``. It changes the
state it is given and raises Rejected (nothing is kept) or Ignored before or after changing it
(the kernel puts the stored state back)."""


# ---- commands as data ------------------------------------------------------
#
# A game lists its commands as CommandSpec rows; the kernel's one router finds the row for a
# command word, reads the arguments into the row's ``args`` class (players named by seat, alias
# or @mention become seats; see args.py), checks who and where (``check_who``: permissions live
# in the table only) and runs the row's ``rule``. A row with ``query=True`` is read-only: not
# logged, the game never written, and its rule may return only Say and Picture effects. A row
# with ``words=()`` is the plain-text route: every message from a player of the game that is not
# a command (private text for ``where="private"``, group chat for ``where="group"``) reaches the
# rule with ``TextIn(text=..., images=n)``; the rule raises Ignored when it has no use for it.

ArgKind = Literal["player", "players", "int", "word", "text"]
Where = Literal["any", "group", "private"]
Who = Literal["player", "host", "anyone"]


@dataclass(frozen=True)
class ArgSpec:
    """An argument of an engine whose commands are not yet typed (a plain dict reaches its rule)."""

    name: str
    kind: ArgKind
    optional: bool = False
    max_count: int | None = None  # for "players"


@dataclass(frozen=True)
class CommandSpec:
    words: tuple[str, ...]  # Chinese command words, first is the canonical one: ("投票",)
    name: str  # engine command name, as the command log keeps it: "vote"
    args: Any = ()  # the Args class the rule gets (a tuple of ArgSpec: a plain dict)
    where: Where = "any"
    who: Who = "player"
    alive_only: bool = True  # refuse players who are out
    usage: str = ""  # e.g. "/投票 <玩家> [<玩家>]"
    help: str = ""  # one short Chinese line for /帮助
    max_chars: int | None = None  # longest accepted text (None: the kernel's cap for the asker)
    extra: dict = field(default_factory=dict)  # the kernel's own notes for /帮助 ("phases", "needs", "example")
    rule: Rule | None = field(default=None, compare=False)  # the game's rule function
    query: bool = False  # read-only: not logged, state not written, answered outside the write transaction
    audit: bool = False  # each use goes to the audit log (/日志)

    @property
    def typed(self) -> bool:
        return isinstance(self.args, type) and issubclass(self.args, Args)

    @property
    def fields(self) -> tuple[Any, ...]:
        """How chat gives each argument, in order (``name``, ``kind``, ``optional``, ``max_count``)."""
        return fields_of(self.args) if self.typed else tuple(self.args)


def check_who(spec: CommandSpec, actor: Actor, engine: GameEngine | None = None) -> None:
    """The table's permission (``who``), refused in the game's own words (``HOST_ONLY``,
    ``NOT_A_PLAYER``): the kernel's router and ``GameEngine.apply`` both ask here."""
    if spec.who == "host" and not actor.is_host:
        raise Rejected(engine.HOST_ONLY if engine is not None else GameEngine.HOST_ONLY)
    if spec.who == "player" and actor.seat is None:
        raise Rejected(engine.NOT_A_PLAYER if engine is not None else GameEngine.NOT_A_PLAYER)


def copy_state(state: JSON) -> JSON:
    """An exact copy of a plain (untyped) state: a pickle round trip."""
    return pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))


class GameEngine(Generic[S, C]):
    """What a game plugin registers with the kernel: subclass it, name the ``State`` and
    ``Settings`` models and where the default settings live (``CONTENT``), list the commands
    (each :class:`CommandSpec` names its ``rule``), implement ``start`` and ``on_deadline``, and
    override the optional hooks whose defaults do not fit."""

    State: ClassVar[type[GameState] | None] = None  # None: a plain dict state (not yet typed)
    Settings: ClassVar[type[GameSettings] | None] = None  # None: plain dict settings (not yet typed)
    CONTENT: ClassVar[Content | None] = None  # the default settings' TOML files
    STATE_VERSION: ClassVar[int] = 1  # the shape of the state this code writes
    # where the state keeps long texts ("*": every item), e.g. ("posts", "*", "text"): stored in rows of
    # their own by the kernel (the engine always sees the texts themselves)
    TEXTS: ClassVar[tuple[tuple[str, ...], ...]] = ()
    HOST_ONLY: ClassVar[str] = "只有主持可以这样做。"  # a host's command from someone else (the game's word for host)
    NOT_A_PLAYER: ClassVar[str] = "你不是本局玩家，不能这样做。"  # a player's command from someone else

    def __init__(self, commands: tuple[CommandSpec, ...] = ()) -> None:
        self.commands = commands
        self.specs: dict[str, CommandSpec] = {s.name: s for s in commands}
        self._settings: dict[int, tuple[dict, Any]] = {}
        self._shared: dict[bytes, GameSettings] = {}  # typed settings by their stored form (_validated)

    # ---- settings --------------------------------------------------------------

    def check_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        """A host's overrides (possibly a whole variant loaded from TOML) over the defaults,
        validated: the full settings as the kernel stores them (plain JSON). Raise Rejected with
        one Chinese line per mistake."""
        if self.Settings is None:
            return dict(settings)
        if self.CONTENT is None:
            raise TypeError(f"{type(self).__name__}: name CONTENT, where the default settings are")
        return self.CONTENT.settings(self.Settings, settings).model_dump(mode="json", exclude_none=True)  # (TOML has no null)

    def create_options(self, words: str) -> dict[str, Any]:
        """The words after the game's name in /创建 (e.g. ``/创建 大逃杀 测试赛``) as settings overrides
        for ``check_settings``; the default takes none. Raise Rejected (the answer) for words it
        does not take."""
        if words.strip():
            raise Rejected(f"这个游戏开局不带选项，请只写游戏名（「{words.strip()[:20]}」不认识）。")
        return {}

    def settings_of(self, stored: dict[str, Any]) -> C:
        """The typed settings of a game's stored settings (the kernel's own keys left out), one
        object per stored dict: ``ctx.settings`` and the hooks' ``settings``. Games whose stored
        settings are equal (most games play the defaults) share one typed object, validated once:
        settings are read-only to rules."""
        hit = self._settings.get(id(stored))
        if hit is not None and hit[0] is stored:
            return hit[1]
        plain = engine_settings(stored)
        value: Any = plain if self.Settings is None else self._validated(
            self.Settings, {k: v for k, v in plain.items() if k != "timezone"})
        if len(self._settings) > 512:
            self._settings.clear()
        self._settings[id(stored)] = (stored, value)
        return value

    def _validated(self, model: type[GameSettings], plain: dict[str, Any]) -> GameSettings:
        """``plain`` as ``model``, one object for equal settings (at most 64 kept)."""
        try:
            key = orjson.dumps(plain, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
        except TypeError:  # not stored JSON (a test's values): an object of its own
            return model.model_validate(plain, strict=False)
        value = self._shared.get(key)
        if value is None:
            value = model.model_validate(plain, strict=False)
            if len(self._shared) >= 64:
                self._shared.clear()
            self._shared[key] = value
        return value

    # ---- state -----------------------------------------------------------------

    def decode(self, raw: JSON) -> S:
        """A stored state (plain JSON, texts in place) as this code's ``State``: brought up to
        date by ``upgrade`` when older; StateTooNew when newer; StateInvalid when it does not fit."""
        version = version_of(raw)
        if version > self.STATE_VERSION:
            raise StateTooNew(version, self.STATE_VERSION)
        if version < self.STATE_VERSION:
            raw = self.upgrade(raw)
        if self.State is None:
            return raw
        return from_plain(self.State, raw)  # type: ignore[return-value]

    def encode(self, state: S) -> JSON:
        """The state as stored (plain JSON), marked with ``STATE_VERSION``."""
        if isinstance(state, GameState):
            state.version = self.STATE_VERSION
            return to_plain(state)
        return stamped(self, state)

    def copy(self, state: S) -> S:
        """An independent copy of a state (what ``apply`` and ``deadline`` work on)."""
        return copied(state) if isinstance(state, GameState) else copy_state(state)

    def load(self, state: JSON) -> S:
        """A plain state brought up to date (``decode`` for an engine whose state is not yet typed)."""
        return self.decode(state)

    def upgrade(self, raw: JSON) -> JSON:
        """Bring a stored state written by older code (``raw["version"]`` below ``STATE_VERSION``,
        or missing) to today's shape, on the plain JSON before it is typed."""
        return raw

    # ---- required --------------------------------------------------------------

    def start(self, roster: list[Seat], ctx: Ctx[C]) -> Outcome[S]:
        """Deal roles etc. ``ctx.settings`` holds the game's settings."""
        raise NotImplementedError

    def on_deadline(self, state: S, key: str, ctx: Ctx[C]) -> list[Effect]:
        """A timer passed (``key`` is ``"phase"`` for the phase deadline): change ``state`` and
        return the effects."""
        return []

    def private_info(self, state: S, seat: int, *, settings: C) -> str:
        """What the player may always ask for again (/我的身份)."""
        return ""

    def status(self, state: S, *, settings: C) -> str:
        """A short public Chinese summary for /状态."""
        return ""

    def tables(self, state: S, *, settings: C) -> dict[str, list[list[Any]]]:
        """Sheets for /导出: name -> rows (first row is the header)."""
        return {}

    # ---- the kernel's commands -------------------------------------------------

    def kernel_out(self, state: S, actor: Actor, args: Any, ctx: Ctx[C]) -> list[Effect]:
        """A host's /出局 or a red card (``args``: SeatReason): answer with Eliminate (or raise Rejected)."""
        raise Rejected("这个游戏不支持让玩家出局。")

    def kernel_back(self, state: S, actor: Actor, args: Any, ctx: Ctx[C]) -> list[Effect]:
        """A host's /回场: answer with Restore (or raise Rejected)."""
        raise Rejected("这个游戏不支持让玩家回场。")

    # ---- around every rule -----------------------------------------------------

    def before(self, state: S, actor: Actor, name: str, args: Any, ctx: Ctx[C]) -> Any:
        """Checks and bookkeeping shared by every command, before its rule: raise
        Rejected/Ignored, or return the arguments (normalised)."""
        return args

    def after(self, state: S, effects: list[Effect], ctx: Ctx[C]) -> list[Effect]:
        """Every rule's and deadline's effects pass through here (e.g. a tag on group posts)."""
        return effects

    def unknown(self, name: str) -> list[Effect]:
        """A command name with no rule."""
        raise Rejected("未知命令，/帮助 查看可用命令。")

    # ---- dispatch (what the kernel and the pure tests call) --------------------

    def rule(self, name: str) -> Rule | None:
        if name == KERNEL_OUT:
            return self.kernel_out
        if name == KERNEL_BACK:
            return self.kernel_back
        spec = self.specs.get(name)
        return spec.rule if spec is not None else None

    def apply(self, state: S, actor: Actor, cmd: Command, ctx: Ctx[C]) -> Outcome[S]:
        """One command on a copy of ``state``, its table permission checked first."""
        spec = self.specs.get(cmd.name)
        if spec is not None and self.State is not None:  # (an engine not yet typed checks in ``before``)
            check_who(spec, actor, self)
        return run_rule(self, cmd.name, state, actor, cmd.args, ctx)

    def deadline(self, state: S, key: str, ctx: Ctx[C]) -> Outcome[S]:
        """A timer passed: ``on_deadline`` on a copy of ``state``."""
        st = self.copy(state)
        if not isinstance(st, GameState):
            st = self.decode(st)
        effects = self.after(st, self.on_deadline(st, key, ctx), ctx)
        return Outcome(st if isinstance(st, GameState) else stamped(self, st), effects)

    # ---- optional hooks --------------------------------------------------------

    def group_tag(self, state: S, *, settings: C) -> str:
        """A tag the kernel puts before every post of its own in the game's groups (e.g. royale's
        「【测试赛】」 while a test game runs); "" for none."""
        return ""

    def may_join(self, state: S, chat: str, seat: int | None, *, settings: C) -> bool | None:
        """Whether a join request to the game's group or a linked chat (e.g. a prison room) is
        approved; ``seat`` is None for someone not in the game; None leaves it to the group's admins."""
        return None

    def joined(self, state: S, chat: str, seat: int, *, settings: C) -> list[Effect]:
        """A player has joined one of the game's groups (QQ's group_increase notice): effects that
        need them inside, e.g. GroupAdmin(chat, "set_card", seat, "看守"). Only effects that change
        no state (Say, GroupAdmin, Picture)."""
        return []

    def reveal(self, state: S, *, settings: C) -> str:
        """Posted after a host ends the game early with the kernel's /结束 (e.g. every role and
        post); "" for nothing."""
        return ""

    def wipe(self, state: S, *, settings: C) -> S:
        """Called when a host ends the game with /结束, after ``reveal``: the state to keep (e.g.
        royale's 测试赛 deletes its records)."""
        return state

    def public_out(self, state: S) -> list[int] | None:
        """The seats publicly known to be out, or None: /名单 and /状态 then use the roster's flags
        (royale keeps night deaths secret until morning)."""
        return None

    def signup_view(self, settings: C, seats: list[int]) -> tuple[str, dict[int, str]] | None:
        """Before the start (no state yet): /名单 heads the list with ``summary`` and adds each
        seat's mark, and /状态 shows ``summary`` instead of the player counts (e.g. the league's
        正赛/替补); None for the plain list."""
        return None

    def may_change_alt(self, state: S) -> str | None:
        """Why a player may not change their 小号 now (/小号), or None."""
        return None

    def admits(self, hook: Literal["may_join", "joined"]) -> bool:
        """The game overrides the join hook ``hook`` (the kernel opens no transaction for a QQ join
        notice when both are left at their defaults)."""
        if hook == "may_join":
            return type(self).may_join is not GameEngine.may_join
        return type(self).joined is not GameEngine.joined


def kernel_args(engine: GameEngine, seat: int, reason: str) -> Any:
    """The arguments of ``kernel.out`` / ``kernel.back`` for ``engine``."""
    return SeatReason(seat=seat, reason=reason) if engine.State is not None else {"seat": seat, "reason": reason}


def stamped(engine: GameEngine, state: JSON) -> JSON:
    """A plain state marked with the shape this code writes."""
    if isinstance(state, dict):
        state[VERSION_KEY] = engine.STATE_VERSION
    return state


def run_rule(engine: GameEngine, name: str, state: Any, actor: Actor, args: Any, ctx: Ctx,
             *, copy: bool = True) -> Outcome:
    """One command: a copy of ``state``, ``before``, the rule, ``after``; the copy becomes the
    new state. With ``copy=False`` (the kernel's write path) the rule works on ``state`` itself:
    the caller must put the stored state back if the rule raises (it may have changed it before
    refusing)."""
    rule = engine.rule(name)
    st = engine.copy(state) if copy else state
    if not isinstance(st, GameState):  # a plain state: brought up to date by every command, as before
        st = engine.decode(st)
    args = engine.before(st, actor, name, args, ctx)
    effects = rule(st, actor, args, ctx) if rule is not None else engine.unknown(name)
    return Outcome(st if isinstance(st, GameState) else stamped(engine, st), engine.after(st, effects, ctx))
