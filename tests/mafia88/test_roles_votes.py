"""§五/§七 vote results: take-alongs from one's own voter lines, the 魔镜's
reveal, 复活 and its thank-you letter, the 地雷's 追魂, 高票一挂特权, half votes
of living players and the decision window."""

from __future__ import annotations

import pytest
from mafia88_helpers import essay
from roles_helpers import at_round, quiet_round, vote_out

from plugins.gamekit.contract import Rejected


def settle(g):
    """The window ends (a 复活 that stays silent in rounds 2 and 4 keeps it open)."""
    if g.state.step == "deciding":
        g.fire("phase")


def result_text(g, r):
    return [t for t in g.says("group") if t.startswith(f"【第{r}轮结果】")][-1]


def test_du_sha_voted_out_takes_one_of_its_voters_section_5_black_3():
    g = at_round(3)
    du = g.seats_of("du_sha")[0]
    lines = vote_out(g, [du])
    assert g.state.step == "deciding"
    assert any("结果贴将于" in t for t in g.says("group"))
    prompt = g.says(du)[-1]
    assert "带人" in prompt and f"{lines[du][0]}号" in prompt
    outsider = next(s for s in g.alive() if s not in lines[du] and s != du)
    with pytest.raises(Rejected, match="不在票你的线上（§五黑3"):
        g.cmd(du, "take", targets=[outsider])
    with pytest.raises(Rejected, match="正好选 1 人"):
        g.cmd(du, "take", targets=lines[du][:2])
    with pytest.raises(Rejected, match="没有带人"):
        g.cmd(lines[du][0], "take", targets=[du])
    with pytest.raises(Rejected, match="投票已截止"):
        g.cmd(lines[du][0], "vote", targets=[du])
    pick = lines[du][3]
    g.cmd(du, "take", targets=[pick])  # the only choice: the result goes out at once
    assert g.state.round == 4
    assert not g.p(du).alive and not g.p(pick).alive and g.p(pick).out.cause == "take"
    assert f"{du}号 {g.p(du).alias} 带走：{pick}号" in result_text(g, 3)
    with pytest.raises(Rejected, match="现在不是选择时间"):
        g.cmd(du, "take", targets=[pick])


def test_no_choice_in_time_the_bot_picks_with_the_seeded_rng_and_says_so():
    picks = []
    for _ in range(2):
        g = at_round(2)
        du = g.seats_of("du_sha")[1]
        lines = vote_out(g, [du])
        g.fire("phase")  # the window ends
        taken = [o.seat for o in g.state.rounds[2].outs if o.cause == "take"]
        assert len(taken) == 1 and taken[0] in lines[du]
        assert "随机代选" in result_text(g, 2)
        picks.append(taken[0])
    assert picks[0] == picks[1]  # replay: same seed, same pick


def test_one_lianhe_dan_takes_two_then_the_other_takes_none_section_5_white_3():
    g = at_round(2)
    d1, d2 = g.seats_of("lianhe_dan")
    lines = vote_out(g, [d1])
    with pytest.raises(Rejected, match="正好选 2 人"):
        g.cmd(d1, "take", targets=lines[d1][:1])
    g.cmd(d1, "take", targets=lines[d1][:2])
    settle(g)
    assert all(not g.p(s).alive for s in lines[d1][:2])
    vote_out(g, [d2])  # round 3: the other egg's take-along is void
    assert g.state.round == 4 and not g.p(d2).alive
    assert not [o for o in g.state.rounds[3].outs if o.cause == "take"]


def test_both_lianhe_dan_out_together_each_takes_first_and_last_voter_section_5_white_3():
    g = at_round(2)
    d1, d2 = g.seats_of("lianhe_dan")
    lines = vote_out(g, [d1, d2])
    assert not any(c.seat in (d1, d2) for c in g.state.rounds[2].decide.choices)  # nothing to choose
    settle(g)
    taken = sorted(o.seat for o in g.state.rounds[2].outs if o.cause == "take")
    assert taken == sorted({lines[d1][0], lines[d1][-1], lines[d2][0], lines[d2][-1]})


def test_lianhe_dan_take_along_ends_with_the_round_4_posts_section_5_white_3():
    g = at_round(4)
    d1 = g.seats_of("lianhe_dan")[0]
    vote_out(g, [d1])
    settle(g)
    assert g.state.round == 5 and not [o for o in g.state.rounds[4].outs if o.cause == "take"]


def test_di_lei_voted_out_takes_four_and_its_soul_writer_brings_it_back_section_5_black_5():
    g = at_round(2)
    dl = g.seats_of("di_lei")[0]
    lines = vote_out(g, [dl])
    writer = lines[dl][-1]
    g.cmd(dl, "soul", targets=[writer])
    with pytest.raises(Rejected, match="正好选 4 人"):
        g.cmd(dl, "take", targets=lines[dl][:3])
    g.cmd(dl, "take", targets=lines[dl][:4])
    settle(g)
    assert g.state.round == 3 and not g.p(dl).alive
    assert sum(1 for o in g.state.rounds[2].outs if o.cause == "take") == 4
    assert any("/追魂" in t for t in g.says(writer))
    with pytest.raises(Rejected, match="不足 500"):
        g.cmd(writer, "letter_soul", text=essay(300))
    out = g.cmd(writer, "letter_soul", text=essay(520, "魂"))
    assert g.p(dl).alive and any(e.to == "group" and "复活" in e.text for e in out if hasattr(e, "to"))


def test_di_lei_soul_not_written_it_stays_out_section_5_black_5():
    g = at_round(2)
    dl = g.seats_of("di_lei")[0]
    lines = vote_out(g, [dl])
    g.cmd(dl, "soul", targets=[lines[dl][0]])
    g.fire("phase")
    key = next(k for k in g.timers if k.startswith("letter:"))
    g.fire(key)
    assert not g.p(dl).alive
    assert any("不复活" in t for t in g.says("group"))


def test_mo_jing_voted_out_reveals_one_voter_with_the_result_section_5_black_6():
    g = at_round(2)
    mj = g.seats_of("mo_jing")[0]
    lines = vote_out(g, [mj])
    pick = lines[mj][2]
    g.cmd(mj, "reveal", targets=[pick])
    settle(g)
    res = result_text(g, 2)
    role_name = next(r.name for r in g.settings.roles if r.key == g.p(pick).role)
    assert f"照出：{pick}号 {g.p(pick).alias} 是{role_name}" in res
    assert g.p(pick).alive


def test_fu_huo_revives_a_top_voted_player_in_round_2_and_the_letter_rule_section_5_white_6():
    g = at_round(2)
    fh = g.seats_of("fu_huo")[0]
    x = g.seats_of("you_xia")[2]
    vote_out(g, [x])
    assert g.state.step == "deciding" and "复活" in g.says(fh)[-1]
    with pytest.raises(Rejected, match="不能复活自己"):
        g.cmd(fh, "revive", target=fh)
    with pytest.raises(Rejected, match="不是本轮高票者"):
        g.cmd(fh, "revive", target=g.seats_of("you_xia")[3])
    with pytest.raises(Rejected, match="没有复活的权利"):
        g.cmd(x, "revive", target=x)
    g.cmd(fh, "revive", target=x)
    assert g.state.round == 3 and g.p(x).alive
    assert "被复活（不公布身份）" in result_text(g, 2)
    # no thank-you letter by 12:00: half vote in round 3 and out with its result
    key = next(k for k in g.timers if k.startswith("letter:"))
    g.fire(key)
    assert 3 in g.p(x).half
    reply = g.cmd(x, "vote", targets=[g.seats_of("you_xia")[4]])
    assert "半票" in reply[0].text
    quiet_round(g)
    assert not g.p(x).alive and g.p(x).out.cause == "thanks"


def test_fu_huo_thank_you_letter_written_keeps_a_full_vote_section_5_white_6():
    g = at_round(4)
    fh = g.seats_of("fu_huo")[0]
    x = g.seats_of("you_xia")[2]
    vote_out(g, [x])
    g.cmd(fh, "revive", target=x)
    out = g.cmd(x, "letter_thanks", text=essay(520, "谢"))
    assert "合格" in out[0].text and any(e.to == "group" and "感谢信" in e.text for e in out)
    key = next(k for k in g.timers if k.startswith("letter:"))
    g.fire(key)
    assert 5 not in g.p(x).half


def test_fu_huo_outside_rounds_2_and_4_or_after_the_cutoff_is_refused_section_5_white_6():
    g = at_round(3)
    fh = g.seats_of("fu_huo")[0]
    du = g.seats_of("du_sha")[0]
    vote_out(g, [du])
    with pytest.raises(Rejected, match="复活只在第2、4轮有效"):
        g.cmd(fh, "revive", target=du)
    g = at_round(2)
    x = g.seats_of("you_xia")[2]
    vote_out(g, [x])
    g.now = g.phase.ends_at - __import__("datetime").timedelta(minutes=2)
    with pytest.raises(Rejected, match="结果贴前 3 分钟"):
        g.cmd(fh, "revive", target=x)


def test_round_1_top_voted_names_a_soul_writer_unwritten_means_half_votes_section_7_1():
    g = at_round(1)
    x = g.seats_of("you_xia")[2]
    lines = vote_out(g, [x])
    assert "高票一挂特权" in g.says(x)[-1]
    writer = lines[x][0]
    g.cmd(x, "soul", targets=[writer])
    assert g.state.round == 2
    key = next(k for k in g.timers if k.startswith("letter:"))
    g.fire(key)
    assert g.p(writer).half == [2, 3]
    assert "半票" in g.cmd(writer, "vote", targets=[g.seats_of("you_xia")[4]])[0].text


def test_half_votes_of_living_players_only_break_ties_section_5_white_6():
    from plugins.mafia88.engine.rules_votes import decide

    g = at_round(2)
    a, b = g.seats_of("you_xia")[2:4]
    half = g.seats_of("you_xia")[4]
    g.state.players[half].half = [2]
    g.host("set_round", round=2, votes=1, out=1)
    g.fire_due()
    living = [s for s in sorted(g.alive()) if s not in (a, b, half)]
    for i, s in enumerate(living[:10]):
        g.cmd(s, "vote", targets=[a if i % 2 else b])
    g.cmd(half, "vote", targets=[a])  # a and b have 5 full votes each; the half vote breaks the tie
    d = decide(g.state, 2)
    assert d.out == [a]
    c = next(c for c in d.cands if c.seat == a)
    assert (c.full, c.half) == (5, 1)


def test_round_2_window_opens_even_when_the_fu_huo_is_out_so_the_group_learns_nothing_section_5_white_6():
    g = at_round(2)
    g.host("out", player=g.seats_of("fu_huo")[0], reason="测试")
    x = g.seats_of("you_xia")[2]
    vote_out(g, [x])
    assert g.state.step == "deciding" and any("结果贴将于" in t for t in g.says("group"))
    g.fire("phase")
    assert not g.p(x).alive
    steps = [t for t in g.says("hosts") if t.startswith("第2轮结果结算")][-1]
    assert f"1. {x}号 {g.p(x).alias}（游侠）：第2轮高票出局" in steps


def test_round_3_without_choices_publishes_at_once():
    g = at_round(3)
    x = g.seats_of("you_xia")[2]
    vote_out(g, [x])
    assert g.state.round == 4 and not any("结果贴将于" in t for t in g.says("group"))


def test_high_post_privilege_designation_and_its_due_section_7_2():
    g = at_round(5)
    x, y = g.seats_of("you_xia")[2:4]
    with pytest.raises(Rejected, match="第五轮结束后"):
        g.host("high_posts", player=x, by="某高贴玩家")
    quiet_round(g)
    assert g.state.round == 6
    out = g.host("high_posts", player=x, by="某高贴玩家")
    assert "500" in out[1].text and out[1].to == x
    g.host("high_posts", player=y)
    with pytest.raises(Rejected, match="已被指定过"):
        g.host("high_posts", player=x)
    g.cmd(y, "letter_soul", text=essay(520, "情"))
    for key in sorted(k for k in g.timers if k.startswith("letter:")):
        g.fire(key)
    assert not g.p(x).alive and g.p(x).out.cause == "high"
    assert g.p(y).alive


def test_a_revived_du_sha_takes_nobody_along_section_5_white_6_black_3():
    g = at_round(2)
    fh, du = g.seats_of("fu_huo")[0], g.seats_of("du_sha")[0]
    lines = vote_out(g, [du])
    g.cmd(du, "take", targets=[lines[du][0]])
    g.cmd(fh, "revive", target=du)
    assert g.state.round == 3
    assert g.p(du).alive and g.p(lines[du][0]).alive
