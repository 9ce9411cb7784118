"""The Prison Game (囚犯游戏) pure rules engine."""

from .commands import COMMANDS
from .effects import CloseRooms, GiveCard, OpenRooms
from .engine import ENGINE, PrisonEngine

__all__ = ["COMMANDS", "ENGINE", "CloseRooms", "GiveCard", "OpenRooms", "PrisonEngine"]
