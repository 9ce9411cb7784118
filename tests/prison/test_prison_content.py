"""Identities as data: the bundled files (game.toml under the identity file sample12.toml) and the
validation of a host's /配置, one Chinese line per mistake."""

from __future__ import annotations

import copy
import tomllib

import pytest

from plugins.gamekit.contract import Rejected
from plugins.gamekit.datafile import load_toml
from plugins.prison.engine.engine import ENGINE
from plugins.prison.engine.content import CONTENT, CONTENT_DIR


def errors_of(overrides: dict) -> list[str]:
    with pytest.raises(Rejected) as exc:
        ENGINE.check_settings(overrides)
    return str(exc.value).split("\n")


def test_sample12_is_a_complete_12_player_game_with_one_murderer():
    s = ENGINE.settings_of(ENGINE.check_settings({}))
    assert len(s.guards) == 6 and len(s.prisoners) == 6
    assert [r.id for r in s.prisoners if r.murderer] == ["murderer"]
    kinds = {ab.kind for r in s.guards + s.prisoners for ab in r.abilities}
    designed = {"check", "protect", "block", "eavesdrop", "swap", "message", "vote_weight"}
    assert {"kill", "point_kill", "noise", "lover", "generic"} | designed == kinds  # the sample shows every kind
    assert s.variant == "sample12" and "sample12" in CONTENT.variants()


def test_check_settings_is_idempotent_on_its_own_output():
    full = ENGINE.check_settings({"room_mode": "group"})
    assert ENGINE.check_settings(full) == full


def test_host_override_merges_over_defaults_and_points_merge_per_key():
    s = ENGINE.settings_of(ENGINE.check_settings({"room_mode": "group", "points": {"day": 2}}))
    assert s.room_mode == "group"
    assert s.points.day == 2 and s.points.released == 2


@pytest.mark.parametrize(
    "patch, expected",
    [
        ({"room_mode": "qq"}, "room_mode 只能是 relay"),
        ({"day_end": "8点"}, "day_end：时间格式应为 时:分"),
        ({"colour": 1}, "未知设置项「colour」，请检查拼写。"),
        ({"points": {"days": 1}}, "未知设置项「points.days」，请检查拼写。"),
        ({"max_submissions": -1}, "max_submissions 应为不小于 0 的整数。"),
        ({"top_ties": "both"}, "top_ties 只能是 none"),
        ({"guards_dead_bonus": "dead"}, "guards_dead_bonus 只能是 living"),
        ({"tie_without_chief": "chief"}, "tie_without_chief 只能是 nothing 或 random。"),
    ],
)
def test_each_setting_mistake_gets_its_own_chinese_line(patch, expected):
    lines = errors_of(patch)
    assert any(line.startswith(expected) for line in lines), lines


def _roles_with(mutate) -> dict:
    s = load_toml(CONTENT_DIR / "sample12.toml")
    roles = {"guards": copy.deepcopy(s["guards"]), "prisoners": copy.deepcopy(s["prisoners"])}
    mutate(roles)
    return roles


@pytest.mark.parametrize(
    "mutate, expected",
    [
        (lambda r: r["prisoners"][0].pop("murderer"), "囚犯中必须恰好有一个杀人犯（murderer = true），现在有 0 个。"),
        (lambda r: r["prisoners"][5].update(murderer=True), "囚犯中必须恰好有一个杀人犯（murderer = true），现在有 2 个。"),
        (lambda r: r["guards"][0]["abilities"].append({"kind": "kill"}), "看守身份「noise」的第 2 个技能的 kind「kill」不可用于看守"),
        (lambda r: r["prisoners"][3]["abilities"].append({"kind": "point_kill"}), "point_kill 只能给杀人犯"),
        (lambda r: r["guards"][2]["abilities"][0].update({"with": "nobody"}), "身份「lover_g」的情侣指向不存在的身份「nobody」。"),
        (lambda r: r["guards"][1].update(id="noise"), "身份 id「noise」重复，请改成唯一的 id。"),
        (lambda r: r["guards"][1]["abilities"][0].update(uses=-1), "uses 应为不小于 0 的整数"),
        (lambda r: r["guards"][3]["abilities"][0].pop("name"), "通用技能需要 name"),
        (lambda r: r["prisoners"][3]["abilities"][0].update(when="any"), "必须使用的技能要写明 when"),
        (lambda r: r["prisoners"][4].update(win="forever"), "win 只能是"),
        (lambda r: r["guards"][0].update(side="murderer"), "只有囚犯可以属于杀人犯阵营"),
        (lambda r: r["guards"][0].update(power=1), "未知设置项「guards[1].power」，请检查拼写。"),
        (lambda r: r["guards"][0].pop("name"), "缺少 guards[1].name。"),
        (lambda r: r["guards"].extend([{"id": f"x{i}", "name": "x"} for i in range(4)]),
         "看守 10 人、囚犯 6 人：两边应各占一半（最多差 1）。"),
        (lambda r: (r["guards"].pop(), r["prisoners"].pop(), r["guards"].pop(), r["prisoners"].pop(1)),
         "看守 4 + 囚犯 4 = 8 人，应为 10–14 人。"),
    ],
)
def test_each_identity_mistake_gets_its_own_chinese_line(mutate, expected):
    lines = errors_of(_roles_with(mutate))
    assert any(expected in line for line in lines), lines


def test_several_mistakes_are_all_listed_one_per_line():
    def two(r):
        r["guards"][0].pop("name")
        r["prisoners"][4]["win"] = "never"

    lines = errors_of(dict(_roles_with(two), room_mode="x"))
    assert len(lines) == 3


def test_signup_and_deal_tables_are_validated():
    lines = errors_of({"signup": {"1": {"number": 1000}}, "deal": {"1": "ghost", "x": "noise", "2": "noise"}})
    assert "signup.1.number 应为不大于 999 的整数。" in lines
    assert "deal 座位 1 的身份「ghost」不存在。" in lines
    assert "deal 的「x」应为座位号。" in lines
    assert "deal 中身份「noise」发给了多人。" in lines


def test_a_host_variant_file_is_checked_as_written_and_stored_as_hosts_write_it():
    """A host's identity file (TOML, read by the kernel's /配置) over the defaults; what is stored
    reads back the same and keeps the keys hosts write (``with``, no empty ones)."""
    variant = tomllib.loads('room_mode = "group"\n[[guards]]\nid = "solo"\nname = "看守"\n'
                            'abilities = [{ kind = "lover", with = "lover_p" }]')
    lines = errors_of(variant)  # one guard against six prisoners
    assert "看守 1 人、囚犯 6 人：两边应各占一半（最多差 1）。" in lines
    sample = load_toml(CONTENT_DIR / "sample12.toml")
    stored = ENGINE.check_settings({"room_mode": "group", "guards": sample["guards"]})
    assert stored["room_mode"] == "group"
    lover = next(r for r in stored["guards"] if r["id"] == "lover_g")
    assert lover["abilities"] == [{"kind": "lover", "with": "lover_p", "compulsory": False}]
    assert "crimes" not in lover and "side" not in lover
    assert ENGINE.check_settings(stored) == stored


def test_unknown_bundled_variant_is_refused():
    assert errors_of({"variant": "nope"}) == ["没有名为「nope」的内置身份文件。"]


def test_an_unknown_key_and_a_dangling_reference_are_one_line_each():
    assert errors_of(_roles_with(lambda r: r["prisoners"][1].update(colour="red"))) == \
        ["未知设置项「prisoners[2].colour」，请检查拼写。"]
    assert errors_of(_roles_with(lambda r: r["prisoners"][2]["abilities"][0].update({"with": "lover_x"}))) == \
        ["身份「lover_p」的情侣指向不存在的身份「lover_x」。"]
    assert errors_of({"deal": {"1": "ghost"}}) == ["deal 座位 1 的身份「ghost」不存在。"]


def test_an_ability_mistake_says_where_it_is():
    lines = errors_of(_roles_with(lambda r: r["guards"][3]["abilities"][0].pop("name")))
    assert lines == ["guards[4].abilities[1]：通用技能需要 name（不含空格），玩家用 /技能 <name> 发动。"]


def _with_ability(camp: int, role: int, ability: dict):
    """The sample's roles with one role's abilities replaced by ``ability`` (camp 0: guards, 1:
    prisoners); with "also" in it, added to that role's abilities instead."""
    key = ("guards", "prisoners")[camp]
    if ability.pop("also", False):
        return _roles_with(lambda r: r[key][role].setdefault("abilities", []).append(ability))
    return _roles_with(lambda r: r[key][role].update(abilities=[ability]))


@pytest.mark.parametrize(
    "camp, role, ability, expected",
    [
        (0, 4, {"kind": "fly"}, "guards[5].abilities[1].kind 只能是"),
        (0, 4, {"kind": "check", "learn": "soul"}, "guards[5].abilities[1].learn 只能是 camp 或 role。"),
        (0, 4, {"kind": "protect", "learn": "role"}, "learn 不能用于 protect（保护），只用于 check（查验）。"),
        (0, 4, {"kind": "protect", "when": "day"},
         'protect（保护） 的 when 只能是 "night"（夜晚）（不写即第一个）。'),
        (0, 4, {"kind": "vote_weight", "when": "night"}, 'vote_weight（投票加权） 的 when 只能是 "day"（白天）'),
        (0, 4, {"kind": "vote_weight", "weight": 1}, "guards[5].abilities[1].weight 应为不小于 2 的整数。"),
        (0, 4, {"kind": "vote_weight", "compulsory": True, "when": "day"}, "不限次数时每次投票自动生效，不能设 compulsory"),
        (0, 4, {"kind": "message", "compulsory": True}, "必须使用的技能要写明 when"),
        (0, 4, {"kind": "eavesdrop", "target": "guard"}, "target 不能用于 eavesdrop（窃听）"),
        (0, 4, {"kind": "swap", "weight": 3}, "weight 不能用于 swap（换房），只用于 vote_weight（投票加权）。"),
        (0, 4, {"kind": "block", "name": "断 电"}, "block（封锁） 的 name 不能为空，也不能含空格。"),
        (0, 4, {"kind": "check", "tell_target": "yes"}, "guards[5].abilities[1].tell_target 应为 true 或 false。"),
        (1, 5, {"kind": "message", "self": 1}, "prisoners[6].abilities[1].self 应为 true 或 false。"),
        (0, 0, {"kind": "generic", "name": "噪音", "also": True}, "技能名「噪音」在同一身份中重复。"),
    ],
)
def test_each_designed_ability_mistake_gets_its_own_chinese_line(camp, role, ability, expected):
    """【身份与胜利条件】（四）2: the director designs the identities; a mistake in one is named where it is."""
    lines = errors_of(_with_ability(camp, role, ability))
    assert any(expected in line for line in lines), lines


def test_one_ability_of_each_designed_kind_per_role():
    """Each designed kind has its own command, which finds the role's one ability of that kind."""
    lines = errors_of(_roles_with(lambda r: r["guards"][4].update(
        abilities=[{"kind": "check"}, {"kind": "check", "learn": "role", "name": "搜身"}])))
    assert lines == ["guards[5]：同一身份只能有一个 check（查验）技能。"]


def test_designed_abilities_are_stored_as_written_and_read_back_with_their_defaults():
    roles = _roles_with(lambda r: r["guards"][4].update(abilities=[
        {"kind": "check", "name": "审视", "uses": 2, "learn": "role", "target": "prisoner"},
        {"kind": "protect", "self": True, "tell_target": True},
        {"kind": "vote_weight", "weight": 3, "uses": 1},
    ]))
    stored = ENGINE.check_settings(roles)
    assert ENGINE.check_settings(stored) == stored
    written = next(r for r in stored["guards"] if r["id"] == roles["guards"][4]["id"])["abilities"]
    assert written[1] == {"kind": "protect", "self": True, "tell_target": True, "compulsory": False}
    check, protect, weight = ENGINE.settings_of(stored).guards[4].abilities
    assert (check.label, check.timing, check.learns, check.targets, check.limit) == ("审视", "night", "role", "prisoner", 2)
    assert (protect.label, protect.timing, protect.may_self, protect.tells, protect.limit) == ("保护", "night", True, True, 0)
    assert (weight.votes, weight.timing, weight.passive) == (3, "day", False)


def test_room_groups_take_numbers_or_text():
    assert ENGINE.check_settings({"room_groups": ["123456", 234567]})["room_groups"] == ["123456", "234567"]
    assert errors_of({"room_groups": [1.5]}) == ["room_groups[1] 应为文字。"]
