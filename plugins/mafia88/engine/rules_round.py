"""The round's timeline and resolution: posts due → publication → vote close
→ (overtime) → result → next round, and the end of the game."""

from __future__ import annotations

from datetime import datetime, timedelta

from plugins.kernel.clock import next_at
from plugins.kernel.contract import CancelTimer, Ctx, Finish, Outcome, Say, SetPhase, SetTimer

from .model import FACTION_NAME, Settings, State, alive, iso, name, new_round, rnd, role, role_label, role_name, row, tz, when
from .resolution import RESULT_STEPS, run


def schedule_round(state: State, cfg: Settings, r: int, base: datetime, effects: list, first: bool = False) -> None:
    t = cfg["times"]
    state["round"] = r
    state["step"] = "round"
    state["rounds"].setdefault(str(r), new_round(r))
    posts = base + timedelta(minutes=t["first_posts_minutes"] if first else t["post_due_minutes"])
    publish = posts + timedelta(minutes=t["publish_delay_minutes"])
    close = next_at(publish + timedelta(minutes=t["min_vote_minutes"]), t["vote_close"], tz(state))
    due = rnd(state, r)["due"]
    due.update(posts=iso(posts), publish=iso(publish), close=iso(close))
    table_row = row(state, r)
    quotas = "、".join(f"{g}{n}" for g, n in table_row["posts"].items() if n > 0) or "无"
    extra = "（加时决胜轮）" if r > len(state["table"]) else ""
    cutoff = close - timedelta(minutes=t["proxy_cutoff_minutes"])
    text = (
        f"【第{r}轮】{extra}每人 {table_row['votes']} 票，票出 {table_row['out']} 人；贴杀：{quotas}。\n"
        f"交贴截止 {when(state, iso(posts))}，杀帖公布 {when(state, iso(publish))}，"
        f"投票截止 {when(state, iso(close))}（托票截止 {when(state, iso(cutoff))}）。投票：/投票 <玩家> [<玩家>]"
    )
    if first:
        text = (
            f"游戏开始：{len(state['players'])} 人，身份已私聊发出（/我的身份 可再看）。"
            f"请在第1轮投票截止前 /报道（{cfg['limits']['report_min']} 字以上，§十一）。\n" + text
        )
    effects.append(Say("group", text))
    from .rules_souls import convert_roles

    convert_roles(state, cfg, r, effects)
    effects.append(SetPhase("round", f"第{r}轮投票", close))
    effects.append(SetTimer(f"posts_due:{r}", posts))
    effects.append(SetTimer(f"publish:{r}", publish))


def on_deadline(state: State, key: str, ctx: Ctx) -> Outcome:
    cfg = ctx.settings
    from . import rules_posts

    effects: list = []
    if state["step"] == "over":
        return Outcome(state, effects)
    if key == "phase":
        if state["step"] == "overtime":
            _finish_overtime(state, ctx, effects)
        elif state["step"] == "deciding":
            finish_decisions(state, ctx, effects)
        else:
            _close(state, ctx, effects)
        return Outcome(state, effects)
    kind, _, num = key.partition(":")
    if kind == "letter" and num.isdigit():
        from .rules_decide import letter_due_fired

        letter_due_fired(state, int(num), ctx, effects)
        return Outcome(state, effects)
    if not num.isdigit() or num not in state["rounds"]:
        return Outcome(state, effects)
    r = int(num)
    if kind == "posts_due" and r == state["round"]:
        rules_posts.posts_due(state, r, ctx, effects)
        check_end(state, cfg, effects)
    elif kind == "publish" and r == state["round"]:
        rules_posts.publish(state, r, ctx, effects)
        check_end(state, cfg, effects)
    elif kind == "white":
        rules_posts.white_due(state, r, ctx, effects)
        check_end(state, cfg, effects)
    return Outcome(state, effects)


def _close(state: State, ctx: Ctx, effects: list) -> None:
    """Vote close (§十三): late steps of the round run first if a host
    advanced the deadline; then the tally, or an overtime vote."""
    cfg = ctx.settings
    from . import rules_posts, rules_votes

    r = state["round"]
    cur = rnd(state)
    if not cur["posts_done"]:
        rules_posts.posts_due(state, r, ctx, effects)
        effects.append(CancelTimer(f"posts_due:{r}"))
    if not cur["published"]:
        rules_posts.publish(state, r, ctx, effects)
        effects.append(CancelTimer(f"publish:{r}"))
    if check_end(state, cfg, effects):
        return
    cur["closed"] = True
    # §十三.2: a living player who did not vote is out (marked now, applied with the result)
    for s in rules_votes.non_voters(state, r):
        cur["marks"].append({"seat": s, "cause": "novote", "reason": f"第{r}轮逾期未投票，判为自杀（§十三.2）"})
    if r == 1:
        from .rules_reports import failing_reports

        for s in failing_reports(state, cfg):
            cur["marks"].append({"seat": s, "cause": "report", "reason": "报道不合格或未报道，第1轮结束判出局（§十一.2）"})
    # §五白1/黑1: a 隐剑/孤杀 that posted the 魔镜 goes out with the result of its last round
    for c in state.get("countdowns", []):
        if c["until"] == r and state["players"][str(c["seat"])]["alive"]:
            cur["marks"].append({"seat": c["seat"], "cause": "countdown",
                                 "reason": f"贴中魔镜后只能活两轮，第{r}轮结束自动出局（§五白1、黑1）"})
    for d in state.get("doomed", []):  # §五白6: a revived player who wrote no thank-you letter
        if d["round"] == r and state["players"][str(d["seat"])]["alive"]:
            cur["marks"].append({"seat": d["seat"], "cause": "thanks", "reason": d["reason"]})
    d = rules_votes.decide(state, r)
    cur["cands"] = [{k: c[k] for k in ("seat", "full", "half", "last")} for c in d["cands"]]
    if "tied" in d:
        rules_votes.start_overtime(state, d, ctx, effects)
        return
    _begin_result(state, d["out"], ctx, effects)


def _finish_overtime(state: State, ctx: Ctx, effects: list) -> None:
    from . import rules_votes

    out = rules_votes.resolve_overtime(state, ctx)
    state["step"] = "round"
    _begin_result(state, out, ctx, effects)


def _begin_result(state: State, voted_out: list[int], ctx: Ctx, effects: list) -> None:
    """§五: a decision window first when someone chooses from their voter lines."""
    from .rules_decide import begin

    if not begin(state, state["round"], voted_out, ctx, effects):
        finish_decisions(state, ctx, effects)


def finish_decisions(state: State, ctx: Ctx, effects: list) -> None:
    from .rules_decide import settle

    r = state["round"]
    dec = rnd(state)["decide"]
    takes, notes = settle(state, r, ctx)
    state["step"] = "round"
    rv = dec.get("revive")
    revived = [rv["picked"]] if rv and rv["picked"] is not None else []
    _result(state, dec["voted_out"], ctx, effects, takes=takes, revived=revived, notes=notes)


def _result(state: State, voted_out: list[int], ctx: Ctx, effects: list, takes: list | None = None,
            revived: list | None = None, notes: list | None = None) -> None:
    """The result post: marks are applied once each (nobody dies twice)."""
    cfg = ctx.settings
    from .rules_decide import after_result

    r = state["round"]
    cur = rnd(state)
    votes = {c["seat"]: c for c in cur.get("cands", [])}
    vote_lines: list[str] = []
    other: list[str] = []
    data = {"voted_out": voted_out, "marks": cur["marks"], "takes": takes or [], "revived": revived or []}
    res, applied = run(state, r, RESULT_STEPS, data, effects)
    taken = [m for m in applied if m.cause == "take"]
    for m in applied:
        if m.cause == "take":
            continue
        if m.cause == "vote":
            c = votes.get(m.seat)
            vote_lines.append(f"{name(state, m.seat)}（{c['full']} 票）" if c else name(state, m.seat))
        else:
            other.append(f"{name(state, m.seat)}（{m.reason}）")
    cur["marks"] = []
    posted = [name(state, o["seat"]) for o in cur["outs"] if o["cause"] == "post"]
    survivors = len(alive(state))
    cur["result"] = {"voted_out": voted_out, "survivors": survivors, "at": iso(ctx.now)}
    lines = [f"【第{r}轮结果】", f"高票出局：{'、'.join(vote_lines) or '无'}", f"贴杀：{'、'.join(posted) or '无'}"]
    if other:
        lines.append("其他出局：" + "；".join(other))
    for rv in cur.get("reveals", []):
        lines.append(f"照出真身：{name(state, rv['seat'])} 是{role_name(state, cfg, rv['seat'])}（{rv['why']}）。")
    lines += notes or []  # who took whom along (§五白3、黑3、黑5)
    if taken and not notes:
        lines.append("陪同出局：" + "、".join(name(state, m.seat) for m in taken))
    lines += after_result(state, r, ctx, effects)
    lines += res.notes
    over = _sides_left(state, cfg) < 2
    lines.append(f"余 {survivors} 人。" + ("游戏结束，全部身份随后公布。" if over else "出局者身份下轮公布。"))
    effects.append(Say("group", "\n".join(lines)))
    steps = [f"{i}. {name(state, m.seat)}（{role_name(state, cfg, m.seat)}）：{m.reason}" for i, m in enumerate(applied, 1)]
    if revived:
        steps.append(f"{len(steps) + 1}. {'、'.join(name(state, s) for s in revived)} 被复活（§五白6）")
    effects.append(Say("hosts", f"第{r}轮结果结算：\n" + ("\n".join(steps) or "无人出局")))
    if not check_end(state, cfg, effects):
        schedule_round(state, cfg, r + 1, ctx.now, effects)


def check_end(state: State, cfg: Settings, effects: list) -> bool:
    """§十二.8/§十二.10: the game ends when one side has no living player
    with a full vote (post-killed players only keep a half vote)."""
    if state["step"] == "over":
        return True
    if _sides_left(state, cfg) == 2:
        from .rules_souls import tell_unions

        tell_unions(state, cfg, effects)
        return False
    sides = {role(cfg, state["players"][str(s)]["role"])["faction"] for s in alive(state)}
    winner = "white" if sides == {"white"} else "black" if sides == {"black"} else ""
    finish(state, cfg, winner, "一方已无全票玩家", effects)
    return True


def _sides_left(state: State, cfg: Settings) -> int:
    return len({role(cfg, state["players"][str(s)]["role"])["faction"] for s in alive(state)})


def finish(state: State, cfg: Settings, winner: str, why: str, effects: list) -> None:
    state["step"] = "over"
    state["winner"] = winner
    state["ended_by"] = why
    for key in ("posts_due", "publish"):
        effects.append(CancelTimer(f"{key}:{state['round']}"))
    effects.append(Finish(reveal(state, cfg)))


def reveal(state: State, cfg: Settings) -> str:
    w = state["winner"]
    head = f"【游戏结束】{FACTION_NAME[w] + '胜' if w else '未分胜负'}（{state['ended_by']}）。"
    lines = [head, "", "【身份】"]
    for s in sorted(int(x) for x in state["players"]):
        p = state["players"][str(s)]
        rl = role(cfg, p["role"])
        code = f"｜{p['code']}" if p["code"] else ""
        fate = "存活" if p["alive"] else f"第{p['out']['round']}轮出局：{p['out']['reason']}"
        lines.append(f"{name(state, s)}：{role_label(state, cfg, s)}（{FACTION_NAME[rl['faction']]}）{code}｜{fate}")
    lines += ["", "【杀帖】"]
    from .rules_posts import STATUS_NAME

    for p in state["posts"]:
        chars = p["figures"]["chars"] if p["figures"] else 0
        lines.append(f"#{p['id']} 第{p['round']}轮 {p['code']}（{name(state, p['author'])}）→ {name(state, p['target'])}｜"
                     f"{'白条' if p['kind'] == 'white' else '杀帖'}｜{STATUS_NAME[p['status']]}｜{chars} 字")
    if not state["posts"]:
        lines.append("无")
    lines += ["", "【票型】"]
    for key in sorted(state["rounds"], key=int):
        rd = state["rounds"][key]
        # one ballot per line: a long round splits cleanly into several QQ messages
        lines.append(f"第{key}轮（{len(rd['ballots'])} 票）：" + ("" if rd["ballots"] else "无"))
        lines += [
            f"#{b['n']} {name(state, b['voter'])}{'（托）' if b['proxy'] else ''}→{'、'.join(name(state, t) for t in b['targets'])}"
            for b in rd["ballots"]
        ]
        if rd["overtime"]:
            ot = rd["overtime"]["ballots"]
            lines.append(f"第{key}轮加时（{len(ot)} 票）：" + ("" if ot else "无"))
            lines += [f"#{b['n']} {name(state, b['voter'])}→{name(state, b['target'])}" for b in ot]
    return "\n".join(lines)
