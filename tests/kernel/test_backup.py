"""Backups that lose nothing (plugins/kernel/backup.py, ``bot.py backup`` / ``bot.py restore``):
a copy taken while a vote burst runs holds every vote answered before it began and a bot started on
it carries the game on; a restore checks the file first and changes nothing when it refuses (a
truncated file, not SQLite, another program's database, a bot still on the database); PostgreSQL
goes through pg_dump, and says so when it is missing; the running bot takes and prunes its own."""

import asyncio
import hashlib
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from fake_onebot import ROOT, BotProcess, FakeOneBot, PostgresDatabase, postgres_skip_reason
from pydantic import ValidationError

from plugins.kernel.backup import BackupError, prune, restore, scheduled_backup, take_backup
from plugins.kernel.config import KernelConfig
from plugins.kernel.db import try_lock

GROUP = "884001"
PLAYERS = 88
ROUNDS = 3  # at least; the burst goes on while the backup runs
VOTE = re.compile(r"第 (\d+) 号票")


def _run_bot_py(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "bot.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def _env(url: str, data: Path) -> dict[str, str]:
    return {**BotProcess(data / "x.sqlite3").env, "GAMEHOST__DATABASE_URL": url, "GAMEHOST__DATA_DIR": str(data)}


@pytest.fixture(scope="module")
def bot_db(tmp_path_factory) -> Path:
    """A database of this bot's schema, made by ``bot.py migrate``, with a few rows."""
    folder = tmp_path_factory.mktemp("schema")
    db = folder / "bot.sqlite3"
    r = _run_bot_py("migrate", env=_env(f"sqlite://{db}", folder))
    assert r.returncode == 0, r.stdout + r.stderr
    with sqlite3.connect(db) as con:
        con.executemany("INSERT INTO delivery (key, at) VALUES (?, '2026-01-01 00:00:00+00:00')",
                        [(f"k{i:05d}" * 20,) for i in range(2000)])  # some pages, so a cut-off file is visibly short
    return db


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def live(tmp_path, bot_db) -> Path:
    """The database a restore would replace: a copy of the schema database."""
    target = tmp_path / "data" / "bot.sqlite3"
    target.parent.mkdir()
    take_backup(f"sqlite://{bot_db}", target)
    return target


async def _refused(live: Path, file: Path, needle: str) -> None:
    before = _digest(live)
    with pytest.raises(BackupError) as exc:
        await restore(f"sqlite://{live}", file)
    assert needle in str(exc.value)
    assert _digest(live) == before  # nothing changed
    assert sorted(p.name for p in live.parent.iterdir()) == ["bot.sqlite3", "bot.sqlite3.lock"]


async def test_a_truncated_backup_is_refused(live, tmp_path):
    whole = take_backup(f"sqlite://{live}", tmp_path / "whole.sqlite3")
    cut = tmp_path / "cut.sqlite3"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size * 2 // 3])
    await _refused(live, cut, "不完整")


async def test_a_file_that_is_not_sqlite_is_refused(live, tmp_path):
    junk = tmp_path / "notes.txt"
    junk.write_text("这不是数据库\n" * 100, encoding="utf-8")
    await _refused(live, junk, "不是 SQLite 数据库文件")


async def test_a_damaged_backup_is_refused(live, tmp_path):
    whole = take_backup(f"sqlite://{live}", tmp_path / "whole.sqlite3")
    data = bytearray(whole.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    data[page * 3: page * 3 + 200] = b"\xff" * 200  # a b-tree page scribbled over
    bad = tmp_path / "bad.sqlite3"
    bad.write_bytes(bytes(data))
    await _refused(live, bad, "已损坏")


async def test_a_sqlite_file_of_another_schema_is_refused(live, tmp_path):
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as con:
        con.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        con.execute("INSERT INTO notes (text) VALUES ('hello')")
    con.close()
    await _refused(live, other, "不是本机器人的数据库")


async def test_a_backup_of_a_newer_bot_is_refused(live, tmp_path):
    newer = take_backup(f"sqlite://{live}", tmp_path / "newer.sqlite3")
    with sqlite3.connect(newer) as con:
        con.execute("INSERT INTO tortoise_migrations (app, name, applied_at) VALUES ('kernel', '9999_future', '2030-01-01')")
    con.close()
    await _refused(live, newer, "更新版本")


async def test_restore_refuses_while_the_database_is_held(live, tmp_path):
    copy = take_backup(f"sqlite://{live}", tmp_path / "copy.sqlite3")
    held = try_lock(live)  # what a running bot holds
    assert held is not None
    try:
        await _refused(live, copy, "有机器人进程正在使用数据库")
    finally:
        held.close()
    kept = await restore(f"sqlite://{live}", copy)  # once it is free, the restore goes through
    assert kept is not None and kept.exists()


async def test_restore_keeps_the_database_it_replaces(live, tmp_path):
    copy = take_backup(f"sqlite://{live}", tmp_path / "copy.sqlite3")
    with sqlite3.connect(live) as con:
        con.execute("INSERT INTO delivery (key, at) VALUES ('after-the-backup', '2026-01-02 00:00:00+00:00')")
    con.close()
    kept = await restore(f"sqlite://{live}", copy)
    assert kept is not None
    with sqlite3.connect(kept) as con:
        assert con.execute("SELECT count(*) FROM delivery WHERE key = 'after-the-backup'").fetchone() == (1,)
    con.close()
    with sqlite3.connect(live) as con:
        assert con.execute("SELECT count(*) FROM delivery WHERE key = 'after-the-backup'").fetchone() == (0,)
    con.close()
    assert not list(live.parent.glob("*.restoring*"))


def test_the_command_line_refuses_a_bad_file_with_a_message(live, tmp_path):
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\x00" * 4096)
    before = _digest(live)
    r = _run_bot_py("restore", str(junk), env=_env(f"sqlite://{live}", live.parent))
    assert r.returncode != 0
    assert "拒绝恢复" in r.stdout + r.stderr
    assert _digest(live) == before


def test_backup_on_postgresql_without_pg_dump_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no pg_dump on it
    with pytest.raises(BackupError) as exc:
        take_backup("postgresql://postgres@127.0.0.1:5432/nothing", tmp_path / "x.dump")
    text = str(exc.value)
    assert "没有找到 pg_dump" in text and "pg_dump was not found" in text
    assert not list(tmp_path.iterdir())


@pytest.mark.skipif(postgres_skip_reason() is not None, reason=postgres_skip_reason() or "")
async def test_postgresql_backup_and_restore_through_pg_dump(tmp_path):
    import asyncpg

    async with PostgresDatabase("backup_src") as src, PostgresDatabase("backup_dst") as dst:
        r = await asyncio.to_thread(_run_bot_py, "migrate", env=_env(src, tmp_path))
        assert r.returncode == 0, r.stdout + r.stderr
        con = await asyncpg.connect(src)
        await con.execute("INSERT INTO delivery (key, at) VALUES ('kept', now())")
        await con.close()
        dump = await asyncio.to_thread(take_backup, src, tmp_path / "pg.dump")
        con = await asyncpg.connect(dst)  # a session on the database: the restore refuses
        try:
            with pytest.raises(BackupError, match="别的连接"):
                await restore(dst, dump)
        finally:
            await con.close()
        await restore(dst, dump)
        con = await asyncpg.connect(dst)
        assert await con.fetchval("SELECT count(*) FROM delivery WHERE key = 'kept'") == 1
        await con.close()
        junk = tmp_path / "junk.dump"
        junk.write_bytes(b"nothing")
        with pytest.raises(BackupError, match="不是本机器人的 PostgreSQL 备份"):
            await restore(dst, junk)


def test_backup_settings_are_checked_in_chinese():
    with pytest.raises(ValidationError, match="GAMEHOST__BACKUP_EVERY「6x」"):
        KernelConfig(backup_every="6x")
    with pytest.raises(ValidationError, match="GAMEHOST__BACKUP_KEEP「0」"):
        KernelConfig(backup_keep="0")
    cfg = KernelConfig(backup_every=" 30m ", backup_keep="3")
    assert (cfg.backup_every, cfg.backup_keep) == ("30m", 3)


async def test_the_scheduled_backup_writes_into_the_backups_folder_and_prunes(live, tmp_path):
    folder = Path(os.environ["DATA_DIR"]) / "backups"
    for p in folder.glob("backup-*"):
        p.unlink()
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(4):
        (folder / f"backup-20200101-00000{i}.sqlite3").write_bytes(b"old")
    path = await scheduled_backup(f"sqlite://{live}", 2)
    assert path is not None and path.parent == folder
    left = sorted(p.name for p in folder.iterdir())
    assert left == ["backup-20200101-000003.sqlite3", path.name]
    assert prune(5, folder) == []


async def test_a_backup_taken_during_a_vote_burst_holds_every_answered_vote(tmp_path):
    """The real bot under a burst of private votes; ``bot.py backup`` runs in the middle of it. The
    copy, restored into a fresh folder, holds every vote answered before the backup began, and a bot
    started on it carries the game on. Meanwhile the bot takes and prunes backups of its own."""
    (tmp_path / "live").mkdir()
    fast = {"GAMEHOST__SEND_INTERVAL": "0", "GAMEHOST__SEND_JITTER": "0", "GAMEHOST__GROUP_SEND_INTERVAL": "0",
            "GAMEHOST__BACKUP_EVERY": "1s", "GAMEHOST__BACKUP_KEEP": "2"}
    bp = BotProcess(tmp_path / "live" / "bot.sqlite3", env=fast)
    bp.start()
    ob = FakeOneBot(bp.url)
    restored_bot = None
    try:
        await ob.connect(timeout=60)
        await ob.group_message(GROUP, "1", "/创建 测试局", role="owner")
        await ob.wait_for("开局了")
        players = [str(20001 + i) for i in range(PLAYERS)]
        ob.send_at_once([ob.group_event(GROUP, p, f"/报名 玩家{i + 1}") for i, p in enumerate(players)])
        await ob.wait_for(f"{PLAYERS}号「玩家{PLAYERS}」", timeout=60)
        await ob.group_message(GROUP, "1", "/开始")
        await ob.wait_for("游戏开始", timeout=60)

        def acked() -> set[int]:
            return {int(n) for kind, _, text in ob.sent() if kind == "private" for n in VOTE.findall(text)}

        backed_up = asyncio.Event()
        sent = 0

        async def burst() -> None:  # rounds of 88 votes, on until the backup is over (three at least)
            nonlocal sent
            r = 0
            while r < ROUNDS or not backed_up.is_set():
                for i, p in enumerate(players):
                    await ob.private_message(p, f"/票 {(i + r + 1) % PLAYERS + 1}")
                    sent += 1
                    await asyncio.sleep(0.005)
                r += 1

        sending = asyncio.create_task(burst())
        await ob.wait_for("号票", count=PLAYERS // 2, timeout=60)
        before = acked()  # answered before the backup began
        backup = tmp_path / "during.sqlite3"
        proc = await asyncio.create_subprocess_exec(sys.executable, "bot.py", "backup", str(backup), cwd=ROOT, env=bp.env,
                                                    stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        out = (await proc.communicate())[0].decode()
        backed_up.set()
        assert proc.returncode == 0 and "备份完成" in out, out
        await sending
        await ob.wait_for("号票", count=sent, timeout=120)
        assert len(acked()) == sent  # every vote answered, once

        # a restore onto the running bot's database is refused
        r = await asyncio.to_thread(_run_bot_py, "restore", str(backup), env=bp.env)
        assert r.returncode != 0 and "有机器人进程正在使用数据库" in r.stdout + r.stderr
        assert bp.proc is not None and bp.proc.poll() is None

        # the bot's own backups: taken every second, two kept
        own = tmp_path / "live" / "backups"
        for _ in range(300):
            if len(list(own.glob("backup-*.sqlite3"))) >= 2:
                break
            await asyncio.sleep(0.1)
        assert 1 <= len(list(own.glob("backup-*.sqlite3"))) <= 2

        fresh = tmp_path / "restored" / "bot.sqlite3"
        fresh.parent.mkdir()
        env = {**bp.env, "GAMEHOST__DATABASE_URL": f"sqlite://{fresh}", "GAMEHOST__DATA_DIR": str(fresh.parent)}
        r = await asyncio.to_thread(_run_bot_py, "restore", str(backup), env=env)
        assert r.returncode == 0 and "已恢复" in r.stdout, r.stdout + r.stderr
        with sqlite3.connect(fresh) as con:
            seqs = {s for (s,) in con.execute("SELECT seq FROM command_log WHERE name = 'vote'")}
            (last_seq,) = con.execute("SELECT last_seq FROM game").fetchone()
            (logged,) = con.execute("SELECT MAX(seq) FROM command_log").fetchone()
        con.close()
        assert last_seq == logged, (last_seq, logged)  # the copy's game row and its log agree
        assert before <= seqs  # no answered vote lost
        assert len(seqs) < sent  # a copy of a moment inside the burst: votes went on after it
    finally:
        await ob.close()
        bp.stop()

    restored_bot = BotProcess(fresh, env=fast)
    restored_bot.start()
    ob = FakeOneBot(restored_bot.url)
    try:
        await ob.connect(timeout=60)
        await ob.private_message(players[0], "/查票")
        assert await ob.wait_for(f"已投 {len(seqs)} 票")
        await ob.private_message(players[0], "/票 5")
        (text,) = await ob.wait_for("投给 5号")
        assert int(VOTE.search(text).group(1)) > max(seqs)  # the game goes on from where the copy was
    finally:
        await ob.close()
        restored_bot.stop()
