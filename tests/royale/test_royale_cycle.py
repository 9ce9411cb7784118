"""The daily cycle (rules: 场所与区域, 生命与体力, 公示, 商店, 步骤)."""

from __future__ import annotations

import random
from datetime import datetime, timezone

from plugins.gamekit.contract import Eliminate, Finish, Restore, Say, SetPhase
from plugins.royale.engine import ENGINE
from plugins.royale.engine.rules_cycle import closures_for
from plugins.royale.engine.state import FoundPlayer, Grade, ItemKind, Result

from royale_helpers import TZ, Game, empty_world, merge, texts

CALM = merge(empty_world(), {"places": {"closures": [0]}})


def phases(out):
    return [e for e in out.effects if isinstance(e, SetPhase)]


def group(out) -> str:
    return "\n".join(texts(out, "group"))


def test_start_posts_weather_and_first_closures_and_day_phase_until_21_10():
    """公示: day 1 shows the weather and tonight's 5 closing places; night window 21:10–21:25."""
    g = Game(3)
    start = "\n".join(e.text for e in g.all_effects if isinstance(e, Say) and e.to == "group")
    assert "今日天气" in start and "今晚结束时缩圈" in start
    assert len(g.state.closing) == 5 and g.state.weather in ("晴", "阴", "雾")
    assert g.phase_end.astimezone(TZ).strftime("%H:%M") == "21:10"
    out = g.advance()
    (ph,) = phases(out)
    assert ph.key == "night" and ph.ends_at.astimezone(TZ).strftime("%d %H:%M") == "30 21:25"
    out = g.advance()
    (ph,) = phases(out)
    assert ph.key == "day" and ph.ends_at.astimezone(TZ).strftime("%d %H:%M") == "01 21:10"


def test_items_scattered_at_start_with_configured_counts():
    """游戏道具: 开局时随机分布在场所内 — counts come from items.toml."""
    g = Game(3)
    cfg = g.cfg
    names = [it.name for items in g.state.ground.values() for it in items]
    expected = sum(w.count for w in cfg.weapons.by_grade().values()) + sum(a.count for a in cfg.armours.by_grade().values())
    expected += sum(o.count for o in cfg.others)
    assert len(names) == expected
    assert names.count("心跳探测仪") == 2 and names.count("手持式雷达") == 2
    assert sum(1 for n in names if n in g.cat.names(ItemKind.WEAPON, Grade.GREEN)) == cfg.weapons.green.count


def test_closure_counts_follow_schedule_and_safe_zone_closes_after_night_3():
    """每日缩圈数量 5,5,5,5,4,4,4,3,3,2,1; 安全区固定于第三天夜晚结束后缩圈 (counted in that night's 5)."""
    g = Game(2)
    cfg, state = g.cfg, g.state
    rng = random.Random(1)
    counts = []
    for night in range(1, 12):
        closing = closures_for(state, cfg, night, rng)
        counts.append(len(closing))
        assert ("雾雨小镇" in closing) == (night == 3)
        state.closed += closing
    assert counts == [5, 5, 5, 5, 4, 4, 4, 3, 3, 2, 1]
    assert sorted(state.closed) == sorted(cfg.places.names)


def test_closure_kills_everyone_left_and_items_vanish():
    """出局: 处于被缩圈的场所立即出局, 道具立刻消失; cause 缩圈."""
    g = Game(3, settings=empty_world())
    doomed = g.state.closing[0]
    safe = next(p for p in g.cfg.places.names if p not in g.state.closing)
    g.born({1: doomed, 2: safe, 3: safe})
    g.give(1, "木棍")
    g.put(doomed, "石块")
    out = g.advance()
    assert not g.p(1).alive and g.p(1).items == [] and g.state.ground[doomed] == []
    assert doomed in g.state.closed and Eliminate(1, "缩圈") in out.effects
    assert "昨夜出局：P1（缩圈）" in group(out)
    assert g.p(2).alive and g.p(3).alive


def test_bleed_hits_at_night_end_until_cured():
    """【1】④ 流血: 10 at the end of each night; 流血 death credits the orange attacker."""
    g = Game(3, settings=CALM)
    g.born({1: "果园", 2: "果园", 3: "果园"})
    g.p(2).bleed, g.p(2).bleed_by, g.p(2).hp = 10, 1, 10
    g.p(3).bleed, g.p(3).bleed_by, g.p(3).hp = 10, 1, 50
    out = g.advance()
    assert g.p(3).hp == 40 and g.p(3).bleed == 10
    assert not g.p(2).alive and g.state.deaths[-1].cause == "流血"
    assert g.state.deaths[-1].killer == 1
    assert "P2（流血）" in group(out)
    g.advance()
    g.advance()
    assert g.p(3).hp == 30


def test_unborn_drown_after_night_2_first_in_death_order():
    """若第二日夜晚行动结束后仍未出生, 视为淹死出局, 出局顺序在全场最前."""
    g = Game(4, settings=CALM)
    g.born({1: "果园", 2: "果园"})
    g.p(2).hp = 1
    g.give(1, "木棍", equip=True)
    g.advance()
    assert g.p(3).alive and g.p(4).alive  # not yet after night 1
    g.night()
    g.cmd(3, "birth", place="果园")
    g.p(1).search = FoundPlayer(seat=2, place="果园")
    g.cmd(1, "attack")
    out = g.advance()
    assert not g.p(4).alive and Eliminate(4, "淹死") in out.effects
    ranks = {r[1]: r[0] for r in ENGINE.tables(g.state, settings=g.cfg)["排名"][1:]}
    assert ranks[4] == 4 and ranks[2] == 3


def test_birth_after_night_2_refused():
    g = Game(3, settings=CALM)
    g.born({1: "果园", 2: "果园", 3: "果园"})
    g.advance()
    g.advance()
    g.advance()
    g.night()
    assert "已经出生" in g.reject(1, "birth", place="果园")


def test_day_start_adds_40_stamina_capped_at_100():
    """次日白天获得40体力, 上限100 (例: 10 left + 40 = 50)."""
    g = Game(3, settings=CALM)
    g.born({1: "果园", 2: "果园", 3: "果园"})
    g.p(1).st = 10
    g.p(2).st = 70
    g.advance()
    assert g.p(1).st == 50 and g.p(2).st == 100


def test_rest_recovers_full_stamina_and_25_hp_capped():
    """静养状态: 下一个白天开始时体力恢复至100并回复25生命."""
    g = Game(3, settings=CALM)
    g.born({1: "果园", 2: "果园", 3: "果园"})
    g.p(1).st, g.p(1).hp = 5, 40
    g.p(2).st, g.p(2).hp = 5, 90
    g.cmd(1, "rest")
    g.cmd(2, "rest", place="动物园")
    g.advance()
    assert (g.p(1).st, g.p(1).hp) == (100, 65)
    assert (g.p(2).st, g.p(2).hp, g.p(2).place) == (100, 100, "动物园")
    assert not g.p(1).rest


def test_money_grant_on_day_4_to_every_living_player():
    """商店: 第四日夜间行动前, 所有存活玩家获得2货币."""
    g = Game(3, settings=CALM)
    g.born({1: "果园", 2: "果园"})  # 3 will drown
    money = []
    for _ in range(3):
        g.advance()
        money.append(g.p(1).money)
        g.advance()
    assert money == [0, 0, 2] and g.p(2).money == 2 and g.p(3).money == 0


def test_airdrop_names_posted_in_the_morning_and_land_that_night():
    """公示: 空投道具名称白天提前公示, 不公示具体空投地点."""
    g = Game(2, settings=merge(CALM, {"airdrops": [{"day": 2, "items": ["红花丹", "自然升级器"]}]}))
    g.born({1: "果园", 2: "果园"})
    out = g.advance()
    assert "今日空投：红花丹、自然升级器（地点不公示）" in group(out)
    assert not any(it.name == "红花丹" for items in g.state.ground.values() for it in items)
    g.advance()
    landed = [(pl, it.name) for pl, items in g.state.ground.items() for it in items]
    assert sorted(n for _, n in landed) == ["红花丹", "自然升级器"]


def test_host_airdrop_command():
    g = Game(2, settings=CALM)
    assert "只有导演" in g.reject(1, "airdrop", items="红花丹")
    assert "未知道具" in g.reject(None, "airdrop", host=True, items="光剑")
    g.cmd(None, "airdrop", host=True, items="红花丹")
    g.advance()
    assert any(it.name == "红花丹" for items in g.state.ground.values() for it in items)


def test_morning_post_lists_night_dead_with_causes_closures_weather():
    """公示: 前一天夜晚出局角色名单、死因、下一个夜晚即将消失的场所、当日天气."""
    g = Game(3, settings=empty_world())
    safe = next(p for p in g.cfg.places.names if p not in g.state.closing)
    g.born({1: safe, 2: safe, 3: g.state.closing[0]})
    out = g.advance()
    post = group(out)
    assert post.startswith("【第2天】")
    assert "昨夜出局：P3（缩圈）" in post
    assert "今晚结束时缩圈：" + "、".join(g.state.closing) in post
    assert f"今日天气：{g.state.weather}" in post and "存活 2 人" in post


def test_last_survivor_wins_with_ranking():
    """步骤: 存活到最后的角色获胜; 名次按照死亡顺序逆向排序."""
    g = Game(3, settings=CALM)
    g.born({1: "果园", 2: "果园", 3: "果园"})
    g.give(1, "预言之瞳", equip=True)
    g.p(2).hp = 10
    g.p(3).hp = 60
    g.p(1).search = FoundPlayer(seat=2, place="果园")
    g.cmd(1, "attack")  # kills 2 (50) and 3 survives the splash (20)
    assert g.p(3).alive and g.p(3).hp == 40 and g.state.phase == "night"
    g.p(1).search = FoundPlayer(seat=3, place="果园")
    out = g.cmd(1, "attack")
    fin = [e for e in out.effects if isinstance(e, Finish)]
    assert len(fin) == 1 and "P1 是最后的幸存者" in fin[0].summary
    assert g.state.phase == "over" and g.state.result == Result(winner=1)
    table = ENGINE.tables(g.state, settings=g.cfg)["排名"]
    assert table[0] == ["名次", "座位", "马甲", "出局夜", "死因", "凶手"]
    assert table[1:] == [[1, 1, "P1", "", "", ""], [2, 3, "P3", 1, "攻击", "P1"], [3, 2, "P2", 1, "攻击", "P1"]]
    assert "本局已结束" in g.reject(1, "search")


def test_last_ones_dying_together_host_wins():
    """步骤: 若多名角色最后同时死亡, 导演获胜."""
    g = Game(2, settings=empty_world())
    doomed = g.state.closing[0]
    g.born({1: doomed, 2: doomed})
    out = g.advance()
    fin = [e for e in out.effects if isinstance(e, Finish)]
    assert len(fin) == 1 and "导演获胜" in fin[0].summary
    assert g.state.result == Result(winner=None)
    assert [r[0] for r in ENGINE.tables(g.state, settings=g.cfg)["排名"][1:]] == [1, 1]


def test_kernel_out_and_back():
    g = Game(3, settings=CALM)
    g.born({1: "果园", 2: "果园", 3: "果园"})
    g.give(2, "木棍")
    out = g.cmd(None, "kernel.out", host=True, seat=2, reason="红牌")
    assert Eliminate(2, "判罚") in out.effects and g.state.ground["果园"][0].name == "木棍"
    assert "已经出局" in g.reject(None, "kernel.out", host=True, seat=2, reason="x")
    out = g.cmd(None, "kernel.back", host=True, seat=2, reason="误判")
    assert Restore(2, "误判") in out.effects and g.p(2).alive and g.state.deaths == []
    assert "还在场上" in g.reject(None, "kernel.back", host=True, seat=2, reason="x")


def test_status_private_info_and_tables_are_safe():
    g = Game(3, settings=CALM)
    g.born({1: "果园"})
    g.give(1, "木棍", equip=True)
    info = ENGINE.private_info(g.state, 1, settings=g.cfg)
    assert "位置：果园" in info and "木棍（绿色武器 伤害15）" in info and "生命 100" in info
    status = ENGINE.status(g.state, settings=g.cfg)
    assert "第1夜行动中" in status and "存活 3 人" in status and "果园" in status
    assert "木棍" not in status
    assert set(ENGINE.tables(g.state, settings=g.cfg)) == {"排名", "玩家", "地点", "事件", "NPC", "导演记录"}


def test_start_in_the_night_window_waits_for_tomorrow():
    g = Game(2, now=datetime(2026, 11, 30, 13, 15, tzinfo=timezone.utc))  # 21:15 local
    assert g.phase_end.astimezone(TZ).strftime("%d %H:%M") == "01 21:10"


def test_night_opened_early_or_late_lasts_one_window():
    """时限 21:10–21:25: /推进 at 15:00 opens a 15-minute night; a day extended to 21:20 too."""
    for hhmm, utc, end in (("15:00", (7, 0), "15:15"), ("21:20", (13, 20), "21:35")):
        g = Game(2, settings=CALM)
        g.now = datetime(2026, 11, 30, *utc, tzinfo=timezone.utc)
        out = g._take(ENGINE.deadline(g.state, "phase", g.ctx()))
        (ph,) = phases(out)
        assert ph.key == "night" and ph.ends_at.astimezone(TZ).strftime("%H:%M") == end, hhmm
        assert f"至 {end}" in group(out)


def test_game_ending_at_night_end_still_lists_the_dead():
    g = Game(3, settings=empty_world())
    doomed = g.state.closing[0]
    safe = next(p for p in g.cfg.places.names if p not in g.state.closing)
    g.born({1: doomed, 2: doomed, 3: safe})
    out = g.advance()
    assert "昨夜出局：P1（缩圈）、P2（缩圈）" in group(out)
    assert any(isinstance(e, Finish) and "P3" in e.summary for e in out.effects)
