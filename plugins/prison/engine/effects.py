"""Effects used by the prison engine: all of them are the kernel's own.

Group-room mode uses ``GroupAdmin`` (set cards, mute/unmute, kick) and ``Say("chat:<label>")``;
the earlier private ``OpenRooms`` / ``CloseRooms`` proposals are gone."""

from __future__ import annotations

from plugins.gamekit.contract import GiveCard, GroupAdmin

__all__ = ["GiveCard", "GroupAdmin"]
