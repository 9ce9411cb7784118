"""Test set-up.

NoneBot is initialised and every plugin loaded when this file is imported (before
collection), so pure engine modules under ``plugins/`` can be imported at the
top of test files. nonebug's own init fixture is overridden so it does not
initialise NoneBot a second time; its lifespan fixture then runs the startup
hooks (database, scheduler, outbound queue) on the session event loop.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

_TMP = Path(tempfile.mkdtemp(prefix="qqgames-test-"))

if os.environ.get("TEST_POSTGRES") == "1" and "DATABASE_URL" not in os.environ:
    # ``make test-postgres``: the run's own PostgreSQL database, created now and dropped when the
    # run ends; tests of SQLite's own connection skip (``harness.sqlite_only``)
    import asyncio
    import atexit

    sys.path.insert(0, str(ROOT / "tests" / "fixtures"))
    from fake_onebot import PostgresDatabase

    _suite_db = PostgresDatabase("suite")
    os.environ["DATABASE_URL"] = asyncio.run(_suite_db.__aenter__())
    atexit.register(lambda: asyncio.run(_suite_db.__aexit__()))

os.environ.setdefault("DATABASE_URL", f"sqlite://{_TMP / 'test.sqlite3'}")
os.environ.setdefault("DATA_DIR", str(_TMP))


def _init_nonebot() -> None:
    import nonebot
    from nonebot.adapters.onebot.v11 import Adapter

    nonebot.init(
        driver="~fastapi",
        superusers={"10000"},
        command_start={"/"},
        command_sep={" "},
        database_url=os.environ["DATABASE_URL"],
        data_dir=os.environ["DATA_DIR"],
        send_interval=1.5,
        send_jitter=0.3,
        log_level="WARNING",
    )
    nonebot.get_driver().register_adapter(Adapter)
    nonebot.load_from_toml(str(ROOT / "pyproject.toml"))
    sys.path.insert(0, str(ROOT / "tests" / "fixtures"))
    nonebot.load_plugin("demo_game")


# At import, not in pytest_configure: pytest imports the conftest files of the
# given paths before it configures, and theirs may import plugin modules.
_init_nonebot()
# Test helper modules (tests/<game>/helpers_<game>.py) are imported by name.
for _sub in sorted((ROOT / "tests").iterdir()):
    if _sub.is_dir() and _sub.name not in ("fixtures", "__pycache__"):
        sys.path.append(str(_sub))


@pytest.fixture(scope="session", autouse=True)
def _nonebot_init() -> None:
    """Replaces nonebug's: NoneBot is already initialised above."""
    from nonebot.matcher import matchers
    from nonebug.provider import NoneBugProvider

    matchers.set_provider(NoneBugProvider)


@pytest.fixture(scope="session", autouse=True)
async def _quiet_outbox(nonebug_init: None):
    """Tests drain the queue themselves on a virtual clock, and fire deadlines
    themselves: the scheduler is paused so no wall-clock deadline (21:00 …)
    fires in the middle of a test."""
    from nonebot_plugin_apscheduler import scheduler

    from plugins.kernel import worker

    await worker.stop()
    scheduler.pause()
    yield


@pytest.fixture
async def harness(nonebug_init: None):
    from harness import Harness

    from plugins.kernel.models import Game, Outbox
    from plugins.kernel.directory import directory

    await Outbox.filter(status="pending").update(status="sent")
    from plugins.kernel.held import forget

    await Game.filter(status__in=("signup", "running", "paused")).update(status="ended", live_group=None)
    forget()  # the games held in memory were ended behind the bot's back
    await directory.load()
    return Harness(group=str(next(_groups)))


import itertools as _it  # noqa: E402

_groups = _it.count(700001)


@pytest.fixture
async def leak_scan(monkeypatch):
    """Record every group message the harness drains in this
    test; at the end, scan those of each game played against its secrets."""
    from harness import Harness
    from leakscan import scan, secrets_of

    from plugins.kernel.models import Game, Player
    from plugins.kernel.registry import get_kind

    sent: dict[str, list[str]] = {}
    real = Harness.drain

    async def drain(self, limit: int = 5000):
        out = await real(self, limit)
        for kind, target, text in out:
            if kind == "group":
                sent.setdefault(target, []).append(text)
        return out

    monkeypatch.setattr(Harness, "drain", drain)
    yield sent
    checked = 0
    for g in await Game.filter(group_id__in=list(sent)).order_by("id"):
        kind = get_kind(g.kind)
        players = list(await Player.filter(game_id=g.id).order_by("seat"))
        s = secrets_of(g.kind, g.state, players, bool(kind and kind.private_signup), g.settings)
        leaks = scan(sent[g.group_id], s)
        assert not leaks, f"{g.kind}: " + "\n".join(leaks[:10])
        checked += 1
    assert checked, "the leak scan saw no game"
