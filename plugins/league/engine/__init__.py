"""狼人杀城市联赛 online stage: pure engine (no I/O)."""

from .commands import COMMANDS
from .content import Settings
from .engine import ENGINE, LeagueEngine
from .state import State
from .views import standings_rows

__all__ = ["COMMANDS", "ENGINE", "LeagueEngine", "Settings", "State", "standings_rows"]
