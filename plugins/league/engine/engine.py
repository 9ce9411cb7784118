"""The league engine: the command table (each row names its rule), the kernel's
commands and read-only hooks."""

from __future__ import annotations

from typing import Any

from plugins.gamekit.contract import (
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
    Settings,
)
from plugins.gamekit.settings import given

from . import content, rules_admin, rules_day
from . import texts as T
from .commands import COMMANDS, VIEWS
from .model import current_day, lineup_group
from .standings import award_blocked, rows
from .texts import LEVEL_NAMES, SIDE_NAMES, STATUS_NAMES, fmt_total, name


class LeagueEngine(GameEngine):
    """The 狼人杀城市联赛 online stage."""

    STATE_VERSION = 2  # 2: the settings are no longer copied into the state ("cfg"), rules read ctx.settings
    TEXTS = (("appeals", "*", "text"), ("appeals", "*", "answer"))  # kept in rows of their own (issue 19)

    def __init__(self) -> None:
        super().__init__(COMMANDS)

    def check_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        return content.check_settings(settings)

    def start(self, roster: list[Seat], ctx: Ctx) -> Outcome:
        need = ctx.settings["rounds"][0]["players"]
        seats = sorted(roster, key=lambda s: s.seat)
        if len(seats) < need:
            raise Rejected(T.START_TOO_FEW.format(n=len(seats), need=need))
        state: dict[str, Any] = {
            "players": {str(s.seat): {"alias": s.alias, "user_id": s.user_id, "status": "active"} for s in seats},
            "round": 0, "rounds": [], "days": [], "games": [], "violations": [], "appeals": [],
            "audit": [], "finished": False,
        }
        main = [s.seat for s in seats[:need]]
        effects = rules_admin.new_round(state, 0, main, ctx)
        subs = [s.seat for s in seats[need:]]
        intro = T.START_INTRO.format(n=len(seats), need=need, subs=len(subs))
        return Outcome(state, [Say("group", intro), *effects])

    def before(self, state: Any, actor: Actor, name: str, args: dict[str, Any], ctx: Ctx) -> dict[str, Any]:
        if state["finished"] and name not in (*VIEWS, KERNEL_OUT, KERNEL_BACK):
            raise Rejected(T.FINISHED_VIEWS_ONLY)
        return args

    def unknown(self, name: str) -> list[Effect]:
        raise Rejected(T.UNKNOWN_COMMAND)

    def on_deadline(self, state: Any, key: str, ctx: Ctx) -> list[Effect]:
        return rules_day.timer(state, key, ctx)

    def upgrade(self, state: Any) -> Any:
        """Version 1 kept a copy of the settings under "cfg"; nothing wrote to it
        during play (hosts cannot change settings after the start), so the copy
        equals the game's settings and is dropped."""
        state.pop("cfg", None)
        return state

    # ---- kernel commands -------------------------------------------------

    def kernel_out(self, state: Any, actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Effect]:
        seat, reason = args["seat"], args.get("reason", "")
        p = state["players"][str(seat)]
        if p["status"] != "active":
            raise Rejected(T.OUT_ALREADY.format(who=name(state, seat), status=STATUS_NAMES[p["status"]]))
        p["status"] = "out"
        effects: list[Effect] = [Eliminate(seat, reason or T.OUT_DEFAULT_REASON)]
        effects += rules_day.drop_from_round(state, seat, ctx)
        rules_admin.audit(state, ctx, "kernel", T.AUDIT_OUT, T.AUDIT_OUT_DETAIL.format(who=name(state, seat), reason=reason))
        return effects

    def kernel_back(self, state: Any, actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Effect]:
        seat, reason = args["seat"], args.get("reason", "")
        p = state["players"][str(seat)]
        if p["status"] == "active":
            raise Rejected(T.BACK_ALREADY.format(who=name(state, seat)))
        p["status"] = "active"
        return [Restore(seat, reason or T.BACK_DEFAULT_REASON), Say("hosts", T.BACK_DONE.format(who=name(state, seat)))]

    def private_info(self, state: Any, seat: int, *, settings: Settings | None = None) -> str:
        settings = given(settings, "league")
        st = state
        p = st["players"].get(str(seat))
        if p is None:
            return T.INFO_NOT_PLAYER
        r = st["round"]
        rnd = st["rounds"][r]
        lines = [T.INFO_HEAD.format(who=name(st, seat), status=STATUS_NAMES[p["status"]])]
        g = next((k for k, m in rnd["groups"].items() if seat in m), None)
        if g is not None:
            lines.append(T.INFO_GROUP.format(round=rnd["name"], group=g, pos=rnd["groups"][g].index(seat) + 1))
        elif p["status"] == "active":
            lines.append(T.INFO_SUBSTITUTE.format(round=rnd["name"]))
        day = current_day(st)
        if day is not None and lineup_group(day, seat) is not None:
            lines.append(T.INFO_TODAY_CHECKED if str(seat) in day["checked"] else T.INFO_TODAY_UNCHECKED)
        row = next((x for x in rows(st, settings, r) if x["seat"] == seat), None)
        if row is not None:
            lines.append(T.INFO_POINTS.format(total=fmt_total(row["total"]))
                         + (T.INFO_RANK.format(rank=row["rank"]) if row["rank"] else ""))
        return "\n".join(lines)

    def signup_view(self, settings: dict[str, Any], seats: list[int]) -> tuple[str, dict[int, str]]:
        """Before the start (§十.1): the first main-draw sign-ups in order are 正赛, the rest 替补."""
        need = settings["rounds"][0]["players"]
        order = sorted(seats)
        main = order[:need]
        marks = {s: (T.MARK_MAIN if i < need else T.MARK_SUBSTITUTE) for i, s in enumerate(order)}
        subs = len(order) - len(main)
        summary = T.SIGNUP_SUMMARY.format(n=len(order), main=len(main), subs=subs)
        if len(main) < need:
            summary += T.SIGNUP_SHORT.format(n=need - len(main))
        return summary, marks

    def status(self, state: Any, *, settings: Settings | None = None) -> str:
        settings = given(settings, "league")
        st = state
        r = st["round"]
        rnd = st["rounds"][r]
        rc = settings["rounds"][r]
        if st["finished"]:
            return T.STATUS_FINISHED.format(round=rnd["name"])
        entered = sum(1 for g in st["games"] if g["round"] == r)
        total = sum(d["games"] for d in rc["days"]) * len(rnd["groups"])
        day = current_day(st)
        head = T.STATUS_HEAD.format(round=rnd["name"], entered=entered, total=total)
        if day is None:
            return head + T.STATUS_NO_DAY
        size = sum(len(m) for m in day["lineups"].values())
        checked = sum(1 for m in day["lineups"].values() for s in m if str(s) in day["checked"])
        return head + T.STATUS_DAY.format(no=day["index"] + 1, date=day["date"], board=day["board"],
                                          checked=checked, size=size)

    def tables(self, state: Any, *, settings: Settings | None = None) -> dict[str, list[list[Any]]]:
        settings = given(settings, "league")
        st = state
        out: dict[str, list[list[Any]]] = {}
        out[T.SHEET_SIGNUP] = [list(T.SIGNUP_HEADER)] + [
            [int(k), p["alias"], p["user_id"], STATUS_NAMES[p["status"]]]
            for k, p in sorted(st["players"].items(), key=lambda kv: int(kv[0]))]
        for r, rnd in enumerate(st["rounds"]):
            out[T.SHEET_STANDINGS.format(round=rnd["name"])] = standings_rows(st, settings, r)
        sheet: list[list[Any]] = [list(T.SCORES_HEADER)]
        for g in st["games"]:
            for key, pts in sorted(g["points"].items(), key=lambda kv: kv[1]["gseat"]):
                pr = pts["parts"]
                sheet.append([g["id"], st["rounds"][g["round"]]["name"], g["group"], g["no"], g["date"],
                              T.CELL_VOID if g["status"] == "void" else T.CELL_VALID, T.CELL_YES if g["double"] else T.CELL_NO,
                              pts["gseat"], int(key), st["players"][key]["alias"], pts["role"],
                              SIDE_NAMES[pts["side"]], T.CELL_WON if pts["won"] else T.CELL_LOST, pr["win"], pr["behaviour"],
                              pr["vote"], pr["badge"], pr["award"], int(pts["mvp"]), int(pts["svp"]),
                              _award_cut(st, settings, g, key)])
        out[T.SHEET_SCORES] = sheet
        out[T.SHEET_VIOLATIONS] = [list(T.VIOLATIONS_HEADER)] + [
            [v["id"], v["seat"], st["players"][str(v["seat"])]["alias"], st["rounds"][v["round"]]["name"],
             v["game"] or "", v["type"], LEVEL_NAMES[v["level"]], v["points"], v["source"], v["at"],
             *((v["reversed"]["at"], v["reversed"]["by"], v["reversed"]["reason"]) if v.get("reversed") else ("", "", ""))]
            for v in st["violations"]]
        out[T.SHEET_APPEALS] = [list(T.APPEALS_HEADER)] + [
            [a["id"], a["seat"], a["game"], a["at"], a["text"], T.VERDICT_NAMES[a["status"]], a["answer"]]
            for a in st["appeals"]]
        out[T.SHEET_AUDIT] = [list(T.AUDIT_HEADER)] + [[a["at"], a["by"], a["action"], a["detail"]]
                                                      for a in st["audit"]]
        return out


def _award_cut(st: dict[str, Any], cfg: dict[str, Any], game: dict[str, Any], key: str) -> str:
    """§七.3 in the export: the violation that took this game's award, if any."""
    pts = game["points"][key]
    v = award_blocked(st, cfg, int(key), game["id"]) if (pts["mvp"] or pts["svp"]) else None
    return T.CELL_AWARD_CUT.format(id=v["id"]) if v else ""


def standings_rows(state: dict[str, Any], cfg: dict[str, Any], r: int) -> list[list[Any]]:
    """The standings of round ``r`` as rows (header first), e.g. for a picture."""
    multi = len(state["rounds"][r]["groups"]) > 1
    header = [*T.STANDINGS_HEADER_HEAD, *([T.STANDINGS_HEADER_GROUP] if multi else []), *T.STANDINGS_HEADER_TAIL]
    out: list[list[Any]] = [header]
    for row in rows(state, cfg, r):
        p = row["parts"]
        if row["status"] != "active":
            note = STATUS_NAMES[row["status"]]
        else:
            note = T.CELL_TIE if row["tie"] else row["tiebreak"]
        out.append([row["rank"] or "", row["seat"], row["alias"]] + ([row["group"]] if multi else []) + [
            row["total"], p["win"], p["behaviour"], p["vote"], p["badge"], p["award"], p["violation"],
            row["mvp"], row["svp"], row["wins"]["wolf"], row["wins"]["god"], row["wins"]["villager"],
            row["games"], T.CELL_YES if row["advance"] else "", note])
    return out


ENGINE = LeagueEngine()
