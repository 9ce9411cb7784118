"""A short prison game played on the pure engine alone (tests/kernel/test_engines_alone.py runs it
in an interpreter where NoneBot, Tortoise and the database drivers cannot be imported): a fixed
deal, day 1's elections, a night in which the murderer kills its partner, and day 2's verdict
releasing the murderer — （三）3 ends the game."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from plugins.gamekit.args import NoArgs, TextIn
from plugins.gamekit.contract import PHASE_TIMER, Actor, Command, Ctx, Finish, Seat
from plugins.prison.engine.args import AbilityArgs, RoomArgs, SeatArgs
from plugins.prison.engine.content import Settings
from plugins.prison.engine.engine import ENGINE
from plugins.prison.engine.model import State

DEAL = {str(seat): role for seat, role in enumerate(
    ("noise", "search", "lover_g", "patrol", "listener", "keeper", "murderer", "accomplice", "lover_p", "thief", "survivor",
     "saboteur"), start=1)}
MURDERER = 7


def play() -> str:
    engine = ENGINE
    settings = engine.settings_of(engine.check_settings({"deal": DEAL, "prep_minutes": 0}))
    now = datetime(2026, 12, 1, 4, tzinfo=timezone.utc)
    seq = 0

    def ctx() -> Ctx[Settings]:
        nonlocal seq, now
        seq += 1
        now += timedelta(minutes=1)
        return Ctx(now, random.Random(f"short:{seq}"), seq, ZoneInfo("Asia/Shanghai"), settings)

    def stored(state: State) -> State:
        return engine.decode(engine.encode(state))  # as the kernel stores it and reads it back

    def do(state: State, seat: int, name: str, args: object) -> State:
        actor = Actor(str(10000 + seat), seat, False, True)
        return stored(engine.apply(state, actor, Command(name, args), ctx()).state)

    def deadline(state: State) -> tuple[State, list[object]]:
        out = engine.deadline(state, PHASE_TIMER, ctx())
        return stored(out.state), list(out.effects)

    roster = [Seat(seat, f"马甲{seat}", str(10000 + seat)) for seat in range(1, 13)]
    state = stored(engine.start(roster, ctx()).state)
    state = do(state, 1, "love", SeatArgs(seat=9))
    state, _ = deadline(state)  # day 1
    for seat in range(1, 13):
        state = do(state, seat, "elect", SeatArgs(seat=1 if seat <= 6 else MURDERER))
    state, _ = deadline(state)  # the elections; room choice
    guard_room = next(iter(state.mapping))
    state = do(state, 4, "room", RoomArgs(room=guard_room))
    state = do(state, MURDERER, "room", RoomArgs(room=state.mapping[guard_room]))
    state, _ = deadline(state)  # the interrogation window
    for pair in state.nights[-1].pairs:
        state = do(state, pair.guard, "relay", TextIn(text="你是谁？"))
        state = do(state, pair.prisoner, "relay", TextIn(text="不告诉你"))
    state = do(state, 10, "ability", AbilityArgs(ability="偷看", text="看 1 号"))
    state = do(state, 1, "noise", NoArgs())
    state, _ = deadline(state)  # the wall rises: guard 4 dies
    for seat in state.order:
        if state.players[seat].kind == "guard" and state.players[seat].status == "alive":
            state = do(state, seat, "release", SeatArgs(seat=MURDERER))
    state, effects = deadline(state)  # the verdict: the murderer is released
    assert state.result is not None and any(isinstance(e, Finish) for e in effects)
    dead = [seat for seat in state.order if state.players[seat].status == "dead"]
    return (f"{state.phase} after day {state.day}: condition {state.result.cond}, winners {state.result.winners}, "
            f"{len(dead)} executed or killed, {len(state.nights[-1].pairs[0].lines)} lines in room 1")
