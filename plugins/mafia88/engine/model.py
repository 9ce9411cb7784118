"""State layout, small accessors and the private role message. The state is plain
JSON: dict keys are strings (seats as ``"12"``), times are ISO strings (UTC). The
settings are not in it: the rules read them from ``ctx.settings``.

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

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from plugins.gamekit.clock import fmt_local

from . import texts as T

State = dict[str, Any]
Settings = dict[str, Any]  # the game's engine-checked settings (ctx.settings); never changed

FACTION_NAME = T.FACTION_NAME


def iso(at: datetime) -> str:
    return at.isoformat()


def dt(text: str) -> datetime:
    return datetime.fromisoformat(text)


def tz(state: State) -> ZoneInfo:
    return ZoneInfo(state["tz"])


def when(state: State, text: str | None) -> str:
    return fmt_local(dt(text), tz(state)) if text else T.UNSET_TIME


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
    return T.PLAYER_NAME.format(seat=seat, alias=p["alias"])


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
    from plugins.gamekit.contract import Eliminate

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
    from plugins.gamekit.contract import Restore

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


@dataclass(frozen=True)
class Dealt:
    """What every role message of one moment shares: the seats holding each role (in seat
    order) and the roles that post. Built once for /开始's 88 messages instead of per message."""

    by_role: dict[str, list[int]]
    posting: frozenset[str]
    roles: dict[str, dict[str, Any]]  # key -> role, looked up once per key (not 88 times per search)

    @classmethod
    def of(cls, state: State, cfg: Settings) -> Dealt:
        by_role: dict[str, list[int]] = {}
        for s in seats(state):
            by_role.setdefault(state["players"][str(s)]["role"], []).append(s)
        return cls(by_role, frozenset(posting_roles(cfg)), {r["key"]: r for r in cfg["roles"]})


def role_message(state: State, cfg: Settings, seat: int, dealt: Dealt | None = None) -> str:
    """The private role message (/我的身份). A disguised role (暗蛋) is told
    its disguise, built from the disguise's data only, so it reads byte for
    byte like that role's message (§五 白方 7)."""
    dealt = dealt or Dealt.of(state, cfg)
    roles = dealt.roles
    p = state["players"][str(seat)]
    real = roles[p["role"]]
    shown = roles[real["disguise"]] if real["disguise"] else real
    lines = [T.ROLE_YOURS.format(name=shown["name"], faction_name=FACTION_NAME[shown["faction"]])]
    if shown["brief"]:
        lines.append(shown["brief"])
    if shown is real and p["code"]:
        lines.append(T.ROLE_CODE.format(code=p["code"]))
    for key in shown["knows"]:
        if shown is not real:
            break
        mates = [s for s in dealt.by_role.get(key, []) if s != seat]
        label = roles[key]["name"]
        lines.append(T.ROLE_MATES.format(label=label, mates=T.LIST_SEP.join(name(state, s) for s in mates) if mates else T.NONE))
    if shown is real and p["signal"]:
        seek, reply = p["signal"]
        lines.append(T.ROLE_SIGNAL.format(seek=seek, reply=reply))
        others = [pair for pair in state["signals"] if list(pair) != list(p["signal"])]
        if others:  # §五黑3, §七.3: the three carriers can find each other
            lines.append(T.ROLE_OTHER_SIGNALS + T.SEMI_SEP.join(T.SIGNAL_PAIR.format(seek=a, reply=b) for a, b in others)
                         + T.ROLE_SIGNALS_HOW)
    if shown is real and real["signals"] and state["signals"]:
        pairs = T.SEMI_SEP.join(T.SIGNAL_PAIR.format(seek=a, reply=b) for a, b in state["signals"])
        lines.append(T.ROLE_ALL_SIGNALS.format(pairs=pairs))
    if shown is real and real["key"] in dealt.posting:
        lines.append(T.ROLE_HOW_TO_POST)
    return "\n".join(lines)


def posting_roles(cfg: Settings) -> list[str]:
    keys: list[str] = []
    for g in cfg["groups"]:
        keys.extend(g["roles"])
        for tier in g["substitutes"]:
            keys.extend(tier["roles"])
    return keys
