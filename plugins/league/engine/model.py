"""State layout helpers. State is plain JSON (dict keys are strings). The
settings (rounds, boards, scoring, ...) are not in the state: rules read them
from ``ctx.settings`` and hooks get them from the kernel (``cfg`` parameters).

state = {
  "version": 2,
  "players": {"<reg>": {"alias", "user_id", "status": active|forfeit|dq|out}},
  "round": index of the current round,
  "rounds": [{"key", "name", "seed", "groups": {"A": [reg, ...]}, "members": [reg],
              "demoted": [reg] (ever demoted), "benched": [reg] (demoted, not put in again),
              "ranking": [reg] (set when the round closes),
              "order": {"A": [reg]} (every player ever at a position of the group, in position order)}],
  "days": [{"round", "index", "date", "board", "games", "times": {...},
            "lineups": {"A": [reg]}, "checked": {"<reg>": iso}, "late": [reg],
            "absent": [reg], "promoted": {"<reg>": "A"}, "done": [step], "forfeit": [reg]}],
  "games": [{"id", "round", "day", "group", "slot", "no", "double", "date", "status",
             "sheet", "parsed", "points": {"<reg>": {...}}, "history": [...]}],
  "violations": [{"id", "seat", "round", "game", "type", "level", "points", "source",
                  "reversed": None | {"at", "by", "reason"}}],
  "appeals": [{"id", "seat", "game", "text", "at", "status", "answer"}],
  "audit": [{"at", "by", "action", "detail"}],
  "finished": bool,
}
"""

from __future__ import annotations

from typing import Any

GROUP_NAMES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
ACTIVE = "active"
PART_KEYS = ("win", "behaviour", "vote", "badge", "award", "violation")


def player(state: dict[str, Any], seat: int) -> dict[str, Any]:
    return state["players"][str(seat)]


def current_day(state: dict[str, Any]) -> dict[str, Any] | None:
    days = state["days"]
    if days and days[-1]["round"] == state["round"]:
        return days[-1]
    return None


def round_cfg(cfg: dict[str, Any], r: int) -> dict[str, Any]:
    return cfg["rounds"][r]


def lineup_group(day: dict[str, Any], seat: int) -> str | None:
    for g, members in day["lineups"].items():
        if seat in members:
            return g
    return None


def resolver(state: dict[str, Any]) -> dict[str, int]:
    """Alias or registration number text -> registration number."""
    out: dict[str, int] = {str(int(k)): int(k) for k in state["players"]}
    for k, p in state["players"].items():
        out[p["alias"]] = int(k)
    return out


# ---- where announcements go -------------------------------------------------


def chat_to(group: str, chats: tuple[str, ...]) -> str:
    """The Say target for something that concerns one league group: its linked
    QQ group chat (``/绑定群 <主群号> <组名>``) if there is one, else the main group."""
    return f"chat:{group}" if group in chats else "group"


def per_group(head: str, by_group: dict[str, list[str]], chats: tuple[str, ...], sep: str = "\n") -> list[Any]:
    """One announcement per linked group chat with that group's lines; the lines
    of groups without a linked chat go together in one message to the main group."""
    from plugins.gamekit.contract import Say

    out: list[Any] = []
    main: list[str] = []
    for g in sorted(by_group):
        lines = by_group[g]
        if not lines:
            continue
        if g in chats:
            out.append(Say(f"chat:{g}", head + sep.join(lines)))
        else:
            main += lines
    if main:
        out.insert(0, Say("group", head + sep.join(main)))
    return out
