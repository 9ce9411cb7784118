"""Score entry and the points of §六（二） (win, behaviour, votes, badge, awards)."""

from __future__ import annotations

import pytest
from helpers_league import HOST, League, at, checkin_all, sheet, texts

DAYS = [{"label": "1月2日", "board": "标准场", "games": 1},
        {"label": "1月3日", "board": "纯白夜影", "games": 1},
        {"label": "1月4日", "board": "狼王摄梦人", "games": 1}]


def small(n: int = 14, days=None, double=(), policy: str = "reject") -> League:
    rounds = [{"key": "r1", "name": "第一轮", "players": 12, "groups": 1, "advance": 6,
               "double_games": list(double), "days": days or DAYS}]
    return League(n=n, settings={"options": {"main_draw": 12}, "rounds": rounds,
                                 "scoring": {"cap_policy": policy}})


def opened(lg: League, date: str = "1-2") -> list[int]:
    lg.host("open_day", at(date, "12:00"), date=date)
    return sorted(lg.lineup("A"))


STD = ["预言家", "女巫", "猎人", "白痴", "平民", "平民", "平民", "平民", "狼人", "狼人", "狼人", "狼人"]


def std_sheet(L: list[int], winner: str = "好人", tokens: dict[int, str] | None = None,
              extra: tuple[str, ...] = (), roles=STD) -> str:
    tokens = tokens or {}
    return sheet("A", None, winner, [(k + 1, L[k], roles[k], tokens.get(k + 1, "")) for k in range(12)], extra)


def parts(lg: League, reg: int, game: int = -1) -> dict[str, float]:
    return lg.state.games[game].points[reg].parts


def test_win_plus_3_loss_minus_3_6_2_1():
    lg = small()
    L = opened(lg)
    lg.host("score", at("1-2", "21:00"), text=std_sheet(L, "好人"))
    assert parts(lg, L[0]).win == 3 and parts(lg, L[8]).win == -3
    lg2 = small()
    L2 = opened(lg2)
    lg2.host("score", at("1-2", "21:00"), text=std_sheet(L2, "狼人"))
    assert parts(lg2, L2[0]).win == -3 and parts(lg2, L2[8]).win == 3


def test_seer_badge_and_first_day_wolf_out_and_no_check_6_2_2():
    lg = small()
    L = opened(lg)
    lg.host("score", at("1-2", "21:00"), text=std_sheet(L, tokens={1: "警徽 首日狼出 不验人×2"}))
    assert parts(lg, L[0]).behaviour == 0.5 + 0.5 - 1.0
    assert parts(lg, L[0]).badge == 0  # the seer's badge is behaviour, not the wolf badge


def test_witch_poison_wolf_cap_plus_1_rejected_when_exceeded_6_2_2():
    lg = small()
    L = opened(lg)
    msg = lg.host_rejected("score", at("1-2", "21:00"), text=std_sheet(L, tokens={2: "毒狼人×2"}))
    assert "座位 2：毒狼人 加分上限 +1，写了 +2" in msg


def test_witch_poison_wolf_cap_clamps_when_host_chooses_clamp_6_2_2():
    lg = small(policy="clamp")
    L = opened(lg)
    lg.host("score", at("1-2", "21:00"), text=std_sheet(L, tokens={2: "毒狼人×2 毒好人"}))
    assert parts(lg, L[1]).behaviour == 1 - 1


def test_event_of_another_role_is_refused_6_2_2():
    lg = small()
    L = opened(lg)
    msg = lg.host_rejected("score", at("1-2", "21:00"), text=std_sheet(L, tokens={3: "毒狼人"}))
    assert msg.startswith("计分表有误") and "猎人 没有「毒狼人」这个事件（猎人 可记：枪狼人、枪好人）" in msg


def test_player_not_in_that_game_is_refused():
    lg = small()
    L = opened(lg)
    text = std_sheet(L).replace(f"#{L[5]} ", "#13 ")
    msg = lg.host_rejected("score", at("1-2", "21:00"), text=text)
    assert "p13（#13）不在 A组 这一场的出场名单里" in msg


def test_role_list_must_match_the_board_6_1():
    lg = small()
    L = opened(lg)
    roles = STD[:4] + ["平民"] * 5 + ["狼人"] * 3
    msg = lg.host_rejected("score", at("1-2", "21:00"), text=std_sheet(L, roles=roles))
    assert "狼人 应为 4 名，计分表里有 3 名" in msg and "平民 应为 4 名，计分表里有 5 名" in msg


def test_every_mistake_gets_its_own_line():
    lg = small()
    L = opened(lg)
    text = std_sheet(L, tokens={3: "毒狼人", 5: "违规:打人"}).replace("胜方 好人", "胜方 平局")
    msg = lg.host_rejected("score", at("1-2", "21:00"), text=text)
    assert len(msg.splitlines()) == 4  # header + three mistakes


def test_vote_points_cap_plus_1_and_minus_half_for_good_6_2_3():
    lg = small()
    L = opened(lg)
    # seat 5 (villager) votes the wolf on seat 9 on days 1-3: +1.5 capped at +1, then a good player on day 4: -0.5
    votes = ("票 1 9: 5 1 10", "票 2 10: 5", "票 3 11: 5 9", "票 4 2: 5 6")
    lg.host("score", at("1-2", "21:00"), text=std_sheet(L, extra=votes))
    assert parts(lg, L[4]).vote == 1 - 0.5
    assert parts(lg, L[0]).vote == 0  # 预言家 does not score votes
    assert parts(lg, L[9]).vote == 0 and parts(lg, L[8]).vote == 0  # wolves do not either
    assert parts(lg, L[5]).vote == -0.5


def test_tie_runoff_stage_players_keep_first_vote_others_use_second_6_2_3_1_and_3():
    lg = small()
    L = opened(lg)
    votes = ("票 1 9: 5 6 10", "票 1 7: 9 11 12 8",  # the referee records the tie below
             "平票 1 9 7", "复票 1 7: 5 6")
    lg.host("score", at("1-2", "21:00"), text=std_sheet(L, extra=votes))
    assert parts(lg, L[4]).vote == -0.5  # 5 voted the wolf first, the villager 7 in the runoff: second counts
    assert parts(lg, L[6]).vote == 0  # 7 on the stage voted nobody first
    # seat 9 is a wolf on the stage: first vote, but wolves never score; seat 8 (villager) voted 7 first only
    assert parts(lg, L[7]).vote == 0  # 8 abstained in the runoff: the second vote (none) counts


def test_wolf_self_boom_on_stage_everyone_keeps_first_vote_6_2_3_2():
    lg = small()
    L = opened(lg)
    votes = ("票 1 9: 5 6", "票 1 7: 8 11", "平票 1 9 7 自曝", "复票 1 7: 5 6")
    lg.host("score", at("1-2", "21:00"), text=std_sheet(L, extra=votes))
    assert parts(lg, L[4]).vote == 0.5 and parts(lg, L[5]).vote == 0.5
    assert parts(lg, L[7]).vote == -0.5


def test_wolf_badge_half_point_6_2_4():
    lg = small()
    L = opened(lg)
    lg.host("score", at("1-2", "21:00"), text=std_sheet(L, tokens={9: "警徽"}))
    assert parts(lg, L[8]).badge == 0.5 and parts(lg, L[8]).behaviour == 0


def test_mvp_plus_2_best_of_losing_side_plus_1_6_2_5():
    lg = small()
    L = opened(lg)
    lg.host("score", at("1-2", "21:00"), text=std_sheet(L, tokens={1: "全场最佳", 10: "败方最佳"}))
    assert parts(lg, L[0]).award == 2 and parts(lg, L[9]).award == 1


def test_best_of_losing_side_must_be_on_the_losing_side_and_only_one_mvp_7():
    lg = small()
    L = opened(lg)
    msg = lg.host_rejected("score", at("1-2", "21:00"), text=std_sheet(L, tokens={1: "MVP", 2: "MVP 败方最佳"}))
    assert "全场最佳只能有一位" in msg and "败方最佳应来自失败方" in msg


def test_violation_with_logical_output_cancels_award_eligibility_7_3():
    lg = small()
    L = opened(lg)
    msg = lg.host_rejected("score", at("1-2", "21:00"), text=std_sheet(L, tokens={1: "全场最佳 违规:场外有逻辑"}))
    assert "不能参与评选（§七.3）" in msg


def test_bind_win_drops_votes_and_events_after_binding_6_2_note():
    lg = small()
    L = opened(lg)
    votes = ("票 1 9: 5", "票 2 10: 6", "绑票 2", "票 3 2: 9 10 11 12 7")
    text = std_sheet(L, "狼人", tokens={2: "毒狼人@夜2", 3: "枪狼人@日2"}, extra=votes)
    lg.host("score", at("1-2", "21:00"), text=text)
    assert parts(lg, L[4]).vote == 0.5  # day 1 counts
    assert parts(lg, L[5]).vote == 0  # day 2 was the bound vote
    assert parts(lg, L[6]).vote == 0  # day 3 after binding
    assert parts(lg, L[1]).behaviour == 1  # night 2 came before the day-2 vote
    assert parts(lg, L[2]).behaviour == 0  # the hunter's shot on day 2 came with/after it


def test_bind_needs_event_times_and_is_ignored_when_good_wins_6_2_note():
    lg = small()
    L = opened(lg)
    msg = lg.host_rejected("score", at("1-2", "21:00"),
                           text=std_sheet(L, "狼人", tokens={2: "毒狼人"}, extra=("绑票 2",)))
    assert "要写时间" in msg
    lg.host("score", at("1-2", "21:00"), text=std_sheet(L, "好人", tokens={2: "毒狼人"},
                                                        extra=("绑票 1", "票 1 9: 5")))
    assert parts(lg, L[1]).behaviour == 1 and parts(lg, L[4]).vote == 0.5


def test_dreamer_guard_and_sleepwalk_share_one_cap_6_2_2():
    lg = small()
    lg.host("open_day", at("1-2", "12:00"), date="1-2")
    for no, day in ((1, "1-2"), (2, "1-3"), (3, "1-4")):
        if no > 1:
            lg.host("open_day", at(day, "12:00"), date=day)
        checkin_all(lg, at(day, "18:05"))
        L = sorted(lg.lineup("A"))
        board = lg.day.board
        from helpers_league import plain_sheet
        tok = {3: "守好人 梦游狼人"} if board == "狼王摄梦人" else {}
        if board == "狼王摄梦人":
            bad = plain_sheet(lg.cfg, board, "A", no, L, tokens={3: "守好人×2 梦游狼人"})
            assert "摄梦加分 加分上限 +1，写了 +1.5" in lg.host_rejected("score", at(day, "21:00"), text=bad)
        lg.host("score", at(day, "21:00"), text=plain_sheet(lg.cfg, board, "A", no, L, tokens=tok))
    assert lg.state.games[-1].points[sorted(lg.lineup("A"))[3]].parts.behaviour == 1


def test_game_is_announced_with_its_number_and_appeal_hint():
    lg = small()
    L = opened(lg)
    eff = lg.host("score", at("1-2", "21:00"), text=std_sheet(L, tokens={1: "全场最佳"}))
    assert texts(eff, "reply")[0].splitlines()[0] == "已录入局号#1。"
    group = texts(eff, "group")[0]
    assert group.startswith("局号#1 第一轮 A组 第1场：好人胜") and "（全场最佳）" in group and "/申诉" in group


def test_double_points_in_final_game_5_4_2():
    days = [{"label": "d1", "board": "标准场", "games": 2}, {"label": "d2", "board": "标准场", "games": 2},
            {"label": "d3", "board": "标准场", "games": 1}]
    lg = small(days=days, double=(5,))
    for d, nos in (("1-2", (1, 2)), ("1-3", (3, 4)), ("1-4", (5,))):
        lg.host("open_day", at(d, "12:00"), date=d)
        checkin_all(lg, at(d, "18:05"))
        L = sorted(lg.lineup("A"))
        for no in nos:
            lg.host("score", at(d, "21:00"),
                    text=std_sheet(L, tokens={1: "全场最佳 警徽", 5: "违规:擦边"}, extra=("票 1 2: 5",)).replace("A组", f"A组 第{no}场", 1))
    g4, g5 = lg.state.games[3], lg.state.games[4]
    assert not g4.double and g5.double
    assert g5.points[L[0]].parts.values() == tuple(2 * v for v in g4.points[L[0]].parts.values())
    assert g5.points[L[4]].parts.vote == -1.0
    pts = [v.points for v in lg.state.violations if v.seat == L[4]]
    assert pts == [0.5, 0.5, 0.5, 0.5, 1.0]  # 扣分翻倍 too


def test_game_already_entered_points_to_correction():
    lg = small()
    L = opened(lg)
    lg.host("score", at("1-2", "21:00"), text=std_sheet(L))
    msg = lg.host_rejected("score", at("1-2", "21:00"), text=std_sheet(L).replace("A组", "A组 第1场", 1))
    assert msg == "A组 第1场 已录分（局号#1）；更正请用 /改分 1。"
    assert lg.host_rejected("score", at("1-2", "21:00"), text=std_sheet(L)) == "A组 已开的场次都已录分；更正请用 /改分 局号。"
    assert "还没开" in lg.host_rejected("score", at("1-2", "21:00"), text=std_sheet(L).replace("A组", "A组 第2场", 1))


@pytest.mark.parametrize("who", [HOST])
def test_group_must_exist(who):
    lg = small()
    L = opened(lg)
    assert lg.rejected(who, "score", at("1-2", "21:00"), text=std_sheet(L).replace("A组", "Z组", 1)) == "本轮没有 Z组，可用：A。"


def test_sheet_format_errors_are_explained():
    lg = small()
    L = opened(lg)
    assert lg.host_rejected("score", at("1-2", "21:00"), text="") == "计分表是空的：第一行写组名，例如「A组 第1场」。"
    assert lg.host_rejected("score", at("1-2", "21:00"), text="胜方 好人") == \
        "第一行应为组名和场次，例如「A组 第1场」，收到「胜方 好人」。"
    text = std_sheet(L, extra=("票 1 9: 5 五", "平票 1 9", "随便写写"))
    msg = lg.host_rejected("score", at("1-2", "21:00"), text=text).splitlines()
    assert msg[1:] == ["第15行：投票人应写座位号，用空格分开，例如「票 1 5: 1 2 3」。",
                       "第16行：平票至少写两个座位号，例如「平票 1 5 7」。",
                       "第17行：看不懂「随便写写」，选手行格式为「座位 选手 角色 [事件…]」。"]
    text = std_sheet(L, extra=("票 1 13: 5", "票 1 9: 5"))
    msg = lg.host_rejected("score", at("1-2", "21:00"), text=text)
    assert "第15行：被投的座位 13 不在本局。" in msg and "座位 5 在第1天同一轮投了两次（另见第15行）" in msg


RED_MOON = ["预言家", "女巫", "猎魔人", "愚者", "平民", "平民", "平民", "平民", "狼人", "狼人", "狼人", "赤月使徒"]


def test_red_moon_apostle_survival_counts_only_when_wolves_win_6_2_2():
    """§六（二）2 赤月使徒: 「存活到游戏结束（即狼人胜利时且赤月使徒仍存活才加此分）」 — a sheet
    with 好人 as winner and 存活胜利 for the 赤月使徒 is refused, naming the rule, under either
    cap policy; with 狼人 as winner it scores +0.5."""
    for policy in ("reject", "clamp"):
        lg = small(days=[{"label": "1月18日", "board": "赤月猎魔人", "games": 1}], policy=policy)
        L = opened(lg, "1-18")
        msg = lg.host_rejected("score", at("1-18", "21:00"),
                               text=std_sheet(L, "好人", tokens={12: "存活胜利"}, roles=RED_MOON))
        assert "第14行：座位 12：赤月使徒「存活胜利」只在狼人阵营获胜时计分" in msg
        assert "§六（二）2" in msg and "本局胜方为好人" in msg
        assert lg.state.games == []
        lg.host("score", at("1-18", "21:00"), text=std_sheet(L, "狼人", tokens={12: "存活胜利"}, roles=RED_MOON))
        assert parts(lg, L[11]).behaviour == 0.5


def test_red_moon_survival_is_refused_on_a_correction_too_6_2_2():
    """§六（二）2: /改分 runs the same check as /录分."""
    lg = small(days=[{"label": "1月18日", "board": "赤月猎魔人", "games": 1}])
    L = opened(lg, "1-18")
    lg.host("score", at("1-18", "21:00"), text=std_sheet(L, "狼人", tokens={12: "存活胜利"}, roles=RED_MOON))
    msg = lg.host_rejected("rescore", at("1-18", "21:30"), game=1,
                           text=std_sheet(L, "好人", tokens={12: "存活胜利"}, roles=RED_MOON))
    assert "只在狼人阵营获胜时计分（§六（二）2" in msg
    assert parts(lg, L[11]).behaviour == 0.5 and lg.state.games[0].history == []
