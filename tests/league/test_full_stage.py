"""A whole online stage: 130 registrations, three rounds, late/absent players,
substitutes and forfeits, and the 24 finalists checked against a hand-computed table."""

from __future__ import annotations

import json

import pytest
from helpers_league import League, at, checkin_all, eliminated, play_day, texts

from plugins.gamekit.contract import Finish
from plugins.league.engine import ENGINE
from plugins.league.engine.standings import rows

# Round 2: players of a group sorted by registration number take position k = 0..11
# (roles in board order: gods, villagers, wolves; the good side always wins).
# Day 1 标准场     k0 预言家 警徽 首日狼出 MVP        3+0.5+0.5+2   = 6
#                  k1 女巫 毒狼人, votes wolf d1 d2   3+1+1         = 5
#                  k2 猎人 枪狼人, vote wolf d1       3+1+0.5       = 4.5
#                  k3 白痴, votes wolf d1 d2          3+1           = 4
#                  k4 平民, vote wolf d1              3+0.5         = 3.5
#                  k5 平民, vote good d1              3-0.5         = 2.5
#                  k6 k7 平民 3; k8 狼人 SVP -3+1 = -2; k9-11 狼人 -3 (one badge a game: the seer's)
# Day 2 纯白夜影   k0 纯白之女 警徽 验出狼人×2 MVP   3+0.5+1+2     = 6.5
#                  k1 女巫 毒狼人, vote wolf d1       3+1+0.5       = 4.5
#                  k2 猎人 枪狼人, votes wolf d1-d3   3+1+1(cap)    = 5
#                  k3 守卫 3; k4 平民 vote wolf d1 3.5; k5-7 平民 3
#                  k8 狼人 SVP -2; k9 k10 狼人, k11 狼巫 -3
# Day 3 狼美人骑士 k0 预言家 MVP 5; k1 女巫 毒狼人 4; k2 守卫 守刀好人 + vote wolf d1 4
#                  k3 骑士 决斗狼人 4; k4 平民 votes wolf d1 d2 4; k5-7 平民 3
#                  k8 狼人 SVP -2; k9 k10 狼人, k11 狼美人 -3
# Totals (100 +): k0 117.5 (3 MVP) | k1 113.5 | k2 113.5 | k3 111 (3 god wins) | k4 111 (3 villager wins)
#                 k6 k7 109 | k5 108.5 | k8 94 | k9-k11 91
# The A-group k3 checks in at 18:31 on day 1: late, -1 => 110.
# Top 24 = six k0 (117.5) | twelve k1/k2 (113.5) by round-1 rank (§九.3)
#          | five k3 (111, god wins beat villager wins §九.2) | the best k4 by round-1 rank (111).
R2 = {
    "标准场": ({0: "警徽 首日狼出 全场最佳", 1: "毒狼人", 2: "枪狼人", 8: "败方最佳"},
              {1: (1, 2), 2: (1,), 3: (1, 2), 4: (1,)}, {5: 1}),
    "纯白夜影": ({0: "警徽 验出狼人×2 全场最佳", 1: "毒狼人", 2: "枪狼人", 8: "败方最佳"},
                {1: (1,), 2: (1, 2, 3), 4: (1,)}, {}),
    "狼美人骑士": ({0: "全场最佳", 1: "毒狼人", 2: "守刀好人", 3: "决斗狼人", 8: "败方最佳"},
                  {2: (1,), 4: (1, 2)}, {}),
}


def r2_sheet(lg: League, board: str, group: str, no: int) -> str:
    from helpers_league import plain_sheet
    tokens, wolf_votes, good_votes = R2[board]
    extra = []
    for k, days in sorted(wolf_votes.items()):
        extra += [f"票 {d} 9: {k + 1}" for d in days]  # game seat 9 is a 狼人 on every board
    for k, d in sorted(good_votes.items()):
        extra.append(f"票 {d} 7: {k + 1}")  # game seat 7 is a 平民
    return plain_sheet(lg.cfg, board, group, no, lg.lineup(group), tokens=tokens, extra=tuple(extra))


# Round 1 (hand-computed). Sheets give roles by lineup position p = 0..11 (a substitute takes
# the position, so the role slot, of the player they replace): p0-p3 gods, p4-p7 villagers,
# p8-p11 wolves. Day 1 the good side wins (p0 MVP, p8 SVP); days 2 and 3 the wolves win (p8 MVP,
# p0 SVP). Per position: day 1  p0 +5, p1-p7 +3, p8 -2, p9-p11 -3
#                       day 2/3 p0 -2, p1-p7 -3, p8 +5, p9-p11 +3
# Whole round: p8 108 (2 MVP) | p9-p11 103 (2 wolf wins) | p0 101 | p1-p3 97 (god win) | p4-p7 97.
# Day 1: A p11 and B p10 never check in (late -1, demoted at 18:35: 99 and 0 games); #121 takes A p11;
#        #122 takes B p10 but never checks in (forfeit at 18:50), #123 takes it; C p9 is marked 未到
#        (forfeit), #124 takes it; G p2 checks in at 18:32 (late, 96); F p1 has 擦边 on the sheet (96.5).
# Day 2: D p11 never checks in (played day 1: 100 - 3 - 1 = 96, demoted); #125 takes it (+3 +3 = 106).
#        H p3 checks in at 18:33 (late) and the referees take it back (/撤销): 97.
#        E p8 (the day-2 MVP) gets /违规 贴脸 after the sheet (-2 and the MVP, §七.3), then /撤销: 108.
# Day 3: p11 of E F G H I J never check in (each 100 - 3 + 3 - 1 = 99 after two games, demoted);
#        #126-#130 take E-I; J takes the best demoted player by current ranking, the lower of
#        A p11 / B p10 (both 99, §九.3 registration order): 99 + 3 = 102.
# Ranked top 72: ten p8 (108) | #125 (106) | p9, p10 of every group with A p11 (#121), B p11, C p11
# (103, 2 wolf wins) | #126-#130 (103, 1 wolf win) | the returnee (102) | ten p0 (101) | the first 22
# of the 28 gods on 97 by registration (F p1 96.5 and G p2 96 are below). Demoted players not put in
# again (99, 99, 96 and six on 99) are not ranked: under the old rule seven of them would have advanced.


def pos_sheet(lg: League, group: str, no: int, winner: str, tokens: dict[int, str]) -> str:
    from helpers_league import board_roles, sheet

    day = lg.day
    roles = board_roles(lg.cfg, day.board)
    return sheet(group, no, winner, [(p + 1, reg, roles[p], tokens.get(p, ""))
                                     for p, reg in enumerate(day.lineups[group])])


def r1_day(lg: League, date: str, absent: dict[str, int], late: dict[str, tuple[int, str]], marked=(),
           no_show=(), sheet_tokens=None) -> list:
    """Open, check in (absent = group -> position never checking in; late = group -> (position,
    time)), the clock, substitutes check in, every game entered."""
    lg.host("open_day", at(date, "12:00"), date=date)
    L = {g: list(m) for g, m in lg.day.lineups.items()}
    skip = tuple(L[g][p] for g, p in absent.items()) + tuple(L[g][p] for g, (p, _) in late.items())
    checkin_all(lg, at(date, "18:10"), skip=skip)
    for g, (p, hhmm) in late.items():
        lg.player(L[g][p], "checkin", at(date, hhmm), chat=None)
    lg.timer("checkin.late", at(date, "18:30"))
    lg.timer("checkin.demote", at(date, "18:35"))
    for seat in sorted(lg.day.promoted):
        if seat not in no_show:
            lg.player(seat, "checkin", at(date, "18:40"))
    for seat in marked:
        lg.host("absent", at(date, "18:45"), players=[seat])
    eff = lg.timer("checkin.seat", at(date, "18:50"))
    good = date == "1-2"
    for g in sorted(lg.day.lineups):
        tokens = {0: "全场最佳", 8: "败方最佳"} if good else {8: "全场最佳", 0: "败方最佳"}
        tokens = {**tokens, **((sheet_tokens or {}).get(g, {}))}
        lg.host("score", at(date, "21:00"),
                text=pos_sheet(lg, g, lg.day.first_no, "好人" if good else "狼人", tokens))
    return eff


def game_id(lg: League, group: str, no: int) -> int:
    return next(g.id for g in lg.state.games if g.round == 0 and g.group == group and g.no == no)


def run_stage(seed: str) -> tuple[League, dict]:
    lg = League(n=130, seed=seed)
    notes: dict = {}
    G = {g: list(m) for g, m in lg.groups().items()}  # start-of-round groups, lineup order = position
    notes["G"] = G
    # ---- round 1
    notes["forfeit_effects"] = r1_day(lg, "1-2", absent={"A": 11, "B": 10},
                                      late={"G": (2, "18:32")}, marked=(G["C"][9],), no_show=(122,),
                                      sheet_tokens={"F": {1: "违规:擦边"}})
    notes["promoted_b"] = lg.groups()["B"][10]  # not #122, who forfeited
    r1_day(lg, "1-3", absent={"D": 11}, late={"H": (3, "18:33")})
    h_late = next(v.id for v in lg.state.violations if v.seat == G["H"][3] and v.type == "迟到")
    lg.host("undo", at("1-3", "22:00"), id=h_late, reason="签到群卡顿，截图为证")
    notes["mvp_strip"] = lg.host("violation", at("1-3", "22:05"), player=G["E"][8], type="贴脸",
                                 game=game_id(lg, "E", 2))
    notes["e8_stripped"] = next(r for r in rows(lg.state, lg.cfg, 0) if r.seat == G["E"][8])
    lg.host("undo", at("1-4", "11:00"), id=lg.state.violations[-1].id, reason="申诉改判：非贴脸")
    r1_day(lg, "1-4", absent={g: 11 for g in "EFGHIJ"}, late={})
    notes["returnee"] = lg.groups()["J"][11]
    notes["r1_rows"] = rows(lg.state, lg.cfg, 0)
    notes["r1_groups"] = {g: list(m) for g, m in lg.groups().items()}
    lg.host("next_round", at("1-5", "10:00"))
    # ---- round 2 (hand-computed)
    for d in ("1-9", "1-10", "1-11"):
        lg.host("open_day", at(d, "12:00"), date=d)
        late = sorted(lg.lineup("A"))[3] if d == "1-9" else None
        if late:
            notes["late2"] = late
        checkin_all(lg, at(d, "18:10"), skip=(late,) if late else ())
        if late:
            lg.player(late, "checkin", at(d, "18:31"))
        for key, hhmm in (("checkin.late", "18:30"), ("checkin.demote", "18:35"), ("checkin.seat", "18:50")):
            lg.timer(key, at(d, hhmm))
        for g in sorted(lg.day.lineups):
            lg.host("score", at(d, "21:00"), text=r2_sheet(lg, lg.day.board, g, lg.day.first_no))
    notes["r2_groups"] = {g: sorted(m) for g, m in lg.groups().items()}
    notes["r2_rows"] = rows(lg.state, lg.cfg, 1)
    lg.host("next_round", at("1-12", "10:00"))
    # ---- final: 2 groups, 2+2+1 games, game 5 doubled
    for d in ("1-16", "1-17", "1-18"):
        play_day(lg, d, lambda g, no, L: {0: "全场最佳"})
    notes["final_rows"] = rows(lg.state, lg.cfg, 2)
    notes["finish"] = lg.host("next_round", at("1-19", "10:00"))
    return lg, notes


@pytest.fixture(scope="module")
def stage():
    return run_stage("stage")


def test_round_one_late_absent_substitutes_and_forfeits_5_10_12(stage):
    lg, n = stage
    G = n["G"]
    r1 = {r.seat: r for r in n["r1_rows"]}
    assert len(lg.state.rounds[0].members) == 130  # every substitute #121-#130 came in
    assert eliminated(n["forfeit_effects"]) == [122, G["C"][9]]  # B's promoted #122 never came; C marked 未到
    assert lg.state.players[122].status == "forfeit"
    assert r1[122].rank is None and r1[G["C"][9]].rank is None
    end = n["r1_groups"]
    assert [end[g][11] for g in "ADEFGHI"] == [121, 125, 126, 127, 128, 129, 130]
    assert n["promoted_b"] == 123 and end["C"][9] == 124
    assert sum(1 for r in n["r1_rows"] if r.advance) == 72


def test_round_one_demoted_players_are_not_ranked_unless_they_play_again_5_10_2_10_3(stage):
    lg, n = stage
    G = n["G"]
    r1 = {r.seat: r for r in n["r1_rows"]}
    a11, b10 = G["A"][11], G["B"][10]
    assert n["returnee"] == min(a11, b10)  # §十.2: the better-ranked demoted player; both 99, §九.3
    benched = [max(a11, b10), G["D"][11]] + [G[g][11] for g in "EFGHIJ"]
    assert sorted(lg.state.rounds[0].benched) == sorted(benched)
    for seat in benched:
        assert (r1[seat].rank, r1[seat].status, r1[seat].advance) == (None, "demoted", False)
    assert [r1[s].total for s in benched] == [99, 96] + [99] * 6
    assert [r1[s].games for s in benched] == [0, 1] + [2] * 6
    back = r1[n["returnee"]]
    assert (back.total, back.games, back.status) == (102, 1, "active") and back.rank == 40
    export = {r[1]: r for r in ENGINE.tables(lg.state, settings=lg.cfg)["积分榜-第一轮"][1:]}
    assert all(export[s][0] == "" and export[s][-1] == "降为替补" for s in benched)


def test_round_one_reversed_penalties_and_the_mvp_taken_then_restored_7_3_8_13(stage):
    lg, n = stage
    G = n["G"]
    r1 = {r.seat: r for r in n["r1_rows"]}
    e8 = G["E"][8]
    assert "全场最佳（+2）已取消（§七.3）" in texts(n["mvp_strip"], "reply")[0]
    # after day 2: 100 - 2 + 5 = 103, then -2 (贴脸) and the day-2 MVP's +2 gone => 99, no MVP left
    assert (n["e8_stripped"].total, n["e8_stripped"].mvp) == (99, 0)
    assert (r1[e8].total, r1[e8].mvp) == (108, 2)
    assert r1[G["H"][3]].total == 97 and r1[G["H"][3]].parts.violation == 0
    assert r1[G["F"][1]].total == 96.5 and r1[G["G"][2]].total == 96
    undone = [v for v in lg.state.violations if v.reversed is not None and v.round == 0]
    assert [(v.seat, v.type) for v in undone] == [(G["H"][3], "迟到"), (e8, "贴脸")]
    assert [a.action for a in lg.state.audit].count("撤销") == 2


def test_round_one_top_72_matches_the_hand_computed_table_9(stage):
    lg, n = stage
    G = n["G"]
    groups = sorted(G)
    at_pos = lambda p: [G[g][p] for g in groups]  # noqa: E731
    end = n["r1_groups"]  # p9, p10 of every group and p11 of A (#121), B, C played all three days as wolves
    tier103 = sorted([end[g][p] for g in groups for p in (9, 10)] + [end[g][11] for g in "ABC"])
    assert 123 in tier103 and 124 in tier103 and 121 in tier103
    gods97 = sorted(s for s in at_pos(1) + at_pos(2) + at_pos(3) if s not in (G["F"][1], G["G"][2]))
    expected = (sorted(at_pos(8)) + [125] + tier103 + [126, 127, 128, 129, 130] + [n["returnee"]]
                + sorted(at_pos(0)) + gods97[:22])
    totals = [108] * 10 + [106] + [103] * 23 + [103] * 5 + [102] + [101] * 10 + [97] * 22
    top = [r for r in n["r1_rows"] if r.advance]
    assert [r.seat for r in top] == expected
    assert [r.total for r in top] == totals
    assert lg.state.rounds[1].members == sorted(expected)
    assert sum(1 for r in n["r1_rows"] if r.rank) == 130 - 2 - 8  # two forfeits, eight benched


def test_round_two_top_24_matches_the_hand_computed_table_9_4(stage):
    lg, n = stage
    r1rank = lg.state.rounds[0].ranking.index
    groups = n["r2_groups"]
    k = lambda i: [groups[g][i] for g in sorted(groups)]  # noqa: E731
    k3 = [s for s in k(3) if s != n["late2"]]
    expected = (sorted(k(0), key=r1rank) + sorted(k(1) + k(2), key=r1rank) + sorted(k3, key=r1rank)
                + [min(k(4), key=r1rank)])
    totals = [117.5] * 6 + [113.5] * 12 + [111] * 5 + [111]
    top = [r for r in n["r2_rows"] if r.advance]
    assert [r.seat for r in top] == expected
    assert [r.total for r in top] == totals
    late = next(r for r in n["r2_rows"] if r.seat == n["late2"])
    assert (late.rank, late.total) == (30, 110)
    assert [r.total for r in n["r2_rows"][30:42]] == [109] * 12
    assert [r.total for r in n["r2_rows"][-6:]] == [91] * 6
    assert sorted(lg.state.rounds[2].members) == sorted(expected)


def test_final_game_five_doubled_and_finish_4_2(stage):
    lg, n = stage
    g5 = [g for g in lg.state.games if g.round == 2 and g.no == 5]
    assert len(g5) == 2 and all(g.double for g in g5)
    top = n["final_rows"][:2]
    # each group's first player: MVP in all five games, 4 × (3 + 2) + 2 × (3 + 2) = 30
    assert [r.total for r in top] == [130, 130]
    r2rank = lg.state.rounds[1].ranking.index
    assert [r.seat for r in top] == sorted((r.seat for r in top), key=r2rank)  # §九.3
    fin = [e for e in n["finish"] if isinstance(e, Finish)]
    assert fin and fin[0].summary.splitlines()[1].endswith(" 130") and lg.state.finished


def test_export_holds_every_round_and_scoresheet(stage):
    lg, _ = stage
    tables = ENGINE.tables(lg.state, settings=lg.cfg)
    assert [t for t in tables if t.startswith("积分榜")] == ["积分榜-第一轮", "积分榜-第二轮", "积分榜-总决赛"]
    assert len(tables["计分表"]) == 1 + 12 * (30 + 18 + 10)
    assert len(tables["积分榜-第一轮"]) == 1 + 130


def test_replay_same_seed_same_commands_same_times_identical(stage):
    lg, _ = stage
    again, _ = run_stage("stage")
    assert again.state == lg.state
    assert again.log == lg.log
    assert ENGINE.decode(json.loads(json.dumps(ENGINE.encode(lg.state)))) == lg.state  # the kernel stores it as JSON
