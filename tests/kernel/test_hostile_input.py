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
    for _ in range(50):
        await asyncio.sleep(0)
        if len(started) == 2 and all(t.done() for t in started):
            break
    await asyncio.gather(*started)  # raises what the event's task raised
    out = texts(await h.drain())
    assert "报名成功：1号「甲」" in out and "在。" in out
    assert no_traceback(log_lines)
