"""Score entry by referees (§六（二）), corrections and void games (§十一)."""

from __future__ import annotations

from typing import Any

from plugins.kernel.contract import Actor, Ctx, Rejected, Say

from . import sheet as sheetmod
from .model import chat_to, fmt_total, name
from .rules_admin import add_violation, audit, find_game
from .standings import award_blocked
from .texts import LEVEL_NAMES, game_summary


def _day_of_no(state: dict[str, Any], r: int, no: int) -> dict[str, Any] | None:
    for d in state["days"]:
        if d["round"] == r and d["first_no"] <= no < d["first_no"] + d["games"]:
            return d
    return None


def _parse(state: dict[str, Any], cfg: dict[str, Any], text: str, day: dict[str, Any], group: str) -> sheetmod.Sheet:
    names = {int(k): p["alias"] for k, p in state["players"].items()}
    from .model import resolver
    try:
        return sheetmod.parse(text, cfg, day["board"], day["lineups"][group], resolver(state), names)
    except ValueError as exc:
        raise Rejected(f"计分表有误，请改好后重新发送：\n{exc}") from None


def _violations_of(state: dict[str, Any], game: dict[str, Any], parsed: sheetmod.Sheet,
                   ctx: Ctx, by: str) -> list[Any]:
    """Record the sheet's violations; each penalised player is told privately."""
    effects: list[Any] = []
    factor = 2 if game["double"] else 1
    for p in parsed.players:
        ids = []
        for vtype in p["violations"]:
            effects += add_violation(state, p["seat"], vtype, game["round"], game["id"], factor, "sheet", ctx, by)
            v = state["violations"][-1]
            ids.append(f"{LEVEL_NAMES[v['level']]}违规「{vtype}」（编号 {v['id']}）扣 {fmt_total(v['points'])} 分")
        if ids:
            effects.insert(0, Say(p["seat"], f"局号#{game['id']}（{game['group']}组 第{game['no']}场）计分表记你"
                                             + "；".join(ids) + "。有异议请在次日 12:00 前私聊 /申诉 局号 理由。"))
    return effects


def _check_awards(state: dict[str, Any], cfg: dict[str, Any], game_id: int, parsed: sheetmod.Sheet) -> None:
    """§七.3: a /违规 already recorded in this game (not on the sheet) also bars the award."""
    for p in parsed.players:
        blocked = award_blocked(state, cfg, p["seat"], game_id)
        if (p["mvp"] or p["svp"]) and blocked and blocked["source"] != "sheet":
            raise Rejected(f"计分表有误：第{p['line']}行 座位 {p['gseat']} 已有影响局势的违规（{blocked['type']}，"
                           f"编号 {blocked['id']}），不能参与评选（§七.3）；撤销该违规后才能评选。")


def _notes(cfg: dict[str, Any], parsed: sheetmod.Sheet) -> list[str]:
    if cfg["scoring"]["cap_policy"] != "clamp":
        return []
    return sheetmod.cap_notes(parsed, cfg)


def score(state: dict[str, Any], actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Any]:
    text = args.get("text", "")
    try:
        group, no = sheetmod.parse_header(text)
    except ValueError as exc:
        raise Rejected(str(exc)) from None
    r = state["round"]
    rnd = state["rounds"][r]
    if group not in rnd["groups"]:
        raise Rejected(f"本轮没有 {group}组，可用：{'、'.join(sorted(rnd['groups']))}。")
    taken = {g["no"] for g in state["games"] if g["round"] == r and g["group"] == group and g["status"] == "ok"}
    if no is None:
        opened = [n for d in state["days"] if d["round"] == r for n in range(d["first_no"], d["first_no"] + d["games"])]
        free = [n for n in opened if n not in taken]
        if not free:
            raise Rejected(f"{group}组 已开的场次都已录分；更正请用 /改分 局号。")
        no = free[0]
    day = _day_of_no(state, r, no)
    if day is None:
        raise Rejected(f"第{no}场 所在的比赛日还没开，请先 /开赛日。")
    if no in taken:
        gid = next(g["id"] for g in state["games"] if g["round"] == r and g["group"] == group
                   and g["no"] == no and g["status"] == "ok")
        raise Rejected(f"{group}组 第{no}场 已录分（局号#{gid}）；更正请用 /改分 {gid}。")
    parsed = _parse(state, ctx.settings, text, day, group)
    double = no in ctx.settings["rounds"][r].get("double_games", [])
    gid = len(state["games"]) + 1
    game = {"id": gid, "round": r, "day": day["index"], "group": group, "no": no, "double": double,
            "date": day["date"], "status": "ok", "sheet": text, "parsed": sheetmod.sheet_to_json(parsed),
            "points": {str(k): v for k, v in sheetmod.score(parsed, ctx.settings, 2 if double else 1).items()},
            "history": [], "void_reason": ""}
    state["games"].append(game)
    effects = _violations_of(state, game, parsed, ctx, actor.user_id)
    audit(state, ctx, actor.user_id, "录分", f"局号#{gid} {group}组 第{no}场")
    notes = _notes(ctx.settings, parsed)
    reply = f"已录入局号#{gid}。" + ("\n" + "\n".join(notes) if notes else "")
    return [Say("reply", reply), Say(chat_to(group, ctx.chats), game_summary(state, ctx.settings, game, notes))] + effects


def rescore(state: dict[str, Any], actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Any]:
    game = find_game(state, args["game"])
    text = args.get("text", "")
    try:
        group, no = sheetmod.parse_header(text)
    except ValueError as exc:
        raise Rejected(str(exc)) from None
    if group != game["group"] or (no is not None and no != game["no"]):
        raise Rejected(f"局号#{game['id']} 是 {game['group']}组 第{game['no']}场，计分表第一行应写「{game['group']}组」。")
    day = next(d for d in state["days"] if d["round"] == game["round"] and d["index"] == game["day"])
    parsed = _parse(state, ctx.settings, text, day, group)
    _check_awards(state, ctx.settings, game["id"], parsed)
    game["history"].append({"at": ctx.now.isoformat(), "by": actor.user_id, "sheet": game["sheet"]})
    game["sheet"] = text
    game["parsed"] = sheetmod.sheet_to_json(parsed)
    game["points"] = {str(k): v for k, v in
                      sheetmod.score(parsed, ctx.settings, 2 if game["double"] else 1).items()}
    for v in state["violations"]:  # the old sheet's violations give way to the new sheet's (kept for the audit)
        if v["game"] == game["id"] and v["source"] == "sheet" and not v.get("reversed"):
            v["reversed"] = {"at": ctx.now.isoformat(), "by": actor.user_id, "reason": "改分重录"}
    effects = _violations_of(state, game, parsed, ctx, actor.user_id)
    audit(state, ctx, actor.user_id, "改分", f"局号#{game['id']} 第{len(game['history'])}次更正")
    notes = _notes(ctx.settings, parsed)
    return [Say("reply", f"局号#{game['id']} 已更正，积分榜已更新。" + ("\n" + "\n".join(notes) if notes else "")),
            Say(chat_to(game["group"], ctx.chats), "裁判更正了计分表：\n" + game_summary(state, ctx.settings, game, notes)),
            Say("hosts", f"审计：{actor.user_id} 更正了局号#{game['id']}（{game['group']}组 第{game['no']}场）。")] + effects


def void(state: dict[str, Any], actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Any]:
    game = find_game(state, args["game"])
    if game["status"] == "void":
        raise Rejected(f"局号#{game['id']} 已是流局。")
    reason = args.get("reason", "").strip() or "裁判判定"
    game["status"] = "void"
    game["void_reason"] = reason
    audit(state, ctx, actor.user_id, "流局", f"局号#{game['id']} {reason}")
    return [Say("reply", f"局号#{game['id']} 已记流局。重赛请再次 /录分 {game['group']}组 第{game['no']}场。"),
            Say(chat_to(game["group"], ctx.chats), f"局号#{game['id']}（{game['group']}组 第{game['no']}场）流局：{reason}。"
                         "本局只保留违规扣分（§十一.3）；如安排重赛，另行通知。")]


def player_games(state: dict[str, Any], r: int, seat: int) -> list[dict[str, Any]]:
    return [g for g in state["games"] if g["round"] == r and str(seat) in g["points"]]




def template(state: dict[str, Any], args: dict[str, Any], ctx: Ctx) -> list[Any]:
    """/录分模板 <组> [第N场]: the sheet with the seated lineup (game seat = position) and a
    placeholder for each role; the board's roles and their event words in comments."""
    text = (args.get("game") or "").strip()
    if text.lstrip("#").isdigit():  # a game already entered: its sheet, to correct with /改分
        game = find_game(state, int(text.lstrip("#")))
        return [Say("reply", f"# 局号#{game['id']} 现在的计分表；改好后发送 /改分 {game['id']} 加上整张表\n"
                             + game["sheet"])]
    try:
        group, no = sheetmod.parse_header(text)
    except ValueError:
        raise Rejected("用法：/录分模板 <组> [第N场]，例如 /录分模板 A 第1场。") from None
    r = state["round"]
    rnd = state["rounds"][r]
    if group not in rnd["groups"]:
        raise Rejected(f"本轮没有 {group}组，可用：{'、'.join(sorted(rnd['groups']))}。")
    if no is None:
        taken = {g["no"] for g in state["games"] if g["round"] == r and g["group"] == group and g["status"] == "ok"}
        opened = [n for d in state["days"] if d["round"] == r for n in range(d["first_no"], d["first_no"] + d["games"])]
        no = next((n for n in opened if n not in taken), opened[-1] if opened else 1)
    day = _day_of_no(state, r, no)
    if day is None:
        raise Rejected(f"{group}组 第{no}场 所在的比赛日还没开，还没有入座名单；请先 /开赛日。")
    if "seat" not in day["done"]:
        seat_at = ctx.settings["times"]["seat"]
        raise Rejected(f"{group}组 第{no}场 还没入座（{seat_at} 入座后名单才确定），请 {seat_at} 之后再取模板。")
    board = ctx.settings["boards"][day["board"]]["roles"]
    roles_cfg = ctx.settings["roles"]
    lines = [f"{group}组 第{no}场",
             f"# {day['board']}：" + "、".join(f"{k}×{v}" for k, v in board.items())
             + "。把每行的「角色」换成该座位的角色，再补事件和投票。",
             "# 事件：" + "；".join(f"{k} " + " ".join(roles_cfg[k].get("events", {})) for k in board
                                 if roles_cfg[k].get("events")),
             "# 其他：警徽 全场最佳 败方最佳 违规:类型（/违规表）；票 天 被投座位: 投票座位…；平票 天 座位 座位 [自曝]；"
             "复票 天 座位: 座位…；绑票 天",
             "胜方 好人/狼人"]
    for i, seat in enumerate(day["lineups"][group], 1):
        lines.append(f"# {i}号位 {name(state, seat)}")
        lines.append(f"{i} #{seat} 角色")
    return [Say("reply", "\n".join(lines))]
