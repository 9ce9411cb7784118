"""The vote machine (§十三)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from mafia88_helpers import Game, small

from plugins.gamekit.contract import Eliminate, Rejected, SetPhase
from plugins.mafia88.engine import ENGINE


def everyone_else_votes(g: Game, target: int, but: list[int]) -> None:
    for s in sorted(g.alive()):
        if s not in but:
            g.cmd(s, "vote", targets=[target])


def test_vote_is_answered_with_its_arrival_number_13():
    g = small()
    a, b = sorted(g.alive())[:2]
    first = g.cmd(a, "vote", private=False, targets=[b])
    second = g.cmd(b, "vote", private=False, targets=[a])
    assert "第1轮第 1 票" in first[0].text and first[0].to == "reply"
    assert "第1轮第 2 票" in second[0].text


def test_a_cast_vote_is_final_13_2():
    g = small()
    g.cmd(1, "vote", targets=[2])
    with pytest.raises(Rejected, match="已投票"):
        g.cmd(1, "vote", targets=[3])


def test_two_votes_on_the_same_player_count_as_one_13_2():
    g = small()
    g.cmd(1, "vote", targets=[2, 2])
    assert g.state.rounds[1].ballots[0].targets == [2]


def test_too_many_votes_refused():
    g = small()
    with pytest.raises(Rejected, match="最多投 2 票"):
        g.cmd(1, "vote", targets=[2, 3, 4])


def test_bad_votes_are_refused_and_change_nothing():
    g = small()
    g.host("out", player=5, reason="测试")
    for seat, targets, msg in ((1, [5], "已出局"), (1, [99], "没有 99 号"), (5, [1], "已出局，不能投票"), (None, [1], "不是本局玩家"),
                               (1, [], "请写出")):
        with pytest.raises(Rejected, match=msg):
            g.cmd(seat, "vote", targets=targets)
    assert g.state.rounds[1].ballots == []


def test_vote_after_the_deadline_is_refused_13_6():
    g = small()
    g.now = g.phase.ends_at
    with pytest.raises(Rejected, match="投票已截止（21:00）"):
        g.cmd(1, "vote", targets=[2])


def test_a_player_who_did_not_vote_is_out_13_2():
    g = small()
    g.report_all()
    g.fire_due()
    victim = sorted(g.alive())[0]
    silent = sorted(g.alive())[-1]
    everyone_else_votes(g, victim, [silent])
    effects = g.fire("phase")
    outs = {e.seat: e.reason for e in effects if isinstance(e, Eliminate)}
    assert outs[victim] == "第1轮高票出局"
    assert "逾期未投票" in outs[silent]
    assert "逾期未投票" in g.says("group", effects)[0]


def test_tie_at_the_cut_line_later_arrival_is_out_13_8():
    g = small()
    g.report_all()
    g.fire_due()
    living = sorted(g.alive())
    assert len(living) % 2 == 0
    a, b = living[0], living[1]
    others = living[2:]
    g.cmd(a, "vote", targets=[b])
    g.cmd(b, "vote", targets=[a])
    # alternate so that b's final vote is the last to arrive
    for i, s in enumerate(others):
        g.cmd(s, "vote", targets=[a] if i % 2 == 0 else [b])
    from plugins.mafia88.engine.rules_votes import tally

    t = {c.seat: c for c in tally(g.state, 1)}
    assert t[a].full == t[b].full
    assert t[b].last > t[a].last
    effects = g.fire("phase")
    out = [e.seat for e in effects if isinstance(e, Eliminate) and e.reason == "第1轮高票出局"]
    assert out == [b]
    assert f"高票出局：{b}号 玩家{b}（{t[b].full} 票）" in g.says("group", effects)[0]


def test_simultaneous_tie_goes_to_a_15_minute_overtime_13_8():
    g = small()
    g.report_all()
    g.fire_due()
    living = sorted(g.alive())
    a, b = living[0], living[1]
    for s in living:
        g.cmd(s, "vote", targets=[a, b] if s not in (a, b) else [living[2]])
    # a and b both got every vote from the same ballots: overtime, one vote each
    close = g.phase.ends_at
    effects = g.fire("phase")
    phase = [e for e in effects if isinstance(e, SetPhase)]
    assert phase and phase[0].ends_at == close + timedelta(minutes=15)
    assert not [e for e in effects if isinstance(e, Eliminate) and "高票" in e.reason]
    with pytest.raises(Rejected, match="只能投平票者"):
        g.cmd(living[3], "vote", targets=[living[4]])
    g.cmd(living[3], "vote", targets=[a])
    with pytest.raises(Rejected, match="已投过加时票"):
        g.cmd(living[3], "vote", targets=[b])
    g.cmd(living[4], "vote", targets=[b])
    g.cmd(living[5], "vote", targets=[b])
    effects = g.fire("phase")
    out = [e.seat for e in effects if isinstance(e, Eliminate) and e.reason == "第1轮高票出局"]
    assert out == [b]
    assert g.state.round == 2


def test_post_killed_players_vote_half_and_only_for_ties_13_3():
    g = small()
    g.report_all()
    gu = g.seats_of("gu_sha")[0]
    living = sorted(s for s in g.alive() if s != gu)
    target = living[0]
    pid = g.submit_post(gu, target)
    g.host("approve", post=pid)
    g.fire_due()
    assert not g.p(target).alive
    # the post-killed player may still vote, at half weight
    reply = g.cmd(target, "vote", targets=[living[2]])
    assert "半票" in reply[0].text
    a, b = living[1], living[2]
    voters = [s for s in sorted(g.alive()) if s not in (a, b)]
    half = len(voters) // 2
    # b gets its votes first, a gets the later ones: without the half vote a would go (后到先出)
    for s in voters[:half]:
        g.cmd(s, "vote", targets=[b])
    for s in voters[half:half * 2]:
        g.cmd(s, "vote", targets=[a])
    rest = voters[half * 2:]
    for s in rest + [a, b]:
        g.cmd(s, "vote", targets=[(s == a and b) or a] if s in (a, b) else [living[3]])
    from plugins.mafia88.engine.rules_votes import tally

    t = {c.seat: c for c in tally(g.state, 1)}
    assert t[a].full == t[b].full and t[b].half == 1
    effects = g.fire("phase")
    out = [e.seat for e in effects if isinstance(e, Eliminate) and e.reason == "第1轮高票出局"]
    assert out == [b]


def test_half_votes_do_not_count_without_a_tie_13_3():
    from plugins.mafia88.engine.rules_votes import decide

    g = small()
    gu = g.seats_of("gu_sha")[0]
    living = sorted(s for s in g.alive() if s != gu)
    pid = g.submit_post(gu, living[0])
    g.fire_due()
    g.cmd(living[0], "vote", targets=[living[1]])  # half
    g.cmd(living[2], "vote", targets=[living[3]])  # full
    assert decide(g.state, 1).out == [living[3]]
    assert pid == 1


def test_proxy_until_20_minutes_before_close_13_5():
    g = small()
    g.cmd(1, "proxy", targets=[2])
    with pytest.raises(Rejected, match="已托票"):
        g.cmd(1, "vote", targets=[3])
    g.cmd(1, "proxy", targets=[3])  # a proxy can be changed
    ballots = [b for b in g.state.rounds[1].ballots if b.voter == 1]
    assert len(ballots) == 1 and ballots[0].targets == [3] and ballots[0].proxy
    g.now = g.phase.ends_at - timedelta(minutes=20)
    with pytest.raises(Rejected, match="托票已截止（20:40）"):
        g.cmd(1, "proxy", targets=[4])
    with pytest.raises(Rejected, match="托票已截止"):
        g.cmd(5, "proxy", targets=[4])
    g.cmd(5, "vote", targets=[4])  # voting yourself is still open


def test_a_player_who_voted_cannot_proxy_13_5():
    g = small()
    g.cmd(1, "vote", targets=[2])
    with pytest.raises(Rejected, match="已投票"):
        g.cmd(1, "proxy", targets=[3])


def test_proxy_counts_as_the_players_vote_and_spares_them_13_5():
    g = small()
    g.report_all()
    g.fire_due()
    living = sorted(g.alive())
    g.cmd(living[0], "proxy", targets=[living[1]])
    for s in living[1:]:
        g.cmd(s, "vote", targets=[living[1]] if s != living[1] else [living[2]])
    effects = g.fire("phase")
    outs = [e.seat for e in effects if isinstance(e, Eliminate)]
    assert outs == [living[1]]


def test_tally_shows_voter_lines():
    g = small()
    g.cmd(3, "vote", targets=[1, 2])
    g.cmd(4, "vote", targets=[1])
    text = g.cmd(7, "tally", private=False)[0].text
    line = next(ln for ln in text.splitlines() if ln.startswith("1号"))
    assert "2 票" in line and "#1 3号 玩家3" in line and "#2 4号 玩家4" in line


def test_proxy_cutoff_follows_a_moved_deadline_13_5():
    from plugins.gamekit.contract import Timer

    g = small()
    g.now = g.phase.ends_at - timedelta(minutes=30)
    g.phase = Timer("phase", g.phase.ends_at + timedelta(hours=1))  # a host used /延时 60
    g.cmd(1, "proxy", targets=[2])
    assert g.state.rounds[1].due.close == g.phase.ends_at.isoformat()
    # /状态: the kernel prints the phase deadline; the engine's line does not repeat a stale copy
    assert "投票截止" not in ENGINE.status(g.state, settings=g.settings)


def test_a_votes_answer_and_the_tally_give_it_the_same_number_13_1():
    """§十三.1 the vote machine: the number a vote's answer gives is the one /票型 shows for it
    (the arrival number in the game is a different figure and is not written with #)."""
    import re

    g = small()
    g.cmd(2, "tally", private=False)  # earlier commands of the game: the arrival numbers run ahead
    answers = {s: g.cmd(s, "vote", targets=[7])[0].text for s in (1, 2, 3)}
    proxy = g.cmd(4, "proxy", targets=[7])[0].text
    tally = g.cmd(5, "tally", private=False)[0].text
    line = next(ln for ln in tally.splitlines() if ln.startswith("7号"))
    shown = dict((int(voter), n) for n, voter in re.findall(r"#(\d+) (\d+)号", line))
    for s, text in {**answers, 4: proxy}.items():
        assert re.findall(r"#(\d+)", text) == [shown[s]], (text, line)
