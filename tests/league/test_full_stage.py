"""A whole online stage: 130 registrations, three rounds, late/absent players,
substitutes and forfeits, and the 24 finalists checked against a hand-computed table."""

from __future__ import annotations

import json

import pytest
from helpers_league import League, at, checkin_all, eliminated, play_day

from plugins.kernel.engine import Finish
from plugins.league.engine import ENGINE
from plugins.league.engine.standings import rows

R1_TOKENS = {0: "全场最佳", 8: "败方最佳"}

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


def run_stage(seed: str) -> tuple[League, dict]:
    lg = League(n=130, seed=seed)
    notes: dict = {}
    # ---- round 1, day 1 with late, absent and forfeiting players
    lg.host("open_day", at("1-2", "12:00"), date="1-2")
    a, b, c = lg.lineup("A"), lg.lineup("B"), lg.lineup("C")
    notes.update(late1=a[2], demoted1=a[5], demoted2=b[3], marked=c[0])
    checkin_all(lg, at("1-2", "18:10"), skip=(a[2], a[5], b[3]))
    lg.player(a[2], "checkin", at("1-2", "18:32"))
    lg.timer("checkin.late", at("1-2", "18:30"))
    lg.timer("checkin.demote", at("1-2", "18:35"))
    lg.player(121, "checkin", at("1-2", "18:40"))
    lg.host("absent", at("1-2", "18:45"), players=[c[0]])
    notes["forfeit_effects"] = lg.timer("checkin.seat", at("1-2", "18:50"))
    for g in sorted(lg.day["lineups"]):
        from helpers_league import plain_sheet
        lg.host("score", at("1-2", "21:00"),
                text=plain_sheet(lg.cfg, lg.day["board"], g, 1, lg.lineup(g), tokens=R1_TOKENS))
    for d in ("1-3", "1-4"):
        play_day(lg, d, lambda g, no, L: R1_TOKENS)
    notes["r1_rows"] = rows(lg.state, 0)
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
        for g in sorted(lg.day["lineups"]):
            lg.host("score", at(d, "21:00"), text=r2_sheet(lg, lg.day["board"], g, lg.day["first_no"]))
    notes["r2_groups"] = {g: sorted(m) for g, m in lg.groups().items()}
    notes["r2_rows"] = rows(lg.state, 1)
    lg.host("next_round", at("1-12", "10:00"))
    # ---- final: 2 groups, 2+2+1 games, game 5 doubled
    for d in ("1-16", "1-17", "1-18"):
        play_day(lg, d, lambda g, no, L: {0: "全场最佳"})
    notes["final_rows"] = rows(lg.state, 2)
    notes["finish"] = lg.host("next_round", at("1-19", "10:00"))
    return lg, notes


@pytest.fixture(scope="module")
def stage():
    return run_stage("stage")


def test_round_one_late_absent_substitutes_and_forfeits_5_10_12(stage):
    lg, n = stage
    r1 = {r["seat"]: r for r in n["r1_rows"]}
    assert len(lg.state["rounds"][0]["members"]) == 120 + 4  # #121 #122 #123 #124 came in
    assert [v["seat"] for v in lg.state["violations"] if v["type"] == "迟到" and v["round"] == 0] == \
        [n["late1"], n["demoted1"], n["demoted2"]]
    assert eliminated(n["forfeit_effects"]) == [122, n["marked"]]  # B's promoted #122 never came; C marked 未到
    assert lg.state["players"]["122"]["status"] == "forfeit"
    assert r1[122]["rank"] is None and r1[n["marked"]]["rank"] is None
    assert r1[n["demoted1"]]["games"] == 0 and r1[n["demoted1"]]["total"] == 99
    assert r1[121]["games"] == 3 and r1[123]["games"] == 3 and r1[124]["games"] == 3
    assert sum(1 for r in n["r1_rows"] if r["advance"]) == 72
    assert lg.state["rounds"][1]["members"] == sorted(r["seat"] for r in n["r1_rows"] if r["advance"])


def test_round_two_top_24_matches_the_hand_computed_table_9_4(stage):
    lg, n = stage
    r1rank = lg.state["rounds"][0]["ranking"].index
    groups = n["r2_groups"]
    k = lambda i: [groups[g][i] for g in sorted(groups)]  # noqa: E731
    k3 = [s for s in k(3) if s != n["late2"]]
    expected = (sorted(k(0), key=r1rank) + sorted(k(1) + k(2), key=r1rank) + sorted(k3, key=r1rank)
                + [min(k(4), key=r1rank)])
    totals = [117.5] * 6 + [113.5] * 12 + [111] * 5 + [111]
    top = [r for r in n["r2_rows"] if r["advance"]]
    assert [r["seat"] for r in top] == expected
    assert [r["total"] for r in top] == totals
    late = next(r for r in n["r2_rows"] if r["seat"] == n["late2"])
    assert (late["rank"], late["total"]) == (30, 110)
    assert [r["total"] for r in n["r2_rows"][30:42]] == [109] * 12
    assert [r["total"] for r in n["r2_rows"][-6:]] == [91] * 6
    assert sorted(lg.state["rounds"][2]["members"]) == sorted(expected)


def test_final_game_five_doubled_and_finish_4_2(stage):
    lg, n = stage
    g5 = [g for g in lg.state["games"] if g["round"] == 2 and g["no"] == 5]
    assert len(g5) == 2 and all(g["double"] for g in g5)
    top = n["final_rows"][:2]
    # each group's first player: MVP in all five games, 4 × (3 + 2) + 2 × (3 + 2) = 30
    assert [r["total"] for r in top] == [130, 130]
    r2rank = lg.state["rounds"][1]["ranking"].index
    assert [r["seat"] for r in top] == sorted((r["seat"] for r in top), key=r2rank)  # §九.3
    fin = [e for e in n["finish"] if isinstance(e, Finish)]
    assert fin and fin[0].summary.splitlines()[1].endswith(" 130") and lg.state["finished"]


def test_export_holds_every_round_and_scoresheet(stage):
    lg, _ = stage
    tables = ENGINE.tables(lg.state)
    assert [t for t in tables if t.startswith("积分榜")] == ["积分榜-第一轮", "积分榜-第二轮", "积分榜-总决赛"]
    assert len(tables["计分表"]) == 1 + 12 * (30 + 18 + 10)
    assert len(tables["积分榜-第一轮"]) == 1 + 124


def test_replay_same_seed_same_commands_same_times_identical(stage):
    lg, _ = stage
    again, _ = run_stage("stage")
    assert again.state == lg.state
    assert again.log == lg.log
    assert json.loads(json.dumps(lg.state)) == lg.state  # the kernel stores it as JSON
