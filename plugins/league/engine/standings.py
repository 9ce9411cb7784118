"""Round standings with the §九 tie-breaks and the advancement line."""

from __future__ import annotations

from typing import Any

from .model import ACTIVE, PART_KEYS

UNRANKED = 10**9


def _prev_position(state: dict[str, Any], r: int, seat: int) -> int:
    """§九.3: the previous round's ranking; registration order in round 1."""
    if r == 0:
        return seat
    ranking = state["rounds"][r - 1].get("ranking") or []
    return ranking.index(seat) + 1 if seat in ranking else UNRANKED


def rows(state: dict[str, Any], r: int) -> list[dict[str, Any]]:
    """Every member of round ``r``, ranked. Eligible players first (rank 1..n),
    then disqualified/forfeited ones (rank None)."""
    base = state["cfg"]["scoring"]["base"]
    members = list(state["rounds"][r]["members"])
    acc: dict[int, dict[str, Any]] = {}
    for seat in members:
        acc[seat] = {"seat": seat, "alias": state["players"][str(seat)]["alias"],
                     "status": state["players"][str(seat)]["status"],
                     "parts": {k: 0.0 for k in PART_KEYS}, "mvp": 0, "svp": 0,
                     "wins": {"wolf": 0, "god": 0, "villager": 0}, "games": 0}
    cfg_v = state["cfg"]["violations"]
    cancelled = {(v["seat"], v["game"]) for v in state["violations"]
                 if v["game"] is not None and cfg_v.get(v["type"], {}).get("cancel_win")}
    for game in state["games"]:
        if game["round"] != r or game["status"] != "ok":
            continue
        for key, pts in game["points"].items():
            row = acc.get(int(key))
            if row is None:
                continue
            for part, value in pts["parts"].items():
                if part == "win" and value > 0 and (int(key), game["id"]) in cancelled:
                    continue  # §十三.3.5 a): the win points are cancelled, a loss still counts
                row["parts"][part] += value
            row["games"] += 1
            row["mvp"] += int(pts["mvp"])
            row["svp"] += int(pts["svp"])
            if pts["won"]:
                row["wins"][pts["kind"]] += 1
    for v in state["violations"]:
        row = acc.get(v["seat"])
        if v["round"] == r and row is not None:
            row["parts"]["violation"] -= v["points"]
    for row in acc.values():
        row["parts"] = {k: round(x, 4) for k, x in row["parts"].items()}
        row["total"] = round(base + sum(row["parts"].values()), 4)
        row["prev"] = _prev_position(state, r, row["seat"])
        row["key"] = (-row["total"], -row["mvp"], -row["svp"], -row["wins"]["wolf"],
                      -row["wins"]["god"], -row["wins"]["villager"], row["prev"])
    eligible = sorted((x for x in acc.values() if x["status"] == ACTIVE),
                      key=lambda x: (x["key"], x["seat"]))
    others = sorted((x for x in acc.values() if x["status"] != ACTIVE), key=lambda x: (x["key"], x["seat"]))
    advance = state["cfg"]["rounds"][r].get("advance", 0)
    for i, row in enumerate(eligible):
        row["rank"] = i + 1
        row["advance"] = i < advance
        row["tie"] = any(0 <= j < len(eligible) and j != i and eligible[j]["key"] == row["key"]
                         for j in (i - 1, i + 1))
    for row in others:
        row["rank"] = None
        row["advance"] = False
        row["tie"] = False
    return eligible + others


def rank_of(state: dict[str, Any], r: int, seat: int) -> int | None:
    for row in rows(state, r):
        if row["seat"] == seat:
            return row["rank"]
    return None
