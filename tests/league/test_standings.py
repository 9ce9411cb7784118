"""Standings and the §九 tie-breaks, advancement lines (§四)."""

from __future__ import annotations

from helpers_league import League, at, checkin_all, plain_sheet, sheet, texts

from plugins.gamekit.contract import Picture
from plugins.league.engine import ENGINE, standings_rows
from plugins.league.engine.standings import rows

ONE_DAY = lambda board="标准场", games=1: [{"label": "d", "board": board, "games": games}]  # noqa: E731


def small(days, n: int = 14) -> League:
    return League(n=n, settings={"options": {"main_draw": 12},
                                 "rounds": [{"key": "r1", "name": "第一轮", "players": 12, "groups": 1,
                                             "advance": 6, "double_games": [], "days": days}]})


def explicit(lg: League, no: int, winner: str, roles: dict[int, tuple[str, str]], board_roles: list[str]) -> str:
    """roles: registration number -> (role, tokens); everyone else fills the remaining roles."""
    L = sorted(lg.lineup("A"))
    left = list(board_roles)
    for role, _ in roles.values():
        left.remove(role)
    lines = []
    for k, reg in enumerate(L):
        role, tok = roles[reg] if reg in roles else (left.pop(0), "")
        lines.append((k + 1, reg, role, tok))
    return sheet("A", no, winner, lines)


STD = ["预言家", "女巫", "猎人", "白痴", "平民", "平民", "平民", "平民", "狼人", "狼人", "狼人", "狼人"]
WKG = ["预言家", "女巫", "猎人", "守卫", "平民", "平民", "平民", "平民", "狼人", "狼人", "狼人", "狼王"]


def order(lg: League, seats: list[int]) -> list[int]:
    return [r.seat for r in rows(lg.state, lg.cfg, lg.state.round) if r.seat in seats]


def test_equal_points_more_mvp_ranks_first_9_1():
    lg = small(ONE_DAY())
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    # #2 witch: win 3 + poison a wolf 1 + one vote on a wolf... kept simple: 3 + 1 + 1 (two votes) = 5
    # #9 villager: win 3 + MVP 2 = 5; same total, one MVP more => ahead despite registration order
    text = explicit(lg, 1, "好人", {2: ("女巫", "毒狼人"), 9: ("平民", "全场最佳")}, STD)
    seat_of = {int(line.split()[1][1:]): line.split()[0] for line in text.splitlines()[2:]}
    wolves = [line.split()[0] for line in text.splitlines()[2:] if line.split()[2] == "狼人"]
    text += f"\n票 1 {wolves[0]}: {seat_of[2]}\n票 2 {wolves[1]}: {seat_of[2]}"
    lg.host("score", at("1-2", "21:00"), text=text)
    table = {r.seat: r for r in rows(lg.state, lg.cfg, 0)}
    assert table[2].total == table[9].total == 105
    assert order(lg, [2, 9]) == [9, 2]


def test_equal_points_and_mvp_more_best_of_losing_ranks_first_9_1():
    lg = small(ONE_DAY("狼王守卫"))
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    # #3 狼王: -3 + badge 0.5 + 带走神职 0.5 = -2 ; #11 狼人: -3 + 败方最佳 1 = -2
    text = explicit(lg, 1, "好人", {3: ("狼王", "警徽 带走神职"), 11: ("狼人", "败方最佳")}, WKG)
    lg.host("score", at("1-2", "21:00"), text=text)
    table = {r.seat: r for r in rows(lg.state, lg.cfg, 0)}
    assert table[3].total == table[11].total == 98
    assert order(lg, [3, 11]) == [11, 3]


def test_wolf_card_wins_before_god_before_villager_9_2():
    lg = small(ONE_DAY(games=2))
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    # game 1 wolves win, game 2 good wins; each of #1 #2 #3 wins once and loses once => 100 each
    lg.host("score", at("1-2", "20:00"),
            text=explicit(lg, 1, "狼人", {3: ("狼人", ""), 2: ("女巫", ""), 1: ("平民", "")}, STD))
    lg.host("score", at("1-2", "21:00"),
            text=explicit(lg, 2, "好人", {3: ("狼人", ""), 2: ("女巫", ""), 1: ("平民", "")}, STD))
    table = {r.seat: r for r in rows(lg.state, lg.cfg, 0)}
    assert [table[s].total for s in (1, 2, 3)] == [100, 100, 100]
    assert table[3].wins == {"wolf": 1, "god": 0, "villager": 0}
    assert order(lg, [1, 2, 3]) == [3, 2, 1]


def test_still_equal_in_round_one_registration_order_decides_9_3():
    lg = small(ONE_DAY())
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    lg.host("score", at("1-2", "21:00"), text=explicit(lg, 1, "好人", {7: ("平民", ""), 4: ("平民", "")}, STD))
    assert order(lg, [4, 7]) == [4, 7]
    assert not any(r.tie for r in rows(lg.state, lg.cfg, 0))


def two_rounds() -> League:
    """26 registered; round 1: 24 players in 2 groups, top 12 advance to a 1-group round 2."""
    settings = {"options": {"main_draw": 24},
                "rounds": [{"key": "r1", "name": "第一轮", "players": 24, "groups": 2, "advance": 12,
                            "double_games": [], "days": ONE_DAY()},
                           {"key": "r2", "name": "第二轮", "players": 12, "groups": 1, "advance": 4,
                            "double_games": [], "days": ONE_DAY() + ONE_DAY()}]}
    lg = League(n=26, settings=settings)
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    for g in ("A", "B"):
        lg.host("score", at("1-2", "21:00"),
                text=plain_sheet(lg.cfg, "标准场", g, 1, lg.lineup(g), tokens={0: "全场最佳"} if g == "A" else {}))
    lg.host("next_round", at("1-3", "10:00"))
    return lg


def test_previous_round_ranking_breaks_ties_in_round_two_9_3():
    lg = two_rounds()
    r1 = lg.state.rounds[0].ranking
    assert len(lg.state.rounds[1].members) == 12 and lg.state.rounds[1].members == sorted(r1[:12])
    lg.host("open_day", at("1-9", "09:00"), date="1-9")
    lg.host("score", at("1-9", "21:00"), text=plain_sheet(lg.cfg, "标准场", "A", 1, lg.lineup("A")))
    table = rows(lg.state, lg.cfg, 1)
    villagers = [s for s in sorted(lg.lineup("A"))[4:8]]
    got = [r.seat for r in table if r.seat in villagers]
    assert got == sorted(villagers, key=r1.index)


def test_round_two_substitutes_by_round_one_ranking_10_2():
    lg = two_rounds()
    r1 = lg.state.rounds[0].ranking
    lg.host("open_day", at("1-9", "09:00"), date="1-9")
    out = lg.lineup("A")[0]
    checkin_all(lg, at("1-9", "18:10"), skip=(out,))
    lg.timer("checkin.demote", at("1-9", "18:35"))
    assert lg.lineup("A")[0] == r1[12]  # the 13th of round 1, not the lowest registration number


def test_tie_left_after_every_rule_is_flagged_for_the_referees_9_4():
    lg = two_rounds()
    lg.host("open_day", at("1-9", "09:00"), date="1-9")
    lg.host("score", at("1-9", "21:00"), text=plain_sheet(lg.cfg, "标准场", "A", 1, lg.lineup("A")))
    st = ENGINE.copy(lg.state)
    a, b = sorted(lg.lineup("A"))[4:6]  # two villagers with identical games
    st.rounds[0].ranking = [s for s in st.rounds[0].ranking if s not in (a, b)]
    flagged = [r.seat for r in rows(st, lg.cfg, 1) if r.tie]
    assert flagged == [a, b]
    table = standings_rows(st, lg.cfg, 1)
    assert [row[-1] for row in table[1:] if row[1] in (a, b)] == ["同分待裁定（§九.4）"] * 2


def test_next_round_refused_until_every_game_is_entered_4():
    lg = two_rounds()
    lg.host("open_day", at("1-9", "09:00"), date="1-9")
    msg = lg.host_rejected("next_round", at("1-10", "10:00"))
    assert msg == "本轮还没结束：还有 1 个比赛日没开、A组 第1场、A组 第2场。录完分（或 /流局）后再 /下一轮。"


def test_standings_rows_for_the_picture():
    lg = two_rounds()
    table = standings_rows(lg.state, lg.cfg, 0)
    assert table[0][:5] == ["排名", "序号", "马甲", "组", "总分"]  # two groups: the group column
    assert [r[0] for r in table[1:]] == list(range(1, 25))
    assert sum(1 for r in table[1:] if r[table[0].index("晋级")] == "是") == 12
    assert {r[3] for r in table[1:]} == {"A", "B"}
    assert texts(lg.effects, "group")[-1].startswith("第二轮 A组")


def two_groups(games: int = 2, picture: bool = True) -> League:
    days = [{"label": "1月2日", "board": "标准场", "games": games}, {"label": "1月3日", "board": "标准场", "games": games}]
    return League(n=26, settings={"options": {"main_draw": 24, "picture_after_day": picture},
                                  "rounds": [{"key": "r1", "name": "第一轮", "players": 24, "groups": 2, "advance": 6,
                                              "double_games": [], "days": days}]})


def seated(lg: League, date: str = "1-2") -> None:
    lg.host("open_day", at(date, "09:00"), date=date)
    checkin_all(lg, at(date, "18:10"))
    for key, hhmm in (("checkin.late", "18:30"), ("checkin.demote", "18:35"), ("checkin.seat", "18:50")):
        lg.timer(key, at(date, hhmm))


def test_the_standings_picture_goes_to_the_main_group_after_a_match_days_last_sheet_5_1():
    """§五（一） 「当天比赛成绩…在赛事群内公布」: once every group's every game of the day has a sheet,
    the standings picture goes to the main group (not after each sheet; again after a replay of a
    void game completes the day); a host may turn it off (options.picture_after_day)."""
    lg = two_groups()
    seated(lg)
    pictures = []
    for no in (1, 2):
        for g in ("A", "B"):
            eff = lg.host("score", at("1-2", "21:00"), text=plain_sheet(lg.cfg, "标准场", g, no, lg.lineup(g)))
            pictures.append([e for e in eff if isinstance(e, Picture)])
    assert pictures[:3] == [[], [], []]
    (pic,) = pictures[3]
    assert pic.to == "group" and pic.name == "standings"
    assert pic.caption.startswith("第一轮 第1比赛日（1月2日）全部 4 局已录分。\n第一轮 积分榜（共 24 人，前 6 名晋级）")
    assert texts(eff, "reply")[0].endswith("本比赛日各组都已录完，积分榜图已发到主群。")
    eff = lg.host("void", at("1-2", "22:00"), game=4, reason="断线")
    assert not any(isinstance(e, Picture) for e in eff)
    eff = lg.host("score", at("1-2", "22:30"), text=plain_sheet(lg.cfg, "标准场", "B", 2, lg.lineup("B")))
    assert [e.to for e in eff if isinstance(e, Picture)] == ["group"]
    eff = lg.host("rescore", at("1-2", "23:00"), game=1, text=plain_sheet(lg.cfg, "标准场", "A", 1, lg.lineup("A")))
    assert not any(isinstance(e, Picture) for e in eff)
    off = two_groups(games=1, picture=False)
    seated(off)
    eff = off.host("score", at("1-2", "21:00"), text=plain_sheet(off.cfg, "标准场", "A", 1, off.lineup("A")))
    assert not any(isinstance(e, Picture) for e in eff) and "积分榜图" not in texts(eff, "reply")[0]
