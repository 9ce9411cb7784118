"""State layout and small helpers. State is JSON: seat keys are strings.

The game's settings (roles, points, clock, room mode…) are not in the state: rules read
them from ``ctx.settings``, the read-only hooks from their ``settings`` keyword.

state = {
  "version": 2, "phase": "prep|day|verdict|rooms|night|over", "day": int,
  "players": {"3": {seat, alias, user_id, kind: guard|prisoner, role, status:
               alive|dead|released|out, out_day, number, love, hate, posts: {day: n},
               uses: {ability key: n}, used_phase: {ability key: "day:2"}}},
  "order": [seats], "mapping": {"a": "E"}, "chief", "leader", "uprising_used",
  "elect": {seat: target}, "votes": {seat: option}, "uprising": None | {"by", "votes"},
  "picks": [{"by", "camp", "options"}], "rooms": {"a": seat}, "nights": [...],
  "tonight": {"point_kill": seat|None, "spare": bool}, "log": [...],
  "subs": {"map": [...], "alias": [...]}, "notes": [...], "result": None | {...},
  "signup": {seat: {number, nickname, contact, first, second}},  # the sign-up at the deal
}
During the auction (``phase`` "auction") the state holds only order, players (with their
/资料 ``profile``), nights and ``auction``; the deal at its close makes the state above.
"""

from __future__ import annotations

from typing import Any

from . import texts as T

JSON = Any
Settings = dict[str, Any]  # the game's settings (ctx.settings), never changed
ABSTAIN = "skip"

def room_letters(n: int) -> tuple[list[str], list[str]]:
    lower = [chr(ord("a") + i) for i in range(n)]
    return lower, [c.upper() for c in lower]


def player(state: JSON, seat: int) -> dict[str, Any]:
    return state["players"][str(seat)]


def seats(state: JSON) -> list[int]:
    return list(state["order"])


def in_prison(state: JSON, seat: int) -> bool:
    return player(state, seat)["status"] == "alive"


def living(state: JSON, kind: str | None = None) -> list[int]:
    return [
        s for s in state["order"]
        if player(state, s)["status"] == "alive" and (kind is None or player(state, s)["kind"] == kind)
    ]


def role(state: JSON, cfg: Settings, seat: int) -> dict[str, Any]:
    p = player(state, seat)
    camp = "guards" if p["kind"] == "guard" else "prisoners"
    for r in cfg[camp]:
        if r["id"] == p["role"]:
            return r
    raise KeyError(p["role"])


def abilities(state: JSON, cfg: Settings, seat: int) -> list[dict[str, Any]]:
    return list(role(state, cfg, seat).get("abilities", []))


def ability(state: JSON, cfg: Settings, seat: int, kind: str, name: str | None = None) -> dict[str, Any] | None:
    for ab in abilities(state, cfg, seat):
        if ab["kind"] == kind and (name is None or ab.get("name") == name):
            return ab
    return None


def ability_key(ab: dict[str, Any]) -> str:
    return f"{ab['kind']}:{ab['name']}" if ab["kind"] == "generic" else ab["kind"]


def default_uses(ab: dict[str, Any]) -> int:
    """0 = unlimited."""
    if "uses" in ab:
        return int(ab["uses"])
    return {"point_kill": 1, "noise": 1}.get(ab["kind"], 0)


def uses_left(state: JSON, seat: int, ab: dict[str, Any]) -> int | None:
    """None = unlimited."""
    total = default_uses(ab)
    if total == 0:
        return None
    return total - player(state, seat)["uses"].get(ability_key(ab), 0)


def is_murderer(state: JSON, cfg: Settings, seat: int) -> bool:
    return role(state, cfg, seat).get("murderer") is True


def murderer_side(state: JSON, cfg: Settings, seat: int) -> bool:
    r = role(state, cfg, seat)
    return r.get("murderer") is True or r.get("side") == "murderer"


def murderer_seat(state: JSON, cfg: Settings) -> int:
    for s in state["order"]:
        if is_murderer(state, cfg, s):
            return s
    raise KeyError("murderer")


def name(state: JSON, seat: int) -> str:
    return T.SEAT_NAME.format(seat=seat, alias=player(state, seat)["alias"])


def names(state: JSON, seat_list: list[int]) -> str:
    return T.names_or_none([name(state, s) for s in seat_list])


def lover_of(state: JSON, cfg: Settings, seat: int) -> int | None:
    """The seat dealt the role this seat's lover ability points to (or that points here)."""
    mine = player(state, seat)["role"]
    for ab in abilities(state, cfg, seat):
        if ab["kind"] == "lover":
            for s in state["order"]:
                if player(state, s)["role"] == ab["with"]:
                    return s
    for s in state["order"]:
        if s != seat and any(ab["kind"] == "lover" and ab.get("with") == mine for ab in abilities(state, cfg, s)):
            return s
    return None


def phase_tag(state: JSON) -> str:
    return f"{state['phase']}:{state['day']}"


def current_night(state: JSON) -> dict[str, Any] | None:
    if state["nights"] and state["nights"][-1]["night"] == state["day"]:
        return state["nights"][-1]
    return None


def pair_of(state: JSON, seat: int) -> tuple[dict[str, Any] | None, int | None]:
    """(tonight's pair record, partner seat) for a seat, or (None, None) when 轮空/no night."""
    night = current_night(state)
    if night is None:
        return None, None
    for pair in night["pairs"]:
        if pair["guard"] == seat:
            return pair, pair["prisoner"]
        if pair["prisoner"] == seat:
            return pair, pair["guard"]
    return None, None
