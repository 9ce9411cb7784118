"""§五白4/黑8 移魂 and 还魂 (the A/B/C example), role changes after round 3,
unions of §八 told privately, /私信, /接头 (§七.3), the give-up line (§十二.9) and clauses
repeated with commas (§十二.2)."""

from __future__ import annotations

import pytest
from mafia88_helpers import Game, essay, small
from roles_helpers import at_round, post_in_round, quiet_round

from plugins.gamekit.contract import Rejected


def publish(g, r):
    g.fire_due(g.timers[f"publish:{r}"])


def test_yi_hun_moves_the_post_death_of_a_to_b_section_5_white_4():
    g = at_round(2)
    yh, lh = g.seats_of("yi_hun")[0], g.seats_of("lianhe_sha")[0]
    a, b = g.seats_of("you_xia")[:2]
    post_in_round(g, lh, a)
    g.cmd(yh, "soul_move", src=a, dst=b, text=essay(520, "移"))
    publish(g, 2)
    assert g.p(a).alive and not g.p(b).alive and g.p(b).out.cause == "soul"
    assert any(t.startswith("【第2轮移魂贴】") for t in g.says("group"))
    assert any("2. 移魂" in line for h in g.says("hosts") for line in h.splitlines())
    quiet_round(g)
    g.fire_due(g.timers["publish:3"])  # B's identity is published the next round
    assert any(f"{b}号 {g.p(b).alias}：游侠" in t for t in g.says("group"))


def test_huan_hun_on_b_undoes_the_move_a_stays_dead_section_5_black_8():
    g = at_round(3)
    yh, hh, lh = g.seats_of("yi_hun")[0], g.seats_of("huan_hun")[0], g.seats_of("lianhe_sha")[0]
    a, b = g.seats_of("you_xia")[:2]
    post_in_round(g, lh, a)
    g.cmd(yh, "soul_move", src=a, dst=b, text=essay(520, "移"))
    g.cmd(hh, "soul_back", target=b, text=essay(820, "还"))
    publish(g, 3)
    assert not g.p(a).alive and g.p(b).alive
    # both texts go out with the posts (§五黑8: 移魂和还魂名单…由哨群同时公布)
    assert any(t.startswith("【第3轮还魂贴】") for t in g.says("group"))
    assert any(t.startswith("【第3轮移魂贴】") for t in g.says("group"))


def test_huan_hun_on_c_fails_b_still_out_c_untouched_section_5_black_8():
    g = at_round(2)
    yh, hh, lh = g.seats_of("yi_hun")[0], g.seats_of("huan_hun")[0], g.seats_of("lianhe_sha")[0]
    a, b, c = g.seats_of("you_xia")[:3]
    post_in_round(g, lh, a)
    g.cmd(yh, "soul_move", src=a, dst=b, text=essay(520, "移"))
    g.cmd(hh, "soul_back", target=c, text=essay(820, "还"))
    publish(g, 2)
    assert g.p(a).alive and not g.p(b).alive and g.p(c).alive
    assert any("还魂未生效" in h for h in g.says("hosts"))


def test_move_of_a_player_not_post_killed_does_nothing_section_5_white_4():
    g = at_round(2)
    yh = g.seats_of("yi_hun")[0]
    a, b = g.seats_of("you_xia")[:2]
    g.host("set_round", round=2, votes=1, out=0, posts="无")
    g.cmd(yh, "soul_move", src=a, dst=b, text=essay(520, "移"))
    publish(g, 2)
    assert g.p(a).alive and g.p(b).alive
    assert not any(t.startswith("【第2轮移魂贴】") for t in g.says("group"))


def test_bad_soul_commands_are_refused_and_change_nothing_section_5_white_4_black_8():
    g = at_round(1)
    yh, hh = g.seats_of("yi_hun")[0], g.seats_of("huan_hun")[0]
    a, b = g.seats_of("you_xia")[:2]
    with pytest.raises(Rejected, match="只能在第2、3轮使用（§五白4）"):
        g.cmd(yh, "soul_move", src=a, dst=b, text=essay(520))
    g = at_round(2)
    before = g.state.souls
    with pytest.raises(Rejected, match="不能移魂自己"):
        g.cmd(yh, "soul_move", src=yh, dst=b, text=essay(520))
    with pytest.raises(Rejected, match="不足 500"):
        g.cmd(yh, "soul_move", src=a, dst=b, text=essay(300))
    with pytest.raises(Rejected, match="不能还魂自己"):
        g.cmd(hh, "soul_back", target=hh, text=essay(820))
    with pytest.raises(Rejected, match="不足 800"):
        g.cmd(hh, "soul_back", target=a, text=essay(600))
    with pytest.raises(Rejected, match="没有移魂的权利"):
        g.cmd(a, "soul_move", src=b, dst=hh, text=essay(520))
    assert g.state.souls == before
    g.fire("posts_due:2")
    with pytest.raises(Rejected, match="已超时，视为放弃"):
        g.cmd(yh, "soul_move", src=a, dst=b, text=essay(520))
    g = at_round(2)
    g.host("out", player=hh, reason="测试")
    with pytest.raises(Rejected, match="你已出局，还魂功能失效"):
        g.cmd(hh, "soul_back", target=a, text=essay(820))


def test_after_round_3_yi_hun_is_a_you_xia_and_huan_hun_a_lianhe_sha_section_5():
    g = at_round(4)
    yh = g.seats_of("you_xia", living=False)
    assert not g.seats_of("yi_hun") and not g.seats_of("huan_hun")
    hh = next(s for s in g.seats_of("lianhe_sha") if g.p(s).dealt == "huan_hun")
    assert any("转为联合杀" in t for t in g.says(hh))
    assert "联合杀：" in g.says(hh)[-1]
    assert any(g.p(s).dealt == "yi_hun" for s in yh)
    g.host("set_round", round=4, votes=1, out=0, posts="联1")
    g.submit_post(hh, g.seats_of("you_xia")[0])  # 还魂 now posts as a 联合杀
    assert g.state.posts[-1].group == "联"


def test_unions_are_told_privately_section_8():
    g = at_round(2)
    d1, d2 = g.seats_of("lianhe_dan")
    yh, fh = g.seats_of("yi_hun")[0], g.seats_of("fu_huo")[0]
    g.host("out", player=d1, reason="测试")
    assert not any("联合（§八.2）" in t for t in g.says(yh))
    g.host("out", player=d2, reason="测试")
    for s in (d1, d2, yh, fh):
        assert any("联合（§八.2）" in t for t in g.says(s)), s
    assert not any("联合（" in t for t in g.says("group"))
    yj = g.seats_of("yin_jian")[0]
    lj = g.seats_of("lianhe_jian")
    g.host("out", player=yj, reason="测试")
    for s in [yj] + lj:
        assert any(("联合（§八.1）" in t and "隐剑" in t) or "联合剑" in t for t in g.says(s)), s


def test_host_private_message_is_logged():
    g = at_round(1)
    x = g.seats_of("you_xia")[0]
    out = g.host("dm", player=x, text="请注意投票时间")
    assert [e.to for e in out] == [x, "reply"] and "请注意投票时间" in out[0].text
    assert g.state.dms[-1].by == "host" and g.state.dms[-1].seat == x


# ---- 暗号, the give-up line, repeated clauses ----------------------------------------


def test_signal_carriers_find_each_other_by_code_section_5_black_3_7_3():
    g = Game(88, seed="signals")
    carriers = [s for s in g.seats_of("du_sha") if g.p(s).signal]
    assert len(carriers) == 3
    a, b = carriers[:2]
    msg = g.says(a)[0]
    assert all(x in msg for pair in g.state.signals for x in (pair.seek, pair.reply))  # every pair, not only its own
    out = g.cmd(a, "signal", text=g.p(b).signal.seek)
    assert out[0].to == "reply" and f"{b}号" in out[0].text
    assert out[1].to == b and f"{a}号" in out[1].text and g.p(b).signal.reply in out[1].text
    with pytest.raises(Rejected, match="你自己的暗号"):
        g.cmd(a, "signal", text=g.p(a).signal.seek)
    with pytest.raises(Rejected, match="没有这个暗号"):
        g.cmd(a, "signal", text="随便说说")
    with pytest.raises(Rejected, match="你没有暗号"):
        g.cmd(g.seats_of("you_xia")[0], "signal", text=g.p(b).signal.seek)
    gu = g.seats_of("gu_sha")[0]
    assert g.cmd(gu, "signal", text=g.p(a).signal.seek)[1].to == a


def test_give_up_line_lists_silent_authors_by_seat_section_12_9():
    from test_posts import to_round_2

    g = small("giveup-seat")
    to_round_2(g)
    du = g.seats_of("du_sha")
    g.fire("posts_due:2")  # 联1 独2: every silent author in code order goes out
    line = [t for t in g.says("group") if "未交杀帖" in t][-1]
    out = [int(x.split("号")[0]) for x in line.split("。")[1].split(" 未交杀帖")[0].split("、")]
    assert out == sorted(out) and len(out) == 3 and set(out) <= set(du) | set(g.seats_of("lianhe_sha", living=False))


def test_comma_chained_clause_repeats_are_caught_section_12_2():
    from plugins.mafia88.engine.rules_posts import measure_text

    clause = "我沿着河岸慢慢走过看见远山的灯火"
    text = "，".join([clause] * 20) + "。" + essay(600)
    fig = measure_text(text)
    assert fig.repeat_ratio > 0.3
    g = small()
    gu = g.seats_of("gu_sha")[0]
    g.cmd(gu, "post", code=g.p(gu).code, target=g.seats_of("you_xia")[0], text=text)
    with pytest.raises(Rejected, match="重复句子占"):
        g.cmd(gu, "done")
    assert measure_text(essay(900)).repeated == 0  # a text without repeats still scores 0
