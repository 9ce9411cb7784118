"""Check-in and the match-day clock (§五), substitutes (§十), forfeits (§十二)."""

from __future__ import annotations

from helpers_league import League, at, checkin_all, eliminated, texts

from plugins.gamekit.contract import Actor, Eliminate, SetTimer

SMALL_DAYS = [{"label": "1月2日", "board": "标准场", "games": 1},
              {"label": "1月3日", "board": "标准场", "games": 1},
              {"label": "1月4日", "board": "标准场", "games": 1}]


def small(n: int = 14, times=None) -> League:
    settings = {"options": {"main_draw": 12},
                "rounds": [{"key": "r1", "name": "第一轮", "players": 12, "groups": 1, "advance": 6,
                            "double_games": [], "days": SMALL_DAYS}]}
    if times:
        settings["times"] = times
    return League(n=n, settings=settings)


def test_registration_first_120_main_draw_rest_substitutes_10_1():
    lg = League(n=130)
    members = lg.state.rounds[0].members
    assert members == list(range(1, 121))
    assert sorted(s for g in lg.groups().values() for s in g) == list(range(1, 121))
    assert all(len(g) == 12 for g in lg.groups().values()) and len(lg.groups()) == 10
    assert "前 120 人为正赛选手，其余 10 人" in texts(lg.effects, "group")[0]
    assert len(texts(lg.effects, "group")) == 1 + 10  # one announcement per group


def test_grouping_is_reproducible_from_the_seed():
    a, b, c = League(n=130, seed="x"), League(n=130, seed="x"), League(n=130, seed="y")
    assert a.groups() == b.groups() and a.groups() != c.groups()
    from plugins.league.engine.rules_admin import make_groups
    assert make_groups(list(range(1, 121)), 10, a.state.rounds[0].seed) == a.groups()


def test_open_day_arms_the_clock_at_league_times_5():
    lg = small(times={"late": "18:40", "demote": "18:45", "seat": "18:55"})
    eff = lg.host("open_day", at("1-2", "09:00"), date="1-2")
    timers = {e.key: e.ends_at for e in eff if isinstance(e, SetTimer)}
    assert timers == {"checkin.late": at("1-2", "18:40"), "checkin.demote": at("1-2", "18:45"),
                      "checkin.seat": at("1-2", "18:55")}
    assert "18:40 后签到记迟到扣 1 分" in texts(eff, "group")[0]


def test_open_day_refusals():
    lg = small()
    assert "已经过去了" in lg.host_rejected("open_day", at("1-3", "09:00"), date="1-2")
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    assert lg.host_rejected("open_day", at("1-2", "19:00"), date="1-2") == \
        "1月2日 已经开过比赛日（第一轮 第1比赛日），不能重复开；/分组 查看今天的出场名单。"
    assert "签到还没结束" in lg.host_rejected("open_day", at("1-2", "18:00"), date="1-3")
    for d in ("1-3", "1-4"):
        lg.host("open_day", at(d, "09:00"), date=d)
    assert "都已开过" in lg.host_rejected("open_day", at("1-5", "09:00"), date="1-5")


def test_checkin_window_and_bad_senders_5():
    lg = small()
    assert lg.player_rejected(1, "checkin", at("1-2", "17:59")) == \
        "今天（1月2日）还没有开比赛日；比赛日 18:00 起签到，裁判开赛后请在分组群发送 /签到。"
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    assert lg.player_rejected(1, "checkin", at("1-2", "17:59")) == "签到 1月2日 18:00 开始，请到时再发 /签到。"
    # the table's permission (who="player"), in the league's own words
    assert lg.rejected(Actor("999", None, False, False), "checkin", at("1-2", "18:05")) == "你不是本届联赛的报名选手，不能这样做。"
    assert lg.player_rejected(13, "checkin", at("1-2", "18:05")) == "你不在今天的出场名单里；替补请等待递补通知。"
    eff = lg.player(1, "checkin", at("1-2", "18:05"))
    pos = lg.lineup("A").index(1) + 1
    assert texts(eff, "reply") == [f"签到成功：A组 {pos}号位。18:50 前按裁判指示进入房间就座。"]
    assert lg.player_rejected(1, "checkin", at("1-2", "18:06")) == f"你已经签到过了：A组 {pos}号位。"


def test_checkin_outside_the_window_answers_about_today_never_an_earlier_day_5():
    """§五 【18:00-18:30】 签到 is a match day's: a /签到 the next day, before or after that day's window
    (no match day opened for it), is answered about today — not 「你已经签到过了」 nor a demotion of the
    day before; within today's window it is kept for the day the referee opens (as before)."""
    lg = small()
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    checkin_all(lg, at("1-2", "18:10"), skip=(3,))
    for key, hhmm in (("checkin.late", "18:30"), ("checkin.demote", "18:35"), ("checkin.seat", "18:50")):
        lg.timer(key, at("1-2", hhmm))
    assert 3 in lg.day.demoted
    before = lg.player_rejected(1, "checkin", at("1-3", "10:00"))
    assert before == "今天（1月3日）还没有开比赛日；比赛日 18:00 起签到，裁判开赛后请在分组群发送 /签到。"
    after = lg.player_rejected(1, "checkin", at("1-3", "19:00"))
    assert after == "今天（1月3日）没有开比赛日，今天的签到时间（18:00-18:35）已过；请留意裁判的开赛通知。"
    assert "今天（1月3日）还没有开比赛日" in lg.player_rejected(3, "checkin", at("1-3", "10:00"))  # not 「已降为替补」
    eff = lg.player(1, "checkin", at("1-3", "18:05"))  # today's window: kept until the day opens
    assert "裁判还没开今天的比赛日" in texts(eff, "reply")[0]
    for d in ("1-3", "1-4"):
        lg.host("open_day", at(d, "09:00"), date=d)
        for key, hhmm in (("checkin.late", "18:30"), ("checkin.demote", "18:35"), ("checkin.seat", "18:50")):
            lg.timer(key, at(d, hhmm))
    assert lg.player_rejected(1, "checkin", at("1-5", "18:10")) == "今天（1月5日）没有比赛日：本轮的比赛日都已开过。"


def test_late_after_1830_costs_one_point_even_before_the_timer_fires_5_13_1_4():
    lg = small()
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    checkin_all(lg, at("1-2", "18:10"), skip=(3, 4))
    eff = lg.player(3, "checkin", at("1-2", "18:32"))  # the 18:30 timer has not reached us yet
    assert "迟到，已扣 1 分" in texts(eff, "reply")[0]
    assert any("记迟到（各扣 1 分）：p3（#3）、p4（#4）" in t for t in texts(eff, "group"))
    assert [(v.seat, v.type, v.points) for v in lg.state.violations] == [(3, "迟到", 1), (4, "迟到", 1)]
    assert lg.timer("checkin.late", at("1-2", "18:30")) == []  # already done: nothing twice
    from plugins.league.engine.standings import rows
    totals = {r.seat: r.total for r in rows(lg.state, lg.cfg, 0)}
    assert totals[3] == 99 and totals[4] == 99 and totals[1] == 100


def test_not_in_by_1835_demoted_and_substitutes_promoted_in_registration_order_10_2_10_3():
    lg = League(n=130)
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    a = lg.lineup("A")
    absent = (a[2], a[7])
    checkin_all(lg, at("1-2", "18:10"), skip=absent)
    lg.timer("checkin.late", at("1-2", "18:30"))
    eff = lg.timer("checkin.demote", at("1-2", "18:35"))
    assert lg.lineup("A")[2] == 121 and lg.lineup("A")[7] == 122  # same positions, registration order
    assert lg.groups()["A"] == lg.lineup("A")  # the promotion holds for the rest of the round
    assert "你已递补进入 A组 3号位，请在 18:50 前发送 /签到" in texts(eff, 121)[0]
    assert "你已降为替补（§十.3）" in texts(eff, absent[0])[0]
    assert "A组：p{0}（#{0}） 降为替补，p121（#121） 递补 3号位".format(absent[0]) in texts(eff, "group")[0]
    assert lg.player_rejected(absent[0], "checkin", at("1-2", "18:36")) == \
        "已过 18:35，你已降为替补（§十.3），请等待替补通知。"
    assert 121 in lg.state.rounds[0].members and absent[0] in lg.state.rounds[0].demoted


def test_promoted_substitute_who_never_arrives_forfeits_at_1850_and_next_substitute_fills_12_5_12_1():
    lg = League(n=130)
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    a = lg.lineup("A")
    checkin_all(lg, at("1-2", "18:10"), skip=(a[0], a[1]))
    lg.timer("checkin.demote", at("1-2", "18:35"))
    assert lg.lineup("A")[:2] == [121, 122]
    lg.player(121, "checkin", at("1-2", "18:40"))
    eff = lg.timer("checkin.seat", at("1-2", "18:50"))
    assert eliminated(eff) == [122]
    assert lg.state.players[122].status == "forfeit"
    assert lg.lineup("A")[:2] == [121, 123]  # §十二.1: the place passes to the next substitute
    assert "请立即进入 A组 房间就座" in texts(eff, 123)[0]
    assert lg.timer("checkin.seat", at("1-2", "18:51")) == []


def test_referee_marks_absent_player_forfeits_at_1850_12_5():
    lg = League(n=130)
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    checkin_all(lg, at("1-2", "18:10"))
    seat = lg.lineup("B")[4]
    lg.host("absent", at("1-2", "18:45"), players=[seat])
    eff = lg.timer("checkin.seat", at("1-2", "18:50"))
    assert [e for e in eff if isinstance(e, Eliminate)] == [Eliminate(seat, "18:50 未入座，视为弃权（§十二.5）")]
    assert lg.lineup("B")[4] == 121
    assert "现在不在入座阶段" in lg.host_rejected("absent", at("1-2", "18:52"), players=[121])
    assert lg.player_rejected(seat, "checkin", at("1-2", "18:52")) == "已过 18:50，你已视为弃权（§十二.5）。"


def test_after_registered_substitutes_the_demoted_come_back_by_current_ranking_10_2_10_3():
    lg = small(n=14)  # 12 main draw, substitutes #13 #14
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    checkin_all(lg, at("1-2", "18:10"), skip=(5,))
    lg.timer("checkin.demote", at("1-2", "18:35"))
    assert 13 in lg.lineup("A")
    lg.timer("checkin.seat", at("1-2", "18:50"))
    lg.host("open_day", at("1-3", "09:00"), date="1-3")
    checkin_all(lg, at("1-3", "18:10"), skip=(6, 7))
    eff = lg.timer("checkin.demote", at("1-3", "18:35"))
    assert 14 in lg.lineup("A") and 5 in lg.lineup("A")  # #14 first (never demoted), then the demoted #5
    assert 6 not in lg.lineup("A") and 7 not in lg.lineup("A")
    assert any("你已降为替补" in t for t in texts(eff, 6))


def test_no_substitute_left_tells_the_referees():
    lg = small(n=12)
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    checkin_all(lg, at("1-2", "18:10"), skip=(5,))
    eff = lg.timer("checkin.demote", at("1-2", "18:35"))
    assert texts(eff, "hosts") == ["A组 p5（#5） 降为替补，但已没有可用替补，请裁判处理。"]
    assert 5 not in lg.lineup("A") and len(lg.lineup("A")) == 11


def test_red_card_out_promotes_a_substitute_and_back_restores_as_substitute():
    lg = League(n=130)
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    seat = lg.lineup("C")[0]
    eff = lg.host("kernel.out", at("1-2", "18:00"), seat=seat, reason="红牌")
    assert eliminated(eff) == [seat] and lg.lineup("C")[0] == 121
    assert "已经不在联赛中" in lg.host_rejected("kernel.out", at("1-2", "18:01"), seat=seat)
    lg.host("kernel.back", at("1-2", "18:02"), seat=seat)
    assert lg.state.players[seat].status == "active" and seat not in lg.lineup("C")
