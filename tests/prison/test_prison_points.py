"""【身份与胜利条件】（二）积分制, every rule checked on one constructed game."""

from __future__ import annotations

from plugins.prison.engine.engine import ENGINE
from plugins.prison.engine.model import PointItem
from plugins.prison.engine.rules_end import days_survived

from prison_helpers import MURDERER


def play(g, *, subs=True):
    loves = {1: 9, 2: 9, 6: 11, 10: 1}
    hates = {3: 12, 4: 12, 5: 7, 8: 3}
    for a, b in loves.items():
        g.do(a, "love", seat=b)
    for a, b in hates.items():
        g.do(a, "hate", seat=b)
    g.to_day1()
    g.elect()
    mapping = g.state.mapping
    right = " ".join(f"{a}-{b}" for a, b in mapping.items())
    wrong = " ".join(f"{a}-{b}" for a, b in zip(mapping, reversed(list(mapping.values()))))
    if subs:
        g.do(5, "submit_map", text=wrong)  # first, wrong
        g.do(6, "submit_map", text=right)  # first correct: +3
    for meets, (verb, target) in ((1, ("release", 12)), (2, ("execute", 8)), (4, ("execute", MURDERER))):
        g.rooms([(meets, MURDERER)])
        g.talk()
        g.thief()
        g.advance()
        if subs and meets == 2:
            g.do(2, "submit_map", text=right)  # dead players may submit; correct but later
            everyone = " ".join(f"马甲{s}={10000 + s}" for s in range(1, 13) if s != 10)
            g.do(10, "submit_alias", text=everyone.replace("马甲1=10001", "马甲1=阿一"))
            g.do(11, "submit_alias", text=" ".join(f"马甲{s}={10000 + s}" for s in range(1, 10)))
            g.do(12, "submit_alias", text=everyone.replace("马甲3=10003", "马甲3=10004"))
        for s in g.living("guard"):
            g.do(s, verb, seat=target)
        g.advance()
    assert g.state.phase == "over" and g.state.result.cond == 1


def test_every_points_rule_on_a_constructed_game(game):
    g = game({"signup": {"1": {"nickname": "阿一"}}})
    play(g)
    r = g.state.result
    assert r.winners == [3, 5, 6, 9, 10, 11, 12]
    totals = {row.seat: row.total for row in r.ranking}
    detail = {s: {x.why: x.n for x in rows} for s, rows in r.points.items()}
    # (二)3: +1 per day survived (final day 4; 1 died night 1, 2 night 2, 4 night 3,
    # 8 executed day 3, 7 executed day 4, 12 released day 2)
    assert [days_survived(g.state, s) for s in range(1, 13)] == [0, 1, 4, 2, 4, 4, 3, 2, 4, 4, 4, 2]
    # (二)3 love/hate wins, (二)2 idol/pest, (二)4 first mapping, (二)5 released / murderer side
    # dead, (二)6 aliases
    assert detail[1] == {"爱的人 9号马甲9 胜利（（二）3）": 3, "杀人犯阵营全部死亡（（二）5）": 2}
    assert detail[6]["第一个提交正确房间对应（#%d）（（二）4）" % g.state.subs.map[1].seq] == 3
    assert detail[9]["万人迷（2 人）（（二）2）"] == -3
    assert detail[12]["讨厌鬼（2 人）（（二）2）"] == 3
    assert detail[12]["被释放（（二）5）"] == 2
    assert detail[8]["恨的人 3号马甲3 胜利（（二）3）"] == -3
    assert detail[10]["马甲-玩家对应全部正确（（二）6）"] == 2
    assert totals == {1: 5, 2: 6, 3: 3, 4: 1, 5: 6, 6: 12, 7: 3, 8: -1, 9: 3, 10: 8, 11: 6, 12: 9}
    ranks = [(row.rank, row.seat) for row in r.ranking]
    assert ranks[:3] == [(1, 6), (2, 12), (3, 10)]
    assert (4, 2) in ranks and (4, 5) in ranks and (4, 11) in ranks  # equal totals share a rank


def _wipe_out_guards(g):
    g.to_day1()
    g.elect(chief=1, leader=MURDERER)
    for guard in range(1, 7):
        g.rooms([(guard, MURDERER)])
        g.talk()
        g.thief()
        g.advance()
        if g.state.phase == "over":
            break
        if guard == 3:
            assert g.p(9).status == "dead"  # lover
        for s in g.living("guard"):
            g.do(s, "abstain")
        g.advance()
    assert g.state.result.cond == 2


def test_guards_all_dead_gives_every_prisoner_three_by_default_2_5(game):
    """(二)5 "看守阵营全部死亡，所有囚犯积分+3", as written: every prisoner, the dead too (9 died
    with guard 3), like its other half "杀人犯阵营全部死亡，其他所有人积分+2"."""
    g = game()
    _wipe_out_guards(g)
    r = g.state.result
    assert g.p(9).status == "dead"
    for s in range(7, 13):
        assert PointItem("看守阵营全部死亡（（二）5）", 3) in r.points[s]
    for s in range(1, 7):
        assert all("看守阵营" not in x.why for x in r.points[s])


def test_guards_all_dead_pays_only_the_prisoners_still_there_when_set_to_living_2_5(game):
    """(二)5 under guards_dead_bonus = "living": the prisoners alive or released when the guards'
    side is wholly dead; 9 died with guard 3 and gets nothing."""
    g = game({"guards_dead_bonus": "living"})
    _wipe_out_guards(g)
    r = g.state.result
    for s in (7, 8, 10, 11, 12):
        assert PointItem("看守阵营全部死亡（（二）5）", 3) in r.points[s]
    for s in (1, 2, 3, 4, 5, 6, 9):
        assert all("看守阵营" not in x.why for x in r.points[s])


def test_submissions_are_private_limited_and_refused_when_malformed(game):
    """(二)4/(二)6: submitted to the host privately, by arrival number; a host may cap them."""
    g = game({"max_submissions": 1})
    g.to_day1()
    assert "请写全 6 组对应" in g.reject(1, "submit_map", text="a-A b-B")
    assert "出现了两次" in g.reject(1, "submit_map", text="a-A b-A c-C d-D e-E f-F")
    assert "没有房间" in g.reject(1, "submit_map", text="a-A b-B c-C d-D e-E z-F")
    fx = g.do(1, "submit_map", text="aA bB cC dD eE fF")
    assert {e.to for e in fx} == {"hosts", "reply"}
    assert "到达 #" in fx[1].text
    assert g.reject(1, "submit_map", text="a-A b-B c-C d-D e-E f-F") == "你已经提交过 1 次，不能再提交。"
    assert g.reject(2, "submit_alias", text="马甲99=某人") == "没有马甲「马甲99」，请检查。"
    assert "格式不对" in g.reject(2, "submit_alias", text="马甲1")


def test_tree_hole_notes_are_shown_anonymously_at_the_end(game):
    """【用语定义】树洞: anonymous notes made public when the game ends."""
    g = game()
    g.do(3, "note", text="好紧张")
    g.to_day1()
    g.elect()
    g.rooms([(1, MURDERER)])
    g.talk()
    g.thief()
    g.advance()
    g.do(1, "note", text="死得好冤")  # out players may still write
    for s in g.living("guard"):
        g.do(s, "release", seat=MURDERER)
    summary = [e for e in g.advance() if e.__class__.__name__ == "Finish"][0].summary
    tail = summary.split("树洞：")[1]
    assert "· 好紧张" in tail and "· 死得好冤" in tail
    assert "马甲3" not in tail and "马甲1" not in tail


def test_tables_are_the_three_director_sheets(game):
    """【导演职责】A导 6、9、11: players, ability uses, room pairings per night."""
    g = game({"signup": {"1": {"nickname": "阿一", "contact": "qq1", "first": "甲", "second": "乙", "number": 7}}})
    play(g, subs=False)
    sheets = ENGINE.tables(g.state, settings=g.settings)
    players = sheets["玩家"]
    assert players[0][:8] == ["座位", "马甲", "QQ", "昵称", "联系方式", "第一志愿", "第二志愿", "随机数"]
    assert players[1][:8] == [1, "马甲1", "10001", "阿一", "qq1", "甲", "乙", 7]
    assert len(players) == 13
    uses = sheets["技能使用"]
    assert [row[8] for row in uses[1:] if row[5] == MURDERER] == ["杀人", "杀人", "杀人"]
    pairs = sheets["审讯对应"]
    assert sorted({row[0] for row in pairs[1:]}) == [1, 2, 3]
    assert [row[3] for row in pairs[1:] if row[4] == "7号马甲7"] == ["1号马甲1", "2号马甲2", "4号马甲4"]
    assert len(sheets["积分"]) == 13
