"""Whole simulated games in process (no WebSocket, no database): the whole-game
scripts of the test suite drive each pure engine, as the kernel would.

    python bench/sims.py <mafia88|royale|prison|league>

prints one JSON object: wall time (s), engine calls, the process's resident
memory after start-up (NoneBot and every plugin loaded) and its peak (KiB);
with ``--tracemalloc`` also the Python-heap peak of one more, traced game.

Like the kernel (txn.Txn.step), a command's rule works on the held state itself
(``run_rule(copy=False)``; a rule that raises is undone by reading back the last
stored form) and every call ends with the stored form of the state encoded by
orjson, its texts written out (``longtexts.stored``); a deadline works on a copy,
as in the kernel. The tests' purity checks (deep copies / pickles compared before
and after each call) are switched off, they are not part of the bot's work.
Runs before 2026-12-01 07:00 UTC gave every call a stdlib JSON round trip of the
whole state instead (the kernel of that time read and wrote it so).
"""

from __future__ import annotations

import gc
import json
import os
import resource
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


class Counted:
    """Wrap an engine object: count calls; run them as the kernel does (see the module doc)."""

    def __init__(self, engine: Any, store: bool):
        from plugins.kernel.longtexts import Texts

        self.engine, self.store, self.calls = engine, store, 0
        self.texts, self.saved = Texts(), b""
        self._apply, self._deadline, self._start = engine.apply, engine.deadline, engine.start
        engine.apply = self.apply
        engine.deadline = self.deadline
        engine.start = self.start

    def _save(self, out: Any) -> Any:
        if self.store and out.state is not None:
            from plugins.kernel.longtexts import stored

            self.saved = orjson.dumps(stored(out.state, self.engine.TEXTS, self.texts))
        return out

    def apply(self, state, actor, cmd, ctx):
        self.calls += 1
        if not self.store:
            return self._apply(state, actor, cmd, ctx)
        from plugins.gamekit.contract import run_rule
        from plugins.kernel.longtexts import inflate

        try:
            return self._save(run_rule(self.engine, cmd.name, state, actor, cmd.args, ctx, copy=False))
        except BaseException:  # the kernel reads the stored state back
            state.clear()
            state.update(inflate(orjson.loads(self.saved), self.engine.TEXTS, self.texts))
            raise

    def deadline(self, state, key, ctx):
        self.calls += 1
        return self._save(self._deadline(state, key, ctx))

    def start(self, roster, ctx):
        self.calls += 1
        return self._save(self._start(roster, ctx))


def _kib(state: Any) -> str:
    return f"{len(json.dumps(state, ensure_ascii=False).encode()) / 1024:.0f} KiB JSON"


def mafia88() -> tuple[Callable[[], str], Any, bool]:
    sys.path.insert(0, str(ROOT / "tests" / "mafia88"))
    import mafia88_helpers
    import test_full_game as T

    from plugins.gamekit.contract import check_who, run_rule
    from plugins.kernel.longtexts import Texts, stored
    from plugins.mafia88.engine import ENGINE
    from plugins.mafia88.engine.state import Step

    class Held:
        """The typed engine called as the kernel calls it (txn.Txn.step): a command's rule on the
        held state itself (a rule that raises is undone from the last stored form), a deadline on
        a copy, and after every call the stored form encoded (``encode``, its texts written out,
        orjson). Everything else is the engine's own."""

        def __init__(self) -> None:
            self.texts, self.saved = Texts(), b""

        def __getattr__(self, name: str) -> Any:
            return getattr(ENGINE, name)

        def _save(self, out: Any) -> Any:
            self.saved = orjson.dumps(stored(ENGINE.encode(out.state), ENGINE.TEXTS, self.texts))
            return out

        def apply(self, state, actor, cmd, ctx):
            spec = ENGINE.specs.get(cmd.name)
            if spec is not None:
                check_who(spec, actor, ENGINE)
            try:
                return self._save(run_rule(ENGINE, cmd.name, state, actor, cmd.args, ctx, copy=False))
            except BaseException:  # the kernel reads the stored state back
                back = ENGINE.decode(orjson.loads(self.saved))
                for name in state.__struct_fields__:
                    setattr(state, name, getattr(back, name))
                raise

        def deadline(self, state, key, ctx):
            return self._save(ENGINE.deadline(state, key, ctx))

        def start(self, roster, ctx):
            return self._save(ENGINE.start(roster, ctx))

    held = Held()
    mafia88_helpers.ENGINE = held  # the test driver calls the engine as the kernel would

    def play() -> str:
        g = mafia88_helpers.Game(88, seed="full-88", settings=T.PLAIN, json_state=False, check_pure=False)  # the scripted game, roles ruled by hand
        g.report_all()
        order = T.victim_order(g)
        rounds = 0
        while g.state.step != Step.OVER and rounds < 20:
            T.play_round(g, order)
            rounds += 1
        assert g.state.step == Step.OVER, "the scripted game did not end"
        return f"88 players, {rounds} rounds, {len(g.state.posts)} posts, final state {_kib(ENGINE.encode(g.state))}"

    # Held does the kernel's work itself: Counted only counts the calls
    return play, held, False


def royale() -> tuple[Callable[[], str], Any, bool]:
    sys.path.insert(0, str(ROOT / "tests" / "royale"))
    import test_royale_game as T

    from plugins.gamekit.contract import check_who, run_rule
    from plugins.kernel.longtexts import Texts, stored
    from plugins.royale.engine import ENGINE

    # The state is typed, and Counted's write path stores and restores plain dicts only: the kernel's
    # path for a typed state is given here (as txn.step does it): the table's permission, the rule on
    # the held state itself (a rule that raises is undone from the last stored form), then the stored
    # form (engine.encode, orjson); a deadline on a copy.
    texts = Texts()
    saved = [b""]
    deadline, start = ENGINE.deadline, ENGINE.start

    def save(out: Any) -> Any:
        saved[0] = orjson.dumps(stored(ENGINE.encode(out.state), ENGINE.TEXTS, texts))
        return out

    def held(state, actor, cmd, ctx):
        spec = ENGINE.specs.get(cmd.name)
        if spec is not None:
            check_who(spec, actor, ENGINE)
        try:
            return save(run_rule(ENGINE, cmd.name, state, actor, cmd.args, ctx, copy=False))
        except BaseException:  # the kernel reads the stored state back
            back = ENGINE.decode(orjson.loads(saved[0]))
            for name in state.__struct_fields__:
                setattr(state, name, getattr(back, name))
            raise

    ENGINE.apply = held
    ENGINE.deadline = lambda state, key, ctx: save(deadline(state, key, ctx))
    ENGINE.start = lambda roster, ctx: save(start(roster, ctx))

    def play() -> str:
        g = T.scripted_game("royale-60", n=60)  # the seed the test plays to one winner
        assert g.state.phase == "over", "the scripted game did not end"
        return f"60 players, {g.state.day} nights, {len(g.log)} commands, final state {_kib(ENGINE.encode(g.state))}"

    return play, ENGINE, False


def prison() -> tuple[Callable[[], str], Any, bool]:
    sys.path.insert(0, str(ROOT / "tests" / "prison"))
    import prison_helpers
    import test_prison_full_games as T

    from plugins.prison.engine.engine import ENGINE

    prison_helpers.CHECK_PURE = False  # purity checks off

    def play() -> str:
        g = prison_helpers.Game
        T.test_end_by_condition_2_no_guard_left_3_2(g)  # the longest scripted game: 5 nights
        return "12 players, 5 nights (guards wiped out)"

    # the helper stores every new state itself, as the kernel does (encoded, JSON text, decoded; 12 players)
    return play, ENGINE, False


def league() -> tuple[Callable[[], str], Any, bool]:
    sys.path.insert(0, str(ROOT / "tests" / "league"))
    import helpers_league
    import test_full_stage as T

    from plugins.gamekit.contract import check_who, run_rule
    from plugins.kernel.longtexts import Texts, stored
    from plugins.league.engine import ENGINE

    class Held:
        """The league's typed engine called as the kernel calls it (txn.Txn.step): a command's rule
        on the held state itself (a rule that raises is undone from the last stored form), a
        deadline on a copy, and after every call the stored form encoded (``encode``, its texts
        written out, orjson). Everything else is the engine's own."""

        def __init__(self) -> None:
            self.texts, self.saved = Texts(), b""

        def __getattr__(self, name: str) -> Any:
            return getattr(ENGINE, name)

        def _save(self, out: Any) -> Any:
            self.saved = orjson.dumps(stored(ENGINE.encode(out.state), ENGINE.TEXTS, self.texts))
            return out

        def apply(self, state, actor, cmd, ctx):
            spec = ENGINE.specs.get(cmd.name)
            if spec is not None:
                check_who(spec, actor, ENGINE)
            try:
                return self._save(run_rule(ENGINE, cmd.name, state, actor, cmd.args, ctx, copy=False))
            except BaseException:  # the kernel reads the stored state back
                back = ENGINE.decode(orjson.loads(self.saved))
                for name in state.__struct_fields__:
                    setattr(state, name, getattr(back, name))
                raise

        def deadline(self, state, key, ctx):
            return self._save(ENGINE.deadline(state, key, ctx))

        def start(self, roster, ctx):
            return self._save(ENGINE.start(roster, ctx))

    held = Held()
    helpers_league.ENGINE = held  # the test driver calls the engine as the kernel would
    helpers_league.snapshot = lambda state: b""  # purity checks off

    def play() -> str:
        lg, _ = T.run_stage("bench")
        return f"130 players, online stage of {len(lg.log)} engine steps, final state {_kib(ENGINE.encode(lg.state))}"

    # Held does the kernel's work itself: Counted only counts the calls
    return play, held, False


GAMES = {"mafia88": mafia88, "royale": royale, "prison": prison, "league": league}


def _rss_kib() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def main(name: str, traced: bool) -> None:
    _init_nonebot()
    play, engine, rt = GAMES[name]()
    counted = Counted(engine, rt)
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
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
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
