"""The league engine: the command table (each row names its rule), the kernel's
commands and read-only hooks."""

from __future__ import annotations

from typing import Any

from plugins.kernel.contract import (
    KERNEL_BACK,
    KERNEL_OUT,
    Actor,
    Ctx,
    Effect,
    Eliminate,
    GameEngine,
    Outcome,
    Rejected,
    Restore,
    Say,
    Seat,
    copy_state,
)

from . import content, rules_admin, rules_day
from .commands import COMMANDS, VIEWS
from .content import load_defaults
from .model import STATUS_NAMES, current_day, fmt_total, lineup_group, name
from .standings import award_blocked, rows
from .texts import LEVEL_NAMES, SIDE_NAMES


class LeagueEngine(GameEngine):
    """The 狼人杀城市联赛 online stage."""

    def __init__(self) -> None:
        super().__init__(COMMANDS)

    def check_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        return content.check_settings(settings)

    def start(self, roster: list[Seat], ctx: Ctx) -> Outcome:
        cfg = self.check_settings(ctx.settings) if "rounds" not in ctx.settings else copy_state(ctx.settings)
        need = cfg["rounds"][0]["players"]
        seats = sorted(roster, key=lambda s: s.seat)
        if len(seats) < need:
            raise Rejected(f"报名 {len(seats)} 人，第一轮需要 {need} 人，请继续报名后再 /开始。")
        state: dict[str, Any] = {
            "cfg": cfg,
            "players": {str(s.seat): {"alias": s.alias, "user_id": s.user_id, "status": "active"} for s in seats},
            "round": 0, "rounds": [], "days": [], "games": [], "violations": [], "appeals": [],
            "audit": [], "finished": False,
        }
        main = [s.seat for s in seats[:need]]
        effects = rules_admin.new_round(state, 0, main, ctx)
        subs = [s.seat for s in seats[need:]]
        intro = f"报名 {len(seats)} 人：前 {need} 人为正赛选手，其余 {len(subs)} 人按报名顺序为替补（§十.1）。"
        return Outcome(state, [Say("group", intro), *effects])

    def before(self, state: Any, actor: Actor, name: str, args: dict[str, Any], ctx: Ctx) -> dict[str, Any]:
        if state["finished"] and name not in (*VIEWS, KERNEL_OUT, KERNEL_BACK):
            raise Rejected("联赛已结束，只能查看积分和导出。")
        return args

    def unknown(self, name: str) -> list[Effect]:
        raise Rejected("联赛没有这个指令，发送 /帮助 查看可用指令。")

    def on_deadline(self, state: Any, key: str, ctx: Ctx) -> list[Effect]:
        return rules_day.timer(state, key, ctx)

    # ---- kernel commands -------------------------------------------------

    def kernel_out(self, state: Any, actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Effect]:
        seat, reason = args["seat"], args.get("reason", "")
        p = state["players"][str(seat)]
        if p["status"] != "active":
            raise Rejected(f"{name(state, seat)} 已经不在联赛中（{STATUS_NAMES[p['status']]}）。")
        p["status"] = "out"
        effects: list[Effect] = [Eliminate(seat, reason or "裁判判出局")]
        effects += rules_day.drop_from_round(state, seat, ctx)
        rules_admin.audit(state, ctx, "kernel", "出局", f"{name(state, seat)} {reason}")
        return effects

    def kernel_back(self, state: Any, actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Effect]:
        seat, reason = args["seat"], args.get("reason", "")
        p = state["players"][str(seat)]
        if p["status"] == "active":
            raise Rejected(f"{name(state, seat)} 本来就在联赛中。")
        p["status"] = "active"
        return [Restore(seat, reason or "裁判恢复"), Say("hosts", f"{name(state, seat)} 已恢复，现为替补。")]

    def private_info(self, state: Any, seat: int, settings: dict[str, Any] | None = None) -> str:
        st = state
        p = st["players"].get(str(seat))
        if p is None:
            return "你不是本届联赛的报名选手。"
        r = st["round"]
        rnd = st["rounds"][r]
        lines = [f"{name(st, seat)}：{STATUS_NAMES[p['status']]}"]
        g = next((k for k, m in rnd["groups"].items() if seat in m), None)
        if g is not None:
            lines.append(f"{rnd['name']} {g}组 {rnd['groups'][g].index(seat) + 1}号位")
        elif p["status"] == "active":
            lines.append(f"{rnd['name']} 替补")
        day = current_day(st)
        if day is not None and lineup_group(day, seat) is not None:
            lines.append("今天：" + ("已签到" if str(seat) in day["checked"] else "未签到"))
        row = next((x for x in rows(st, r) if x["seat"] == seat), None)
        if row is not None:
            lines.append(f"本轮积分 {fmt_total(row['total'])}" + (f"，第 {row['rank']} 名" if row["rank"] else ""))
        return "\n".join(lines)

    def signup_view(self, settings: dict[str, Any], seats: list[int]) -> tuple[str, dict[int, str]]:
        """Before the start (§十.1): the first main-draw sign-ups in order are 正赛, the rest 替补."""
        try:
            cfg = self.check_settings(settings) if "rounds" not in settings else settings
        except Rejected:
            cfg = load_defaults()
        need = cfg["rounds"][0]["players"]
        order = sorted(seats)
        main = order[:need]
        marks = {s: ("正赛" if i < need else "替补") for i, s in enumerate(order)}
        subs = len(order) - len(main)
        summary = f"报名 {len(order)} 人（正赛 {len(main)}，替补 {subs}）"
        if len(main) < need:
            summary += f"，正赛还差 {need - len(main)} 人"
        return summary, marks

    def status(self, state: Any, settings: dict[str, Any] | None = None) -> str:
        st = state
        r = st["round"]
        rnd = st["rounds"][r]
        rc = st["cfg"]["rounds"][r]
        if st["finished"]:
            return f"联赛已结束（{rnd['name']}）。"
        entered = sum(1 for g in st["games"] if g["round"] == r)
        total = sum(d["games"] for d in rc["days"]) * len(rnd["groups"])
        day = current_day(st)
        head = f"{rnd['name']}：已录分 {entered}/{total} 场"
        if day is None:
            return head + "；还没开比赛日。"
        size = sum(len(m) for m in day["lineups"].values())
        return (head + f"；第{day['index'] + 1}比赛日 {day['date']}（{day['board']}）签到 "
                f"{sum(1 for m in day['lineups'].values() for s in m if str(s) in day['checked'])}/{size}")

    def tables(self, state: Any, settings: dict[str, Any] | None = None) -> dict[str, list[list[Any]]]:
        st = state
        out: dict[str, list[list[Any]]] = {}
        out["报名"] = [["序号", "马甲", "QQ", "状态"]] + [
            [int(k), p["alias"], p["user_id"], STATUS_NAMES[p["status"]]]
            for k, p in sorted(st["players"].items(), key=lambda kv: int(kv[0]))]
        for r, rnd in enumerate(st["rounds"]):
            out[f"积分榜-{rnd['name']}"] = standings_rows(st, r)
        sheet: list[list[Any]] = [["局号", "轮次", "组", "场次", "日期", "状态", "双倍", "座位", "序号", "马甲", "角色", "阵营",
                  "胜负", "胜负分", "行为分", "投票分", "警徽分", "评选分", "全场最佳", "败方最佳", "评选取消"]]
        for g in st["games"]:
            for key, pts in sorted(g["points"].items(), key=lambda kv: kv[1]["gseat"]):
                pr = pts["parts"]
                sheet.append([g["id"], st["rounds"][g["round"]]["name"], g["group"], g["no"], g["date"],
                              "流局" if g["status"] == "void" else "有效", "是" if g["double"] else "否",
                              pts["gseat"], int(key), st["players"][key]["alias"], pts["role"],
                              SIDE_NAMES[pts["side"]], "胜" if pts["won"] else "负", pr["win"], pr["behaviour"],
                              pr["vote"], pr["badge"], pr["award"], int(pts["mvp"]), int(pts["svp"]),
                              _award_cut(st, g, key)])
        out["计分表"] = sheet
        out["违规"] = [["编号", "序号", "马甲", "轮次", "局号", "类型", "等级", "扣分", "来源", "时间",
                      "撤销时间", "撤销人", "撤销理由"]] + [
            [v["id"], v["seat"], st["players"][str(v["seat"])]["alias"], st["rounds"][v["round"]]["name"],
             v["game"] or "", v["type"], LEVEL_NAMES[v["level"]], v["points"], v["source"], v["at"],
             *((v["reversed"]["at"], v["reversed"]["by"], v["reversed"]["reason"]) if v.get("reversed") else ("", "", ""))]
            for v in st["violations"]]
        out["申诉"] = [["编号", "序号", "局号", "时间", "内容", "结果", "说明"]] + [
            [a["id"], a["seat"], a["game"], a["at"], a["text"], rules_admin.VERDICT_NAMES[a["status"]], a["answer"]]
            for a in st["appeals"]]
        out["审计"] = [["时间", "操作人", "操作", "内容"]] + [[a["at"], a["by"], a["action"], a["detail"]]
                                                      for a in st["audit"]]
        return out


def _award_cut(st: dict[str, Any], game: dict[str, Any], key: str) -> str:
    """§七.3 in the export: the violation that took this game's award, if any."""
    pts = game["points"][key]
    v = award_blocked(st, int(key), game["id"]) if (pts["mvp"] or pts["svp"]) else None
    return f"违规编号 {v['id']}（§七.3）" if v else ""


def standings_rows(state: dict[str, Any], r: int) -> list[list[Any]]:
    """The standings of round ``r`` as rows (header first), e.g. for a picture."""
    multi = len(state["rounds"][r]["groups"]) > 1
    header = ["排名", "序号", "马甲"] + (["组"] if multi else []) + [
        "总分", "胜负分", "行为分", "投票分", "警徽分", "评选分", "违规扣分",
        "全场最佳", "败方最佳", "狼牌胜", "神牌胜", "民牌胜", "场次", "晋级", "备注"]
    out: list[list[Any]] = [header]
    for row in rows(state, r):
        p = row["parts"]
        if row["status"] != "active":
            note = STATUS_NAMES[row["status"]]
        else:
            note = "同分待裁定（§九.4）" if row["tie"] else row["tiebreak"]
        out.append([row["rank"] or "", row["seat"], row["alias"]] + ([row["group"]] if multi else []) + [
            row["total"], p["win"], p["behaviour"], p["vote"], p["badge"], p["award"], p["violation"],
            row["mvp"], row["svp"], row["wins"]["wolf"], row["wins"]["god"], row["wins"]["villager"],
            row["games"], "是" if row["advance"] else "", note])
    return out


ENGINE = LeagueEngine()
