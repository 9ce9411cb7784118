"""（二）积分制 under each reading: one whole seeded game per ending of （三）, the
points of every player checked against hand tallies.

Readings (settings, RULES.md "Points readings"):
  guards_dead_bonus — (二)5 "看守阵营全部死亡，所有囚犯积分+3": "all" (default, the words) or "living";
  top_ties          — (二)2 万人迷/讨厌鬼 tied at the top: "none" (default), "all" or "drawn";
  max_submissions   — (二)4: 0 = unlimited (default), the first correct mapping by arrival scores.

Fixed deal: guards 1–6, prisoners 7–12; 7 murderer, 8 accomplice, 3↔9 lovers, 10 thief,
11 survivor (wins if alive or released), 12 plain.
Love/hate: 1, 2 love 9; 3, 4 love 11; 10 loves 1 → 9 and 11 tie at two loves.
           5 hates 12; 6 hates 8; 12 hates 3 → 12, 8 and 3 tie at one hate.
Mapping (day 1): 5 submits a wrong one, then 5 the right one, then 6 the right one.
"""

from __future__ import annotations

import pytest

from plugins.prison.engine.rules_end import days_survived
from prison_helpers import MURDERER

LOVES = {1: 9, 2: 9, 3: 11, 4: 11, 10: 1}
HATES = {5: 12, 6: 8, 12: 3}

DEFAULT = {}  # all, none, unlimited
LITERAL = {"guards_dead_bonus": "all", "top_ties": "all", "max_submissions": 1}
LIVING = {"guards_dead_bonus": "living"}
DRAWN = {"top_ties": "drawn"}


def opening(g, readings):
    for a, b in LOVES.items():
        g.do(a, "love", seat=b)
    for a, b in HATES.items():
        g.do(a, "hate", seat=b)
    g.to_day1()
    mapping = g.state.mapping
    right = " ".join(f"{a}-{b}" for a, b in mapping.items())
    wrong = " ".join(f"{a}-{b}" for a, b in zip(mapping, reversed(list(mapping.values()))))
    g.do(5, "submit_map", text=wrong)
    if readings.get("max_submissions") == 1:
        assert g.reject(5, "submit_map", text=right) == "你已经提交过 1 次，不能再提交。"
    else:
        g.do(5, "submit_map", text=right)  # the first correct one by arrival
    g.do(6, "submit_map", text=right)


def night(g, meets=None, point_kill=None):
    if point_kill is not None:
        g.do(MURDERER, "point_kill", seat=point_kill)
    g.rooms([(meets, MURDERER)] if meets else [])
    g.talk()
    g.thief()
    g.advance()


def verdict(g, verb=None, target=None):
    for s in g.living("guard"):
        g.do(s, verb, seat=target) if verb else g.do(s, "abstain")
    g.advance()


def ending_1(g):
    """（三）1: 1 and 2 murdered, the accomplice then the murderer executed (day 3)."""
    g.elect(chief=3, leader=10)
    night(g, 1)
    verdict(g, "execute", 8)
    night(g, 2)
    verdict(g, "execute", MURDERER)
    return [0, 1, 3, 3, 3, 3, 2, 1, 3, 3, 3, 3]


def ending_2(g):
    """（三）2: 1 murdered; day 2 the guards execute 12 and the 起义 executes 2; 3 point-killed
    (lover 9 dies too); 4, 5, 6 murdered — the last on night 5."""
    g.elect(chief=3, leader=MURDERER)
    night(g, 1)
    g.do(MURDERER, "uprising")
    for s in g.living("prisoner"):
        g.do(s, "execute", seat=2)
    verdict(g, "execute", 12)
    assert g.p(12).status == g.p(2).status == "dead"
    night(g, point_kill=3)
    assert g.p(9).status == "dead"
    for guard in (4, 5, 6):
        verdict(g)
        night(g, guard)
    return [0, 1, 1, 2, 3, 4, 5, 5, 1, 5, 5, 1]


def ending_3(g):
    """（三）3: 1 murdered; day 2 the guards release the murderer; everyone else but the
    accomplice is executed."""
    g.elect(chief=3, leader=10)
    night(g, 1)
    verdict(g, "release", MURDERER)
    return [0, 1, 1, 1, 1, 1, 2, 2, 1, 1, 1, 1]


# Hand tallies. Base = (二)3 days + love/hate wins, (二)5 released / murderer side dead, before
# the three readings; then what each reading adds.
BASE = {
    # (三)1 winners 3 4 5 6 9 10 11 12: 1,2 love 9 (+3), 3,4 love 11 (+3), 5 hates 12 (−3),
    # 12 hates 3 (−3); murderer side dead: +2 to all but 7, 8
    1: {1: 0 + 3 + 2, 2: 1 + 3 + 2, 3: 3 + 3 + 2, 4: 3 + 3 + 2, 5: 3 - 3 + 2, 6: 3 + 2, 7: 2, 8: 1,
        9: 3 + 2, 10: 3 + 2, 11: 3 + 2, 12: 3 - 3 + 2},
    # (三)2 winners 7 8 10 11: 3,4 love 11 (+3), 6 hates 8 (−3)
    2: {1: 0, 2: 1, 3: 1 + 3, 4: 2 + 3, 5: 3, 6: 4 - 3, 7: 5, 8: 5, 9: 1, 10: 5, 11: 5, 12: 1},
    # (三)3 winners 7 8: 6 hates 8 (−3); 7 released (+2)
    3: {1: 0, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1 - 3, 7: 2 + 2, 8: 2, 9: 1, 10: 1, 11: 1, 12: 1},
}
GUARDS_DEAD = {  # (二)5 +3: who is paid, per ending and reading (no guard wipe-out in (三)1)
    (1, "living"): [], (1, "all"): [],
    (2, "living"): [7, 8, 10, 11], (2, "all"): [7, 8, 9, 10, 11, 12],
    (3, "living"): [7, 8], (3, "all"): [7, 8, 9, 10, 11, 12],
}


def expected(ending, readings):
    exp = dict(BASE[ending])
    for s in GUARDS_DEAD[(ending, readings.get("guards_dead_bonus", "all"))]:
        exp[s] += 3
    exp[5 if readings.get("max_submissions", 0) == 0 else 6] += 3  # (二)4
    if readings.get("top_ties") == "all":
        for s in (9, 11):
            exp[s] -= 3  # 万人迷
        for s in (12, 8, 3):
            exp[s] += 3  # 讨厌鬼
    return exp


@pytest.mark.parametrize("ending, play", [(1, ending_1), (2, ending_2), (3, ending_3)])
@pytest.mark.parametrize("readings", [DEFAULT, LITERAL, DRAWN, LIVING], ids=["default", "literal", "drawn", "living"])
def test_points_of_a_whole_game_per_ending_and_reading(game, ending, play, readings):
    g = game(dict(readings), seed=f"readings-{ending}")
    opening(g, readings)
    days = play(g)
    r = g.state.result
    assert r.cond == ending
    assert [days_survived(g.state, s) for s in range(1, 13)] == days
    totals = {row.seat: row.total for row in r.ranking}
    exp = expected(ending, readings)
    if readings.get("top_ties") == "drawn":
        # one of the tied most-loved (9, 11) and one of the tied most-hated (12, 8, 3), drawn
        idol = [s for s in range(1, 13) if any(x.why.startswith("万人迷（2 人，平票抽签）") for x in r.points[s])]
        pest = [s for s in range(1, 13) if any(x.why.startswith("讨厌鬼（1 人，平票抽签）") for x in r.points[s])]
        assert len(idol) == 1 and idol[0] in (9, 11) and len(pest) == 1 and pest[0] in (12, 8, 3)
        exp[idol[0]] -= 3
        exp[pest[0]] += 3
    assert totals == exp
    if not readings:  # the default names nobody on a tie
        assert not any(x.why.startswith(("万人迷", "讨厌鬼")) for rows in r.points.values() for x in rows)


def test_the_drawn_tie_is_the_seeded_draw_and_varies_with_the_seed(game):
    """top_ties = "drawn" uses the game's generator: replayable, not always the same seat."""
    picks = set()
    for i in range(8):
        g = game(dict(DRAWN), seed=f"draw-{i}")
        opening(g, DRAWN)
        ending_3(g)
        idol = [s for s in (9, 11) if any(x.why.startswith("万人迷") for x in g.state.result.points[s])]
        picks.add(idol[0])
    assert picks == {9, 11}
