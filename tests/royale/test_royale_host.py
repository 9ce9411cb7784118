"""What the host does between the phases: opening a test game (测试), putting a player out
(出局, 公示), an air drop sent at night or by day (公示: 空投), and a day the host closes
early (违规判定: 白天发言不足1帖)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from plugins.gamekit.contract import GiveCard, Rejected
from plugins.royale.engine import ENGINE

from royale_helpers import Game, empty_world, merge, texts

A, B = "果园", "动物园"


def calm(**rules) -> dict:
    return merge(empty_world(), {"places": {"closures": [0]}, "rules": rules})


def group(out) -> str:
    return "\n".join(texts(out, "group"))


def cards(out) -> list[tuple[int, str]]:
    return [(e.seat, e.color) for e in out.effects if isinstance(e, GiveCard)]


# ---- 测试: /创建 大逃杀 测试赛 -------------------------------------------------------

def test_create_options_open_a_test_game():
    """测试: 「本场开放测试赛」 — /创建 大逃杀 测试赛 sets rules.test_mode; nothing else is an option."""
    over = ENGINE.create_options("测试赛")
    assert ENGINE.settings_of(ENGINE.check_settings(over)).test_mode is True
    assert ENGINE.create_options("") == {}
    with pytest.raises(Rejected) as exc:
        ENGINE.create_options("正式赛")
    assert "测试赛" in str(exc.value) and "/创建 大逃杀" in str(exc.value)


# ---- 出局 by the host -----------------------------------------------------------------

def test_host_out_at_night_waits_for_the_morning_post():
    """公示: 「每个游戏日白天开始时，都会公示前一天夜晚出局角色名单、夜晚出局角色的死因」 — a host's
    /出局 at night is one of the night's deaths: secret until the morning post names it."""
    g = Game(3, settings=calm())
    g.born({1: A, 2: A, 3: B})
    out = g.cmd(None, "kernel.out", host=True, seat=3, reason="失联")
    assert texts(out, "group") == [] and ENGINE.public_out(g.state) == []
    morning = group(g.advance())
    assert "昨夜出局：P3（判罚）" in morning
    assert ENGINE.public_out(g.state) == [3]


def test_host_out_by_day_is_public_at_once_and_not_last_nights():
    """公示 lists 前一天夜晚出局 only: a host's /出局 by day is public at once (the kernel says so in the
    group) and the next morning does not call it last night's; the ranking says the day."""
    g = Game(3, settings=calm())
    g.born({1: A, 2: A, 3: B})
    g.advance()  # day 2
    g.cmd(None, "kernel.out", host=True, seat=3, reason="失联")
    assert ENGINE.public_out(g.state) == [3]
    g.advance()  # night 2
    morning = group(g.advance())
    assert "P3" not in morning and "昨夜无人出局" in morning
    rows = ENGINE.tables(g.state, settings=g.cfg)["排名"]
    assert [3, 3, "P3", "第2天", "判罚", ""] in rows


# ---- 公示: 空投 ---------------------------------------------------------------------

def test_host_airdrop_at_night_joins_the_next_morning_list():
    """公示: 「空投道具名称将会在白天提前公示，不公示具体空投地点」 — a /空投 sent during a night is posted
    the next morning beside the day's own drops, and lands the night after."""
    g = Game(2, settings=merge(calm(), {"airdrops": [{"day": 2, "items": ["自然升级器"]}]}))
    g.born({1: A, 2: A})
    out = g.cmd(None, "airdrop", host=True, items="红花丹 金币")
    assert "明早公示" in "\n".join(texts(out))
    morning = group(g.advance())
    assert "今日空投：自然升级器、红花丹、金币（地点不公示）" in morning
    g.advance()
    landed = sorted(it.name for items in g.state.ground.values() for it in items)
    assert landed == ["红花丹", "自然升级器", "金币"]


def test_host_airdrop_by_day_is_posted_at_once_and_lands_tonight():
    """公示: the names are posted by day ahead of the drop — a /空投 by day is posted in the group at
    once and lands when the night opens."""
    g = Game(2, settings=calm())
    out = g.cmd(None, "airdrop", host=True, items="红花丹")
    assert "追加空投：红花丹" in group(out) and "今晚" in group(out)
    g.advance()
    assert [it.name for items in g.state.ground.values() for it in items] == ["红花丹"]


# ---- 违规判定: a day the host closes early ----------------------------------------------

def test_a_day_the_host_closes_early_gives_no_speech_cards():
    """违规判定: 「白天发言不足1帖，第一次蓝牌一张」 counts a day of discussion; a day the host closes
    early (/推进 before its deadline) gave nobody the day: no cards (setting rules.speech_cards_short_day)."""
    g = Game(4, seed="short", settings=calm())
    g.cmd(1, "speak", text="早")
    g.now = g.phase_end - timedelta(hours=6)  # 15:10: the host's /推进
    out = g._take(ENGINE.deadline(g.state, "phase", g.ctx()))
    assert "第1夜行动开始" in group(out) and cards(out) == []
    assert g.state.misses == {}
    g.advance()  # night 1 ends; day 2 runs to its deadline
    out = g.advance()
    assert cards(out) == [(1, "blue"), (2, "blue"), (3, "blue"), (4, "blue")]


def test_a_day_closed_early_still_gives_cards_when_the_host_wants():
    g = Game(3, seed="short2", settings=calm(speech_cards_short_day=True))
    g.now = g.phase_end - timedelta(hours=6)
    out = g._take(ENGINE.deadline(g.state, "phase", g.ctx()))
    assert cards(out) == [(1, "blue"), (2, "blue"), (3, "blue")]


def test_a_day_that_ran_late_gives_cards():
    """A day the host extended (/延时) ran its course: cards as usual."""
    g = Game(2, seed="late", settings=calm())
    g.now = g.phase_end + timedelta(minutes=27)
    out = g._take(ENGINE.deadline(g.state, "phase", g.ctx()))
    assert cards(out) == [(1, "blue"), (2, "blue")]



def test_putting_back_an_announced_player_keeps_a_night_death_secret():
    """公示: night deaths wait for the morning — /回场 of a player out since an earlier morning does not
    make tonight's unannounced death public."""
    g = Game(4, settings=calm())
    g.born({1: A, 2: A, 3: B, 4: B})
    g.cmd(None, "kernel.out", host=True, seat=4, reason="失联")
    g.advance()  # morning: 4 announced
    g.advance()  # night 2
    g.cmd(None, "kernel.out", host=True, seat=3, reason="失联")
    assert ENGINE.public_out(g.state) == [4]
    g.cmd(None, "kernel.back", host=True, seat=4, reason="误判")
    assert ENGINE.public_out(g.state) == []
    assert "昨夜出局：P3（判罚）" in group(g.advance())
