"""Violations (§十三), appeals (§八), round transitions (§四) and grouping."""

from __future__ import annotations

import random
from typing import Any

from plugins.kernel.contract import Actor, Ctx, Eliminate, Finish, Rejected, Restore, Say, SetPhase

from .model import ACTIVE, chat_to, fmt, fmt_total, name
from .standings import award_blocked, live_violations, rows
from .texts import LEVEL_NAMES, group_texts

VERDICTS = {"维持": "upheld", "驳回": "upheld", "改判": "changed", "通过": "changed"}
VERDICT_NAMES = {"upheld": "维持原判", "changed": "改判", "open": "待复核"}


def audit(state: dict[str, Any], ctx: Ctx, by: str, action: str, detail: str) -> None:
    state["audit"].append({"at": ctx.now.isoformat(), "by": by, "action": action, "detail": detail})


def disqualify(state: dict[str, Any], seat: int, reason: str) -> list[Any]:
    """Out of the league for good; a player already out is left alone."""
    p = state["players"][str(seat)]
    if p["status"] != ACTIVE:
        return []
    p["status"] = "dq"
    p["dq_cause"] = "violations"
    return [Eliminate(seat, reason), Say("group", f"{name(state, seat)} 被取消参赛资格：{reason}")]


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
        return f"重度违规「{heavy[0]['type']}」（§十三.3）"
    light = sum(1 for v in mine if v["level"] == "light")
    medium = sum(1 for v in mine if v["level"] == "medium")
    if light >= opts["dq_light"]:
        return f"本届第 {light} 次轻度违规（§十三.3.4）"
    if medium >= opts["dq_medium"]:
        return f"本届第 {medium} 次中度违规（§十三.3.4）"
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
            effects.append(Say("hosts", f"{name(state, seat)} 在局号#{game_id} 已有 {in_game} 次违规，"
                                        "请考虑严厉处罚（§十三.3.5）：取消胜利分并扣 2 分等。"))
    return effects


def award_note(state: dict[str, Any], cfg: dict[str, Any], v: dict[str, Any]) -> str:
    """§七.3: what a violation with blocks_award took away in its game ("" if nothing)."""
    if v["game"] is None or not cfg["violations"].get(v["type"], {}).get("blocks_award"):
        return ""
    game = find_game(state, v["game"])
    pts = game["points"].get(str(v["seat"]))
    if not pts or not (pts["mvp"] or pts["svp"]):
        return ""
    what = "全场最佳" if pts["mvp"] else "败方最佳"
    return (f"其局号#{game['id']} 的{what}（{fmt(pts['parts']['award'])}）已取消（§七.3），评选不顺延；"
            f"如需改评：/评选 {game['id']} {what} 玩家。")


def violation_cmd(state: dict[str, Any], actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Any]:
    seat, vtype = args["player"], args["type"]
    if vtype not in ctx.settings["violations"]:
        raise Rejected(f"违规类型「{vtype}」不在违规表中，可用：{'、'.join(ctx.settings['violations'])}。"
                       "各项说明见 /违规表。")
    game_id = args.get("game")
    r, factor = state["round"], 1
    if game_id is not None:
        game = find_game(state, game_id)
        if str(seat) not in game["points"]:
            raise Rejected(f"{name(state, seat)} 不在局号#{game_id} 里。")
        r, factor = game["round"], 2 if game["double"] else 1
    elif seat not in state["rounds"][r]["members"]:
        raise Rejected(f"{name(state, seat)} 不是本轮选手；场内违规请写局号：/违规 玩家 类型 局号。")
    effects = add_violation(state, seat, vtype, r, game_id, factor, "cmd", ctx, actor.user_id)
    v = state["violations"][-1]
    audit(state, ctx, actor.user_id, "违规",
          f"编号{v['id']} {name(state, seat)} {vtype} 局号#{game_id or '-'} -{v['points']}")
    level = LEVEL_NAMES[v["level"]]
    text = f"已记 {name(state, seat)} {level}违规「{vtype}」（编号 {v['id']}），扣 {fmt_total(v['points'])} 分。"
    note = award_note(state, ctx.settings, v)
    mine = f"裁判判定你{level}违规「{vtype}」（编号 {v['id']}），扣 {fmt_total(v['points'])} 分"
    if note:
        text += note
        mine += "，并取消该局评选资格（§七.3）"
    return [Say("reply", text + f"撤销：/撤销 {v['id']} 理由"),
            Say(seat, mine + "；有异议请在次日 12:00 前 /申诉。")] + effects


def undo_cmd(state: dict[str, Any], actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Any]:
    """/撤销 <编号> <理由>: take a deduction back (e.g. after an upheld appeal, §八 改判)."""
    vid, reason = args["id"], (args.get("reason") or "").strip()
    v = next((x for x in state["violations"] if x["id"] == vid), None)
    if v is None:
        raise Rejected(f"没有编号 {vid} 的扣分记录；编号见 /我的积分 或 /导出 的「违规」表。")
    if v.get("reversed"):
        done = v["reversed"]
        raise Rejected(f"编号 {vid} 已于 {done['at'][:16].replace('T', ' ')} 撤销（{done['reason']}），不能再撤销。")
    if not reason:
        raise Rejected(f"请写明撤销理由：/撤销 {vid} 理由（例如 申诉改判）。")
    note = award_note(state, ctx.settings, v)
    v["reversed"] = {"at": ctx.now.isoformat(), "by": actor.user_id, "reason": reason}
    seat = v["seat"]
    where = f"局号#{v['game']}" if v["game"] else "场外"
    audit(state, ctx, actor.user_id, "撤销",
          f"编号{vid} {name(state, seat)} {v['type']}（{where}）+{fmt_total(v['points'])} {reason}")
    head = f"已撤销编号 {vid}：{name(state, seat)} {v['type']}（{where}），退回 {fmt_total(v['points'])} 分。"
    mine = f"裁判撤销了你的违规「{v['type']}」（编号 {vid}，{where}），退回 {fmt_total(v['points'])} 分：{reason}。"
    if note and award_blocked(state, ctx.settings, seat, v["game"]) is None:
        head += f"局号#{v['game']} 的评选资格恢复（§七.3）。"
        mine += "该局评选资格已恢复。"
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
        place = f"回到 {g}组 {rnd['groups'][g].index(seat) + 1}号位。"
    elif seat in rnd["members"]:
        place = "原位置已由替补顶上，现为替补，按替补顺序上场。"
    audit(state, ctx, "system", "恢复资格", f"{name(state, seat)} {place}")
    return [Restore(seat, "违规扣分已撤销，恢复参赛资格"),
            Say("group", f"{name(state, seat)} 的违规扣分已撤销，恢复参赛资格（§十三.3.4 不再满足）。"),
            Say("hosts", f"{name(state, seat)} 恢复参赛资格：{place or '现为替补。'}"),
            Say(seat, f"你的参赛资格已恢复。{place or '现为替补。'}")]


def award_cmd(state: dict[str, Any], actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Any]:
    """/评选 <局号> <全场最佳|败方最佳> <玩家|无>: the referees re-award (§七.1/§七.3)."""
    game = find_game(state, args["game"])
    kind = {"全场最佳": "mvp", "MVP": "mvp", "mvp": "mvp", "败方最佳": "svp", "SVP": "svp", "svp": "svp"}.get(args["award"])
    if kind is None:
        raise Rejected("评选只能写 全场最佳 或 败方最佳，例如 /评选 3 全场最佳 张三。")
    if game["status"] != "ok":
        raise Rejected(f"局号#{game['id']} 是流局，没有评选。")
    what = "全场最佳" if kind == "mvp" else "败方最佳"
    who = (args.get("who") or "").strip()
    seat = None
    if who not in ("无", "空", "取消"):
        from .model import resolver
        seat = resolver(state).get(who.lstrip("#"))
        if seat is None or str(seat) not in game["points"]:
            raise Rejected(f"「{who}」不在局号#{game['id']} 里；写报名序号或马甲，或写「无」取消该项评选。")
        pts = game["points"][str(seat)]
        blocked = award_blocked(state, ctx.settings, seat, game["id"])
        if blocked:
            raise Rejected(f"{name(state, seat)} 在局号#{game['id']} 有影响局势的违规（{blocked['type']}，编号 "
                           f"{blocked['id']}），没有评选资格（§七.3）；撤销后才能评选。")
        if kind == "svp" and pts["won"]:
            raise Rejected(f"败方最佳应来自失败方，{name(state, seat)} 在胜方。")
        other = "svp" if kind == "mvp" else "mvp"
        if pts[other]:
            raise Rejected(f"{name(state, seat)} 已是本局{'败方最佳' if other == 'svp' else '全场最佳'}，一人只能得一项。")
    factor = 2 if game["double"] else 1
    sc = ctx.settings["scoring"]
    before = [k for k, p in game["points"].items() if p[kind]]
    for key, pts in game["points"].items():
        pts[kind] = seat is not None and int(key) == seat
        pts["parts"]["award"] = round(factor * ((sc["mvp"] if pts["mvp"] else 0) + (sc["svp"] if pts["svp"] else 0)), 4)
    old = "、".join(name(state, int(k)) for k in before) or "无"
    new = name(state, seat) if seat is not None else "无"
    audit(state, ctx, actor.user_id, "评选", f"局号#{game['id']} {what}：{old} → {new}")
    text = f"局号#{game['id']}（{game['group']}组 第{game['no']}场）{what}：{old} → {new}。"
    return [Say("reply", text + "积分榜已更新。"), Say(chat_to(game["group"], ctx.chats), "裁判改评：" + text)]


def find_game(state: dict[str, Any], game_id: int) -> dict[str, Any]:
    for g in state["games"]:
        if g["id"] == game_id:
            return g
    raise Rejected(f"没有局号#{game_id}，请用积分表或录分回执里的局号。")


def appeal(state: dict[str, Any], actor: Actor, args: dict[str, Any], ctx: Ctx, deadline: Any) -> list[Any]:
    if actor.seat is None:
        raise Rejected("只有报名选手可以申诉。")
    game = find_game(state, args["game"])
    text = args.get("text", "").strip()
    if not text:
        raise Rejected("请写明申诉理由：/申诉 局号 理由（起因、经过、结果、异议点）。")
    heavy = text.startswith("重度")
    if ctx.now > deadline and not heavy:
        local = deadline.astimezone(ctx.tz)
        raise Rejected(f"申诉已截止（{local.month}月{local.day}日 {local:%H:%M}），本场不再受理（§八）；"
                       "检举重度违规请以「重度」开头。")
    refused = sum(1 for a in state["appeals"]
                  if a["seat"] == actor.seat and a["game"] == game["id"] and a["status"] == "upheld")
    if refused >= ctx.settings["options"]["max_appeals"]:
        raise Rejected(f"你对局号#{game['id']} 的申诉已 {refused} 次未通过，申诉作废（§八）。")
    aid = len(state["appeals"]) + 1
    state["appeals"].append({"id": aid, "seat": actor.seat, "game": game["id"], "text": text,
                             "at": ctx.now.isoformat(), "status": "open", "answer": ""})
    return [Say("reply", f"申诉已提交（编号 {aid}），裁判组复核后会私聊答复。复核期间请勿公开讨论（§八）。"),
            Say("hosts", f"新申诉 {aid}：{name(state, actor.seat)} 对局号#{game['id']}（{game['group']}组 第{game['no']}场）："
                         f"{text}\n答复：/裁决 {aid} 维持|改判 说明")]


def appeals_list(state: dict[str, Any]) -> list[Any]:
    open_ = [a for a in state["appeals"] if a["status"] == "open"]
    if not open_:
        return [Say("reply", "没有待复核的申诉。")]
    lines = [f"待复核申诉 {len(open_)} 件："]
    lines += [f"{a['id']}. {name(state, a['seat'])} 局号#{a['game']}：{a['text']}" for a in open_]
    lines.append("答复：/裁决 编号 维持|改判 说明")
    return [Say("reply", "\n".join(lines))]


def verdict(state: dict[str, Any], actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Any]:
    aid = args["id"]
    match = [a for a in state["appeals"] if a["id"] == aid]
    if not match:
        raise Rejected(f"没有编号 {aid} 的申诉，/申诉列表 可查看。")
    a = match[0]
    if a["status"] != "open":
        raise Rejected(f"申诉 {aid} 已答复（{VERDICT_NAMES[a['status']]}）。")
    status = VERDICTS.get(args["verdict"])
    if status is None:
        raise Rejected("裁决只能写 维持 或 改判。")
    a["status"], a["answer"] = status, args.get("note", "")
    audit(state, ctx, actor.user_id, "裁决", f"申诉{aid} {VERDICT_NAMES[status]} {a['answer']}")
    effects: list[Any] = [Say(a["seat"], f"你的申诉 {aid}（局号#{a['game']}）裁判组答复：{VERDICT_NAMES[status]}。{a['answer']}")]
    if status == "changed":
        effects.append(Say("reply", f"已记改判。请用 /改分 {a['game']} 重新录入计分表、/流局 {a['game']}，"
                                    "或 /撤销 编号 理由 撤回扣分、/评选 改评，积分榜随之更新。"))
    else:
        effects.append(Say("reply", f"已答复申诉 {aid}：维持原判。"))
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
    effects: list[Any] = [SetPhase(key=rc["key"], label=f"{rc['name']} 分组已公布")]
    effects += [Say(chat_to(g, ctx.chats), t) for g, t in group_texts(state, r).items()]
    return effects


def missing_games(state: dict[str, Any], cfg: dict[str, Any], r: int) -> list[str]:
    rc = cfg["rounds"][r]
    opened = [d for d in state["days"] if d["round"] == r]
    total = sum(d["games"] for d in rc["days"])
    missing = []
    if len(opened) < len(rc["days"]):
        missing.append(f"还有 {len(rc['days']) - len(opened)} 个比赛日没开")
    for no in range(1, total + 1):
        for g in sorted(state["rounds"][r]["groups"]):
            if not any(x["round"] == r and x["group"] == g and x["no"] == no for x in state["games"]):
                missing.append(f"{g}组 第{no}场")
    return missing


def next_round(state: dict[str, Any], actor: Actor, ctx: Ctx) -> list[Any]:
    if state["finished"]:
        raise Rejected("联赛已结束。")
    r = state["round"]
    cfg = ctx.settings
    missing = missing_games(state, cfg, r)
    if missing:
        shown = "、".join(missing[:10]) + ("…" if len(missing) > 10 else "")
        raise Rejected(f"本轮还没结束：{shown}。录完分（或 /流局）后再 /下一轮。")
    table = rows(state, cfg, r)
    ranking = [row["seat"] for row in table if row["rank"]]
    state["rounds"][r]["ranking"] = ranking
    ties = [row for row in table if row["tie"]]
    rc = cfg["rounds"][r]
    audit(state, ctx, actor.user_id, "下一轮", f"{rc['name']} 结束")
    effects: list[Any] = []
    if ties:
        effects.append(Say("hosts", "以下选手同分且规则无法分出先后，请裁判裁定（§九.4）："
                                    + "、".join(name(state, row["seat"]) for row in ties)))
    if r + 1 >= len(cfg["rounds"]):
        state["finished"] = True
        top = [f"{row['rank']}. {name(state, row['seat'])} {fmt_total(row['total'])}" for row in table[:24] if row["rank"]]
        return effects + [Finish(f"{rc['name']} 最终排名：\n" + "\n".join(top))]
    need = cfg["rounds"][r + 1]["players"]
    advanced = ranking[:rc["advance"]]
    if len(advanced) < need:
        raise Rejected(f"可晋级的只有 {len(advanced)} 人，下一轮需要 {need} 人，请先处理弃权/替补。")
    lines = [f"{rc['name']} 结束，前 {rc['advance']} 名晋级："]
    lines += [f"{i}. {name(state, s)}" for i, s in enumerate(advanced, 1)]
    effects.append(Say("group", "\n".join(lines)))
    return effects + new_round(state, r + 1, advanced, ctx)
