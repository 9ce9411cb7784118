"""Invariants (hypothesis): order independence, nobody out twice, totals add up."""

from __future__ import annotations

import json
from collections import Counter

from helpers_league import League, at, board_roles, eliminated
from helpers_league import sheet as make_sheet
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plugins.league.engine import ENGINE
from plugins.league.engine import sheet as sheetmod
from plugins.league.engine.standings import PART_KEYS, rows

CFG = ENGINE.settings_of(ENGINE.check_settings({}))
LINEUP = list(range(1, 13))
NAMES = {i: f"p{i}" for i in LINEUP}
RESOLVE = {str(i): i for i in LINEUP}
ROLES = board_roles(CFG, "标准场")
SLOW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

votes_strategy = st.lists(
    st.tuples(st.integers(1, 4), st.integers(1, 12), st.integers(1, 12), st.booleans()),
    min_size=0, max_size=30)


def _vote_lines(raw, tie_days):
    """One line per (day, round, target); each voter votes once per day and round."""
    seen, lines = set(), {}
    for day, voter, target, runoff in raw:
        rnd = 2 if runoff and day in tie_days else 1
        if (day, rnd, voter) in seen:
            continue
        seen.add((day, rnd, voter))
        lines.setdefault((day, rnd, target), []).append(voter)
    return [f"{'复票' if r == 2 else '票'} {d} {t}: {' '.join(map(str, v))}" for (d, r, t), v in lines.items()]


@SLOW
@given(votes_strategy, st.sets(st.integers(1, 4), max_size=2), st.booleans(), st.randoms(use_true_random=False),
       st.sampled_from(["好人", "狼人"]))
def test_order_of_vote_lines_does_not_change_points_6_2_3(raw, tie_days, boom, rnd, winner):
    lines = _vote_lines(raw, tie_days)
    ties = [f"平票 {d} 9 5{' 自曝' if boom else ''}" for d in sorted(tie_days)]
    players = [(k + 1, k + 1, ROLES[k], "") for k in range(12)]
    a = make_sheet("A", 1, winner, players, tuple(lines + ties))
    shuffled = list(lines + ties)
    rnd.shuffle(shuffled)
    b = make_sheet("A", 1, winner, list(reversed(players)), tuple(shuffled))
    pa = sheetmod.score(sheetmod.parse(a, CFG, "标准场", LINEUP, RESOLVE, NAMES), CFG, 1)
    pb = sheetmod.score(sheetmod.parse(b, CFG, "标准场", LINEUP, RESOLVE, NAMES), CFG, 1)
    assert pa == pb
    for seat, p in pa.items():
        assert p.parts.vote <= CFG.scoring.vote_cap
        if p.side == "wolf" or p.role == "预言家":
            assert p.parts.vote == 0


def small(n: int = 16) -> League:
    days = [{"label": "d", "board": "标准场", "games": 1}] * 3
    return League(n=n, settings={"options": {"main_draw": 12},
                                 "rounds": [{"key": "r1", "name": "第一轮", "players": 12, "groups": 1,
                                             "advance": 6, "double_games": [], "days": days}]})


minute = st.one_of(st.none(), st.integers(0, 49))  # None: never checks in


@SLOW
@given(st.lists(st.lists(minute, min_size=16, max_size=16), min_size=1, max_size=3),
       st.lists(st.tuples(st.integers(1, 16), st.sampled_from(["贴脸", "擦边", "作弊", "黑麦"])), max_size=6))
def test_nobody_is_put_out_twice_and_lineups_stay_clean_12_13(days, violations):
    lg = small()
    all_effects = []
    for i, minutes in enumerate(days):
        date = f"1-{2 + i}"
        lg.host("open_day", at(date, "09:00"), date=date)
        events = sorted((m, seat) for seat, m in enumerate(minutes, 1) if m is not None)
        for m, seat in events:
            now = at(date, f"18:{m:02d}")
            try:
                all_effects += lg.player(seat, "checkin", now)
            except AssertionError:
                raise
            except Exception as exc:  # a refusal is fine (not in lineup, demoted, ...)
                assert type(exc).__name__ == "Rejected"
        all_effects += lg.timer("checkin.seat", at(date, "18:50"))
        for seat, vtype in violations:
            if lg.state.players[seat].status == "active" or vtype != "作弊":
                try:
                    all_effects += lg.host("violation", at(date, "22:00"), player=seat, type=vtype)
                except Exception as exc:
                    assert type(exc).__name__ == "Rejected"
        for members in lg.groups().values():  # the places for the coming match days
            assert len(members) == len(set(members))
            assert all(lg.state.players[s].status == "active" for s in members)
    counts = Counter(eliminated(all_effects))
    assert all(c == 1 for c in counts.values())
    out = {k for k, p in lg.state.players.items() if p.status != "active"}
    assert set(counts) == out
    table = rows(lg.state, lg.cfg, 0)
    ranked = [r.rank for r in table if r.rank]
    assert ranked == list(range(1, len(ranked) + 1))
    for r in table:
        assert r.total == round(100 + sum(getattr(r.parts, k) for k in PART_KEYS), 4)
    assert ENGINE.decode(json.loads(json.dumps(ENGINE.encode(lg.state)))) == lg.state


@SLOW
@given(st.permutations(list(range(1, 13))), st.sets(st.integers(1, 12), max_size=4))
def test_order_of_on_time_checkins_does_not_change_who_plays_5_10_3(order, absent):
    def run(seq):
        lg = small()
        lg.host("open_day", at("1-2", "09:00"), date="1-2")
        for i, seat in enumerate(seq):
            if seat not in absent:
                lg.player(seat, "checkin", at("1-2", f"18:{i:02d}"))
        lg.timer("checkin.demote", at("1-2", "18:35"))
        return lg.day.lineups, lg.state.violations
    a_lineups, a_viol = run(order)
    b_lineups, b_viol = run(sorted(order))
    assert a_lineups == b_lineups
    assert [(v.seat, v.type) for v in a_viol] == [(v.seat, v.type) for v in b_viol]


VIOLATION_TYPES = sorted(CFG.violations)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(1, 12), st.sampled_from(VIOLATION_TYPES), st.booleans()),
                min_size=1, max_size=12),
       st.randoms(use_true_random=False))
def test_taking_every_deduction_back_restores_the_table_8_13(entries, rnd):
    """Whatever violations are recorded (in the game or not, heavy ones included)
    and in whatever order they are taken back, the standings, statuses and groups return
    to what they were before — points, §七.3 awards, §十三.3.4 counts and places."""
    from helpers_league import checkin_all, plain_sheet

    lg = League(n=14, settings={"options": {"main_draw": 12}, "rounds": [
        {"key": "r1", "name": "第一轮", "players": 12, "groups": 1, "advance": 6, "double_games": [],
         "days": [{"label": "d", "board": "标准场", "games": 1}] * 3}]})
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    checkin_all(lg, at("1-2", "18:10"))
    for key, hhmm in (("checkin.late", "18:30"), ("checkin.demote", "18:35"), ("checkin.seat", "18:50")):
        lg.timer(key, at("1-2", hhmm))
    lg.host("score", at("1-2", "21:00"), text=plain_sheet(lg.cfg, "标准场", "A", None, lg.lineup("A"),
                                                          tokens={0: "全场最佳", 8: "败方最佳"}))
    before = (rows(lg.state, lg.cfg, 0), {k: p.status for k, p in lg.state.players.items()}, lg.groups()["A"][:])
    for seat, vtype, in_game in entries:
        if lg.state.players[seat].status == "active" or in_game:
            lg.host("violation", at("1-2", "22:00"), player=seat, type=vtype, **({"game": 1} if in_game else {}))
    ids = [v.id for v in lg.state.violations]
    rnd.shuffle(ids)
    for vid in ids:
        lg.host("undo", at("1-2", "23:00"), id=vid, reason="复核")
    after = (rows(lg.state, lg.cfg, 0), {k: p.status for k, p in lg.state.players.items()}, lg.groups()["A"][:])
    assert after == before
