"""The Prison Game (囚犯游戏) pure rules engine."""

from .commands import COMMANDS
from .effects import GiveCard, GroupAdmin
from .engine import ENGINE, PrisonEngine

__all__ = ["COMMANDS", "ENGINE", "GiveCard", "GroupAdmin", "PrisonEngine"]
