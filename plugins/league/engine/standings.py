"""Round standings with the §九 tie-breaks and the advancement line."""

from __future__ import annotations

from typing import Any

from . import texts as T
from .model import ACTIVE, PART_KEYS

UNRANKED = 10**9
DEMOTED = "demoted"  # row status of a player demoted to substitute who has not played since (§五/§十.3)


def live_violations(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Violations that still count (not taken back with /撤销 or replaced by /改分)."""
    return [v for v in state["violations"] if not v.get("reversed")]


def award_blocked(state: dict[str, Any], cfg: dict[str, Any], seat: int, game_id: int) -> dict[str, Any] | None:
    """§七.3: the live violation that cost ``seat`` award eligibility in that game, if any."""
    cfg_v = cfg["violations"]
    for v in live_violations(state):
        if v["seat"] == seat and v["game"] == game_id and cfg_v.get(v["type"], {}).get("blocks_award"):
            return v
    return None


def benched(state: dict[str, Any], r: int) -> list[int]:
    """Players demoted to substitute this round (§五 18:35) who have not been put in again."""
    return state["rounds"][r].get("benched", [])


def _prev_position(state: dict[str, Any], r: int, seat: int) -> int:
    """§九.3: the previous round's ranking; registration order in round 1."""
    if r == 0:
        return seat
    ranking = state["rounds"][r - 1].get("ranking") or []
    return ranking.index(seat) + 1 if seat in ranking else UNRANKED


def game_award(state: dict[str, Any], cfg: dict[str, Any], game: dict[str, Any], key: str) -> tuple[float, bool, bool]:
    """(award points, mvp, svp) of one player in one game after §七.3."""
    pts = game["points"][key]
    if award_blocked(state, cfg, int(key), game["id"]):
        return 0.0, False, False
    return pts["parts"]["award"], bool(pts["mvp"]), bool(pts["svp"])


def rows(state: dict[str, Any], cfg: dict[str, Any], r: int) -> list[dict[str, Any]]:
    """Every member of round ``r``, ranked. Eligible players first (rank 1..n),
    then demoted (not played since), disqualified and forfeited ones (rank None)."""
    base = cfg["scoring"]["base"]
    members = list(state["rounds"][r]["members"])
    bench = set(benched(state, r))
    multi = len(state["rounds"][r]["groups"]) > 1
    acc: dict[int, dict[str, Any]] = {}
    for seat in members:
        status = state["players"][str(seat)]["status"]
        if status == ACTIVE and seat in bench:
            status = DEMOTED
        acc[seat] = {"seat": seat, "alias": state["players"][str(seat)]["alias"], "status": status,
                     "parts": {k: 0.0 for k in PART_KEYS}, "mvp": 0, "svp": 0,
                     "wins": {"wolf": 0, "god": 0, "villager": 0}, "games": 0, "group": ""}
    for g, m in state["rounds"][r]["groups"].items():
        for seat in m:
            if seat in acc:
                acc[seat]["group"] = g
    cfg_v = cfg["violations"]
    live = live_violations(state)
    cancelled = {(v["seat"], v["game"]) for v in live
                 if v["game"] is not None and cfg_v.get(v["type"], {}).get("cancel_win")}
    for game in state["games"]:
        if game["round"] != r or game["status"] != "ok":
            continue
        for key, pts in game["points"].items():
            row = acc.get(int(key))
            if row is None:
                continue
            award, mvp, svp = game_award(state, cfg, game, key)
            for part, value in pts["parts"].items():
                if part == "win" and value > 0 and (int(key), game["id"]) in cancelled:
                    continue  # §十三.3.5 a): the win points are cancelled, a loss still counts
                row["parts"][part] += award if part == "award" else value
            row["games"] += 1
            row["mvp"] += int(mvp)
            row["svp"] += int(svp)
            if pts["won"]:
                row["wins"][pts["kind"]] += 1
            if not row["group"]:
                row["group"] = game["group"]
    for v in live:
        row = acc.get(v["seat"])
        if v["round"] == r and row is not None:
            row["parts"]["violation"] -= v["points"]
    for row in acc.values():
        row["parts"] = {k: round(x, 4) for k, x in row["parts"].items()}
        row["total"] = round(base + sum(row["parts"].values()), 4)
        row["prev"] = _prev_position(state, r, row["seat"])
        row["key"] = (-row["total"], -row["mvp"], -row["svp"], -row["wins"]["wolf"],
                      -row["wins"]["god"], -row["wins"]["villager"], row["prev"])
        if not multi:
            row["group"] = ""
    eligible = sorted((x for x in acc.values() if x["status"] == ACTIVE),
                      key=lambda x: (x["key"], x["seat"]))
    others = sorted((x for x in acc.values() if x["status"] != ACTIVE), key=lambda x: (x["key"], x["seat"]))
    advance = cfg["rounds"][r].get("advance", 0)
    prev_name = T.TIEBREAK_NAMES[-1] if r else T.TIEBREAK_SIGNUP_ORDER
    for i, row in enumerate(eligible):
        row["rank"] = i + 1
        row["advance"] = i < advance
        row["tie"] = any(0 <= j < len(eligible) and j != i and eligible[j]["key"] == row["key"]
                         for j in (i - 1, i + 1))
        row["tiebreak"] = ""
        for j in (i - 1, i + 1):
            if row["tiebreak"] or not 0 <= j < len(eligible) or row["tie"]:
                continue
            other = eligible[j]["key"]
            if other[0] != row["key"][0]:
                continue
            k = next(k for k in range(1, len(other)) if other[k] != row["key"][k])
            row["tiebreak"] = T.TIEBREAK_BY.format(what=T.TIEBREAK_NAMES[k] if k < len(T.TIEBREAK_NAMES) - 1 else prev_name)
    for row in others:
        row["rank"] = None
        row["advance"] = False
        row["tie"] = False
        row["tiebreak"] = ""
    return eligible + others


def rank_of(state: dict[str, Any], cfg: dict[str, Any], r: int, seat: int) -> int | None:
    for row in rows(state, cfg, r):
        if row["seat"] == seat:
            return row["rank"]
    return None


def game_line(state: dict[str, Any], cfg: dict[str, Any], game: dict[str, Any], key: str) -> tuple[float, float]:
    """(plus, minus) of one player in one game as it counts now: the sheet's points
    (positive and negative separately), §七.3 and §十三.3.5 a) applied, minus the
    live violation deductions recorded in that game. A void game keeps only the
    violations (§十一.3)."""
    pts = game["points"][key]
    minus = -sum(v["points"] for v in live_violations(state) if v["seat"] == int(key) and v["game"] == game["id"])
    if game["status"] != "ok":
        return 0.0, round(minus, 4)
    parts = pts["parts"]
    plus = pts.get("plus", sum(x for x in parts.values() if x > 0))
    minus += pts.get("minus", sum(x for x in parts.values() if x < 0))
    award, _, _ = game_award(state, cfg, game, key)
    plus -= parts["award"] - award
    cfg_v = cfg["violations"]
    if parts["win"] > 0 and any(v["seat"] == int(key) and v["game"] == game["id"]
                                and cfg_v.get(v["type"], {}).get("cancel_win") for v in live_violations(state)):
        plus -= parts["win"]
    return round(plus, 4), round(minus, 4)
