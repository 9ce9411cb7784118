"""Reports (报道, §十一)."""

from __future__ import annotations

import pytest
from mafia88_helpers import essay, small

from plugins.gamekit.contract import Eliminate, Rejected


def close_round_1(g):
    gu = g.seats_of("gu_sha")[0]
    yx = g.seats_of("you_xia")
    g.submit_post(gu, yx[0])
    g.fire_due()
    g.vote_all([yx[-1]], 1)
    return g.fire("phase")


def test_report_is_counted_at_once_11_1():
    g = small()
    reply = g.cmd(1, "report", private=False, text=essay(301))
    assert reply[0].to == "reply"
    assert "字数" in reply[0].text and "合格" in reply[0].text and "不合格" not in reply[0].text


def test_short_report_must_be_fixed_before_round_1_ends_11_2():
    g = small()
    g.report_all()
    short = g.seats_of("you_xia")[2]
    fixed = g.seats_of("you_xia")[3]
    for s in (short, fixed):
        reply = g.cmd(s, "report", private=False, text=essay(200))
        assert "不合格" in reply[0].text and "不足 301" in reply[0].text and "/报道" in reply[0].text
    g.cmd(fixed, "report", private=False, text=essay(320, "补"))
    effects = close_round_1(g)
    outs = {e.seat: e.reason for e in effects if isinstance(e, Eliminate)}
    assert "报道" in outs[short]
    assert fixed not in outs


def test_quotes_over_10_percent_fail_the_report_11_1():
    g = small()
    reply = g.cmd(1, "report", private=False, text="「" + essay(60, "引") + "」" + essay(310))
    assert "引用占" in reply[0].text


def test_a_missing_report_is_out_after_round_1():
    g = small()
    silent = g.seats_of("you_xia")[2]
    for s in sorted(g.alive()):
        if s != silent:
            g.cmd(s, "report", private=False, text=essay(320, f"{s}"))
    effects = close_round_1(g)
    outs = {e.seat: e.reason for e in effects if isinstance(e, Eliminate)}
    assert "报道" in outs[silent]
    assert [s for s, why in outs.items() if "报道" in why] == [silent]


def test_rejected_report_must_be_redone_at_601_11_3():
    g = small()
    g.report_all()
    s = g.seats_of("you_xia")[2]
    effects = g.host("reject_report", player=s, reason="像会议记录")
    assert any(e.to == s and "601" in e.text and "像会议记录" in e.text for e in effects)
    reply = g.cmd(s, "report", private=False, text=essay(400, "重"))
    assert "不足 601" in reply[0].text
    reply = g.cmd(s, "report", private=False, text=essay(620, "重"))
    assert "合格" in reply[0].text and "不合格" not in reply[0].text
    effects = close_round_1(g)
    assert s not in [e.seat for e in effects if isinstance(e, Eliminate)]


def test_rejected_report_not_redone_is_out_11_3():
    g = small()
    g.report_all()
    s = g.seats_of("you_xia")[2]
    g.host("reject_report", player=s, reason="菜谱")
    effects = close_round_1(g)
    assert s in [e.seat for e in effects if isinstance(e, Eliminate)]


def test_reports_close_with_round_1_11_2():
    g = small()
    g.report_all()
    close_round_1(g)
    with pytest.raises(Rejected, match="报道已截止"):
        g.cmd(g.alive()[0], "report", text=essay(320))
    with pytest.raises(Rejected, match="第1轮已结束"):
        g.host("reject_report", player=g.alive()[0], reason="x")


def test_valid_report_is_posted_in_the_group_under_the_alias_11():
    """§十一 跟帖报道: once counted, a valid report goes to the group under the alias."""
    g = small()
    out = g.cmd(1, "report", text=essay(320, "跟帖"))
    group = [e.text for e in out if getattr(e, "to", None) == "group"]
    assert len(group) == 1 and group[0].startswith("【1号 ") and "报道】" in group[0]
    out = g.cmd(2, "report", text=essay(120, "短"))
    assert not [e for e in out if getattr(e, "to", None) == "group"]  # a failing one is not posted


def test_overlong_report_is_refused_and_changes_nothing():
    g = small()
    with pytest.raises(Rejected, match="报道太长"):
        g.cmd(1, "report", text=essay(3100, "长"))
    assert g.state.players[1].report is None


def test_the_state_keeps_a_reports_length_verdict_and_text_not_its_figures_11_1():
    """Small states: every later write of the game carries the state, so a 报道 leaves what the
    rules decide on (§十一.1/2: valid or not, the minimum, a host's rejection), its length for the
    hosts' sheet and its text, which the originality check of later texts compares with (§十一.1
    原创首发) and which the kernel keeps in a row of its own (TEXTS), not in the state's JSON; the
    reply already gave the figures."""
    from plugins.mafia88.engine import ENGINE

    g = small()
    text = essay(330)
    g.cmd(1, "report", private=False, text=text)
    rep = g.state.players[1].report
    stored = ENGINE.encode(g.state)
    assert set(stored["players"]["1"]["report"]) == {"chars", "ok", "need", "rejected", "seq", "at", "note", "text"}
    assert ("players", "*", "report", "text") in ENGINE.TEXTS and rep.text == text
    assert rep.ok is True and rep.need == 301 and rep.chars == len(text)
    row = ENGINE.tables(g.state, settings=g.settings)["身份"][1]
    assert row[0] == 1 and row[9] == len(text) and row[10] == "是"
    # a game stored before the change keeps the length in the report's figures: still on the sheet
    stored["version"] = 2
    stored["players"]["1"]["report"] = {"text": "", "figures": {"chars": 412}, "ok": True, "need": 301,
                                        "rejected": False, "seq": 1, "at": rep.at, "note": ""}
    old = ENGINE.decode(stored)
    assert old.players[1].report.chars == 412
    assert ENGINE.tables(old, settings=g.settings)["身份"][1][9] == 412


def test_a_report_rejected_before_it_was_sent_has_no_length_on_the_sheet_11_3():
    from plugins.mafia88.engine import ENGINE

    g = small()
    g.host("reject_report", player=2, reason="不是报道")
    rep = g.state.players[2].report
    assert rep.ok is False and rep.rejected is True and rep.chars is None
    assert ENGINE.tables(g.state, settings=g.settings)["身份"][2][9] == ""
