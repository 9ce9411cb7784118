"""The three sheets of 【导演职责】 plus transcripts, points and submissions."""

from __future__ import annotations

from typing import Any

from . import model as m
from . import texts as t

PLAYERS_HEAD = [
    "座位", "马甲", "QQ", "昵称", "联系方式", "第一志愿", "第二志愿", "随机数", "阵营", "身份", "罪名",
    "爱", "恨", "状态", "出局日", "出局原因", "积分", "报名马甲", "马甲获得方式", "花费硬币", "硬币余额",
]
HOW = {"first": "第一志愿出价", "second": "第二志愿出价", "draw": "抽签"}


def _choices(state: m.JSON, seat: int, info: dict[str, Any]) -> list[Any]:
    """第一志愿, 第二志愿: the auction's bids (character, coins, arrival) or the sign-up text."""
    bids = state.get("auction", {}).get("bids", {})
    if str(seat) not in bids:
        return [info.get("first", ""), info.get("second", "")]
    b = bids[str(seat)]
    return [f"{b[k]['name']} {b[k]['coins']} 币（#{b[k]['seq']}）" if b[k] else "" for k in ("first", "second")]


def _auction_cells(state: m.JSON, seat: int) -> list[Any]:
    a = state.get("auction")
    if not a:
        return ["", "", "", ""]
    res = a["results"].get(str(seat))
    p = m.player(state, seat)
    if res is None:  # still bidding
        return [p["alias"], "竞拍中", "", a["balances"][str(seat)]]
    return [p.get("signup_alias", ""), HOW[res["how"]], res["coins"], res["balance"]]


def _auction_players(state: m.JSON) -> list[list[Any]]:
    rows: list[list[Any]] = [list(PLAYERS_HEAD)]
    for s in state["order"]:
        p = m.player(state, s)
        info = p["profile"]
        number = state["auction"]["bids"][str(s)]["number"]
        rows.append([s, p["alias"], p["user_id"], info.get("nickname", ""), info.get("contact", ""),
                     *_choices(state, s, info), number if number is not None else "", "", "", "", "", "",
                     "竞拍中", "", "", "", *_auction_cells(state, s)])
    return rows


def tables(state: m.JSON, cfg: m.Settings) -> dict[str, list[list[Any]]]:
    if state["phase"] == "auction":
        return {"玩家": _auction_players(state)}
    signup = state["signup"]
    result = state.get("result") or {}
    totals = {str(s): total for _, s, total in result.get("ranking", [])}
    players: list[list[Any]] = [list(PLAYERS_HEAD)]
    for s in state["order"]:
        p = m.player(state, s)
        r = m.role(state, cfg, s)
        info = signup.get(str(s), {})
        players.append([
            s, p["alias"], p["user_id"], info.get("nickname", ""), info.get("contact", ""), *_choices(state, s, info),
            p["number"], t.KIND[p["kind"]], r["name"], "、".join(r.get("crimes", [])),
            p["love"] or "", p["hate"] or "", t.STATUS[p["status"]], p["out_day"] or "", p["reason"], totals.get(str(s), ""),
            *_auction_cells(state, s),
        ])
    uses: list[list[Any]] = [["编号", "到达序号", "时间", "天", "阶段", "座位", "马甲", "身份", "技能", "目标/内容", "结算"]]
    for e in state["log"]:
        uses.append([
            e["id"], e["seq"], e["at"], e["day"], m.PHASE_LABELS.get(e["phase"], e["phase"]), e["seat"],
            m.player(state, e["seat"])["alias"], m.role(state, cfg, e["seat"])["name"], e["ability"], e["target"],
            e["result"] if e["result"] is not None else "待结算",
        ])
    pairs: list[list[Any]] = [["夜", "看守房", "囚犯房", "看守", "囚犯", "房间群", "看守发言", "囚犯发言", "当夜死亡"]]
    lines: list[list[Any]] = [["夜", "看守房", "囚犯房", "到达序号", "时间", "发言者", "内容"]]
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
            pairs.append([night["night"], g, p_room, m.name(state, b) if g else "轮空", m.name(state, b) if p_room else "轮空", "", 0, 0, dead])
    score: list[list[Any]] = [["名次", "座位", "马甲", "积分", "明细"]]
    for rank, s, total in result.get("ranking", []):
        detail = "；".join(f"{why} {n:+d}" for why, n in result["points"][str(s)])
        score.append([rank, s, m.player(state, s)["alias"], total, detail])
    subs: list[list[Any]] = [["到达序号", "时间", "座位", "类型", "内容"]]
    for kind, label in (("map", "房间对应"), ("alias", "马甲对应")):
        for x in state["subs"][kind]:
            body = " ".join(f"{a}-{b}" if kind == "map" else f"{a}={b}" for a, b in x["pairs"].items())
            subs.append([x["seq"], x["at"], x["seat"], label, body])
    subs[1:] = sorted(subs[1:], key=lambda r: r[0])
    return {"玩家": players, "技能使用": uses, "审讯对应": pairs, "审讯记录": lines, "积分": score, "提交": subs}
