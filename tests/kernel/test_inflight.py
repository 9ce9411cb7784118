"""A game's next command runs its rule while the write of the one before is on its way to the
database (``unit.py``, ``held.py``). Nothing is acknowledged early: the answers are rows of the
same writes and leave once written; a write whose predecessor was not written is not written
either, and its sender is asked to send again."""

import asyncio
import re
import threading
from datetime import datetime, timezone

import pytest
from harness import demo_running, group_payload, sqlite_only, texts
from nonebot.adapters.onebot.v11 import Adapter
from nonebot.message import handle_event
from tortoise.exceptions import IntegrityError

import plugins.kernel.store.sqlite as sqlite_store
from plugins.kernel import held
from plugins.kernel.models import Delivery, Game
from plugins.kernel.registry import get_kind
from plugins.kernel.store import current
from plugins.kernel.unit import RESEND
from plugins.kernel.writeset import WriteSet


class Held:
    """The store's writer kept busy until the block ends: write sets handed in meanwhile wait."""

    async def __aenter__(self) -> "Held":
        self.store = current()
        self.gate = threading.Event()
        real = self.store._write

        def gated(batch, pragmas):  # on the writer's thread
            self.gate.wait(30)
            return real(batch, pragmas)

        self.store._write = gated
        self.busy = self.store.hand_in(WriteSet())  # the writer now waits at the gate
        await asyncio.sleep(0.05)
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.gate.set()
        await self.busy.done
        del self.store._write


def _send(h, user: str, text: str, **kw) -> asyncio.Future:
    return asyncio.ensure_future(handle_event(h.bot, Adapter.json_to_event(group_payload(h.bot.self_id, h.group_id, user, text, **kw))))


async def _held_votes(game_id: int, want: int) -> int:
    """The votes in the held state once it has ``want`` of them (or after ~2 s)."""
    n = -1
    for _ in range(200):
        h = held.held(game_id)
        n = len(h.game.state.votes) if h is not None else -1
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


async def test_a_refusal_undone_from_the_database_keeps_the_game_only_if_it_matches_it(harness, monkeypatch):
    """Undoing a refused rule without the state of a write handed in reads the row; the rest of
    the held game (its arrival number, phase, roster) is kept only when the row is of its arrival
    number — else the game is read afresh."""
    from dataclasses import replace

    from plugins.gamekit.contract import Rejected

    h = harness
    g = await demo_running(h)
    await h.group("31", "/票 2")
    engine = get_kind(g.kind).engine

    def refuse(s, actor, args, ctx):
        s.votes.clear()
        raise Rejected("不行。")

    monkeypatch.setitem(engine.specs, "vote", replace(engine.specs["vote"], rule=refuse))
    held._written.pop(g.id, None)  # no state of a write handed in: the row is read
    assert "不行。" in texts(await h.group("31", "/票 2"))
    kept = held.held(g.id)
    assert kept is not None and len(kept.game.state.votes) == 1  # undone, and still held
    held._written.pop(g.id, None)
    kept.game.last_seq += 1  # held ahead of the row: it does not match
    assert "不行。" in texts(await h.group("31", "/票 2"))
    assert held.held(g.id) is None  # read afresh next time


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
    kept = held.held(g.id)
    assert kept is not None and len(kept.game.state.votes) == 1


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
    real = sqlite_store._apply

    def injected(conn, ws, now, games):  # the first write made for each failing message breaks
        if ws.delivery in failing:
            failing.discard(ws.delivery)
            raise IntegrityError("injected")
        real(conn, ws, now, games)

    monkeypatch.setattr(sqlite_store, "_apply", injected)
    async with Held():
        sent = [_send(h, user, text, message_id=mid) for (user, text), mid in zip(cmds, ids)]
        await asyncio.sleep(0.2)
    await asyncio.gather(*sent)
    monkeypatch.setattr(sqlite_store, "_apply", real)
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
