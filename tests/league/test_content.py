"""The default TOML data and a host's variant (check_settings: the plain settings the
kernel stores; settings_of: the typed model the rules read)."""

from __future__ import annotations

import json

import pytest
import tomllib

from plugins.gamekit.contract import Rejected
from plugins.league.engine import ENGINE
from plugins.league.engine.content import CONTENT_DIR, CONTENT_FILES


def test_defaults_follow_the_rules_text_4_6():
    cfg = ENGINE.settings_of(ENGINE.check_settings({}))
    assert [(r.players, r.groups, r.advance) for r in cfg.rounds] == [(120, 10, 72), (72, 6, 24), (24, 2, 0)]
    assert [d.games for d in cfg.rounds[2].days] == [2, 2, 1] and cfg.rounds[2].double_games == [5]
    assert [d.board for d in cfg.rounds[1].days] == ["标准场", "纯白夜影", "狼美人骑士"]
    assert cfg.boards["赤月猎魔人"].roles == {"狼人": 3, "赤月使徒": 1, "平民": 4, "预言家": 1, "女巫": 1,
                                             "猎魔人": 1, "愚者": 1}
    assert cfg.times.words() == {"checkin_open": "18:00", "late": "18:30", "demote": "18:35", "seat": "18:50",
                                 "appeal_until": "12:00"}
    v = cfg.violations["贴脸"]
    assert (v.level, v.points, v.blocks_award) == ("medium", 2, True)


def test_the_content_files_merge_into_one_settings_dict_the_kernel_stores():
    stored = ENGINE.check_settings({})
    assert ENGINE.CONTENT is not None and ENGINE.CONTENT.files == CONTENT_FILES
    assert sorted(stored) == ["boards", "options", "roles", "rounds", "scoring", "times", "violations"]
    assert json.loads(json.dumps(stored)) == stored  # plain JSON
    assert ENGINE.check_settings(stored) == stored  # what /配置 merges a host's change over
    assert ENGINE.settings_of(stored) is ENGINE.settings_of(stored)  # one typed object per stored dict


def test_every_content_file_is_valid_toml():
    for name in CONTENT_FILES:
        with open(CONTENT_DIR / name, "rb") as fh:
            assert tomllib.load(fh)


def test_host_variant_overrides_merge_over_defaults():
    stored = ENGINE.check_settings({"times": {"late": "18:40", "demote": "18:45"}, "scoring": {"mvp": 3}})
    assert stored["times"]["late"] == "18:40" and stored["times"]["seat"] == "18:50" and stored["scoring"]["mvp"] == 3
    cfg = ENGINE.settings_of(stored)
    assert cfg.times.late == "18:40" and cfg.times.seat == "18:50" and cfg.scoring.mvp == 3


def test_a_bad_variant_gets_one_chinese_line_per_mistake():
    bad = {"times": {"late": "18:99"}, "scoring": {"cap_policy": "maybe"},
           "roles": {"狼人": {"side": "evil", "kind": "wolf"}},
           "rounds": [{"key": "r1", "name": "第一轮", "players": 120, "groups": 10, "advance": 200,
                       "days": [{"board": "不存在", "games": 1}], "double_games": [3]}]}
    with pytest.raises(Rejected) as exc:
        ENGINE.check_settings(bad)
    lines = str(exc.value).splitlines()
    assert lines == [
        "times.late：时间格式应为 时:分，例如 21:00，收到「18:99」。",
        "scoring.cap_policy 只能是 reject 或 clamp。",
        "roles.狼人.side 只能是 good 或 wolf。",
        "第 1 轮（第一轮） 第 1 个比赛日的版型「不存在」不存在。",
        "第 1 轮（第一轮） 的 double_games 里的 3 不是本轮的场次（1~1）。",
        "第 1 轮（第一轮） 的 advance 应在 0~120 之间。",
    ]


def test_rounds_must_chain_and_fit_the_boards():
    rounds = ENGINE.check_settings({})["rounds"]
    rounds[1]["players"] = 60
    with pytest.raises(Rejected) as exc:
        ENGINE.check_settings({"rounds": rounds})
    assert "第 2 轮（第二轮） 的人数 60 应等于上一轮晋级人数 72。" in str(exc.value)
    assert "6 组 × 版型人数 ≠ 60 人" in str(exc.value)


def test_start_needs_enough_registrations():
    from helpers_league import League
    with pytest.raises(Rejected) as exc:
        League(n=100)
    assert str(exc.value) == "报名 100 人，第一轮需要 120 人，请继续报名后再 /开始。"


def test_command_table_is_chinese_and_documented():
    from plugins.league.engine import COMMANDS
    names = [c.name for c in COMMANDS]
    assert len(names) == len(set(names))
    for c in COMMANDS:
        assert c.usage.startswith("/" + c.words[0]) and c.help
    assert next(c for c in COMMANDS if c.name == "appeal").where == "private"


def test_an_unknown_key_is_one_clear_line():
    with pytest.raises(Rejected) as exc:
        ENGINE.check_settings({"options": {"main_drew": 100}, "violations": {"迟到": {"levle": "light"}}})
    assert str(exc.value).splitlines() == ["未知设置项「options.main_drew」，请检查拼写。",
                                           "未知设置项「violations.迟到.levle」，请检查拼写。"]


def test_a_board_naming_a_missing_role_is_one_clear_line():
    with pytest.raises(Rejected) as exc:
        ENGINE.check_settings({"boards": {"标准场": {"roles": {"狼人": 4, "平民": 4, "预言家": 1, "女巫": 1,
                                                                "猎人": 1, "白吃": 1}}}})
    assert str(exc.value).splitlines() == ["版型「标准场」用到的角色「白吃」不在角色表中。"]


def test_wrong_types_are_named_by_path():
    with pytest.raises(Rejected) as exc:
        ENGINE.check_settings({"options": {"dq_light": "5"}, "scoring": {"mvp": True},
                               "roles": {"猎人": {"events": {"开枪带狼": {"points": 1, "max": 0}}}}})
    assert str(exc.value).splitlines() == ["options.dq_light 应为整数。", "scoring.mvp 应为数字。",
                                           "roles.猎人.events.开枪带狼.max 应为正整数。"]
