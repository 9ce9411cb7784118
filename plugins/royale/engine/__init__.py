"""Royale (大逃杀) pure engine: ``ENGINE`` and its ``COMMANDS`` table."""

from .commands import COMMANDS
from .engine import ENGINE, RoyaleEngine, act
from .rules_night import ACTIONS

__all__ = ["ACTIONS", "COMMANDS", "ENGINE", "RoyaleEngine", "act"]
