"""Violations (§十三), appeals (§八), round transitions (§四) and grouping."""

from __future__ import annotations

import random
from typing import Any

from plugins.kernel.engine import Actor, Ctx, Eliminate, Finish, Rejected, Say, SetPhase

from .model import ACTIVE, chat_to, fmt_total, name
from .standings import rows
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
    return [Eliminate(seat, reason), Say("group", f"{name(state, seat)} 被取消参赛资格：{reason}")]


def disqualify_and_drop(state: dict[str, Any], seat: int, reason: str, ctx: Ctx) -> list[Any]:
    effects = disqualify(state, seat, reason)
    if effects:
        from .rules_day import drop_from_round
        effects += drop_from_round(state, seat, ctx)
    return effects


def add_violation(state: dict[str, Any], seat: int, vtype: str, r: int, game_id: int | None,
                  factor: int, source: str, ctx: Ctx, by: str) -> list[Any]:
    """Record one violation, then apply §十三.3.4 (5 light / 3 medium => out),
    heavy => out, and flag §十三.3.5 (2+ in one game) to the referees."""
    vc = state["cfg"]["violations"][vtype]
    opts = state["cfg"]["options"]
    vid = len(state["violations"]) + 1
    state["violations"].append({"id": vid, "seat": seat, "round": r, "game": game_id, "type": vtype,
                                "level": vc["level"], "points": round(vc["points"] * factor, 4),
                                "source": source, "at": ctx.now.isoformat(), "by": by})
    effects: list[Any] = []
    mine = [v for v in state["violations"] if v["seat"] == seat]
    if vc["level"] == "heavy":
        effects += disqualify_and_drop(state, seat, f"重度违规「{vtype}」（§十三.3）", ctx)
    light = sum(1 for v in mine if v["level"] == "light")
    medium = sum(1 for v in mine if v["level"] == "medium")
    if vc["level"] == "light" and light >= opts["dq_light"]:
        effects += disqualify_and_drop(state, seat, f"本届第 {light} 次轻度违规（§十三.3.4）", ctx)
    if vc["level"] == "medium" and medium >= opts["dq_medium"]:
        effects += disqualify_and_drop(state, seat, f"本届第 {medium} 次中度违规（§十三.3.4）", ctx)
    if game_id is not None and vc["level"] in ("light", "medium"):
        in_game = sum(1 for v in mine if v["game"] == game_id and v["level"] in ("light", "medium"))
        if in_game == opts["flag_per_game"]:
            effects.append(Say("hosts", f"{name(state, seat)} 在局号#{game_id} 已有 {in_game} 次违规，"
                                        "请考虑严厉处罚（§十三.3.5）：取消胜利分并扣 2 分等。"))
    return effects


def violation_cmd(state: dict[str, Any], actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Any]:
    seat, vtype = args["player"], args["type"]
    if vtype not in state["cfg"]["violations"]:
        raise Rejected(f"违规类型「{vtype}」不在违规表中，可用：{'、'.join(state['cfg']['violations'])}。")
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
    audit(state, ctx, actor.user_id, "违规", f"{name(state, seat)} {vtype} 局号#{game_id or '-'} -{v['points']}")
    level = LEVEL_NAMES[v["level"]]
    text = f"已记 {name(state, seat)} {level}违规「{vtype}」，扣 {fmt_total(v['points'])} 分。"
    return [Say("reply", text), Say(seat, f"裁判判定你{level}违规「{vtype}」，扣 {fmt_total(v['points'])} 分；"
                                         "有异议请在次日 12:00 前 /申诉。")] + effects


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
    if refused >= state["cfg"]["options"]["max_appeals"]:
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
        effects.append(Say("reply", f"已记改判。请用 /改分 {a['game']} 重新录入计分表，或 /流局 {a['game']}，积分榜随之更新。"))
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
    rc = state["cfg"]["rounds"][r]
    seed = ctx.rng.getrandbits(32)
    groups = make_groups(seats, rc["groups"], seed)
    state["rounds"].append({"key": rc["key"], "name": rc["name"], "seed": seed, "groups": groups,
                            "members": sorted(seats), "demoted": [], "ranking": None})
    state["round"] = r
    effects: list[Any] = [SetPhase(key=rc["key"], label=f"{rc['name']} 分组已公布")]
    effects += [Say(chat_to(g, ctx.chats), t) for g, t in group_texts(state, r).items()]
    return effects


def missing_games(state: dict[str, Any], r: int) -> list[str]:
    rc = state["cfg"]["rounds"][r]
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
    missing = missing_games(state, r)
    if missing:
        shown = "、".join(missing[:10]) + ("…" if len(missing) > 10 else "")
        raise Rejected(f"本轮还没结束：{shown}。录完分（或 /流局）后再 /下一轮。")
    table = rows(state, r)
    ranking = [row["seat"] for row in table if row["rank"]]
    state["rounds"][r]["ranking"] = ranking
    ties = [row for row in table if row["tie"]]
    rc = state["cfg"]["rounds"][r]
    audit(state, ctx, actor.user_id, "下一轮", f"{rc['name']} 结束")
    effects: list[Any] = []
    if ties:
        effects.append(Say("hosts", "以下选手同分且规则无法分出先后，请裁判裁定（§九.4）："
                                    + "、".join(name(state, row["seat"]) for row in ties)))
    if r + 1 >= len(state["cfg"]["rounds"]):
        state["finished"] = True
        top = [f"{row['rank']}. {name(state, row['seat'])} {fmt_total(row['total'])}" for row in table[:24] if row["rank"]]
        return effects + [Finish(f"{rc['name']} 最终排名：\n" + "\n".join(top))]
    need = state["cfg"]["rounds"][r + 1]["players"]
    advanced = ranking[:rc["advance"]]
    if len(advanced) < need:
        raise Rejected(f"可晋级的只有 {len(advanced)} 人，下一轮需要 {need} 人，请先处理弃权/替补。")
    lines = [f"{rc['name']} 结束，前 {rc['advance']} 名晋级："]
    lines += [f"{i}. {name(state, s)}" for i, s in enumerate(advanced, 1)]
    effects.append(Say("group", "\n".join(lines)))
    return effects + new_round(state, r + 1, advanced, ctx)
