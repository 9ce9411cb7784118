"""A short league played on the pure engine alone (tests/kernel/test_engines_alone.py runs it
in an interpreter where NoneBot, Tortoise and the database drivers cannot be imported): one
round of twelve, a match day whose late step a deadline runs, one score sheet, the final ranking."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from plugins.gamekit.args import NoArgs
from plugins.gamekit.contract import Actor, Command, Ctx, Finish, Seat
from plugins.league.engine import ENGINE
from plugins.league.engine.rules_day import OpenDayArgs
from plugins.league.engine.rules_games import ScoreArgs

TZ = ZoneInfo("Asia/Shanghai")
VARIANT = {"options": {"main_draw": 12},
           "rounds": [{"key": "final", "name": "决赛", "players": 12, "groups": 1, "advance": 0,
                       "days": [{"label": "1月2日", "board": "标准场", "games": 1}]}]}
ROLES = ["预言家 全场最佳", "女巫", "猎人", "白痴", "平民", "平民", "平民", "平民", "狼人", "狼人", "狼人", "狼人"]


def play() -> str:
    engine = ENGINE
    settings = engine.settings_of(engine.check_settings(VARIANT))
    day = datetime(2027, 1, 2, tzinfo=TZ)
    seq = 0

    def ctx(hh: int, mm: int = 0) -> Ctx:
        nonlocal seq
        seq += 1
        now = (day + timedelta(hours=hh, minutes=mm)).astimezone(timezone.utc)
        return Ctx(now, random.Random(f"seed:{seq}"), seq, TZ, settings)

    referee = Actor("referee", None, True, False)
    out = engine.start([Seat(i, f"p{i}", str(100 + i)) for i in range(1, 14)], ctx(9))
    state = engine.decode(engine.encode(out.state))  # as stored and read back
    state = engine.apply(state, referee, Command("open_day", OpenDayArgs(date="1-2")), ctx(12)).state
    lineup = list(state.days[-1].lineups["A"])
    for seat in lineup[:-1]:  # the last one is late
        state = engine.apply(state, Actor(str(100 + seat), seat, False, False, "main"), Command("checkin", NoArgs()),
                             ctx(18, 10)).state
    state = engine.deadline(state, "checkin.late", ctx(18, 30)).state
    state = engine.apply(state, Actor(str(100 + lineup[-1]), lineup[-1], False, False, "main"),
                         Command("checkin", NoArgs()), ctx(18, 31)).state
    for key in ("checkin.demote", "checkin.seat"):
        state = engine.deadline(state, key, ctx(18, 50)).state
    lines = [f"{i} #{seat} {role}" for i, (seat, role) in enumerate(zip(sorted(lineup), ROLES, strict=True), 1)]
    sheet = "\n".join(["A组 第1场", "胜方 好人", *lines])
    state = engine.apply(state, referee, Command("score", ScoreArgs(text=sheet)), ctx(21)).state
    done = engine.apply(state, referee, Command("next_round", NoArgs()), ctx(22))
    final = next(e for e in done.effects if isinstance(e, Finish))
    late = next(v for v in done.state.violations if v.type == "迟到")
    return f"{final.summary.splitlines()[1]}; late: #{late.seat} -{late.points:g}; finished: {done.state.finished}"
