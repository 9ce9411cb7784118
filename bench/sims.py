"""Whole simulated games in process (no WebSocket, no database): the whole-game scripts of the
test suite drive each pure engine, as the kernel would.

    python bench/sims.py <mafia88|royale|prison|league>

prints one JSON object: wall time (s), engine calls, the process's resident memory after start-up
(NoneBot and every plugin loaded) and its peak (KiB); with ``--tracemalloc`` also the Python-heap
peak of one more, traced game.

Every engine call goes through ``Held``, which does what the kernel does (``Work.step``): the table's
permission, a command's rule on the held state itself (a rule that raises is undone from the last
stored form), a deadline on a copy, and after every call the stored form made by the kernel's own
``longtexts.stored_json``. The tests' purity checks are switched off: they are not the bot's work.
"""

from __future__ import annotations

import gc
import json
import os
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.chdir(ROOT)
# no database is opened (no start-up hook runs); nothing is written
os.environ["DATABASE_URL"] = "sqlite://:memory:"
os.environ.setdefault("DATA_DIR", tempfile.gettempdir())


def _init_nonebot() -> None:
    """Game packages ``require`` the kernel plugin: initialise NoneBot as the tests do
    (no start-up hook runs, so no database is opened)."""
    import nonebot
    from nonebot.adapters.onebot.v11 import Adapter

    nonebot.init(driver="~fastapi", log_level="WARNING", superusers={"10000"}, command_start={"/"})
    nonebot.get_driver().register_adapter(Adapter)
    nonebot.load_from_toml(str(ROOT / "pyproject.toml"))


class Held:
    """An engine called as the kernel calls it (see the module doc); everything else is the engine's."""

    def __init__(self, engine: Any) -> None:
        from plugins.kernel.longtexts import Texts

        self.engine, self.texts, self.saved, self.calls = engine, Texts(), "", 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def _save(self, out: Any) -> Any:
        from plugins.kernel.longtexts import stored_json

        self.saved = stored_json(self.engine, out.state, self.texts)
        self.texts.new = []
        return out

    def apply(self, state: Any, actor: Any, cmd: Any, ctx: Any) -> Any:
        from plugins.gamekit.contract import check_who, run_rule
        from plugins.kernel.longtexts import inflate

        self.calls += 1
        spec = self.engine.specs.get(cmd.name)
        if spec is not None:
            check_who(spec, actor, self.engine)
        try:
            return self._save(run_rule(self.engine, cmd.name, state, actor, cmd.args, ctx, copy=False))
        except BaseException:  # the kernel puts the stored state back
            back = self.engine.decode(inflate(orjson.loads(self.saved), self.engine.TEXTS, self.texts))
            for name in state.__struct_fields__:
                setattr(state, name, getattr(back, name))
            raise

    def deadline(self, state: Any, key: str, ctx: Any) -> Any:
        self.calls += 1
        return self._save(self.engine.deadline(state, key, ctx))

    def start(self, roster: Any, ctx: Any) -> Any:
        self.calls += 1
        return self._save(self.engine.start(roster, ctx))


def _kib(state: Any) -> str:
    return f"{len(json.dumps(state, ensure_ascii=False).encode()) / 1024:.0f} KiB JSON"


def mafia88() -> tuple[Callable[[], str], Held]:
    sys.path.insert(0, str(ROOT / "tests" / "mafia88"))
    import mafia88_helpers
    import test_full_game as T

    from plugins.mafia88.engine import ENGINE
    from plugins.mafia88.engine.state import Step

    held = mafia88_helpers.ENGINE = Held(ENGINE)  # the test driver calls the engine as the kernel would

    def play() -> str:
        g = mafia88_helpers.Game(88, seed="full-88", settings=T.PLAIN, json_state=False, check_pure=False)
        g.report_all()
        order = T.victim_order(g)
        rounds = 0
        while g.state.step != Step.OVER and rounds < 20:
            T.play_round(g, order)
            rounds += 1
        assert g.state.step == Step.OVER, "the scripted game did not end"
        return f"88 players, {rounds} rounds, {len(g.state.posts)} posts, final state {_kib(ENGINE.encode(g.state))}"

    return play, held


def royale() -> tuple[Callable[[], str], Held]:
    sys.path.insert(0, str(ROOT / "tests" / "royale"))
    import royale_helpers
    import test_royale_game as T

    from plugins.royale.engine import ENGINE

    held = royale_helpers.ENGINE = T.ENGINE = Held(ENGINE)

    def play() -> str:
        g = T.scripted_game("royale-60", n=60)  # the seed the test plays to one winner
        assert g.state.phase == "over", "the scripted game did not end"
        return f"60 players, {g.state.day} nights, {len(g.log)} commands, final state {_kib(ENGINE.encode(g.state))}"

    return play, held


def prison() -> tuple[Callable[[], str], Held]:
    sys.path.insert(0, str(ROOT / "tests" / "prison"))
    import prison_helpers
    import test_prison_full_games as T

    from plugins.prison.engine.engine import ENGINE

    held = prison_helpers.ENGINE = Held(ENGINE)
    prison_helpers.CHECK_PURE = False
    prison_helpers.stored = lambda state: state  # (the driver's own JSON round trip: Held stores)

    def play() -> str:
        T.test_end_by_condition_2_no_guard_left_3_2(prison_helpers.Game)  # the longest scripted game: 5 nights
        return "12 players, 5 nights (guards wiped out)"

    return play, held


def league() -> tuple[Callable[[], str], Held]:
    sys.path.insert(0, str(ROOT / "tests" / "league"))
    import helpers_league
    import test_full_stage as T

    from plugins.league.engine import ENGINE

    held = helpers_league.ENGINE = Held(ENGINE)
    helpers_league.snapshot = lambda state: b""  # purity checks off

    def play() -> str:
        lg, _ = T.run_stage("bench")
        return f"130 players, online stage of {len(lg.log)} engine steps, final state {_kib(ENGINE.encode(lg.state))}"

    return play, held


GAMES = {"mafia88": mafia88, "royale": royale, "prison": prison, "league": league}


def _peak_rss_kib() -> int:
    """This process's peak RSS (VmHWM). Not ``getrusage``'s ``ru_maxrss``: Linux carries that over
    from the parent across fork and exec, so it showed the bench driver's peak when that was larger."""
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))


def _rss_kib() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def main(name: str, traced: bool) -> None:
    _init_nonebot()
    play, counted = GAMES[name]()
    gc.collect()
    base = _rss_kib()  # the interpreter with NoneBot and every plugin loaded
    # timed: small games are repeated until there is at least 1 s of work; the mean is reported
    runs, total, detail = 0, 0.0, ""
    while runs == 0 or (total < 1.0 and runs < 50):
        t = time.perf_counter()
        detail = play()
        total += time.perf_counter() - t
        runs += 1
    calls = counted.calls // runs
    peak = _peak_rss_kib()
    out = {"game": name, "wall": total / runs, "runs": runs, "calls": calls, "rss_base_kib": base,
           "rss_peak_kib": peak, "detail": detail}
    if traced:  # exact Python-heap peak of one game; tracemalloc makes it ~7x slower
        gc.collect()
        tracemalloc.start()
        play()
        out["traced_peak"] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1], "--tracemalloc" in sys.argv[2:])
