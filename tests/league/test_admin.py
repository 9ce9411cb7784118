"""Violations (§十三), appeals (§八), void games and replays (§十一), corrections."""

from __future__ import annotations

import msgspec
from helpers_league import League, at, checkin_all, eliminated, plain_sheet, texts

from plugins.gamekit.contract import Actor, copy_state
from plugins.league.engine import ENGINE
from plugins.league.engine.standings import rows

DAYS = [{"label": "1月2日", "board": "标准场", "games": 1},
        {"label": "1月3日", "board": "标准场", "games": 1},
        {"label": "1月4日", "board": "标准场", "games": 1}]


def small(n: int = 14) -> League:
    return League(n=n, settings={"options": {"main_draw": 12},
                                 "rounds": [{"key": "r1", "name": "第一轮", "players": 12, "groups": 1,
                                             "advance": 6, "double_games": [], "days": DAYS}]})


def day_game(lg: League, date: str, tokens=None, winner: str = "好人") -> int:
    lg.host("open_day", at(date, "09:00"), date=date)
    checkin_all(lg, at(date, "18:05"))
    L = sorted(lg.lineup("A"))
    lg.host("score", at(date, "21:00"), text=plain_sheet(lg.cfg, "标准场", "A", None, L, winner, tokens or {}))
    return lg.state.games[-1].id


def total(lg: League, seat: int) -> float:
    return next(r.total for r in rows(lg.state, lg.cfg, 0) if r.seat == seat)


def test_light_violation_with_or_without_logic_13_2_1():
    lg = small()
    gid = day_game(lg, "1-2", {4: "违规:擦边", 5: "违规:场外有逻辑"})
    assert total(lg, 5) == 100 + 3 - 0.5 and total(lg, 6) == 100 + 3 - 1
    eff = lg.host("violation", at("1-2", "22:00"), player=7, type="嘲讽警告", game=gid)
    assert texts(eff, "reply") == ["已记 p7（#7） 警告违规「嘲讽警告」（编号 3），扣 0 分。撤销：/撤销 3 理由"]
    assert "不在违规表中" in lg.host_rejected("violation", at("1-2", "22:00"), player=7, type="打人")
    assert lg.host_rejected("violation", at("1-2", "22:00"), player=13, type="擦边", game=gid) == "p13（#13） 不在局号#1 里。"


def test_two_violations_in_one_game_are_flagged_for_severe_penalty_13_3_5():
    lg = small()
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    L = sorted(lg.lineup("A"))
    eff = lg.host("score", at("1-2", "21:00"),
                  text=plain_sheet(lg.cfg, "标准场", "A", None, L, tokens={0: "违规:贴脸 违规:擦边"}))
    assert texts(eff, "hosts") == ["p1（#1） 在局号#1 已有 2 次违规，请考虑严厉处罚（§十三.3.5）：取消胜利分并扣 2 分等。"]


def test_three_medium_violations_disqualify_13_3_4():
    lg = small()
    gid = day_game(lg, "1-2", {0: "违规:贴脸"})
    lg.host("violation", at("1-2", "22:00"), player=1, type="不文明", game=gid)
    eff = lg.host("violation", at("1-3", "10:00"), player=1, type="情绪")
    assert eliminated(eff) == [1] and lg.state.players[1].status == "dq"
    assert "被取消参赛资格：本届第 3 次中度违规（§十三.3.4）" in texts(eff, "group")[0]
    eff = lg.host("violation", at("1-3", "10:01"), player=1, type="情绪")
    assert eliminated(eff) == []  # nobody is put out twice
    table = rows(lg.state, lg.cfg, 0)
    assert table[-1].seat == 1 and table[-1].rank is None


def test_five_light_violations_disqualify_late_counts_13_3_4():
    lg = small()
    gid = day_game(lg, "1-2", {1: "违规:擦边×3"})
    lg.host("violation", at("1-2", "22:00"), player=2, type="黑麦", game=gid)
    lg.host("open_day", at("1-3", "09:00"), date="1-3")
    eff = lg.timer("checkin.late", at("1-3", "18:30"))  # nobody checked in: p2's fifth light violation
    assert "p2（#2） 被取消参赛资格：本届第 5 次轻度违规（§十三.3.4）" in texts(eff, "group")
    assert 2 in eliminated(eff)


def test_heavy_violation_disqualifies_at_once_13_3():
    lg = small()
    eff = lg.host("violation", at("1-2", "10:00"), player=3, type="作弊")
    assert eliminated(eff) == [3]


def test_appeal_until_noon_the_day_after_then_refused_8():
    lg = small()
    gid = day_game(lg, "1-2")
    eff = lg.player(4, "appeal", at("1-3", "11:59"), game=gid, text="3号场外发言未扣分")
    assert texts(eff, "reply")[0].startswith("申诉已提交（编号 1）")
    assert "新申诉 1：p4（#4） 对局号#1" in texts(eff, "hosts")[0]
    assert lg.player_rejected(4, "appeal", at("1-3", "12:01"), game=gid, text="再说一次") == \
        "申诉已截止（1月3日 12:00），本场不再受理（§八）；检举重度违规请以「重度」开头。"
    lg.player(4, "appeal", at("1-5", "12:00"), game=gid, text="重度：发现有人通身份")  # §八 exception
    assert lg.player_rejected(4, "appeal", at("1-3", "10:00"), game=9, text="x") == "没有局号#9，请用积分表或录分回执里的局号。"


def test_appeal_decision_rescores_game_and_standings_follow_8():
    lg = small()
    gid = day_game(lg, "1-2")
    lg.player(9, "appeal", at("1-3", "09:00"), game=gid, text="全场最佳应是 9 号")
    assert "待复核申诉 1 件" in texts(lg.host("appeals", at("1-3", "10:00")), "reply")[0]
    eff = lg.host("verdict", at("1-3", "10:05"), id=1, verdict="改判", note="败方最佳改给 9 号")
    assert texts(eff, 9) == ["你的申诉 1（局号#1）裁判组答复：改判。败方最佳改给 9 号"]
    assert lg.host_rejected("verdict", at("1-3", "10:06"), id=1, verdict="维持") == "申诉 1 已答复（改判）。"
    before = total(lg, 9)
    L = sorted(lg.lineup("A"))
    eff = lg.host("rescore", at("1-3", "10:10"), game=gid,
                  text=plain_sheet(lg.cfg, "标准场", "A", None, L, tokens={8: "败方最佳"}))
    assert total(lg, 9) == before + 1
    game = lg.state.games[0]
    assert len(game.history) == 1 and game.history[0].by == "referee"
    assert lg.state.audit[-1].action == "改分"
    assert any("更正了局号#1" in t for t in texts(eff, "hosts"))
    assert "计分表第一行应写「A组」" in lg.host_rejected("rescore", at("1-3", "10:11"), game=gid,
                                                     text="B组\n胜方 好人")


def test_appeals_list_in_a_group_gives_the_count_and_the_texts_go_to_the_referees_privately_8():
    """§八 「在官方进行调查的过程中，任何选手不得对正在调查的事件公开发表言论」: /申诉列表 sent in a group
    answers there with the count only; who appealed and the texts go to the referees in private."""
    lg = small()
    gid = day_game(lg, "1-2")
    lg.player(4, "appeal", at("1-3", "09:00"), game=gid, text="3号场外发言未扣分")
    lg.player(5, "appeal", at("1-3", "09:30"), game=gid, text="票型记错")
    in_group = Actor("referee", None, True, False, "main")
    eff = lg.cmd(in_group, "appeals", None, at("1-3", "10:00"))
    assert texts(eff, "reply") == ["待复核申诉 2 件；内容已私聊发给裁判（申诉内容不在群里公开，§八）。"]
    assert texts(eff, "group") == []
    private = texts(eff, "hosts")[0]
    assert "1. p4（#4） 局号#1：3号场外发言未扣分" in private and "2. p5（#5） 局号#1：票型记错" in private
    eff = lg.cmd(Actor("referee", None, True, False, "A"), "appeals", None, at("1-3", "10:00"))  # a group's own chat too
    assert "p4" not in texts(eff, "reply")[0]
    eff = lg.host("appeals", at("1-3", "10:01"))  # in private: the list itself, as before
    assert "3号场外发言未扣分" in texts(eff, "reply")[0] and texts(eff, "hosts") == []


def test_three_refused_appeals_close_the_matter_8():
    lg = small()
    gid = day_game(lg, "1-2")
    for i in range(1, 4):
        lg.player(4, "appeal", at("1-3", "09:00"), game=gid, text=f"第{i}次")
        lg.host("verdict", at("1-3", "09:10"), id=i, verdict="维持")
    assert "申诉作废（§八）" in lg.player_rejected(4, "appeal", at("1-3", "10:00"), game=gid, text="第4次")


def test_void_game_keeps_only_violation_deductions_and_replay_is_a_new_game_11_1_11_3():
    lg = small()
    gid = day_game(lg, "1-2", {0: "全场最佳 警徽", 4: "违规:场外"})
    eff = lg.host("void", at("1-2", "22:00"), game=gid, reason="游戏漏洞")
    assert "本局只保留违规扣分（§十一.3）" in texts(eff, "group")[0]
    assert total(lg, 1) == 100 and total(lg, 5) == 99.5
    assert lg.host_rejected("void", at("1-2", "22:01"), game=gid) == "局号#1 已是流局。"
    L = sorted(lg.lineup("A"))
    lg.host("score", at("1-2", "23:00"), text=plain_sheet(lg.cfg, "标准场", "A", 1, L, "狼人"))
    assert lg.state.games[-1].id == 2
    assert total(lg, 1) == 97 and total(lg, 5) == 96.5  # the replay counts, the void game's violation stays


def test_my_points_breakdown_line_by_line_9():
    lg = small()
    day_game(lg, "1-2", {0: "全场最佳 警徽 首日狼出", 4: "违规:擦边"})
    eff = lg.player(1, "my_points", at("1-2", "22:00"))
    text = texts(eff, "reply")[0].splitlines()
    assert text[0] == "p1（#1） 第一轮：106 分，第 1 名"
    assert text[1:8] == ["初始分 100", "胜负分 +3", "行为分 +1", "投票分 0", "狼人警徽分 0", "评选分 +2", "违规扣分 0"]
    assert text[8] == "· 第1场 A组 局号#1 预言家 胜 +6 -0 = +6"
    assert text[-1] == "全场最佳 1 次，败方最佳 0 次；狼人牌胜 0、神牌胜 1、平民牌胜 0"
    other = texts(lg.player(1, "my_points", at("1-2", "22:00"), player=5), "reply")[0]
    assert "· 违规#1 擦边（局号#1）-0.5" in other
    assert "· 第1场 A组 局号#1 平民 胜 +3 -0.5 = +2.5" in other
    assert "不是第一轮的选手" in texts(lg.player(1, "my_points", at("1-2", "22:00"), player=13), "reply")[0]


def test_standings_text_draws_the_advancement_line_4():
    lg = small()
    day_game(lg, "1-2")
    text = texts(lg.player(1, "standings", at("1-2", "22:00")), "reply")[0].splitlines()
    assert text[0] == "第一轮 积分榜（第 1/1 页，共 12 人）"
    assert text[7] == "—— 晋级线：前 6 名 ——"
    assert text[1] == "1. p1（#1） 103"


def test_private_info_and_status_and_export():
    lg = small()
    day_game(lg, "1-2", {4: "违规:擦边"})
    info = ENGINE.private_info(lg.state, 1, settings=lg.cfg)
    assert info.startswith("p1（#1）：正常\n第一轮 A组") and "本轮积分 103，第 1 名" in info
    assert ENGINE.status(lg.state, settings=lg.cfg).startswith("第一轮：已录分 1/3 场；第1比赛日")
    tables = ENGINE.tables(lg.state, settings=lg.cfg)
    assert set(tables) == {"报名", "积分榜-第一轮", "计分表", "违规", "申诉", "审计"}
    assert len(tables["计分表"]) == 1 + 12 and len(tables["报名"]) == 1 + 14
    assert tables["积分榜-第一轮"][1][:4] == [1, 1, "p1", 103]
    assert tables["违规"][1][5:8] == ["擦边", "轻度", 0.5]


def test_finished_league_refuses_commands():
    lg = small()
    for d in ("1-2", "1-3", "1-4"):
        day_game(lg, d)
    eff = lg.host("next_round", at("1-5", "10:00"))
    assert eff[-1].summary.startswith("第一轮 最终排名：\n1. p1（#1） 109")
    assert lg.host_rejected("open_day", at("1-6", "10:00")) == "联赛已结束，只能查看积分和导出。"


def test_disqualified_between_days_place_refilled_when_next_day_opens_13_3_10_2():
    lg = small()
    day_game(lg, "1-2")
    seat = lg.lineup("A")[3]
    lg.host("violation", at("1-2", "22:30"), player=seat, type="作弊")
    assert seat in lg.lineup("A")  # today's lineup stays as it was played
    eff = lg.host("open_day", at("1-3", "09:00"), date="1-3")
    assert seat not in lg.lineup("A") and 13 in lg.lineup("A") and len(lg.lineup("A")) == 12
    assert texts(eff, 13) == ["你已递补进入 A组 12号位，比赛日请按时 /签到。"]


def test_disqualified_before_1850_substitute_takes_the_place_today_13_3():
    lg = small()
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    seat = lg.lineup("A")[0]
    eff = lg.host("violation", at("1-2", "18:20"), player=seat, type="闹事")
    assert lg.lineup("A")[0] == 13 and "你已递补进入 A组 1号位" in texts(eff, 13)[0]


def test_severe_penalty_cancels_win_points_keeps_loss_and_deducts_2_13_3_5():
    lg = small()
    gid = day_game(lg, "1-2")
    lg.host("violation", at("1-2", "22:00"), player=1, type="严厉处罚", game=gid)  # a winner: +3 cancelled
    lg.host("violation", at("1-2", "22:00"), player=9, type="严厉处罚", game=gid)  # a loser: -3 still counts
    assert total(lg, 1) == 100 - 2 and total(lg, 9) == 100 - 3 - 2
    assert lg.state.players[1].status == "active"  # not one of the 5 light / 3 medium


def test_violation_catalogue_matches_13():
    v = ENGINE.settings_of(ENGINE.check_settings({})).violations
    got = {k: (x.level, x.points) for k, x in v.items()}
    assert got["擦边"] == ("light", 0.5) and got["擦边有逻辑"] == ("light", 1)
    assert got["场外"] == ("light", 0.5) and got["场外有逻辑"] == ("light", 1)
    assert got["嘲讽警告"] == ("warning", 0) and got["嘲讽"] == ("light", 1)
    assert got["迟到"] == ("light", 1) and got["黑麦"] == ("light", 1)
    assert all(got[k] == ("medium", 2) for k in ("贴脸", "不文明", "异常", "消极", "情绪", "暗号"))
    assert got["作弊"][0] == got["闹事"][0] == "heavy"


def test_a_day_whose_timers_never_fired_is_finished_when_the_next_opens_5():
    lg = small()
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    from helpers_league import checkin_all
    checkin_all(lg, at("1-2", "18:05"), skip=(4,))
    eff = lg.host("open_day", at("1-3", "09:00"), date="1-3")
    first = lg.state.days[0]
    assert first.done == ["late", "demote", "seat"] and 4 in first.demoted
    assert any("你已降为替补" in t for t in texts(eff, 4))


def test_the_state_holds_no_copy_of_the_settings_and_an_old_state_is_upgraded():
    """Rules read ctx.settings; a version-1 state (with its "cfg" copy of the settings) is brought up to date."""
    lg = small()
    day_game(lg, "1-2", {0: "全场最佳"})
    stored = ENGINE.encode(lg.state)
    assert "cfg" not in stored and stored["version"] == ENGINE.STATE_VERSION == 2
    old = {**stored, "cfg": lg.stored, "version": 1}
    assert ENGINE.upgrade(copy_state(old)) == {**stored, "version": 1} and "cfg" in old
    assert ENGINE.decode(copy_state(old)) == msgspec.structs.replace(lg.state, version=1)
    lg.state = ENGINE.decode(copy_state(old))
    eff = lg.player(1, "standings", at("1-2", "22:00"))
    assert texts(eff, "reply")[0].startswith("第一轮 积分榜（第 1/1 页，共 12 人）")
    again = ENGINE.encode(lg.state)
    assert "cfg" not in again and again["version"] == 2
