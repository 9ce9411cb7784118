"""Violations (§十三), appeals (§八), round transitions (§四) and grouping."""

from __future__ import annotations

import random
from typing import Any

from plugins.gamekit.contract import Actor, Ctx, Eliminate, Finish, Rejected, Restore, Say, SetPhase

from . import texts as T
from .model import ACTIVE, chat_to
from .standings import award_blocked, live_violations, rows
from .texts import LEVEL_NAMES, fmt, fmt_total, group_texts, name


def audit(state: dict[str, Any], ctx: Ctx, by: str, action: str, detail: str) -> None:
    state["audit"].append({"at": ctx.now.isoformat(), "by": by, "action": action, "detail": detail})


def disqualify(state: dict[str, Any], seat: int, reason: str) -> list[Any]:
    """Out of the league for good; a player already out is left alone."""
    p = state["players"][str(seat)]
    if p["status"] != ACTIVE:
        return []
    p["status"] = "dq"
    p["dq_cause"] = "violations"
    return [Eliminate(seat, reason), Say("group", T.DQ_DONE.format(who=name(state, seat), reason=reason))]


def disqualify_and_drop(state: dict[str, Any], seat: int, reason: str, ctx: Ctx) -> list[Any]:
    effects = disqualify(state, seat, reason)
    if effects:
        from .rules_day import drop_from_round
        rnd = state["rounds"][state["round"]]
        state["players"][str(seat)]["dq_group"] = next((g for g, m in rnd["groups"].items() if seat in m), "")
        effects += drop_from_round(state, seat, ctx)
    return effects


def dq_reason(state: dict[str, Any], cfg: dict[str, Any], seat: int) -> str | None:
    """Why the live violations of ``seat`` put them out (§十三.3, §十三.3.4), or None."""
    opts = cfg["options"]
    mine = [v for v in live_violations(state) if v["seat"] == seat]
    heavy = [v for v in mine if v["level"] == "heavy"]
    if heavy:
        return T.DQ_HEAVY.format(type=heavy[0]["type"])
    light = sum(1 for v in mine if v["level"] == "light")
    medium = sum(1 for v in mine if v["level"] == "medium")
    if light >= opts["dq_light"]:
        return T.DQ_LIGHT.format(n=light)
    if medium >= opts["dq_medium"]:
        return T.DQ_MEDIUM.format(n=medium)
    return None


def add_violation(state: dict[str, Any], seat: int, vtype: str, r: int, game_id: int | None,
                  factor: int, source: str, ctx: Ctx, by: str) -> list[Any]:
    """Record one violation, then apply §十三.3.4 (5 light / 3 medium => out),
    heavy => out, and flag §十三.3.5 (2+ in one game) to the referees."""
    vc = ctx.settings["violations"][vtype]
    opts = ctx.settings["options"]
    vid = max((v["id"] for v in state["violations"]), default=0) + 1
    state["violations"].append({"id": vid, "seat": seat, "round": r, "game": game_id, "type": vtype,
                                "level": vc["level"], "points": round(vc["points"] * factor, 4),
                                "source": source, "at": ctx.now.isoformat(), "by": by, "reversed": None})
    effects: list[Any] = []
    if vc["level"] in ("heavy", "light", "medium"):
        reason = dq_reason(state, ctx.settings, seat)
        if reason is not None:
            effects += disqualify_and_drop(state, seat, reason, ctx)
    if game_id is not None and vc["level"] in ("light", "medium"):
        in_game = sum(1 for v in live_violations(state)
                      if v["seat"] == seat and v["game"] == game_id and v["level"] in ("light", "medium"))
        if in_game == opts["flag_per_game"]:
            effects.append(Say("hosts", T.FLAG_PER_GAME.format(who=name(state, seat), game=game_id, n=in_game)))
    return effects


def award_note(state: dict[str, Any], cfg: dict[str, Any], v: dict[str, Any]) -> str:
    """§七.3: what a violation with blocks_award took away in its game ("" if nothing)."""
    if v["game"] is None or not cfg["violations"].get(v["type"], {}).get("blocks_award"):
        return ""
    game = find_game(state, v["game"])
    pts = game["points"].get(str(v["seat"]))
    if not pts or not (pts["mvp"] or pts["svp"]):
        return ""
    what = T.MVP if pts["mvp"] else T.SVP
    return T.AWARD_NOTE.format(game=game["id"], what=what, points=fmt(pts["parts"]["award"]))


def violation_cmd(state: dict[str, Any], actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Any]:
    seat, vtype = args["player"], args["type"]
    if vtype not in ctx.settings["violations"]:
        raise Rejected(T.VIOLATION_UNKNOWN.format(type=vtype, known=T.SEP.join(ctx.settings["violations"])))
    game_id = args.get("game")
    r, factor = state["round"], 1
    if game_id is not None:
        game = find_game(state, game_id)
        if str(seat) not in game["points"]:
            raise Rejected(T.NOT_IN_GAME.format(who=name(state, seat), game=game_id))
        r, factor = game["round"], 2 if game["double"] else 1
    elif seat not in state["rounds"][r]["members"]:
        raise Rejected(T.VIOLATION_NOT_IN_ROUND.format(who=name(state, seat)))
    effects = add_violation(state, seat, vtype, r, game_id, factor, "cmd", ctx, actor.user_id)
    v = state["violations"][-1]
    audit(state, ctx, actor.user_id, T.AUDIT_VIOLATION,
          T.AUDIT_VIOLATION_DETAIL.format(id=v["id"], who=name(state, seat), type=vtype, game=game_id or "-",
                                          points=v["points"]))
    level = LEVEL_NAMES[v["level"]]
    text = T.VIOLATION_DONE.format(who=name(state, seat), level=level, type=vtype, id=v["id"],
                                   points=fmt_total(v["points"]))
    note = award_note(state, ctx.settings, v)
    mine = T.VIOLATION_YOURS.format(level=level, type=vtype, id=v["id"], points=fmt_total(v["points"]))
    if note:
        text += note
        mine += T.VIOLATION_YOURS_AWARD
    return [Say("reply", text + T.VIOLATION_UNDO_HINT.format(id=v["id"])),
            Say(seat, mine + T.VIOLATION_YOURS_APPEAL)] + effects


def undo_cmd(state: dict[str, Any], actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Any]:
    """/撤销 <编号> <理由>: take a deduction back (e.g. after an upheld appeal, §八 改判)."""
    vid, reason = args["id"], (args.get("reason") or "").strip()
    v = next((x for x in state["violations"] if x["id"] == vid), None)
    if v is None:
        raise Rejected(T.UNDO_UNKNOWN.format(id=vid))
    if v.get("reversed"):
        done = v["reversed"]
        raise Rejected(T.UNDO_TWICE.format(id=vid, at=done["at"][:16].replace("T", " "), reason=done["reason"]))
    if not reason:
        raise Rejected(T.UNDO_NO_REASON.format(id=vid))
    note = award_note(state, ctx.settings, v)
    v["reversed"] = {"at": ctx.now.isoformat(), "by": actor.user_id, "reason": reason}
    seat = v["seat"]
    where = T.IN_GAME.format(game=v["game"]) if v["game"] else T.OFF_GAME
    points = fmt_total(v["points"])
    audit(state, ctx, actor.user_id, T.AUDIT_UNDO,
          T.AUDIT_UNDO_DETAIL.format(id=vid, who=name(state, seat), type=v["type"], where=where, points=points,
                                     reason=reason))
    head = T.UNDO_DONE.format(id=vid, who=name(state, seat), type=v["type"], where=where, points=points)
    mine = T.UNDO_YOURS.format(type=v["type"], id=vid, where=where, points=points, reason=reason)
    if note and award_blocked(state, ctx.settings, seat, v["game"]) is None:
        head += T.UNDO_AWARD_BACK.format(game=v["game"])
        mine += T.UNDO_YOURS_AWARD_BACK
    effects: list[Any] = [Say("reply", head), Say(seat, mine)]
    p = state["players"][str(seat)]
    if p["status"] == "dq" and p.get("dq_cause") == "violations" and dq_reason(state, ctx.settings, seat) is None:
        effects += reinstate(state, seat, ctx)
    return effects


def reinstate(state: dict[str, Any], seat: int, ctx: Ctx) -> list[Any]:
    """The deduction that disqualified a player was taken back: active again, ranked on
    what they played; back to their group's place if nobody has taken it yet."""
    p = state["players"][str(seat)]
    p["status"] = ACTIVE
    p.pop("dq_cause", None)
    rnd = state["rounds"][state["round"]]
    g = p.pop("dq_group", "")
    cfg = ctx.settings
    size = max(sum(cfg["boards"][d["board"]]["roles"].values()) for d in cfg["rounds"][state["round"]]["days"])
    from .model import current_day
    day = current_day(state)
    place = ""
    if g and g in rnd["groups"] and len(rnd["groups"][g]) < size and seat in rnd["members"]:
        for lineup in [rnd["groups"][g]] + ([day["lineups"][g]] if day is not None and "seat" not in day["done"]
                                             and g in day["lineups"] and len(day["lineups"][g]) < size else []):
            ref = rnd.get("order", {}).get(g, [])
            later = ref[ref.index(seat) + 1:] if seat in ref else []
            i = next((lineup.index(s) for s in later if s in lineup), len(lineup))
            lineup.insert(i, seat)
        place = T.REINSTATED_PLACE.format(group=g, pos=rnd["groups"][g].index(seat) + 1)
    elif seat in rnd["members"]:
        place = T.REINSTATED_TAKEN
    audit(state, ctx, "system", T.AUDIT_REINSTATE, T.AUDIT_REINSTATE_DETAIL.format(who=name(state, seat), place=place))
    return [Restore(seat, T.REINSTATED_REASON),
            Say("group", T.REINSTATED_GROUP.format(who=name(state, seat))),
            Say("hosts", T.REINSTATED_HOSTS.format(who=name(state, seat), place=place or T.REINSTATED_SUBSTITUTE)),
            Say(seat, T.REINSTATED_YOURS.format(place=place or T.REINSTATED_SUBSTITUTE))]


def award_cmd(state: dict[str, Any], actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Any]:
    """/评选 <局号> <全场最佳|败方最佳> <玩家|无>: the referees re-award (§七.1/§七.3)."""
    game = find_game(state, args["game"])
    kind = T.AWARD_WORDS.get(args["award"])
    if kind is None:
        raise Rejected(T.AWARD_WHICH)
    if game["status"] != "ok":
        raise Rejected(T.AWARD_VOID.format(game=game["id"]))
    what = T.MVP if kind == "mvp" else T.SVP
    who = (args.get("who") or "").strip()
    seat = None
    if who not in T.NOBODY_WORDS:
        from .model import resolver
        seat = resolver(state).get(who.lstrip("#"))
        if seat is None or str(seat) not in game["points"]:
            raise Rejected(T.AWARD_UNKNOWN.format(who=who, game=game["id"]))
        pts = game["points"][str(seat)]
        blocked = award_blocked(state, ctx.settings, seat, game["id"])
        if blocked:
            raise Rejected(T.AWARD_BLOCKED.format(who=name(state, seat), game=game["id"], type=blocked["type"],
                                                  id=blocked["id"]))
        if kind == "svp" and pts["won"]:
            raise Rejected(T.AWARD_SVP_WINNER.format(who=name(state, seat)))
        other = "svp" if kind == "mvp" else "mvp"
        if pts[other]:
            raise Rejected(T.AWARD_ONE_EACH.format(who=name(state, seat), what=T.SVP if other == "svp" else T.MVP))
    factor = 2 if game["double"] else 1
    sc = ctx.settings["scoring"]
    before = [k for k, p in game["points"].items() if p[kind]]
    for key, pts in game["points"].items():
        pts[kind] = seat is not None and int(key) == seat
        pts["parts"]["award"] = round(factor * ((sc["mvp"] if pts["mvp"] else 0) + (sc["svp"] if pts["svp"] else 0)), 4)
    old = T.SEP.join(name(state, int(k)) for k in before) or T.NOBODY
    new = name(state, seat) if seat is not None else T.NOBODY
    audit(state, ctx, actor.user_id, T.AUDIT_AWARD, T.AUDIT_AWARD_DETAIL.format(game=game["id"], what=what, old=old, new=new))
    text = T.AWARD_DONE.format(game=game["id"], group=game["group"], no=game["no"], what=what, old=old, new=new)
    return [Say("reply", text + T.AWARD_DONE_REPLY), Say(chat_to(game["group"], ctx.chats), T.AWARD_DONE_GROUP + text)]


def find_game(state: dict[str, Any], game_id: int) -> dict[str, Any]:
    for g in state["games"]:
        if g["id"] == game_id:
            return g
    raise Rejected(T.GAME_UNKNOWN.format(game=game_id))


def appeal(state: dict[str, Any], actor: Actor, args: dict[str, Any], ctx: Ctx, deadline: Any) -> list[Any]:
    if actor.seat is None:
        raise Rejected(T.APPEAL_NOT_PLAYER)
    game = find_game(state, args["game"])
    text = args.get("text", "").strip()
    if not text:
        raise Rejected(T.APPEAL_NO_TEXT)
    heavy = text.startswith(T.APPEAL_HEAVY_WORD)
    if ctx.now > deadline and not heavy:
        local = deadline.astimezone(ctx.tz)
        raise Rejected(T.APPEAL_CLOSED.format(month=local.month, day=local.day, time=local))
    refused = sum(1 for a in state["appeals"]
                  if a["seat"] == actor.seat and a["game"] == game["id"] and a["status"] == "upheld")
    if refused >= ctx.settings["options"]["max_appeals"]:
        raise Rejected(T.APPEAL_USED_UP.format(game=game["id"], n=refused))
    aid = len(state["appeals"]) + 1
    state["appeals"].append({"id": aid, "seat": actor.seat, "game": game["id"], "text": text,
                             "at": ctx.now.isoformat(), "status": "open", "answer": ""})
    return [Say("reply", T.APPEAL_DONE.format(id=aid)),
            Say("hosts", T.APPEAL_HOSTS.format(id=aid, who=name(state, actor.seat), game=game["id"], group=game["group"],
                                               no=game["no"], text=text))]


def appeals_list(state: dict[str, Any]) -> list[Any]:
    open_ = [a for a in state["appeals"] if a["status"] == "open"]
    if not open_:
        return [Say("reply", T.APPEALS_NONE)]
    lines = [T.APPEALS_HEAD.format(n=len(open_))]
    lines += [T.APPEALS_LINE.format(id=a["id"], who=name(state, a["seat"]), game=a["game"], text=a["text"]) for a in open_]
    lines.append(T.APPEALS_HINT)
    return [Say("reply", "\n".join(lines))]


def verdict(state: dict[str, Any], actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Any]:
    aid = args["id"]
    match = [a for a in state["appeals"] if a["id"] == aid]
    if not match:
        raise Rejected(T.VERDICT_UNKNOWN.format(id=aid))
    a = match[0]
    if a["status"] != "open":
        raise Rejected(T.VERDICT_TWICE.format(id=aid, verdict=T.VERDICT_NAMES[a["status"]]))
    status = T.VERDICT_WORDS.get(args["verdict"])
    if status is None:
        raise Rejected(T.VERDICT_WHICH)
    a["status"], a["answer"] = status, args.get("note", "")
    audit(state, ctx, actor.user_id, T.AUDIT_VERDICT,
          T.AUDIT_VERDICT_DETAIL.format(id=aid, verdict=T.VERDICT_NAMES[status], note=a["answer"]))
    effects: list[Any] = [Say(a["seat"], T.VERDICT_YOURS.format(id=aid, game=a["game"], verdict=T.VERDICT_NAMES[status],
                                                                note=a["answer"]))]
    if status == "changed":
        effects.append(Say("reply", T.VERDICT_CHANGED.format(game=a["game"])))
    else:
        effects.append(Say("reply", T.VERDICT_UPHELD.format(id=aid)))
    return effects


def make_groups(seats: list[int], n_groups: int, seed: int) -> dict[str, list[int]]:
    """Shuffle ``seats`` with the stored seed and cut them into equal groups."""
    from .model import GROUP_NAMES
    order = sorted(seats)
    random.Random(seed).shuffle(order)
    size = len(order) // n_groups
    return {GROUP_NAMES[i]: order[i * size:(i + 1) * size] for i in range(n_groups)}


def new_round(state: dict[str, Any], r: int, seats: list[int], ctx: Ctx) -> list[Any]:
    rc = ctx.settings["rounds"][r]
    seed = ctx.rng.getrandbits(32)
    groups = make_groups(seats, rc["groups"], seed)
    state["rounds"].append({"key": rc["key"], "name": rc["name"], "seed": seed, "groups": groups,
                            "members": sorted(seats), "demoted": [], "benched": [], "ranking": None,
                            "order": {g: list(m) for g, m in groups.items()}})
    state["round"] = r
    effects: list[Any] = [SetPhase(key=rc["key"], label=T.PHASE_GROUPS.format(round=rc["name"]))]
    effects += [Say(chat_to(g, ctx.chats), t) for g, t in group_texts(state, r).items()]
    return effects


def missing_games(state: dict[str, Any], cfg: dict[str, Any], r: int) -> list[str]:
    rc = cfg["rounds"][r]
    opened = [d for d in state["days"] if d["round"] == r]
    total = sum(d["games"] for d in rc["days"])
    missing = []
    if len(opened) < len(rc["days"]):
        missing.append(T.MISSING_DAYS.format(n=len(rc["days"]) - len(opened)))
    for no in range(1, total + 1):
        for g in sorted(state["rounds"][r]["groups"]):
            if not any(x["round"] == r and x["group"] == g and x["no"] == no for x in state["games"]):
                missing.append(T.MISSING_GAME.format(group=g, no=no))
    return missing


def next_round(state: dict[str, Any], actor: Actor, ctx: Ctx) -> list[Any]:
    if state["finished"]:
        raise Rejected(T.FINISHED)
    r = state["round"]
    cfg = ctx.settings
    missing = missing_games(state, cfg, r)
    if missing:
        shown = T.SEP.join(missing[:10]) + ("…" if len(missing) > 10 else "")
        raise Rejected(T.ROUND_NOT_DONE.format(missing=shown))
    table = rows(state, cfg, r)
    ranking = [row["seat"] for row in table if row["rank"]]
    state["rounds"][r]["ranking"] = ranking
    ties = [row for row in table if row["tie"]]
    rc = cfg["rounds"][r]
    audit(state, ctx, actor.user_id, T.AUDIT_NEXT_ROUND, T.AUDIT_NEXT_ROUND_DETAIL.format(round=rc["name"]))
    effects: list[Any] = []
    if ties:
        effects.append(Say("hosts", T.TIES_FOR_REFEREES + T.SEP.join(name(state, row["seat"]) for row in ties)))
    if r + 1 >= len(cfg["rounds"]):
        state["finished"] = True
        top = [T.FINAL_LINE.format(rank=row["rank"], who=name(state, row["seat"]), total=fmt_total(row["total"]))
               for row in table[:24] if row["rank"]]
        return effects + [Finish(T.FINAL_HEAD.format(round=rc["name"]) + "\n".join(top))]
    need = cfg["rounds"][r + 1]["players"]
    advanced = ranking[:rc["advance"]]
    if len(advanced) < need:
        raise Rejected(T.ADVANCE_TOO_FEW.format(n=len(advanced), need=need))
    lines = [T.ADVANCE_HEAD.format(round=rc["name"], n=rc["advance"])]
    lines += [T.ADVANCE_LINE.format(rank=i, who=name(state, s)) for i, s in enumerate(advanced, 1)]
    effects.append(Say("group", "\n".join(lines)))
    return effects + new_round(state, r + 1, advanced, ctx)
