"""The contract between the kernel and a game's pure rules engine.

An engine does no I/O, reads no clock and uses no global random: every call
gets the state, the command, the time (``ctx.now``) and the game's own random
generator (``ctx.rng``, derived from the stored seed and the command's sequence
number). A game subclasses :class:`GameEngine`; each :class:`CommandSpec` names
its rule function, which changes the state it is given (a copy, or the kernel's
held state, put back by the kernel when the rule raises) and returns the effects
to apply. State is a JSON-compatible dict (dicts, lists, str, int, float, bool,
None) that the engine owns, with its shape's version under ``"version"``.

Replaying a game = calling ``start`` then ``apply``/``deadline`` again with the
logged commands, times and the same seed: the result is identical. Read-only
commands (``CommandSpec(query=True)``) are not logged: they change nothing.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar, Literal
from zoneinfo import ZoneInfo

from .outcomes import (  # the effects, re-exported: games import them from here
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

JSON = Any
Settings = dict[str, Any]
"""A game's settings as its engine checked them (``check_settings``): ``ctx.settings`` in a
command, and the ``settings`` keyword of the read-only hooks that get no ``Ctx``
(``private_info``, ``status``, ``tables``, ``reveal``, ``may_join``, ``joined``), which the
kernel always passes (None only from a caller that has none, e.g. an older test). Never
changed by an engine: one dict is shared by the commands of a game."""

__all__ = [
    "GROUP", "HOSTS", "JSON", "KERNEL_BACK", "KERNEL_OUT", "PHASE_TIMER", "REPLY", "Actor", "ArgSpec", "CancelTimer",
    "Command", "CommandSpec", "Ctx", "Effect", "Eliminate", "Finish", "GameEngine", "GiveCard", "GroupAdmin",
    "Ignored", "Outcome", "Picture", "Rejected", "Rename", "Restore", "Rule", "Say", "Seat", "SetPhase", "SetTimer", "Settings",
    "Timer", "copy_state", "run_rule", "stamped",
]


class Rejected(Exception):
    """A command the rules refuse. ``str(exc)`` is the Chinese reply to the sender.

    Raising it means nothing changed: the kernel rolls back and answers.
    """


class Ignored(Exception):
    """Not for this engine (e.g. plain chat while no draft is open): the kernel says and changes nothing."""


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
class Ctx:
    now: datetime  # aware (UTC); finer than a second
    rng: random.Random
    seq: int  # this command's arrival number in the game
    tz: ZoneInfo  # the game's clock zone (Asia/Shanghai by default)
    settings: dict[str, Any]
    phase: Timer | None = None  # the current phase deadline, if any
    timers: tuple[Timer, ...] = ()  # every armed timer of the game
    chats: tuple[str, ...] = ()  # labels of the QQ groups linked to the game (/绑定群)


@dataclass(frozen=True)
class Command:
    name: str
    args: dict[str, Any] = field(default_factory=dict)


PHASE_TIMER = "phase"


@dataclass
class Outcome:
    state: JSON
    effects: list[Effect] = field(default_factory=list)


# Commands the kernel itself sends to every engine through ``apply``:
#   Command("kernel.out", {"seat": n, "reason": str})   host or red card puts a player out
#   Command("kernel.back", {"seat": n, "reason": str})  host puts a player back
# An engine answers them with Eliminate / Restore (or Rejected).
KERNEL_OUT = "kernel.out"
KERNEL_BACK = "kernel.back"


Rule = Callable[[JSON, Actor, dict[str, Any], Ctx], list[Effect]]
"""A game's rule for one command: ``rule(state, actor, args, ctx) -> effects``. It
mutates the state it is given and raises Rejected (nothing is kept) or Ignored
before or after changing it (the kernel puts the stored state back)."""

VERSION_KEY = "version"  # the state dict's key holding the version of its shape


def copy_state(state: JSON) -> JSON:
    """The single copy of a stored state that one command works on: a pickle round
    trip (a plain, exact copy like ``copy.deepcopy``). Measured per copy (ms):

        state                         deepcopy   JSON round trip   pickle round trip
        mafia88, 88 players, round 1    1.22        1.05              0.43
        royale, 60 players, the end     2.35        1.73              0.64
        league, 130 players, the end   17.3        14.8               5.0

    The JSON round trip beats ``deepcopy`` but would have made the league (which
    copied by pickle) and royale (its own recursive copy) slower than before."""
    return pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))


class GameEngine:
    """What a game plugin registers with the kernel: subclass it, list the commands
    (each :class:`CommandSpec` names its ``rule``), implement ``start`` and
    ``on_deadline``, and override the optional hooks whose defaults do not fit.

    For a command the kernel brings an older shape up to date (``upgrade``), runs
    ``before``, the rule and ``after`` on the state it holds (``apply`` works on one
    copy, :func:`copy_state`), and keeps the result as the new state.
    """

    STATE_VERSION: ClassVar[int] = 1  # the shape of the state this code writes
    # where the state keeps texts ("*": every item), e.g. ("posts", "*", "text"): stored in rows of their own (longtexts.py)
    TEXTS: ClassVar[tuple[tuple[str, ...], ...]] = ()

    def __init__(self, commands: tuple[CommandSpec, ...] = ()) -> None:
        self.commands = commands
        self._rules: dict[str, Rule] = {s.name: s.rule for s in commands if s.rule is not None}

    # ---- required --------------------------------------------------------------

    def check_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        """Merge ``settings`` (a host's overrides, possibly a whole variant
        loaded from TOML) over the defaults, validate, and return the full
        settings. Raise Rejected with one Chinese line per mistake."""
        return dict(settings)

    def start(self, roster: list[Seat], ctx: Ctx) -> Outcome:
        """Deal roles etc. ``ctx.settings`` holds the game's settings."""
        raise NotImplementedError

    def on_deadline(self, state: JSON, key: str, ctx: Ctx) -> list[Effect]:
        """A timer passed (``key`` is ``"phase"`` for the phase deadline): change
        ``state`` (already the copy) and return the effects."""
        return []

    def private_info(self, state: JSON, seat: int, *, settings: Settings | None = None) -> str:
        """What the player may always ask for again (/我的身份). ``settings``: the
        game's settings as in ``ctx.settings`` (the kernel always passes them)."""
        return ""

    def status(self, state: JSON, *, settings: Settings | None = None) -> str:
        """A short public Chinese summary for /状态 (``settings`` as in ``private_info``)."""
        return ""

    def tables(self, state: JSON, *, settings: Settings | None = None) -> dict[str, list[list[Any]]]:
        """Sheets for /导出: name -> rows (first row is the header); ``settings`` as in ``private_info``."""
        return {}

    # ---- the kernel's commands -------------------------------------------------

    def kernel_out(self, state: JSON, actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Effect]:
        """``kernel.out`` (host's /出局 or a red card): ``args`` = {"seat", "reason"};
        answer with Eliminate (or raise Rejected)."""
        raise Rejected("这个游戏不支持让玩家出局。")

    def kernel_back(self, state: JSON, actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Effect]:
        """``kernel.back`` (host's /回场): answer with Restore (or raise Rejected)."""
        raise Rejected("这个游戏不支持让玩家回场。")

    # ---- around every rule -----------------------------------------------------

    def before(self, state: JSON, actor: Actor, name: str, args: dict[str, Any], ctx: Ctx) -> dict[str, Any]:
        """Checks and bookkeeping shared by every command, on the copy, before its
        rule: raise Rejected/Ignored, or return the arguments (normalised)."""
        return args

    def after(self, state: JSON, effects: list[Effect], ctx: Ctx) -> list[Effect]:
        """Every rule's and deadline's effects pass through here (e.g. a tag on group posts)."""
        return effects

    def unknown(self, name: str) -> list[Effect]:
        """A command name with no rule."""
        raise Rejected("未知命令，/帮助 查看可用命令。")

    # ---- state versions --------------------------------------------------------

    def group_tag(self, state: JSON, *, settings: Settings | None = None) -> str:
        """A tag the kernel puts before every post of its own in the game's groups
        (e.g. royale's 「【测试赛】」 while a test game runs); "" for none."""
        return ""

    def upgrade(self, state: JSON) -> JSON:
        """Bring a stored state written by older code (``state["version"]`` below
        ``STATE_VERSION``, or missing) to today's shape; called on the copy."""
        return state

    def load(self, state: JSON) -> JSON:
        """The copy of a stored state, upgraded when older; Rejected when newer."""
        version = state_version(state)
        if version > self.STATE_VERSION:
            raise Rejected(newer_state_text(version, self.STATE_VERSION))
        if version < self.STATE_VERSION:
            state = self.upgrade(state)
        return state

    # ---- dispatch (what the kernel and the pure tests call) --------------------

    def rule(self, name: str) -> Rule | None:
        if name == KERNEL_OUT:
            return self.kernel_out
        if name == KERNEL_BACK:
            return self.kernel_back
        return self._rules.get(name)

    def apply(self, state: JSON, actor: Actor, cmd: Command, ctx: Ctx) -> Outcome:
        """One command: the rule its spec names, on the single copy of ``state``."""
        return run_rule(self, cmd.name, state, actor, cmd.args, ctx)

    def deadline(self, state: JSON, key: str, ctx: Ctx) -> Outcome:
        """A timer passed: ``on_deadline`` on the single copy of ``state``."""
        st = self.load(copy_state(state))
        effects = self.after(st, self.on_deadline(st, key, ctx), ctx)
        return Outcome(stamped(self, st), effects)

    # ---- optional hooks --------------------------------------------------------

    def may_join(self, state: JSON, chat: str, seat: int | None, *, settings: Settings | None = None) -> bool | None:
        """Whether a join request to the game's group or a linked chat (e.g. a
        prison room) is approved; ``seat`` is None for someone not in the game;
        None leaves the request to the group's admins."""
        return None

    def joined(self, state: JSON, chat: str, seat: int, *, settings: Settings | None = None) -> list[Effect]:
        """A player has joined one of the game's groups (QQ's group_increase
        notice): effects that need them inside, e.g. GroupAdmin(chat, "set_card",
        seat, "看守"). Only effects that change no state (Say, GroupAdmin, Picture)."""
        return []

    def reveal(self, state: JSON, *, settings: Settings | None = None) -> str:
        """Posted after a host ends the game early with the kernel's /结束 (e.g.
        every role and post); "" for nothing."""
        return ""

    def wipe(self, state: JSON, *, settings: Settings | None = None) -> JSON:
        """Called when a host ends the game with /结束, after ``reveal``: the state
        to keep (e.g. royale's 测试赛 deletes its records)."""
        return state

    def public_out(self, state: JSON) -> list[int] | None:
        """The seats publicly known to be out, or None: /名单 and /状态 then use
        the roster's flags (royale keeps night deaths secret until morning)."""
        return None

    def signup_view(self, settings: dict[str, Any], seats: list[int]) -> tuple[str, dict[int, str]] | None:
        """Before the start (no state yet): /名单 heads the list with ``summary``
        and adds each seat's mark, and /状态 shows ``summary`` instead of the
        player counts (e.g. the league's 正赛/替补); None for the plain list."""
        return None

    def may_change_alt(self, state: JSON) -> str | None:
        """Why a player may not change their 小号 now (/小号), or None."""
        return None

    def admits(self, hook: Literal["may_join", "joined"]) -> bool:
        """The game overrides the join hook ``hook`` (the kernel opens no transaction
        for a QQ join notice when both are left at their defaults)."""
        if hook == "may_join":
            return type(self).may_join is not GameEngine.may_join
        return type(self).joined is not GameEngine.joined


def state_version(state: JSON) -> int:
    v = state.get(VERSION_KEY, 0) if isinstance(state, dict) else 0
    return v if isinstance(v, int) else 0


def newer_state_text(found: int, known: int) -> str:
    return (f"这局游戏的数据由更新版本的机器人写入（数据版本 {found}，本机只认到 {known}），"
            "为免损坏没有读取，这次没有生效。请管理员升级机器人后再试。")


def stamped(engine: GameEngine, state: JSON) -> JSON:
    """The state marked with the shape this code writes."""
    if isinstance(state, dict):
        state[VERSION_KEY] = engine.STATE_VERSION
    return state


def run_rule(engine: GameEngine, name: str, state: JSON, actor: Actor, args: dict[str, Any], ctx: Ctx,
             *, copy: bool = True) -> Outcome:
    """One command: the single copy of ``state`` (upgraded if older), ``before``,
    the rule, ``after``; the copy becomes the new state. With ``copy=False`` (the
    kernel's write path) the rule works on ``state`` itself: the caller must put the
    stored state back if the rule raises (it may have changed it before refusing)."""
    rule = engine.rule(name)
    st = engine.load(copy_state(state) if copy else state)
    args = engine.before(st, actor, name, args, ctx)
    effects = rule(st, actor, args, ctx) if rule is not None else engine.unknown(name)
    return Outcome(stamped(engine, st), engine.after(st, effects, ctx))


# ---- commands as data ------------------------------------------------------
#
# Declarative command tables.
#
# A game lists its commands as :class:`CommandSpec` rows; the kernel's one
# router (``routing/router.py``) finds the row for a command word, parses the
# arguments (resolving player names to seat numbers against the game's roster),
# checks who/where, and runs the row's ``rule`` on the kernel's single copy of the
# state (``run_rule``), with ``name`` and ``args``. No matcher per command, no
# dispatch in the game. A row with ``query=True`` is read-only: the kernel answers
# it outside the write transaction, does not log it, never writes the game, and
# its rule may return only Say and Picture effects.
#
# Argument kinds:
#   ``player``  one player: seat number, alias or @mention -> ``int`` seat
#   ``players`` one or more players (rest of the tokens)   -> ``list[int]``
#   ``int``     a whole number                             -> ``int``
#   ``word``    one token                                  -> ``str``
#   ``text``    the rest of the message, newlines kept     -> ``str``
# Optional arguments that are absent are simply missing from ``args``.
#
# A spec with ``words=()`` is the *plain-text* route: every message from a
# player of the game that is not a command — private text for a spec with
# ``where="private"``, chat in the game group for ``where="group"`` — reaches
# the engine as ``Command(name, {"text": ..., "images": n})``; the engine raises
# ``Ignored`` when it has no use for it (the kernel then stays silent).

ArgKind = Literal["player", "players", "int", "word", "text"]
Where = Literal["any", "group", "private"]
Who = Literal["player", "host", "anyone"]


@dataclass(frozen=True)
class ArgSpec:
    name: str
    kind: ArgKind
    optional: bool = False
    max_count: int | None = None  # for "players"


@dataclass(frozen=True)
class CommandSpec:
    words: tuple[str, ...]  # Chinese command words, first is the canonical one: ("投票",)
    name: str  # engine command name: "vote"
    args: tuple[ArgSpec, ...] = ()
    where: Where = "any"
    who: Who = "player"
    alive_only: bool = True  # refuse players who are out
    usage: str = ""  # e.g. "/投票 <玩家> [<玩家>]"
    help: str = ""  # one short Chinese line for /帮助
    max_chars: int | None = None  # longest accepted text (None: the kernel's cap for the asker)
    extra: dict = field(default_factory=dict)  # {"audit": True}: the kernel writes each use to the audit log
    rule: Rule | None = field(default=None, compare=False)  # the game's rule function (see GameEngine)
    query: bool = False  # read-only: not logged, state not written, answered outside the write transaction
