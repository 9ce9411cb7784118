"""Every message, the moment it arrives: a repeated delivery is dropped, an arrival ticket
and a fine receive time are taken; its text is cleaned once. A message for a game another
process serves goes no further: that process answers, and this one keeps it for a while in
case it has to take the game over (``kept.py``).

A message admitted through the lanes (``admission.py``) arrives there, before NoneBot parses
it, and carries its arrival in its own data (``ARRIVAL_FIELD``); any other (an in-process
test's, another adapter's) arrives when the router reads it. Not a NoneBot event preprocessor:
NoneBot runs each one, and solves and checks each of its parameters, in tasks of their own."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from nonebot import get_driver
from nonebot.adapters.onebot.v11 import GroupMessageEvent, MessageEvent

from ..clean import clean_text, fold_alias
from ..directory import directory
from ..leases import leases
from ..models import Delivery
from ..order import stamp
from ..origin import Origin
from ..parse import split_command
from .kept import Arrival, keep

NAMES_ITS_GAME = frozenset({"报名"})
"""Private kernel commands that name the group of the game they act on (/报名 <群号> <马甲>): not
the sender's own game (which another process may serve) but the named one decides who answers."""

ROUTING_WORDS = frozenset({"创建", "报名", "退出报名", "小号", "切换", "加主持", "结束", "绑定群", "解绑群"})
"""Kernel commands that change where later messages go: they run inside the routing step."""

_SEEN: dict[str, None] = {}


_SEEN_MAX = 20000


ARRIVAL_FIELD = "kernel_arrival"
"""A message admitted through the lanes carries its arrival under this extra field of its event."""


def delivery_key(data: dict[str, Any]) -> str:
    """What tells a repeated delivery of a message event (its JSON) from another message."""
    peer = f"g{data.get('group_id')}" if data.get("message_type") == "group" else f"p{data.get('user_id')}"
    return f"{data.get('self_id')}:{peer}:{data.get('message_id')}"


def arrive(key: str) -> Arrival | None:
    """A message as it arrives: None for a repeated delivery (drop it), else its arrival."""
    if key in _SEEN:
        return None
    _SEEN[key] = None
    if len(_SEEN) > _SEEN_MAX:
        for k in list(_SEEN)[: _SEEN_MAX // 2]:
            del _SEEN[k]
    return stamp()


async def recall_delivered(since: datetime) -> None:
    """At start-up: the messages acted on since ``since`` count as seen — an implementation may
    deliver one again after a restart, and it is dropped here, before any rule runs on it (a
    game's next command may already go on from a rule's outcome, inflight.py)."""
    keys = await Delivery.filter(at__gte=since).order_by("-at").limit(_SEEN_MAX // 2).values_list("key", flat=True)
    for key in reversed(keys):
        _SEEN[str(key)] = None


def arrival_of(event: MessageEvent) -> Arrival | None:
    """The arrival of the message being routed, taken now if it was not admitted through the
    lanes; None: go no further (a repeated delivery, or a game another process serves: kept)."""
    if str(event.user_id) == str(event.self_id):
        return None  # the bot's own message (own_message)
    arrival: Arrival | None = getattr(event, ARRIVAL_FIELD, None)
    if arrival is None:
        arrival = arrive(delivery_key(vars(event)))  # the event's fields, named as in its JSON
    if arrival is None:
        return None
    game_id = _served_elsewhere(event) if leases.shared else None  # (learnt since it was admitted)
    if game_id is not None:
        keep(game_id, arrival, str(event.self_id), event)
        return None
    return arrival


def _served_elsewhere(event: MessageEvent) -> int | None:
    """The game another process serves the message goes to (known from an earlier event): with
    several processes every event reaches each of them, and this one would only find it out after
    NoneBot's matchers. A command that changes routing or names its game goes the usual way."""
    group = event.group_id if isinstance(event, GroupMessageEvent) else None
    game_id = directory.message_game(None if group is None else str(group), str(event.user_id))
    if not isinstance(game_id, int) or not leases.theirs(game_id):
        return None
    parsed = split_command(text_of(event)[0], command_starts())
    return game_id if parsed is None or parsed.word not in ROUTING_WORDS else None


def command_starts() -> tuple[str, ...]:
    """NoneBot's COMMAND_START (default "/"), plus the fullwidth "／" when "/" is one;
    an empty prefix is ignored (it would make every message a command)."""
    starts = [s for s in get_driver().config.command_start if s] or ["/"]
    if "/" in starts:
        starts.append("／")
    return tuple(sorted(set(starts), key=len, reverse=True))


def text_of(event: MessageEvent) -> tuple[str, int]:
    """Message as text with @mentions as '@<qq>'; and the number of pictures. What QQ puts before
    the words is left out: a reply (answering the bot's vote post), the @ of the replied-to sender
    QQ adds after it, an @ of the bot — so a command after them is still a command."""
    parts: list[str] = []
    images = 0
    leading, after_reply = True, False
    for seg in event.message:
        if seg.type == "reply":
            after_reply = True
            continue
        if seg.type == "at" and leading and (after_reply or str(seg.data.get("qq")) == str(event.self_id)):
            after_reply = False
            continue
        if seg.type == "text":
            parts.append(seg.data.get("text", ""))
        elif seg.type == "at":
            parts.append(f" @{seg.data.get('qq')} ")
        elif seg.type in ("image", "mface"):
            images += 1
        leading = leading and seg.type == "text" and not str(seg.data.get("text", "")).strip()
    return clean_text("".join(parts)), images


def own_message(data: dict[str, Any]) -> bool:
    """The bot's own message echoed back (NapCat's ``message_sent``, or a ``message`` from the bot's
    own account): never answered, so never a loop."""
    return data.get("post_type") == "message_sent" or (
        data.get("post_type") == "message" and str(data.get("user_id")) == str(data.get("self_id")))


def origin_of(event: MessageEvent) -> Origin:
    name = ""
    if isinstance(event, GroupMessageEvent):
        name = fold_alias(clean_text(event.sender.card or event.sender.nickname or ""))[:32]
        return Origin(str(event.user_id), "group", str(event.group_id), str(event.self_id), str(event.message_id), name)
    return Origin(str(event.user_id), "private", None, str(event.self_id), str(event.message_id))

