"""Hostile or odd input at the chat door: look-alike aliases, mixed scripts, control
characters, bidi overrides, deadlines moved by absurd amounts, malformed message segments.
Each gets a clean Chinese refusal or is repaired; nothing leaves a traceback in the log."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest
from harness import demo_running, group_payload, private_payload, texts
from loguru import logger

from plugins.gamekit.contract import PHASE_TIMER
from plugins.kernel import registry
from plugins.kernel.models import Game, Outbox, Player, Timer
from plugins.kernel.registry import get_kind
from plugins.kernel.routing import admission as adm


@pytest.fixture
def log_lines():
    """Every log line of WARNING and above while the test runs (tracebacks included)."""
    lines: list[str] = []
    sink = logger.add(lambda m: lines.append(str(m)), level="WARNING")
    yield lines
    logger.remove(sink)


def no_traceback(lines: list[str]) -> bool:
    return not any("Traceback" in line or "Error" in line for line in lines)


# ---- /延时 ---------------------------------------------------------------------------------


async def test_extend_outside_a_day_back_to_a_week_on_is_refused(harness, log_lines):
    h = harness
    g = await demo_running(h)
    before = (await Timer.get(game_id=g.id, key=PHASE_TIMER)).ends_at
    for arg in ("99999999999", "-99999999999", "5000000", "10081", "-1441"):
        out = texts(await h.group("1", f"/延时 {arg}"))
        assert "-1440 到 10080" in out and "出错" not in out, (arg, out)
    assert (await Timer.get(game_id=g.id, key=PHASE_TIMER)).ends_at == before
    out = texts(await h.group("1", "/延时 10080"))
    assert "截止时间调整为" in out
    assert no_traceback(log_lines)


# ---- message segments ------------------------------------------------------------------------


class Handled:
    """Stands for the bot behind the lanes: hands each admitted event to the real bot and keeps
    the task, so the test can wait for it and see its exception, if any."""

    def __init__(self, bot):
        self.bot, self.adapter, self.tasks = bot, None, []

    async def handle_event(self, event) -> None:
        await self.bot.handle_event(event)


async def test_a_text_segment_without_its_text_is_dropped_before_parsing(harness, monkeypatch, log_lines):
    """Seen from real OneBot implementations: a text segment without ``text`` beside another
    one. NoneBot's adapter joins neighbouring text segments and raised KeyError on it."""
    h = harness
    await h.group("1", "/创建 测试局", role="owner")
    bot = Handled(h.bot)
    monkeypatch.setattr(adm, "get_bots", lambda: {h.bot.self_id: bot})
    lanes = adm.Admission()
    started: list[asyncio.Task] = []
    real_admit = lanes._admit

    def admit(item, lane):
        task = real_admit(item, lane)
        if task is not None:
            started.append(task)
        return task

    monkeypatch.setattr(lanes, "_admit", admit)
    group = group_payload(h.bot.self_id, h.group_id, "31", "/报名 ")
    group["message"] = [{"type": "text", "data": {"text": "/报名 "}}, {"type": "text", "data": {}},
                        {"type": "text", "data": {"text": "甲"}}]
    lonely = private_payload(h.bot.self_id, "32", "")
    lonely["message"] = [{"type": "text", "data": {"text": None}}, {"type": "text", "data": {"text": "/在吗"}}]
    for payload in (group, lonely):
        lanes.put(payload)
    for _ in range(1000):  # the second waits behind the sign-up (a routing command): until both are done
        await asyncio.sleep(0.01)
        if len(started) == 2 and all(t.done() for t in started):
            break
    assert len(started) == 2
    await asyncio.gather(*started)  # raises what the event's task raised
    out = texts(await h.drain())
    assert "报名成功：1号「甲」" in out and "在。" in out
    assert no_traceback(log_lines)


# ---- aliases -----------------------------------------------------------------------------------


async def _secret_signup(h, monkeypatch):
    """The demo game with secret aliases (as 88人场 has): sign-ups by private message."""
    monkeypatch.setitem(registry._KINDS, "demo", dataclasses.replace(get_kind("demo"), private_signup=True))
    await h.group("1", "/创建 测试局", role="owner")

    async def signup(user: str, alias: str) -> str:
        return texts(await h.private(user, f"/报名 {h.group_id} {alias}"))

    return signup


async def test_look_alike_and_mixed_script_aliases_are_refused(harness, monkeypatch, log_lines):
    h = harness
    signup = await _secret_signup(h, monkeypatch)
    assert "报名成功" in await signup("31", "Alice")
    assert "报名成功" in await signup("30", "cope")
    doubles = {
        "\u0410lice": "Cyrillic А",
        "\u0391lice": "Greek Α",
        "Al\u0456ce": "Ukrainian і",
        "\u0441\u043e\u0440\u0435": "all Cyrillic: соре, one script, looks like cope",
        "AIice": "capital I for l",
        "ALICE": "another case",
    }
    for alias, why in doubles.items():
        out = await signup("32", alias)
        assert "报名成功" not in out and ("已被占用" in out or "混用" in out), (why, out)
    out = await signup("32", "\u0410lice")
    assert "混用" in out and "小明2" in out  # says what is allowed instead
    out = await signup("32", "Ωmega")  # Greek with Latin, no one to imitate: still refused
    assert "混用" in out
    # Chinese with Latin letters or digits is normal; Japanese kana and Korean with Han too
    for user, alias in (("33", "小明2"), ("34", "阿K"), ("35", "小明の猫"), ("36", "Алиса")):
        assert "报名成功" in await signup(user, alias), alias
    aliases = [p.alias for p in await Player.filter(game_id=(await Game.get(group_id=h.group_id)).id).order_by("seat")]
    assert aliases == ["Alice", "cope", "小明2", "阿K", "小明の猫", "Алиса"]
    assert no_traceback(log_lines)


async def test_an_alias_with_a_control_character_or_a_lone_surrogate_is_refused(harness, monkeypatch):
    h = harness
    signup = await _secret_signup(h, monkeypatch)
    for alias in ("甲\x01乙", "甲\ud800", "\ufffd"):
        out = await signup("31", alias)
        assert "报名成功" not in out and "控制字符" in out, (alias, out)
    assert not await Player.filter(alias__contains="\ufffd").exists()
    assert "报名成功" in await signup("31", "甲乙")


# ---- bidi controls -------------------------------------------------------------------------------


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += ch in "\u202a\u202b\u202d\u202e\u2066\u2067\u2068"
        depth -= ch in "\u202c\u2069"
        if depth < 0:
            return False
    return depth == 0


async def test_bidi_overrides_in_speech_and_announcements_are_closed(harness, monkeypatch):
    h = harness
    signup = await _secret_signup(h, monkeypatch)
    for user, alias in (("31", "甲"), ("32", "乙")):
        await signup(user, alias)
    await h.group("1", "/开始")
    out = await h.private("32", "/发言 \u202e我是好人")
    said = [t for k, _, t in out if k == "group"]
    assert said == ["【乙】\u202e我是好人\u202c"]
    out = await h.private("32", "/发言 闭合\u202c\u2069多余")  # closers with nothing open: removed
    assert [t for k, _, t in out if k == "group"] == ["【乙】闭合多余"]
    out = await h.group("1", "/公告 \u2067عربي\u202d第二行前\n第二行")
    posts = [t for k, _, t in out if k == "group"]
    assert len(posts) == 1 and "\u2067عربي\u202d第二行前\u202c\u2069\n第二行" in posts[0]
    rows = await Outbox.filter(game_id=(await Game.get(group_id=h.group_id)).id, target_type="group").values_list("text", flat=True)
    assert all(_balanced(t) for t in rows)


def test_bidi_controls_pair_as_uax9_pairs_them():
    from plugins.kernel.clean import balance_bidi

    assert balance_bidi("a\u2067b\u202ec\u2069d") == "a\u2067b\u202ec\u202c\u2069d"  # a PDI closes what its isolate opened
    assert balance_bidi("\u2067\u202ax\u202c") == "\u2067\u202ax\u202c\u2069"
    assert balance_bidi("\u202c\u2069x") == "x"
    assert balance_bidi("\u202ex\ny") == "\u202ex\u202c\ny"  # closed by the end of its line
    assert balance_bidi("\u202ax\u2069y") == "\u202axy\u202c"  # a PDI with no isolate open: removed
    assert balance_bidi("plain") == "plain"
