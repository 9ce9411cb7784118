"""A short 88人场 on the pure engine alone (tests/kernel/test_engines_alone.py runs it in an
interpreter where NoneBot, Tortoise and the database drivers cannot be imported): a 13-player
variant is dealt, everyone votes, the round's deadlines pass, and the hosts put the black side
out until the game ends."""

from __future__ import annotations

import random
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

from plugins.gamekit.args import NoArgs
from plugins.gamekit.contract import Actor, Command, Ctx, Effect, Finish, Seat, SetPhase, SetTimer
from plugins.mafia88.engine import ENGINE
from plugins.mafia88.engine.args import PlayerReason, Targets
from plugins.mafia88.engine.state import State

SH = ZoneInfo("Asia/Shanghai")
ROLES = ("yin_jian", "lianhe_jian", "lianhe_dan", "yi_hun", "du_dan", "fu_huo", "di_lei", "hei_dan", "mo_jing", "gong_bing",
         "huan_hun")
VARIANT = {
    "options": {"role_effects": False, "report_required": False, "first_post_aliases": 0},
    "counts": {**dict.fromkeys(ROLES, 0), "you_xia": 6, "an_dan": 1, "gu_sha": 1, "lianhe_sha": 2, "du_sha": 3},
    "rounds": [{"votes": 1, "out": 1, "posts": {}}, {"votes": 1, "out": 1, "posts": {}}],
}
HOST = Actor("host", None, True, True)


def play() -> str:
    engine = ENGINE
    settings = engine.settings_of(engine.check_settings(VARIANT))
    now = datetime(2026, 12, 1, 1, tzinfo=timezone.utc)
    seq = 0
    timers: dict[str, datetime] = {}
    finished: list[str] = []

    def ctx(at: datetime) -> Ctx:
        nonlocal seq
        seq += 1
        return Ctx(at, random.Random(f"short:{seq}"), seq, SH, settings)

    def took(effects: list[Effect]) -> None:
        for e in effects:
            if isinstance(e, SetPhase) and e.ends_at is not None:
                timers["phase"] = e.ends_at
            elif isinstance(e, SetTimer):
                timers[e.key] = e.ends_at
            elif isinstance(e, Finish):
                finished.append(e.summary)

    out = engine.start([Seat(s, f"侠客{s}", str(1000 + s)) for s in range(1, 14)], ctx(now))
    took(out.effects)
    state: State = engine.decode(engine.encode(out.state))  # as stored and read back
    living = sorted(s for s, p in state.players.items() if p.alive)
    target = living[0]
    for s in living:  # every player votes (the target votes for the next one)
        vote = Targets(targets=[target if s != target else living[1]])
        step = engine.apply(state, Actor(str(1000 + s), s, False, True), Command("vote", vote), ctx(now))
        state = step.state
    tally = engine.apply(state, HOST, Command("tally", NoArgs()), ctx(now)).effects
    for key in ("posts_due:1", "publish:1", "phase"):  # the round's deadlines, in order
        step = engine.deadline(state, key, ctx(timers[key]))
        took(step.effects)
        state = engine.decode(engine.encode(step.state))
    assert state.round == 2 and not state.players[target].alive, "round 1 did not end with the top-voted out"
    blacks = [s for s, p in sorted(state.players.items()) if p.alive and settings.role(p.role).faction == "black"]
    for s in blacks:  # the hosts rule the black side out (/判出局): the white side wins
        step = engine.apply(state, HOST, Command("out", PlayerReason(player=s, reason="测试")), ctx(timers["phase"]))
        took(step.effects)
        state = step.state
    assert finished and state.winner == "white", "the game did not end"
    return (f"13 players, {len(tally)} tally, round {state.round}, {sum(p.alive for p in state.players.values())} left, "
            f"winner {state.winner}")
