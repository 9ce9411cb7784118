"""Invariants: replay, order independence (§十三.8 only ties look at arrival),
nobody dies twice, refusals change nothing."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mafia88_helpers import Game, essay, small

from plugins.gamekit.contract import Eliminate, Ignored, Rejected, Restore
from plugins.mafia88.engine import ENGINE
from plugins.mafia88.engine.rules_votes import decide

SCRIPT_SEED = "replay-1"


def scripted(json_state: bool) -> Game:
    g = small(SCRIPT_SEED, json_state=json_state)
    g.report_all()
    gu = g.seats_of("gu_sha")[0]
    yx = g.seats_of("you_xia")
    g.cmd(gu, "white", code=g.p(gu).code, target=yx[0])
    g.fire_due()
    g.cmd(yx[1], "proxy", targets=[yx[2], yx[3]])
    living = sorted(g.alive())
    for s in living:
        if s != yx[1]:
            g.cmd(s, "vote", targets=[yx[2], yx[3]] if s not in (yx[2], yx[3]) else [yx[4]])
    g.fire("phase")  # yx[2] and yx[3] tied with votes that arrived together: overtime
    for s in sorted(g.alive())[:3]:
        g.cmd(s, "vote", targets=[yx[3]])
    g.fire("phase")
    g.fire_due()  # round 2 posts due (silent authors out), publication, white due of round 1
    return g


def test_replay_same_seed_commands_and_times_give_identical_state_and_effects():
    a, b = scripted(False), scripted(False)
    assert a.state == b.state
    assert a.log == b.log
    assert a.state.round == 2 and a.state.rounds[1].overtime is not None
    gu = a.seats_of("gu_sha", living=False)[0]
    assert not a.p(gu).alive and a.p(gu).out.cause == "white"  # the white slip was never written
    assert a.p(a.seats_of("you_xia", living=False)[0]).alive  # and its target came back


def test_state_survives_json_storage_between_calls():
    a, b = scripted(False), scripted(True)
    assert ENGINE.decode(json.loads(json.dumps(ENGINE.encode(a.state)))) == b.state
    assert a.log == b.log


def test_another_seed_deals_differently():
    other = small("replay-2")
    assert [other.p(s).role for s in range(1, 14)] != [small(SCRIPT_SEED).p(s).role for s in range(1, 14)]


ballots = st.lists(st.lists(st.integers(1, 6), min_size=1, max_size=2), min_size=13, max_size=13)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ballots, st.permutations(list(range(13))), st.integers(1, 3))
def test_order_of_votes_does_not_change_the_result_without_a_cut_line_tie_13_8(picks, order, k):
    def play(seq):
        g = small("perm", rounds=[{"votes": 2, "out": k, "posts": {}}], options={"report_required": False}, check_pure=False)
        for i in seq:
            g.cmd(i + 1, "vote", targets=picks[i])
        return decide(g.state, 1)

    base = play(range(13))
    other = play(order)
    cands = base.cands
    cut_tie = len(cands) > k and cands[k - 1].full == cands[k].full and cands[k - 1].half == cands[k].half
    if not cut_tie:
        assert sorted(base.out) == sorted(other.out)
    assert sorted(c.full for c in base.cands) == sorted(c.full for c in other.cands)


actions = st.lists(
    st.tuples(st.sampled_from(["out", "back", "post", "white", "vote", "timer", "reject", "junk"]), st.integers(1, 13), st.integers(1, 13)),
    max_size=40,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(actions)
def test_nobody_dies_twice_and_refusals_change_nothing(steps):
    g = small("chaos")
    g.report_all()
    for kind, a, b in steps:
        try:
            if kind == "out":
                g.host("out", player=a, reason="随机")
            elif kind == "back":
                g.host("back", player=a, reason="随机")
            elif kind == "post":
                g.cmd(a, "post", code=g.p(a).code or "无", target=b, text=essay(900, str(a)))
                g.cmd(a, "done")
            elif kind == "white":
                g.cmd(a, "white", code=g.p(a).code or "无", target=b)
            elif kind == "vote":
                g.cmd(a, "vote", targets=[b])
            elif kind == "reject":
                g.host("reject", post=a, reason="随机")
            elif kind == "junk":
                g.cmd(a, "text", text="闲聊")
            elif kind == "timer" and (g.timers or g.phase):
                key = min(g.timers, key=lambda k: g.timers[k]) if g.timers else "phase"
                if g.phase and (not g.timers or g.phase.ends_at <= g.timers[key]):
                    key = "phase"
                g.fire(key)
        except (Rejected, Ignored):
            pass  # Game.cmd asserts the input state was left untouched
        if g.state.step == "over":
            break
    status: dict[int, bool] = {s: True for s in range(1, 14)}
    for batch in g.log:
        for e in batch:
            if isinstance(e, Eliminate):
                assert status[e.seat], f"{e.seat} died twice"
                status[e.seat] = False
            elif isinstance(e, Restore):
                assert not status[e.seat]
                status[e.seat] = True
    assert status == {s: g.p(s).alive for s in range(1, 14)}
