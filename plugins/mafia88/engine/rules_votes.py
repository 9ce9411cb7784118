"""The vote machine (§十三): ballots, proxies, tally with voter lines, the
cut line (后到先出, §十三.8) and the overtime vote."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from plugins.kernel.contract import Actor, Ctx, Rejected, Say

from .model import State, alive, dt, hhmm, iso, name, player, rnd, row
from .resolution import POST_CAUSES

HALF = "half"
FULL = "full"


def close_time(state: State, ctx: Ctx):
    if ctx.phase is not None and ctx.phase.key == "phase":
        return ctx.phase.ends_at
    due = rnd(state)["due"]["close"]
    return dt(due) if due else None


def _check_targets(state: State, targets: list[int]) -> list[int]:
    out: list[int] = []
    for t in targets:
        p = player(state, t)
        if p is None:
            raise Rejected(f"没有 {t} 号玩家，请核对后重投。")
        if not p["alive"]:
            raise Rejected(f"{name(state, t)} 已出局，不能投，请改投在场玩家。")
        if t not in out:
            out.append(t)  # §十三.2: two votes on the same player count as one
    return out


def voter_weight(state: State, seat: int, r: int) -> str | None:
    """FULL for a living player, HALF for one killed by a post this round
    (§十三.3), None for anyone else who is out."""
    p = state["players"][str(seat)]
    if p["alive"]:
        return HALF if r in p.get("half", []) else FULL  # §五白6, §七.1: a living player may hold a half vote
    out = p["out"]
    if out and out["cause"] in POST_CAUSES and out["round"] == r:
        return HALF
    return None


def ballot_of(state: State, seat: int, r: int | None = None) -> dict[str, Any] | None:
    for b in rnd(state, r)["ballots"]:
        if b["voter"] == seat:
            return b
    return None


def _voter_checks(state: State, actor: Actor) -> int:
    if state["step"] == "over":
        raise Rejected("游戏已结束，不能再投票。")
    if actor.seat is None or player(state, actor.seat) is None:
        raise Rejected("你不是本局玩家，不能投票。")
    return actor.seat


def vote(state: State, actor: Actor, targets: list[int], ctx: Ctx) -> list:
    seat = _voter_checks(state, actor)
    if state["step"] == "overtime":
        return overtime_vote(state, seat, targets, ctx)
    if state["step"] == "deciding":
        raise Rejected(f"第{state['round']}轮投票已截止，结果贴稍后公布；下一轮开始后再投。")
    r = state["round"]
    cur = rnd(state)
    close = close_time(state, ctx)
    if close is not None and ctx.now >= close:
        raise Rejected(f"投票已截止（{hhmm(state, iso(close))}），本轮不能再投。")
    if voter_weight(state, seat, r) is None:
        raise Rejected("你已出局，不能投票。")
    mine = ballot_of(state, seat)
    if mine is not None:
        if mine["proxy"]:
            raise Rejected("你已托票，本轮不能再自行投票；要改票请在托票截止前重新 /托票。")
        raise Rejected(f"你本轮已投票（第 {mine['n']} 票），投出的票不能更改。")
    k = row(state, r)["votes"]
    chosen = _check_targets(state, targets)
    if not chosen:
        raise Rejected("请写出要投的玩家：/投票 <玩家> [<玩家>]")
    if len(chosen) > k:
        raise Rejected(f"本轮每人最多投 {k} 票，请重投。")
    b = {"seq": ctx.seq, "n": cur["next_n"], "at": iso(ctx.now), "voter": seat, "targets": chosen, "proxy": False}
    cur["next_n"] += 1
    cur["ballots"].append(b)
    half = ""
    if voter_weight(state, seat, r) == HALF:
        why = "你本轮只有半票（§五白6、§七.1）" if state["players"][str(seat)]["alive"] else "你本轮被贴杀，此票算半票（§十三.3）"
        half = f"（{why}，仅在平票时生效）"
    # the round is named: a vote sent just after a close lands in the next round, and says so
    return [Say("reply", f"已投票：{'、'.join(name(state, t) for t in chosen)}，第{r}轮第 {b['n']} 票（序号 #{ctx.seq}）。{half}投出的票不能更改。")]


def proxy(state: State, actor: Actor, targets: list[int], ctx: Ctx) -> list:
    """§十三.5: a proxy to the hosts until 20 minutes before the close; it
    replaces the player's own vote and can be changed until the cut-off."""
    cfg = ctx.settings
    seat = _voter_checks(state, actor)
    if state["step"] == "overtime":
        raise Rejected("加时投票不接受托票，请直接 /投票。")
    if state["step"] == "deciding":
        raise Rejected(f"第{state['round']}轮投票已截止，不能再托票。")
    r = state["round"]
    cur = rnd(state)
    close = close_time(state, ctx)
    mine = ballot_of(state, seat)
    if mine is not None and not mine["proxy"]:
        raise Rejected(f"你本轮已投票（第 {mine['n']} 票），已投票的玩家不能托票改票。")
    if close is not None:
        cutoff = close - timedelta(minutes=cfg["times"]["proxy_cutoff_minutes"])
        if ctx.now >= cutoff:
            if mine is not None:
                kept = "、".join(name(state, t) for t in mine["targets"])
                raise Rejected(f"托票已截止（{hhmm(state, iso(cutoff))}），不能再改；你本轮的票仍是托票：{kept}。")
            raise Rejected(f"托票已截止（{hhmm(state, iso(cutoff))}），本轮不能再托票；投票截止前请自己 /投票。")
    if voter_weight(state, seat, r) is None:
        raise Rejected("你已出局，不能托票。")
    k = row(state, r)["votes"]
    chosen = _check_targets(state, targets)
    if not chosen:
        raise Rejected("请写出要托投的玩家：/托票 <玩家> [<玩家>]")
    if len(chosen) > k:
        raise Rejected(f"本轮每人最多投 {k} 票，请重新托票。")
    changed = mine is not None
    if changed:
        cur["ballots"] = [b for b in cur["ballots"] if b["voter"] != seat]
    b = {"seq": ctx.seq, "n": cur["next_n"], "at": iso(ctx.now), "voter": seat, "targets": chosen, "proxy": True}
    cur["next_n"] += 1
    cur["ballots"].append(b)
    verb = "托票已改为" if changed else "已托票"
    cutoff_txt = hhmm(state, iso(close - timedelta(minutes=cfg["times"]["proxy_cutoff_minutes"]))) if close else "托票截止"
    return [
        Say("reply", f"{verb}：{'、'.join(name(state, t) for t in chosen)}，第{r}轮第 {b['n']} 票（序号 #{ctx.seq}）。你本轮不能再自行投票；{cutoff_txt} 前可重新 /托票 改票。"),
        Say("hosts", f"托票：{name(state, seat)} → {'、'.join(name(state, t) for t in chosen)}（序号 #{ctx.seq}）。"),
    ]


def tally(state: State, r: int) -> list[dict[str, Any]]:
    """Candidates (living targets) with full and half votes, the arrival of
    their last full vote and their voter lines, best first."""
    cands: dict[int, dict[str, Any]] = {}
    for b in sorted(rnd(state, r)["ballots"], key=lambda b: b["seq"]):
        w = voter_weight(state, b["voter"], r)
        if w is None:
            w = FULL  # §十四.5: votes cast before a ruling stand
        for t in b["targets"]:
            if not state["players"][str(t)]["alive"]:
                continue
            c = cands.setdefault(t, {"seat": t, "full": 0, "half": 0, "last": 0, "lines": []})
            c["lines"].append({"voter": b["voter"], "seq": b["seq"], "n": b["n"], "weight": w, "proxy": b["proxy"]})
            if w == FULL:
                c["full"] += 1
                c["last"] = b["seq"]
            else:
                c["half"] += 1
    return sorted(cands.values(), key=_rank)


def _rank(c: dict[str, Any]) -> tuple:
    # §十三.3 half votes break ties; §十三.8 later arrival goes out first
    return (-c["full"], -c["half"], -c["last"], c["seat"])


def decide(state: State, r: int) -> dict[str, Any]:
    """{"out": [...]} or {"tied": [...], "above": [...], "slots": n} when the
    cut line falls between candidates whose votes arrived together."""
    k = row(state, r)["out"]
    cands = [c for c in tally(state, r) if c["full"] >= 1]
    if len(cands) <= k:
        return {"out": [c["seat"] for c in cands], "cands": cands}
    key = lambda c: (c["full"], c["half"], c["last"])  # noqa: E731
    if k > 0 and key(cands[k - 1]) == key(cands[k]):
        tied = [c["seat"] for c in cands if key(c) == key(cands[k])]
        above = [c["seat"] for c in cands if _rank(c) < _rank(cands[k]) and c["seat"] not in tied]
        return {"tied": tied, "above": above, "slots": k - len(above), "cands": cands}
    return {"out": [c["seat"] for c in cands[:k]], "cands": cands}


def start_overtime(state: State, d: dict[str, Any], ctx: Ctx, effects: list) -> None:
    cfg = ctx.settings
    from plugins.kernel.contract import SetPhase

    ends = ctx.now + timedelta(minutes=cfg["times"]["overtime_minutes"])
    rnd(state)["overtime"] = {"tied": d["tied"], "above": d["above"], "slots": d["slots"], "ballots": [], "ends": iso(ends)}
    state["step"] = "overtime"
    names = "、".join(name(state, s) for s in d["tied"])
    effects.append(Say("group", f"平票且票同时到达：{names} 争 {d['slots']} 个出局名额（§十三.8）。加时 {cfg['times']['overtime_minutes']} 分钟，每人一票：/投票 <玩家>，{hhmm(state, iso(ends))} 截止。"))
    effects.append(SetPhase("overtime", f"第{state['round']}轮加时投票", ends))


def overtime_vote(state: State, seat: int, targets: list[int], ctx: Ctx) -> list:
    ot = rnd(state)["overtime"]
    if ctx.now >= dt(ot["ends"]) and (ctx.phase is None or ctx.now >= ctx.phase.ends_at):
        raise Rejected("加时投票已截止，不能再投。")
    if not state["players"][str(seat)]["alive"] or any(m["seat"] == seat for m in rnd(state)["marks"]):
        raise Rejected("你已出局，不能参加加时投票。")
    if any(b["voter"] == seat for b in ot["ballots"]):
        raise Rejected("你已投过加时票，投出的票不能更改。")
    if len(targets) != 1 or targets[0] not in ot["tied"]:
        raise Rejected(f"加时只投一票，且只能投平票者：{'、'.join(name(state, s) for s in ot['tied'])}。")
    n = len(ot["ballots"]) + 1
    ot["ballots"].append({"seq": ctx.seq, "n": n, "at": iso(ctx.now), "voter": seat, "target": targets[0]})
    return [Say("reply", f"加时票已投：{name(state, targets[0])}，第 {n} 票（序号 #{ctx.seq}）。")]


def resolve_overtime(state: State, ctx: Ctx) -> list[int]:
    ot = rnd(state)["overtime"]
    counts = {s: [0, 0] for s in ot["tied"]}
    for b in ot["ballots"]:
        counts[b["target"]][0] += 1
        counts[b["target"]][1] = max(counts[b["target"]][1], b["seq"])
    order = sorted(ot["tied"], key=lambda s: (-counts[s][0], -counts[s][1], s))
    k = ot["slots"]
    if 0 < k < len(order) and counts[order[k - 1]] == counts[order[k]]:
        # still level (nobody voted for them): the game's seeded draw decides
        level = [s for s in order if counts[s] == counts[order[k]]]
        head = [s for s in order if s not in level]
        ctx.rng.shuffle(level)
        order = head + level
    return ot["above"] + order[:k]


def tally_text(state: State) -> str:
    r = state["round"]
    cur = rnd(state)
    lines = [f"第{r}轮票型（{len(cur['ballots'])} 人已投，每人 {row(state, r)['votes']} 票，票出 {row(state, r)['out']} 人）："]
    for c in tally(state, r):
        voters = "、".join(
            f"#{ln['n']} {name(state, ln['voter'])}{'（托）' if ln['proxy'] else ''}{'（半）' if ln['weight'] == HALF else ''}"
            for ln in c["lines"]
        )
        half = f" + 半票 {c['half']}" if c["half"] else ""
        lines.append(f"{name(state, c['seat'])}：{c['full']} 票{half}｜{voters}")
    if len(lines) == 1:
        lines.append("还没有人投票。")
    ot = cur["overtime"]
    if ot:
        lines.append("加时票：" + ("、".join(f"#{b['n']} {name(state, b['voter'])}→{name(state, b['target'])}" for b in ot["ballots"]) or "暂无"))
    return "\n".join(lines)


def non_voters(state: State, r: int) -> list[int]:
    voted = {b["voter"] for b in rnd(state, r)["ballots"]}
    return [s for s in alive(state) if s not in voted]
