"""Effects. ``GiveCard`` is in the kernel contract; the room effects are proposals the kernel
does not handle yet, so they are only emitted when ``EMIT_ROOM_EFFECTS`` is switched on."""

from __future__ import annotations

from dataclasses import dataclass

from plugins.kernel.engine import GiveCard

EMIT_ROOM_EFFECTS = False  # flip when the kernel applies OpenRooms / CloseRooms

__all__ = ["EMIT_ROOM_EFFECTS", "CloseRooms", "GiveCard", "OpenRooms"]


@dataclass(frozen=True)
class OpenRooms:
    """Group-room mode: tonight's rooms. ``rooms``: (group id, guard seat, prisoner seat).
    The kernel lets only these two join, sets cards to 看守/囚犯 and unmutes."""

    night: int
    rooms: tuple[tuple[str, int, int], ...]


@dataclass(frozen=True)
class CloseRooms:
    """Group-room mode: the window closed; mute, post "墙壁升起了", clear occupants."""

    night: int
