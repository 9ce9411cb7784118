"""Backups that lose nothing, and restores that check first.

``take_backup`` writes a consistent copy while the bot runs. SQLite: the online backup API on a
connection of its own (one step, so one snapshot under one read transaction; in WAL mode the bot's
writes go on beside it) into ``<name>.part``, flushed to disk, then renamed. PostgreSQL:
``pg_dump`` in its custom format.

``restore`` refuses while a bot serves the database (SQLite: the bot's own lock on the file, held
for the whole restore, so no bot starts meanwhile; PostgreSQL: any other connection) and checks
the file first (SQLite: its header, its length, ``PRAGMA integrity_check``, this bot's tables and
no migration this code does not know) in a temporary file beside the database, renamed into place
only once every check passed. The database it replaces is kept beside it, never deleted.

With ``GAMEHOST__BACKUP_EVERY`` the running bot takes backups itself into ``<data dir>/backups/``
and keeps the newest ``GAMEHOST__BACKUP_KEEP``."""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import struct
import subprocess
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from nonebot.log import logger
from nonebot_plugin_apscheduler import scheduler

from .config import KernelConfig, data_dir, every_seconds
from .db import sqlite_path, try_lock

HEADER = b"SQLite format 3\x00"
TABLES = frozenset({"game", "host", "player", "timer", "command_log", "outbox", "delivery", "tortoise_migrations"})
"""Tables every database of this bot has (a file without them is another program's)."""
MIGRATIONS = Path(__file__).parent / "migrations"
PREFIX = "backup-"
JOB = "kernel-backup"

NO_PG_DUMP = (
    "备份失败：没有找到 pg_dump。PostgreSQL 数据库的备份要用它：请安装 PostgreSQL 客户端"
    "（Debian/Ubuntu：apt-get install postgresql-client；版本不低于数据库服务器），再重试。\n"
    "Backup failed: pg_dump was not found. Install the PostgreSQL client tools (no older than the server) and retry."
)
NO_PG_RESTORE = (
    "恢复失败：没有找到 pg_restore。请安装 PostgreSQL 客户端（apt-get install postgresql-client），再重试。\n"
    "Restore failed: pg_restore was not found. Install the PostgreSQL client tools and retry."
)


class BackupError(Exception):
    """A backup or restore that did not happen; the text says why and what to do (Chinese first)."""


def backup_dir() -> Path:
    return data_dir() / "backups"


def _stamp() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")


def default_file(db_url: str) -> Path:
    """A new file in the backups folder, named by the time (UTC)."""
    suffix = ".sqlite3" if sqlite_path(db_url) else ".dump"
    folder = backup_dir()
    path = folder / f"{PREFIX}{_stamp()}{suffix}"
    n = 2
    while path.exists():
        path = folder / f"{PREFIX}{_stamp()}-{n}{suffix}"
        n += 1
    return path


def take_backup(db_url: str, dest: Path | None = None) -> Path:
    """Write a consistent copy of the database to ``dest`` (default: a new file in the backups
    folder); returns where it is. Safe while the bot runs."""
    dest = Path(dest) if dest is not None else default_file(db_url)
    dest.parent.mkdir(parents=True, exist_ok=True)
    src = sqlite_path(db_url)
    if src is not None:
        _backup_sqlite(src, dest)
    elif db_url.startswith("sqlite://"):
        raise BackupError("内存里的 SQLite 数据库（sqlite://:memory:）无法备份。\nAn in-memory database cannot be backed up.")
    else:
        _backup_postgres(db_url, dest)
    return dest


def _backup_sqlite(src: Path, dest: Path) -> None:
    if not src.is_file():
        raise BackupError(f"备份失败：数据库文件 {src} 不存在。请检查 GAMEHOST__DATABASE_URL。\nBackup failed: no database file {src}.")
    part = dest.with_name(dest.name + ".part")
    part.unlink(missing_ok=True)
    source = sqlite3.connect(str(src), timeout=30)
    target = sqlite3.connect(str(part))
    try:
        source.backup(target)  # every page in one step: one snapshot, whatever the bot writes meanwhile
    finally:
        target.close()
        source.close()
    _flush(part)
    os.replace(part, dest)
    _flush(dest.parent)


def _flush(path: Path) -> None:
    """fsync a file, or a folder after a rename in it."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _pg(db_url: str) -> tuple[str, dict[str, str]]:
    """A libpq address for the PostgreSQL tools (without the password, which goes in PGPASSWORD
    so that no process list shows it, and without Tortoise's query options), and their environment."""
    u = urlsplit(db_url)
    host = u.hostname or "127.0.0.1"
    netloc = (f"{unquote(u.username)}@" if u.username else "") + (f"[{host}]" if ":" in host else host)
    if u.port:
        netloc += f":{u.port}"
    env = dict(os.environ)
    if u.password:
        env["PGPASSWORD"] = unquote(u.password)
    return f"postgresql://{netloc}{u.path}", env


def _backup_postgres(db_url: str, dest: Path) -> None:
    exe = shutil.which("pg_dump")
    if exe is None:
        raise BackupError(NO_PG_DUMP)
    dsn, env = _pg(db_url)
    part = dest.with_name(dest.name + ".part")
    r = subprocess.run([exe, "--format=custom", f"--file={part}", f"--dbname={dsn}"], env=env,
                       capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if r.returncode != 0:
        part.unlink(missing_ok=True)
        raise BackupError(f"备份失败：pg_dump 退出码 {r.returncode}：{r.stderr.strip()[:500]}\nBackup failed: pg_dump exited with {r.returncode}.")
    _flush(part)
    os.replace(part, dest)
    _flush(dest.parent)


def prune(keep: int, folder: Path | None = None) -> list[Path]:
    """Delete all but the newest ``keep`` backups in the backups folder; returns what went."""
    folder = folder or backup_dir()
    found = sorted(p for p in folder.glob(f"{PREFIX}*") if p.suffix in (".sqlite3", ".dump") and p.is_file())
    gone = found[:-keep] if keep > 0 else []
    for p in gone:
        p.unlink(missing_ok=True)
    return gone


# ---- restore ---------------------------------------------------------------------------------


async def restore(db_url: str, file: Path) -> Path | None:
    """Put the backup ``file`` in place of the database; returns where the replaced database was
    kept (None when there was none). Refuses, changing nothing, while a bot serves the database
    or when the file is not a whole backup of this bot's database."""
    file = Path(file)
    if not file.is_file():
        raise BackupError(f"恢复失败：找不到备份文件 {file}。\nRestore failed: no such file {file}.")
    target = sqlite_path(db_url)
    if target is not None:
        return await asyncio.to_thread(restore_sqlite, file, target)
    if db_url.startswith("sqlite://"):
        raise BackupError("内存里的 SQLite 数据库无法恢复。\nAn in-memory database cannot be restored.")
    await restore_postgres(db_url, file)
    return None


def restore_sqlite(file: Path, target: Path) -> Path | None:
    lock = try_lock(target)
    if lock is None:
        raise BackupError(
            f"拒绝恢复：有机器人进程正在使用数据库 {target}。请先停止机器人（systemctl stop qq-game-host，"
            "或 docker compose stop bot），再恢复。\nRefused: a bot is running on this database; stop it first."
        )
    tmp = target.with_name(target.name + ".restoring")
    try:
        _remove(tmp)
        try:
            check_sqlite_file(file)
            shutil.copyfile(file, tmp)
            check_sqlite_db(tmp)
            _flush(tmp)
        except BaseException:
            _remove(tmp)
            raise
        kept = None
        if target.exists():  # kept with its write-ahead log: the two stay a valid pair
            kept = target.with_name(f"{target.name}.before-restore-{_stamp()}")
            os.replace(target, kept)
            if Path(f"{target}-wal").exists():
                os.replace(f"{target}-wal", f"{kept}-wal")
        Path(f"{target}-shm").unlink(missing_ok=True)
        os.replace(tmp, target)
        _flush(target.parent)
        return kept
    finally:
        lock.close()


def _remove(db: Path) -> None:
    for p in (db, Path(f"{db}-wal"), Path(f"{db}-shm"), Path(f"{db}-journal")):
        p.unlink(missing_ok=True)


def check_sqlite_file(file: Path) -> None:
    """The file starts as a SQLite database and is as long as its header says."""
    with open(file, "rb") as f:
        head = f.read(100)
    size = file.stat().st_size
    if len(head) < 100 or not head.startswith(HEADER):
        raise BackupError(f"拒绝恢复：{file} 不是 SQLite 数据库文件（也不是本机器人的备份）。请换一个备份文件。\n"
                          "Refused: not a SQLite database file.")
    page = struct.unpack(">H", head[16:18])[0]
    page = 65536 if page == 1 else page
    pages, counter, valid_for = (struct.unpack(">I", head[i:i + 4])[0] for i in (28, 24, 92))
    if pages and counter == valid_for and size < pages * page:
        raise BackupError(f"拒绝恢复：备份文件 {file} 不完整（{size} 字节，应有 {pages * page} 字节），可能被截断。"
                          "请换一个完整的备份。\nRefused: the file is truncated.")


def check_sqlite_db(path: Path) -> None:
    """Integrity and schema: this bot's tables, and no migration newer than this code knows."""
    con = sqlite3.connect(str(path))
    try:
        result = [r[0] for r in con.execute("PRAGMA integrity_check").fetchall()]
        if result != ["ok"]:
            raise BackupError(f"拒绝恢复：备份文件已损坏（integrity_check：{'；'.join(map(str, result[:3]))}）。"
                              "请换一个备份。\nRefused: the file fails SQLite's integrity check.")
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        missing = sorted(TABLES - tables)
        if missing:
            raise BackupError(f"拒绝恢复：这不是本机器人的数据库（缺少表 {'、'.join(missing)}）。请换一个本机器人的备份。\n"
                              "Refused: a SQLite database of another schema.")
        applied = {r[0] for r in con.execute("SELECT name FROM tortoise_migrations WHERE app = 'kernel'")}
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"拒绝恢复：备份文件已损坏，无法读取（{exc}）。请换一个备份。\nRefused: the file cannot be read: {exc}") from None
    finally:
        con.close()
    newer = sorted(applied - known_migrations())
    if newer:
        raise BackupError(f"拒绝恢复：这份备份来自更新版本的机器人（迁移 {'、'.join(newer)}）。请先升级机器人，再恢复。\n"
                          "Refused: the backup is of a newer version of the bot.")


def known_migrations() -> set[str]:
    return {p.stem for p in MIGRATIONS.glob("[0-9]*.py")}


async def restore_postgres(db_url: str, file: Path) -> None:
    exe = shutil.which("pg_restore")
    if exe is None:
        raise BackupError(NO_PG_RESTORE)
    dsn, env = _pg(db_url)
    listing = await asyncio.to_thread(subprocess.run, [exe, "--list", str(file)], capture_output=True, text=True,
                                      stdin=subprocess.DEVNULL)
    if listing.returncode != 0 or not all(f" TABLE public {t} " in listing.stdout for t in ("game", "outbox", "tortoise_migrations")):
        raise BackupError(f"拒绝恢复：{file} 不是本机器人的 PostgreSQL 备份（pg_dump 的自定义格式）。请换一个备份。\n"
                          "Refused: not a pg_dump backup of this bot's database.")
    import asyncpg

    con = await asyncpg.connect(db_url.replace("asyncpg://", "postgresql://", 1).split("?", 1)[0])
    try:
        others = await con.fetchval("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
        if others:
            raise BackupError("拒绝恢复：还有别的连接（机器人进程？）连着这个数据库。请先停止所有机器人进程，再恢复。\n"
                              "Refused: other sessions are connected to the database; stop every bot first.")
        r = await asyncio.to_thread(subprocess.run, [exe, "--clean", "--if-exists", "--no-owner", "--single-transaction",
                                                     f"--dbname={dsn}", str(file)], env=env, capture_output=True, text=True,
                                    stdin=subprocess.DEVNULL)
    finally:
        await con.close()
    if r.returncode != 0:
        raise BackupError(f"恢复失败：pg_restore 退出码 {r.returncode}，数据库没有改动：{r.stderr.strip()[:500]}\n"
                          "Restore failed; the database was not changed (single transaction).")


# ---- the running bot's own backups -----------------------------------------------------------


def schedule_backups(cfg: KernelConfig) -> bool:
    """Take a backup every ``backup_every`` (off when empty), keeping the newest ``backup_keep``."""
    seconds = every_seconds(cfg.backup_every)
    if seconds is None:
        return False
    scheduler.add_job(scheduled_backup, "interval", seconds=seconds, id=JOB, replace_existing=True,
                      coalesce=True, max_instances=1, misfire_grace_time=None, args=[cfg.database_url, cfg.backup_keep])
    return True


async def scheduled_backup(db_url: str, keep: int) -> Any:
    try:
        path = await asyncio.to_thread(take_backup, db_url)
        gone = await asyncio.to_thread(prune, keep)
    except Exception as exc:
        logger.opt(exception=exc).error(f"自动备份失败（scheduled backup failed）：{exc}")
        return None
    logger.info(f"自动备份完成：{path}（backup written; {len(gone)} old one(s) removed）")
    return path
