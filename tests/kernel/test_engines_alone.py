"""Every engine (and the gamekit it imports) runs without NoneBot, Tortoise or a database: each
game's ``short_game.play()`` runs in a fresh interpreter where those packages cannot be imported."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BLOCKED = ("nonebot", "tortoise", "aiosqlite", "asyncpg", "fastapi", "uvicorn", "apscheduler", "pypika")
SHORT_GAMES = {"demo": (ROOT / "tests" / "fixtures", "demo_game.short_game")} | {
    game: (ROOT / "tests" / game, "short_game") for game in ("mafia88", "prison", "royale", "league")}
"""game -> (a folder put on sys.path, the module with its ``play()``)."""

SCRIPT = """
import importlib, sys
for name in {blocked!r}:
    sys.modules[name] = None  # importing it raises ImportError
sys.path[:0] = [{root!r}, {folder!r}]
print(importlib.import_module({module!r}).play())
loaded = sorted(m for m in sys.modules if m.split(".")[0] in {blocked!r} and sys.modules[m] is not None)
assert not loaded, loaded
"""


@pytest.mark.parametrize("game", sorted(SHORT_GAMES))
def test_the_engine_plays_a_short_game_without_the_bot(game):
    folder, module = SHORT_GAMES[game]
    script = SCRIPT.format(blocked=BLOCKED, root=str(ROOT), folder=str(folder), module=module)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip(), "the short game said nothing"
