"""Day: leader elections (day 1), guards' verdict and 起义 (day 2+), 看守长 <权威>."""

from __future__ import annotations

from collections import Counter
from typing import Any

from plugins.gamekit.contract import Ctx, Rejected, Say

from . import common as c
from . import model as m
from . import rules_end, rules_night
from . import texts as T


def opt_text(state: m.JSON, opt: str) -> str:
    if opt == m.ABSTAIN:
        return T.ABSTAIN_TEXT
    verb, seat = opt.split(":")
    return T.OPTION.format(verb=T.OPT_LABEL[verb], name=m.name(state, int(seat)))


def _need_day(state: m.JSON, first: bool) -> None:
    if state["phase"] != "day":
        raise Rejected(T.NOT_VOTING_DAY)
    if first and state["day"] != 1:
        raise Rejected(T.ELECTION_DAY_ONLY)
    if not first and state["day"] == 1:
        raise Rejected(T.DAY1_ELECTION_ONLY)


def elect(state: m.JSON, actor: Any, seat_arg: Any) -> list[Any]:
    me = c.me(state, actor)
    _need_day(state, True)
    who = c.target(state, seat_arg)
    kind = m.player(state, me)["kind"]
    title = T.LEADER_OF[kind]
    if m.player(state, who)["kind"] != kind or not m.in_prison(state, who):
        raise Rejected(T.ELECT_WRONG.format(title=title, kind=T.KIND[kind]))
    state["elect"][str(me)] = who
    return [Say("reply", T.ELECT_VOTED.format(name=m.name(state, who), title=title))]


def vote(state: m.JSON, actor: Any, verb: str, seat_arg: Any | None) -> list[Any]:
    """/处决 /释放 /弃票. Guards vote on a prisoner; during 起义 prisoners vote on a guard."""
    me = c.me(state, actor)
    _need_day(state, False)
    kind = m.player(state, me)["kind"]
    if kind == "prisoner":
        if state["uprising"] is None:
            raise Rejected(T.PRISONER_NO_VOTE)
        if verb == "free":
            raise Rejected(T.UPRISING_EXEC_ONLY)
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
            raise Rejected(T.VOTE_WRONG.format(kind=T.KIND[want]))
        opt = f"{verb}:{who}"
    book[str(me)] = opt
    return [Say("reply", T.VOTED.format(choice=opt_text(state, opt)))]


def uprising(state: m.JSON, actor: Any, ctx: Ctx) -> list[Any]:
    """【囚犯领袖】<起义>[1]: on a discussion day, all living prisoners vote to execute a guard."""
    me = c.me(state, actor)
    if state["leader"] != me:
        raise Rejected(T.UPRISING_LEADER_ONLY)
    if state["uprising_used"]:
        raise Rejected(T.UPRISING_USED)
    if state["phase"] != "day" or state["day"] < 2:
        raise Rejected(T.UPRISING_WHEN)
    state["uprising_used"] = True
    state["uprising"] = {"by": me, "votes": {}}
    c.log_use(state, ctx, me, T.UPRISING_ABILITY, "", None)
    return [Say("group", T.UPRISING_CALL.format(
        name=m.name(state, me), time=c.hhmm(ctx.phase.ends_at if ctx.phase else None, ctx)))]


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
        return T.NO_VOTES
    return T.SEMI.join(T.TALLY_ITEM.format(voter=m.name(state, int(s)), choice=opt_text(state, o))
                       for s, o in sorted(votes.items(), key=lambda kv: int(kv[0])))


def _elections(state: m.JSON, ctx: Ctx, fx: list[Any]) -> None:
    lines = []
    for kind, key in (("guard", "chief"), ("prisoner", "leader")):
        title = T.TITLE[key]
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
        tie = T.TIE_DRAWN if len(top) > 1 else ""
        detail = T.SEMI.join(T.TALLY_ITEM.format(voter=m.name(state, int(s)), choice=m.name(state, v))
                             for s, v in sorted(votes.items(), key=lambda kv: int(kv[0]))) or T.NO_VOTES
        lines.append(T.ELECTION_LINE.format(title=title, name=m.name(state, winner), tie=tie, detail=detail))
        for s in voters:
            if str(s) not in votes:
                c.card(state, ctx.settings, fx, s, T.CARD_NO_ELECTION.format(title=title))
    state["elect"] = {}
    fx.append(Say("group", T.ELECTION_HEAD + "\n".join(lines)))
    for key in ("chief", "leader"):
        seat = state[key]
        if seat is not None:
            fx.append(Say(seat, T.ELECTED_AS.format(what=T.ELECTED_WHAT[key])))


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
            c.card(state, cfg, fx, s, T.CARD_FEW_POSTS.format(day=state["day"], n=n, need=need))


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
    lines = [T.VERDICT_TALLY.format(day=state["day"], tally=_tally_text(state, state["votes"]))]
    for s in m.living(state, "guard"):
        if str(s) not in state["votes"]:
            c.card(state, cfg, fx, s, T.CARD_NO_VERDICT_VOTE.format(day=state["day"]),
                   T.CARD_NO_VERDICT_VOTE_PUBLIC.format(day=state["day"]))
    ballots = [("guard", _alive_votes(state, state["votes"]), state["chief"])]
    if state["uprising"] is not None:
        lines.append(T.UPRISING_TALLY.format(tally=_tally_text(state, state["uprising"]["votes"])))
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
                lines.append(T.TIE_NO_LEADER)
        else:
            state["picks"].append({"by": auth, "camp": camp, "options": opts})
    state["pending"] = results
    _post_check(state, cfg, fx)
    c.compulsory_check(state, cfg, fx, "day")
    fx.append(Say("group", "\n".join(lines)))
    if state["picks"]:
        ends = c.enter(state, "verdict", ctx, fx)
        for pick in state["picks"]:
            title = T.LEADER_OF[pick["camp"]]
            listed = T.SEP.join(opt_text(state, o) for o in pick["options"])
            fx.append(Say("group", T.PICK_WAIT.format(title=title, time=c.hhmm(ends, ctx))))
            fx.append(Say(pick["by"], T.PICK_ASK.format(time=c.hhmm(ends, ctx), options=listed)))
        return fx
    return fx + _apply_results(state, ctx)


def pick(state: m.JSON, actor: Any, choice: str, seat_arg: Any | None, ctx: Ctx) -> list[Any]:
    """/裁定: the 看守长 (or the 囚犯领袖 for 起义) picks one of the tied top options."""
    me = c.me(state, actor)
    mine = [p for p in state["picks"] if p["by"] == me]
    if state["phase"] != "verdict" or not mine:
        raise Rejected(T.NOTHING_TO_PICK)
    verbs = {**T.DECIDE_WORDS, T.ABSTAIN_TEXT: m.ABSTAIN}
    if choice not in verbs:
        raise Rejected(T.DECIDE_USAGE)
    opt = m.ABSTAIN if verbs[choice] == m.ABSTAIN else f"{verbs[choice]}:{c.target(state, seat_arg)}"
    entry = mine[0]
    if opt not in entry["options"]:
        opts = T.SEP.join(opt_text(state, o) for o in entry["options"])
        raise Rejected(T.PICK_ONLY_TOP.format(options=opts))
    state["picks"].remove(entry)
    state["pending"][entry["camp"]] = [opt]
    c.log_use(state, ctx, me, T.LOG_AUTHORITY, opt_text(state, opt), T.LOG_DONE)
    fx: list[Any] = [Say("reply", T.DECIDED.format(choice=opt_text(state, opt)))]
    if not state["picks"]:
        fx += _apply_results(state, ctx)
    return fx


def verdict_over(state: m.JSON, ctx: Ctx) -> list[Any]:
    fx: list[Any] = []
    for entry in list(state["picks"]):
        opt = ctx.rng.choice(entry["options"])
        state["pending"][entry["camp"]] = [opt]
        title = T.LEADER_OF[entry["camp"]]
        if m.in_prison(state, entry["by"]):
            c.card(state, ctx.settings, fx, entry["by"], T.CARD_NO_PICK.format(title=title))
        fx.append(Say("group", T.PICK_DRAWN.format(title=title, choice=opt_text(state, opt))))
    state["picks"] = []
    return fx + _apply_results(state, ctx)


def _apply_results(state: m.JSON, ctx: Ctx) -> list[Any]:
    fx: list[Any] = []
    lines = []
    for camp in ("guard", "prisoner"):
        for opt in state["pending"].get(camp, []):
            if opt == m.ABSTAIN:
                lines.append(T.TOP_ABSTAIN if camp == "guard" else T.UPRISING_TOP_ABSTAIN)
                continue
            verb, seat = opt.split(":")
            who = int(seat)
            if not m.in_prison(state, who):
                continue
            if verb == "free":
                c.release(state, who, fx)
                lines.append(T.RELEASED.format(name=m.name(state, who)))
            else:
                dead: list[int] = []
                c.kill(state, ctx.settings, who, T.REASON_UPRISING if camp == "prisoner" else T.REASON_EXECUTED, fx, dead)
                lines.append(T.EXECUTED.format(name=m.name(state, who), by=T.BY_UPRISING if camp == "prisoner" else ""))
                for d in dead[1:]:
                    lines.append(T.DIED_TOO.format(name=m.name(state, d)))
    if not lines:
        lines.append(T.NOBODY_TODAY)
    state["pending"] = {}
    state["votes"] = {}
    state["uprising"] = None
    fx.append(Say("group", "\n".join(lines)))
    end = rules_end.check(state, ctx)
    if end is not None:
        return fx + end
    return fx + rules_night.open_rooms(state, ctx)
