"""Shared mutations and timing helpers (all act on an already-copied state)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from plugins.gamekit.clock import fmt_local, next_at
from plugins.gamekit.contract import Ctx, Eliminate, Rejected, SetPhase

from . import model as m
from . import texts as T

Fx = list[Any]


def hhmm(at: datetime | None, ctx: Ctx) -> str:
    return fmt_local(at, ctx.tz) if at is not None else T.BY_HOST


def phase_end(key: str, ctx: Ctx) -> datetime | None:
    cfg = ctx.settings
    if key in ("prep", "auction"):
        minutes = int(cfg["prep_minutes"] if key == "prep" else cfg["auction"]["minutes"])
        return ctx.now + timedelta(minutes=minutes) if minutes else None
    if key == "verdict":
        return ctx.now + timedelta(minutes=int(cfg["verdict_minutes"]))
    setting = {"day": "day_end", "rooms": "rooms_end", "night": "night_end"}[key]
    return next_at(ctx.now, cfg[setting], ctx.tz)


def enter(state: m.JSON, key: str, ctx: Ctx, fx: Fx) -> datetime | None:
    ends = phase_end(key, ctx)
    state["phase"] = key
    label = T.day_label(key, state["day"]) if key not in ("prep", "auction") else T.PHASE_LABELS[key]
    fx.append(SetPhase(key, label, ends))
    return ends


def log_use(state: m.JSON, ctx: Ctx, seat: int, ability: str, target: str, result: str | None) -> dict[str, Any]:
    entry = {
        "id": len(state["log"]) + 1, "seq": ctx.seq, "at": ctx.now.isoformat(), "day": state["day"],
        "phase": state["phase"], "seat": seat, "ability": ability, "target": target, "result": result,
    }
    state["log"].append(entry)
    return entry


def spend(state: m.JSON, seat: int, ab: dict[str, Any]) -> None:
    p = m.player(state, seat)
    key = m.ability_key(ab)
    p["uses"][key] = p["uses"].get(key, 0) + 1
    p["used_phase"][key] = m.phase_tag(state)


def need_uses(state: m.JSON, seat: int, ab: dict[str, Any], label: str) -> None:
    left = m.uses_left(state, seat, ab)
    if left is not None and left <= 0:
        raise Rejected(T.USED_UP.format(label=label))


def kill(state: m.JSON, cfg: m.Settings, seat: int, reason: str, fx: Fx, dead: list[int] | None = None) -> None:
    """A death, with the lovers' linked fate (情侣)."""
    p = m.player(state, seat)
    if p["status"] != "alive":
        return
    p["status"] = "dead"
    p["out_day"] = state["day"]
    p["reason"] = reason
    fx.append(Eliminate(seat, reason))
    if dead is not None:
        dead.append(seat)
    other = m.lover_of(state, cfg, seat)
    if other is not None and m.player(state, other)["status"] == "alive":
        kill(state, cfg, other, T.DIED_FOR_LOVE.format(name=m.name(state, seat)), fx, dead)


def release(state: m.JSON, seat: int, fx: Fx) -> None:
    p = m.player(state, seat)
    if p["status"] != "alive":
        return
    p["status"] = "released"
    p["out_day"] = state["day"]
    p["reason"] = T.REASON_RELEASED
    fx.append(Eliminate(seat, T.OUT_RELEASED))


def me(state: m.JSON, actor: Any) -> int:
    """The acting player's seat; refuses non-players and players out of the prison."""
    if actor.seat is None or str(actor.seat) not in state["players"]:
        raise Rejected(T.NOT_PLAYER)
    status = m.player(state, actor.seat)["status"]
    if status == "dead" or status == "out":
        raise Rejected(T.YOU_ARE_OUT)
    if status == "released":
        raise Rejected(T.YOU_ARE_RELEASED)
    return int(actor.seat)


def member(state: m.JSON, actor: Any) -> int:
    """Any player of the game, in or out (for 树洞 and submissions)."""
    if actor.seat is None or str(actor.seat) not in state["players"]:
        raise Rejected(T.NOT_PLAYER)
    return int(actor.seat)


def target(state: m.JSON, seat: Any) -> int:
    if not isinstance(seat, int) or str(seat) not in state["players"]:
        raise Rejected(T.NO_SUCH_PLAYER)
    return seat


def card(state: m.JSON, cfg: m.Settings, fx: Fx, seat: int, reason: str, public: str | None = None) -> None:
    """【规则判罚】（三）潜水: an automatic yellow card. ``public`` is what the
    group sees when the full reason would reveal a role or ability."""
    from .effects import GiveCard

    if cfg["auto_cards"]:
        fx.append(GiveCard(seat, "yellow", reason, public))
        state.setdefault("cards", []).append({"day": state["day"], "seat": seat, "reason": reason})


def compulsory_check(state: m.JSON, cfg: m.Settings, fx: Fx, when: str) -> None:
    """（三）3: compulsory abilities of ``when`` not used in this phase -> yellow card."""
    d = state["day"]
    ok = [f"day:{d}"] if when == "day" else [f"rooms:{d}", f"night:{d}"]
    for s in m.living(state):
        for ab in m.abilities(state, cfg, s):
            if not ab.get("compulsory") or ab.get("when", "any") != when:
                continue
            left = m.uses_left(state, s, ab)
            if left is not None and left <= 0:
                continue
            if m.player(state, s)["used_phase"].get(m.ability_key(ab), "") not in ok:
                label = ab.get("name", ab["kind"])
                card(state, cfg, fx, s, T.CARD_COMPULSORY.format(day=d, label=label),
                     T.CARD_COMPULSORY_PUBLIC.format(day=d))
