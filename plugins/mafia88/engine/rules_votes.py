"""The vote machine (§十三): ballots, proxies, tally with voter lines, the
cut line (后到先出, §十三.8) and the overtime vote."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import Enum

import plugins.mafia88.engine.texts as T
from plugins.gamekit.args import NoArgs
from plugins.gamekit.contract import Actor, Ctx, Effect, Rejected, Say, SetPhase

from .args import Targets
from .content import Settings
from .model import alive, dt, hhmm, iso, name, rnd, row
from .state import POST_CAUSES, Ballot, Overtime, OvertimeBallot, State, Step


class Weight(Enum):
    FULL = "full"
    HALF = "half"


HALF = Weight.HALF
FULL = Weight.FULL


@dataclass(slots=True)
class Line:
    """One ballot on a candidate's voter line."""

    voter: int
    seq: int
    n: int
    weight: Weight
    proxy: bool


@dataclass(slots=True)
class Tally:
    """A candidate: full and half votes, the arrival of its last full vote, its voter lines."""

    seat: int
    full: int = 0
    half: int = 0
    last: int = 0
    lines: list[Line] = field(default_factory=list)


@dataclass(frozen=True)
class Decided:
    """The vote's outcome: who goes out, or the tie at the cut line (§十三.8)."""

    cands: list[Tally]
    out: list[int] = field(default_factory=list)
    tied: list[int] = field(default_factory=list)  # non-empty: an overtime vote decides
    above: list[int] = field(default_factory=list)
    slots: int = 0


def close_time(state: State, ctx: Ctx[Settings]) -> datetime | None:
    if ctx.phase is not None and ctx.phase.key == "phase":
        return ctx.phase.ends_at
    due = rnd(state).due.close
    return dt(due) if due else None


def check_targets(state: State, targets: list[int]) -> list[int]:
    out: list[int] = []
    for t in targets:
        p = state.players.get(t)
        if p is None:
            raise Rejected(T.VOTE_NO_SUCH_SEAT.format(seat=t))
        if not p.alive:
            raise Rejected(T.VOTE_TARGET_OUT.format(target=name(state, t)))
        if t not in out:
            out.append(t)  # §十三.2: two votes on the same player count as one
    return out


def voter_weight(state: State, seat: int, r: int) -> Weight | None:
    """FULL for a living player, HALF for one killed by a post this round
    (§十三.3), None for anyone else who is out."""
    p = state.players[seat]
    if p.alive:
        return HALF if r in p.half else FULL  # §五白6, §七.1: a living player may hold a half vote
    out = p.out
    if out and out.cause in POST_CAUSES and out.round == r:
        return HALF
    return None


def ballot_of(state: State, seat: int, r: int | None = None) -> Ballot | None:
    for b in rnd(state, r).ballots:
        if b.voter == seat:
            return b
    return None


def voter_checks(state: State, actor: Actor) -> int:
    if state.step == Step.OVER:
        raise Rejected(T.VOTE_GAME_OVER)
    seat = actor.seat
    assert seat is not None  # who="player"
    return seat


def vote(state: State, actor: Actor, args: Targets, ctx: Ctx[Settings]) -> list[Effect]:
    """/投票 (§十三); in an overtime vote, one vote for a tied player (§十三.8)."""
    seat = voter_checks(state, actor)
    targets = args.targets
    if state.step == Step.OVERTIME:
        return overtime_vote(state, seat, targets, ctx)
    if state.step == Step.DECIDING:
        raise Rejected(T.VOTE_ROUND_CLOSED.format(round=state.round))
    r = state.round
    cur = rnd(state)
    close = close_time(state, ctx)
    if close is not None and ctx.now >= close:
        raise Rejected(T.VOTE_CLOSED.format(close=hhmm(state, iso(close))))
    weight = voter_weight(state, seat, r)
    if weight is None:
        raise Rejected(T.VOTE_VOTER_OUT)
    mine = ballot_of(state, seat)
    if mine is not None:
        if mine.proxy:
            raise Rejected(T.VOTE_PROXIED)
        raise Rejected(T.VOTE_ALREADY.format(n=mine.n))
    k = row(state, r).votes
    chosen = check_targets(state, targets)
    if not chosen:
        raise Rejected(T.VOTE_USAGE)
    if len(chosen) > k:
        raise Rejected(T.VOTE_TOO_MANY.format(max_votes=k))
    b = Ballot(seq=ctx.seq, n=cur.next_n, at=iso(ctx.now), voter=seat, targets=chosen, proxy=False)
    cur.next_n += 1
    cur.ballots.append(b)
    half = ""
    if weight == HALF:
        why = T.HALF_VOTE_WEAK if state.players[seat].alive else T.HALF_VOTE_POSTED
        half = T.HALF_VOTE_NOTE.format(why=why)
    # the round is named: a vote sent just after a close lands in the next round, and says so
    return [Say("reply", T.VOTED.format(items=T.LIST_SEP.join(name(state, t) for t in chosen), r=r, n=b.n, seq=ctx.seq, half=half))]


def proxy(state: State, actor: Actor, args: Targets, ctx: Ctx[Settings]) -> list[Effect]:
    """§十三.5: a proxy to the hosts until 20 minutes before the close; it
    replaces the player's own vote and can be changed until the cut-off."""
    cfg = ctx.settings
    seat = voter_checks(state, actor)
    targets = args.targets
    if state.step == Step.OVERTIME:
        raise Rejected(T.PROXY_OVERTIME)
    if state.step == Step.DECIDING:
        raise Rejected(T.PROXY_ROUND_CLOSED.format(round=state.round))
    r = state.round
    cur = rnd(state)
    close = close_time(state, ctx)
    mine = ballot_of(state, seat)
    if mine is not None and not mine.proxy:
        raise Rejected(T.PROXY_ALREADY_VOTED.format(n=mine.n))
    if close is not None:
        cutoff = close - timedelta(minutes=cfg.times.proxy_cutoff_minutes)
        if ctx.now >= cutoff:
            if mine is not None:
                kept = T.LIST_SEP.join(name(state, t) for t in mine.targets)
                raise Rejected(T.PROXY_CLOSED_KEPT.format(cutoff=hhmm(state, iso(cutoff)), kept=kept))
            raise Rejected(T.PROXY_CLOSED.format(cutoff=hhmm(state, iso(cutoff))))
    if voter_weight(state, seat, r) is None:
        raise Rejected(T.PROXY_VOTER_OUT)
    k = row(state, r).votes
    chosen = check_targets(state, targets)
    if not chosen:
        raise Rejected(T.PROXY_USAGE)
    if len(chosen) > k:
        raise Rejected(T.PROXY_TOO_MANY.format(max_votes=k))
    changed = mine is not None
    if changed:
        cur.ballots = [b for b in cur.ballots if b.voter != seat]
    b = Ballot(seq=ctx.seq, n=cur.next_n, at=iso(ctx.now), voter=seat, targets=chosen, proxy=True)
    cur.next_n += 1
    cur.ballots.append(b)
    verb = T.PROXY_CHANGED if changed else T.PROXY_SET
    cutoff_txt = hhmm(state, iso(close - timedelta(minutes=cfg.times.proxy_cutoff_minutes))) if close else T.PROXY_CUTOFF
    return [
        Say("reply", T.PROXY_DONE.format(verb=verb, items=T.LIST_SEP.join(name(state, t) for t in chosen), r=r, n=b.n, seq=ctx.seq, cutoff_txt=cutoff_txt)),
        Say("hosts", T.PROXY_HOSTS.format(seat=name(state, seat), items=T.LIST_SEP.join(name(state, t) for t in chosen), n=b.n, seq=ctx.seq)),
    ]


def tally(state: State, r: int) -> list[Tally]:
    """Candidates (living targets) with full and half votes, the arrival of
    their last full vote and their voter lines, best first."""
    cands: dict[int, Tally] = {}
    players = state.players
    for b in sorted(rnd(state, r).ballots, key=lambda b: b.seq):
        w = voter_weight(state, b.voter, r)
        if w is None:
            w = FULL  # §十四.5: votes cast before a ruling stand
        for t in b.targets:
            if not players[t].alive:
                continue
            c = cands.get(t)
            if c is None:
                c = cands[t] = Tally(t)
            c.lines.append(Line(b.voter, b.seq, b.n, w, b.proxy))
            if w is FULL:
                c.full += 1
                c.last = b.seq
            else:
                c.half += 1
    return sorted(cands.values(), key=rank)


def rank(c: Tally) -> tuple[int, int, int, int]:
    # §十三.3 half votes break ties; §十三.8 later arrival goes out first
    return (-c.full, -c.half, -c.last, c.seat)


def decide(state: State, r: int) -> Decided:
    """Who goes out, or the tie when the cut line falls between candidates whose votes
    arrived together."""
    k = row(state, r).out
    cands = [c for c in tally(state, r) if c.full >= 1]
    if len(cands) <= k:
        return Decided(cands, out=[c.seat for c in cands])

    def key(c: Tally) -> tuple[int, int, int]:
        return (c.full, c.half, c.last)

    if k > 0 and key(cands[k - 1]) == key(cands[k]):
        tied = [c.seat for c in cands if key(c) == key(cands[k])]
        above = [c.seat for c in cands if rank(c) < rank(cands[k]) and c.seat not in tied]
        return Decided(cands, tied=tied, above=above, slots=k - len(above))
    return Decided(cands, out=[c.seat for c in cands[:k]])


def start_overtime(state: State, d: Decided, ctx: Ctx[Settings], effects: list[Effect]) -> None:
    cfg = ctx.settings
    ends = ctx.now + timedelta(minutes=cfg.times.overtime_minutes)
    rnd(state).overtime = Overtime(tied=d.tied, above=d.above, slots=d.slots, ballots=[], ends=iso(ends))
    state.step = Step.OVERTIME
    names = T.LIST_SEP.join(name(state, s) for s in d.tied)
    effects.append(Say("group", T.OVERTIME_START.format(names=names, slots=d.slots, overtime_minutes=cfg.times.overtime_minutes, ends=hhmm(state, iso(ends)))))
    effects.append(SetPhase("overtime", T.OVERTIME_PHASE.format(round=state.round), ends))


def overtime_vote(state: State, seat: int, targets: list[int], ctx: Ctx[Settings]) -> list[Effect]:
    cur = rnd(state)
    ot = cur.overtime
    assert ot is not None  # step is OVERTIME
    if ctx.now >= dt(ot.ends) and (ctx.phase is None or ctx.now >= ctx.phase.ends_at):
        raise Rejected(T.OVERTIME_CLOSED)
    if not state.players[seat].alive or any(m.seat == seat for m in cur.marks):
        raise Rejected(T.OVERTIME_VOTER_OUT)
    if any(b.voter == seat for b in ot.ballots):
        raise Rejected(T.OVERTIME_ALREADY)
    if len(targets) != 1 or targets[0] not in ot.tied:
        raise Rejected(T.OVERTIME_BAD_TARGET.format(items=T.LIST_SEP.join(name(state, s) for s in ot.tied)))
    n = len(ot.ballots) + 1
    ot.ballots.append(OvertimeBallot(seq=ctx.seq, n=n, at=iso(ctx.now), voter=seat, target=targets[0]))
    return [Say("reply", T.OVERTIME_VOTED.format(target=name(state, targets[0]), n=n, seq=ctx.seq))]


def resolve_overtime(state: State, ctx: Ctx[Settings]) -> list[int]:
    ot = rnd(state).overtime
    assert ot is not None
    counts = {s: [0, 0] for s in ot.tied}
    for b in ot.ballots:
        counts[b.target][0] += 1
        counts[b.target][1] = max(counts[b.target][1], b.seq)
    order = sorted(ot.tied, key=lambda s: (-counts[s][0], -counts[s][1], s))
    k = ot.slots
    if 0 < k < len(order) and counts[order[k - 1]] == counts[order[k]]:
        # still level (nobody voted for them): the game's seeded draw decides
        level = [s for s in order if counts[s] == counts[order[k]]]
        head = [s for s in order if s not in level]
        ctx.rng.shuffle(level)
        order = head + level
    return ot.above + order[:k]


def show_tally(state: State, actor: Actor, args: NoArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/票型: the round's tally with each candidate's voter lines."""
    return [Say("reply", tally_text(state))]


def tally_text(state: State) -> str:
    r = state.round
    cur = rnd(state)
    rw = row(state, r)
    lines = [T.TALLY_HEAD.format(r=r, n_ballots=len(cur.ballots), votes=rw.votes, out=rw.out)]
    for c in tally(state, r):
        voters = T.LIST_SEP.join(
            T.TALLY_BALLOT.format(n=ln.n, voter=name(state, ln.voter), proxy=T.PROXY_SHORT if ln.proxy else "", weight=T.HALF_MARK if ln.weight is HALF else "")
            for ln in c.lines
        )
        half = T.TALLY_HALF.format(half=c.half) if c.half else ""
        lines.append(T.TALLY_LINE.format(seat=name(state, c.seat), full=c.full, half=half, voters=voters))
    if len(lines) == 1:
        lines.append(T.TALLY_NONE)
    ot = cur.overtime
    if ot:
        lines.append(T.TALLY_OVERTIME + (T.LIST_SEP.join(f"#{b.n} {name(state, b.voter)}→{name(state, b.target)}" for b in ot.ballots) or T.NONE_YET))
    return "\n".join(lines)


def non_voters(state: State, r: int) -> list[int]:
    voted = {b.voter for b in rnd(state, r).ballots}
    return [s for s in alive(state) if s not in voted]
