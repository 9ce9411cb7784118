"""Royale (大逃杀) pure engine: ``ENGINE``, its ``COMMANDS`` table, its ``State`` and ``Settings``."""

from .commands import COMMANDS
from .content import Settings
from .engine import ENGINE, RoyaleEngine, act
from .rules_night import ACTIONS
from .state import State

__all__ = ["ACTIONS", "COMMANDS", "ENGINE", "RoyaleEngine", "Settings", "State", "act"]
