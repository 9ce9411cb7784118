"""A referee's night without traps — demotion that really takes a player out of
the ranking (§五/§十.2/§十.3), deductions taken back (/撤销, §八 改判), §七.3 for violations
entered after the sheet, /评选, a match day opened late (§五), sheet checks and notes
(§六（二）), /录分模板, the registration view (§十.1) and the violations catalogue (§十三)."""

from __future__ import annotations

import re

import pytest
from helpers_league import League, at, board_roles, checkin_all, eliminated, plain_sheet, texts

from plugins.gamekit.contract import Restore, SetTimer
from plugins.league.engine import ENGINE, standings_rows
from plugins.league.engine.standings import rows

DAYS = [{"label": "1月2日", "board": "标准场", "games": 1},
        {"label": "1月3日", "board": "标准场", "games": 1},
        {"label": "1月4日", "board": "标准场", "games": 1}]


def small(n: int = 14, **extra) -> League:
    settings = {"options": {"main_draw": 12},
                "rounds": [{"key": "r1", "name": "第一轮", "players": 12, "groups": 1, "advance": 6,
                            "double_games": [], "days": DAYS}]}
    settings.update(extra)
    return League(n=n, settings=settings)


def row(lg: League, seat: int) -> dict:
    return next(r for r in rows(lg.state, lg.cfg, 0) if r.seat == seat)


def clock(lg: League, date: str) -> None:
    for key, hhmm in (("checkin.late", "18:30"), ("checkin.demote", "18:35"), ("checkin.seat", "18:50")):
        lg.timer(key, at(date, hhmm))


def enter(lg: League, date: str, tokens=None, winner: str = "好人", extra=()) -> int:
    lg.host("score", at(date, "21:00"),
            text=plain_sheet(lg.cfg, "标准场", "A", None, lg.lineup("A"), winner, tokens or {}, extra))
    return lg.state.games[-1].id


def breakdown(lg: League, seat: int, date: str = "1-5") -> str:
    return texts(lg.host("my_points", at(date, "10:00"), player=seat), "reply")[0]


# ---- 1. demotion is real ---------------------------------------------------------------


def day_one_without_5(lg: League) -> None:
    """#5 never checks in: late at 18:30, demoted at 18:35; #13 comes in and checks in."""
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    checkin_all(lg, at("1-2", "18:10"), skip=(5,))
    lg.timer("checkin.late", at("1-2", "18:30"))
    lg.timer("checkin.demote", at("1-2", "18:35"))
    assert 5 not in lg.lineup("A") and 13 in lg.lineup("A")
    lg.player(13, "checkin", at("1-2", "18:40"))
    lg.timer("checkin.seat", at("1-2", "18:50"))


def test_demoted_player_leaves_ranking_and_advancement_5_10_3():
    """A player demoted at 18:35 on day 1 who never plays again is not ranked and cannot
    advance, though 99 points would put them in the top half (a 130-player round)."""
    lg = small()
    day_one_without_5(lg)
    enter(lg, "1-2", winner="狼人")  # the good side (positions 0..7 of the sorted lineup) lose: 97
    r5 = row(lg, 5)
    assert (r5.rank, r5.status, r5.total, r5.games, r5.advance) == (None, "demoted", 99, 0, False)
    assert sum(1 for r in rows(lg.state, lg.cfg, 0) if r.rank) == 12  # the 12 who played
    board = texts(lg.host("standings", at("1-2", "22:00")), "reply")[0]
    assert "— p5（#5） 99（降为替补）" in board
    assert "已降为替补（§五 18:35），不参加本轮排名" in breakdown(lg, 5)
    export = {r[1]: r for r in ENGINE.tables(lg.state, settings=lg.cfg)["积分榜-第一轮"][1:]}
    assert export[5][0] == "" and export[5][-1] == "降为替补" and export[5][-2] == ""


def test_demoted_player_who_plays_again_as_substitute_ranks_on_what_they_played_10_2():
    """§十.2 reading: a demoted player put in again later as a substitute is ranked again,
    on every game they played this round plus the late deduction."""
    lg = small()
    day_one_without_5(lg)
    enter(lg, "1-2")
    lg.host("open_day", at("1-3", "09:00"), date="1-3")
    checkin_all(lg, at("1-3", "18:10"), skip=(6, 7))  # #14 (never demoted) first, then the demoted #5
    lg.timer("checkin.demote", at("1-3", "18:35"))
    assert 14 in lg.lineup("A") and 5 in lg.lineup("A")
    lg.player(5, "checkin", at("1-3", "18:40"))
    lg.player(14, "checkin", at("1-3", "18:40"))
    lg.timer("checkin.seat", at("1-3", "18:50"))
    enter(lg, "1-3")
    r5 = row(lg, 5)
    assert r5.status == "active" and r5.rank is not None and r5.games == 1
    pos = sorted(lg.lineup("A")).index(5)
    assert r5.total == 100 - 1 + (3 if pos < 8 else -3)
    assert row(lg, 6).status == "demoted" and row(lg, 6).rank is None


# ---- 2. every deduction can be taken back -----------------------------------------------


def test_undo_a_violation_restores_points_audits_and_shows_in_my_points_8_13():
    lg = small()
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    checkin_all(lg, at("1-2", "18:10"))
    clock(lg, "1-2")
    gid = enter(lg, "1-2")
    lg.host("violation", at("1-2", "22:00"), player=3, type="贴脸", game=gid)
    assert row(lg, 3).total == 101
    eff = lg.host("undo", at("1-3", "15:00"), id=1, reason="申诉改判")
    assert texts(eff, "reply") == ["已撤销编号 1：p3（#3） 贴脸（局号#1），退回 2 分。"]
    assert texts(eff, 3) == ["裁判撤销了你的违规「贴脸」（编号 1，局号#1），退回 2 分：申诉改判。"]
    assert row(lg, 3).total == 103 and row(lg, 3).parts.violation == 0
    assert "· 违规#1 贴脸（局号#1）-2（已撤销 1月3日 15:00：申诉改判）" in breakdown(lg, 3)  # the league's zone, not UTC
    assert lg.state.audit[-1].action == "撤销" and "申诉改判" in lg.state.audit[-1].detail
    viol = ENGINE.tables(lg.state, settings=lg.cfg)["违规"]
    assert viol[1][-1] == "申诉改判" and viol[1][-2] == "referee"


def test_undo_refusals_change_nothing_8():
    """§八 改判: a deduction is taken back once; the refusal says when, in the league's zone (ctx.tz), not UTC."""
    lg = small()
    lg.host("violation", at("1-2", "10:00"), player=3, type="擦边")
    assert lg.host_rejected("undo", at("1-2", "10:01"), id=9, reason="x") == \
        "没有编号 9 的扣分记录；编号见 /我的积分 或 /导出 的「违规」表。"
    assert lg.host_rejected("undo", at("1-2", "10:01"), id=1) == "请写明撤销理由：/撤销 1 理由（例如 申诉改判）。"
    lg.host("undo", at("1-2", "10:02"), id=1, reason="看错人")
    assert lg.host_rejected("undo", at("1-2", "10:03"), id=1, reason="再撤一次") == \
        "编号 1 已于 1月2日 10:02 撤销（看错人），不能再撤销。"


def test_undo_a_late_deduction_13_1_4():
    lg = small()
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    checkin_all(lg, at("1-2", "18:10"), skip=(4,))
    lg.timer("checkin.late", at("1-2", "18:30"))
    lg.player(4, "checkin", at("1-2", "18:31"))
    vid = lg.state.violations[-1].id
    lg.host("undo", at("1-2", "19:00"), id=vid, reason="签到群卡顿，截图为证")
    assert row(lg, 4).parts.violation == 0


def test_undo_updates_disqualification_counts_and_reinstates_13_3_4():
    """3 medium => out; one of them taken back => back in, at the place still empty."""
    lg = small()
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    checkin_all(lg, at("1-2", "18:10"))
    clock(lg, "1-2")
    gid = enter(lg, "1-2")
    pos = lg.groups()["A"].index(1)
    for t in ("贴脸", "不文明"):
        lg.host("violation", at("1-2", "22:00"), player=1, type=t, game=gid)
    eff = lg.host("violation", at("1-2", "22:10"), player=1, type="情绪", game=gid)
    assert eliminated(eff) == [1] and 1 not in lg.groups()["A"]
    eff = lg.host("undo", at("1-2", "23:00"), id=3, reason="复核录像，非情绪行为")
    assert [e for e in eff if isinstance(e, Restore)] == [Restore(1, "违规扣分已撤销，恢复参赛资格")]
    assert lg.state.players[1].status == "active" and row(lg, 1).rank is not None
    assert lg.groups()["A"].index(1) == pos and len(lg.groups()["A"]) == 12  # the same place
    assert "恢复参赛资格（§十三.3.4 不再满足）" in texts(eff, "group")[0]
    # a fourth light-or-medium later counts again from the live ones: 2 medium + 1 more => out
    eff = lg.host("violation", at("1-3", "10:00"), player=1, type="消极")
    assert eliminated(eff) == [1]


def test_undo_after_the_place_was_refilled_leaves_a_substitute_13_3_4():
    lg = small()
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    seat = lg.lineup("A")[0]
    lg.host("violation", at("1-2", "18:20"), player=seat, type="作弊")
    assert lg.lineup("A")[0] == 13
    eff = lg.host("undo", at("1-2", "18:25"), id=1, reason="误判")
    assert lg.state.players[seat].status == "active" and seat not in lg.lineup("A")
    assert texts(eff, "hosts") == [f"p{seat}（#{seat}） 恢复参赛资格：原位置已由替补顶上，现为替补，按替补顺序上场。"]


# ---- 3. §七.3 whenever the violation arrives -------------------------------------------


def test_violation_after_the_sheet_takes_that_games_mvp_and_it_is_not_passed_on_7_3():
    lg = small()
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    checkin_all(lg, at("1-2", "18:10"))
    clock(lg, "1-2")
    gid = enter(lg, "1-2", tokens={0: "全场最佳", 8: "败方最佳"})
    L = sorted(lg.lineup("A"))
    mvp, svp = L[0], L[8]
    assert row(lg, mvp).total == 105 and row(lg, mvp).mvp == 1
    eff = lg.host("violation", at("1-2", "22:00"), player=mvp, type="贴脸", game=gid)
    assert "其局号#1 的全场最佳（+2）已取消（§七.3），评选不顺延；如需改评：/评选 1 全场最佳 玩家。" in texts(eff, "reply")[0]
    assert "并取消该局评选资格（§七.3）" in texts(eff, mvp)[0]
    r = row(lg, mvp)
    assert (r.total, r.mvp, r.parts.award) == (101, 0, 0)
    assert sum(x.mvp for x in rows(lg.state, lg.cfg, 0)) == 0  # nobody else got it
    assert "全场最佳 +2 已取消：违规编号 1（§七.3）" in breakdown(lg, mvp)
    sheet_rows = ENGINE.tables(lg.state, settings=lg.cfg)["计分表"]
    assert [r[-1] for r in sheet_rows[1:] if r[8] == mvp] == ["违规编号 1（§七.3）"]
    # a /改分 cannot give the award back to the player without eligibility
    sheet = plain_sheet(lg.cfg, "标准场", "A", None, lg.lineup("A"), tokens={0: "全场最佳"})
    assert "不能参与评选（§七.3）" in lg.host_rejected("rescore", at("1-2", "22:30"), game=gid, text=sheet)
    # the hosts re-award by command; the blocked player cannot be chosen
    assert "没有评选资格（§七.3）" in lg.host_rejected("award", at("1-2", "22:40"), game=gid, award="全场最佳",
                                                       who=str(mvp))
    eff = lg.host("award", at("1-2", "22:41"), game=gid, award="全场最佳", who=f"#{L[1]}")
    assert texts(eff, "reply") == [f"局号#1（A组 第1场）全场最佳：p{mvp}（#{mvp}） → p{L[1]}（#{L[1]}）。积分榜已更新。"]
    assert row(lg, L[1]).total == 105 and row(lg, mvp).total == 101
    assert lg.state.audit[-1].action == "评选"
    assert "败方最佳应来自失败方" in lg.host_rejected("award", at("1-2", "22:42"), game=gid, award="败方最佳",
                                                       who=str(L[2]))
    assert "评选只能写" in lg.host_rejected("award", at("1-2", "22:42"), game=gid, award="最佳", who=str(L[2]))


def test_undo_restores_award_eligibility_7_3():
    lg = small()
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    checkin_all(lg, at("1-2", "18:10"))
    clock(lg, "1-2")
    gid = enter(lg, "1-2", tokens={8: "败方最佳"})
    svp = sorted(lg.lineup("A"))[8]
    lg.host("violation", at("1-2", "22:00"), player=svp, type="暗号", game=gid)
    assert row(lg, svp).total == 100 - 3 - 2
    eff = lg.host("undo", at("1-3", "10:00"), id=1, reason="申诉改判")
    assert "局号#1 的评选资格恢复（§七.3）。" in texts(eff, "reply")[0]
    assert row(lg, svp).total == 100 - 3 + 1 and row(lg, svp).svp == 1


def test_violation_without_blocks_award_keeps_the_award_7_3():
    lg = small()
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    checkin_all(lg, at("1-2", "18:10"))
    clock(lg, "1-2")
    gid = enter(lg, "1-2", tokens={0: "全场最佳"})
    mvp = sorted(lg.lineup("A"))[0]
    eff = lg.host("violation", at("1-2", "22:00"), player=mvp, type="擦边", game=gid)
    assert "§七.3" not in texts(eff, "reply")[0]
    assert row(lg, mvp).total == 104.5 and row(lg, mvp).mvp == 1


# ---- 4. opening a match day late ---------------------------------------------------------


def test_day_opened_after_1830_applies_past_steps_at_once_with_real_times_5():
    lg = small()
    # players check in at the league's time although the referee has not opened the day yet
    for seat in range(1, 11):
        eff = lg.player(seat, "checkin", at("1-2", "18:10"))
        assert "裁判还没开今天的比赛日，开赛后按这个时间生效" in texts(eff, "reply")[0]
    assert "将记迟到扣 1 分" in texts(lg.player(11, "checkin", at("1-2", "18:32")), "reply")[0]
    assert "你已经签到过了" in lg.player_rejected(1, "checkin", at("1-2", "18:33"))
    assert "不在本轮的分组名单里" in lg.player_rejected(13, "checkin", at("1-2", "18:33"))
    eff = lg.host("open_day", at("1-2", "18:41"), date="1-2")
    day = lg.day
    # 18:30 and 18:35 are past: applied now, in order, with the real time recorded
    assert day.done == ["late", "demote"] and day.ran == {"late": at("1-2", "18:41").isoformat(),
                                                                 "demote": at("1-2", "18:41").isoformat()}
    assert [e.key for e in eff if isinstance(e, SetTimer)] == ["checkin.seat"]
    assert sorted(day.late) == [11, 12] and day.demoted == [12]
    assert 11 in lg.lineup("A") and 12 not in lg.lineup("A") and 13 in lg.lineup("A")
    report = texts(eff, "reply")[0]
    assert report.startswith("开赛日开得晚：18:30 迟到扣分（2 人）；18:35 降为替补（1 人），已按顺序立即执行，"
                             "实际时间 1月2日 18:41（已记入日志）。")
    assert "开赛前已签到 11 人" in report and "/撤销 编号 理由" in report and "接下来：18:50 未入座弃权。" in report
    assert texts(eff, 12)[0] == "18:30 仍未签到，记迟到扣 1 分（§五）。"  # no "请在 18:35 前" when it is past
    assert "降为替补" in texts(eff, 12)[1]
    assert row(lg, 11).total == 99 and row(lg, 1).total == 100
    assert lg.state.audit[-1].action == "开赛日" and "实际时间 1月2日 18:41" in lg.state.audit[-1].detail


def test_opening_a_day_twice_is_refused_and_changes_nothing_5():
    lg = small()
    lg.host("open_day", at("1-2", "18:41"), date="1-2")
    clock(lg, "1-2")
    assert lg.host_rejected("open_day", at("1-2", "19:30"), date="1-2") == \
        "1月2日 已经开过比赛日（第一轮 第1比赛日），不能重复开；/分组 查看今天的出场名单。"
    assert lg.host_rejected("open_day", at("1-2", "19:30")).startswith("1月2日 已经开过比赛日")


def test_day_opened_after_1850_runs_all_three_steps_5_12_5():
    lg = small()
    for seat in range(1, 13):
        lg.player(seat, "checkin", at("1-2", "18:20"))
    eff = lg.host("open_day", at("1-2", "18:55"), date="1-2")
    assert lg.day.done == ["late", "demote", "seat"] and eliminated(eff) == []
    assert not [e for e in eff if isinstance(e, SetTimer)]
    assert "18:50 未入座弃权（0 人）" in texts(eff, "reply")[0]


# ---- 5. sheets -------------------------------------------------------------------------


def _day(lg: League, date: str = "1-2") -> list[int]:
    lg.host("open_day", at(date, "09:00"), date=date)
    checkin_all(lg, at(date, "18:10"))
    clock(lg, date)
    return sorted(lg.lineup("A"))


def test_over_cap_behaviour_points_are_capped_with_a_note_6_2():
    """§六（二）.2 「上限+1」: the default counts up to the cap and says so."""
    lg = small()
    L = _day(lg)
    eff = lg.host("score", at("1-2", "21:00"), text=plain_sheet(lg.cfg, "标准场", "A", None, L, tokens={1: "毒狼人×2"}))
    note = "第4行 座位 2：毒狼人 写了 +2，按上限 +1 计（§六（二）.2）。"
    assert texts(eff, "reply")[0].startswith("已录入局号#1。\n" + note)
    assert note in texts(eff, "group")[0]
    assert row(lg, L[1]).parts.behaviour == 1


def test_cap_policy_reject_still_refuses_6_2():
    lg = small(scoring={"cap_policy": "reject"})
    L = _day(lg)
    msg = lg.host_rejected("score", at("1-2", "21:00"),
                           text=plain_sheet(lg.cfg, "标准场", "A", None, L, tokens={1: "毒狼人×2"}))
    assert "第4行：座位 2：毒狼人 加分上限 +1，写了 +2，请核对次数。" in msg


def test_sheet_mistakes_are_named_with_their_line_numbers_6_2():
    lg = small()
    L = _day(lg)
    bad = plain_sheet(lg.cfg, "标准场", "A", None, L, tokens={0: "警徽", 8: "警徽"}, extra=("复票 1 9: 1 2",))
    msg = lg.host_rejected("score", at("1-2", "21:00"), text=bad)
    assert "第11行：一局只有一个警徽，第3行已经给过。" in msg
    unknown = plain_sheet(lg.cfg, "标准场", "A", None, L, tokens={2: "开枪狼人"})
    assert "第5行：猎人 没有「开枪狼人」这个事件（猎人 可记：枪狼人、枪好人）。" in \
        lg.host_rejected("score", at("1-2", "21:00"), text=unknown)
    runoff = plain_sheet(lg.cfg, "标准场", "A", None, L, extra=("票 1 9: 1 2", "复票 1 9: 1 2"))
    assert lg.host_rejected("score", at("1-2", "21:00"), text=runoff) == (
        "计分表有误，请改好后重新发送：\n第16行：第1天写了复票，但没有平票行；请先写「平票 1 座位 座位」（§六（二）.3）。")
    assert lg.state.games == []


def test_penalised_players_are_told_privately_and_summary_shows_full_lines_6_2_13():
    lg = small()
    L = _day(lg)
    eff = lg.host("score", at("1-2", "21:00"), text=plain_sheet(
        lg.cfg, "标准场", "A", None, L, tokens={1: "毒狼人 毒好人 违规:擦边", 4: "违规:贴脸"}))
    assert texts(eff, L[1]) == ["局号#1（A组 第1场）计分表记你轻度违规「擦边」（编号 1）扣 0.5 分。"
                                "有异议请在次日 12:00 前私聊 /申诉 局号 理由。"]
    assert "中度违规「贴脸」（编号 2）扣 2 分" in texts(eff, L[4])[0]
    summary = texts(eff, "group")[0].splitlines()
    assert summary[1] == "座位 选手 角色 加分 扣分 = 本局"
    assert f"2号 p{L[1]}（#{L[1]}） 女巫 +4 -1.5 = +2.5" in summary  # 3 + 1 | -1 -0.5
    assert f"5号 p{L[4]}（#{L[4]}） 平民 +3 -2 = +1" in summary
    assert f"9号 p{L[8]}（#{L[8]}） 狼人 +0 -3 = -3" in summary


def test_template_prefilled_with_the_seated_lineup_round_trips_6():
    lg = small()
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    assert lg.host_rejected("template", at("1-2", "18:00"), game="A") == \
        "A组 第1场 还没入座（18:50 入座后名单才确定），请 18:50 之后再取模板。"
    assert lg.host_rejected("template", at("1-2", "18:00"), game="A 第2场") == \
        "A组 第2场 所在的比赛日还没开，还没有入座名单；请先 /开赛日。"
    assert "本轮没有 Z组" in lg.host_rejected("template", at("1-2", "18:00"), game="Z")
    checkin_all(lg, at("1-2", "18:10"), skip=(3,))
    clock(lg, "1-2")
    text = texts(lg.host("template", at("1-2", "19:00"), game="A"), "reply")[0]
    lines = text.splitlines()
    assert lines[0] == "A组 第1场"
    assert "# 标准场：狼人×4、平民×4、预言家×1、女巫×1、猎人×1、白痴×1" in lines[1]
    assert "预言家 警徽 首日狼出 不验人" in lines[2]
    seated = lg.lineup("A")
    assert [ln for ln in lines if re.match(r"^\d+ #", ln)] == [f"{i} #{s} 角色" for i, s in enumerate(seated, 1)]
    assert f"# 1号位 p{seated[0]}（#{seated[0]}）" in lines and "#3）" not in text
    # the referee fills in roles and the winner only: the sheet is accepted
    roles = iter(board_roles(lg.cfg, "标准场"))
    filled = re.sub(r" 角色$", lambda m: " " + next(roles), text.replace("胜方 好人/狼人", "胜方 好人"), flags=re.M)
    assert texts(lg.host("score", at("1-2", "21:00"), text=filled), "reply")[0].startswith("已录入局号#1。")
    # with a game number: the sheet as entered, ready for /改分 (its first line is a comment)
    again = texts(lg.host("template", at("1-2", "21:05"), game="1"), "reply")[0]
    assert again == "# 局号#1 现在的计分表；改好后发送 /改分 1 加上整张表\n" + filled
    assert texts(lg.host("rescore", at("1-2", "21:06"), game=1, text=again), "reply")[0].startswith("局号#1 已更正")
    assert lg.host_rejected("template", at("1-2", "21:05"), game="7") == "没有局号#7，请用积分表或录分回执里的局号。"


# ---- 6. registration view (§十.1) ------------------------------------------------------


def test_signup_view_marks_main_draw_and_substitutes_10_1():
    summary, marks = ENGINE.signup_view(ENGINE.settings_of(ENGINE.check_settings({})), list(range(1, 131)))
    assert summary == "报名 130 人（正赛 120，替补 10）"
    assert marks[120] == "正赛" and marks[121] == "替补" and marks[1] == "正赛"
    # the kernel hands this hook the stored settings dict
    summary, _ = ENGINE.signup_view(ENGINE.check_settings({"options": {"main_draw": 12}, "rounds": [
        {"key": "r1", "name": "第一轮", "players": 12, "groups": 1, "advance": 6, "double_games": [], "days": DAYS}]}),
        [1, 2, 3])
    assert summary == "报名 3 人（正赛 3，替补 0），正赛还差 9 人"


# ---- 7. the violations catalogue (§十三) -------------------------------------------------


@pytest.mark.parametrize("vtype,level,points", [
    ("场外警上", "warning", 0), ("性骚扰警告", "warning", 0), ("性骚扰", "other", 1), ("性骚扰严重", "other", 2),
    ("性骚扰禁赛", "heavy", 0), ("扰乱秩序警告", "warning", 0), ("扰乱秩序", "heavy", 0),
    ("赛中聊天", "other", 1), ("赛中聊天重", "other", 2), ("赛中聊天取消胜利", "other", 2),
    ("赛中聊天取消资格", "heavy", 0), ("严厉处罚取消资格", "heavy", 0), ("泄露信息", "heavy", 0),
])
def test_catalogue_has_every_13_item_and_step(vtype, level, points):
    v = ENGINE.settings_of(ENGINE.check_settings({})).violations[vtype]
    assert (v.level, v.points) == (level, points)
    assert v.clause.startswith("§十三") and v.ladder


def test_every_catalogue_entry_names_its_clause_and_ladder_and_is_listed_13():
    cfg = ENGINE.settings_of(ENGINE.check_settings({}))
    assert all(v.clause and v.ladder for v in cfg.violations.values())
    assert cfg.violations["赛中聊天取消胜利"].cancel_win is True
    lg = small()
    text = texts(lg.player(1, "catalogue", at("1-2", "10:00")), "reply")[0]
    assert text.count("\n") == len(cfg.violations) + 1
    assert "性骚扰警告｜警告｜0 §十三.3.7｜第一次警告 → 第二次扣 1-2（性骚扰 / 性骚扰严重）→ 第三次禁赛（性骚扰禁赛）" in text
    assert "扰乱秩序｜重度｜0（取消参赛资格） §十三.3.3" in text


def test_sexual_harassment_ladder_warning_points_then_ban_13_3_7():
    lg = small()
    lg.host("violation", at("1-2", "10:00"), player=2, type="性骚扰警告")
    lg.host("violation", at("1-2", "11:00"), player=2, type="性骚扰严重")
    assert row(lg, 2).total == 98 and lg.state.players[2].status == "active"
    eff = lg.host("violation", at("1-2", "12:00"), player=2, type="性骚扰禁赛")
    assert eliminated(eff) == [2]


def test_chatting_during_a_match_cancels_the_win_13_3_1_5():
    lg = small()
    L = _day(lg)
    gid = enter(lg, "1-2")
    lg.host("violation", at("1-2", "22:00"), player=L[0], type="赛中聊天取消胜利", game=gid)
    assert row(lg, L[0]).total == 100 - 2


# ---- the standings rows carry everything the picture shows -------------------------------


def test_rows_have_wins_group_and_tiebreak_notes_9():
    lg = small()
    _day(lg)
    enter(lg, "1-2")
    table = standings_rows(lg.state, lg.cfg, 0)
    assert "组" not in table[0]  # one group: no group column
    assert table[0][-5:] == ["神牌胜", "民牌胜", "场次", "晋级", "备注"]
