"""Score entry by referees (§六（二）), corrections and void games (§十一)."""

from __future__ import annotations

from typing import Any

from plugins.gamekit.contract import Actor, Ctx, Rejected, Say

from . import sheet as sheetmod
from . import texts as T
from .model import chat_to
from .rules_admin import add_violation, audit, find_game
from .standings import award_blocked
from .texts import LEVEL_NAMES, fmt_total, game_summary, name


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
        raise Rejected(T.SHEET_WRONG.format(errors=exc)) from None


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
            ids.append(T.SHEET_VIOLATION.format(level=LEVEL_NAMES[v["level"]], type=vtype, id=v["id"],
                                                points=fmt_total(v["points"])))
        if ids:
            effects.insert(0, Say(p["seat"], T.SHEET_VIOLATIONS_YOURS.format(game=game["id"], group=game["group"], no=game["no"],
                                                                             violations=T.SHEET_VIOLATIONS_SEP.join(ids))))
    return effects


def _check_awards(state: dict[str, Any], cfg: dict[str, Any], game_id: int, parsed: sheetmod.Sheet) -> None:
    """§七.3: a /违规 already recorded in this game (not on the sheet) also bars the award."""
    for p in parsed.players:
        blocked = award_blocked(state, cfg, p["seat"], game_id)
        if (p["mvp"] or p["svp"]) and blocked and blocked["source"] != "sheet":
            raise Rejected(T.SHEET_AWARD_BLOCKED.format(line=p["line"], gseat=p["gseat"], type=blocked["type"], id=blocked["id"]))


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
        raise Rejected(T.GROUP_UNKNOWN.format(group=group, known=T.SEP.join(sorted(rnd["groups"]))))
    taken = {g["no"] for g in state["games"] if g["round"] == r and g["group"] == group and g["status"] == "ok"}
    if no is None:
        opened = [n for d in state["days"] if d["round"] == r for n in range(d["first_no"], d["first_no"] + d["games"])]
        free = [n for n in opened if n not in taken]
        if not free:
            raise Rejected(T.SCORE_ALL_ENTERED.format(group=group))
        no = free[0]
    day = _day_of_no(state, r, no)
    if day is None:
        raise Rejected(T.SCORE_DAY_NOT_OPEN.format(no=no))
    if no in taken:
        gid = next(g["id"] for g in state["games"] if g["round"] == r and g["group"] == group
                   and g["no"] == no and g["status"] == "ok")
        raise Rejected(T.SCORE_TWICE.format(group=group, no=no, game=gid))
    parsed = _parse(state, ctx.settings, text, day, group)
    double = no in ctx.settings["rounds"][r].get("double_games", [])
    gid = len(state["games"]) + 1
    game = {"id": gid, "round": r, "day": day["index"], "group": group, "no": no, "double": double,
            "date": day["date"], "status": "ok", "sheet": text, "parsed": sheetmod.sheet_to_json(parsed),
            "points": {str(k): v for k, v in sheetmod.score(parsed, ctx.settings, 2 if double else 1).items()},
            "history": [], "void_reason": ""}
    state["games"].append(game)
    effects = _violations_of(state, game, parsed, ctx, actor.user_id)
    audit(state, ctx, actor.user_id, T.AUDIT_SCORE, T.AUDIT_SCORE_DETAIL.format(game=gid, group=group, no=no))
    notes = _notes(ctx.settings, parsed)
    reply = T.SCORE_DONE.format(game=gid) + ("\n" + "\n".join(notes) if notes else "")
    return [Say("reply", reply), Say(chat_to(group, ctx.chats), game_summary(state, ctx.settings, game, notes))] + effects


def rescore(state: dict[str, Any], actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Any]:
    game = find_game(state, args["game"])
    text = args.get("text", "")
    try:
        group, no = sheetmod.parse_header(text)
    except ValueError as exc:
        raise Rejected(str(exc)) from None
    if group != game["group"] or (no is not None and no != game["no"]):
        raise Rejected(T.RESCORE_WRONG_GROUP.format(game=game["id"], group=game["group"], no=game["no"]))
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
            v["reversed"] = {"at": ctx.now.isoformat(), "by": actor.user_id, "reason": T.RESCORE_UNDO_REASON}
    effects = _violations_of(state, game, parsed, ctx, actor.user_id)
    audit(state, ctx, actor.user_id, T.AUDIT_RESCORE, T.AUDIT_RESCORE_DETAIL.format(game=game["id"], n=len(game["history"])))
    notes = _notes(ctx.settings, parsed)
    return [Say("reply", T.RESCORE_DONE.format(game=game["id"]) + ("\n" + "\n".join(notes) if notes else "")),
            Say(chat_to(game["group"], ctx.chats), T.RESCORE_GROUP + game_summary(state, ctx.settings, game, notes)),
            Say("hosts", T.RESCORE_HOSTS.format(by=actor.user_id, game=game["id"], group=game["group"], no=game["no"]))] + effects


def void(state: dict[str, Any], actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Any]:
    game = find_game(state, args["game"])
    if game["status"] == "void":
        raise Rejected(T.VOID_TWICE.format(game=game["id"]))
    reason = args.get("reason", "").strip() or T.VOID_DEFAULT_REASON
    game["status"] = "void"
    game["void_reason"] = reason
    audit(state, ctx, actor.user_id, T.AUDIT_VOID, T.AUDIT_VOID_DETAIL.format(game=game["id"], reason=reason))
    return [Say("reply", T.VOID_DONE.format(game=game["id"], group=game["group"], no=game["no"])),
            Say(chat_to(game["group"], ctx.chats), T.VOID_GROUP.format(game=game["id"], group=game["group"], no=game["no"],
                                                                       reason=reason))]


def player_games(state: dict[str, Any], r: int, seat: int) -> list[dict[str, Any]]:
    return [g for g in state["games"] if g["round"] == r and str(seat) in g["points"]]




def template(state: dict[str, Any], args: dict[str, Any], ctx: Ctx) -> list[Any]:
    """/录分模板 <组> [第N场]: the sheet with the seated lineup (game seat = position) and a
    placeholder for each role; the board's roles and their event words in comments."""
    text = (args.get("game") or "").strip()
    if text.lstrip("#").isdigit():  # a game already entered: its sheet, to correct with /改分
        game = find_game(state, int(text.lstrip("#")))
        return [Say("reply", T.TEMPLATE_ENTERED.format(game=game["id"]) + game["sheet"])]
    try:
        group, no = sheetmod.parse_header(text)
    except ValueError:
        raise Rejected(T.TEMPLATE_USAGE) from None
    r = state["round"]
    rnd = state["rounds"][r]
    if group not in rnd["groups"]:
        raise Rejected(T.GROUP_UNKNOWN.format(group=group, known=T.SEP.join(sorted(rnd["groups"]))))
    if no is None:
        taken = {g["no"] for g in state["games"] if g["round"] == r and g["group"] == group and g["status"] == "ok"}
        opened = [n for d in state["days"] if d["round"] == r for n in range(d["first_no"], d["first_no"] + d["games"])]
        no = next((n for n in opened if n not in taken), opened[-1] if opened else 1)
    day = _day_of_no(state, r, no)
    if day is None:
        raise Rejected(T.TEMPLATE_DAY_NOT_OPEN.format(group=group, no=no))
    if "seat" not in day["done"]:
        seat_at = ctx.settings["times"]["seat"]
        raise Rejected(T.TEMPLATE_NOT_SEATED.format(group=group, no=no, seat=seat_at))
    board = ctx.settings["boards"][day["board"]]["roles"]
    roles_cfg = ctx.settings["roles"]
    lines = [T.TEMPLATE_HEADER.format(group=group, no=no),
             T.TEMPLATE_BOARD.format(board=day["board"],
                                     roles=T.SEP.join(T.ROLE_COUNT.format(role=k, n=v) for k, v in board.items())),
             T.TEMPLATE_EVENTS.format(events=T.TEMPLATE_EVENTS_SEP.join(
                 T.TEMPLATE_ROLE_EVENTS.format(role=k, events=" ".join(roles_cfg[k].get("events", {})))
                 for k in board if roles_cfg[k].get("events"))),
             T.TEMPLATE_OTHER,
             T.TEMPLATE_WINNER]
    for i, seat in enumerate(day["lineups"][group], 1):
        lines.append(T.TEMPLATE_POSITION.format(pos=i, who=name(state, seat)))
        lines.append(T.TEMPLATE_PLAYER.format(pos=i, seat=seat))
    return [Say("reply", "\n".join(lines))]
