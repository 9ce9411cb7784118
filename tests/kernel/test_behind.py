"""A busy game's work runs behind everything else ready on the event loop (issue 19 item 3,
"games never wait for each other"): a royale night's sixty players keep the process busy, and a
vote of another game no longer waits, at each of its steps, for every step of the night's."""

import asyncio

from plugins.kernel import behind
from plugins.kernel.behind import BEHIND
from plugins.kernel.order import ordered, stamp


def _steps(install: bool) -> list[str]:
    """Three busy tasks of three steps each, and one of two steps of another game, all made ready
    at once (a message of each arrived): the order the eleven steps ran in."""
    loop = asyncio.new_event_loop()
    try:
        if install:
            assert behind.install(loop)
        order: list[str] = []

        go = asyncio.Event()

        async def work(name: str, steps: int) -> None:
            await go.wait()
            for _ in range(steps):
                order.append(name)
                await asyncio.sleep(0)

        async def main() -> None:
            night = [loop.create_task(work(f"夜{i}", 3), context=behind.context(True)) for i in range(3)]
            vote = loop.create_task(work("票", 2))
            await asyncio.sleep(0.01)  # everyone waits for a message, the night's players first
            go.set()
            await asyncio.gather(*night, vote)

        loop.run_until_complete(main())
        return order
    finally:
        loop.close()


def test_another_games_steps_go_before_the_busy_games_ready_ones():
    order = _steps(install=True)
    assert order[:2] == ["票", "票"]  # each step at once, none behind the night's
    assert sorted(order) == sorted(["夜0", "夜1", "夜2"] * 3 + ["票"] * 2)  # the night loses no step
    night = [s for s in order if s != "票"]
    assert night == ["夜0", "夜1", "夜2"] * 3  # and keeps its own order


def test_without_the_two_part_queue_the_vote_waits_its_turn():
    order = _steps(install=False)  # asyncio's own order: the vote behind the night's ready steps
    assert order[:4] == ["夜0", "夜1", "夜2", "票"] and order[4] != "票"


def test_a_loop_without_a_ready_deque_keeps_arrival_order():
    class Other:
        _ready = None

    assert behind.install(Other()) is False  # type: ignore[arg-type]


async def test_the_routing_step_is_never_held_behind():
    """Every game's routing waits on one lock: a busy game's message holding it runs ahead."""
    token = BEHIND.set(True)
    try:
        async with ordered(stamp()[0]):
            assert BEHIND.get() is False
        assert BEHIND.get() is True
    finally:
        BEHIND.reset(token)


async def test_a_busy_games_sends_run_behind_and_other_games_do_not(nonebug_init, monkeypatch):
    """The night's sixty answers go out behind a vote's confirmation (outbox.py)."""
    from datetime import datetime, timezone

    from plugins.kernel.config import KernelConfig
    from plugins.kernel.models import Game, Outbox
    from plugins.kernel.outbox import OutboxWorker, enqueue

    await Outbox.filter(status="pending").update(status="sent")
    night = await Game.create(group_id="9301", kind="demo", seed="s", created_by="h")
    votes = await Game.create(group_id="9302", kind="demo", seed="s", created_by="h")
    monkeypatch.setattr(behind, "busy", lambda game_id: game_id == night.id)
    now = datetime(2026, 12, 2, 12, 0, tzinfo=timezone.utc)
    seen: dict[str, bool] = {}

    async def send(self_id, target_type, target_id, text):
        seen[text] = BEHIND.get()

    w = OutboxWorker(KernelConfig(send_interval=0, send_jitter=0, group_send_interval=0), send, clock=lambda: now)
    await enqueue("private", "b1", "行动已记下", game_id=night.id, priority=0, now=now)
    await enqueue("private", "b2", "已投票", game_id=votes.id, priority=0, now=now)
    await w.tick()
    await asyncio.gather(*w.inflight.values())
    assert seen == {"行动已记下": True, "已投票": False}
