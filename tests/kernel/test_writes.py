"""A command is one unit of work: its delivery key, log row, state, timers, audit rows and answers
are one write set, written whole or not at all."""

import sqlite3

from harness import demo_running, group_payload, sqlite_only, texts
from nonebot.adapters.onebot.v11 import Adapter
from nonebot.message import handle_event

import plugins.kernel.store.sqlite as sqlite_store
from plugins.kernel.models import Audit, CommandLog, Delivery, Game, Outbox, Timer
from plugins.kernel.store import current


async def _signed_up(h):
    await h.group("1", "/创建 测试局", role="owner")
    await h.group("31", "/报名 甲")
    await h.group("32", "/报名 乙")
    return await Game.get(group_id=h.group_id, status="signup")


def _handed(monkeypatch) -> list:
    """Every write set handed to the store from now on."""
    store, sets = current(), []
    real = store.hand_in

    def recorded(ws, **kw):
        sets.append(ws)
        return real(ws, **kw)

    monkeypatch.setattr(store, "hand_in", recorded)
    return sets


def _failing_once(monkeypatch) -> None:
    """The next write set's statements fail as a full disk would (the ones after it are written)."""
    real = sqlite_store._apply
    failures = [sqlite3.OperationalError("disk full")]

    def broken(conn, ws, now, games):
        if failures:
            raise failures.pop()
        real(conn, ws, now, games)

    monkeypatch.setattr(sqlite_store, "_apply", broken)


async def test_a_vote_is_one_write_set(harness, monkeypatch):
    """The delivery key, the log row, the state and the answer of a vote: one write set."""
    h = harness
    g = await demo_running(h)
    await h.group("31", "/票 2")
    handed = _handed(monkeypatch)
    await handle_event(h.bot, Adapter.json_to_event(group_payload(h.bot.self_id, h.group_id, "32", "/票 1", message_id=880001)))
    (ws,) = handed
    assert ws.delivery == f"{h.bot.self_id}:g{h.group_id}:880001"
    tables = [op.model.__name__ for op in ws.ops]
    assert tables == ["CommandLog", "Game"] and "投给 1号" in ws.outbox[0]["text"]
    assert "投给 1号" in texts(await h.drain())
    assert await Delivery.exists(key=ws.delivery) and await CommandLog.filter(game_id=g.id, name="vote").count() == 2


async def test_a_vote_writes_the_game_rows_state_and_arrival_number_not_its_unchanged_settings(harness, monkeypatch):
    """The game row's columns a command did not change are not written again (an 88-player game's
    settings are 33 KiB of JSON); a column it did change is, and the stored row reads back whole."""
    h = harness
    g = await demo_running(h)
    await h.group("31", "/票 2")  # held from here
    handed = _handed(monkeypatch)
    await h.group("32", "/票 1")
    (ws,) = [ws for ws in handed if ws.delivery]
    (game_op,) = [op for op in ws.ops if op.model.__name__ == "Game"]
    assert set(game_op.fields) == {"state", "last_seq"}
    stored = await Game.get(id=g.id)
    assert stored.last_seq == g.last_seq + 2 and stored.settings == g.settings and stored.status == "running"


async def test_a_changed_setting_is_written_and_the_next_command_leaves_the_column_alone(harness, monkeypatch):
    """/配置 replaces the held game's settings: the game row's settings column is written with the new
    value (read back from the database), and the next command, changing none, does not write it again."""
    h = harness
    g = await _signed_up(h)
    handed = _handed(monkeypatch)
    out = await h.group("1", "/配置 day_minutes = 30")
    assert "配置已更新" in texts(out)
    (ws,) = [ws for ws in handed if ws.delivery]
    (game_op,) = [op for op in ws.ops if op.model.__name__ == "Game"]
    assert "settings" in game_op.fields
    assert (await Game.get(id=g.id)).settings["day_minutes"] == 30
    handed.clear()
    await h.group("33", "/报名 丙")
    game_ops = [op for ws in handed if ws.delivery for op in ws.ops if op.model.__name__ == "Game"]
    assert all("settings" not in op.fields for op in game_ops)
    assert (await Game.get(id=g.id)).settings["day_minutes"] == 30


async def test_a_start_is_one_write_set_and_its_deadline_is_armed(harness, monkeypatch):
    """/开始 (the deal, its role messages, the phase, its deadline and the audit rows) is one write
    set; the new deadline row's key comes back from it and arms the job."""
    from nonebot_plugin_apscheduler import scheduler

    h = harness
    g = await _signed_up(h)
    handed = _handed(monkeypatch)
    out = await h.group("1", "/开始")
    assert len([ws for ws in handed if ws.delivery]) == 1  # (the others: the queue marking sends)
    g = await Game.get(id=g.id)
    assert (g.status, g.phase_key, g.phase_label, g.last_seq) == ("running", "day1", "第1天", 1) and g.started_at
    t = await Timer.get(game_id=g.id, key="phase", status="armed")
    assert scheduler.get_job(f"timer-{t.id}") is not None
    assert await Audit.filter(game_id=g.id, action__in=["start", "phase"]).count() == 2
    assert "你是 1号「甲」" in texts(out) and "你是 2号「乙」" in texts(out) and "游戏开始，第1天。" in texts(out)
    out = await h.group("1", "/推进")  # the held timer row is the stored one: it is updated, not inserted again
    assert "天亮了，第2天" in texts(out)
    assert (await Timer.get(id=t.id)).status == "cancelled"
    assert await Timer.filter(game_id=g.id, status="armed").count() == 1


async def test_a_start_with_a_player_out_writes_everything_together(harness, monkeypatch):
    """An effect beyond answers, phase and timers (here a player out at the start) joins the same
    write set: the roster change, the audit rows, the timer and the state."""
    from plugins.gamekit.contract import Eliminate
    from plugins.kernel.models import Player
    from plugins.kernel.registry import get_kind

    h = harness
    g = await _signed_up(h)
    eng = get_kind(g.kind).engine
    real = eng.start

    def start(roster, ctx):
        out = real(roster, ctx)
        out.effects.append(Eliminate(2, "开局即出局"))
        return out

    monkeypatch.setattr(eng, "start", start)
    await h.group("1", "/开始")
    assert not (await Player.get(game_id=g.id, seat=2)).alive
    assert await Audit.filter(game_id=g.id, action="start").count() == 1
    assert await Timer.filter(game_id=g.id, status="armed").count() == 1
    assert (await Game.get(id=g.id)).status == "running"


@sqlite_only
async def test_a_vote_whose_write_fails_changes_nothing(harness, monkeypatch):
    h = harness
    g = await demo_running(h)
    logged = await CommandLog.filter(game_id=g.id).count()
    _failing_once(monkeypatch)  # the vote's write fails; the error reply after it goes out
    out = await h.group("31", "/票 2")
    assert "机器人出错了" in texts(out) and "投给" not in texts(out)
    stored = await Game.get(id=g.id)
    assert stored.state["votes"] == [] and await CommandLog.filter(game_id=g.id).count() == logged
    assert "投给 1号" in texts(await h.group("32", "/票 1"))
    assert "已投 1 票" in texts(await h.group("31", "/查票"))  # the failed vote left nothing in memory either


@sqlite_only
async def test_a_start_whose_write_fails_changes_nothing(harness, monkeypatch):
    h = harness
    g = await _signed_up(h)
    _failing_once(monkeypatch)
    out = await h.group("1", "/开始")
    assert "机器人出错了" in texts(out)
    assert (await Game.get(id=g.id)).status == "signup"
    assert not await Timer.filter(game_id=g.id).exists() and not await Audit.filter(game_id=g.id, action="start").exists()
    assert not await Outbox.filter(game_id=g.id, text__contains="你是 1号").exists()
    out = await h.group("1", "/开始")
    assert "游戏开始，第1天。" in texts(out)
    assert await Timer.filter(game_id=g.id, status="armed").count() == 1
