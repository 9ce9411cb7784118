"""The round's timeline and resolution: posts due → publication → vote close
→ (overtime) → result → next round, and the end of the game."""

from __future__ import annotations

from datetime import datetime, timedelta

from plugins.gamekit.clock import next_at
from plugins.gamekit.contract import CancelTimer, Ctx, Finish, Outcome, Say, SetPhase, SetTimer

from . import texts as T
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
    quotas = T.LIST_SEP.join(f"{g}{n}" for g, n in table_row["posts"].items() if n > 0) or T.NONE
    extra = T.OVERTIME_ROUND_MARK if r > len(state["table"]) else ""
    cutoff = close - timedelta(minutes=t["proxy_cutoff_minutes"])
    text = (
        T.ROUND_OPEN.format(r=r, extra=extra, votes=table_row["votes"], out=table_row["out"], quotas=quotas, posts=when(state, iso(posts)), publish=when(state, iso(publish)), close=when(state, iso(close)), cutoff=when(state, iso(cutoff)))
    )
    if first:
        text = (
            T.GAME_START.format(n_players=len(state["players"]), report_min=cfg["limits"]["report_min"]) + text
        )
    effects.append(Say("group", text))
    from .rules_souls import convert_roles

    convert_roles(state, cfg, r, effects)
    effects.append(SetPhase("round", T.ROUND_PHASE.format(r=r), close))
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
        cur["marks"].append({"seat": s, "cause": "novote", "reason": T.OUT_NO_VOTE.format(r=r)})
    if r == 1:
        from .rules_reports import failing_reports

        for s in failing_reports(state, cfg):
            cur["marks"].append({"seat": s, "cause": "report", "reason": T.OUT_REPORT})
    # §五白1/黑1: a 隐剑/孤杀 that posted the 魔镜 goes out with the result of its last round
    for c in state.get("countdowns", []):
        if c["until"] == r and state["players"][str(c["seat"])]["alive"]:
            cur["marks"].append({"seat": c["seat"], "cause": "countdown",
                                 "reason": T.OUT_COUNTDOWN.format(r=r)})
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
            vote_lines.append(T.VOTED_OUT_LINE.format(seat=name(state, m.seat), full=c["full"]) if c else name(state, m.seat))
        else:
            other.append(T.OTHER_OUT_LINE.format(seat=name(state, m.seat), reason=m.reason))
    cur["marks"] = []
    posted = [name(state, o["seat"]) for o in cur["outs"] if o["cause"] == "post"]
    survivors = len(alive(state))
    cur["result"] = {"voted_out": voted_out, "survivors": survivors, "at": iso(ctx.now)}
    lines = [T.RESULT_HEAD.format(r=r), T.RESULT_VOTED_OUT.format(vote_lines=T.LIST_SEP.join(vote_lines) or T.NONE), T.RESULT_POSTED.format(posted=T.LIST_SEP.join(posted) or T.NONE)]
    if other:
        lines.append(T.RESULT_OTHERS + T.SEMI_SEP.join(other))
    for rv in cur.get("reveals", []):
        lines.append(T.RESULT_REVEAL.format(seat=name(state, rv["seat"]), seat_name=role_name(state, cfg, rv["seat"]), why=rv["why"]))
    lines += notes or []  # who took whom along (§五白3、黑3、黑5)
    if taken and not notes:
        lines.append(T.RESULT_TAKEN + T.LIST_SEP.join(name(state, m.seat) for m in taken))
    lines += after_result(state, r, ctx, effects)
    lines += res.notes
    over = _sides_left(state, cfg) < 2
    lines.append(T.RESULT_LEFT.format(survivors=survivors) + (T.RESULT_OVER if over else T.RESULT_ROLES_NEXT))
    effects.append(Say("group", "\n".join(lines)))
    steps = [T.RESULT_STEP.format(i=i, seat=name(state, m.seat), seat_name=role_name(state, cfg, m.seat), reason=m.reason) for i, m in enumerate(applied, 1)]
    if revived:
        steps.append(T.RESULT_STEP_REVIVED.format(n_steps=len(steps) + 1, items=T.LIST_SEP.join(name(state, s) for s in revived)))
    effects.append(Say("hosts", T.RESULT_STEPS_HEAD.format(r=r) + ("\n".join(steps) or T.NOBODY_OUT)))
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
    finish(state, cfg, winner, T.ONE_SIDE_GONE, effects)
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
    head = T.REVEAL_HEAD.format(result=FACTION_NAME[w] + T.WIN_SUFFIX if w else T.NO_WINNER, ended_by=state["ended_by"])
    lines = [head, "", T.REVEAL_ROLES]
    for s in sorted(int(x) for x in state["players"]):
        p = state["players"][str(s)]
        rl = role(cfg, p["role"])
        code = T.REVEAL_CODE.format(code=p["code"]) if p["code"] else ""
        fate = T.ALIVE if p["alive"] else T.REVEAL_OUT.format(round=p["out"]["round"], reason=p["out"]["reason"])
        lines.append(T.REVEAL_PLAYER.format(player=name(state, s), role=role_label(state, cfg, s), faction_name=FACTION_NAME[rl["faction"]], code=code, fate=fate))
    lines += ["", T.REVEAL_POSTS]
    from .rules_posts import STATUS_NAME

    for p in state["posts"]:
        chars = p["figures"]["chars"] if p["figures"] else 0
        lines.append(T.REVEAL_POST.format(id=p["id"], round=p["round"], code=p["code"], author=name(state, p["author"]), target=name(state, p["target"]), kind=T.WHITE_SLIP if p["kind"] == "white" else T.KILL_POST, status_name=STATUS_NAME[p["status"]], chars=chars))
    if not state["posts"]:
        lines.append(T.NONE)
    lines += ["", T.REVEAL_VOTES]
    for key in sorted(state["rounds"], key=int):
        rd = state["rounds"][key]
        # one ballot per line: a long round splits cleanly into several QQ messages
        lines.append(T.REVEAL_ROUND_VOTES.format(key=key, n_ballots=len(rd["ballots"])) + ("" if rd["ballots"] else T.NONE))
        lines += [
            T.REVEAL_BALLOT.format(n=b["n"], voter=name(state, b["voter"]), proxy=T.PROXY_SHORT if b["proxy"] else "", items=T.LIST_SEP.join(name(state, t) for t in b["targets"]))
            for b in rd["ballots"]
        ]
        if rd["overtime"]:
            ot = rd["overtime"]["ballots"]
            lines.append(T.REVEAL_OVERTIME_VOTES.format(key=key, n_ot=len(ot)) + ("" if ot else T.NONE))
            lines += [f"#{b['n']} {name(state, b['voter'])}→{name(state, b['target'])}" for b in ot]
    return "\n".join(lines)
