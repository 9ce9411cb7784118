"""The three sheets of 【导演职责】 plus transcripts, points and submissions."""

from __future__ import annotations

from typing import Any

from . import model as m
from . import texts as T


def _choices(state: m.JSON, seat: int, info: dict[str, Any]) -> list[Any]:
    """第一志愿, 第二志愿: the auction's bids (character, coins, arrival) or the sign-up text."""
    bids = state.get("auction", {}).get("bids", {})
    if str(seat) not in bids:
        return [info.get("first", ""), info.get("second", "")]
    b = bids[str(seat)]
    return [T.BID_CELL.format(name=b[k]["name"], coins=b[k]["coins"], seq=b[k]["seq"]) if b[k] else "" for k in ("first", "second")]


def _auction_cells(state: m.JSON, seat: int) -> list[Any]:
    a = state.get("auction")
    if not a:
        return ["", "", "", ""]
    res = a["results"].get(str(seat))
    p = m.player(state, seat)
    if res is None:  # still bidding
        return [p["alias"], T.BIDDING, "", a["balances"][str(seat)]]
    return [p.get("signup_alias", ""), T.HOW_TEXT[res["how"]], res["coins"], res["balance"]]


def _auction_players(state: m.JSON) -> list[list[Any]]:
    rows: list[list[Any]] = [list(T.PLAYERS_HEAD)]
    for s in state["order"]:
        p = m.player(state, s)
        info = p["profile"]
        number = state["auction"]["bids"][str(s)]["number"]
        rows.append([s, p["alias"], p["user_id"], info.get("nickname", ""), info.get("contact", ""),
                     *_choices(state, s, info), number if number is not None else "", "", "", "", "", "",
                     T.BIDDING, "", "", "", *_auction_cells(state, s)])
    return rows


def tables(state: m.JSON, cfg: m.Settings) -> dict[str, list[list[Any]]]:
    if state["phase"] == "auction":
        return {T.SHEET["players"]: _auction_players(state)}
    signup = state["signup"]
    result = state.get("result") or {}
    totals = {str(s): total for _, s, total in result.get("ranking", [])}
    players: list[list[Any]] = [list(T.PLAYERS_HEAD)]
    for s in state["order"]:
        p = m.player(state, s)
        r = m.role(state, cfg, s)
        info = signup.get(str(s), {})
        players.append([
            s, p["alias"], p["user_id"], info.get("nickname", ""), info.get("contact", ""), *_choices(state, s, info),
            p["number"], T.KIND[p["kind"]], r["name"], T.SEP.join(r.get("crimes", [])),
            p["love"] or "", p["hate"] or "", T.STATUS[p["status"]], p["out_day"] or "", p["reason"], totals.get(str(s), ""),
            *_auction_cells(state, s),
        ])
    uses: list[list[Any]] = [list(T.USES_HEAD)]
    for e in state["log"]:
        uses.append([
            e["id"], e["seq"], e["at"], e["day"], T.PHASE_LABELS.get(e["phase"], e["phase"]), e["seat"],
            m.player(state, e["seat"])["alias"], m.role(state, cfg, e["seat"])["name"], e["ability"], e["target"],
            e["result"] if e["result"] is not None else T.UNSETTLED,
        ])
    pairs: list[list[Any]] = [list(T.PAIRS_HEAD)]
    lines: list[list[Any]] = [list(T.LINES_HEAD)]
    for night in state["nights"]:
        dead = m.names(state, night["deaths"])
        for pr in night["pairs"]:
            pairs.append([
                night["night"], pr["g_room"], pr["p_room"], m.name(state, pr["guard"]), m.name(state, pr["prisoner"]),
                pr["group"] or "", sum(1 for x in pr["lines"] if x["seat"] == pr["guard"]),
                sum(1 for x in pr["lines"] if x["seat"] == pr["prisoner"]), dead,
            ])
            for x in pr["lines"]:
                lines.append([night["night"], pr["g_room"], pr["p_room"], x["seq"], x["at"], x["from"], x["text"]])
        room_of = {v: k for k, v in night["rooms"].items()}
        for b in night["byes"]:
            g = room_of[b] if m.player(state, b)["kind"] == "guard" else ""
            p_room = room_of[b] if m.player(state, b)["kind"] == "prisoner" else ""
            pairs.append([night["night"], g, p_room, m.name(state, b) if g else T.BYE, m.name(state, b) if p_room else T.BYE, "", 0, 0, dead])
    score: list[list[Any]] = [list(T.SCORE_HEAD)]
    for rank, s, total in result.get("ranking", []):
        detail = T.SEMI.join(T.POINT_ITEM.format(why=why, n=n) for why, n in result["points"][str(s)])
        score.append([rank, s, m.player(state, s)["alias"], total, detail])
    subs: list[list[Any]] = [list(T.SUBS_HEAD)]
    for kind, label in T.SUB_KIND.items():
        for x in state["subs"][kind]:
            body = " ".join(f"{a}-{b}" if kind == "map" else f"{a}={b}" for a, b in x["pairs"].items())
            subs.append([x["seq"], x["at"], x["seat"], label, body])
    subs[1:] = sorted(subs[1:], key=lambda r: r[0])
    return {T.SHEET["players"]: players, T.SHEET["uses"]: uses, T.SHEET["pairs"]: pairs, T.SHEET["lines"]: lines,
            T.SHEET["points"]: score, T.SHEET["subs"]: subs}
