"""Several processes, one PostgreSQL database: both come up
together on a fresh database; each game is served by one of them (the other
neither answers nor sends); when the owner dies the other takes the game over
within a bounded time and applies nothing twice. SQLite refuses a second
process."""

import asyncio
import subprocess
import sys
import time

import pytest
from fake_onebot import ROOT, BotProcess, FakeOneBot, PostgresDatabase, postgres_skip_reason

GROUP = "883001"
LEASE = 3.0

pg = pytest.mark.skipif(postgres_skip_reason() is not None, reason=postgres_skip_reason() or "")


class Both:
    """One QQ account connected to two bot processes (NapCat allows several
    reverse WebSocket clients): every event reaches both."""

    def __init__(self, a: FakeOneBot, b: FakeOneBot):
        self.obs = [a, b]
        self.mid = int(time.time() * 1000) % 10**8

    async def group(self, user: str, text: str, role: str = "member") -> None:
        self.mid += 1
        for ob in self.obs:
            await ob.group_message(GROUP, user, text, role=role, message_id=self.mid)

    async def private(self, user: str, text: str) -> None:
        self.mid += 1
        for ob in self.obs:
            await ob.private_message(user, text, message_id=self.mid)

    def count(self, needle: str) -> list[int]:
        return [len([t for *_, t in ob.sent() if needle in t]) for ob in self.obs]

    async def wait(self, needle: str, total: int = 1, timeout: float = 30) -> list[int]:
        deadline = time.monotonic() + timeout
        while sum(self.count(needle)) < total:
            if time.monotonic() > deadline:
                raise AssertionError(f"never sent {needle!r}: {[ob.sent()[-5:] for ob in self.obs]}")
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.6)  # and nothing more comes
        return self.count(needle)


@pg
async def test_two_processes_share_one_database(tmp_path):
    async with PostgresDatabase("two") as url:
        env = {"GAMEHOST__DATABASE_URL": url, "GAMEHOST__LEASE_SECONDS": str(LEASE)}
        procs = [BotProcess(tmp_path / f"p{i}.sqlite3", env=env) for i in range(2)]
        for p in procs:  # started together on a fresh database: both migrate in turn and come up
            p.start()
        try:
            obs = [FakeOneBot(p.url) for p in procs]
            for ob in obs:
                await ob.connect(timeout=60)
            both = Both(*obs)
            await both.group("1", "/创建 测试局", role="owner")
            assert sum(await both.wait("开局了")) == 1
            await both.group("11", "/报名 甲")
            await both.group("12", "/报名 乙")
            assert sum(await both.wait("2号「乙」")) == 1
            await both.group("1", "/开始")
            await both.wait("游戏开始")
            await both.private("11", "/我的身份")
            assert sum(await both.wait("你是 1号。")) == 1  # private routing: answered once
            await both.group("11", "/票 2")
            counts = await both.wait("投给 2号")
            assert sum(counts) == 1
            owner = counts.index(1)
            other = 1 - owner
            # every message of the game came from its owner
            assert not [t for *_, t in obs[other].sent() if "投给" in t or "开局了" in t or "你是" in t]

            procs[owner].kill()  # the owner dies
            t0 = time.monotonic()
            answered = False
            votes_sent = 0
            while time.monotonic() - t0 < 30:
                await both.obs[other].group_message(GROUP, "12", "/票 1")
                votes_sent += 1
                await asyncio.sleep(1.0)
                if [t for *_, t in obs[other].sent() if "投给 1号" in t]:
                    answered = True
                    break
            assert answered, "the surviving process never took the game over"
            assert time.monotonic() - t0 < 4 * LEASE + 5
            # the game goes on in order: each vote sent meanwhile applied once (kept until the
            # takeover), nothing twice
            await both.obs[other].group_message(GROUP, "11", "/状态")
            await obs[other].wait_for("进行中")
            votes = [line for *_, t in obs[other].sent() for line in t.splitlines() if "投给 1号" in line]
            assert len(votes) == votes_sent
        finally:
            for p in procs:
                p.stop()


@pytest.mark.parametrize("spelling", ["same", "query"])
def test_second_process_on_one_sqlite_file_refuses_to_start(tmp_path, spelling):
    """The lock is taken on the file's real path: a second bot naming the same file another way
    (with a URL query such as ?synchronous=NORMAL) refuses too."""
    first = BotProcess(tmp_path / "bot.sqlite3")
    first.start()
    try:
        deadline = time.monotonic() + 30
        while not (tmp_path / "bot.sqlite3.lock").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1.0)
        second = BotProcess(tmp_path / "bot.sqlite3")
        if spelling == "query":
            second.env["GAMEHOST__DATABASE_URL"] = f"sqlite://{tmp_path / 'bot.sqlite3'}?synchronous=NORMAL"
        r = subprocess.run([sys.executable, "bot.py"], cwd=ROOT, env=second.env, capture_output=True, text=True, timeout=60)
        assert r.returncode != 0
        assert "另一个机器人进程正在使用数据库" in r.stdout + r.stderr
        assert first.proc is not None and first.proc.poll() is None  # the first one is unharmed
    finally:
        first.stop()
