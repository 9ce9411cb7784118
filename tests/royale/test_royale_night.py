"""Night actions, each settled at once (rules: 角色行动 · 游戏日夜晚 / 行动状态), and bad input refused."""

from __future__ import annotations

from datetime import timedelta

import pytest

from plugins.gamekit.contract import Eliminate, Say
from plugins.royale.engine.state import Death, FoundPlayer, Grade, ItemKind

from royale_helpers import Game, empty_world, merge, text, texts

PLACE = "果园"
OTHER = "动物园"
SAFE = "雾雨小镇"


def calm() -> dict:
    """No items scattered and no closures, so tests can cross nights."""
    return merge(empty_world(), {"places": {"closures": [0]}})


def two(seed: str = "s", **kw) -> Game:
    g = Game(4, seed=seed, settings=calm(), **kw)
    g.born({1: PLACE, 2: PLACE})
    return g


def found(g: Game, seat: int, target: int) -> None:
    """Search until ``seat`` finds player ``target`` (time moves 31 s per try)."""
    g.state.see = 100
    for _ in range(40):
        g.p(seat).st = 100
        g.cmd(seat, "search")
        s = g.p(seat).search
        if isinstance(s, FoundPlayer) and s.seat == target:
            return
        g.tick(31)
    raise AssertionError("never found")


# ---- 出生 ---------------------------------------------------------------------

def test_birth_on_first_night_choose_place():
    """游戏日夜晚: the first night each player is born at a place they choose."""
    g = Game(3, settings=empty_world())
    g.night()
    out = g.cmd(1, "birth", place="atelier of  tales")
    assert g.p(1).place == "Atelier of Tales" and "出生" in text(out)
    assert "已经出生" in g.reject(1, "birth", place=PLACE)
    assert "没有「火星」" in g.reject(2, "birth", place="火星")


def test_birth_refused_in_day_and_on_closed_place():
    g = Game(3, settings=empty_world())
    assert "不是夜间行动时间。今晚行动 21:10 开始" in g.reject(1, "birth", place=PLACE)
    g.night()
    g.state.closed.append(OTHER)
    assert "已经缩圈" in g.reject(1, "birth", place=OTHER)


def test_acting_before_birth_refused():
    g = Game(3, settings=empty_world())
    g.night()
    assert "请先 /出生" in g.reject(1, "search")
    assert "请先 /出生" in g.reject(1, "move", place=PLACE)


# ---- 移动 ---------------------------------------------------------------------

def test_move_costs_5_stamina():
    """行动状态【移动】: −5 stamina."""
    g = two()
    out = g.cmd(1, "move", place=OTHER)
    assert g.p(1).place == OTHER and g.p(1).st == 95 and "剩余体力 95" in text(out)


def test_move_bad_input_changes_nothing():
    """Bad input: closed or unknown place, not enough stamina — refused, no stamina spent."""
    g = two()
    g.state.closed.append(OTHER)
    assert "已经缩圈" in g.reject(1, "move", place=OTHER)
    assert "没有「月球」" in g.reject(1, "move", place="月球")
    assert "已经在「果园」" in g.reject(1, "move", place=PLACE)
    g.p(1).st = 4
    assert "体力不足" in g.reject(1, "move", place="吠舞罗")


# ---- 搜索 ---------------------------------------------------------------------

def test_search_costs_5_and_needs_30_seconds_between():
    """【搜索】−5 stamina; 两次【搜索】之间必须间隔30秒以上."""
    g = two()
    g.cmd(1, "search")
    assert g.p(1).st == 95
    g.tick(29.5)
    msg = g.reject(1, "search")
    assert "30 秒" in msg and "1 秒后" in msg
    g.tick(0.5)
    g.cmd(1, "search")
    assert g.p(1).st == 90


def test_search_with_too_little_stamina_refused():
    g = two()
    g.p(1).st = 4
    assert "体力不足：搜索需要 5 点体力，你只有 4 点" in g.reject(1, "search")


def test_search_empty_place_finds_nothing():
    """【搜索】无物品和角色时反馈空."""
    g = two()
    g.cmd(2, "move", place=OTHER)
    out = g.cmd(1, "search")
    assert "什么也没找到" in text(out) and g.p(1).search is None


def test_search_returns_the_item_or_person_there():
    g = two()
    g.cmd(2, "move", place=OTHER)
    item = g.put(PLACE, "木棍")
    out = g.cmd(1, "search")
    assert "木棍" in text(out) and g.p(1).search.id == item.id


def test_cloudy_weather_shows_who_half_the_time():
    """天气 阴天: 有50%的概率看不清搜索到的幸存者是谁."""
    g = two()
    g.state.see = 50
    seen = 0
    for _ in range(200):
        g.p(1).st = 100
        g.tick(31)
        out = text(g.cmd(1, "search"))
        seen += "P2" in out
    assert 70 <= seen <= 130


def test_search_sight_follows_weather():
    """天气: 晴 100% see who was found, 雾 0%."""
    g = two()
    g.state.see = 0
    assert "看不清" in text(g.cmd(1, "search"))
    g.tick(31)
    g.state.see = 100
    assert "P2" in text(g.cmd(1, "search"))


# ---- 攻击 ---------------------------------------------------------------------

def test_fists_do_5_and_victim_learns_damage_not_source():
    """【攻击】没武器时挥拳伤害为5; 被攻击者得知伤害值但不知道来源; attacker learns nothing."""
    g = two()
    found(g, 1, 2)
    st = g.p(1).st
    out = g.cmd(1, "attack")
    assert g.p(2).hp == 95 and g.p(1).st == st
    assert texts(out, 2) == ["你受到了 5 点伤害，剩余生命 95。"]
    assert text(out).startswith("攻击已发动") and "95" not in text(out)
    assert "P1" not in texts(out, 2)[0]


def test_weapon_damage_minus_armour():
    """武器 15 vs 绿色防具 −5 = 10; the attack costs no stamina."""
    g = two()
    g.give(1, "竹制长矛", equip=True)
    g.give(2, "麻布头带", equip=True)
    found(g, 1, 2)
    st = g.p(1).st
    g.cmd(1, "attack")
    assert g.p(2).hp == 90 and g.p(1).st == st


def test_attack_needs_fresh_search_and_only_once_per_search():
    """每次搜索后只可攻击一次; Bad input: attacking with no fresh search."""
    g = two()
    assert "请先 /搜索" in g.reject(1, "attack")
    found(g, 1, 2)
    g.cmd(1, "attack")
    assert "请先 /搜索" in g.reject(1, "attack")


def test_attack_after_target_left_refused():
    g = two()
    found(g, 1, 2)
    g.cmd(2, "move", place=OTHER)
    assert "不在「果园」" in g.reject(1, "attack")


def test_attack_in_safe_zone_fails_but_bomb_works():
    """雾雨小镇为安全区，安全区的攻击无效（但可以使用炸弹）."""
    g = Game(4, settings=empty_world())
    g.born({1: SAFE, 2: SAFE, 3: SAFE})
    found(g, 1, 2)
    assert "安全区" in g.reject(1, "attack")
    g.give(1, "遥控地雷")
    out = g.use(1, item="遥控地雷")
    assert g.p(2).hp == 70 and g.p(3).hp == 70 and g.p(1).hp == 100
    assert "遥控地雷已引爆" in text(out)
    assert not any(it.name == "遥控地雷" for it in g.p(1).items)


def test_bomb_ignores_armour_and_kills_drop_items():
    """【6】遥控地雷 −30 无视防具; 被杀死角色的道具散落在当地; cause 炸药."""
    g = two()
    g.give(2, "厄运羽衣", equip=True)
    g.give(2, "木棍")
    g.p(2).hp = 30
    g.give(1, "遥控地雷")
    out = g.use(1, item="遥控地雷")
    assert not g.p(2).alive and g.p(2).items == []
    assert sorted(i.name for i in g.state.ground[PLACE]) == ["厄运羽衣", "木棍"]
    assert g.state.deaths[-1].cause == "炸药"
    assert Eliminate(2, "炸药") in out.effects and "P2" in text(out)


def test_orange_weapon_splash_bleed_and_5_uses():
    """【1】④ 橙武: 50 to the target (armour counts), 20 to everyone else there (ignoring armour),
    10 bleed that does not stack, 5 uses."""
    g = Game(4, settings=empty_world())
    g.born({1: PLACE, 2: PLACE, 3: PLACE, 4: OTHER})
    g.give(1, "预言之瞳", equip=True)
    g.give(2, "麻布头带", equip=True)
    g.give(3, "厄运羽衣", equip=True)
    found(g, 1, 2)
    out = g.cmd(1, "attack")
    assert g.p(2).hp == 55 and g.p(3).hp == 80 and g.p(4).hp == 100 and g.p(1).hp == 100
    assert g.p(2).bleed == 10 and g.p(3).bleed == 10 and g.p(1).bleed == 0
    assert "流血" in texts(out, 3)[0]
    weapon = g.p(1).items[0]
    assert weapon.uses == 4
    for _ in range(3):
        g.p(2).hp = g.p(3).hp = 100
        g.tick(31)
        found(g, 1, 2)
        g.cmd(1, "attack")
    assert g.p(2).bleed == 10  # does not stack
    g.p(2).hp = g.p(3).hp = 100
    g.tick(31)
    found(g, 1, 3)
    out = g.cmd(1, "attack")
    assert g.p(1).items == [] and g.p(1).weapon is None
    assert "损坏" in text(out)


@pytest.mark.parametrize("armour,uses", [("混沌术士法衣", 5), ("厄运羽衣", 3)])
def test_limited_armour_breaks_after_its_uses(armour, uses):
    """【2】③ 紫色防具限用5次; ④ 橙色防具限用3次."""
    g = two()
    g.give(2, armour, equip=True)
    for i in range(uses):
        assert g.p(2).armour is not None
        g.tick(31)
        found(g, 1, 2)
        out = g.cmd(1, "attack")
    assert g.p(2).hp == 100  # fists 5 − 15 or 25 = 0
    assert g.p(2).armour is None and g.p(2).items == []
    assert "损坏" in text(out, 2)


def test_kill_gives_killer_all_items_if_they_fit():
    """出局: 被攻击致死的角色持有的道具归攻击者所有; the attacker learns the kill."""
    g = two()
    g.give(1, "预言之瞳", equip=True)
    g.give(2, "木棍", equip=True)
    g.give(2, "矿泉水")
    g.p(2).hp = 50
    found(g, 1, 2)
    out = g.cmd(1, "attack")
    assert not g.p(2).alive
    assert sorted(i.name for i in g.p(1).items) == ["木棍", "矿泉水", "预言之瞳"]
    assert "你击杀了 P2" in text(out) and Eliminate(2, "攻击") in out.effects
    assert g.state.deaths[-1] == Death(seat=2, night=1, cause="攻击", killer=1, batch=g.state.batch, place=PLACE)


def test_kill_with_full_bag_takes_random_part_rest_drops():
    """出局: 超过6件时凶手随机获得若干件直到背包为6件，其余掉落在出局区域."""
    g = two()
    g.give(1, "预言之瞳", equip=True)
    for n in ("木棍", "石块", "矿泉水", "鸟蛋"):
        g.give(1, n)
    for n in ("绷带", "银币", "金币"):
        g.give(2, n)
    g.p(2).hp = 1
    found(g, 1, 2)
    g.cmd(1, "attack")
    assert len(g.p(1).items) == 6
    dropped = [i.name for i in g.state.ground[PLACE]]
    got = [i.name for i in g.p(1).items[5:]]
    assert len(dropped) == 2 and sorted(dropped + got) == ["绷带", "金币", "银币"]


def test_kill_with_six_items_takes_nothing():
    g = two()
    g.give(1, "预言之瞳", equip=True)
    for n in ("木棍", "石块", "矿泉水", "鸟蛋", "绷带"):
        g.give(1, n)
    g.give(2, "银币")
    g.p(2).hp = 1
    found(g, 1, 2)
    g.cmd(1, "attack")
    assert len(g.p(1).items) == 6 and [i.name for i in g.state.ground[PLACE]] == ["银币"]


# ---- 拾取 / 装备 / 丢弃 ---------------------------------------------------------

def test_pickup_what_the_search_found():
    """【捡拾】搜索后如果反馈有物品，可以捡拾，消耗0体力."""
    g = two()
    g.cmd(2, "move", place=OTHER)
    g.put(PLACE, "木棍")
    g.cmd(1, "search")
    st = g.p(1).st
    out = g.cmd(1, "pickup")
    assert [i.name for i in g.p(1).items] == ["木棍"] and g.state.ground[PLACE] == []
    assert g.p(1).st == st and "背包 1/6" in text(out)
    assert "请先 /搜索" in g.reject(1, "pickup")


def test_pickup_gone_item_and_full_bag_refused():
    g = two()
    g.cmd(2, "move", place=OTHER)
    g.put(PLACE, "木棍")
    g.cmd(1, "search")
    for n in ("石块", "矿泉水", "鸟蛋", "绷带", "银币", "金币"):
        g.give(1, n)
    assert "背包已满" in g.reject(1, "pickup")
    g.state.ground[PLACE] = []
    assert "已经不在原地" in g.reject(1, "pickup")


def test_equip_one_weapon_one_armour_swap_back_to_bag():
    """每个人手中最多同时拿着2个道具（即最多可以同时使用一个武器和一个防具）; 【更换】换下的放回背包."""
    g = two()
    a = g.give(1, "木棍")
    b = g.give(1, "双发射手")
    c = g.give(1, "麻布头带")
    water = g.give(1, "矿泉水")
    g.cmd(1, "equip", item="木棍")
    g.cmd(1, "equip", item="麻布头带")
    out = g.cmd(1, "equip", item="双发射手")
    assert g.p(1).weapon == b.id and g.p(1).armour == c.id
    assert "木棍" in text(out) and len(g.p(1).items) == 4
    assert "已经拿在手上" in g.reject(1, "equip", item="双发射手")
    # a third item in hand: the armour goes back to the bag unless another is named
    out = g.cmd(1, "equip", item="矿泉水")
    assert g.p(1).held == water.id and g.p(1).armour is None and "麻布头带" in text(out)
    g.cmd(1, "equip", item="麻布头带", swap="双发射手")
    assert g.p(1).armour == c.id and g.p(1).weapon is None and g.p(1).held == water.id
    assert "换下哪一件" in g.reject(1, "equip", item="木棍", swap="石块")
    assert "你没有「石块」" in g.reject(1, "equip", item="石块")
    assert a in g.p(1).items


def test_drop_puts_item_on_the_ground():
    g = two()
    w = g.give(1, "木棍", equip=True)
    g.cmd(1, "drop", item="木棍")
    assert g.p(1).items == [] and g.p(1).weapon is None
    assert g.state.ground[PLACE] == [w]


# ---- 使用 -------------------------------------------------------------------

def test_supplies_restore_and_cap_at_100():
    """【7】补给: 矿泉水 +20, 能量饮料 +50, 肾上腺素 full, 鸟蛋 +10, 绷带 +30, 急救包 +60, 红花丹 full."""
    g = two()
    for name, field, before, after in [
        ("矿泉水", "st", 10, 30), ("能量饮料", "st", 10, 60), ("肾上腺素", "st", 10, 100), ("矿泉水", "st", 90, 100),
        ("鸟蛋", "hp", 10, 20), ("绷带", "hp", 10, 40), ("急救包", "hp", 10, 70), ("红花丹", "hp", 10, 100),
    ]:
        setattr(g.p(1), field, before)
        g.give(1, name)
        g.use(1, item=name)
        assert getattr(g.p(1), field) == after, name
    assert g.p(1).items == []


def test_egg_and_bandage_stop_bleeding_instead_of_healing():
    """【7】鸟蛋和绷带: 若有持续伤害, 优先抵消, 不再增加生命值; 急救包/红花丹 both."""
    g = two()
    g.p(1).hp, g.p(1).bleed, g.p(1).bleed_by = 50, 10, 2
    g.give(1, "绷带")
    g.use(1, item="绷带")
    assert g.p(1).hp == 50 and g.p(1).bleed == 0
    g.p(1).bleed = 10
    g.give(1, "急救包")
    g.use(1, item="急救包")
    assert g.p(1).hp == 100 and g.p(1).bleed == 0


def test_money_items():
    """【8】银币 +1, 金币 +2."""
    g = two()
    g.give(1, "银币")
    g.give(1, "金币")
    g.use(1, item="银币")
    g.use(1, item="金币")
    assert g.p(1).money == 3 and g.p(1).items == []


def test_using_item_not_held_or_gear_refused():
    """Bad input: using an item not in hand."""
    g = two()
    assert "你没有「绷带」" in g.reject(1, "use", item="绷带")
    g.give(1, "木棍")
    assert "不能直接使用" in g.reject(1, "use", item="木棍")


def test_artificial_upgrader_up_to_purple_natural_any():
    """【3】人造升级器最多升级到紫色; 自然升级器可进行任何升级."""
    g = two()
    ident = g.give(1, "木棍", equip=True).id
    g.give(1, "人造升级器")
    g.use(1, item="人造升级器", target="木棍")
    w = g.item(1, ident)
    assert w.grade == "blue" and w.name in g.cat.names(ItemKind.WEAPON, Grade.BLUE)
    g.give(1, "人造升级器")
    g.use(1, item="人造升级器", target=w.name)
    w = g.item(1, ident)
    assert w.grade == "purple"
    g.give(1, "人造升级器", equip=True)
    assert "最多只能升级到紫色" in g.reject(1, "use", item="人造升级器", target=w.name)
    g.give(1, "自然升级器")
    g.use(1, item="自然升级器", target=w.name)
    w = g.item(1, ident)
    assert w.grade == "orange" and w.uses == 5 and g.p(1).weapon == w.id
    g.give(1, "自然升级器", equip=True)
    assert "最高等级" in g.reject(1, "use", item="自然升级器", target=w.name)
    assert [i.name for i in g.p(1).items] == [w.name, "人造升级器", "自然升级器"]


def test_gps_once_per_night_finds_item_or_holder():
    """【4】心跳探测仪: 每晚限使用1次, 获知道具所在区域, 被装备则反馈角色所在区域."""
    g = two()
    g.put(OTHER, "木棍")
    g.give(2, "厄运羽衣", equip=True)
    g.give(1, "心跳探测仪")
    assert "在「动物园」" in text(g.use(1, item="心跳探测仪", target="木棍"))
    assert "今晚已经用过" in g.reject(1, "use", item="心跳探测仪", target="厄运羽衣")
    g.advance()
    g.advance()
    out = g.use(1, item="心跳探测仪", target="厄运羽衣")
    assert "角色在「果园」" in text(out)


def test_radar_shows_two_players_items():
    """【4】手持式雷达: 每晚1次, 获知2名目标持有的全部道具."""
    g = two()
    g.give(2, "木棍")
    g.give(3, "银币")
    g.give(1, "手持式雷达")
    out = text(g.use(1, item="手持式雷达", target="P2 3"))
    assert "P2：木棍" in out and "P3：银币" in out
    assert "今晚已经用过" in g.reject(1, "use", item="手持式雷达", target="P2")


def test_loudspeaker_publishes_next_morning():
    """【5】生命启示: consumed; next day shows a place's items and people and one player's state."""
    g = two()
    g.put(PLACE, "木棍")
    g.give(2, "银币")
    g.give(1, "生命启示")
    g.use(1, item="生命启示", target="果园 P2")
    assert g.p(1).items == []
    out = g.advance()
    post = "\n".join(texts(out, "group"))
    assert "【生命启示】「果园」：角色 P1、P2；道具 木棍" in post
    assert "P2：生命 100，体力 100，货币 0，道具 银币" in post


def test_loudspeaker_same_player_not_twice_in_three_days():
    g = two()
    g.give(1, "生命启示")
    g.give(1, "生命启示")
    g.use(1, item="生命启示", target="果园 P2")
    g.cmd(1, "equip", item="生命启示")
    assert "三天内" in g.reject(1, "use", item="生命启示", target="果园 P2")


# ---- 静养 -------------------------------------------------------------------

def test_rest_one_move_then_nothing_else_and_recovery():
    """【静养】最多进行一次移动, 当夜不进行任何其他行动; 次日体力100并回复25生命."""
    g = two()
    g.p(1).hp, g.p(1).st = 50, 10
    g.cmd(1, "rest", place=OTHER)
    assert g.p(1).place == OTHER
    assert "静养" in g.reject(1, "search")
    assert "静养" in g.reject(1, "move", place=PLACE)
    g.give(1, "木棍")
    assert "静养" in g.reject(1, "equip", item="木棍")
    g.advance()
    assert g.p(1).st == 100 and g.p(1).hp == 75


def test_rest_after_acting_refused():
    g = two()
    g.cmd(1, "search")
    assert "已经行动过" in g.reject(1, "rest")


def test_dead_player_cannot_act():
    g = two()
    g.cmd(3, "kernel.out", seat=2, reason="红牌")
    assert "已出局" in g.reject(2, "search")
    assert "已出局" in g.reject(2, "move", place=OTHER)


def test_actions_outside_the_night_window_refused():
    """时限: actions only in the night window (21:10–21:25)."""
    g = two()
    g.advance()
    assert g.state.phase == "day"
    for name, args in [("search", {}), ("move", {"place": OTHER}), ("attack", {}), ("use", {"item": "x"}),
                       ("buy", {"item": "矿泉水"})]:
        assert "不是夜间行动时间" in g.reject(1, name, **args)


# ---- 商店 -------------------------------------------------------------------

def test_buy_at_night_with_money_from_daily_stock():
    """商店: 1货币=矿泉水, 绿色武器 gives a random green weapon; sold out = refused."""
    g = two()
    g.p(1).money = 3
    g.cmd(1, "buy", item="矿泉水")
    g.cmd(1, "buy", item="矿泉水")
    assert g.p(1).money == 1 and "已售罄" in g.reject(1, "buy", item="矿泉水")
    g.cmd(1, "buy", item="绿色武器")
    assert g.p(1).items[-1].grade == Grade.GREEN and g.p(1).items[-1].kind == ItemKind.WEAPON
    assert "货币不足" in g.reject(1, "buy", item="红花丹")
    assert "商店没有" in g.reject(1, "buy", item="预言之瞳")


def test_unsold_stock_carries_over():
    """商店: 未售罄的物品可以延续到下一日."""
    g = two()
    assert g.state.shop["红花丹"] == 1
    g.advance()
    assert g.state.shop["红花丹"] == 2


def test_sell_by_day_two_greens_one_coin_blue_one_coin():
    """商店: 2绿色装备=1货币, 1蓝色及以上=1货币; by day. Variant rules.sell_which = "unequipped"
    (the other reading: only gear not in hand)."""
    g = Game(4, settings=merge(calm(), {"rules": {"sell_which": "unequipped"}}))
    g.born({1: PLACE, 2: PLACE})
    g.give(1, "木棍")
    assert "白天" in g.reject(1, "sell", item="木棍")
    g.advance()
    g.give(1, "石块")
    g.give(1, "双发射手")
    g.give(1, "麻布头带", equip=True)
    g.give(1, "矿泉水")
    g.cmd(1, "sell", item="木棍")
    assert g.p(1).money == 0
    g.cmd(1, "sell", item="石块")
    assert g.p(1).money == 1
    g.cmd(1, "sell", item="双发射手")
    assert g.p(1).money == 2
    assert "正拿在手上" in g.reject(1, "sell", item="麻布头带")
    assert "只能出售武器和防具" in g.reject(1, "sell", item="矿泉水")


def test_replies_never_go_to_the_group():
    g = two()
    found(g, 1, 2)
    out = g.cmd(1, "attack")
    assert not [e for e in out.effects if isinstance(e, Say) and e.to == "group"]


def test_bag_and_shop_replies():
    g = two()
    g.give(1, "双发射手", equip=True)
    g.give(1, "绷带")
    bag = text(g.cmd(1, "bag"))
    assert "位置：果园" in bag and "双发射手（蓝色武器 伤害25）" in bag and "绷带（补给）" in bag
    assert "共 2 件" in bag
    shop = text(g.cmd(3, "shop"))
    assert "红花丹 5货币（剩1）" in shop and "/购买" in shop


def test_web_action_entry_point_matches_chat_rules():
    """``act`` (a night action by seat, as a web page would send it): the chat command's results
    and refusals, the state handed in untouched."""
    import copy

    from plugins.gamekit.contract import Rejected
    from plugins.royale.engine import act

    g = two()
    frozen = copy.deepcopy(g.state)
    out = act(g.state, 1, "move", {"place": OTHER}, g.ctx())
    assert out.state.players[1].place == OTHER and g.state == frozen
    try:
        act(g.state, 1, "attack", {}, g.ctx())
    except Rejected as exc:
        assert "请先 /搜索" in str(exc)
    else:
        raise AssertionError("attack without search accepted")


def test_a_night_action_by_day_names_the_real_start():
    """时限: 「通常行动时间为北京时间21:10-21:25」 — usually; a day the host extended (/延时) starts
    its night later, and the refusal says when; with no deadline (paused) the usual window."""
    g = Game(2, settings=empty_world())
    g.phase_end += timedelta(minutes=27)  # the host's /延时 27
    assert "今晚行动 21:37 开始" in g.reject(1, "birth", place=PLACE)
    g.phase_end += timedelta(days=1)
    assert "今晚行动 12月1日 21:37 开始" in g.reject(1, "birth", place=PLACE)
    g.phase_end = None
    assert "不是夜间行动时间（21:10–21:25）" in g.reject(1, "birth", place=PLACE)


def test_searched_tells_tonight_s_searches_apart():
    """【搜索】 反馈 what it found (无物品和角色时反馈空): the state keeps whether tonight's last search
    found nothing or something (the action page says so); a new night starts with none."""
    from plugins.royale.engine.state import Searched

    g = Game(2, settings=empty_world())
    g.born({1: PLACE, 2: OTHER})
    assert g.p(1).searched == Searched.NOT_YET
    g.cmd(1, "search")
    assert g.p(1).searched == Searched.EMPTY and g.p(1).search is None
    g.put(PLACE, "木棍")
    g.tick(31)
    g.cmd(1, "search")
    assert g.p(1).searched == Searched.FOUND and g.p(1).search is not None
    g.cmd(1, "pickup")
    assert g.p(1).searched == Searched.FOUND and g.p(1).search is None
    g.advance()
    g.advance()
    assert g.p(1).searched == Searched.NOT_YET
