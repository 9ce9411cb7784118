"""The contract between the kernel and a game's pure rules engine.

An engine does no I/O, reads no clock and uses no global random: every call
gets the state, the command, the time (``ctx.now``) and the game's own random
generator (``ctx.rng``, derived from the stored seed and the command's sequence
number), and returns an :class:`Outcome` with the new state and the effects to
apply. State is a JSON-compatible value (dicts, lists, str, int, float, bool,
None) that the engine owns; engines must not mutate the state they are given.

Replaying a game = calling ``start`` then ``apply``/``deadline`` again with the
logged commands, times and the same seed: the result is identical.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Protocol
from zoneinfo import ZoneInfo

JSON = Any


class Rejected(Exception):
    """A command the rules refuse. ``str(exc)`` is the Chinese reply to the sender.

    Raising it means nothing changed: the kernel rolls back and answers.
    """


class Ignored(Exception):
    """Not for this engine (e.g. plain chat text while no draft is open):
    the kernel says nothing and changes nothing."""


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


# ---- effects -------------------------------------------------------------

GROUP = "group"
HOSTS = "hosts"
REPLY = "reply"


@dataclass(frozen=True)
class Say:
    """A message to announce.

    ``to``: ``"group"`` (the game's group), ``"chat:<label>"`` (a linked group,
    see ``Ctx.chats``), ``"hosts"`` (every host, privately), ``"reply"`` (where
    the command came from) or a seat number (that player, privately).
    """

    to: str | int
    text: str


@dataclass(frozen=True)
class Eliminate:
    """The player is out (the kernel mirrors it on the roster)."""

    seat: int
    reason: str


@dataclass(frozen=True)
class Restore:
    """The player is back in the game."""

    seat: int
    reason: str


@dataclass(frozen=True)
class SetPhase:
    """Enter a phase. ``ends_at`` arms the phase deadline (timer key ``"phase"``);
    ``None`` leaves the phase open until a host advances it."""

    key: str
    label: str  # Chinese, shown by /状态
    ends_at: datetime | None = None


@dataclass(frozen=True)
class SetTimer:
    """Arm (or move) a named extra deadline. When it passes the kernel calls
    ``engine.deadline(state, key, ctx)`` exactly once."""

    key: str
    ends_at: datetime


@dataclass(frozen=True)
class CancelTimer:
    key: str


@dataclass(frozen=True)
class GiveCard:
    """A card given by the rules (e.g. prison's automatic yellow for inactivity).
    ``color`` is "blue", "yellow" or "red". If the cards add up to a red, the
    kernel then sends the engine ``kernel.out`` for that seat."""

    seat: int
    color: str
    reason: str  # the full reason: the player and the hosts see it
    public: str | None = None  # what the group sees, when the full reason would reveal a secret


@dataclass(frozen=True)
class Picture:
    """An image drawn by the game plugin's renderer ``name`` (``GameKind.renderers``)
    from the new state — engines stay pure, the plugin draws. Sent like ``Say``."""

    to: str | int
    name: str
    caption: str = ""


@dataclass(frozen=True)
class GroupAdmin:
    """Manage a QQ group where the bot is admin: ``chat`` is ``"group"`` (the game
    group) or a linked chat's label. ``action``: ``"mute_all"``, ``"unmute_all"``,
    ``"set_card"`` (``seat``'s group card to ``card``) or ``"kick"`` (``seat``)."""

    chat: str
    action: str
    seat: int | None = None
    card: str = ""


@dataclass(frozen=True)
class Rename:
    """Players' aliases (马甲) change together, e.g. to the characters won in prison's
    auction: ``aliases`` is ((seat, new alias), ...). The kernel renames its roster
    (/名单, player names in commands, its own messages); the resulting aliases must be
    unique in the game."""

    aliases: tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class Finish:
    """The game is over; ``summary`` is posted in the group (the reveal)."""

    summary: str


Effect = Say | Eliminate | Restore | SetPhase | SetTimer | CancelTimer | GiveCard | Picture | GroupAdmin | Rename | Finish

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


class Engine(Protocol):
    """What a game plugin registers with the kernel."""

    def check_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        """Merge ``settings`` (a host's overrides, possibly a whole variant
        loaded from TOML) over the defaults, validate, and return the full
        settings. Raise Rejected with one Chinese line per mistake."""

    def start(self, roster: list[Seat], ctx: Ctx) -> Outcome:
        """Deal roles etc. ``ctx.settings`` holds the game's settings."""

    def apply(self, state: JSON, actor: Actor, cmd: Command, ctx: Ctx) -> Outcome:
        """Apply one player or host command, or raise Rejected."""

    def deadline(self, state: JSON, key: str, ctx: Ctx) -> Outcome:
        """A timer passed (``key`` is ``"phase"`` for the phase deadline)."""

    def private_info(self, state: JSON, seat: int) -> str:
        """What the player may always ask for again (/我的身份)."""

    def status(self, state: JSON) -> str:
        """A short public Chinese summary for /状态."""

    def tables(self, state: JSON) -> dict[str, list[list[Any]]]:
        """Sheets for /导出: name -> rows (first row is the header)."""

    # Optional: ``may_join(state, chat, seat) -> bool | None`` — whether a join
    # request to the game's group or a linked chat (e.g. a prison room) is
    # approved; ``seat`` is None for someone not in the game; None leaves the
    # request to the group's admins (as does an engine without the method).
    #
    # Optional: ``joined(state, chat, seat) -> list[Effect]`` — a player has
    # joined one of the game's groups (QQ's group_increase notice): effects that
    # need them inside, e.g. GroupAdmin(chat, "set_card", seat, "看守").
    # Only effects that change no state (Say, GroupAdmin, Picture).
    #
    # Optional: ``reveal(state) -> str`` — posted after a host ends the game
    # early with the kernel's /结束 (e.g. every role and post); "" for nothing.
    #
    # Optional: ``signup_view(settings, seats) -> (summary, {seat: mark})`` — before the
    # start (no state yet), /名单 heads the list with ``summary`` and adds each seat's mark,
    # and /状态 shows ``summary`` instead of the player counts (e.g. the league's
    # "报名 130 人（正赛 120，替补 10）" and 正赛/替补).
    # Optional: ``wipe(state) -> state`` — called when a host ends the game with the
    # kernel's /结束, after ``reveal``: the state to keep (e.g. royale's 测试赛 deletes its
    # records); return the state unchanged to keep everything.
    #
    # Optional: ``public_out(state) -> list[int]`` — the seats publicly known to
    # be out. When an engine has it, /名单 and /状态 show that instead of the
    # roster's flags (e.g. royale keeps night deaths secret until morning).


# ---- commands as data ------------------------------------------------------
#
# Declarative command tables.
#
# A game lists its commands as :class:`CommandSpec` rows; the kernel's one
# router (``routing/router.py``) finds the row for a command word, parses the
# arguments (resolving player names to seat numbers against the game's roster),
# checks who/where, and hands the engine a :class:`Command` with ``name`` and
# ``args``. No matcher per command.
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
