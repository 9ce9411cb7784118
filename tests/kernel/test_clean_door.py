"""Clean text at the door: every incoming text is normalised
once; look-alike aliases collide; every text has a length cap."""

import json

from harness import texts

from plugins.kernel.clean import alias_key, clean_text, fold_alias
from plugins.kernel.models import CommandLog, Game, Outbox, Player


def test_clean_text_replaces_what_cannot_be_stored():
    assert clean_text("ok 你好") == "ok 你好"
    dirty = "a\ud800b\udfffc\x00d\r\ne"
    out = clean_text(dirty)
    assert out == "a\ufffdb\ufffdc\ufffdd\ne"
    out.encode("utf-8")  # never raises
    json.dumps(out, ensure_ascii=False).encode("utf-8")
    assert clean_text("e\u0301") == "\u00e9"  # NFC


def test_alias_folding():
    assert fold_alias("选手1\u200b") == "选手1"
    assert fold_alias("\u202e1手选") == "1手选"
    assert fold_alias("ㅤ") == ""
    assert fold_alias("１２") == "12"
    assert alias_key("Ａbc") == alias_key("abc")


async def _game(h):
    await h.group("1", "/创建 测试局", role="owner")
    await h.group("101", "/报名 选手1")
    return await Game.get(group_id=h.group_id, status="signup")


async def test_look_alike_aliases_are_refused(harness):
    h = harness
    g = await _game(h)
    assert "已被占用" in texts(await h.group("102", "/报名 选手1\u200b"))
    assert "已被占用" in texts(await h.group("102", "/报名 选手１"))
    assert "请给出马甲" in texts(await h.group("102", "/报名 ㅤ", nick="ㅤ"))
    assert "纯数字" in texts(await h.group("102", "/报名 １２"))
    out = await h.group("102", "/报名 \u202e1手选")
    assert "2号「1手选」" in texts(out)
    aliases = [p.alias for p in await Player.filter(game_id=g.id).order_by("seat")]
    assert aliases == ["选手1", "1手选"]
    # a name is resolved after folding too
    await h.group("1", "/开始")
    out = await h.group("101", "/票 选手１")
    assert "投给 1号" in texts(out)


async def test_lone_surrogate_is_replaced_and_never_breaks_a_send(harness):
    h = harness
    g = await _game(h)
    await h.group("102", "/报名 乙")
    await h.group("1", "/开始")
    out = await h.private("101", "/密 坏\ud800字")
    assert not [t for t in texts(out).split("\n") if "出错" in t]
    row = await Outbox.filter(game_id=g.id, text__contains="密语").first()
    assert row is not None and "坏\ufffd字" in row.text
    out = await h.group("1", "/公告 公告\udfff内容")
    assert "公告\ufffd内容" in texts(out)


async def test_overlong_text_is_refused_and_changes_nothing(harness):
    h = harness
    g = await _game(h)
    await h.group("102", "/报名 乙")
    await h.group("1", "/开始")
    before = await CommandLog.filter(game_id=g.id).count()
    out = await h.private("101", "/密 " + "长" * 6000)
    assert "太长了" in texts(out) and "最多 5000 字" in texts(out)
    out = await h.private("101", "记" + "长" * 6000)  # the plain-text route too
    assert "太长了" in texts(out)
    assert await CommandLog.filter(game_id=g.id).count() == before
    # a host's command may be longer (identity files, score sheets)
    out = await h.group("1", "/公告 " + "长" * 6000)
    assert "太长了" not in texts(out)


async def test_a_game_command_from_someone_in_no_game_is_answered(harness):
    h = harness
    out = await h.private("5151", "/票 3")
    assert "你现在没有参加任何游戏" in texts(out)


async def test_command_start_from_the_nonebot_config(harness, monkeypatch):
    import nonebot

    h = harness
    monkeypatch.setattr(nonebot.get_driver().config, "command_start", {"#"})
    assert "在。" in texts(await h.group("5", "#在吗"))
    assert not await h.group("5", "/在吗")  # "/" is no longer a command prefix: plain text, silence
    monkeypatch.setattr(nonebot.get_driver().config, "command_start", {"/"})
    assert "在。" in texts(await h.group("5", "／在吗"))  # the fullwidth slash counts as "/"


def test_kernel_config_is_validated():
    import pytest
    from pydantic import ValidationError

    from plugins.kernel.config import KernelConfig

    for bad in ({"game_timezone": "Mars/Base"}, {"send_interval": -1}, {"lease_seconds": 0},
                {"database_url": "mysql://x"}):
        with pytest.raises(ValidationError):
            KernelConfig(**bad)
    assert KernelConfig(game_timezone="Europe/Berlin").game_timezone == "Europe/Berlin"


def test_config_is_namespaced_and_reads_the_old_flat_names():
    """One namespace (GAMEHOST__…); an old .env's flat names still count
    where the namespaced one is absent; the namespaced one wins."""
    import pytest
    from pydantic import ValidationError

    from plugins.kernel.config import Config

    c = Config.model_validate({"gamehost": {"send_interval": "2.5"}, "send_interval": "9", "lease_seconds": "7"})
    assert c.gamehost.send_interval == 2.5 and c.gamehost.lease_seconds == 7
    assert Config.model_validate({}).gamehost.send_interval == 1.5
    with pytest.raises(ValidationError, match="GAMEHOST__GAME_TIMEZONE"):
        Config.model_validate({"gamehost": {"game_timezone": "Mars/Base"}})
    with pytest.raises(ValidationError):
        Config.model_validate({"send_jitter": "-1"})  # an old name is validated the same way


def test_data_folder_is_localstore_unless_set(monkeypatch, tmp_path):
    """Files go to localstore's folder for the kernel when no data folder is set."""
    import nonebot_plugin_localstore as store

    from plugins.kernel import config

    monkeypatch.setattr(config, "kernel_config", lambda: config.KernelConfig(data_dir=""))
    monkeypatch.setattr(store, "BASE_DATA_DIR", tmp_path)  # LOCALSTORE_DATA_DIR's effect
    assert config.data_dir() == tmp_path / "kernel" and (tmp_path / "kernel").is_dir()
    monkeypatch.setattr(config, "kernel_config", lambda: config.KernelConfig(data_dir=str(tmp_path / "mine")))
    assert config.data_dir() == tmp_path / "mine"
