"""One way to write an engine: a CommandSpec names its rule, the
kernel makes the single copy of the state; read-only commands (query=True) are
not logged and never write the game; stored states carry a version, an older one
is upgraded at load and a newer one refuses to load."""

import random
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

from demo_game.engine import DemoEngine, Settings, State, Target, Vote
from harness import Harness, demo_running, texts

from plugins.gamekit.contract import Actor, Command, Ctx, Finish, GameEngine, Say
from plugins.kernel.export import game_tables
from plugins.kernel.models import CommandLog, Game
from plugins.kernel.held import forget


async def _row(game_id: int) -> dict:
    return (await Game.filter(id=game_id).values())[0]


async def test_query_is_answered_but_not_logged_and_writes_nothing(harness):
    h = harness
    g = await demo_running(h)
    await h.group("31", "/票 2")
    logged, row = await CommandLog.filter(game_id=g.id).count(), await _row(g.id)
    out = await h.group("32", "/查票")
    assert "已投 1 票。" in texts(out, h.group_id)
    assert await CommandLog.filter(game_id=g.id).count() == logged
    assert await _row(g.id) == row  # state, last_seq, everything: the game row was not written
    # the query took no arrival number: the next vote is the next command of the game
    assert f"第 {row['last_seq'] + 1} 号票" in texts(await h.group("32", "/票 1"))


async def test_query_rule_with_more_than_replies_is_refused(harness, monkeypatch):
    h = harness
    g = await demo_running(h)
    orig = DemoEngine.rule
    monkeypatch.setattr(DemoEngine, "rule", lambda self, name: (lambda *a: [Finish("不该结束")]) if name == "votes" else orig(self, name))
    row = await _row(g.id)
    out = await h.group("32", "/查票")
    assert "机器人出错了" in texts(out) and "不该结束" not in texts(out)
    assert await _row(g.id) == row and (await Game.get(id=g.id)).status == "running"


async def test_query_rule_that_changes_the_state_changes_nothing_kept(harness, monkeypatch):
    """A query reads the held state itself (no copy): a rule that writes to it anyway is
    an engine bug; the held game is dropped, so the next command sees the stored state."""
    h = harness
    g = await demo_running(h)
    await h.group("31", "/票 2")
    orig = DemoEngine.rule

    def sneaky(s, actor, a, ctx):
        s.votes.append(Vote(0, 0, 0, 0))
        return [Say("reply", f"已投 {len(s.votes)} 票。")]

    monkeypatch.setattr(DemoEngine, "rule", lambda self, name: sneaky if name == "votes" else orig(self, name))
    row = await _row(g.id)
    assert "已投 2 票。" in texts(await h.group("32", "/查票"))  # what the buggy rule said
    assert await _row(g.id) == row
    monkeypatch.setattr(DemoEngine, "rule", orig)
    assert "已投 1 票。" in texts(await h.group("32", "/查票"))  # held copy dropped: the stored state again
    await h.group("32", "/票 1")
    assert [v[1:3] for v in (await Game.get(id=g.id)).state["votes"]] == [[1, 2], [2, 1]]


async def test_newer_state_version_refuses_to_load_and_nothing_is_written(harness):
    h = harness
    g = await demo_running(h)
    await Game.filter(id=g.id).update(state={**g.state, "version": DemoEngine.STATE_VERSION + 1})
    forget(g.id)  # as after a restart: the held copy is gone, the row is read again
    logged, row = await CommandLog.filter(game_id=g.id).count(), await _row(g.id)
    for text in ("/票 2", "/查票"):
        out = await h.group("31", text)
        assert "更新版本的机器人" in texts(out) and "请管理员升级机器人" in texts(out)
    assert await CommandLog.filter(game_id=g.id).count() == logged
    assert await _row(g.id) == row


async def test_older_state_is_upgraded_at_load(harness, monkeypatch):
    h = harness
    g = await demo_running(h)
    assert g.state["version"] == DemoEngine.STATE_VERSION  # the kernel marks what it writes

    def upgrade(self, state):
        return {**state, "notes": [f"upgraded from {state.get('version', 0)}"]}

    monkeypatch.setattr(DemoEngine, "STATE_VERSION", DemoEngine.STATE_VERSION + 1)
    monkeypatch.setattr(DemoEngine, "upgrade", upgrade)
    forget(g.id)  # newer code after a restart: the stored state is read and upgraded
    assert "号票" in texts(await h.group("31", "/票 2"))
    state = (await Game.get(id=g.id)).state
    assert state["version"] == DemoEngine.STATE_VERSION and g.state["version"] == DemoEngine.STATE_VERSION - 1
    assert (await game_tables(g.id))["笔记"][1:] == [[f"upgraded from {DemoEngine.STATE_VERSION - 1}"]]
    assert state["votes"][-1][1:3] == [1, 2]


def test_apply_dispatches_by_spec_on_a_copy():
    """Pure tests keep calling engine.apply: the rule its spec names, on a copy."""
    engine = DemoEngine()
    assert isinstance(engine, GameEngine)
    state = State(day=1, alive=[1, 2])
    ctx = Ctx(datetime(2026, 1, 1, tzinfo=timezone.utc), random.Random(1), 7, ZoneInfo("Asia/Shanghai"), Settings(day_minutes=60))
    out = engine.apply(state, Actor("31", 1, False, False), Command("vote", Target(target=2)), ctx)
    assert out.state.votes == [Vote(1, 1, 2, 7)] and state.votes == []
    assert engine.encode(out.state)["version"] == DemoEngine.STATE_VERSION


async def test_a_stored_state_that_does_not_fit_its_model_refuses_that_game_only(harness):
    """A game whose stored state does not validate is refused with its number and the field;
    its row and log stay as they were, and another group's game keeps playing."""
    h = harness
    g = await demo_running(h)
    other = Harness(group="6000")
    g2 = await demo_running(other)
    await Game.filter(id=g.id).update(state={**g.state, "day": "第一天"})
    forget(g.id)  # as after a restart: the held copy is gone, the row is read again
    logged, row = await CommandLog.filter(game_id=g.id).count(), await _row(g.id)
    for text in ("/票 2", "/查票"):
        out = texts(await h.group("31", text))
        assert f"编号 {g.id}" in out and "day" in out and "请管理员查看日志" in out
        assert "号票" not in out and "机器人出错了" not in out
    assert await CommandLog.filter(game_id=g.id).count() == logged
    assert await _row(g.id) == row  # nothing rewritten
    assert "号票" in texts(await other.group("31", "/票 2"))
    assert "已投 1 票。" in texts(await other.group("32", "/查票"))
    assert (await Game.get(id=g2.id)).state["votes"][-1][1:3] == [1, 2]
