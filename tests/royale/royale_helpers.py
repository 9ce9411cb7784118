"""A tiny driver for the royale engine in tests (imported as a plain module)."""

from __future__ import annotations

import copy
import random
from datetime import datetime, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

import msgspec
import pytest

from plugins.gamekit.args import Args, SeatReason
from plugins.gamekit.contract import (
    KERNEL_BACK,
    KERNEL_OUT,
    Actor,
    Command,
    Ctx,
    Outcome,
    Rejected,
    Say,
    Seat,
    SetPhase,
    Timer,
)
from plugins.royale.engine import ENGINE, Settings, State
from plugins.royale.engine.content import CONTENT, Catalog
from plugins.royale.engine.model import new_item
from plugins.royale.engine.state import Item, ItemKind, Player, Slot

TZ = ZoneInfo("Asia/Shanghai")
# 12:00 in Shanghai: day 1 runs until 21:10.
T0 = datetime(2026, 11, 30, 4, 0, tzinfo=timezone.utc)


def empty_world() -> dict[str, Any]:
    """Settings override: nothing scattered at start, no air drops."""
    d = CONTENT.defaults()
    over: dict[str, Any] = {"weapons": {}, "armours": {}, "airdrops": []}
    for section in ("weapons", "armours"):
        for grade in d[section]:
            over[section][grade] = {"count": 0}
    over["others"] = [dict(o, count=0) for o in d["others"]]
    return over


def merge(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(a)
    for k, v in b.items():
        out[k] = merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def args_of(name: str, args: dict[str, Any]) -> Args:
    """A command's typed arguments, as the kernel's parser (or the command log) gives them."""
    if name in (KERNEL_OUT, KERNEL_BACK):
        return SeatReason(**args)
    spec = ENGINE.specs.get(name)
    assert spec is not None, name
    return msgspec.convert(args, spec.args)


class Game:
    def __init__(self, n: int = 4, seed: str = "seed", settings: dict[str, Any] | None = None,
                 now: datetime = T0, aliases: list[str] | None = None) -> None:
        self.seed = seed
        self.cfg: Settings = ENGINE.settings_of(ENGINE.check_settings(settings or {}))
        self.cat: Catalog = self.cfg.catalog
        self.seq = 0
        self.now = now
        self.phase_end: datetime | None = None
        self.log: list[tuple[str, Any]] = []
        self.all_effects: list[Any] = []
        names = aliases or [f"P{i}" for i in range(1, n + 1)]
        roster = [Seat(i, names[i - 1], f"u{i}") for i in range(1, n + 1)]
        out = ENGINE.start(roster, self.ctx())
        self._take(out)

    # -- plumbing
    def ctx(self) -> Ctx[Settings]:
        self.seq += 1
        phase = Timer("phase", self.phase_end) if self.phase_end else None
        return Ctx(now=self.now, rng=random.Random(f"{self.seed}:{self.seq}"), seq=self.seq, tz=TZ,
                   settings=self.cfg, phase=phase)

    def _take(self, out: Outcome[State]) -> Outcome[State]:
        self.state: State = out.state
        self.all_effects.extend(out.effects)
        for e in out.effects:
            if isinstance(e, SetPhase):
                self.phase_end = e.ends_at
        return out

    def cmd(self, seat: int | None, name: str, /, host: bool = False, **args: Any) -> Outcome[State]:
        actor = Actor(f"u{seat}", seat, host, True)
        self.log.append(("cmd", seat, name, args, self.now))
        return self._take(ENGINE.apply(self.state, actor, Command(name, args_of(name, args)), self.ctx()))

    def reject(self, seat: int | None, name: str, /, host: bool = False, **args: Any) -> str:
        before = copy.deepcopy(self.state)
        actor = Actor(f"u{seat}", seat, host, True)
        with pytest.raises(Rejected) as exc:
            ENGINE.apply(self.state, actor, Command(name, args_of(name, args)), self.ctx())
        assert self.state == before
        return str(exc.value)

    def advance(self) -> Outcome[State]:
        """The phase deadline passes (time jumps there)."""
        assert self.phase_end is not None
        self.now = max(self.now, self.phase_end)
        self.log.append(("deadline", self.now))
        return self._take(ENGINE.deadline(self.state, "phase", self.ctx()))

    def tick(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)

    # -- shortcuts
    def p(self, seat: int) -> Player:
        return self.state.players[seat]

    def item(self, seat: int, ident: int) -> Item:
        """The current version of an item the player holds (states are copied per command)."""
        return next(it for it in self.p(seat).items if it.id == ident)

    def give(self, seat: int, name: str, equip: bool = False) -> Item:
        item = new_item(self.state, self.cat, name)
        self.p(seat).items.append(item)
        if equip:
            slot = {ItemKind.WEAPON: Slot.WEAPON, ItemKind.ARMOUR: Slot.ARMOUR}.get(item.kind, Slot.HELD)
            self.p(seat).set_hand(slot, item.id)
        return item

    def use(self, seat: int, item: str, **args: Any) -> Outcome[State]:
        """【使用】只能用手中的道具: take it in hand first (/装备, free), then /使用."""
        p = self.p(seat)
        if not any(it.name == item and p.is_equipped(it) for it in p.items):
            self.cmd(seat, "equip", item=item)
        return self.cmd(seat, "use", item=item, **args)

    def put(self, place: str, name: str) -> Item:
        item = new_item(self.state, self.cat, name)
        self.state.ground[place].append(item)
        return item

    def night(self) -> None:
        if self.state.phase == "day":
            self.advance()
        assert self.state.phase == "night"

    def born(self, places: dict[int, str]) -> None:
        self.night()
        for seat, place in places.items():
            self.cmd(seat, "birth", place=place)


def texts(out: Outcome[State], to: Any = "reply") -> list[str]:
    return [e.text for e in out.effects if isinstance(e, Say) and e.to == to]


def text(out: Outcome[State], to: Any = "reply") -> str:
    return "\n".join(texts(out, to))


def all_item_ids(state: State) -> list[int]:
    ids = [it.id for items in state.ground.values() for it in items]
    ids += [it.id for p in state.players.values() for it in p.items]
    return sorted(ids)
