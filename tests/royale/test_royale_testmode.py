"""测试赛: 「若测试赛中死亡或者体力不够可实时要求导演直接往背包中提供补给，
测试赛事件结束后删档」."""

from __future__ import annotations

from plugins.gamekit.contract import Finish, Picture, Say
from plugins.royale.engine import ENGINE

from plugins.royale.engine.state import Grade, ItemKind

from royale_helpers import Game, empty_world, merge, text

A = "果园"
TEST = merge(empty_world(), {"places": {"closures": [0]}, "rules": {"test_mode": True}})


def test_request_outside_test_mode_refused_and_nothing_changes():
    g = Game(3, seed="t0", settings=merge(empty_world(), {"places": {"closures": [0]}}))
    msg = g.reject(1, "request", item="绷带")
    assert "不是测试赛" in msg and "test_mode" in msg
    assert "不是测试赛" in g.reject(None, "grant", host=True, player=1, item="绷带")


def test_player_asks_the_host_grants_into_the_bag():
    g = Game(3, seed="t1", settings=TEST)
    out = g.cmd(2, "request", item="急救包")
    assert "转告导演" in text(out) and "/发放 2 急救包" in text(out, "hosts")
    out = g.cmd(None, "grant", host=True, player=2, item="急救包")
    assert [it.name for it in g.p(2).items] == ["急救包"] and "急救包" in text(out, 2)
    g.cmd(None, "grant", host=True, player=2, item="蓝色武器")
    assert g.p(2).items[1].grade == Grade.BLUE and g.p(2).items[1].kind == ItemKind.WEAPON
    assert [h.what for h in g.state.host_log][-1].startswith("发放")


def test_grant_bad_input_refused_naming_what_is_accepted():
    """Bad input: /发放 of an unknown item or to a dead player; nothing changes."""
    g = Game(3, seed="t2", settings=TEST)
    msg = g.reject(None, "grant", host=True, player=1, item="光剑")
    assert "没有「光剑」" in msg and "急救包" in msg and "绿色武器" in msg
    g.cmd(None, "kernel.out", host=True, seat=3, reason="测试")
    assert "已出局" in g.reject(None, "grant", host=True, player=3, item="绷带")
    assert "只有导演" in g.reject(1, "grant", player=1, item="绷带")
    assert "没有「光剑」" in g.reject(1, "request", item="光剑")


def test_every_group_post_is_marked_and_records_are_wiped_at_the_end():
    g = Game(2, seed="t3", settings=TEST)
    posts = [e for e in g.all_effects if isinstance(e, (Say, Picture)) and getattr(e, "to", None) == "group"]
    assert posts and all((e.text if isinstance(e, Say) else e.caption).startswith("【测试赛】") for e in posts)
    stored = ENGINE.encode(g.state)
    assert "test" not in stored and ENGINE.group_tag(g.state, settings=g.cfg) == "【测试赛】"  # the settings say it
    older = {**stored, "test": True, "map": {}, "version": 0}
    assert ENGINE.upgrade(older).keys() == stored.keys()  # an older state's copies go
    assert ENGINE.encode(ENGINE.decode({**stored, "test": True, "map": {}, "version": 0})) == stored
    g.born({1: A, 2: A})
    g.give(1, "双发射手", equip=True)
    g.state.see = 100
    g.p(2).hp = 20
    for _ in range(20):
        g.cmd(1, "search")
        if g.p(1).search:
            break
        g.tick(31)
    out = g.cmd(1, "attack")
    (fin,) = [e for e in out.effects if isinstance(e, Finish)]
    assert fin.summary.startswith("【测试赛】") and "不计入排名" in fin.summary and "第2名" not in fin.summary
    assert g.state.deaths == [] and g.p(1).items == [] and g.state.wiped
    tables = ENGINE.tables(g.state, settings=g.cfg)
    assert set(tables) == {"测试赛", "导演记录"}


def test_host_end_wipes_only_a_test_game():
    """/结束 calls ENGINE.wipe: a test game loses its records, an ordinary one keeps them."""
    g = Game(3, seed="t4", settings=TEST)
    g.born({1: A, 2: A, 3: A})
    g.give(1, "木棍")
    g.cmd(None, "kernel.out", host=True, seat=3, reason="测试")
    wiped = ENGINE.wipe(ENGINE.copy(g.state), settings=g.cfg)  # the kernel hands wipe its copy
    assert wiped.deaths == [] and wiped.players[1].items == [] and g.state.deaths
    plain = Game(3, seed="t4", settings=merge(empty_world(), {"places": {"closures": [0]}}))
    assert ENGINE.wipe(plain.state, settings=plain.cfg) is plain.state
