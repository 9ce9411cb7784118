"""mafia88: the pure engine of the 88-player forum game (风云版杀)."""

from .commands import COMMANDS
from .engine import ENGINE, Mafia88Engine

__all__ = ["COMMANDS", "ENGINE", "Mafia88Engine"]
