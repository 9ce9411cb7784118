"""State layout and small accessors. The state is plain JSON: dict keys are
strings (seats as ``"12"``), times are ISO strings (UTC).

state = {
  "version": shape of this dict,
  "table": the live round table (copied from the settings at the start; hosts may change it),
  "tz": zone name,
  "players": {"12": {seat, alias, role, code, signal, alive, out, report}},
  "round": current round (1-based), "step": "round" | "overtime" | "over",
  "rounds": {"1": {due, flags, ballots, marks, outs, result, ...}},
  "posts": [post, ...]  (id = index + 1), "drafts": {"12": draft},
  "signals": [[seek, reply], ...], "winner": None | "white" | "black" | "",
}
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from plugins.kernel.clock import fmt_local

State = dict[str, Any]
Settings = dict[str, Any]  # the game's engine-checked settings (ctx.settings); never changed

FACTION_NAME = {"white": "白方", "black": "黑方"}


def iso(at: datetime) -> str:
    return at.isoformat()


def dt(text: str) -> datetime:
    return datetime.fromisoformat(text)


def tz(state: State) -> ZoneInfo:
    return ZoneInfo(state["tz"])


def when(state: State, text: str | None) -> str:
    return fmt_local(dt(text), tz(state)) if text else "（未定）"


def hhmm(state: State, text: str) -> str:
    return f"{dt(text).astimezone(tz(state)):%H:%M}"


def role(cfg: Settings, key: str) -> dict[str, Any]:
    for r in cfg["roles"]:
        if r["key"] == key:
            return r
    raise KeyError(key)


def group(cfg: Settings, key: str) -> dict[str, Any]:
    for g in cfg["groups"]:
        if g["key"] == key:
            return g
    raise KeyError(key)


def player(state: State, seat: int) -> dict[str, Any] | None:
    return state["players"].get(str(seat))


def seats(state: State) -> list[int]:
    return sorted(int(s) for s in state["players"])


def alive(state: State) -> list[int]:
    return [s for s in seats(state) if state["players"][str(s)]["alive"]]


def faction(state: State, cfg: Settings, seat: int) -> str:
    return role(cfg, state["players"][str(seat)]["role"])["faction"]


def name(state: State, seat: int) -> str:
    """How a player is shown: '12号 张三'."""
    p = state["players"][str(seat)]
    return f"{seat}号 {p['alias']}"


def role_name(state: State, cfg: Settings, seat: int) -> str:
    return role(cfg, state["players"][str(seat)]["role"])["name"]


def role_label(state: State, cfg: Settings, seat: int) -> str:
    """The role as dealt and, after a role change (§五白4/黑8), what it became: '还魂→联合杀'."""
    p = state["players"][str(seat)]
    now = role(cfg, p["role"])["name"]
    dealt = p.get("dealt")
    return f"{role(cfg, dealt)['name']}→{now}" if dealt and dealt != p["role"] else now


def code_rank(state: State, cfg: Settings, seat: int) -> tuple[int, int]:
    """Position in §十六's code-name order (role order, then code order)."""
    p = state["players"][str(seat)]
    keys = [r["key"] for r in cfg["roles"]]
    codes = role(cfg, p["role"])["codes"]
    return keys.index(p["role"]), codes.index(p["code"]) if p["code"] in codes else seat


def row(state: State, r: int) -> dict[str, Any]:
    """The table row of round ``r``; rounds past the table repeat the last row."""
    table = state["table"]
    return table[min(r, len(table)) - 1]


def is_no_white_round(state: State, r: int) -> bool:
    """§十二.8: the final round and overtime rounds take no white slips."""
    return r >= len(state["table"])


def rnd(state: State, r: int | None = None) -> dict[str, Any]:
    return state["rounds"][str(state["round"] if r is None else r)]


def new_round(r: int) -> dict[str, Any]:
    return {
        "round": r,
        "due": {"posts": None, "publish": None, "close": None, "white": None},
        "posts_done": False,
        "published": False,
        "closed": False,
        "white_done": False,
        "ballots": [],  # {seq, n, at, voter, targets, proxy}
        "next_n": 1,
        "overtime": None,  # {tied, slots, above, ballots, ends}
        "marks": [],  # pending deaths {seat, cause, reason}
        "outs": [],  # applied: {seat, cause, reason}
        "result": None,
    }


def mark_out(state: State, seat: int, cause: str, reason: str, effects: list, post: int | None = None) -> bool:
    """Put a living player out once (nobody dies twice). Returns True if applied."""
    from plugins.kernel.contract import Eliminate

    p = state["players"][str(seat)]
    if not p["alive"]:
        return False
    p["alive"] = False
    p["out"] = {"round": state["round"], "cause": cause, "reason": reason, "post": post}
    if state["step"] != "over" and str(state["round"]) in state["rounds"]:
        rnd(state)["outs"].append({"seat": seat, "cause": cause, "reason": reason})
    state["drafts"].pop(str(seat), None)
    effects.append(Eliminate(seat, reason))
    return True


def bring_back(state: State, seat: int, reason: str, effects: list) -> bool:
    from plugins.kernel.contract import Restore

    p = state["players"][str(seat)]
    if p["alive"]:
        return False
    p["alive"] = True
    p["out"] = None
    effects.append(Restore(seat, reason))
    return True


def post_killed_now(state: State, seat: int) -> bool:
    """Killed by a post in the current round (votes at half weight, §十三.3)."""
    p = state["players"][str(seat)]
    return (not p["alive"]) and p["out"] is not None and p["out"]["cause"] in ("post", "mutual", "mine", "soul") and p["out"]["round"] == state["round"]
