"""Score entry by referees (§六（二）), corrections and void games (§十一)."""

from __future__ import annotations

from typing import Any

from plugins.kernel.engine import Actor, Ctx, Rejected, Say

from . import sheet as sheetmod
from .model import chat_to
from .rules_admin import add_violation, audit, find_game
from .texts import game_summary


def _day_of_no(state: dict[str, Any], r: int, no: int) -> dict[str, Any] | None:
    for d in state["days"]:
        if d["round"] == r and d["first_no"] <= no < d["first_no"] + d["games"]:
            return d
    return None


def _parse(state: dict[str, Any], text: str, day: dict[str, Any], group: str) -> sheetmod.Sheet:
    names = {int(k): p["alias"] for k, p in state["players"].items()}
    from .model import resolver
    try:
        return sheetmod.parse(text, state["cfg"], day["board"], day["lineups"][group], resolver(state), names)
    except ValueError as exc:
        raise Rejected(f"计分表有误，请改好后重新发送：\n{exc}") from None


def _violations_of(state: dict[str, Any], game: dict[str, Any], parsed: sheetmod.Sheet,
                   ctx: Ctx, by: str) -> list[Any]:
    effects: list[Any] = []
    factor = 2 if game["double"] else 1
    for p in parsed.players:
        for vtype in p["violations"]:
            effects += add_violation(state, p["seat"], vtype, game["round"], game["id"], factor, "sheet", ctx, by)
    return effects


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
    parsed = _parse(state, text, day, group)
    double = no in state["cfg"]["rounds"][r].get("double_games", [])
    gid = len(state["games"]) + 1
    game = {"id": gid, "round": r, "day": day["index"], "group": group, "no": no, "double": double,
            "date": day["date"], "status": "ok", "sheet": text, "parsed": sheetmod.sheet_to_json(parsed),
            "points": {str(k): v for k, v in sheetmod.score(parsed, state["cfg"], 2 if double else 1).items()},
            "history": [], "void_reason": ""}
    state["games"].append(game)
    effects = _violations_of(state, game, parsed, ctx, actor.user_id)
    audit(state, ctx, actor.user_id, "录分", f"局号#{gid} {group}组 第{no}场")
    return [Say("reply", f"已录入局号#{gid}。"), Say(chat_to(group, ctx.chats), game_summary(state, game))] + effects


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
    parsed = _parse(state, text, day, group)
    game["history"].append({"at": ctx.now.isoformat(), "by": actor.user_id, "sheet": game["sheet"]})
    game["sheet"] = text
    game["parsed"] = sheetmod.sheet_to_json(parsed)
    game["points"] = {str(k): v for k, v in
                      sheetmod.score(parsed, state["cfg"], 2 if game["double"] else 1).items()}
    state["violations"] = [v for v in state["violations"]
                           if not (v["game"] == game["id"] and v["source"] == "sheet")]
    effects = _violations_of(state, game, parsed, ctx, actor.user_id)
    audit(state, ctx, actor.user_id, "改分", f"局号#{game['id']} 第{len(game['history'])}次更正")
    return [Say("reply", f"局号#{game['id']} 已更正，积分榜已更新。"),
            Say(chat_to(game["group"], ctx.chats), "裁判更正了计分表：\n" + game_summary(state, game)),
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


