"""Days: leader elections, the guards' verdict, 看守长 <权威>, 起义 (【游戏流程】<5>, 【重要规则公示】4)."""

from __future__ import annotations

from plugins.gamekit.contract import Eliminate, GiveCard, Say

from prison_helpers import MURDERER


def says(fx, to):
    return [e.text for e in fx if isinstance(e, Say) and e.to == to]


def to_day2(g):
    """Day 1 elections (chief 1, leader 7), a night where 7 meets guard 6 and spares him."""
    g.to_day1()
    g.elect(chief=1, leader=7)
    g.do(MURDERER, "spare")
    g.rooms([(6, 7)])
    g.talk()
    g.thief()
    g.advance()
    assert g.state.day == 2 and g.state.phase == "day"


def test_day1_elections_chief_and_leader_by_vote_and_non_voters_get_yellow_cards(game):
    """【游戏流程】<5>: day 1 elects the leaders; 【规则判罚】（三）2: a player who does not vote
    in day 1's leader election gets a yellow card."""
    g = game()
    g.to_day1()
    for s in (1, 2, 3, 4, 5):
        g.do(s, "elect", seat=2)
    for s in (7, 8, 9):
        g.do(s, "elect", seat=11)
    assert "只能从存活的看守中选" in g.reject(6, "elect", seat=8)
    fx = g.advance()
    assert (g.state.chief, g.state.leader) == (2, 11)
    cards = sorted(e.seat for e in fx if isinstance(e, GiveCard))
    assert cards == [6, 10, 11, 12]
    assert all("（三）2" in e.reason for e in fx if isinstance(e, GiveCard))


def test_votes_stay_hidden_until_the_deadline_3(game):
    """Votes are secret: nobody's vote is visible until the deadline, then the tally is posted."""
    g = game()
    to_day2(g)
    fx = g.do(2, "execute", seat=12)
    assert [e.to for e in fx] == ["reply"]
    assert "截止时公布" in fx[0].text
    fx = g.advance()
    assert any("2号马甲2→处决 12号马甲12" in t for t in says(fx, "group"))


def test_top_choice_executes_and_executed_prisoner_dies(game):
    """【重要规则公示】4: the top choice takes effect."""
    g = game()
    to_day2(g)
    for s in (1, 2, 3):
        g.do(s, "execute", seat=12)
    for s in (4, 5):
        g.do(s, "release", seat=11)
    g.do(6, "abstain")
    fx = g.advance()
    assert g.p(12).status == "dead" and g.p(11).status == "alive"
    assert Eliminate(12, "被处决") in fx


def test_released_prisoner_leaves_and_cannot_act(game):
    """【什么是囚犯游戏】: a released prisoner wins and leaves."""
    g = game()
    to_day2(g)
    for s in range(1, 7):
        g.do(s, "release", seat=12)
    g.advance()
    assert g.p(12).status == "released"
    assert g.reject(12, "room", room="A") == "你已被释放离开监狱，不能再行动。"


def test_abstain_on_top_means_nothing_happens_important_4(game):
    """【重要规则公示】4: if abstaining is on top nothing happens."""
    g = game()
    to_day2(g)
    for s in (1, 2, 3, 4):
        g.do(s, "abstain")
    g.do(5, "execute", seat=12)
    g.do(6, "execute", seat=12)
    fx = g.advance()
    assert g.living() == list(range(1, 13))
    assert any("最高票是弃票，无事发生" in t for t in says(fx, "group"))


def test_tie_goes_to_the_chief_vote_authority(game):
    """【看守长】<权威>: at a tie at the top the chief's choice settles it."""
    g = game()
    to_day2(g)
    for s in (1, 2, 3):
        g.do(s, "release", seat=11)
    for s in (4, 5, 6):
        g.do(s, "execute", seat=12)
    g.advance()
    assert g.p(11).status == "released" and g.p(12).status == "alive"


def test_chief_in_the_minority_must_pick_one_of_the_top(game):
    """【看守长】<权威>: if the chief voted in the minority, it picks one of the top options."""
    g = game()
    to_day2(g)
    g.do(1, "abstain")
    for s in (2, 3):
        g.do(s, "release", seat=11)
    for s in (4, 5):
        g.do(s, "execute", seat=12)
    g.do(6, "execute", seat=10)
    fx = g.advance()
    assert g.state.phase == "verdict"
    assert any("/裁定" in t for t in says(fx, 1))
    assert g.reject(2, "decide", choice="释放", seat=11) == "现在没有需要你裁定的平票。"
    assert "只能从最高票中选" in g.reject(1, "decide", choice="处决", seat=10)
    g.do(1, "decide", choice="处决", seat=12)
    assert g.p(12).status == "dead" and g.state.phase == "rooms"


def test_chief_who_does_not_pick_in_time_gets_a_yellow_card_and_a_random_pick(game):
    """【规则判罚】（三）3: a compulsory ability not used in time is a yellow card."""
    g = game()
    to_day2(g)
    g.do(1, "abstain")
    for s in (2, 3):
        g.do(s, "release", seat=11)
    for s in (4, 5):
        g.do(s, "execute", seat=12)
    g.do(6, "execute", seat=10)
    g.advance()
    assert g.state.phase == "verdict"
    fx = g.advance()
    assert [e.seat for e in fx if isinstance(e, GiveCard)] == [1]
    assert (g.p(11).status, g.p(12).status) in (("released", "alive"), ("alive", "dead"))


def test_guard_who_does_not_vote_gets_a_yellow_card_3_2(game):
    """【规则判罚】（三）2: a guard who does not vote on the day's verdict."""
    g = game()
    to_day2(g)
    for s in (1, 2, 3, 4, 5):
        g.do(s, "abstain")
    fx = g.advance()
    assert [(e.seat, e.color) for e in fx if isinstance(e, GiveCard)] == [(6, "yellow")]


def test_bad_votes_are_refused_and_change_nothing(game):
    """Bad input is refused and changes nothing: voting as a prisoner, on a guard, on day 1, when dead."""
    g = game()
    g.to_day1()
    assert "第1天只选举领袖" in g.reject(1, "execute", seat=12)
    g.elect()
    g.rooms([(1, 7)])
    g.talk()
    g.thief()
    g.advance()  # guard 1 was murdered
    assert "囚犯不能参加裁决投票" in g.reject(12, "execute", seat=11)
    assert g.reject(2, "execute", seat=3) == "只能投给监狱中存活的囚犯。"
    assert g.reject(1, "execute", seat=12) == "你已出局，不能再行动。"
    assert "领袖选举只在第1天" in g.reject(2, "elect", seat=3)


def test_uprising_prisoners_execute_a_guard_with_leader_settling_ties(game):
    """【囚犯领袖】<起义>[1] and 【补充规则】<起义>投票规则与看守裁决相同."""
    g = game()
    g.to_day1()
    g.elect(chief=1, leader=12)
    g.do(MURDERER, "spare")
    g.rooms([])
    g.talk()
    g.thief()
    g.advance()
    assert g.reject(11, "uprising") == "只有囚犯领袖能发动起义。"
    fx = g.do(12, "uprising", private=False)
    assert any("发动了起义" in t for t in says(fx, "group"))
    assert "只能发动一次" in g.reject(12, "uprising")
    assert "起义只能处决看守" in g.reject(8, "release", seat=1)
    assert g.reject(8, "execute", seat=9) == "只能投给监狱中存活的看守。"
    for s in (7, 8, 9):
        g.do(s, "execute", seat=5)
    g.do(10, "execute", seat=4)
    g.do(11, "execute", seat=4)
    g.do(12, "execute", seat=4)  # the leader is in the tie: its side wins
    for s in range(1, 7):
        g.do(s, "abstain")
    fx = g.advance()
    assert g.p(4).status == "dead" and g.p(5).status == "alive"
    assert Eliminate(4, "起义处决") in fx
    assert [e for e in fx if isinstance(e, GiveCard)] == []


def test_no_chief_alive_tie_means_nothing_by_default(game):
    """RULES.md: a tie with the chief dead -> nothing (setting tie_without_chief)."""
    g = game()
    g.to_day1()
    g.elect(chief=1, leader=7)
    g.rooms([(1, 7)])
    g.talk()
    g.thief()
    g.advance()
    assert g.p(1).status == "dead"
    for s in (2, 3):
        g.do(s, "execute", seat=12)
    for s in (4, 5):
        g.do(s, "execute", seat=11)
    g.do(6, "abstain")
    fx = g.advance()
    assert g.living("prisoner") == [7, 8, 9, 10, 11, 12]
    assert any("平票且没有可裁定的领袖" in t for t in says(fx, "group"))
