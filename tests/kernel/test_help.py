"""Help by topic and by command, and an answer to every unknown command.

The short /帮助 of every kind of asker (stranger, player, host; group, private) in
each phase (sign-up, running) of each of the four games is kept as a snapshot
under tests/kernel/snapshots/: a change of wording is a visible diff. Rewrite
them with ``UPDATE_SNAPSHOTS=1 pytest tests/kernel/test_help.py``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from harness import texts

from plugins.kernel.helptext import NAMING, Asker, command_text, help_reply, help_text, naming
from plugins.kernel.models import Game
from plugins.kernel.registry import get_kind

SNAPSHOTS = Path(__file__).parent / "snapshots"
GAMES = ("mafia88", "prison", "royale", "league")
ASKERS = ("stranger", "player", "host")


def _asker(who: str, status: str, in_group: bool) -> tuple[bool, Asker]:
    """(has the game, asker): a stranger's private chat is tied to no game."""
    if who == "stranger" and not in_group:
        return False, Asker("none", False)
    return True, Asker(status, in_group, is_host=who == "host", is_player=who == "player")


def _sections(key: str) -> dict[tuple[str, str, bool], str]:
    kind = get_kind(key)
    out = {}
    for status in ("signup", "running"):
        for who in ASKERS:
            for in_group in (True, False):
                has_game, a = _asker(who, status, in_group)
                out[status, who, in_group] = help_text(kind if has_game else None, a)
    return out


def _render(key: str) -> str:
    parts = [f"## {status} · {who} · {'群聊' if in_group else '私聊'}\n{text}"
             for (status, who, in_group), text in _sections(key).items()]
    return "\n\n".join(parts) + "\n"


def _check(name: str, text: str) -> None:
    path = SNAPSHOTS / name
    if os.environ.get("UPDATE_SNAPSHOTS") == "1" or not path.exists():
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"{name} changed; UPDATE_SNAPSHOTS=1 to accept"


@pytest.mark.parametrize("key", GAMES)
def test_help_snapshots(key):
    _check(f"help-{key}.txt", _render(key))


@pytest.mark.parametrize("key", GAMES)
def test_short_help_is_short_and_fits_the_asker(key):
    kind = get_kind(key)
    for status in ("signup", "running"):
        for who in ASKERS:
            for in_group in (True, False):
                has_game, a = _asker(who, status, in_group)
                text = help_text(kind if has_game else None, a)
                assert len(text.splitlines()) <= 12, text
                assert naming(kind if has_game else None) in text and "/帮助 <命令>" in text
                host_words = [s.words[0] for s in kind.commands if s.who == "host" and s.words]
                if who != "host":
                    assert "主持：" not in text and not any(f"/{w} " in text + " " for w in host_words), text
                if status == "running" and has_game:
                    assert "/报名" not in text and "/退出报名" not in text, text
                if status == "signup" and has_game and who != "host" and not in_group:
                    assert "开始后：" in text or not any(s.words for s in kind.commands if s.where != "group"), text


def test_signup_players_see_game_commands_only_as_after_the_start():
    text = help_text(get_kind("mafia88"), Asker("signup", False, is_player=True))
    before, after = text.split("开始后：")
    assert "/投票" not in before and "/投票" in after
    assert "/我的身份" not in text  # nothing to resend before the deal


def test_stranger_in_private_is_not_offered_player_commands():
    text = help_text(None, Asker("none", False))
    assert "/报名" in text
    for word in ("/退出报名", "/资料", "/我的身份"):
        assert word not in text, text


def test_one_name_per_action_in_mafia88():
    """/出局, /回场, /结束 are aliases of the game's own commands in 88人场, and say so."""
    kind = get_kind("mafia88")
    host = help_text(kind, Asker("running", False, is_host=True))
    assert "/判出局" in host and "/出局 " not in host + " " and "/结束 " not in host + " "
    assert "/出局 是 /判出局 的别名" in command_text(kind, "出局")
    assert "/结束 是 /结束游戏 的别名" in command_text(kind, "结束")
    assert "也可写：/回场" in command_text(kind, "判复活")


def test_help_for_one_command_has_usage_example_and_naming():
    kind = get_kind("royale")
    text = help_reply(kind, Asker("running", False, is_player=True), "/攻击")
    assert text.startswith("用法：/攻击") and "私聊" in text
    text = help_reply(kind, Asker("running", True), "牌")
    assert "用法：/牌 <玩家>" in text and "例：/牌 3" in text and NAMING in text


def test_help_all_lists_every_command_grouped():
    kind = get_kind("league")
    text = help_reply(kind, Asker("running", True), "全部")
    for head in ("—— 报名 ——", "—— 游戏中 ——", "—— 主持 ——"):
        assert head in text
    assert all(f"/{s.words[0]}" in text for s in kind.commands if s.words)
    assert "/发言" not in text and "/小号" not in text  # not this game's


def test_help_for_no_such_command_suggests_the_closest():
    kind = get_kind("mafia88")
    text = help_reply(kind, Asker("running", False, is_player=True), "投標")
    assert text == "没有 /投標 这个命令，你是不是想用 /投票？发 /帮助 投票 看用法。"
    text = help_reply(kind, Asker("running", False, is_player=True), "xyzzy")
    assert text == "没有 /xyzzy 这个命令。发 /帮助 看你在这里能用的命令。"


# ---- through the bot ----------------------------------------------------------------------


async def _game(h, n=3):
    await h.group("1", "/创建 测试局", role="owner")
    for i in range(n):
        await h.group(str(100 + i), f"/报名 玩家{i + 1}")
    return await Game.get(group_id=h.group_id, status__in=("signup", "running"))


async def test_help_follows_the_phase(harness):
    h = harness
    await _game(h)
    signup = texts(await h.group("100", "/帮助"))
    assert "报名中" in signup and "/退出报名" in signup and "开始后：" in signup and "/票" in signup
    host = texts(await h.group("1", "/帮助"))
    assert "主持：/开始" in host and "/推进" not in host
    await h.group("1", "/开始")
    running = texts(await h.group("100", "/帮助"))
    assert "进行中" in running and "/退出报名" not in running and "游戏中：" in running
    host = texts(await h.group("1", "/帮助"))
    assert "/推进" in host and "/开始" not in host
    assert "用法：/票 <玩家>" in texts(await h.group("100", "/帮助 票"))


async def test_unknown_commands_get_a_hint_where_the_bot_plays(harness):
    h = harness
    assert await h.group("100", "/blah") == []  # a group without a game: silence
    assert await h.group("100", "帮助") == []
    await _game(h)
    await h.group("1", "/开始")
    assert texts(await h.group("100", "/状况")).endswith("没有 /状况 这个命令，你是不是想用 /状态？发 /帮助 状态 看用法。")
    assert texts(await h.group("100", "/blah")).endswith("没有 /blah 这个命令。发 /帮助 看你在这里能用的命令。")
    assert "没有 /名丹 这个命令，你是不是想用 /名单？" in texts(await h.private("100", "/名丹"))
    assert "没有 /blah 这个命令" in texts(await h.private("777", "/blah"))  # private, in no game
    assert "能用的命令" in texts(await h.group("100", "帮助"))
    assert "能用的命令" in texts(await h.private("100", "菜单"))
    assert "能用的命令" in texts(await h.private("100", "/菜单"))
    assert await h.private("100", "随便聊聊") == []  # other plain text is still the game's (not ours here)
    assert texts(await h.private("100", "记一下")) == "已记下。"


# ---- /导出 as files ------------------------------------------------------------------------


async def test_export_uploads_files_to_the_group_or_private_chat(harness):
    from harness import uploaded

    h = harness
    g = await _game(h)
    await h.group("1", "/开始")
    before = len(uploaded(h))
    out = texts(await h.group("1", "/导出"))
    assert "已导出，正在上传到群文件" in out and "机器人所在电脑" not in out
    calls = uploaded(h)[before:]
    assert [api for api, _ in calls] == ["upload_group_file", "upload_group_file"]
    assert all(d["group_id"] == int(h.group_id) and Path(d["file"]).is_file() for _, d in calls)
    assert [Path(d["name"]).suffix for _, d in calls] == [".xlsx", ".zip"]
    assert calls[0][1]["name"].startswith(f"测试局-第{g.id}局-")
    import zipfile

    assert "名单.csv" in zipfile.ZipFile(calls[1][1]["file"]).namelist()
    texts(await h.private("1", "/导出"))
    assert [(api, d["user_id"]) for api, d in uploaded(h)[-2:]] == [("upload_private_file", 1)] * 2


async def test_export_falls_back_to_the_path_when_the_upload_fails(harness, monkeypatch):
    h = harness
    await _game(h)
    real = h.bot.call_api

    async def refuse(api, **data):
        if api.startswith("upload_"):
            raise RuntimeError("upload refused")
        return await real(api, **data)

    monkeypatch.setattr(h.bot, "call_api", refuse)
    out = await h.group("1", "/导出")
    note = texts(out, "1")
    assert "上传到群文件失败，文件在机器人所在电脑的" in note, out
    assert "【发送失败】" not in texts(out)


async def test_export_too_large_is_not_uploaded(harness, monkeypatch):
    from harness import uploaded

    from plugins.kernel.commands import admin

    h = harness
    await _game(h)
    cfg = admin.kernel_config()
    monkeypatch.setattr(admin, "kernel_config", lambda: cfg.model_copy(update={"export_upload_max_mb": 0.000001}))
    before = len(uploaded(h))
    out = texts(await h.group("1", "/导出"))
    assert "超过上传上限" in out and "没有上传" in out and "机器人所在电脑的" in out
    assert len(uploaded(h)) == before


# ---- /日志 in Chinese, paged; /配置 as TOML ---------------------------------------------------


async def test_log_in_chinese_by_seat_and_alias_paged(harness):
    import re

    h = harness
    await _game(h, n=3)
    await h.group("1", "/开始")
    for i in range(25):
        await h.group("1", f"/蓝牌 2 第{i}次")
    first = texts(await h.private("1", "/日志"))
    lines = first.splitlines()
    assert lines[0] == "【日志】第 1/2 页，共 32 条（时间为游戏时区，新的在下）：", lines[0]
    assert lines[-1] == "更早的日志：/日志 2" and len(lines) == 22
    assert re.match(r"\d\d-\d\d \d\d:\d\d:\d\d 主持（1） 判牌：2号 玩家2 蓝牌：第24次$", lines[-2]), lines[-2]
    second = texts(await h.private("1", "/日志 2"))
    assert "1号 玩家1 报名：1号 玩家1" in second and "主持（1） 开始游戏：3 人" in second
    for code in ("signup", "start", "card", "engine", "100"):
        assert code not in first + second
    assert "日志只有 2 页" in texts(await h.private("1", "/日志 3"))
    assert "请写页码" in texts(await h.private("1", "/日志 abc"))


@pytest.mark.parametrize("key", GAMES)
def test_settings_shown_as_toml_read_back_the_same(key):
    import tomllib

    from plugins.kernel.tomlout import dumps

    settings = get_kind(key).engine.check_settings({})
    assert tomllib.loads(dumps(settings)) == settings


async def test_configure_shows_toml_by_section_and_the_readme_example_works(harness):
    """README: /配置 prep_minutes = 30 (囚犯) and /配置 timezone = "…" (every game); /配置 <节>."""
    h = harness
    host = "10000"  # SUPERUSER, opens the game
    assert "开局了" in texts(await h.group(host, "/创建 囚犯"))
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    assert "`/配置 prep_minutes = 30`" in readme and "`/配置 points`" in readme
    assert "配置已更新" in texts(await h.group(host, "/配置 prep_minutes = 30"))
    assert "配置已更新" in texts(await h.group(host, '/配置 timezone = "Asia/Tokyo"'))
    whole = texts(await h.private(host, "/配置"))
    assert "prep_minutes = 30" in whole and 'timezone = "Asia/Tokyo"' in whole and "{" not in whole.split("\n")[1]
    assert "节：" in whole and "看一节：/配置 <节>" in whole
    section = texts(await h.private(host, "/配置 points"))
    assert section.splitlines()[:3] == ["本局配置的「points」：", "[points]", "day = 1"]
    assert "[[guards]]" in texts(await h.private(host, "/配置 guards"))
    assert "配置里没有「pionts」。可看的节：" in texts(await h.private(host, "/配置 pionts"))


# ---- small texts -------------------------------------------------------------------------------


async def test_status_during_signup_and_a_clean_card_record(harness):
    h = harness
    await _game(h, n=3)
    status = texts(await h.group("100", "/状态"))
    assert "【测试局】报名中，已报名 3 人" in status and "存活" not in status
    await h.group("1", "/开始")
    assert "进行中，玩家 3 人，存活 3 人" in texts(await h.group("100", "/状态"))
    assert texts(await h.group("100", "/牌 2")).endswith("2号 玩家2：暂无判罚。")
    await h.group("1", "/蓝牌 2 刷屏")
    assert "蓝牌 1" in texts(await h.group("100", "/牌 2"))


async def test_help_in_a_group_without_a_game_and_royale_has_no_vote(harness):
    h = harness
    out = texts(await h.group("1", "/帮助", role="admin"))
    assert "本群现在没有游戏" in out and "/创建 <游戏>（88人场 / 囚犯 / 大逃杀 / 联赛" in out
    assert "群主或管理员可以发送 /创建" in texts(await h.group("2", "/帮助"))
    await h.group("10000", "/创建 大逃杀")
    out = texts(await h.group("2", "/投票 3"))
    assert "没有 /投票 这个命令" in out and "你是不是想用" not in out


def test_help_lines_share_one_punctuation_style():
    """Help lines end without a full stop, in every game's table and the kernel's."""
    for key in GAMES:
        for spec in get_kind(key).commands:
            assert not spec.help.endswith("。"), (key, spec.words, spec.help)


async def test_mafia88_end_before_the_start_is_the_kernels(harness):
    """/结束 is /结束游戏's alias once 88人场 runs; during sign-up it still ends the game (the demo relies on it)."""
    h = harness
    await h.group("10000", "/创建 88人场")
    out = texts(await h.group("10000", "/结束 换一局演示"))
    assert "游戏结束：换一局演示" in out
    assert not await Game.exists(group_id=h.group_id, status__in=("signup", "running"))


SIGNUP = {"mafia88": "private", "prison": "private", "royale": "group", "league": "group"}


@pytest.mark.parametrize("key", GAMES)
async def test_the_bot_answers_each_asker_with_the_snapshot_help(harness, key):
    """Through the bot during sign-up (the host is a SUPERUSER who opened the game): each
    asker gets exactly the snapshot's text; royale also once it runs."""
    import re

    h = harness
    host, player, stranger = "10000", str(int(h.group_id) + 1000), str(int(h.group_id) + 2000)
    title = get_kind(key).names[0]
    assert "开局了" in texts(await h.group(host, f"/创建 {title}"))
    if SIGNUP[key] == "private":
        assert "报名成功" in texts(await h.private(player, f"/报名 {h.group_id} 甲"))
    else:
        assert "报名成功" in texts(await h.group(player, "/报名 甲")) or "1号" in texts(await h.group(player, "/名单"))
    expected = _sections(key)

    async def asked(who: str, in_group: bool) -> str:
        uid = {"host": host, "player": player, "stranger": stranger}[who]
        out = texts(await (h.group(uid, "/帮助") if in_group else h.private(uid, "/帮助")))
        return re.sub(r"^u\d+：", "", out)

    for who in ASKERS:
        for in_group in (True, False):
            assert await asked(who, in_group) == expected["signup", who, in_group], (who, in_group)
    if key == "royale":
        for i in range(2):
            await h.group(str(int(player) + 1 + i), f"/报名 乙{i}")
        await h.group(host, "/开始")
        for who in ASKERS:
            for in_group in (True, False):
                assert await asked(who, in_group) == expected["running", who, in_group], (who, in_group)
