"""Every message, the moment it arrives: a repeated delivery is dropped, an
arrival ticket and a fine receive time are taken; its text is cleaned once."""

from __future__ import annotations

from nonebot.adapters.onebot.v11 import GroupMessageEvent, MessageEvent
from nonebot.exception import IgnoredException
from nonebot.message import event_preprocessor
from nonebot.typing import T_State

from ..clean import clean_text, fold_alias
from ..order import stamp
from ..origin import Origin

_SEEN: dict[str, None] = {}


_SEEN_MAX = 20000


def _event_key(event: MessageEvent) -> str:
    peer = f"g{event.group_id}" if isinstance(event, GroupMessageEvent) else f"p{event.user_id}"
    return f"{event.self_id}:{peer}:{event.message_id}"


@event_preprocessor
async def _stamp(event: MessageEvent, state: T_State) -> None:
    """Runs first for every message, in arrival order: drop a repeat delivery,
    take an arrival ticket and a fine receive time."""
    key = _event_key(event)
    if key in _SEEN:
        raise IgnoredException("duplicate event")
    _SEEN[key] = None
    if len(_SEEN) > _SEEN_MAX:
        for k in list(_SEEN)[: _SEEN_MAX // 2]:
            del _SEEN[k]
    state["kernel_ticket"], state["kernel_recv"] = stamp()


def _text_of(event: MessageEvent) -> tuple[str, int]:
    """Message as text with @mentions as '@<qq>'; and the number of pictures."""
    parts: list[str] = []
    images = 0
    for seg in event.message:
        if seg.type == "text":
            parts.append(seg.data.get("text", ""))
        elif seg.type == "at":
            parts.append(f" @{seg.data.get('qq')} ")
        elif seg.type in ("image", "mface"):
            images += 1
    return clean_text("".join(parts)), images


def _origin(event: MessageEvent) -> Origin:
    name = ""
    if isinstance(event, GroupMessageEvent):
        name = fold_alias(clean_text(event.sender.card or event.sender.nickname or ""))[:32]
        return Origin(str(event.user_id), "group", str(event.group_id), str(event.self_id), str(event.message_id), name)
    return Origin(str(event.user_id), "private", None, str(event.self_id), str(event.message_id))

