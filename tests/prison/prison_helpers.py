"""Prison engine test helpers: a tiny driver that plays the kernel's part."""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

import msgspec
import pytest

from plugins.gamekit.args import Args, SeatReason, from_dict
from plugins.gamekit.contract import KERNEL_BACK, KERNEL_OUT, Actor, Command, Ctx, Effect, Rejected, Seat, SetPhase, Timer
from plugins.prison.engine.engine import ENGINE
from plugins.prison.engine.model import Kind, Player, State, Status

SH = ZoneInfo("Asia/Shanghai")
KERNEL_EFFECTS = Effect.__args__  # the effect types the kernel applies
T0 = datetime(2026, 11, 30, 4, 0, tzinfo=timezone.utc)  # 12:00 in Shanghai
CHECK_PURE = True  # compare the state before and after each call (the bench turns it off)

# sample12 roles dealt to fixed seats (settings "deal")
DEAL = {
    "1": "noise", "2": "search", "3": "lover_g", "4": "patrol", "5": "listener", "6": "keeper",
    "7": "murderer", "8": "accomplice", "9": "lover_p", "10": "thief", "11": "survivor", "12": "saboteur",
}
GUARDS = [1, 2, 3, 4, 5, 6]
PRISONERS = [7, 8, 9, 10, 11, 12]
MURDERER, ACCOMPLICE, LOVER_G, LOVER_P, THIEF, SURVIVOR = 7, 8, 3, 9, 10, 11


def args_of(name: str, args: dict[str, Any]) -> Args:
    """A command's typed arguments from keywords, as a replay reads the command log (keys the
    command does not take are left out)."""
    if name in (KERNEL_OUT, KERNEL_BACK):
        return from_dict(SeatReason, args)
    return from_dict(ENGINE.specs[name].args, args)


def snapshot(state: State) -> bytes:
    return msgspec.json.encode(state) if CHECK_PURE else b""


def stored(state: State) -> State:
    """The state as the database gives it back: encoded to JSON text and decoded."""
    return ENGINE.decode(json.loads(json.dumps(ENGINE.encode(state), ensure_ascii=False)))


class Game:
    """Plays the kernel: fresh rng per command seeded "{seed}:{seq}", JSON round trip of the
    state (as the database does), a clock that jumps to each phase deadline."""

    def __init__(self, overrides: dict[str, Any] | None = None, seed: str = "s1", n: int = 12,
                 fixed_deal: bool = True, chats: tuple[str, ...] = (),
                 profiles: dict[int, dict[str, Any]] | None = None) -> None:
        ov = dict(overrides or {})
        if fixed_deal:
            ov.setdefault("deal", DEAL)
        self.stored = ENGINE.check_settings(ov)  # what the kernel keeps (plain JSON)
        self.settings = ENGINE.settings_of(self.stored)  # what the engine reads
        self.seed = seed
        self.chats = tuple(chats)  # labels of linked chats (/绑定群), as the kernel passes them
        self.seq = 0
        self.now = T0
        self.ends: datetime | None = None
        self.phase = ""
        self.log: list[Any] = []  # every effect, in order
        roster = [Seat(i, f"马甲{i}", str(10000 + i), dict((profiles or {}).get(i, {}))) for i in range(1, n + 1)]
        out = ENGINE.start(roster, self.ctx())
        self._take(out)

    def ctx(self) -> Ctx:
        self.seq += 1
        self.now += timedelta(seconds=1)
        phase = Timer("phase", self.ends) if self.ends else None
        return Ctx(now=self.now, rng=random.Random(f"{self.seed}:{self.seq}"), seq=self.seq, tz=SH,
                   settings=self.settings, phase=phase, chats=self.chats)

    def _take(self, out: Any) -> list[Any]:
        self.state = stored(out.state)
        for fx in out.effects:
            if isinstance(fx, SetPhase):
                self.phase, self.ends = fx.key, fx.ends_at
        for fx in out.effects:
            assert isinstance(fx, KERNEL_EFFECTS), f"the kernel cannot apply {fx!r}"
        self.log += out.effects
        return list(out.effects)

    def actor(self, seat: int | None, private: bool = True, host: bool = False, chat: str | None = None) -> Actor:
        uid = str(10000 + seat) if seat is not None else "10000"
        return Actor(uid, seat, host, private, chat)

    def do(self, by: int | None, name: str, private: bool = True, host: bool = False, **args: Any) -> list[Any]:
        before = snapshot(self.state)
        out = ENGINE.apply(self.state, self.actor(by, private, host), Command(name, args_of(name, args)), self.ctx())
        assert snapshot(self.state) == before, "apply mutated its input state"
        return self._take(out)

    def reject(self, by: int | None, name: str, private: bool = True, host: bool = False, **args: Any) -> str:
        before = snapshot(self.state)
        with pytest.raises(Rejected) as exc:
            ENGINE.apply(self.state, self.actor(by, private, host), Command(name, args_of(name, args)), self.ctx())
        assert snapshot(self.state) == before
        return str(exc.value)

    def advance(self) -> list[Any]:
        """The phase deadline passes (or /推进)."""
        if self.ends is not None and self.ends > self.now:
            self.now = self.ends
        before = snapshot(self.state)
        out = ENGINE.deadline(self.state, "phase", self.ctx())
        assert snapshot(self.state) == before
        return self._take(out)

    # ---- shortcuts --------------------------------------------------------
    def p(self, seat: int) -> Player:
        return self.state.players[seat]

    def to_day1(self) -> None:
        assert self.state.phase == "prep"
        self.advance()

    def elect(self, chief: int = 1, leader: int = 7) -> list[Any]:
        """Day 1: everyone votes; then the day closes (rooms open)."""
        assert self.state.phase == "day" and self.state.day == 1
        for g in self.living(Kind.GUARD):
            self.do(g, "elect", seat=chief)
        for p in self.living(Kind.PRISONER):
            self.do(p, "elect", seat=leader)
        return self.advance()

    def living(self, kind: str | None = None) -> list[int]:
        return [s for s, p in self.state.players.items()
                if p.status is Status.ALIVE and (kind is None or p.kind == kind)]

    def rooms(self, pairs: list[tuple[int, int]]) -> list[Any]:
        """Pick rooms so that each (guard, prisoner) meets; others get random rooms."""
        assert self.state.phase == "rooms"
        mapping = self.state.mapping
        free = [g for g in mapping if g not in self.state.rooms]
        for (g, p), room in zip(pairs, free):
            self.do(g, "room", room=room)
            self.do(p, "room", room=mapping[room])
        return self.advance()

    def talk(self, lines: int = 1) -> None:
        """Every paired player says something (no (三)1 cards)."""
        night = self.state.nights[-1]
        for pair in night.pairs:
            for who in (pair.guard, pair.prisoner):
                if self.p(who).status is Status.ALIVE:
                    for i in range(lines):
                        self.do(who, "relay", text=f"第{i}句", images=0)

    def thief(self) -> None:
        if self.p(THIEF).status is Status.ALIVE:
            self.do(THIEF, "ability", ability="偷看", text="看 1 号")

    def partner(self, seat: int) -> int | None:
        for pair in self.state.nights[-1].pairs:
            if pair.guard == seat:
                return pair.prisoner
            if pair.prisoner == seat:
                return pair.guard
        return None
