"""Where a command came from, and answering there."""

from __future__ import annotations

from dataclasses import dataclass, field

from plugins.gamekit.contract import Ignored

from .delivery import commit_at_once
from .directory import directory
from .order import utcnow
from .outbox import collected, enqueue
from .registry import get_kind
from .sending import wake_outbox


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


async def reply(origin: Origin, text: str, *, game_id: int | None = None) -> None:
    """Answer where the command came from (through the queue, high priority)."""
    try:
        with collected() as rows:
            await _reply_rows(origin, text, game_id)
        await commit_at_once(utcnow(), [], rows)
    except Ignored:
        return  # already answered (a repeated delivery)
    wake_outbox()


def secret_aliases(game_id: int | None) -> bool:
    """The game keeps aliases secret: nothing in a group may join a QQ account to a seat or alias."""
    kind = get_kind(directory.kind.get(game_id, "")) if game_id is not None else None
    return bool(kind and kind.private_signup)


def _reply_target(origin: Origin | None, secret: bool = False) -> tuple[str, str, str] | None:
    """(type, target, prefix) of an answer to where a command came from; None
    when it came from no chat (a timer, the kernel). Group answers name the
    sender, except in a game with secret aliases."""
    if origin is not None and origin.source == "group" and origin.group_id:
        return "group", origin.group_id, f"{origin.name}：" if origin.name and not secret else ""
    if origin is not None and origin.source in ("private", "web"):  # a page's picture answer goes to private chat
        return "private", origin.user_id, ""
    return None


async def _reply_rows(origin: Origin, text: str, game_id: int | None) -> None:
    target = _reply_target(origin, secret_aliases(game_id))
    if target is not None:
        kind, to, prefix = target
        await enqueue(kind, to, prefix + text, game_id=game_id, self_id=origin.self_id, priority=0)

