"""Day: leader elections (day 1), guards' verdict and 起义 (day 2+), 看守长 <权威>."""

from __future__ import annotations

from collections import Counter
from typing import Any

from plugins.kernel.contract import Ctx, Rejected, Say

from . import common as c
from . import model as m
from . import rules_end, rules_night

OPT_LABEL = {"exec": "处决", "free": "释放"}


def opt_text(state: m.JSON, opt: str) -> str:
    if opt == m.ABSTAIN:
        return "弃票"
    verb, seat = opt.split(":")
    return f"{OPT_LABEL[verb]} {m.name(state, int(seat))}"


def _need_day(state: m.JSON, first: bool) -> None:
    if state["phase"] != "day":
        raise Rejected("现在不是讨论日投票时间，请等下一个讨论日。")
    if first and state["day"] != 1:
        raise Rejected("领袖选举只在第1天进行；现在请用 /处决、/释放 或 /弃票。")
    if not first and state["day"] == 1:
        raise Rejected("第1天只选举领袖（/投票）；处决/释放从第2天开始。")


def elect(state: m.JSON, actor: Any, seat_arg: Any) -> list[Any]:
    me = c.me(state, actor)
    _need_day(state, True)
    who = c.target(state, seat_arg)
    kind = m.player(state, me)["kind"]
    title = "看守长" if kind == "guard" else "囚犯领袖"
    if m.player(state, who)["kind"] != kind or not m.in_prison(state, who):
        raise Rejected(f"{title}只能从存活的{'看守' if kind == 'guard' else '囚犯'}中选。")
    state["elect"][str(me)] = who
    return [Say("reply", f"已投 {m.name(state, who)} 为{title}。截止前可改投，票数截止时公布。")]


def vote(state: m.JSON, actor: Any, verb: str, seat_arg: Any | None) -> list[Any]:
    """/处决 /释放 /弃票. Guards vote on a prisoner; during 起义 prisoners vote on a guard."""
    me = c.me(state, actor)
    _need_day(state, False)
    kind = m.player(state, me)["kind"]
    if kind == "prisoner":
        if state["uprising"] is None:
            raise Rejected("囚犯不能参加裁决投票；只有囚犯领袖发动起义后才能投票处决看守。")
        if verb == "free":
            raise Rejected("起义只能处决看守：请用 /处决 <看守> 或 /弃票。")
        book = state["uprising"]["votes"]
        want = "guard"
    else:
        book = state["votes"]
        want = "prisoner"
    if verb == "skip":
        opt = m.ABSTAIN
    else:
        who = c.target(state, seat_arg)
        if m.player(state, who)["kind"] != want or not m.in_prison(state, who):
            raise Rejected(f"只能投给监狱中存活的{'囚犯' if want == 'prisoner' else '看守'}。")
        opt = f"{verb}:{who}"
    book[str(me)] = opt
    return [Say("reply", f"已投：{opt_text(state, opt)}。截止前可改投，票在截止时公布。")]


def uprising(state: m.JSON, actor: Any, ctx: Ctx) -> list[Any]:
    """【囚犯领袖】<起义>[1]: on a discussion day, all living prisoners vote to execute a guard."""
    me = c.me(state, actor)
    if state["leader"] != me:
        raise Rejected("只有囚犯领袖能发动起义。")
    if state["uprising_used"]:
        raise Rejected("起义只能发动一次，你已经用过了。")
    if state["phase"] != "day" or state["day"] < 2:
        raise Rejected("起义只能在第2天起的讨论日白天发动。")
    state["uprising_used"] = True
    state["uprising"] = {"by": me, "votes": {}}
    c.log_use(state, ctx, me, "起义", "", None)
    return [Say("group", (
        f"囚犯领袖 {m.name(state, me)} 发动了起义！所有存活囚犯请在 "
        f"{c.hhmm(ctx.phase.ends_at if ctx.phase else None, ctx)} 前私聊我 /处决 <看守> 或 /弃票。"
    ))]


def decide(votes: dict[str, str], authority: int | None, alive: bool) -> tuple[str, list[str]]:
    """Top choice wins; a tie goes to the authority (【看守长】<权威>).

    Returns ("done", [option]) / ("done", []) for nothing, ("pick", top) when the authority
    voted in the minority (or not at all) and must pick one of the top, ("none", top) for a
    tie with no living authority.
    """
    if not votes:
        return "done", []
    counts = Counter(votes.values())
    best = max(counts.values())
    top = sorted(o for o, n in counts.items() if n == best)
    if len(top) == 1:
        return "done", top
    if authority is None or not alive:
        return "none", top
    mine = votes.get(str(authority))
    if mine in top:
        return "done", [mine]
    return "pick", top


def _tally_text(state: m.JSON, votes: dict[str, str]) -> str:
    if not votes:
        return "无人投票"
    return "；".join(f"{m.name(state, int(s))}→{opt_text(state, o)}" for s, o in sorted(votes.items(), key=lambda kv: int(kv[0])))


def _elections(state: m.JSON, ctx: Ctx, fx: list[Any]) -> None:
    lines = []
    for kind, key, title in (("guard", "chief", "看守长"), ("prisoner", "leader", "囚犯领袖")):
        voters = m.living(state, kind)
        votes = {str(s): state["elect"][str(s)] for s in voters if str(s) in state["elect"]}
        pool = [v for v in votes.values() if m.in_prison(state, v)]
        if pool:
            counts = Counter(pool)
            best = max(counts.values())
            top = sorted(s for s, n in counts.items() if n == best)
        else:
            top = voters
        if not top:
            continue
        winner = top[0] if len(top) == 1 else ctx.rng.choice(top)
        state[key] = winner
        tie = "（平票，随机决定）" if len(top) > 1 else ""
        detail = "；".join(f"{m.name(state, int(s))}→{m.name(state, v)}" for s, v in sorted(votes.items(), key=lambda kv: int(kv[0]))) or "无人投票"
        lines.append(f"{title}：{m.name(state, winner)}{tie}。票：{detail}")
        for s in voters:
            if str(s) not in votes:
                c.card(state, ctx.settings, fx, s, f"第1天未参与{title}投票（潜水（三）2）")
    state["elect"] = {}
    fx.append(Say("group", "领袖选举结果\n" + "\n".join(lines)))
    for key in ("chief", "leader"):
        seat = state[key]
        if seat is not None:
            what = "看守长：平票时以你的票为准，投了少数票时须 /裁定。" if key == "chief" else "囚犯领袖：可在第2天起的讨论日 /起义 一次。"
            fx.append(Say(seat, f"你当选为{what}"))


def _post_check(state: m.JSON, cfg: m.Settings, fx: list[Any]) -> None:
    """（三）4: fewer than min_posts group messages on a discussion day. Skipped when no post
    at all was counted that day (the kernel did not deliver group text)."""
    need = cfg["min_posts"]
    day = str(state["day"])
    if not need or not any(m.player(state, s)["posts"].get(day, 0) for s in state["order"]):
        return
    for s in m.living(state):
        n = m.player(state, s)["posts"].get(day, 0)
        if n < need:
            c.card(state, cfg, fx, s, f"第{state['day']}天讨论发言 {n} 条，少于 {need} 条（潜水（三）4）")


def _alive_votes(state: m.JSON, votes: dict[str, str]) -> dict[str, str]:
    """Votes of voters still in prison (a voter put out by the kernel no longer counts)."""
    return {s: o for s, o in votes.items() if m.in_prison(state, int(s))}


def day_over(state: m.JSON, ctx: Ctx) -> list[Any]:
    fx: list[Any] = []
    cfg = ctx.settings
    if state["day"] == 1:
        _elections(state, ctx, fx)
        _post_check(state, cfg, fx)
        c.compulsory_check(state, cfg, fx, "day")
        fx += rules_night.open_rooms(state, ctx)
        return fx
    results: dict[str, list[str]] = {}
    lines = [f"第{state['day']}天裁决投票：{_tally_text(state, state['votes'])}"]
    for s in m.living(state, "guard"):
        if str(s) not in state["votes"]:
            c.card(state, cfg, fx, s, f"第{state['day']}天看守未参与裁决投票（潜水（三）2）",
                   f"第{state['day']}天未参与投票（潜水（三）2）")
    ballots = [("guard", _alive_votes(state, state["votes"]), state["chief"])]
    if state["uprising"] is not None:
        lines.append(f"起义投票：{_tally_text(state, state['uprising']['votes'])}")
        ballots.append(("prisoner", _alive_votes(state, state["uprising"]["votes"]), state["leader"]))
    state["picks"] = []
    for camp, votes, auth in ballots:
        verdict, opts = decide(votes, auth, auth is not None and m.in_prison(state, auth))
        if verdict == "done":
            results[camp] = opts
        elif verdict == "none":
            if cfg["tie_without_chief"] == "random":
                results[camp] = [ctx.rng.choice(opts)]
            else:
                results[camp] = []
                lines.append("最高票平票且没有可裁定的领袖，无事发生。")
        else:
            state["picks"].append({"by": auth, "camp": camp, "options": opts})
    state["pending"] = results
    _post_check(state, cfg, fx)
    c.compulsory_check(state, cfg, fx, "day")
    fx.append(Say("group", "\n".join(lines)))
    if state["picks"]:
        ends = c.enter(state, "verdict", ctx, fx)
        for pick in state["picks"]:
            title = "看守长" if pick["camp"] == "guard" else "囚犯领袖"
            listed = "、".join(opt_text(state, o) for o in pick["options"])
            fx.append(Say("group", f"最高票平票，且{title}投了少数票，等待{title}在 {c.hhmm(ends, ctx)} 前裁定。"))
            fx.append(Say(pick["by"], f"平票：请在 {c.hhmm(ends, ctx)} 前私聊 /裁定 从中选一个：{listed}。例如 /裁定 处决 3 或 /裁定 弃票。"))
        return fx
    return fx + _apply_results(state, ctx)


def pick(state: m.JSON, actor: Any, choice: str, seat_arg: Any | None, ctx: Ctx) -> list[Any]:
    """/裁定: the 看守长 (or the 囚犯领袖 for 起义) picks one of the tied top options."""
    me = c.me(state, actor)
    mine = [p for p in state["picks"] if p["by"] == me]
    if state["phase"] != "verdict" or not mine:
        raise Rejected("现在没有需要你裁定的平票。")
    verbs = {"处决": "exec", "释放": "free", "弃票": m.ABSTAIN}
    if choice not in verbs:
        raise Rejected("用法：/裁定 处决 <玩家>、/裁定 释放 <玩家> 或 /裁定 弃票。")
    opt = m.ABSTAIN if verbs[choice] == m.ABSTAIN else f"{verbs[choice]}:{c.target(state, seat_arg)}"
    entry = mine[0]
    if opt not in entry["options"]:
        opts = "、".join(opt_text(state, o) for o in entry["options"])
        raise Rejected(f"只能从最高票中选：{opts}。")
    state["picks"].remove(entry)
    state["pending"][entry["camp"]] = [opt]
    c.log_use(state, ctx, me, "权威裁定", opt_text(state, opt), "已生效")
    fx: list[Any] = [Say("reply", f"已裁定：{opt_text(state, opt)}。")]
    if not state["picks"]:
        fx += _apply_results(state, ctx)
    return fx


def verdict_over(state: m.JSON, ctx: Ctx) -> list[Any]:
    fx: list[Any] = []
    for entry in list(state["picks"]):
        opt = ctx.rng.choice(entry["options"])
        state["pending"][entry["camp"]] = [opt]
        title = "看守长" if entry["camp"] == "guard" else "囚犯领袖"
        if m.in_prison(state, entry["by"]):
            c.card(state, ctx.settings, fx, entry["by"], f"{title}未在时限内裁定平票（潜水（三）3），随机决定")
        fx.append(Say("group", f"{title}未按时裁定，随机决定：{opt_text(state, opt)}。"))
    state["picks"] = []
    return fx + _apply_results(state, ctx)


def _apply_results(state: m.JSON, ctx: Ctx) -> list[Any]:
    fx: list[Any] = []
    lines = []
    for camp in ("guard", "prisoner"):
        for opt in state["pending"].get(camp, []):
            if opt == m.ABSTAIN:
                lines.append("最高票是弃票，无事发生。" if camp == "guard" else "起义最高票是弃票，无事发生。")
                continue
            verb, seat = opt.split(":")
            who = int(seat)
            if not m.in_prison(state, who):
                continue
            if verb == "free":
                c.release(state, who, fx)
                lines.append(f"{m.name(state, who)} 被释放，离开了监狱。")
            else:
                dead: list[int] = []
                c.kill(state, ctx.settings, who, "起义处决" if camp == "prisoner" else "被处决", fx, dead)
                lines.append(f"{m.name(state, who)} 被{'起义的囚犯们' if camp == 'prisoner' else ''}处决。")
                for d in dead[1:]:
                    lines.append(f"{m.name(state, d)} 殉情而死。")
    if not lines:
        lines.append("今天无人被处决或释放。")
    state["pending"] = {}
    state["votes"] = {}
    state["uprising"] = None
    fx.append(Say("group", "\n".join(lines)))
    end = rules_end.check(state, ctx)
    if end is not None:
        return fx + end
    return fx + rules_night.open_rooms(state, ctx)
