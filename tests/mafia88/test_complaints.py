"""Complaints (§十四, §十二.6/7, §十一.3): a game alias files /投诉 privately, the bot posts it in the
group under that alias within the seed's deadline; hosts list them and rule with one command whose
outcome the seed fixes, published under aliases only."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from mafia88_helpers import essay, small

from plugins.gamekit.contract import Eliminate, Rejected, Restore

SH = ZoneInfo("Asia/Shanghai")


def local(day: int, hhmm: str) -> datetime:
    h, m = map(int, hhmm.split(":"))
    return datetime(2026, 12, day, h, m, tzinfo=SH)


def published_post(**settings):
    """A small game whose round-1 post by the 孤杀 is published (12:30 on 1 Dec; the vote closes at 21:00)."""
    g = small(**settings)
    gu = g.seats_of("gu_sha")[0]
    target = g.seats_of("you_xia")[0]
    pid = g.submit_post(gu, target)
    g.host("approve", post=pid)
    g.fire_due(g.timers["publish:1"])
    assert not g.p(target).alive
    return g, gu, target, pid


def end_round_1(g) -> None:
    """Reports, everyone votes one 游侠 out, the vote closes at 21:00 on 1 Dec."""
    if g.state.players[1].report is None:
        g.report_all()
    g.vote_all([g.seats_of("you_xia")[-1]])
    g.close_round()
    assert g.state.round == 2


def no_qq_in(text: str) -> bool:
    return "u1" not in text and not any(f"u{n}" in text for n in range(2, 14))


def test_a_complaint_is_posted_in_the_group_under_the_alias_with_its_deadline_section_14_1_14_2():
    g, gu, target, pid = published_post()
    me = g.seats_of("you_xia")[1]
    out = g.cmd(me, "complain", ref=f"#{pid}", reason="整段抄自某某旧作")
    group = g.says("group", out)
    assert len(group) == 1 and group[0].startswith("【投诉 #1】") and f"{me}号 玩家{me} 投诉 #{pid}" in group[0]
    assert "整段抄自某某旧作" in group[0] and g.p(gu).code in group[0]
    assert f"{gu}号" not in group[0] and no_qq_in(group[0])  # the author stays secret; no QQ account
    reply = g.says("reply", out)[0]
    assert "12月1日 18:00" in reply  # §十四.1: three hours before the round's 21:00 vote close
    assert g.timers["complaint:1"] == local(1, "18:00")
    hosts = g.says("hosts", out)[0]
    assert f"作者 {gu}号 玩家{gu}" in hosts and "/裁决 1" in hosts


def test_who_may_complain_and_until_when_section_14_1_14_4():
    g, gu, target, pid = published_post()
    out = g.cmd(target, "complain", ref=str(pid), reason="我被贴了，这帖是旧作")  # out players are still game aliases
    assert g.says("group", out)
    with pytest.raises(Rejected, match="不是本局玩家"):  # §十四.4: no outsiders
        g.cmd(None, "complain", ref=str(pid), reason="路过")
    with pytest.raises(Rejected, match="理由"):
        g.cmd(target, "complain", ref=str(pid))
    with pytest.raises(Rejected, match="没有 #9"):
        g.cmd(target, "complain", ref="9", reason="x")
    g.now = local(1, "18:00")
    with pytest.raises(Rejected, match=r"投诉期已过（12月1日 18:00）.*§十四.1"):
        g.cmd(target, "complain", ref=str(pid), reason="晚了")
    assert len(g.state.complaints) == 1


def test_a_post_not_yet_published_cannot_be_complained_about_section_14_2():
    g = small()
    gu = g.seats_of("gu_sha")[0]
    pid = g.submit_post(gu, g.seats_of("you_xia")[0])
    with pytest.raises(Rejected, match="还没有公布"):
        g.cmd(g.seats_of("you_xia")[1], "complain", ref=str(pid), reason="抄袭")


def test_the_next_day_reading_of_section_12_6_is_a_setting():
    g, gu, target, pid = published_post(complaints={"post_rule": "next_day"})
    out = g.cmd(target, "complain", ref=str(pid), reason="旧作")
    assert "12月2日 18:00" in g.says("reply", out)[0]  # §十二.6: 18:00 the day after it was published


def test_ruling_not_original_puts_the_author_out_and_brings_the_target_back_section_12_6_14_6():
    g, gu, target, pid = published_post()
    g.cmd(g.seats_of("you_xia")[1], "complain", ref=str(pid), reason="旧作")
    with pytest.raises(Rejected, match="非原创、非首发、重写、驳回"):
        g.host("rule", complaint=1, result="成立")
    out = g.host("rule", complaint=1, result="非原创", reason="与某某旧作雷同")
    assert [e.seat for e in out if isinstance(e, Eliminate)] == [gu]
    assert [e.seat for e in out if isinstance(e, Restore)] == [target]
    assert g.p(target).alive and not g.p(gu).alive and g.p(gu).out.cause == "complaint"
    notice = g.says("group", out)[0]
    assert notice.startswith("【投诉 #1 裁决】") and "§十二.6" in notice and f"{gu}号 玩家{gu} 出局" in notice
    assert f"{target}号 玩家{target} 复活" in notice and no_qq_in(notice)
    steps = g.says("hosts", out)[0]
    assert steps.startswith("投诉 #1 裁决结算") and "\n1. " in steps and "\n2. " in steps and "复活" in steps
    assert g.state.posts[pid - 1].status == "void"
    with pytest.raises(Rejected, match="已裁决"):
        g.host("rule", complaint=1, result="驳回")
    listing = g.host("complaints")[0].text
    assert "#1 " in listing and "投诉期至 12月1日 18:00" in listing and "成立：非原创或非首发" in listing


def test_ruling_rewrite_after_the_white_slip_due_gets_a_due_of_its_own_section_12_7():
    g, gu, target, pid = published_post(complaints={"post_rule": "next_day"})
    g.cmd(target, "complain", ref=str(pid), reason="字数不够，引用过多")
    end_round_1(g)
    g.fire_due(g.timers["white:1"])  # 12:00 on 2 Dec: the round's white-slip due has passed
    g.now = local(2, "14:00")
    out = g.host("rule", complaint=1, result="重写", reason="引用超过10%")
    assert g.state.posts[pid - 1].status == "rejected"
    assert g.timers[f"redo:{pid}"] == local(3, "12:00")
    assert any("12月3日 12:00" in t and "/重写" in t for t in g.says(gu, out))
    assert "§十二.7" in g.says("group", out)[0]
    g.fire(f"redo:{pid}")  # not rewritten in time: the author is out, the target back
    assert not g.p(gu).alive and g.p(target).alive


def test_reject_stays_open_while_the_complaint_window_is_open_section_14_1_12_7():
    g, gu, target, pid = published_post(complaints={"post_rule": "next_day"})
    end_round_1(g)
    g.fire_due(g.timers["white:1"])
    g.now = local(2, "13:00")  # after 12:00 next day, before the window's 18:00
    g.host("reject", post=str(pid), reason="经投诉核实体裁不合格")
    assert g.state.posts[pid - 1].status == "rejected" and f"redo:{pid}" in g.timers
    g2, _, _, pid2 = published_post(complaints={"post_rule": "next_day"})
    end_round_1(g2)
    g2.fire_due(g2.timers["white:1"])
    g2.now = local(2, "18:00")
    with pytest.raises(Rejected, match="12月2日 18:00"):
        g2.host("reject", post=str(pid2), reason="晚了")


def test_a_report_complaint_in_round_1_asks_for_601_characters_section_11_3():
    g = small()
    a, b = g.seats_of("you_xia")[:2]
    g.cmd(a, "report", text=essay(330, "甲"))
    out = g.cmd(b, "complain", ref=f"报道{a}", reason="这是会议记录，不是报道")
    assert f"投诉 报道{a}（{a}号 玩家{a} 的报道）" in g.says("group", out)[0]
    out = g.host("rule", complaint=1, result="成立", reason="会议记录体")
    assert "601" in g.says("group", out)[0] and "§十一.3" in g.says("group", out)[0]
    assert any("601" in t for t in g.says(a, out))
    assert g.p(a).report.ok is False and g.p(a).report.need == 601


def test_a_report_complaint_after_round_1_puts_the_reporter_out_until_15_00_next_day_section_11_3_14_1():
    g = small()
    a, b = g.seats_of("you_xia")[:2]
    end_round_1(g)  # round 1's vote closed at 21:00 on 1 Dec: reports until 15:00 on 2 Dec
    assert datetime.fromisoformat(g.state.reports_until) == local(2, "15:00")
    g.cmd(b, "complain", ref=f"报道{a}", reason="抄袭")
    out = g.host("rule", complaint=1, result="成立")
    assert not g.p(a).alive and "§十一.3" in g.says("group", out)[0]
    g.now = local(2, "15:00")
    with pytest.raises(Rejected, match="12月2日 15:00"):
        g.cmd(b, "complain", ref=f"报道{b}", reason="晚了")


def test_a_dismissed_complaint_is_published_and_changes_nothing_section_14_3_14_6():
    g, gu, target, pid = published_post()
    g.cmd(target, "complain", ref=str(pid), reason="我不服")
    out = g.host("rule", complaint=1, result="驳回", reason="未见抄袭")
    assert g.says("group", out) == ["【投诉 #1 裁决】不成立（未见抄袭）。"]
    assert g.p(gu).alive and not g.p(target).alive


def test_hosts_are_reminded_of_an_open_complaint_when_its_window_closes_section_14_1():
    g, gu, target, pid = published_post()
    g.cmd(target, "complain", ref=str(pid), reason="旧作")
    out = g.fire("complaint:1")
    assert any("仍待裁决" in t and "#1 " in t for t in g.says("hosts", out))
