"""A short royale game played on the pure engine alone (tests/kernel/test_engines_alone.py runs it
in an interpreter where NoneBot, Tortoise and the database drivers cannot be imported): three
players are born, one rests, the night ends, and the host's red card decides the last two."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from plugins.gamekit.args import NoArgs, SeatReason
from plugins.gamekit.contract import Actor, Command, Ctx, Finish, Seat
from plugins.royale.engine import ENGINE
from plugins.royale.engine.args import PlaceArgs, RestArgs


def play() -> str:
    engine = ENGINE
    settings = engine.settings_of(engine.check_settings({"places": {"closures": [0]}}))
    now = datetime(2026, 12, 1, 4, tzinfo=timezone.utc)  # 12:00 in Shanghai

    def ctx(seq: int, minutes: int) -> Ctx:
        return Ctx(now + timedelta(minutes=minutes), random.Random(f"short:{seq}"), seq, ZoneInfo("Asia/Shanghai"),
                   settings)

    def player(seat: int) -> Actor:
        return Actor(f"u{seat}", seat, False, True)

    out = engine.start([Seat(1, "甲", "u1"), Seat(2, "乙", "u2"), Seat(3, "丙", "u3")], ctx(1, 0))
    state = engine.decode(engine.encode(out.state))  # as stored and read back
    state = engine.deadline(state, "phase", ctx(2, 9 * 60 + 10)).state  # 21:10: night 1 opens
    for seq, seat in ((3, 1), (4, 2), (5, 3)):
        cmd = Command("birth", PlaceArgs(place="果园"))
        state = engine.apply(state, player(seat), cmd, ctx(seq, 9 * 60 + 11)).state
    state = engine.apply(state, player(1), Command("search", NoArgs()), ctx(6, 9 * 60 + 12)).state
    state = engine.apply(state, player(3), Command("rest", RestArgs()), ctx(7, 9 * 60 + 12)).state
    state = engine.deadline(state, "phase", ctx(8, 9 * 60 + 25)).state  # the morning of day 2
    host = Actor("u9", None, True, False)
    state = engine.apply(state, host, Command("kernel.out", SeatReason(seat=2, reason="红牌")), ctx(9, 10 * 60)).state
    end = engine.apply(state, host, Command("kernel.out", SeatReason(seat=3, reason="红牌")), ctx(10, 10 * 60))
    state = end.state
    (summary,) = [e.summary for e in end.effects if isinstance(e, Finish)]
    assert state.result is not None and state.result.winner == 1 and "甲 是最后的幸存者" in summary
    return f"day {state.day}, {state.phase}: {summary.splitlines()[0]}"
