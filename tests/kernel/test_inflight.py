"""Issue 19 item 3: a game's next command runs its rule while the write of the one before
waits for the database (inflight.py). Nothing is acknowledged early: the answers are rows
of the same writes and leave once written; a write whose predecessor was not written is
not written either, and its sender is asked to send again."""

import asyncio
import re
import sqlite3
import threading
from datetime import datetime, timezone

import pytest
from harness import demo_running, group_payload, sqlite_only, texts
from nonebot.adapters.onebot.v11 import Adapter
from nonebot.message import handle_event
from tortoise import connections

import plugins.kernel.bulk as bulk
from plugins.kernel.bulk import Link, Superseded, WriteFailed
from plugins.kernel.delivery import RESEND
from plugins.kernel.held import _cache
from plugins.kernel.inflight import begin_write
from plugins.kernel.models import Delivery, Game, Outbox
from plugins.kernel.registry import get_kind
from plugins.kernel.statements import insert_statement


class Held:
    """SQLite's connection thread kept busy until ``release``: writes handed in meanwhile wait."""

    async def __aenter__(self) -> "Held":
        self.gate = threading.Event()
        self.busy = asyncio.ensure_future(bulk.on_sqlite_thread(connections.get("default"), lambda raw: self.gate.wait(10)))
        await asyncio.sleep(0.05)
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.gate.set()
        await self.busy


def _send(h, user: str, text: str, **kw) -> asyncio.Future:
    return asyncio.ensure_future(handle_event(h.bot, Adapter.json_to_event(group_payload(h.bot.self_id, h.group_id, user, text, **kw))))


async def _held_votes(game_id: int, want: int) -> int:
    """The votes in the held state once it has ``want`` of them (or after ~2 s)."""
    for _ in range(200):
        n = len(_cache[game_id].game.state.votes) if game_id in _cache else -1
        if n == want:
            return n
        await asyncio.sleep(0.01)
    return n


@sqlite_only
async def test_the_next_vote_is_counted_while_the_last_ones_write_waits_and_both_answers_wait_for_theirs(harness):
    h = harness
    g = await demo_running(h)
    await h.group("31", "/票 2")  # the game is held in memory from here on
    async with Held():
        first, second = _send(h, "32", "/票 1"), _send(h, "31", "/票 1")
        assert await _held_votes(g.id, 3) == 3  # the second's rule ran before the first was written
        assert not first.done() and not second.done()  # each waits for its own write
    await asyncio.gather(first, second)
    assert [v[1] for v in (await Game.get(id=g.id)).state["votes"]] == [1, 2, 1]
    out = texts(await h.drain())
    assert out.index("u32：第") < out.index("u31：第")  # answered in arrival order, once written


@sqlite_only
async def test_a_write_that_fails_takes_the_commands_that_went_on_from_it_along_and_asks_them_again(harness):
    """A repeated delivery of a message acted on before a restart (its key is stored, not
    remembered): its rule runs, the next vote goes on from it; the first write is refused by
    the stored key, the second is not made, its sender is asked to send again, and the game
    is read afresh: nothing of either is left, in the database or in memory."""
    h = harness
    g = await demo_running(h)
    await h.group("31", "/票 2")
    await Delivery.create(key=f"{h.bot.self_id}:g{h.group_id}:777001", at=datetime.now(timezone.utc))
    async with Held():
        repeat, after = _send(h, "32", "/票 1", message_id=777001), _send(h, "31", "/票 1")
        assert await _held_votes(g.id, 3) == 3
    await asyncio.gather(repeat, after)
    assert len((await Game.get(id=g.id)).state["votes"]) == 1
    out = await h.drain()
    assert texts(out) == f"u31：{RESEND}"
    assert "已投 1 票" in texts(await h.group("32", "/查票"))
    assert "投给 1号" in texts(await h.group("31", "/票 1"))
    assert len((await Game.get(id=g.id)).state["votes"]) == 2


@sqlite_only
async def test_a_write_is_made_only_after_and_only_if_the_one_it_follows_was(nonebug_init):
    now = datetime.now(timezone.utc)
    await Delivery.create(key="f-taken", at=now)
    a, b, c = Link(), Link(), Link()
    async with Held():
        fa = begin_write([insert_statement(Delivery, [{"key": "f-taken", "at": now}])], a, None, 1)
        fb = begin_write([insert_statement(Delivery, [{"key": "f-after", "at": now}])], b, a, 1)
        fc = begin_write([insert_statement(Delivery, [{"key": "f-alone", "at": now}])], c, None, 2)
    outcomes = await asyncio.gather(fa, fb, fc, return_exceptions=True)
    assert isinstance(outcomes[0], WriteFailed) and isinstance(outcomes[1], Superseded) and outcomes[2] is None
    assert (a.failed, b.failed, c.failed) == (True, True, False)
    assert not await Delivery.exists(key="f-after") and await Delivery.exists(key="f-alone")


async def test_a_refusal_undone_from_the_database_keeps_the_game_only_if_it_matches_it(harness):
    """Undoing a refused rule without the state of a write handed in reads the row; the rest of
    the held game (its arrival number, phase, roster) is kept only when no write it went on from
    failed and the row is of its arrival number — else the game is read afresh."""
    import plugins.kernel.held as held
    import plugins.kernel.inflight as inflight
    from plugins.kernel.longtexts import Texts

    h = harness
    g = await demo_running(h)
    await h.group("31", "/票 2")
    game = _cache[g.id].game
    stored = (await Game.get(id=g.id)).state
    held._written.pop(g.id, None)
    engine = get_kind(g.kind).engine
    stored = engine.decode(stored)
    assert await inflight.stored_state(game, engine, Texts()) == (stored, True)
    held._written.pop(g.id, None)
    failed = Link()  # a write of this game that was not made
    failed.failed, failed.done = True, asyncio.get_running_loop().create_future()
    failed.done.set_result(None)
    inflight._last[g.id] = failed
    assert await inflight.stored_state(game, get_kind(g.kind).engine, Texts()) == (stored, False)
    held._written.pop(g.id, None)
    game.last_seq += 1  # held ahead of the row
    try:
        assert await inflight.stored_state(game, get_kind(g.kind).engine, Texts()) == (stored, False)
    finally:
        game.last_seq -= 1


@pytest.fixture(autouse=True)
async def _nothing_pending():
    yield
    await Outbox.filter(status="pending").update(status="sent")


async def test_a_message_acted_on_before_a_restart_is_dropped_on_arrival_when_delivered_again(harness):
    """At start-up the keys of the last hour's messages are recalled: delivered again, such a
    message is dropped before any rule runs on it (the held game is not even touched)."""
    from datetime import timedelta

    from plugins.kernel.routing import events

    h = harness
    g = await demo_running(h)
    await h.group("31", "/票 2")
    now = datetime.now(timezone.utc)
    await Delivery.create(key=f"{h.bot.self_id}:g{h.group_id}:777003", at=now - timedelta(minutes=30))
    await events.recall_delivered(now - timedelta(hours=1))
    assert await h.group("32", "/票 1", message_id=777003) == []
    assert g.id in _cache and len(_cache[g.id].game.state.votes) == 1


def _sequences(n: int) -> list[tuple[list[tuple[str, str]], frozenset[int]]]:
    """``n`` drawn sequences of votes and read-only /查票 sent at once, and which of their writes fail."""
    from hypothesis import Phase, given, settings
    from hypothesis import strategies as st

    out: list[tuple[list[tuple[str, str]], frozenset[int]]] = []

    @settings(max_examples=n, derandomize=True, database=None, phases=[Phase.generate], deadline=None)
    @given(cmds=st.lists(st.tuples(st.sampled_from(["31", "32"]), st.sampled_from(["/票 1", "/票 2", "/查票"])),
                         min_size=2, max_size=7),
           fail=st.frozensets(st.integers(0, 6), max_size=2))
    def collect(cmds, fail):
        out.append((cmds, fail))

    collect()
    return out


@sqlite_only
@pytest.mark.parametrize(("cmds", "fail"), _sequences(12))
async def test_what_is_answered_is_what_is_stored(harness, monkeypatch, cmds, fail):
    """Property: commands of one game handed in one after another while SQLite is busy, some of
    their writes failing: a vote is answered as counted exactly when it is stored; the first
    failed vote's sender hears of the error, everyone after it is asked to send again (their
    rules went on from it), a read-only command's failure holds up no one; and the game read
    afterwards is the stored one. (Order of the writes: tests above; this is what users see.)"""
    h = harness
    g = await demo_running(h)
    await h.group("31", "/票 2")  # held from here (with its timers: no command reads the database meanwhile)
    ids = [int(f"77{g.id % 1000:03d}{i:02d}") for i in range(len(cmds))]
    failing = {f"{h.bot.self_id}:g{h.group_id}:{ids[i]}" for i in fail if i < len(cmds)}
    real = bulk._statements

    def injected(raw, stmts, later=None):  # the first write made for each failing message breaks
        keys = {v for st in stmts if st.table == "delivery" for row in st.rows for v in row if isinstance(v, str)}
        if keys & failing:
            failing.difference_update(keys)
            raise WriteFailed(1, sqlite3.IntegrityError("injected"))
        real(raw, stmts, later)

    monkeypatch.setattr(bulk, "_statements", injected)
    async with Held():
        sent = [_send(h, user, text, message_id=mid) for (user, text), mid in zip(cmds, ids)]
        await asyncio.sleep(0.2)
    await asyncio.gather(*sent)
    monkeypatch.setattr(bulk, "_statements", real)
    out = texts(await h.drain())  # (answers queued together for one group leave as one message)
    first = next((i for i in sorted(fail) if i < len(cmds) and cmds[i][1] != "/查票"), len(cmds))
    votes = [i for i in range(first) if cmds[i][1] != "/查票" and i not in fail]
    queries = [i for i in range(first) if cmds[i][1] == "/查票" and i not in fail]
    errors = sum(1 for i in fail if i <= first < len(cmds) or i < first)
    resend = sum(1 for i in range(first + 1, len(cmds)) if i not in fail)  # (in fail: its answer is what breaks)
    stored = (await Game.get(id=g.id)).state["votes"][1:]
    acked = [int(n) for n in re.findall(r"第 (\d+) 号票：投给", out)]
    assert sorted(acked) == [v[3] for v in stored] and len(acked) == len(votes)
    assert out.count("已投") == len(queries)
    assert out.count(RESEND) == resend
    assert out.count("机器人出错了") == errors
    assert f"已投 {len(stored) + 1} 票" in texts(await h.group("32", "/查票"))
