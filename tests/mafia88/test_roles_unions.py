"""§八 unions told privately at the moment they form, §六.2's publication order, and /改判 on the
steps of a vote result."""

from __future__ import annotations

import pytest
from mafia88_helpers import Game
from roles_helpers import ALL_ROLES, QUIET, at_round, quiet_round, vote_out

from plugins.gamekit.contract import Rejected


def ten_du_sha(seed: str = "unions") -> Game:
    counts = {**ALL_ROLES, "du_sha": 10}
    settings = {"counts": counts, "options": {"report_required": False}, "rounds": [dict(QUIET) for _ in range(8)]}
    return Game(sum(counts.values()), seed=seed, settings=settings, check_pure=False)


def names(msg: str, seat: int) -> bool:
    return f"{seat}号 玩家{seat}（" in msg  # as a union lists a mate: "12号 玩家12（联合杀，存活）"


def told(g: Game, seat: int, clause: str) -> list[str]:
    return [t for t in g.says(seat) if f"联合（{clause}）" in t]


def test_seven_du_sha_out_the_living_join_the_lianhe_sha_the_out_join_the_others_section_8_5():
    g = ten_du_sha()
    du = g.seats_of("du_sha")
    lh, hd, gb, dl, hh = (g.seats_of(k)[0] for k in ("lianhe_sha", "hei_dan", "gong_bing", "di_lei", "huan_hun"))
    lh_all = g.seats_of("lianhe_sha")
    outsiders = [s for s in g.alive() if s not in du + lh_all + [hd, gb, dl, hh]]
    for s in du[:6]:
        g.host("out", player=s, reason="测试")
    assert not any(told(g, s, "§八.5") for s in g.state.players)  # 出局不到7人，则一直不联合
    g.host("out", player=du[6], reason="测试")
    living, out = du[7:], du[:7]
    for s in living + lh_all:  # 活着的3个独立杀与联合杀联合
        [msg] = told(g, s, "§八.5")
        assert all(names(msg, o) for o in living + lh_all if o != s)
        assert not any(names(msg, o) for o in out + [hd, gb, dl, hh])
    for s in out + [hd, gb, dl, hh]:  # 出局的7人与黑蛋、工兵、地雷、还魂联合
        [msg] = told(g, s, "§八.5")
        assert all(names(msg, o) for o in out + [hd, gb, dl, hh] if o != s)
        assert not any(names(msg, o) for o in living + lh_all)
    assert not any(g.says(s) and told(g, s, "§八.5") for s in outsiders)
    assert not any("联合（" in t for t in g.says("group"))
    g.host("out", player=du[7], reason="测试")  # told once
    assert len(told(g, du[8], "§八.5")) == 1


def test_a_huan_hun_turned_lianhe_sha_joins_the_living_side_section_8_5_and_5_black_8():
    g = ten_du_sha("unions-r4")
    while g.state.round < 4:
        quiet_round(g)
    hh = next(s for s, p in g.state.players.items() if p.dealt == "huan_hun")
    assert g.p(hh).role == "lianhe_sha"  # 两次还魂结束，如果还魂还活着，转为联合杀
    du = g.seats_of("du_sha")
    for s in du[:7]:
        g.host("out", player=s, reason="测试")
    [msg] = told(g, hh, "§八.5")
    assert all(names(msg, o) for o in du[7:])
    assert not any(names(msg, o) for o in du[:7])


def test_yin_jian_and_lianhe_jian_unite_after_the_round_4_posts_section_8_1():
    g = at_round(3)
    yj, lj = g.seats_of("yin_jian"), g.seats_of("lianhe_jian")
    quiet_round(g)
    assert g.state.round == 4 and not any(told(g, s, "§八.1") for s in yj + lj)  # 隐剑 alive: not yet
    g.fire("posts_due:4")
    assert not any(told(g, s, "§八.1") for s in yj + lj)  # the round-4 posts are not out yet
    g.fire("publish:4")  # 四轮出贴后，隐剑与联合剑联合
    for s in yj + lj:
        [msg] = told(g, s, "§八.1")
        assert all(names(msg, o) for o in yj + lj if o != s)
    others = [s for s in g.state.players if s not in yj + lj]
    assert not any(told(g, s, "§八.1") for s in others)
    assert g.p(yj[0]).alive


def test_posts_are_published_in_code_name_order_whatever_order_they_came_in_section_6_2():
    g = at_round(3)
    lh, du = g.seats_of("lianhe_sha"), g.seats_of("du_sha")
    g.host("set_round", round=3, votes=1, out=0, posts="联2 独2")
    codes = {s: g.p(s).code for s in lh + du[:2]}
    order = g.settings.role("lianhe_sha").codes + g.settings.role("du_sha").codes  # §十六: 联合杀 before 独立杀
    arrival = sorted(lh + du[:2], key=lambda s: -order.index(codes[s]))  # the last code name first
    targets = g.seats_of("you_xia")
    for s, t in zip(arrival, targets):
        g.host("approve", post=g.submit_post(s, t))
    g.fire_due(g.timers["publish:3"])
    shown = [t.split("代号 ")[1].split("】")[0] for t in g.says("group") if t.startswith("【第3轮杀帖｜")]
    assert shown == sorted(codes.values(), key=order.index)
    assert shown != [codes[s] for s in arrival]


def result_steps(g: Game, r: int) -> str:
    return next(t for t in reversed(g.says("hosts")) if t.startswith(f"第{r}轮结果结算"))


def test_override_a_step_of_the_vote_result_section_14_6():
    g = at_round(3)
    yx = g.seats_of("you_xia")[0]
    vote_out(g, [yx])
    g.fire_due(g.now)
    assert not g.p(yx).alive and g.state.round == 4
    steps = result_steps(g, 3)
    assert f"1. {yx}号" in steps and "/改判 结果1" in steps
    with pytest.raises(Rejected, match="结果步骤只能改判为"):
        g.host("override", step="结果1", result="同归", reason="测试")
    with pytest.raises(Rejected, match="没有第 5 步"):
        g.host("override", step="结果5", result="无人出局", reason="测试")
    with pytest.raises(Rejected, match="理由"):
        g.host("override", step="结果1", result="无人出局")
    out = g.host("override", step="结果1", result="无人出局", reason="投票机故障，票数有误")
    assert g.p(yx).alive
    group = g.says("group", out)
    assert group and "改判" in group[0] and f"{yx}号 {g.p(yx).alias}" in group[0] and "投票机故障" in group[0]
    assert "u" not in group[0].replace(g.p(yx).alias, "")  # no QQ account in the group
    assert "改判第3轮结果第1步" in g.state.audit[-1].what
    assert "已改判" in result_steps(g, 3)
    with pytest.raises(Rejected, match="还在场上"):
        g.host("override", step="结果1", result="无人出局", reason="再来")
    g.host("override", step="结果1", result="出局", reason="查实票数无误")
    assert not g.p(yx).alive
