"""The effects an engine returns (re-exported by :mod:`.contract`, where games
import them): what to say, who goes out or comes back, phases and timers,
cards, pictures, group administration, renames and the end."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

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

