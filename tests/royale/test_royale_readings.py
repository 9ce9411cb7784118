"""Rules read two ways (出售, 心跳探测仪, 使用): the seed's reading is the default, the
other one a setting. Also the automatic speech cards."""

from __future__ import annotations

import pytest

from plugins.gamekit.args import TextIn
from plugins.gamekit.contract import Actor, Command, GiveCard, Ignored
from plugins.royale.engine import ENGINE

from royale_helpers import Game, empty_world, merge, text

A, B = "果园", "动物园"


def calm(**rules) -> dict:
    return merge(empty_world(), {"places": {"closures": [0]}, "rules": rules})


def two(**rules) -> Game:
    g = Game(4, seed="read", settings=calm(**rules))
    g.born({1: A, 2: A, 3: B, 4: B})
    return g


# ---- 出售 -------------------------------------------------------------------------

def test_equipped_gear_is_sold_to_the_director_by_default():
    """商店: 「未装备的道具玩家可以自行售卖，已装备的道具可被玩家卖给导演换取货币」."""
    g = two()
    g.give(1, "双发射手", equip=True)
    g.give(1, "木棍")
    g.advance()  # by day
    msg = g.reject(1, "sell", item="木棍")
    assert "没有拿在手上" in msg and "自行交易" in msg
    g.cmd(1, "sell", item="双发射手")
    assert g.p(1).money == 1 and g.p(1).weapon is None
    assert [it.name for it in g.p(1).items] == ["木棍"]


def test_sell_any_setting_takes_both():
    g = two(sell_which="any")
    g.give(1, "双发射手")
    g.give(1, "西风剑", equip=True)
    g.advance()
    g.cmd(1, "sell", item="双发射手")
    g.cmd(1, "sell", item="西风剑")
    assert g.p(1).money == 2


# ---- 心跳探测仪 -------------------------------------------------------------------------

def test_gps_finds_equipped_items_only_by_default():
    """【4】心跳探测仪: 「可获知1件道具所在区域，如果被角色装备，则反馈角色所在区域」— a bag is not searched."""
    g = two()
    g.give(3, "木棍")  # in seat 3's bag
    g.give(1, "心跳探测仪", equip=True)
    assert "没有找到「木棍」" in text(g.cmd(1, "use", item="心跳探测仪", target="木棍"))
    g2 = two()
    g2.give(3, "木棍", equip=True)
    g2.give(1, "心跳探测仪", equip=True)
    assert "角色在「动物园」" in text(g2.cmd(1, "use", item="心跳探测仪", target="木棍"))


def test_gps_any_setting_also_finds_bags():
    g = two(gps_finds="any")
    g.give(3, "木棍")
    g.give(1, "心跳探测仪", equip=True)
    assert "角色在「动物园」" in text(g.cmd(1, "use", item="心跳探测仪", target="木棍"))


# ---- 使用 -------------------------------------------------------------------------

def test_use_only_an_item_in_hand_by_default():
    """【使用】: 「使用一件手中的道具」; 【更换】 takes it from the bag into a hand first (free)."""
    g = two()
    g.give(1, "绷带")
    g.p(1).hp = 50
    msg = g.reject(1, "use", item="绷带")
    assert "不在手上" in msg and "/装备 绷带" in msg
    g.cmd(1, "equip", item="绷带")
    g.cmd(1, "use", item="绷带")
    assert g.p(1).hp == 80 and g.p(1).held is None and g.p(1).items == []


def test_use_any_setting_uses_from_the_bag():
    g = two(use_from="any")
    g.give(1, "绷带")
    g.p(1).hp = 50
    g.cmd(1, "use", item="绷带")
    assert g.p(1).hp == 80
    g.give(1, "矿泉水")
    assert "不能装备" in g.reject(1, "equip", item="矿泉水")


# ---- 白天发言不足1帖 ----------------------------------------------------------------

def cards(out) -> list[tuple[int, str]]:
    return [(e.seat, e.color) for e in out.effects if isinstance(e, GiveCard)]


def test_no_post_by_day_blue_card_first_then_yellow():
    """违规判定: 「白天发言不足1帖，第一次蓝牌一张，第二次黄牌一张」."""
    g = Game(3, seed="talk", settings=calm())
    g.cmd(1, "speak", text="大家好")
    g.cmd(2, "speak", text="我来了")
    out = g.advance()  # day 1 ends
    assert cards(out) == [(3, "blue")]
    g.cmd(1, "birth", place=A)
    g.cmd(2, "birth", place=A)
    g.cmd(3, "birth", place=B)
    g.advance()
    g.cmd(1, "speak", text="早")
    out = g.advance()
    assert cards(out) == [(2, "blue"), (3, "yellow")]
    assert "第2天白天发言不足1帖" in next(e.reason for e in out.effects if isinstance(e, GiveCard))


def test_posts_at_night_or_by_the_dead_do_not_count_and_setting_turns_cards_off():
    g = Game(3, seed="talk2", settings=calm())
    g.advance()
    with pytest.raises(Ignored):  # night: not counted
        ENGINE.apply(g.state, Actor("u1", 1, False, False), Command("speak", TextIn(text="x")), g.ctx())
    g2 = Game(3, seed="talk3", settings=calm(speech_cards=False))
    assert cards(g2.advance()) == []
