"""Generic abilities and the host's settlement, submissions (（二）4、6), 树洞, post counts,
and the kernel's out/back commands."""

from __future__ import annotations

import re
from typing import Any

from plugins.kernel.contract import Ctx, Eliminate, Ignored, Rejected, Restore, Say

from . import common as c
from . import model as m
from . import rules_end

MAP_TOKEN = re.compile(r"([A-Za-z])\s*[-－—~～:：=]?\s*([A-Za-z])")
PHASES_FOR = {"day": ("day",), "night": ("rooms", "night"), "any": ("day", "verdict", "rooms", "night")}


def use_generic(state: m.JSON, actor: Any, ability_name: str, text: str, ctx: Ctx) -> list[Any]:
    me = c.me(state, actor)
    ab = m.ability(state, ctx.settings, me, "generic", ability_name)
    if ab is None:
        mine = [a["name"] for a in m.abilities(state, ctx.settings, me) if a["kind"] == "generic"]
        raise Rejected(f"你没有技能「{ability_name}」。" + (f"你的技能：{'、'.join(mine)}。" if mine else ""))
    when = ab.get("when", "any")
    if state["phase"] not in PHASES_FOR[when]:
        raise Rejected(f"「{ability_name}」只能在{'白天讨论日' if when == 'day' else '夜晚' if when == 'night' else '游戏进行中'}使用。")
    c.need_uses(state, me, ab, f"「{ability_name}」")
    c.spend(state, me, ab)
    entry = c.log_use(state, ctx, me, ability_name, text or "", None)
    return [
        Say("hosts", f"【技能#{entry['id']}】{m.name(state, me)}（{m.role(state, ctx.settings, me)['name']}）发动「{ability_name}」：{text or '（无内容）'}。用 /结算 {entry['id']} <结果> 回复。"),
        Say("reply", f"已提交「{ability_name}」（#{entry['id']}），等待导演结算。"),
    ]


def settle(state: m.JSON, actor: Any, use_id: Any, text: str, ctx: Ctx) -> list[Any]:
    if not actor.is_host:
        raise Rejected("只有导演可以结算技能。")
    if not isinstance(use_id, int) or not 1 <= use_id <= len(state["log"]):
        raise Rejected("没有这个技能编号，请看导演私聊里的 #编号。")
    entry = state["log"][use_id - 1]
    if entry["result"] is not None:
        raise Rejected(f"#{use_id} 已经结算过了：{entry['result']}")
    if not text.strip():
        raise Rejected("请写明结算结果：/结算 <编号> <结果>。")
    entry["result"] = text.strip()
    entry["settled_seq"] = ctx.seq
    return [
        Say(entry["seat"], f"你的技能「{entry['ability']}」（#{use_id}）结算：{entry['result']}"),
        Say("reply", f"已结算 #{use_id}。"),
    ]


def _limit(state: m.JSON, cfg: m.Settings, kind: str, seat: int) -> None:
    """``max_submissions`` per kind and player; 0 (default) = no limit (the seed sets none)."""
    n = sum(1 for s in state["subs"][kind] if s["seat"] == seat)
    cap = cfg["max_submissions"]
    if cap and n >= cap:
        raise Rejected(f"你已经提交过 {n} 次，不能再提交。")


def submit_map(state: m.JSON, actor: Any, text: str, ctx: Ctx) -> list[Any]:
    """（二）4: /提交对应 a-E b-C …, timestamped by arrival number."""
    me = c.member(state, actor)
    if state["phase"] == "over":
        raise Rejected("游戏已结束，不能再提交。")
    lower = list(state["mapping"].keys())
    upper = sorted(state["mapping"].values())
    pairs: dict[str, str] = {}
    for g, p in MAP_TOKEN.findall(text or ""):
        g, p = g.lower(), p.upper()
        if g not in lower or p not in upper:
            raise Rejected(f"没有房间 {g}-{p}：看守房 {''.join(lower)}，囚犯房 {''.join(upper)}。")
        if g in pairs or p in pairs.values():
            raise Rejected(f"房间 {g} 或 {p} 出现了两次，请每间只写一次。")
        pairs[g] = p
    if len(pairs) != len(lower):
        raise Rejected(f"请写全 {len(lower)} 组对应，例如 /提交对应 " + " ".join(f"{g}-{p}" for g, p in zip(lower, upper)))
    _limit(state, ctx.settings, "map", me)
    state["subs"]["map"].append({"seq": ctx.seq, "at": ctx.now.isoformat(), "seat": me, "pairs": dict(sorted(pairs.items()))})
    shown = " ".join(f"{g}-{p}" for g, p in sorted(pairs.items()))
    return [
        Say("hosts", f"{m.name(state, me)} 提交房间对应（到达 #{ctx.seq}）：{shown}"),
        Say("reply", f"已收到你的房间对应（到达 #{ctx.seq}），游戏结束时核对。"),
    ]


def submit_alias(state: m.JSON, actor: Any, text: str, ctx: Ctx) -> list[Any]:
    """（二）6: /提交马甲 马甲=玩家 …, one entry per line or separated by spaces."""
    me = c.member(state, actor)
    if state["phase"] == "over":
        raise Rejected("游戏已结束，不能再提交。")
    aliases = [m.player(state, s)["alias"] for s in state["order"]]
    pairs: dict[str, str] = {}
    for token in re.split(r"[\s,，;；]+", text or ""):
        if not token:
            continue
        parts = re.split(r"[=＝:：]", token, maxsplit=1)
        if len(parts) != 2 or not parts[0] or not parts[1]:
            raise Rejected(f"「{token}」格式不对，请写成 马甲=玩家。")
        if parts[0] not in aliases:
            raise Rejected(f"没有马甲「{parts[0]}」，请检查。")
        pairs[parts[0]] = parts[1]
    if not pairs:
        raise Rejected("请写出对应，例如 /提交马甲 马甲甲=玩家A 马甲乙=玩家B。")
    _limit(state, ctx.settings, "alias", me)
    state["subs"]["alias"].append({"seq": ctx.seq, "at": ctx.now.isoformat(), "seat": me, "pairs": pairs})
    return [
        Say("hosts", f"{m.name(state, me)} 提交马甲对应（到达 #{ctx.seq}，{len(pairs)} 条）。"),
        Say("reply", f"已收到你的马甲对应（{len(pairs)} 条，到达 #{ctx.seq}），游戏结束时核对。"),
    ]


def note(state: m.JSON, actor: Any, text: str, ctx: Ctx) -> list[Any]:
    c.member(state, actor)
    if state["phase"] == "over":
        raise Rejected("游戏已结束，树洞已公开。")
    body = (text or "").strip()
    if not body:
        raise Rejected("树洞内容不能为空：/树洞 <想说的话>。")
    state["notes"].append({"seq": ctx.seq, "text": body})
    return [Say("reply", "已存入树洞，游戏结束后匿名公开。")]


def post(state: m.JSON, actor: Any) -> list[Any]:
    """A group message from a player during a discussion day (（三）4 counts)."""
    if state["phase"] not in ("day", "verdict") or actor.seat is None or str(actor.seat) not in state["players"]:
        raise Ignored()
    p = m.player(state, actor.seat)
    if p["status"] != "alive":
        raise Ignored()
    day = str(state["day"])
    p["posts"][day] = p["posts"].get(day, 0) + 1
    return []


def kernel_out(state: m.JSON, args: dict[str, Any], ctx: Ctx) -> list[Any]:
    seat = c.target(state, args.get("seat"))
    p = m.player(state, seat)
    if p["status"] != "alive":
        raise Rejected(f"{m.name(state, seat)} 已不在监狱中。")
    p.update(status="out", out_day=state["day"], reason=str(args.get("reason") or "出局"))
    fx: list[Any] = [Eliminate(seat, p["reason"])]
    if state["phase"] != "over":
        end = rules_end.check(state, ctx)
        if end is not None:
            fx += end
    return fx


def kernel_back(state: m.JSON, args: dict[str, Any]) -> list[Any]:
    seat = c.target(state, args.get("seat"))
    p = m.player(state, seat)
    if p["status"] == "alive":
        raise Rejected(f"{m.name(state, seat)} 本来就在场。")
    if p["status"] == "released":
        raise Rejected(f"{m.name(state, seat)} 已被释放，不能回到监狱。")
    p.update(status="alive", out_day=None, reason="")
    return [Restore(seat, str(args.get("reason") or "回到游戏"))]
