"""Start (§四 roles, §五 what each role knows, §七.3 暗号, §十六 code names) and settings."""

from __future__ import annotations

import random

import pytest
from mafia88_helpers import SH, T0, Game, small

from plugins.gamekit.contract import Ctx, Rejected, Say, Seat
from plugins.mafia88.engine import COMMANDS, ENGINE

COUNTS = {"yin_jian": 1, "lianhe_jian": 2, "lianhe_dan": 2, "yi_hun": 1, "du_dan": 2, "fu_huo": 1, "an_dan": 1,
          "you_xia": 56, "gu_sha": 1, "lianhe_sha": 6, "du_sha": 10, "di_lei": 1, "hei_dan": 1, "mo_jing": 1,
          "gong_bing": 1, "huan_hun": 1}


def test_deal_matches_the_counts_of_section_4():
    g = Game()
    dealt: dict[str, int] = {}
    for p in g.state.players.values():
        dealt[p.role] = dealt.get(p.role, 0) + 1
    assert dealt == COUNTS
    whites = sum(1 for p in g.state.players.values() if p.role in list(COUNTS)[:8])
    assert whites == 66


def test_deal_follows_the_seed():
    a, b, c = Game(seed="x"), Game(seed="x"), Game(seed="y")
    roles = lambda g: [g.p(s).role for s in range(1, 89)]  # noqa: E731
    assert roles(a) == roles(b)
    assert roles(a) != roles(c)


def test_each_player_gets_one_private_role_message():
    g = Game()
    private = [e for e in g.log[0] if isinstance(e, Say) and isinstance(e.to, int)]
    assert sorted(e.to for e in private) == list(range(1, 89))
    for e in private:
        assert e.text == ENGINE.private_info(g.state, e.to, settings=g.settings)


def test_an_dan_reads_exactly_like_you_xia_byte_for_byte_5_white_7():
    g = Game()
    an = g.seats_of("an_dan")[0]
    yx = g.seats_of("you_xia")[0]
    first = {e.to: e.text for e in g.log[0] if isinstance(e, Say) and isinstance(e.to, int)}
    assert first[an].encode() == first[yx].encode()
    assert ENGINE.private_info(g.state, an, settings=g.settings) == ENGINE.private_info(g.state, yx, settings=g.settings)
    assert "暗蛋" not in first[an] and "他在哪" not in first[an]


def test_united_roles_see_each_other_5():
    g = Game()
    for key, label in (("lianhe_jian", "联合剑"), ("lianhe_dan", "联合蛋"), ("lianhe_sha", "联合杀")):
        mates = g.seats_of(key)
        for s in mates:
            text = ENGINE.private_info(g.state, s, settings=g.settings)
            others = [m for m in mates if m != s]
            assert all(f"{m}号 玩家{m}" in text for m in others), (key, text)
            assert label in text
    # 游侠 and 独立杀 know nobody
    du = g.seats_of("du_sha")[0]
    assert "联合杀：" not in ENGINE.private_info(g.state, du, settings=g.settings)


def test_gu_sha_knows_lianhe_list_and_the_three_signals_7_3():
    g = Game()
    gu = g.seats_of("gu_sha")[0]
    text = ENGINE.private_info(g.state, gu, settings=g.settings)
    for s in g.seats_of("lianhe_sha"):
        assert f"{s}号 玩家{s}" in text
    carriers = [s for s in g.seats_of("du_sha") if g.p(s).signal]
    assert len(carriers) == 3
    for s in carriers:
        seek, reply = g.p(s).signal.seek, g.p(s).signal.reply
        assert f"「{seek}」" in text and f"「{reply}」" in text
        mine = ENGINE.private_info(g.state, s, settings=g.settings)
        assert f"寻找暗号「{seek}」，接头暗号「{reply}」" in mine
    plain = [s for s in g.seats_of("du_sha") if not g.p(s).signal]
    assert len(plain) == 7
    assert all("暗号" not in ENGINE.private_info(g.state, s, settings=g.settings) for s in plain)


def test_host_set_signals_are_used_7_3():
    pairs = [["甲一", "乙一"], ["甲二", "乙二"], ["甲三", "乙三"]]
    g = Game(settings={"signals": pairs})
    assert sorted([p.seek, p.reply] for s in g.seats_of("du_sha") if (p := g.p(s).signal)) == sorted(pairs)


def test_post_capable_roles_get_their_code_name_16():
    g = Game()
    for key in ("yin_jian", "lianhe_jian", "gu_sha", "lianhe_sha", "du_sha"):
        for s in g.seats_of(key):
            code = g.p(s).code
            assert code and f"你的代号：{code}。" in ENGINE.private_info(g.state, s, settings=g.settings)
    codes = sorted(g.p(s).code for s in g.seats_of("lianhe_sha"))
    assert codes == sorted(["你逗我", "你恨我", "你骗我", "你吼我", "你笑我", "你管我"])


def test_hosts_get_the_whole_deal_and_the_group_gets_the_schedule():
    g = Game()
    hosts = g.says("hosts")
    assert len(hosts) == 1 and hosts[0].count("号 玩家") == 88
    group = g.says("group")
    assert len(group) == 1 and "交贴截止" in group[0] and "投票截止 12月1日 21:00" in group[0]
    assert "暗蛋" not in group[0]


def test_roster_must_match_role_counts():
    with pytest.raises(Rejected, match="报名 87 人"):
        Game(87)


def test_fill_role_takes_the_leftover_seats():
    g = Game(30, settings={"counts": {"you_xia": 0, "lianhe_sha": 2, "du_sha": 3}, "options": {"fill_role": "you_xia"}})
    assert len(g.seats_of("you_xia")) == 30 - (88 - 56 - 4 - 7)
    assert len(g.seats_of("lianhe_sha")) == 2


def test_default_settings_are_valid_and_complete():
    cfg = ENGINE.check_settings({})
    assert sum(r["count"] for r in cfg["roles"]) == 88
    assert [r["out"] for r in cfg["rounds"]] == [3, 7, 7, 7, 7, 5, 4, 3, 2]
    assert cfg["times"]["vote_close"] == "21:00"
    assert ENGINE.check_settings(cfg) == cfg


def test_bad_variant_gets_one_chinese_line_per_mistake():
    bad = {
        "colour": 1,
        "counts": {"lianhe_sha": 7},
        "rounds": [{"votes": 0, "out": 3, "posts": {"孤杀": 1}}],
        "times": {"vote_close": "25点"},
    }
    with pytest.raises(Rejected) as exc:
        ENGINE.check_settings(bad)
    assert str(exc.value).splitlines() == [
        "身份「联合杀」有 7 人，但只有 6 个代号。",
        "rounds[1].votes 应为正整数。",
        "times.vote_close：时间格式应为 时:分，例如 21:00，收到「25点」。",
        "未知设置项「colour」，请检查拼写。",
    ]
    # a round naming a post group that does not exist (checked once the row itself is well-formed)
    with pytest.raises(Rejected) as exc:
        ENGINE.check_settings({"rounds": [{"votes": 1, "out": 3, "posts": {"魔": 1}}]})
    assert str(exc.value).startswith("第1轮：贴杀组「魔」不存在，可用：孤杀、")


def test_an_unknown_key_and_a_dangling_role_are_one_line_each():
    with pytest.raises(Rejected) as exc:
        ENGINE.check_settings({"roles": [{"key": "x", "name": "某", "faction": "white", "count": 1, "knows": ["y"],
                                          "colour": "red"}]})
    assert str(exc.value).splitlines() == ["未知设置项「roles[1].colour」，请检查拼写。"]
    with pytest.raises(Rejected) as exc:
        ENGINE.check_settings({"options": {"fill_role": "you_xi"}})
    assert str(exc.value).splitlines() == ["options.fill_role「you_xi」不存在。"]


def test_command_table_is_well_formed():
    names = [c.name for c in COMMANDS]
    assert len(names) == len(set(names))
    for c in COMMANDS:
        assert c.help
        if c.words:
            assert c.usage.startswith("/" + c.words[0])
    private = {c.name for c in COMMANDS if c.where == "private"}
    assert {"proxy", "post", "white", "rewrite", "done", "text", "posts", "show", "vote_log"} <= private
    text_route = [c for c in COMMANDS if c.words == ()]
    assert len(text_route) == 1 and text_route[0].name == "text"


def test_kernel_timezone_setting_is_accepted_at_start():
    """/创建 stores the kernel's own keys (timezone, anon_*) beside the game's settings: the typed
    settings leave them out, and the game starts."""
    cfg = ENGINE.check_settings({})
    stored = {**cfg, "timezone": "Asia/Shanghai", "anon_speech": True}
    settings = ENGINE.settings_of(stored)
    assert settings == ENGINE.settings_of(cfg)
    roster = [Seat(i, f"玩家{i}", f"u{i}") for i in range(1, 89)]
    out = ENGINE.start(roster, Ctx(T0, random.Random("tz:1"), 1, SH, settings))
    assert out.state.round == 1


def test_host_toml_variant_is_validated():
    import tomllib

    variant = tomllib.loads(
        """
[counts]
you_xia = 10
[times]
vote_close = "22:00"
[[rounds]]
votes = 1
out = 2
posts = { "孤杀" = 1 }
"""
    )
    cfg = ENGINE.check_settings(variant)
    assert sum(r["count"] for r in cfg["roles"]) == 42
    assert cfg["times"]["vote_close"] == "22:00" and cfg["times"]["proxy_cutoff_minutes"] == 20
    g = Game(42, settings=cfg)
    assert g.phase.ends_at.hour == 14  # 22:00 in Shanghai


def test_the_state_holds_no_copy_of_the_settings_and_the_rules_leave_them_alone():
    """The rules read ctx.settings; the live round table is game state."""
    import copy

    g = small()
    before = copy.deepcopy(g.settings)
    stored = ENGINE.encode(g.state)
    assert "cfg" not in stored and "v" not in stored
    assert stored["table"] == g.stored["rounds"]
    g.host("set_round", round=1, votes=3, out=2, posts="无")
    g.close_round()
    assert "cfg" not in ENGINE.encode(g.state) and g.state.version == ENGINE.STATE_VERSION
    assert g.settings == before  # a host's change of the table stays in the state
    assert ENGINE.encode(g.state)["table"] != g.stored["rounds"]


def test_an_older_state_with_a_settings_copy_is_upgraded():
    g = small()
    old = {**ENGINE.encode(g.state), "version": 1, "v": 1, "cfg": g.stored}
    new = ENGINE.load(old)
    assert new.table == g.state.table
    assert ENGINE.encode(new) == ENGINE.encode(g.state)  # no "cfg", no "v"
    g.state = new
    g.host("set_round", round=1, votes=3, out=2, posts="无")
    assert "cfg" not in ENGINE.encode(g.state) and g.state.version == ENGINE.STATE_VERSION
