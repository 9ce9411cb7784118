"""Day: leader elections (day 1), guards' verdict and 起义 (day 2+), 看守长 <权威>."""

from __future__ import annotations

from collections import Counter

from plugins.gamekit.args import NoArgs
from plugins.gamekit.contract import Actor, Ctx, Effect, Rejected, Say

from . import common as c
from . import model as m
from . import rules_abilities as ra
from . import rules_end, rules_night
from . import texts as T
from .args import DecideArgs, SeatArgs
from .content import Settings
from .model import ABSTAIN, EXEC, FREE, Kind, Phase, Pick, State, Uprising


def opt_text(state: State, opt: str) -> str:
    if opt == ABSTAIN:
        return T.ABSTAIN_TEXT
    verb, seat = m.parse_option(opt)
    return T.OPTION.format(verb=T.OPT_LABEL[verb], name=m.name(state, seat))


def _need_day(state: State, first: bool) -> None:
    if state.phase is not Phase.DAY:
        raise Rejected(T.NOT_VOTING_DAY)
    if first and state.day != 1:
        raise Rejected(T.ELECTION_DAY_ONLY)
    if not first and state.day == 1:
        raise Rejected(T.DAY1_ELECTION_ONLY)


def elect(state: State, actor: Actor, args: SeatArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/投票 — day 1: guards elect the 看守长, prisoners the 囚犯领袖."""
    me = c.me(state, actor)
    _need_day(state, True)
    who = c.target(state, args.seat)
    kind = state.players[me].camp
    title = T.LEADER_OF[kind]
    if state.players[who].kind is not kind or not m.in_prison(state, who):
        raise Rejected(T.ELECT_WRONG.format(title=title, kind=T.KIND[kind]))
    state.elect[me] = who
    return [Say("reply", T.ELECT_VOTED.format(name=m.name(state, who), title=title))]


def _vote(state: State, actor: Actor, verb: str, seat: int | None) -> list[Effect]:
    """/处决 /释放 /弃票. Guards vote on a prisoner; during 起义 prisoners vote on a guard."""
    me = c.me(state, actor)
    _need_day(state, False)
    if state.players[me].kind is Kind.PRISONER:
        if state.uprising is None:
            raise Rejected(T.PRISONER_NO_VOTE)
        if verb == FREE:
            raise Rejected(T.UPRISING_EXEC_ONLY)
        book = state.uprising.votes
        want = Kind.GUARD
    else:
        book = state.votes
        want = Kind.PRISONER
    if verb == ABSTAIN:
        opt = ABSTAIN
    else:
        who = c.target(state, seat)
        if state.players[who].kind is not want or not m.in_prison(state, who):
            raise Rejected(T.VOTE_WRONG.format(kind=T.KIND[want]))
        opt = m.option(verb, who)
    book[me] = opt
    return [Say("reply", T.VOTED.format(choice=opt_text(state, opt)))]


def execute(state: State, actor: Actor, args: SeatArgs, ctx: Ctx[Settings]) -> list[Effect]:
    return _vote(state, actor, EXEC, args.seat)


def release(state: State, actor: Actor, args: SeatArgs, ctx: Ctx[Settings]) -> list[Effect]:
    return _vote(state, actor, FREE, args.seat)


def abstain(state: State, actor: Actor, args: NoArgs, ctx: Ctx[Settings]) -> list[Effect]:
    return _vote(state, actor, ABSTAIN, None)


def uprising(state: State, actor: Actor, args: NoArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """【囚犯领袖】<起义>[1]: on a discussion day, all living prisoners vote to execute a guard."""
    me = c.me(state, actor)
    if state.leader != me:
        raise Rejected(T.UPRISING_LEADER_ONLY)
    if state.uprising_used:
        raise Rejected(T.UPRISING_USED)
    if state.phase is not Phase.DAY or state.day < 2:
        raise Rejected(T.UPRISING_WHEN)
    state.uprising_used = True
    state.uprising = Uprising(by=me)
    c.log_use(state, ctx, me, T.UPRISING_ABILITY, "", None)
    return [Say("group", T.UPRISING_CALL.format(
        name=m.name(state, me), time=c.hhmm(ctx.phase.ends_at if ctx.phase else None, ctx)))]


def tally(votes: dict[int, str], authority: int | None, alive: bool,
          weights: dict[int, int] | None = None) -> tuple[str, list[str]]:
    """Top choice wins; a tie goes to the authority (【看守长】<权威>). ``weights``: voters whose
    vote counts more than once (投票加权; 【游戏流程】<5> leaves the counting to the director).

    Returns ("done", [option]) / ("done", []) for nothing, ("pick", top) when the authority
    voted in the minority (or not at all) and must pick one of the top, ("none", top) for a
    tie with no living authority.
    """
    if not votes:
        return "done", []
    counts: Counter[str] = Counter()
    for voter, opt in votes.items():
        counts[opt] += (weights or {}).get(voter, 1)
    best = max(counts.values())
    top = sorted(o for o, n in counts.items() if n == best)
    if len(top) == 1:
        return "done", top
    if authority is None or not alive:
        return "none", top
    mine = votes.get(authority)
    if mine in top:
        return "done", [mine]
    return "pick", top


def _tally_text(state: State, votes: dict[int, str]) -> str:
    if not votes:
        return T.NO_VOTES
    return T.SEMI.join(T.TALLY_ITEM.format(voter=m.name(state, s), choice=opt_text(state, o))
                       for s, o in sorted(votes.items()))


def _elections(state: State, ctx: Ctx[Settings], fx: list[Effect]) -> None:
    lines = []
    for kind, chief in ((Kind.GUARD, True), (Kind.PRISONER, False)):
        title = T.LEADER_OF[kind]
        voters = m.living(state, kind)
        votes = {s: state.elect[s] for s in voters if s in state.elect}
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
        if chief:
            state.chief = winner
        else:
            state.leader = winner
        tie = T.TIE_DRAWN if len(top) > 1 else ""
        detail = T.SEMI.join(T.TALLY_ITEM.format(voter=m.name(state, s), choice=m.name(state, v))
                             for s, v in sorted(votes.items())) or T.NO_VOTES
        lines.append(T.ELECTION_LINE.format(title=title, name=m.name(state, winner), tie=tie, detail=detail))
        for s in voters:
            if s not in votes:
                c.card(state, ctx.settings, fx, s, T.CARD_NO_ELECTION.format(title=title))
    state.elect = {}
    fx.append(Say("group", T.ELECTION_HEAD + "\n".join(lines)))
    for key, seat in (("chief", state.chief), ("leader", state.leader)):
        if seat is not None:
            fx.append(Say(seat, T.ELECTED_AS.format(what=T.ELECTED_WHAT[key])))


def _post_check(state: State, cfg: Settings, fx: list[Effect]) -> None:
    """（三）4: fewer than min_posts group messages on a discussion day. Skipped when no post
    at all was counted that day (the kernel did not deliver group text)."""
    need = cfg.min_posts
    day = state.day
    if not need or not any(state.players[s].posts.get(day, 0) for s in state.order):
        return
    for s in m.living(state):
        n = state.players[s].posts.get(day, 0)
        if n < need:
            c.card(state, cfg, fx, s, T.CARD_FEW_POSTS.format(day=day, n=n, need=need))


def _alive_votes(state: State, votes: dict[int, str]) -> dict[int, str]:
    """Votes of voters still in prison (a voter put out by the kernel no longer counts)."""
    return {s: o for s, o in votes.items() if m.in_prison(state, s)}


def day_over(state: State, ctx: Ctx[Settings]) -> list[Effect]:
    fx: list[Effect] = []
    cfg = ctx.settings
    if state.day == 1:
        ra.end_of_day(state)
        _elections(state, ctx, fx)
        _post_check(state, cfg, fx)
        c.compulsory_check(state, cfg, fx, "day")
        fx += rules_night.open_rooms(state, ctx)
        return fx
    results: dict[Kind, list[str]] = {}
    lines = [T.VERDICT_TALLY.format(day=state.day, tally=_tally_text(state, state.votes))]
    for s in m.living(state, Kind.GUARD):
        if s not in state.votes:
            c.card(state, cfg, fx, s, T.CARD_NO_VERDICT_VOTE.format(day=state.day),
                   T.CARD_NO_VERDICT_VOTE_PUBLIC.format(day=state.day))
    ballots = [(Kind.GUARD, _alive_votes(state, state.votes), state.chief)]
    if state.uprising is not None:
        lines.append(T.UPRISING_TALLY.format(tally=_tally_text(state, state.uprising.votes)))
        ballots.append((Kind.PRISONER, _alive_votes(state, state.uprising.votes), state.leader))
    state.picks = []
    weights = ra.weights(state, cfg)
    ra.end_of_day(state)
    counted = [s for _, votes, _ in ballots for s in sorted(votes) if s in weights]
    if counted:
        fx.append(Say("hosts", T.WEIGHTS_TO_HOSTS.format(day=state.day, items=T.SEP.join(
            T.WEIGHT_ITEM.format(name=m.name(state, s), n=weights[s]) for s in counted))))
    for camp, votes, auth in ballots:
        verdict, opts = tally(votes, auth, auth is not None and m.in_prison(state, auth), weights)
        if verdict == "done":
            results[camp] = opts
        elif verdict == "none":
            if cfg.tie_without_chief == "random":
                results[camp] = [ctx.rng.choice(opts)]
            else:
                results[camp] = []
                lines.append(T.TIE_NO_LEADER)
        else:
            assert auth is not None
            state.picks.append(Pick(by=auth, camp=camp, options=opts))
    state.pending = results
    _post_check(state, cfg, fx)
    c.compulsory_check(state, cfg, fx, "day")
    fx.append(Say("group", "\n".join(lines)))
    if state.picks:
        ends = c.enter(state, Phase.VERDICT, ctx, fx)
        for pick in state.picks:
            title = T.LEADER_OF[pick.camp]
            listed = T.SEP.join(opt_text(state, o) for o in pick.options)
            fx.append(Say("group", T.PICK_WAIT.format(title=title, time=c.hhmm(ends, ctx))))
            fx.append(Say(pick.by, T.PICK_ASK.format(time=c.hhmm(ends, ctx), options=listed)))
        return fx
    return fx + _apply_results(state, ctx)


def decide(state: State, actor: Actor, args: DecideArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/裁定: the 看守长 (or the 囚犯领袖 for 起义) picks one of the tied top options."""
    me = c.me(state, actor)
    mine = [p for p in state.picks if p.by == me]
    if state.phase is not Phase.VERDICT or not mine:
        raise Rejected(T.NOTHING_TO_PICK)
    verbs = {**T.DECIDE_WORDS, T.ABSTAIN_TEXT: ABSTAIN}
    if args.choice not in verbs:
        raise Rejected(T.DECIDE_USAGE)
    verb = verbs[args.choice]
    opt = ABSTAIN if verb == ABSTAIN else m.option(verb, c.target(state, args.seat))
    entry = mine[0]
    if opt not in entry.options:
        opts = T.SEP.join(opt_text(state, o) for o in entry.options)
        raise Rejected(T.PICK_ONLY_TOP.format(options=opts))
    state.picks.remove(entry)
    state.pending[entry.camp] = [opt]
    c.log_use(state, ctx, me, T.LOG_AUTHORITY, opt_text(state, opt), T.LOG_DONE)
    fx: list[Effect] = [Say("reply", T.DECIDED.format(choice=opt_text(state, opt)))]
    if not state.picks:
        fx += _apply_results(state, ctx)
    return fx


def verdict_over(state: State, ctx: Ctx[Settings]) -> list[Effect]:
    fx: list[Effect] = []
    for entry in list(state.picks):
        opt = ctx.rng.choice(entry.options)
        state.pending[entry.camp] = [opt]
        title = T.LEADER_OF[entry.camp]
        if m.in_prison(state, entry.by):
            c.card(state, ctx.settings, fx, entry.by, T.CARD_NO_PICK.format(title=title))
        fx.append(Say("group", T.PICK_DRAWN.format(title=title, choice=opt_text(state, opt))))
    state.picks = []
    return fx + _apply_results(state, ctx)


def _apply_results(state: State, ctx: Ctx[Settings]) -> list[Effect]:
    fx: list[Effect] = []
    lines = []
    for camp in (Kind.GUARD, Kind.PRISONER):
        for opt in state.pending.get(camp, []):
            if opt == ABSTAIN:
                lines.append(T.TOP_ABSTAIN if camp is Kind.GUARD else T.UPRISING_TOP_ABSTAIN)
                continue
            verb, who = m.parse_option(opt)
            if not m.in_prison(state, who):
                continue
            if verb == FREE:
                c.release(state, who, fx)
                lines.append(T.RELEASED.format(name=m.name(state, who)))
            else:
                dead: list[int] = []
                uprising = camp is Kind.PRISONER
                c.kill(state, ctx.settings, who, T.REASON_UPRISING if uprising else T.REASON_EXECUTED, fx, dead)
                lines.append(T.EXECUTED.format(name=m.name(state, who), by=T.BY_UPRISING if uprising else ""))
                for d in dead[1:]:
                    lines.append(T.DIED_TOO.format(name=m.name(state, d)))
    if not lines:
        lines.append(T.NOBODY_TODAY)
    state.pending = {}
    state.votes = {}
    state.uprising = None
    fx.append(Say("group", "\n".join(lines)))
    end = rules_end.check(state, ctx)
    if end is not None:
        return fx + end
    return fx + rules_night.open_rooms(state, ctx)
