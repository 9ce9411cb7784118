"""Invariants (hypothesis) and replay."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plugins.gamekit.contract import Eliminate, Ignored, Rejected
from plugins.prison.engine.engine import ENGINE
from plugins.prison.engine.rules_end import condition

from prison_helpers import MURDERER, Game

NAMES = ["love", "hate", "elect", "execute", "release", "abstain", "decide", "uprising", "room", "noise",
         "point_kill", "spare", "ability", "relay", "post", "submit_map", "note", "kernel.out", "bid", "bid",
         "check", "protect", "block", "eavesdrop", "swap", "message", "vote_weight"]
BIDS = ["第一志愿=甲:5 第二志愿=乙:3", "第一志愿=乙:5", "第一志愿=丙:0 随机号码=7", "第二志愿=甲:9", "第一志愿=丁:50"]
CHARACTERS = ["甲", "乙", "丙", {"name": "丁", "camp": "guard"}, {"name": "戊", "camp": "prisoner"}] + [f"角色{i}" for i in range(8)]
ROOMS = list("abcdefABCDEF")

step = st.one_of(
    st.just(("deadline",)),
    st.tuples(st.just("cmd"), st.integers(1, 12), st.sampled_from(NAMES), st.integers(1, 12),
              st.sampled_from(ROOMS), st.sampled_from(["处决", "释放", "弃票"])),
)


def run(g: Game, steps) -> None:
    for s in steps:
        if s[0] == "deadline":
            if g.state.phase != "over":
                g.advance()
            continue
        _, by, name, target, room, choice = s
        text = BIDS[(by + target) % len(BIDS)] if name == "bid" else "x a-A"
        args = {"seat": target, "room": room, "choice": choice, "text": text, "images": 0, "a": target, "b": by,
                "ability": "偷看" if by == 10 else "搜身"}
        host = name == "kernel.out"
        try:
            g.do(None if host else by, name, private=name != "post", host=host, **args)
        except (Rejected, Ignored):
            pass


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(step, min_size=5, max_size=80), st.sampled_from(["a", "b", "c"]), st.booleans(), st.booleans())
def test_random_play_keeps_the_invariants(steps, seed, fixed, auction):
    """Nobody dies twice; the game never runs past an end of （三）; points add up; with an
    auction every player ends up with a different character as alias."""
    g = Game(seed=seed, fixed_deal=fixed, overrides={"characters": CHARACTERS} if auction else None)
    run(g, steps)
    if auction and g.state.phase != "auction":
        aliases = [g.p(s).alias for s in range(1, 13)]
        assert len(set(aliases)) == 12 and set(aliases) <= {c if isinstance(c, str) else c["name"] for c in CHARACTERS}
    out = [e.seat for e in g.log if isinstance(e, Eliminate)]
    assert len(out) == len(set(out)), "a player left the game twice"
    json.dumps(ENGINE.encode(g.state))  # the stored form is plain JSON
    if g.state.phase == "over":
        r = g.state.result
        assert r.cond in (1, 2, 3) and set(r.winners) <= set(range(1, 13))
        for row in r.ranking:
            assert row.total == sum(x.n for x in r.points[row.seat])
    elif g.state.phase == "auction":
        ENGINE.status(g.state, settings=g.settings)
        ENGINE.tables(g.state, settings=g.settings)
    else:
        assert condition(g.state, g.settings) is None
        ENGINE.status(g.state, settings=g.settings)
        ENGINE.tables(g.state, settings=g.settings)


def _to_day2(seed: str) -> Game:
    g = Game(seed=seed)
    g.to_day1()
    g.elect(chief=1, leader=MURDERER)
    g.do(MURDERER, "spare")
    g.rooms([])
    g.talk()
    g.thief()
    g.advance()
    return g


ballot = st.lists(st.sampled_from([("execute", 12), ("execute", 11), ("release", 11), ("release", 9),
                                   ("abstain", None)]), min_size=6, max_size=6)


@settings(max_examples=30, deadline=None)
@given(ballot, st.permutations(list(range(6))))
def test_order_of_votes_does_not_change_the_verdict(votes, order):
    """【重要规则公示】4: the verdict depends on the votes, not on the order they arrived."""
    results = []
    for perm in (list(range(6)), order):
        g = _to_day2("order")
        for i in perm:
            verb, target = votes[i]
            g.do(i + 1, verb, **({"seat": target} if target else {}))
        fx = g.advance()
        results.append((g.state, fx))
    assert results[0] == results[1]


def _scripted(seed: str) -> Game:
    g = Game(seed=seed, fixed_deal=False, overrides={"signup": {"3": {"number": 42}}})
    for s in range(1, 13):
        g.do(s, "love" if s % 2 else "hate", seat=s % 12 + 1)
    g.advance()
    for s in range(1, 13):
        g.do(s, "elect", seat=g.living("guard")[0] if g.p(s).kind == "guard" else g.living("prisoner")[0])
    while g.state.phase != "over" and g.state.day < 8:
        g.advance()  # rooms are random, votes missing: cards and murders all the same
        if g.state.phase == "night":
            g.talk()
    return g


def test_replay_same_seed_same_commands_same_times_gives_identical_state_and_effects():
    """The engine contract: a game replays from its seed and command log."""
    a, b = _scripted("replay"), _scripted("replay")
    assert a.state == b.state
    assert a.log == b.log
    assert len(a.state.nights) >= 1
    c = _scripted("other seed")
    assert (c.state.mapping, c.log) != (a.state.mapping, a.log)
