"""A tiny driver that plays the engine like the kernel does: one fresh rng per
command seeded from the game seed and the command's sequence number, aware
UTC times, the phase deadline and timers tracked from the effects."""

from __future__ import annotations

import copy
import json
import random
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from plugins.gamekit.args import Args, SeatReason, TextIn, fields_of
from plugins.gamekit.contract import (
    KERNEL_BACK,
    KERNEL_OUT,
    Actor,
    CancelTimer,
    Command,
    Ctx,
    Finish,
    Outcome,
    Say,
    Seat,
    SetPhase,
    SetTimer,
    Timer,
)
from plugins.mafia88.engine import ENGINE
from plugins.mafia88.engine.state import Player, State, Step

SH = ZoneInfo("Asia/Shanghai")
T0 = datetime(2026, 12, 1, 1, 0, tzinfo=timezone.utc)  # 09:00 in Shanghai

SENTENCE = "第{n}段里我沿着河岸慢慢走过看见远山的灯火一盏一盏亮起来"


def essay(chars: int, salt: str = "") -> str:
    """Simplified Chinese text without repeated sentences, at least ``chars``
    non-space characters."""
    parts, total, n = [], 0, 0
    while total < chars:
        s = salt + SENTENCE.format(n=n) + "。"
        parts.append(s)
        total += len(s)
        n += 1
    return "".join(parts)


def typed_args(name: str, args: dict) -> Args:
    """The command's Args class, as the kernel's parser builds it from chat (a word is text)."""
    if name in (KERNEL_OUT, KERNEL_BACK):
        return SeatReason(**args)
    cls = ENGINE.specs[name].args
    if cls is TextIn:
        return TextIn(**args)
    words = {f.name for f in fields_of(cls) if f.kind == "word"}
    return cls(**{k: str(v) if k in words else v for k, v in args.items()})


class Game:
    def __init__(self, players: int = 88, seed: str = "s1", settings: dict | None = None, now: datetime = T0,
                 json_state: bool = False, check_pure: bool = True):
        self.seed = seed
        self.json_state = json_state  # store the state as the kernel would: through JSON
        self.check_pure = check_pure
        self.stored = ENGINE.check_settings(settings or {})  # the plain settings the kernel stores
        self.settings = ENGINE.settings_of(self.stored)  # what the rules read (ctx.settings)
        self.now = now
        self.seq = 0
        self.phase: Timer | None = None
        self.timers: dict[str, datetime] = {}
        self.log: list = []
        self.finished: str | None = None
        roster = [Seat(i, f"玩家{i}", f"u{i}") for i in range(1, players + 1)]
        self.state = None
        out = ENGINE.start(roster, self._ctx())
        self._take(out)

    @classmethod
    def resume(cls, state: State, settings: dict, now: datetime, seq: int, timers: dict[str, datetime],
               seed: str = "resumed", json_state: bool = True) -> Game:
        """A game already under way (e.g. a saved one, read back): its phase deadline is ``timers["phase"]``."""
        g = cls.__new__(cls)
        g.seed, g.json_state, g.check_pure = seed, json_state, True
        g.stored = ENGINE.check_settings(settings)
        g.settings = ENGINE.settings_of(g.stored)
        g.now, g.seq = now, seq
        g.timers = {k: v for k, v in timers.items() if k != "phase"}
        g.phase = Timer("phase", timers["phase"]) if "phase" in timers else None
        g.log, g.finished, g.state = [], None, state
        return g

    # ---- plumbing -----------------------------------------------------
    def _ctx(self) -> Ctx:
        self.seq += 1
        timers = tuple(Timer(k, v) for k, v in sorted(self.timers.items()))
        return Ctx(now=self.now, rng=random.Random(f"{self.seed}:{self.seq}"), seq=self.seq, tz=SH,
                   settings=self.settings, phase=self.phase, timers=timers)

    def _take(self, out: Outcome) -> list:
        if self.json_state:  # encoded as the kernel stores it, through JSON, and read back
            self.state = ENGINE.decode(json.loads(json.dumps(ENGINE.encode(out.state), ensure_ascii=False)))
        else:
            out.state.version = ENGINE.STATE_VERSION  # what the kernel's encode marks on the state it holds
            self.state = out.state
        for e in out.effects:
            if isinstance(e, SetPhase):
                self.phase = Timer("phase", e.ends_at) if e.ends_at else None
            elif isinstance(e, SetTimer):
                self.timers[e.key] = e.ends_at
            elif isinstance(e, CancelTimer):
                self.timers.pop(e.key, None)
            elif isinstance(e, Finish):
                self.finished = e.summary
                self.phase = None
                self.timers.clear()
        self.log.append(out.effects)
        return out.effects

    # ---- commands -----------------------------------------------------
    def cmd(self, who: int | None, name: str, /, host: bool = False, private: bool = True, **args) -> list:
        actor = Actor(user_id=f"u{who}" if who else "host", seat=who, is_host=host, private=private)
        before = copy.deepcopy(self.state) if self.check_pure else None
        try:
            out = ENGINE.apply(self.state, actor, Command(name, typed_args(name, args)), self._ctx())
        finally:
            if before is not None:
                assert self.state == before, "the engine mutated its input state"
        return self._take(out)

    def host(self, name: str, /, **args) -> list:
        return self.cmd(None, name, host=True, **args)

    def fire(self, key: str) -> list:
        """Advance the clock to the timer and fire it (as the kernel does)."""
        at = self.phase.ends_at if key == "phase" else self.timers.pop(key)
        self.now = max(self.now, at)
        if key == "phase":
            self.phase = None
        before = copy.deepcopy(self.state) if self.check_pure else None
        out = ENGINE.deadline(self.state, key, self._ctx())
        if before is not None:
            assert self.state == before, "the engine mutated its input state"
        return self._take(out)

    def close_round(self) -> None:
        """The vote close, then the decision window of §五/§七 if one opened (nobody chooses)."""
        self.fire("phase")
        if self.state.step == Step.DECIDING:
            self.fire("phase")

    def fire_due(self, until: datetime | None = None) -> None:
        """Fire every extra timer that falls before ``until`` (default: the phase end)."""
        limit = until or (self.phase.ends_at if self.phase else self.now)
        while True:
            due = sorted((v, k) for k, v in self.timers.items() if v <= limit)
            if not due:
                return
            self.fire(due[0][1])

    # ---- views ----------------------------------------------------------
    def p(self, seat: int) -> Player:
        return self.state.players[seat]

    def seats_of(self, role: str, living: bool = True) -> list[int]:
        return [s for s, p in sorted(self.state.players.items()) if p.role == role and (p.alive or not living)]

    def alive(self) -> list[int]:
        return [s for s, p in self.state.players.items() if p.alive]

    def says(self, to, effects: list | None = None) -> list[str]:
        effs = effects if effects is not None else [e for batch in self.log for e in batch]
        return [e.text for e in effs if isinstance(e, Say) and e.to == to]

    def first_post_names(self, seat: int) -> str:
        """§六.1: eight aliases of other players, at least one a 联合杀."""
        lh = [s for s in self.seats_of("lianhe_sha", living=False)][:1]
        others = [s for s in sorted(self.state.players) if s != seat and s not in lh]
        named = lh + others[: 8 - len(lh)]
        return "我点名" + "、".join(self.p(s).alias for s in named) + "。"

    def submit_post(self, seat: int, target: int, chars: int = 900) -> int:
        code = self.p(seat).code
        names = ""
        if self.p(seat).role == "gu_sha" and not any(p.author == seat for p in self.state.posts):
            names = self.first_post_names(seat)
        self.cmd(seat, "post", code=code, target=target, text=names + essay(chars // 2, f"{seat}号"))
        self.cmd(seat, "text", text=essay(chars - chars // 2, f"{seat}续"))
        self.cmd(seat, "done")
        return len(self.state.posts)

    def report_all(self) -> None:
        for s in sorted(self.alive()):
            self.cmd(s, "report", private=False, text=essay(320, f"{s}报"))

    def vote_all(self, victims: list[int], k: int = 2) -> None:
        """Every living player votes, spreading votes over ``victims``."""
        for i, s in enumerate(sorted(self.alive())):
            if not victims:
                return
            picks = [victims[(i + j) % len(victims)] for j in range(min(k, len(victims)))]
            self.cmd(s, "vote", private=False, targets=picks)


def later(at: datetime, minutes: int) -> datetime:
    return at + timedelta(minutes=minutes)


ZERO = {k: 0 for k in ("yin_jian", "lianhe_jian", "lianhe_dan", "yi_hun", "du_dan", "fu_huo", "di_lei", "hei_dan",
                       "mo_jing", "gong_bing", "huan_hun")}
SMALL = {
    # role effects off: hosts rule special roles by hand; §五–§七 are tested in test_roles_*.py
    "options": {"first_post_aliases": 0, "role_effects": False},
    "counts": {**ZERO, "you_xia": 6, "an_dan": 1, "gu_sha": 1, "lianhe_sha": 2, "du_sha": 3},
    "rounds": [
        {"votes": 2, "out": 1, "posts": {"孤杀": 1}},
        {"votes": 2, "out": 1, "posts": {"联": 1, "独": 2}},
        {"votes": 1, "out": 1, "posts": {"杀": 1}},
    ],
}


def small(seed: str = "small", json_state: bool = False, check_pure: bool = True, **overrides) -> Game:
    """A 13-player variant: 6 游侠, 暗蛋, 孤杀, 2 联合杀, 3 独立杀."""
    return Game(13, seed=seed, settings={**SMALL, **overrides}, json_state=json_state, check_pure=check_pure)
