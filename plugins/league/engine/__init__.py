"""狼人杀城市联赛 online stage: pure engine (no I/O)."""

from .commands import COMMANDS
from .engine import ENGINE, LeagueEngine, standings_rows

__all__ = ["COMMANDS", "ENGINE", "LeagueEngine", "standings_rows"]
