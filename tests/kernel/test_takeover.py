"""A takeover loses nothing: two processes on one PostgreSQL database, the owner of a game
killed with ``kill -9`` while a host sends one command a second. Until the dead owner's lease
runs out the survivor keeps the game's events; once it takes the game over it applies them in
arrival order, before newer ones. Every command is applied once and answered once."""

import asyncio
import time

import pytest
from fake_onebot import BotProcess, FakeOneBot, PostgresDatabase, postgres_skip_reason

GROUP = "884001"
LEASE = 9.0

pg = pytest.mark.skipif(postgres_skip_reason() is not None, reason=postgres_skip_reason() or "")


def posted(ob: FakeOneBot) -> list[str]:
    return [t for kind, target, t in ob.sent() if kind == "group" and target == GROUP and "【公告】第" in t]


@pg
async def test_no_command_is_lost_when_the_owner_is_killed(tmp_path):
    async with PostgresDatabase("takeover") as url:
        env = {"GAMEHOST__DATABASE_URL": url, "GAMEHOST__LEASE_SECONDS": str(LEASE)}
        procs = [BotProcess(tmp_path / f"p{i}.sqlite3", env=env) for i in range(2)]
        for p in procs:
            p.start()
        try:
            obs = [FakeOneBot(p.url) for p in procs]
            for ob in obs:
                await ob.connect(timeout=60)
            mid = int(time.time() * 1000) % 10**8

            async def both(user: str, text: str, role: str = "member") -> None:
                nonlocal mid
                mid += 1
                for ob in obs:
                    if not ob._ws.close_code:
                        await ob.group_message(GROUP, user, text, role=role, message_id=mid)

            await both("1", "/创建 测试局", role="owner")
            deadline = time.monotonic() + 30
            while not any("开局了" in t for ob in obs for *_, t in ob.sent()):
                assert time.monotonic() < deadline, "no process opened the game"
                await asyncio.sleep(0.1)
            owner = next(i for i, ob in enumerate(obs) if any("开局了" in t for *_, t in ob.sent()))
            other = 1 - owner

            sent = 0
            for _ in range(3):  # served by the owner
                sent += 1
                await both("1", f"/公告 第{sent}条", role="owner")
                await asyncio.sleep(1.0)
            await obs[owner].wait_for("【公告】第3条")
            procs[owner].kill()  # no shutdown: its lease stays until it runs out
            await obs[owner].close()
            # one command a second through the takeover, and three more once the survivor answers
            after = None
            while after is None or sent < after + 3:
                assert sent < 60, "the surviving process never took the game over"
                sent += 1
                await both("1", f"/公告 第{sent}条", role="owner")
                await asyncio.sleep(1.0)
                if after is None and posted(obs[other]):
                    after = sent
            await obs[other].wait_for(f"【公告】第{sent}条", timeout=60)
            await asyncio.sleep(2.0)  # and nothing more comes
            every = posted(obs[owner]) + posted(obs[other])
            counts = {n: sum(1 for t in every if t.endswith(f"【公告】第{n}条")) for n in range(1, sent + 1)}
            assert {n: c for n, c in counts.items() if c != 1} == {}, every
            order = [int(t.split("第")[1].rstrip("条")) for t in posted(obs[other])]
            assert order == sorted(order)  # applied in arrival order
        finally:
            for p in procs:
                p.stop()
