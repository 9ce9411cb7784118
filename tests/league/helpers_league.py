"""Test driver for the league engine: builds Ctx like the kernel does and
checks on every call that the engine never mutates the state it is given."""

from __future__ import annotations

import random
from datetime import datetime, timezone
from typing import Any
from zoneinfo import ZoneInfo

import msgspec

from plugins.gamekit.args import Args, SeatReason
from plugins.gamekit.contract import KERNEL_BACK, KERNEL_OUT, Actor, Command, Ctx, Eliminate, Rejected, Say, Seat
from plugins.league.engine import ENGINE, Settings, State
from plugins.league.engine.state import Day

TZ = ZoneInfo("Asia/Shanghai")
HOST = Actor("referee", None, True, True)


def at(month_day: str, hhmm: str, year: int = 2027) -> datetime:
    """Local Asia/Shanghai wall time -> aware UTC datetime."""
    m, d = (int(x) for x in month_day.split("-"))
    h, mi = (int(x) for x in hhmm.split(":"))
    return datetime(year, m, d, h, mi, tzinfo=TZ).astimezone(timezone.utc)


def snapshot(state: State) -> bytes:
    return msgspec.json.encode(state)


def args_of(name: str, args: dict[str, Any]) -> Args:
    """A command's typed arguments from keywords (the kernel reads them from chat)."""
    if name in (KERNEL_OUT, KERNEL_BACK):
        return SeatReason(**args)
    return ENGINE.specs[name].args(**args)


class League:
    def __init__(self, n: int = 130, settings: dict[str, Any] | None = None, seed: str = "t",
                 start: datetime | None = None, chats: tuple[str, ...] = ()) -> None:
        self.seed = seed
        self.seq = 0
        self.chats = tuple(chats)  # labels of linked group chats (/绑定群), as the kernel passes them
        self.stored = ENGINE.check_settings(settings or {})  # as the kernel stores them
        self.cfg: Settings = ENGINE.settings_of(self.stored)
        self.effects: list[Any] = []
        self.log: list[tuple[str, Any]] = []
        roster = [Seat(i, f"p{i}", str(10000 + i)) for i in range(1, n + 1)]
        out = ENGINE.start(roster, self.ctx(start or at("1-1", "12:00")))
        self.state = out.state
        self.effects += out.effects
        self.log.append(("start", out.effects))

    @classmethod
    def resume(cls, state: State, settings: dict[str, Any], seed: str = "t", seq: int = 1000,
               chats: tuple[str, ...] = ()) -> League:
        """A league going on from ``state`` (e.g. one the kernel stored and read back)."""
        lg = cls.__new__(cls)
        lg.seed, lg.seq, lg.chats = seed, seq, tuple(chats)
        lg.stored = ENGINE.check_settings(settings)
        lg.cfg = ENGINE.settings_of(lg.stored)
        lg.effects, lg.log = [], []
        lg.state = state
        return lg

    def ctx(self, now: datetime) -> Ctx[Settings]:
        self.seq += 1
        return Ctx(now=now, rng=random.Random(f"{self.seed}:{self.seq}"), seq=self.seq, tz=TZ,
                   settings=self.cfg, chats=self.chats)

    def _run(self, fn, *args) -> list[Any]:
        before = snapshot(self.state)
        out = fn(self.state, *args)
        assert snapshot(self.state) == before, "engine mutated its input state"
        self.state = out.state
        self.effects += out.effects
        self.log.append((getattr(fn, "__name__", "?"), out.effects))
        return out.effects

    def cmd(self, actor: Actor, name: str, args: dict[str, Any] | None, now: datetime) -> list[Any]:
        command = Command(name, args_of(name, args or {}))
        return self._run(lambda st, c: ENGINE.apply(st, actor, command, c), self.ctx(now))

    def host(self, name: str, now: datetime, **args: Any) -> list[Any]:
        return self.cmd(HOST, name, args, now)

    def player(self, seat: int, name: str, now: datetime, chat: str | None = None, **args: Any) -> list[Any]:
        return self.cmd(Actor(str(10000 + seat), seat, False, False, chat), name, args, now)

    def timer(self, key: str, now: datetime) -> list[Any]:
        return self._run(lambda st, c: ENGINE.deadline(st, key, c), self.ctx(now))

    def rejected(self, actor: Actor, name: str, now: datetime, **args: Any) -> str:
        """The refusal text; asserts the state did not change."""
        before = snapshot(self.state)
        try:
            ENGINE.apply(self.state, actor, Command(name, args_of(name, args)), self.ctx(now))
        except Rejected as exc:
            assert snapshot(self.state) == before
            return str(exc)
        raise AssertionError(f"{name} {args} was accepted")

    def host_rejected(self, name: str, now: datetime, **args: Any) -> str:
        return self.rejected(HOST, name, now, **args)

    def player_rejected(self, seat: int, name: str, now: datetime, chat: str | None = None, **args: Any) -> str:
        return self.rejected(Actor(str(10000 + seat), seat, False, False, chat), name, now, **args)

    # ---- views
    @property
    def day(self) -> Day:
        return self.state.days[-1]

    def lineup(self, group: str) -> list[int]:
        return list(self.day.lineups[group])

    def groups(self) -> dict[str, list[int]]:
        return self.state.current.groups


def texts(effects: list[Any], to: Any = None) -> list[str]:
    return [e.text for e in effects if isinstance(e, Say) and (to is None or e.to == to)]


def eliminated(effects: list[Any]) -> list[int]:
    return [e.seat for e in effects if isinstance(e, Eliminate)]


GOOD_ORDER = ("预言家", "纯白之女", "女巫", "猎人", "守卫", "摄梦人", "骑士", "猎魔人", "白痴", "愚者", "平民")


def board_roles(cfg: Settings, board: str) -> list[str]:
    """The board's 12 roles: gods (fixed order), villagers, then wolves (special wolf last)."""
    roles = cfg.boards[board].roles
    good = [r for r in GOOD_ORDER if r in roles for _ in range(roles[r])]
    wolves = [r for r in ("狼人",) if r in roles for _ in range(roles[r])]
    wolves += [r for r in roles if cfg.roles[r].side == "wolf" and r != "狼人" for _ in range(roles[r])]
    assert len(good) + len(wolves) == sum(roles.values())
    return good + wolves


def sheet(group: str, no: int | None, winner: str, lines: list[tuple[int, int, str, str]],
          extra: tuple[str, ...] = ()) -> str:
    """lines: (game seat, registration number, role, tokens)."""
    head = f"{group}组" + (f" 第{no}场" if no else "")
    body = [f"{g} #{reg} {role} {tok}".rstrip() for g, reg, role, tok in lines]
    return "\n".join([head, f"胜方 {winner}"] + body + list(extra))


def plain_sheet(cfg: Settings, board: str, group: str, no: int | None, lineup: list[int],
                winner: str = "好人", tokens: dict[int, str] | None = None,
                extra: tuple[str, ...] = ()) -> str:
    """Players sorted by registration number get the board roles in board_roles order;
    ``tokens`` maps that position (0..11) to extra tokens. Game seat = position + 1."""
    roles = board_roles(cfg, board)
    order = sorted(lineup)
    tokens = tokens or {}
    return sheet(group, no, winner, [(k + 1, reg, roles[k], tokens.get(k, "")) for k, reg in enumerate(order)], extra)


def checkin_all(lg: League, now: datetime, skip: tuple[int, ...] = ()) -> None:
    for g in sorted(lg.day.lineups):
        for seat in lg.day.lineups[g]:
            if seat not in skip and seat not in lg.day.checked:
                lg.player(seat, "checkin", now, chat=g if g in lg.chats else None)


def play_day(lg: League, date: str, tokens_for=None, skip: tuple[int, ...] = ()) -> None:
    """Open the next match day, everyone checks in, timers pass, every game is entered."""
    lg.host("open_day", at(date, "12:00"), date=date)
    checkin_all(lg, at(date, "18:10"), skip)
    for key, hhmm in (("checkin.late", "18:30"), ("checkin.demote", "18:35"), ("checkin.seat", "18:50")):
        lg.timer(key, at(date, hhmm))
    day = lg.day
    for no in range(day.first_no, day.first_no + day.games):
        for g in sorted(day.lineups):
            tok = tokens_for(g, no, sorted(day.lineups[g])) if tokens_for else {}
            lg.host("score", at(date, "22:00"),
                    text=plain_sheet(lg.cfg, day.board, g, no, day.lineups[g], tokens=tok))
