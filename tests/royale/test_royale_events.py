"""The ten random events and their NPCs (seed: 随机事件), a host's /事件 and the rewards.

Every test drives a seeded game; a host forces the event for the next day with /事件
(as a host would) and the test checks what players and the group see."""

from __future__ import annotations

import pytest

from plugins.gamekit.contract import Eliminate, Say
from plugins.royale.engine import ENGINE
from plugins.royale.engine.events import find_event, rank_key, top_players
from plugins.royale.engine.state import EventKey, FoundNpc, FoundPlayer, NpcKind, Plan, WantedClaim

from royale_helpers import Game, empty_world, merge, text, texts

A, B, C = "果园", "动物园", "吠舞罗"  # 动物园 and 吠舞罗 are adjacent on the map
SAFE = "雾雨小镇"


def calm(**over) -> dict:
    """No items scattered, no closures (so no werewolves), no air drops."""
    return merge(merge(empty_world(), {"places": {"closures": [0]}}), over)


def group(out) -> str:
    return "\n".join(texts(out, "group"))


def forced(event: str, places: dict[int, str], n: int = 4, settings: dict | None = None, seed: str = "ev") -> Game:
    """Day 1 → a host forces ``event`` for day 2 → night 1 (births) → the morning of day 2."""
    g = Game(n, seed=seed, settings=settings or calm())
    g.cmd(None, "event", host=True, text=event)
    g.born(places)
    g.out = g.advance()
    assert g.state.day == 2
    return g


def find(g: Game, seat: int, kind: str, ident) -> None:
    """Search until ``seat`` finds the player or NPC ``ident`` (31 s between searches)."""
    g.state.see = 100
    for _ in range(60):
        g.p(seat).st = 100
        g.cmd(seat, "search")
        s = g.p(seat).search
        if kind == "player" and isinstance(s, FoundPlayer) and s.seat == ident:
            return
        if kind == "npc" and isinstance(s, FoundNpc) and s.id == ident:
            return
        g.tick(31)
    raise AssertionError("never found")


# ---- the draw ------------------------------------------------------------------

def test_full_moon_fixed_on_day_one_and_a_werewolf_in_a_closing_place():
    """10.月圆之夜: 该事件固定于第一日触发; 每日在随机缩圈地点刷新【躁动的狼人】(50 HP, one item)."""
    g = Game(4, seed="moon")
    post = "\n".join(e.text for e in g.all_effects if isinstance(e, Say) and e.to == "group")
    assert [e.key for e in g.state.today] == ["moon"] and "【事件·月圆之夜】" in post
    (wolf,) = g.state.npcs
    assert wolf.kind == NpcKind.WEREWOLF and wolf.hp == 50 and wolf.place in g.state.closing
    assert len(wolf.items) == 1 and wolf.items[0].name in ("人造升级器", "能量饮料", "绷带", "金币")
    line = next(x for x in post.split("\n") if "】出现了" in x)
    assert wolf.place not in line and "今晚缩圈的某个地点" in line  # the seed does not post where he is


def test_one_event_a_day_drawn_from_the_seed_new_ones_first():
    """随机事件: one a day from the game's seeded generator; the same seed draws the same days."""
    def days(seed):
        g = Game(3, seed=seed, settings=calm())
        g.born({1: A, 2: A, 3: B})
        for _ in range(6):
            g.advance()
            g.advance()
        return [(x.day, x.key) for x in g.state.event_log]

    first = days("draw")
    assert first == days("draw")
    keys = [k for _, k in first]
    assert keys[0] == "moon" and len(keys) == 7 and len(set(keys)) == 7  # nothing repeats while new ones are left
    assert all(k != "wind" for d, k in first if d < 6)  # 起风了 never before day 6


def test_host_forces_or_forbids_tomorrows_event_and_is_logged():
    """/事件: a host forces or forbids tomorrow's event; the host log (and /导出) keep it."""
    g = Game(3, seed="plan", settings=calm())
    out = g.cmd(None, "event", host=True, text="凛冬已至")
    assert "第2天" in text(out, "hosts") and g.state.event_plan.force == "winter"
    g.cmd(None, "event", host=True, text="禁止 凛冬已至")
    assert g.state.event_plan == Plan(force=None, forbid=[EventKey.WINTER])
    g.cmd(None, "event", host=True, text="change")  # keys and names both work
    g.born({1: A, 2: A, 3: A})
    g.advance()
    assert [e.key for e in g.state.today] == ["change"] and g.state.event_plan.force is None
    assert [h.what for h in g.state.host_log] == ["指定第2天事件：凛冬已至", "禁止第2天事件：凛冬已至",
                                                      "指定第2天事件：Change！"]
    assert len(ENGINE.tables(g.state, settings=g.cfg)["导演记录"]) == 4


def test_event_command_bad_input_names_what_is_accepted():
    """Bad input: /事件 with an unknown name, 起风了 before day 6, a player trying it."""
    g = Game(3, seed="bad", settings=calm())
    msg = g.reject(None, "event", host=True, text="流星雨")
    assert "没有「流星雨」这个事件" in msg and "通缉令" in msg and "月圆之夜" in msg
    assert "第6天之前" in g.reject(None, "event", host=True, text="起风了")
    assert "固定在第1天" in g.reject(None, "event", host=True, text="月圆之夜")
    assert "只有导演" in g.reject(1, "event", text="通缉令")
    assert "今日事件：月圆之夜" in text(g.cmd(None, "event", host=True))


# ---- 1. 通缉令 --------------------------------------------------------------------

def test_wanted_top_hitter_chooses_a_supply_and_the_killer_learns_an_airdrop_place():
    """1.通缉令: 随机三名存活玩家被通缉; 伤害值最高的玩家自选能量饮料或急救包; 击杀者得知一件空投地点."""
    cfg = calm(airdrops=[{"day": 2, "items": ["红花丹"]}])
    g = forced("通缉令", {1: A, 2: A, 3: A, 4: A}, settings=cfg)
    wanted = today_seats(g, "wanted")
    assert len(wanted) == 3 and all(g.p(s).alias in group(g.out) for s in wanted)
    hunter = next(s for s in (1, 2, 3, 4) if s not in wanted)
    prey = next(s for s in wanted if s != hunter)
    g.advance()  # night 2
    g.give(hunter, "双发射手", equip=True)
    find(g, hunter, "player", prey)
    g.p(prey).hp = 25
    g.cmd(hunter, "attack")  # 25 damage: kills
    assert not g.p(prey).alive
    out = g.advance()  # morning of day 3
    assert "能量饮料" in text(out, hunter) and "空投地点" in text(out, hunter)
    msg = g.reject(hunter, "claim", text="手枪")  # not an option: the reply lists the options
    assert "可领取" in msg and "/领取 能量饮料 或 /领取 急救包" in msg and "红花丹" in msg
    g.cmd(hunter, "claim", text="急救包")
    assert any(it.name == "急救包" for it in g.p(hunter).items)
    place = next(d.place for d in g.state.landed if d.name == "红花丹")
    assert f"「{place}」" in text(g.cmd(hunter, "claim", text="红花丹"))
    assert "没有可领取" in g.reject(hunter, "claim", text="红花丹")


def test_wanted_splash_and_bombs_do_not_count_and_ties_go_to_the_first():
    """通缉令: 直接有效攻击（不计溅射、炸弹和0伤害）; equal totals: the first to hit."""
    g = forced("通缉令", {1: A, 2: A, 3: A, 4: A}, n=4)
    wanted = today_seats(g, "wanted")
    prey = wanted[0]
    others = [s for s in (1, 2, 3, 4) if s != prey]
    g.advance()
    g.give(others[0], "遥控地雷", equip=True)
    g.cmd(others[0], "use", item="遥控地雷")  # bomb: not counted
    find(g, others[1], "player", prey)
    g.cmd(others[1], "attack")  # fists 5
    g.tick(31)
    find(g, others[2], "player", prey)
    g.cmd(others[2], "attack")  # fists 5, later
    out = g.advance()
    got = [s for s in others if "通缉令" in text(out, s) and g.p(prey).alias in text(out, s)]
    assert got == [others[1]]


def today_seats(g: Game, key: str) -> list[int]:
    return next(e for e in g.state.today if e.key == key).seats or []


# ---- 2. 逆袭 -----------------------------------------------------------------------

def test_comeback_bottom_player_gets_one_night_orange_gear_and_two_coins_unannounced():
    """2.逆袭: 排名后10%的一位玩家获得仅限当晚的橙武橙防及2货币; 夜间行动后销毁; 不公布是谁."""
    g = forced("逆袭", {1: A, 2: A, 3: B, 4: B})
    for s in (1, 2, 3):
        g.give(s, "木棍")
        g.give(s, "双发射手")  # seat 4 has only a green armour: the bottom 10%
    own = g.give(4, "麻布头带", equip=True)
    out = g.advance()  # night 2 opens
    lucky = g.p(4)
    orange = [it for it in lucky.items if it.temp]
    assert sorted(it.grade for it in orange) == ["orange", "orange"] and lucky.money == 2
    assert lucky.weapon == orange[0].id and lucky.armour == orange[1].id
    assert "逆袭" in text(out, 4) and "P4" not in group(out) and "P4" not in group(g.out)
    g.cmd(4, "drop", item=orange[0].name)  # wherever it is, it goes
    g.advance()
    ids = [it.id for it in orange]
    everywhere = [it.id for items in g.state.ground.values() for it in items]
    everywhere += [it.id for p in g.state.players.values() for it in p.items]
    assert not set(ids) & set(everywhere) and g.p(4).weapon is None and g.p(4).money == 2
    assert g.p(4).armour == own.id  # their own armour is back in hand


# ---- 3. Change! ---------------------------------------------------------------------

def test_change_swaps_hp_and_stamina_before_the_night():
    """3.Change！: 夜间行动前，所有人血量与体力值互换 (stamina 0 → HP 0: out, 特殊事件)."""
    g = forced("Change！", {1: A, 2: A, 3: B, 4: B})
    g.p(1).hp, g.p(1).st = 70, 35
    g.p(2).hp, g.p(2).st = 40, 0
    out = g.advance()
    assert (g.p(1).hp, g.p(1).st) == (35, 70)
    assert not g.p(2).alive and Eliminate(2, "特殊事件") in out.effects
    assert "Change" in text(out, 1)


# ---- 4. 朝圣之路 --------------------------------------------------------------------

def test_pilgrimage_gifts_and_penalty():
    """4.朝圣之路: 前一夜停留者得矿泉水; 夜间行动前停留者得绷带; 未到达者 −20 体力，不足扣血."""
    g = Game(4, seed="holy", settings=calm())
    g.cmd(None, "event", host=True, text="朝圣之路")
    g.born({1: A, 2: A, 3: B, 4: C})
    out = g.advance()
    holy = g.state.holy
    assert holy and f"「{holy}」成为圣地" in group(out) and holy not in g.state.closing
    # the same seed again, now with seat 1 spending night 1 at the holy place
    g2 = Game(4, seed="holy", settings=calm())
    g2.cmd(None, "event", host=True, text="朝圣之路")
    g2.born({1: holy, 2: A if holy != A else B, 3: B if holy != B else C, 4: C if holy != C else A})
    out = g2.advance()
    assert g2.state.holy == holy
    assert [it.name for it in g2.p(1).items] == ["矿泉水"] and "矿泉水" in text(out, 1)
    g2.p(3).st = 5
    out = g2.advance()  # night 2: seat 1 is there → 绷带
    assert [it.name for it in g2.p(1).items] == ["矿泉水", "绷带"]
    g2.cmd(2, "move", place=holy)  # seat 2 gets there during the night
    out = g2.advance()
    assert g2.p(1).st == 100 - 0 and g2.p(2).st == min(100, 95 + 40)
    assert g2.p(3).hp == 85 and g2.p(3).st == 40  # 5 stamina paid, 15 from HP; then +40 by day
    assert g2.p(4).st == 100 and g2.p(4).hp == 100  # 100 − 20 = 80, +40 capped


# ---- 5. 不吞双女巫协会 --------------------------------------------------------------------

def test_witch_first_time_cloudy_1000_hp_searchable_moves_to_adjacent_place():
    """5.女巫: 首次发生时天气固定为阴; 1000生命; 可被搜索; 次日夜间行动前移动到相邻的未缩圈地点."""
    g = forced("不吞双女巫协会", {1: A, 2: A, 3: B, 4: B})
    (w,) = g.state.npcs
    assert w.kind == NpcKind.WITCH and w.hp == 1000 and g.state.weather == "阴"
    assert f"「{w.place}」" in group(g.out)
    start = w.place
    g.advance()  # night 2: she stays where she was born
    assert g.state.npcs[0].place == start
    g.p(1).place = start
    find(g, 1, "npc", w.id)
    g.cmd(1, "attack")
    assert g.state.npcs[0].hp == 995
    g.advance()
    g.advance()  # night 3: she moved to an adjacent open place
    adj = next(e for e in g.cfg.map.places if e.name == start).adjacent
    assert g.state.npcs[0].place in adj


def test_witch_guests_lose_then_gain_30_hp_alternately_and_it_is_posted():
    """5.女巫: 一同过夜的玩家次日夜间行动前 −30 或 +30 生命（不超过100）, 交替发生并每日公示."""
    g = forced("不吞双女巫协会", {1: A, 2: A, 3: B, 4: B})
    w = g.state.npcs[0]
    g.advance()
    g.p(1).place = w.place  # seat 1 spends night 2 with her
    assert "今晚与她一同过夜的玩家，明晚行动前扣除 30 点生命" in group(g.out)
    out = g.advance()  # morning 3
    assert "1 人将在今晚行动前扣除 30 点生命" in group(out)
    assert "今晚与她一同过夜的玩家，明晚行动前增加 30 点生命" in group(out)
    g.advance()  # night 3 opens: −30
    assert g.p(1).hp == 70
    g.p(1).place = g.state.npcs[0].place  # follows her for night 3
    out = g.advance()
    assert "增加 30 点生命" in group(out)
    g.advance()
    assert g.p(1).hp == 100  # +30 capped at 100


def test_witch_death_rewards_by_damage_dealt_may_exceed_the_cap():
    """5.女巫死亡后: 每对她造成25点伤害（向上取整）自选恢复5点生命或体力（可以超出100点上限）; credited once."""
    g = forced("不吞双女巫协会", {1: A, 2: A, 3: B, 4: B})
    w = g.state.npcs[0]
    g.advance()
    g.p(1).place = g.p(2).place = w.place
    g.state.npcs[0].hp = 60
    g.give(1, "双发射手", equip=True)
    find(g, 1, "npc", w.id)
    g.cmd(1, "attack")  # 25
    g.tick(31)
    find(g, 2, "npc", w.id)
    g.cmd(2, "attack")  # 5
    g.tick(31)
    find(g, 1, "npc", w.id)
    out = g.cmd(1, "attack")  # 25 more: 60 − 55 = 5 left
    g.tick(31)
    find(g, 1, "npc", w.id)
    out = g.cmd(1, "attack")  # dead
    assert "你击杀了 游荡的女巫" in text(out) and not g.state.npcs[0].alive
    assert len(g.state.npc_deaths) == 1 and g.state.npc_deaths[0].killer == 1
    out = g.advance()
    assert "3 份" in text(out, 1) and "1 份" in text(out, 2)  # 75 → 3, 5 → 1
    assert "游荡的女巫" in group(out)
    g.cmd(1, "claim", text="生命 2")
    g.cmd(1, "claim", text="体力")
    assert g.p(1).hp == 110 and g.p(1).claims == []
    assert "1 到 1" in g.reject(2, "claim", text="生命 5")


# ---- 6. 起风了 ----------------------------------------------------------------------

def test_wind_clears_the_ground_after_the_night_and_stops_the_werewolves():
    """6.起风了: 夜间行动后地上的道具清空; 不在第六日之前; 月圆之夜's werewolves stop."""
    g = Game(3, seed="wind", settings=merge(empty_world(), {"places": {"closures": [1], "safe_zone_closes_after_night": 99}}))
    g.born({1: SAFE, 2: SAFE, 3: SAFE})
    for _ in range(4):  # to day 5
        g.advance()
        g.advance()
    assert (g.state.day, g.state.phase) == (5, "night") and g.state.moon
    g.cmd(None, "event", host=True, text="起风了")
    g.advance()  # day 6
    assert [e.key for e in g.state.today] == ["wind"] and not g.state.moon
    wolves = [n for n in g.state.npcs if n.day == 6]
    assert wolves == []
    g.advance()
    place = [p for p in g.cfg.places.names if p not in g.state.closed][0]
    g.put(place, "木棍")
    g.advance()
    assert {k: v for k, v in g.state.ground.items() if v} == {}


# ---- 7. 排行榜 ----------------------------------------------------------------------

def test_leaderboard_ranks_by_the_seed_keys_ties_all_shown():
    """7.排行榜: 武器等级、橙武剩余次数、防具等级…当前体力; 并列且属于前三名则全部公布."""
    g = Game(5, seed="board", settings=calm())
    g.cmd(None, "event", host=True, text="排行榜")
    g.born({1: A, 2: A, 3: A, 4: A, 5: A})
    g.give(1, "双发射手")  # blue weapon, in the bag: counts
    g.give(2, "木棍")
    g.give(3, "木棍")
    g.give(4, "木棍")
    g.p(5).hp = 10
    assert rank_key(g.p(1), g.cfg) > rank_key(g.p(2), g.cfg) == rank_key(g.p(3), g.cfg)
    top = [p.seat for p in top_players(g.state, g.cfg, 3)]
    assert top == [1, 2, 3, 4]  # 2, 3 and 4 share third place
    out = g.advance()
    line = next(x for x in group(out).split("\n") if "排行榜" in x)
    assert "P1、P2、P3、P4" in line and "P5" not in line


# ---- 8. 凛冬已至 --------------------------------------------------------------------

def test_winter_fog_and_crowd_effects():
    """8.凛冬已至: 天气固定为雾; 超过3人 −20 生命; 不足3人 +20 生命; 正好3人 +20 体力 +20 生命."""
    g = Game(8, seed="winter", settings=calm())
    g.cmd(None, "event", host=True, text="凛冬已至")
    g.born({1: A, 2: A, 3: A, 4: A, 5: B, 6: B, 7: B, 8: C})
    g.advance()
    assert g.state.weather == "雾" and g.state.see == 0
    g.advance()
    for s in range(1, 9):
        g.p(s).hp, g.p(s).st = 50, 50
    g.advance()  # winter counts now
    assert [g.p(s).hp for s in range(1, 9)] == [30] * 4 + [70] * 3 + [70]
    assert [g.p(s).st for s in (1, 5, 8)] == [90, 100, 90]  # +40 by day; 3 in 动物园: +20 more


# ---- 9. 战争与和平 ------------------------------------------------------------------

def test_war_and_peace_most_hits_get_a_natural_upgrader_others_rest():
    """9.战争与和平: 直接有效攻击次数最多的存活玩家获得自然升级器（相等均获得）; 没有攻击过别人的视为休养."""
    g = forced("战争与和平", {1: A, 2: A, 3: A, 4: B})
    g.advance()
    for attacker, target in ((1, 2), (2, 1)):
        find(g, attacker, "player", target)
        g.cmd(attacker, "attack")
        g.tick(31)
    g.p(3).st = 20
    g.p(3).hp = 50
    g.cmd(3, "move", place=B)
    g.advance()
    for s in (1, 2):
        assert [it.name for it in g.p(s).items] == ["自然升级器"]
    assert g.p(3).items == [] and g.p(3).st == 100 and g.p(3).hp == 75  # rested


# ---- NPCs like players ----------------------------------------------------------------

def test_werewolf_killed_gives_its_item_and_is_credited_once():
    """10.月圆之夜: 击杀他可以获取其携带的道具; NPC deaths are recorded once, never ranked, never win."""
    g = Game(3, seed="wolf", settings=merge(empty_world(), {"places": {"closures": [1]}}))
    wolf = g.state.npcs[0]
    home = wolf.place
    g.advance()
    g.cmd(1, "birth", place=home)
    g.cmd(2, "birth", place=SAFE)
    g.cmd(3, "birth", place=SAFE)
    g.give(1, "双发射手", equip=True)
    find(g, 1, "npc", wolf.id)
    g.cmd(1, "attack")
    g.tick(31)
    find(g, 1, "npc", wolf.id)
    out = g.cmd(1, "attack")
    assert "你击杀了 躁动的狼人" in text(out)
    assert wolf.items[0].name in [it.name for it in g.p(1).items]
    assert len(g.state.npc_deaths) == 1
    assert "没有发现角色" in g.reject(1, "attack")
    assert all(str(r[1]).isdigit() for r in ENGINE.tables(g.state, settings=g.cfg)["排名"][1:])


def test_werewolf_in_a_closing_place_vanishes_without_credit():
    g = Game(3, seed="wolf2", settings=merge(empty_world(), {"places": {"closures": [1]}}))
    g.born({1: SAFE, 2: SAFE, 3: SAFE})
    g.advance()
    assert not g.state.npcs[0].alive and g.state.npcs[0].gone and g.state.npc_deaths == []


def test_orange_splash_and_bombs_hit_npcs_too():
    """橙武溅射「对所在区域其他角色」and 遥控地雷「该区域的所有其他角色」include the NPCs there."""
    g = forced("不吞双女巫协会", {1: A, 2: A, 3: B, 4: B})
    w = g.state.npcs[0]
    g.advance()
    g.p(1).place = g.p(2).place = w.place
    g.give(1, "预言之瞳", equip=True)
    find(g, 1, "player", 2)
    g.cmd(1, "attack")
    assert g.state.npcs[0].hp == 980 and g.state.npcs[0].bleed == 10
    g.give(2, "遥控地雷", equip=True)
    g.cmd(2, "use", item="遥控地雷")
    assert g.state.npcs[0].hp == 950


@pytest.mark.parametrize("name", ["通缉令", "逆袭", "Change！", "朝圣之路", "不吞双女巫协会", "排行榜", "凛冬已至", "战争与和平"])
def test_every_event_is_named_in_the_morning_post(name):
    """Each event is announced in the morning post of its day."""
    g = forced(name, {1: A, 2: A, 3: B, 4: B})
    assert f"【事件·{name}】" in group(g.out)
    assert find_event(g.cfg, name).name == name


def test_witch_walks_away_when_her_place_closes_and_prefers_calm_neighbours():
    """女巫长期参与本局游戏: a closure does not kill her; she goes to an adjacent open place."""
    g = forced("不吞双女巫协会", {1: A, 2: A, 3: B, 4: B})
    w = g.state.npcs[0]
    g.state.closing = [w.place]
    g.advance()
    g.advance()
    w = g.state.npcs[0]
    adj = next(e for e in g.cfg.map.places if e.name == g.state.closed[-1]).adjacent
    assert w.alive and w.place in adj and w.place not in g.state.closed


def test_claim_bad_input_lists_what_can_be_claimed_and_full_bag_refused():
    g = forced("通缉令", {1: A, 2: A, 3: A, 4: A})
    assert "没有可领取" in g.reject(1, "claim", text="急救包")
    g.p(1).claims = [WantedClaim(options=["能量饮料", "急救包"])]
    msg = g.reject(1, "claim", text="红花丹")
    assert "/领取 能量饮料 或 /领取 急救包" in msg
    for _ in range(6):
        g.give(1, "石块")
    assert "背包已满" in g.reject(1, "claim", text="急救包")


def test_pilgrimage_full_bag_gets_nothing_and_is_told():
    g = Game(4, seed="holy", settings=calm())
    g.cmd(None, "event", host=True, text="朝圣之路")
    g.born({1: A, 2: A, 3: B, 4: C})
    holy_seed = Game(4, seed="holy", settings=calm())
    holy_seed.cmd(None, "event", host=True, text="朝圣之路")
    holy_seed.born({1: A, 2: A, 3: B, 4: C})
    holy_seed.advance()
    holy = holy_seed.state.holy
    g.p(1).place = holy
    for _ in range(6):
        g.give(1, "石块")
    out = g.advance()
    assert g.state.holy == holy and "背包已满，没能获得【矿泉水】" in text(out, 1)
    assert len(g.p(1).items) == 6


def test_dead_players_get_no_speech_card():
    from plugins.gamekit.contract import GiveCard

    g = Game(3, seed="talk", settings=calm())
    g.cmd(None, "kernel.out", host=True, seat=3, reason="x")
    out = g.advance()
    assert sorted(e.seat for e in out.effects if isinstance(e, GiveCard)) == [1, 2]


def test_loudspeaker_shows_the_npcs_of_the_place_too():
    """【5】生命启示: 公示某个区域当前所有道具和角色 — the witch there is a 角色 too."""
    g = forced("不吞双女巫协会", {1: A, 2: A, 3: B, 4: B})
    w = g.state.npcs[0]
    g.advance()
    g.give(1, "生命启示", equip=True)
    g.cmd(1, "use", item="生命启示", target=w.place)
    out = g.advance()
    assert f"【生命启示】「{w.place}」：角色 游荡的女巫" in group(out)
