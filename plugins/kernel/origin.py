"""Where a command came from (``Origin``) and the one thing being handled (``Handling``): a
message, a deadline or a web page's action, passed explicitly from the router to the unit of
work that writes what it causes."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from .directory import directory
from .order import Turn
from .registry import get_kind


@dataclass(frozen=True)
class Origin:
    user_id: str
    source: str  # group|private|timer|kernel|web
    group_id: str | None = None
    self_id: str = ""
    message_id: str | None = None
    name: str = ""  # the sender's nickname, to address group replies
    # a web page's command: the engine's text answers ("reply") are collected here for the page
    captured: list[str] | None = field(default=None, compare=False, hash=False)

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


@dataclass
class Handling:
    """One message (or deadline, or page action) being handled. Its delivery key goes with the
    first write of what it causes, in the same transaction (``claim``), so a repeated delivery
    changes nothing; ``turn`` is the place in its game's arrival order it holds, if any."""

    origin: Origin
    now: datetime
    key: str | None = None  # the message's delivery key (None: not a QQ message)
    claimed: bool = False  # a write of this handling recorded the key
    turn: Turn | None = None

    @classmethod
    def of(cls, origin: Origin, now: datetime, turn: Turn | None = None) -> Handling:
        return cls(origin, now, origin.dedup_key, turn=turn)

    def claim(self) -> str | None:
        """The key for the next write, unless an earlier write of this handling recorded it."""
        return None if self.claimed else self.key


class Handled:
    """Something that carries a handling (a command's call, a unit of work): its origin and time at hand."""

    handling: Handling

    @property
    def origin(self) -> Origin:
        return self.handling.origin

    @property
    def now(self) -> datetime:
        return self.handling.now


def secret_aliases(game_id: int | None) -> bool:
    """The game keeps aliases secret: nothing in a group may join a QQ account to a seat or alias."""
    kind = get_kind(directory.kind.get(game_id, "")) if game_id is not None else None
    return bool(kind and kind.private_signup)


def reply_target(origin: Origin | None, secret: bool = False) -> tuple[str, str, str] | None:
    """(type, target, prefix) of an answer to where a command came from; None when it came from
    no chat (a timer, the kernel). Group answers name the sender, except in a game with secret aliases."""
    if origin is not None and origin.source == "group" and origin.group_id:
        return "group", origin.group_id, f"{origin.name}：" if origin.name and not secret else ""
    if origin is not None and origin.source in ("private", "web"):  # a page's picture answer goes to private chat
        return "private", origin.user_id, ""
    return None
