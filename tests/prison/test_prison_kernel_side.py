"""Kernel commands, group post counts, /我的身份 and /状态."""

from __future__ import annotations

import pathlib
import re

import pytest

from plugins.gamekit.args import TextIn
from plugins.gamekit.contract import Command, Eliminate, Finish, GiveCard, Ignored, Rejected, Restore, run_rule
from plugins.prison.engine.commands import COMMANDS
from plugins.prison.engine.engine import ENGINE
from plugins.prison.engine.model import PointItem

from prison_helpers import MURDERER


def test_red_card_out_and_back(game):
    g = game()
    g.to_day1()
    fx = g.do(None, "kernel.out", host=True, seat=5, reason="红牌")
    assert fx == [Eliminate(5, "红牌")] and g.p(5).status == "out"
    assert g.reject(5, "elect", seat=1) == "你已出局，不能再行动。"
    assert "已不在监狱中" in g.reject(None, "kernel.out", host=True, seat=5, reason="x")
    assert g.do(None, "kernel.back", host=True, seat=5, reason="误判") == [Restore(5, "误判")]
    assert g.p(5).status == "alive"


def test_murderer_side_put_out_by_red_cards_ends_the_game_3_1(game):
    """（三）1 counts the whole murderer side: the accomplice keeps the game going."""
    g = game()
    g.to_day1()
    fx = g.do(None, "kernel.out", host=True, seat=MURDERER, reason="红牌")
    assert not any(isinstance(e, Finish) for e in fx) and g.state.phase == "day"
    fx = g.do(None, "kernel.out", host=True, seat=8, reason="红牌")
    assert any(isinstance(e, Finish) for e in fx)
    assert g.state.result.cond == 1
    assert PointItem("杀人犯阵营全部死亡（（二）5）", 2) in g.state.result.points[1]


def test_fewer_than_five_group_posts_on_a_discussion_day_3_4(game):
    """【规则判罚】（三）4: fewer than 5 posts on a discussion day -> yellow card."""
    g = game()
    g.to_day1()
    for s in range(1, 13):
        for _ in range(5 if s != 4 else 2):
            assert g.do(s, "post", private=False, text="发言", images=0) == []
        g.do(s, "elect", seat=1 if s <= 6 else 7)
    fx = g.advance()
    cards = [e for e in fx if isinstance(e, GiveCard)]
    assert [(e.seat, e.color) for e in cards] == [(4, "yellow")]
    assert "发言 2 条，少于 5 条" in cards[0].reason


def test_post_counting_off_when_no_group_text_arrives(game):
    """RULES.md: with no group post counted at all that day, (三)4 is not applied."""
    g = game()
    g.to_day1()
    fx = g.elect()
    assert [e for e in fx if isinstance(e, GiveCard)] == []


def test_plain_text_with_nothing_to_do_is_ignored(game):
    g = game()
    g.to_day1()
    with pytest.raises(Ignored):  # not a player: the rule, as the kernel's plain-text route runs it
        run_rule(ENGINE, "relay", g.state, g.actor(None), TextIn(text="hi"), g.ctx())
    with pytest.raises(Rejected, match="你不是本局玩家。"):  # the table's who="player", as GameEngine.apply checks it
        ENGINE.apply(g.state, g.actor(None), Command("relay", TextIn(text="hi")), g.ctx())
    with pytest.raises(Ignored):  # group text outside a discussion day
        g.advance()
        ENGINE.apply(g.state, g.actor(3, private=False), Command("post", TextIn(text="hi")), g.ctx())


def test_private_info_and_status(game):
    g = game()
    g.to_day1()
    g.elect(chief=2, leader=7)
    g.do(7, "room", room="B")
    info = ENGINE.private_info(g.state, 7, settings=g.settings)
    assert "杀人犯" in info and "你是囚犯领袖" in info and "今晚房间：B" in info
    assert "看守长" in ENGINE.private_info(g.state, 2, settings=g.settings)
    status = ENGINE.status(g.state, settings=g.settings)
    assert status.startswith("第1夜 · 选房") and "看守长：2号马甲2" in status
    assert "杀人犯" not in status


def test_command_table_is_chinese_and_complete():
    names = {c.name for c in COMMANDS}
    assert {"love", "hate", "elect", "execute", "release", "abstain", "decide", "uprising", "room", "noise",
            "point_kill", "spare", "ability", "submit_map", "submit_alias", "note", "settle", "relay"} <= names
    for c in COMMANDS:
        assert c.help and re.search(r"[\u4e00-\u9fff]", c.help)
        if c.words:
            assert c.usage.startswith("/" + c.words[0])
    secret = {"love", "hate", "elect", "execute", "release", "abstain", "room", "submit_map", "note", "relay"}
    assert all(c.where == "private" for c in COMMANDS if c.name in secret)


def test_engine_source_is_pure():
    """The engine contract: no clock reads, no global random, no iteration over sets."""
    src = pathlib.Path(__file__).resolve().parents[2] / "plugins" / "prison" / "engine"
    for path in src.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "datetime.now" not in text and "time.time" not in text, path
        assert not re.search(r"^\s*import random|random\.(random|choice|shuffle|randint)\(", text, re.M), path
        assert not re.search(r"for \w+ in (set\(|\{[^}:]*\})", text), path
