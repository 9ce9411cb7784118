"""Kill posts (§十二), substitutes (§九) and publication (§五, §六.2)."""

from __future__ import annotations

import pytest
from mafia88_helpers import Game, essay, small

from plugins.gamekit.contract import Eliminate, Ignored, Rejected, Restore, Say, SetTimer
from plugins.mafia88.engine import ENGINE


def to_round_2(g: Game) -> None:
    """Finish round 1 with the 孤杀 post and one vote-out, everyone voting."""
    g.report_all()
    gu = g.seats_of("gu_sha")[0]
    yx = g.seats_of("you_xia")
    g.host("approve", post=g.submit_post(gu, yx[0]))
    g.fire_due()
    g.vote_all([yx[1]], 1)
    g.fire("phase")
    assert g.state.round == 2


def test_post_is_drafted_privately_over_several_messages_then_sent_12_4():
    g = small()
    gu = g.seats_of("gu_sha")[0]
    target = g.seats_of("you_xia")[0]
    code = g.p(gu).code
    r1 = g.cmd(gu, "post", code=code, target=target, text=essay(400, "a"))
    assert "已收" in r1[0].text and r1[0].to == "reply"
    r2 = g.cmd(gu, "text", text=essay(450, "b"))
    assert "累计" in r2[0].text
    done = g.cmd(gu, "done")
    hosts = [e.text for e in done if isinstance(e, Say) and e.to == "hosts"]
    assert "字数" in done[0].text and "#1" in done[0].text
    assert hosts and "/通过 1" in hosts[0] and code in hosts[0]
    assert not [e for batch in g.log[1:] for e in batch if isinstance(e, Say) and e.to == "group"]
    assert g.state.posts[0].status == "pending"


def test_short_post_is_refused_with_the_figures_and_the_draft_stays_12_2():
    g = small()
    gu = g.seats_of("gu_sha")[0]
    g.cmd(gu, "post", code=g.p(gu).code, target=g.seats_of("you_xia")[0], text=essay(700))
    with pytest.raises(Rejected, match="不足 801") as exc:
        g.cmd(gu, "done")
    assert "字数" in str(exc.value)
    g.cmd(gu, "text", text=essay(150, "补"))
    g.cmd(gu, "done")
    assert len(g.state.posts) == 1


@pytest.mark.parametrize(
    "text,reason",
    [
        ("“" + essay(100, "引") + "”" + essay(820), "引用占"),
        (essay(500) + essay(500), "重复句子"),
        (essay(850) + "這裡有繁體字", "繁体字"),
    ],
)
def test_measurable_checks_refuse_a_post_12_2(text, reason):
    g = small()
    gu = g.seats_of("gu_sha")[0]
    g.cmd(gu, "post", code=g.p(gu).code, target=g.seats_of("you_xia")[0], text=text)
    with pytest.raises(Rejected, match=reason):
        g.cmd(gu, "done")
    assert g.state.posts == []


def test_bad_post_commands_are_refused_12():
    g = small()
    gu = g.seats_of("gu_sha")[0]
    yx = g.seats_of("you_xia")
    du = g.seats_of("du_sha")[0]
    g.host("out", player=yx[1], reason="测试")
    cases = [
        (gu, {"code": "别人的", "target": yx[0]}, "代号不对"),
        (yx[0], {"code": "我服了", "target": yx[2]}, "没有贴杀权"),
        (g.seats_of("an_dan")[0], {"code": "他在哪", "target": yx[2]}, "没有贴杀权"),
        (gu, {"code": g.p(gu).code, "target": yx[1]}, "已出局"),
        (du, {"code": g.p(du).code, "target": yx[2]}, "没有贴杀任务"),
    ]
    for seat, args, msg in cases:
        with pytest.raises(Rejected, match=msg):
            g.cmd(seat, "post", **args)
    assert g.state.drafts == {}


def test_quota_and_one_post_per_author_10():
    g = small()
    to_round_2(g)
    du = g.seats_of("du_sha")
    targets = g.seats_of("you_xia")
    g.submit_post(du[0], targets[0])
    g.submit_post(du[1], targets[1])
    with pytest.raises(Rejected, match="已满"):
        g.cmd(du[2], "post", code=g.p(du[2]).code, target=targets[2])
    with pytest.raises(Rejected, match="已交贴"):
        g.cmd(du[0], "post", code=g.p(du[0]).code, target=targets[2])


def test_post_after_the_due_time_is_refused_12_4():
    g = small()
    gu = g.seats_of("gu_sha")[0]
    g.now = g.timers["posts_due:1"]
    with pytest.raises(Rejected, match="交贴已截止（12:00）"):
        g.cmd(gu, "post", code=g.p(gu).code, target=g.seats_of("you_xia")[0])


def test_plain_text_without_a_draft_is_ignored():
    g = small()
    with pytest.raises(Ignored):
        g.cmd(1, "text", text="你好")


def test_missing_posts_put_silent_authors_out_in_code_name_order_12_9():
    g = small()
    to_round_2(g)
    du = g.seats_of("du_sha")
    by_code = sorted(du, key=lambda s: g.settings.roles[10].codes.index(g.p(s).code))
    # round 2 needs 独2: the last in code order posts, the first silent one goes out
    g.submit_post(by_code[-1], g.seats_of("you_xia")[0])
    lianhe = g.seats_of("lianhe_sha")
    g.submit_post(lianhe[0], g.seats_of("you_xia")[1])
    effects = g.fire("posts_due:2")
    outs = [e for e in effects if isinstance(e, Eliminate)]
    assert [e.seat for e in outs] == [by_code[0]]
    assert "放弃贴杀" in outs[0].reason
    assert "未交杀帖" in g.says("group", effects)[0]


def test_substitute_posts_when_the_group_is_short_9_1():
    g = small()
    to_round_2(g)
    lianhe = g.seats_of("lianhe_sha")
    for s in lianhe:
        g.host("out", player=s, reason="测试")
    gu = g.seats_of("gu_sha")[0]
    g.submit_post(gu, g.seats_of("you_xia")[0])
    assert g.state.posts[-1].group == "联"


def test_publication_posts_the_text_with_code_and_target_and_kills_once():
    g = small()
    to_round_2(g)
    lianhe = g.seats_of("lianhe_sha")[0]
    du = g.seats_of("du_sha")[:2]
    yx = g.seats_of("you_xia")
    for author, target in ((lianhe, yx[0]), (du[0], yx[1]), (du[1], yx[1])):
        g.host("approve", post=g.submit_post(author, target))
    g.fire("posts_due:2")
    effects = g.fire("publish:2")
    texts = g.says("group", effects)
    assert sum(1 for t in texts if t.startswith("【第2轮杀帖｜代号")) == 3
    assert any(f"代号 {g.p(lianhe).code}】目标：{yx[0]}号 玩家{yx[0]}" in t for t in texts)
    kills = [e.seat for e in effects if isinstance(e, Eliminate)]
    assert sorted(kills) == sorted([yx[0], yx[1]])  # two posts on one target: one death
    # identities of round 1's dead are published with round 2 (§五)
    summary = texts[-1]
    assert "第1轮出局者身份" in summary and "游侠（白方）" in summary
    assert any(isinstance(e, SetTimer) and e.key == "white:2" for e in effects)


def test_rejected_post_must_be_rewritten_by_noon_or_author_out_target_back_12_7():
    g = small()
    gu = g.seats_of("gu_sha")[0]
    target = g.seats_of("you_xia")[0]
    pid = g.submit_post(gu, target)
    effects = g.host("reject", post=pid, reason="体裁不合格")
    private = [e.text for e in effects if e.to == gu][0]
    assert "体裁不合格" in private and "/重写 1" in private and "1200" in private
    effects = g.fire("publish:1")
    assert any(isinstance(e, Eliminate) and e.seat == target for e in effects)  # the kill stands for now
    assert "正文待补" in g.says("group", effects)[-1]
    g.now = g.timers["white:1"]
    effects = g.fire("white:1")
    assert [e.seat for e in effects if isinstance(e, Eliminate)] == [gu]
    assert [e.seat for e in effects if isinstance(e, Restore)] == [target]
    assert g.p(target).alive and not g.p(gu).alive


def test_rewrite_needs_1200_and_saves_the_author_12_7():
    g = small()
    gu = g.seats_of("gu_sha")[0]
    target = g.seats_of("you_xia")[0]
    pid = g.submit_post(gu, target)
    g.host("reject", post=pid, reason="原创存疑")
    g.cmd(gu, "rewrite", post=pid, text=essay(1000, "新"))
    with pytest.raises(Rejected, match="不足 1200"):
        g.cmd(gu, "done")
    g.cmd(gu, "text", text=essay(300, "再"))
    g.cmd(gu, "done")
    assert g.state.posts[0].status == "pending"
    g.fire("publish:1")
    g.fire("white:1")
    assert g.p(gu).alive and not g.p(target).alive


def test_white_slip_kills_now_and_its_text_is_due_next_noon_12_4():
    g = small()
    gu = g.seats_of("gu_sha")[0]
    target = g.seats_of("you_xia")[0]
    reply = g.cmd(gu, "white", code=g.p(gu).code, target=target)
    assert "12月2日 12:00" in reply[0].text
    effects = g.fire("publish:1")
    assert any(isinstance(e, Eliminate) and e.seat == target for e in effects)
    assert g.timers["white:1"].isoformat().startswith("2026-12-02T04:00")
    effects = g.fire("white:1")
    assert not g.p(gu).alive and g.p(target).alive
    assert "未按时补交" in g.says("group", effects)[0]


def test_white_slip_delivered_in_time_keeps_the_kill_12_4():
    g = small()
    gu = g.seats_of("gu_sha")[0]
    target = g.seats_of("you_xia")[0]
    g.cmd(gu, "white", code=g.p(gu).code, target=target)
    g.fire("publish:1")
    g.cmd(gu, "rewrite", post=1, text=essay(1250))
    g.cmd(gu, "done")
    effects = g.host("approve", post=1)
    assert any(t.startswith("【第1轮补发") for t in g.says("group", effects))
    g.fire("white:1")
    assert g.p(gu).alive and not g.p(target).alive


def test_no_white_slip_in_the_final_round_12_8():
    g = small(rounds=[{"votes": 2, "out": 1, "posts": {"孤杀": 1}}])
    gu = g.seats_of("gu_sha")[0]
    with pytest.raises(Rejected, match="不允许白条"):
        g.cmd(gu, "white", code=g.p(gu).code, target=g.seats_of("you_xia")[0])


def test_hosts_list_show_and_judge_posts():
    g = small()
    gu = g.seats_of("gu_sha")[0]
    pid = g.submit_post(gu, g.seats_of("you_xia")[0])
    listing = g.host("posts")[0].text
    assert f"#{pid}" in listing and "待审" in listing and "字数" in listing
    assert essay(10, f"{gu}号") in g.host("show", post=pid)[0].text
    with pytest.raises(Rejected, match="只有哨子"):
        g.cmd(gu, "approve", post=pid)
    g.host("approve", post=pid)
    with pytest.raises(Rejected, match="已通过"):
        g.host("approve", post=pid)
    with pytest.raises(Rejected, match="没有 #9"):
        g.host("show", post=9)


def test_pending_posts_are_held_when_auto_approve_is_off():
    g = small(options={"auto_approve_pending": False})
    gu = g.seats_of("gu_sha")[0]
    target = g.seats_of("you_xia")[0]
    pid = g.submit_post(gu, target)
    effects = g.fire("publish:1")
    assert not any(t.startswith("【第1轮杀帖｜") for t in g.says("group", effects))
    assert "正文待哨子审核" in g.says("group", effects)[-1]
    assert not g.p(target).alive
    effects = g.host("approve", post=pid)
    assert any(t.startswith("【第1轮补发") for t in g.says("group", effects))


def test_my_posts_lists_status():
    g = small()
    gu = g.seats_of("gu_sha")[0]
    g.submit_post(gu, g.seats_of("you_xia")[0])
    assert "待审" in g.cmd(gu, "mine")[0].text
    assert "/出贴 <代号> <目标>" in ENGINE.private_info(g.state, gu, settings=g.settings)
    assert "/出贴" not in ENGINE.private_info(g.state, g.seats_of("you_xia")[0], settings=g.settings)


def test_open_drafts_lapse_at_the_due_time_and_can_be_dropped_12_4():
    g = small()
    gu = g.seats_of("gu_sha")[0]
    with pytest.raises(Rejected, match="没有未完成的草稿"):
        g.cmd(gu, "drop")
    g.cmd(gu, "post", code=g.p(gu).code, target=g.seats_of("you_xia")[0], text=essay(100))
    assert "草稿已作废" in g.cmd(gu, "drop")[0].text
    g.cmd(gu, "post", code=g.p(gu).code, target=g.seats_of("you_xia")[0], text=essay(100))
    effects = g.fire("posts_due:1")
    assert any(e.to == gu and "草稿已作废" in e.text for e in effects if isinstance(e, Say))
    assert g.state.drafts == {}
    assert not g.p(gu).alive  # no post sent: giving up (§十二.9)


def test_yin_jian_posts_for_the_swords_only_when_both_are_out_9_3():
    g = Game(seed="swords")
    g.report_all()
    gu = g.seats_of("gu_sha")[0]
    g.host("approve", post=g.submit_post(gu, g.seats_of("you_xia")[0]))
    g.fire_due()
    g.vote_all(g.seats_of("you_xia")[1:4])
    g.close_round()
    yj = g.seats_of("yin_jian")[0]
    g.submit_post(yj, g.seats_of("you_xia")[0])
    assert g.state.posts[-1].group == "隐剑"
    g.host("out", player=g.seats_of("lianhe_jian")[0], reason="测试")
    with pytest.raises(Rejected):
        g.cmd(yj, "post", code=g.p(yj).code, target=g.seats_of("you_xia")[1])
    from plugins.mafia88.engine.rules_posts import tier_for

    assert tier_for(g.state, g.settings, "剑", yj, 1) is None
    g.host("out", player=g.seats_of("lianhe_jian")[0], reason="测试")
    assert tier_for(g.state, g.settings, "剑", yj, 1) == 1


def test_di_lei_substitutes_only_as_the_last_black_9_2():
    from plugins.mafia88.engine.rules_posts import tier_for

    g = Game(seed="dilei")
    dl = g.seats_of("di_lei")[0]
    from plugins.mafia88.engine.model import faction

    blacks = [s for s in sorted(g.alive()) if faction(g.state, g.settings, s) == "black"]
    others = [s for s in blacks if s != dl]
    for s in others[:-1]:
        g.host("out", player=s, reason="测试")
    assert tier_for(g.state, g.settings, "杀", dl, 2) is None
    g.host("out", player=others[-1], reason="测试")
    assert g.state.step == "round"  # 地雷 still holds a full vote
    assert tier_for(g.state, g.settings, "杀", dl, 2) == 2


def test_rounds_beyond_the_table_are_overtime_without_white_slips_12_8():
    g = small(rounds=[{"votes": 2, "out": 1, "posts": {"孤杀": 1}}, {"votes": 2, "out": 1, "posts": {"杀": 1}}])
    g.report_all()
    yx = g.seats_of("you_xia")
    gu = g.seats_of("gu_sha")[0]
    g.cmd(gu, "white", code=g.p(gu).code, target=yx[0])
    g.fire_due()
    g.vote_all([yx[1]], 1)
    g.fire("phase")
    killer = g.seats_of("lianhe_sha")[0]
    with pytest.raises(Rejected, match="不允许白条"):
        g.cmd(killer, "white", code=g.p(killer).code, target=yx[2])
    g.submit_post(killer, yx[2])
    g.fire_due()
    g.vote_all([yx[3]], 1)
    effects = g.fire("phase")
    assert "（加时决胜轮）" in g.says("group", effects)[-1]
    assert g.state.round == 3


def test_an_early_close_runs_the_posts_due_and_publication_first():
    g = small()
    g.report_all()
    gu = g.seats_of("gu_sha")[0]
    target = g.seats_of("you_xia")[0]
    g.submit_post(gu, target)
    g.vote_all([g.seats_of("you_xia")[1]], 1)  # the target votes before being killed
    effects = g.fire("phase")  # a host advanced the close (/推进)
    texts = g.says("group", effects)
    assert texts[0].startswith("第1轮交贴截止") and any(t.startswith("【第1轮杀帖｜") for t in texts)
    assert texts.index(next(t for t in texts if t.startswith("【第1轮结果】"))) > 1
    assert not g.p(target).alive and g.state.round == 2


def test_the_desks_hand_in_sends_the_edited_text_not_the_old_draft_12_2():
    """§十二.2 the figures are the handed-in text's: the desk's 交贴 replaces the draft's text with the
    editor's whole text; its answers name the desk's buttons, not chat commands."""
    g = small()
    gu = g.seats_of("gu_sha")[0]
    target = g.seats_of("you_xia")[0]
    g.cmd(gu, "post", code=g.p(gu).code, target=target, text=essay(449, "旧"))
    with pytest.raises(Rejected, match="不足 801") as refused:
        g.cmd(gu, "hand_in", text=essay(449, "旧"))
    assert "点「交贴」" in str(refused.value) and "/完成" not in str(refused.value) and "/撤稿" not in str(refused.value)
    new = essay(878, "新")
    out = g.cmd(gu, "hand_in", text=new)
    assert "杀帖已交（#1）" in out[0].text and f"字数 {len(new)}" in out[0].text
    assert g.state.posts[0].text == new and gu not in g.state.drafts
    with pytest.raises(Rejected, match="点「交贴」"):  # no draft: say what to do on the desk
        g.cmd(gu, "hand_in", text=new)
