"""Full 12-player games, a murder every night, one end by each condition of 【身份与胜利条件】（三）."""

from __future__ import annotations

from plugins.gamekit.contract import Eliminate, Finish, Say
from plugins.prison.engine.engine import ENGINE

from prison_helpers import MURDERER


def night(g, meets, point_kill=None):
    """Rooms so that the murderer meets ``meets``; everyone talks; the thief peeks."""
    if point_kill is not None:
        g.do(MURDERER, "point_kill", seat=point_kill)
    g.rooms([(meets, MURDERER)] if meets else [])
    g.talk()
    g.thief()
    before = len(g.living("guard"))
    fx = g.advance()
    assert len(g.living("guard")) == before - 1, "a murder every night"
    return fx


def verdict(g, verb=None, target=None):
    for s in g.living("guard"):
        if verb is None:
            g.do(s, "abstain")
        else:
            g.do(s, verb, seat=target)
    return g.advance()


def finish_of(fx):
    found = [e for e in fx if isinstance(e, Finish)]
    assert len(found) == 1
    return found[0].summary


def test_end_by_condition_1_no_murderer_side_left_3_1(game):
    """（三）1 ends the game; survivors and the released win."""
    g = game()
    g.to_day1()
    g.elect()
    night(g, 1)
    verdict(g, "execute", 8)  # the accomplice
    night(g, 2)
    verdict(g, "release", 12)
    night(g, 4)
    fx = verdict(g, "execute", MURDERER)
    summary = finish_of(fx)
    assert summary.startswith("游戏结束：（三）1：监狱中不存在杀人犯阵营。")
    assert g.state.result.winners == [3, 5, 6, 9, 10, 11, 12]
    assert g.state.phase == "over"
    assert g.reject(3, "room", room="a") == "游戏已结束，可用 /导出 查看记录。"


def test_end_by_condition_2_no_guard_left_3_2(game):
    """（三）2: guards wiped out by murders, 起义 and the lovers' linked fate."""
    g = game()
    g.to_day1()
    g.elect(chief=1, leader=MURDERER)
    night(g, 1)
    g.do(MURDERER, "uprising")
    for s in g.living("prisoner"):
        g.do(s, "execute", seat=2)
    verdict(g)
    assert g.p(2).status == "dead"
    night(g, None, point_kill=3)  # the lover guard; lover prisoner 9 follows
    assert g.p(9).status == "dead"
    verdict(g)
    night(g, 4)
    verdict(g)
    night(g, 5)
    verdict(g)
    fx = night(g, 6)
    summary = finish_of(fx)
    assert "（三）2：监狱中不存在看守阵营" in summary
    assert g.state.result.winners == [7, 8, 10, 11, 12]


def test_end_by_condition_3_murderer_released_3_3(game):
    """（三）3: the murderer released -> only the murderer side wins, all others are executed."""
    g = game()
    g.to_day1()
    g.elect()
    night(g, 1)
    fx = verdict(g, "release", MURDERER)
    summary = finish_of(fx)
    assert "（三）3：杀人犯被释放" in summary
    assert g.state.result.winners == [7, 8]
    assert g.living() == [8]  # the accomplice; everyone else was executed
    executed = [e.seat for e in fx if isinstance(e, Eliminate)]
    assert executed == [MURDERER, 2, 3, 4, 5, 6, 9, 10, 11, 12] and g.p(9).reason.startswith("杀人犯被释放")
    assert "房间对应：" in summary and "积分排名：" in summary


def test_full_game_in_group_mode_ends_and_exports(game):
    g = game({"room_mode": "group"}, chats=tuple(f"80{i}" for i in range(6)))
    g.to_day1()
    g.elect()
    g.rooms([(1, MURDERER)])
    g.thief()
    g.advance()
    assert g.p(1).status == "dead"
    fx = verdict(g, "execute", MURDERER)
    verdict_says = [e.text for e in fx if isinstance(e, Say) and e.to == "group"]
    assert any("被处决" in t for t in verdict_says)
    assert g.p(8).status == "alive" and g.state.phase == "rooms"
    g.rooms([])
    g.advance()  # no murderer: nobody dies
    fx = verdict(g, "execute", 8)
    assert "（三）1" in finish_of(fx)
    sheets = ENGINE.tables(g.state, settings=g.settings)
    assert sheets["审讯对应"][1][5] in [f"80{i}" for i in range(6)]
