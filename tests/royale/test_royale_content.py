"""The world as data: every number of the rules comes from content/*.toml, checked by the typed settings."""

from __future__ import annotations

import random

import pytest

from plugins.gamekit.contract import Rejected
from plugins.royale.engine import ENGINE
from plugins.royale.engine.content import CONTENT, Catalog, defaults
from plugins.royale.engine.rules_cycle import roll_weather

CFG = ENGINE.settings_of(ENGINE.check_settings({}))
CAT = Catalog(CFG)


def test_41_places_with_safe_zone_closing_after_night_3():
    """场所与区域: 41 places, 雾雨小镇 is the safe zone, fixed to close after night 3."""
    names = CFG.places.names
    assert len(names) == 41 and len(set(names)) == 41
    assert names[0] == "雾雨小镇" and "Atelier of Tales" in names and names[-1] == "ZLD"
    assert CFG.places.safe_zone == "雾雨小镇"
    assert CFG.places.safe_zone_closes_after_night == 3


def test_closure_schedule_5_5_5_5_4_4_4_3_3_2_1():
    """场所与区域 每日缩圈数量; the numbers add up to all 41 places."""
    assert CFG.places.closures == [5, 5, 5, 5, 4, 4, 4, 3, 3, 2, 1]
    assert sum(CFG.places.closures) == len(CFG.places.names)


def test_weather_odds_and_sight():
    """天气: 晴 50% / 阴 30% / 雾 20%; see the found player 100 / 50 / 0 %."""
    table = {w.name: (w.weight, w.see) for w in CFG.weather}
    assert table == {"晴": (50, 100), "阴": (30, 50), "雾": (20, 0)}
    rng = random.Random("weather")
    counts = {"晴": 0, "阴": 0, "雾": 0}
    for _ in range(20000):
        counts[roll_weather(CFG, rng).name] += 1
    assert abs(counts["晴"] / 20000 - 0.5) < 0.02
    assert abs(counts["阴"] / 20000 - 0.3) < 0.02
    assert abs(counts["雾"] / 20000 - 0.2) < 0.02


@pytest.mark.parametrize("grade,damage,uses,votes,n,first,last", [
    ("green", 15, None, 1, 110, "竹制长矛", "锅铲"),
    ("blue", 25, None, 2, 96, "双发射手", "寒铁双刃"),
    ("purple", 35, None, 3, 86, "冈格尼尔之枪", "星界法枪"),
    ("orange", 50, 5, 0, 20, "预言之瞳", "绝对零度"),
])
def test_weapon_grades(grade, damage, uses, votes, n, first, last):
    """游戏道具【1】武器类: damage 15/25/35/50, orange 5 uses, 白天票数 +1/+2/+3/+0, full name lists."""
    names = CAT.names("weapon", grade)
    assert len(names) == n and names[0] == first and names[-1] == last
    d = CAT.get(first)
    assert d.kind == "weapon" and d.grade == grade
    assert d.damage == damage and d.uses == uses and d.votes == votes


def test_orange_weapon_splash_and_bleed():
    """【1】④: 20 splash to everyone else ignoring armour, plus 10 bleed."""
    d = CAT.get("预言之瞳")
    assert d.splash == 20 and d.bleed == 10


@pytest.mark.parametrize("grade,reduce,uses,votes,n,first,last", [
    ("green", 5, None, 2, 85, "麻布头带", "麻布护腿"),
    ("blue", 10, None, 3, 79, "赤霞云肩", "极地防寒服"),
    ("purple", 15, 5, 4, 67, "混沌术士法衣", "夜巡软靴"),
    ("orange", 25, 3, 0, 12, "厄运羽衣", "魔术幻象"),
])
def test_armour_grades(grade, reduce, uses, votes, n, first, last):
    """【2】防具类: −5/−10/−15/−25, purple 5 uses, orange 3 uses, 白天票数 +2/+3/+4/+0."""
    names = CAT.names("armour", grade)
    assert len(names) == n and names[0] == first and names[-1] == last
    d = CAT.get(first)
    assert d.kind == "armour" and d.reduce == reduce and d.uses == uses and d.votes == votes


def test_other_items():
    """【3】–【8】 upgraders, scouts (+3 votes), loudspeaker, bomb 30, supplies, money."""
    g = CAT.get
    assert g("自然升级器").max_grade == "orange" and g("人造升级器").max_grade == "purple"
    assert g("心跳探测仪").kind == "gps" and g("心跳探测仪").votes == 3 and g("心跳探测仪").count == 2
    assert g("手持式雷达").kind == "radar" and g("手持式雷达").votes == 3 and g("手持式雷达").count == 2
    assert g("生命启示").kind == "broadcast" and g("生命启示").votes == 0
    assert g("遥控地雷").damage == 30
    assert [g(n).stamina for n in ("矿泉水", "能量饮料", "肾上腺素")] == [20, 50, 100]
    assert [g(n).hp for n in ("鸟蛋", "绷带", "急救包", "红花丹")] == [10, 30, 60, 100]
    assert [g(n).cure for n in ("鸟蛋", "绷带", "急救包", "红花丹")] == ["instead", "instead", "also", "also"]
    assert g("银币").money == 1 and g("金币").money == 2


def test_shop_prices_sell_and_grant():
    """商店: prices 1/2/3/4/5; sell 2 green = 1, blue+ = 1; +2 for everyone alive on day 4."""
    assert CFG.shop.prices == {
        "绿色武器": 1, "绿色防具": 1, "矿泉水": 1, "鸟蛋": 1, "绷带": 2, "能量饮料": 2,
        "人造升级器": 3, "遥控地雷": 3, "肾上腺素": 4, "急救包": 4, "红花丹": 5,
    }
    assert CFG.shop.sell.model_dump() == {"green_per_coin": 2, "better_price": 1}
    assert CFG.shop.grant.model_dump() == {"day": 4, "amount": 2}


def test_rule_numbers():
    """生命与体力 / 夜间行动: 100 HP, 100 stamina, +40 a day, rest +25, move/search 5, 30 s, fists 5, bag 6, 21:10–21:25."""
    r = CFG.rules
    assert (r.max_hp, r.max_stamina, r.daily_stamina, r.rest_hp) == (100, 100, 40, 25)
    assert (r.move_cost, r.search_cost, r.search_interval_s, r.fist_damage, r.bag_size) == (5, 5, 30, 5, 6)
    assert (r.night_start, r.night_end, r.birth_deadline_night) == ("21:10", "21:25", 2)


def test_variant_overrides_merge_over_defaults():
    stored = ENGINE.check_settings({"rules": {"night_start": "20:00"}, "places": {"closures": [3, 2]}})
    assert stored["rules"]["night_start"] == "20:00" and stored["places"]["closures"] == [3, 2]  # plain JSON, as kept
    cfg = ENGINE.settings_of(stored)
    assert cfg.rules.night_start == "20:00" and cfg.rules.night_end == "21:25"
    assert cfg.places.closures == [3, 2] and len(cfg.places.names) == 41


def test_variant_mistakes_one_chinese_line_each():
    bad = {
        "rules": {"night_end": "25点", "move_cost": -1},
        "places": {"safe_zone": "火星"},
        "weather": [{"name": "雨", "weight": 1, "see": 150}],
        "shop": {"prices": {"光剑": 3}},
        "colour": 1,
    }
    with pytest.raises(Rejected) as exc:
        ENGINE.check_settings(bad)
    assert str(exc.value).splitlines() == [
        "rules.night_end：时间格式应为 时:分，例如 21:00，收到「25点」。",
        "rules.move_cost 应为不小于 0 的整数。",
        "安全区「火星」不在地点列表中。",
        "weather[1].see 应为不大于 100 的整数。",
        "商店商品「光剑」不是已知道具。",
        "未知设置项「colour」，请检查拼写。",
    ]
    # once the weather table is well-formed, the events naming a weather it lacks (阴, 雾) are named too
    with pytest.raises(Rejected) as exc:
        ENGINE.check_settings({"weather": [{"name": "雨", "weight": 1, "see": 50}]})
    assert str(exc.value).splitlines() == ["事件「不吞双女巫协会」的天气「阴」不在 weather 中。",
                                           "事件「凛冬已至」的天气「雾」不在 weather 中。"]


def test_an_unknown_key_and_a_dangling_item_are_one_line_each():
    with pytest.raises(Rejected) as exc:
        ENGINE.check_settings({"shop": {"sell": {"green_per_coin": 2, "better_prize": 1}}})
    assert str(exc.value).splitlines() == ["未知设置项「shop.sell.better_prize」，请检查拼写。"]
    with pytest.raises(Rejected) as exc:
        ENGINE.check_settings({"airdrops": [{"day": 3, "items": ["光剑"]}]})
    assert str(exc.value).splitlines() == ["第3天空投的「光剑」不是已知道具。"]


def test_duplicate_item_names_refused():
    d = CONTENT.defaults()
    names = d["weapons"]["blue"]["names"] + ["竹制长矛"]
    with pytest.raises(Rejected, match="道具重名：竹制长矛"):
        ENGINE.check_settings({"weapons": {"blue": {"names": names}}})


def test_wrong_shape_is_refused_not_crashed():
    with pytest.raises(Rejected):
        ENGINE.check_settings({"rules": ["oops"]})


def test_host_variant_file_loads(tmp_path):
    """A host copies world.toml, changes it and loads it as a variant."""
    import tomllib

    from plugins.royale.engine.content import CONTENT_DIR

    text = (CONTENT_DIR / "world.toml").read_text(encoding="utf-8")
    text = text.replace('night_start = "21:10"', 'night_start = "20:30"')
    text = text.replace("closures = [5, 5, 5, 5, 4, 4, 4, 3, 3, 2, 1]", "closures = [10, 10, 10, 11]")
    cfg = ENGINE.settings_of(ENGINE.check_settings(tomllib.loads(text)))
    assert cfg.rules.night_start == "20:30" and cfg.places.closures == [10, 10, 10, 11]
    assert cfg.shop.prices["红花丹"] == 5  # other files keep their defaults


def test_command_table():
    """Every command: Chinese words, usage, one-line help; night actions are private."""
    from plugins.royale.engine import ACTIONS, COMMANDS

    names = [c.name for c in COMMANDS]
    assert len(names) == len(set(names))
    assert set(ACTIONS) <= set(names)
    words = [w for c in COMMANDS for w in c.words]
    assert len(words) == len(set(words))
    kernel_words = {"状态", "帮助", "我的身份", "出局", "名单", "开始", "结束"}
    assert not kernel_words & set(words)
    for c in COMMANDS:
        if not c.words:  # the plain-text route (group posts counted for the speech cards)
            assert c.name == "speak" and c.where == "group"
            continue
        assert c.usage.startswith("/" + c.words[0]) and c.help and "\n" not in c.help
        if c.name in ACTIONS:
            assert c.where == "private" and c.who == "player"
            assert c.rule is ACTIONS[c.name]
        assert c.typed and c.rule is not None  # every row names its Args class and its rule


def test_message_templates_are_simplified_chinese():
    from plugins.gamekit.textcheck import measure
    from plugins.royale.engine import texts as T

    templates = [v for k, v in vars(T).items() if k.isupper() and isinstance(v, str)]
    assert len(templates) > 50
    for t in templates:
        assert measure(t).traditional == 0, t
    assert sum(measure(t).simplified for t in templates) >= len(templates) - 3


def test_the_settings_are_stored_as_the_files_give_them():
    """check_settings keeps what the content files and a host wrote (gamekit's loader, the typed
    model checking it): no defaults filled in and no nulls, so /配置 shows and reads back the same;
    the typed settings fill the defaults in."""
    assert ENGINE.check_settings({}) == CONTENT.defaults() == defaults()
    stored = ENGINE.check_settings({"rules": {"test_mode": True}})
    wanted = stored["events"]["list"][0]
    assert wanted["key"] == "wanted" and "public_place" not in wanted and "fixed_day" not in wanted
    assert stored["rules"]["test_mode"] is True and ENGINE.check_settings(stored) == stored
    typed = ENGINE.settings_of(stored)
    assert typed.test_mode and typed.event("wanted").fixed_day is None and typed.event("wanted").count == 3
    assert Catalog(stored).items.keys() == typed.catalog.items.keys()  # also from settings as stored


@pytest.mark.parametrize("name,logged", [
    ("birth", {"place": "Atelier of Tales"}), ("rest", {}), ("rest", {"place": "果园"}), ("search", {}),
    ("equip", {"item": "木棍"}), ("equip", {"item": "木棍", "swap": "麻布头带"}), ("use", {"item": "手持式雷达", "target": "甲 2"}),
    ("buy", {"item": "绿色武器"}), ("claim", {"text": "生命 2"}), ("event", {}), ("grant", {"player": 2, "item": "蓝色武器"}),
    ("airdrop", {"items": "红花丹 金币"}), ("speak", {"text": "早", "images": 0}),
])
def test_logged_arguments_of_the_plain_engine_replay(name, logged):
    """The command log keeps each command's arguments as JSON with the plain engine's keys: they
    read back as the command's Args class and are logged the same again."""
    from plugins.gamekit.args import as_dict, from_dict

    spec = ENGINE.specs[name]
    args = from_dict(spec.args, logged)
    assert isinstance(args, spec.args) and {k: v for k, v in as_dict(args).items() if k in logged} == logged
