"""Database start-up: apply migrations (creating the schema on first start),
then open the connection for the handlers.

Tortoise 1.x keeps connections in a context variable; ``Tortoise.init`` runs in
the driver's startup hook, so it must pass ``_enable_global_fallback=True`` or
message handlers fail with "No TortoiseContext is currently active".
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import Any

from tortoise import Tortoise
from tortoise.backends.base.config_generator import expand_db_url
from tortoise.migrations.api import migrate

from . import store
from .store.postgres import PostgresStore
from .store.sqlite import SqliteStore

MODELS = "plugins.kernel.models"
MIGRATIONS = "plugins.kernel.migrations"


SQLITE_WAL_PAGES = 10_000  # ~40 MB of log before SQLite checkpoints inside a commit (its default: 1,000);
# the SQLite store checkpoints between its transactions before that (store/sqlite.py)


def sqlite_file(db_url: str) -> bool:
    """A SQLite database in a file (not in memory): one process, a write-ahead log."""
    return db_url.startswith("sqlite://") and db_url != "sqlite://:memory:"


def tortoise_config(db_url: str) -> dict[str, Any]:
    if sqlite_file(db_url):
        Path(db_url.removeprefix("sqlite://").split("?", 1)[0]).parent.mkdir(parents=True, exist_ok=True)
        if "wal_autocheckpoint=" not in db_url:  # SQLite's own checkpoint rarely: the store checkpoints between writes
            db_url += ("&" if "?" in db_url else "?") + f"wal_autocheckpoint={SQLITE_WAL_PAGES}"
    connection: str | dict[str, Any] = db_url
    if _is_postgres(db_url):
        connection = expand_db_url("asyncpg://" + db_url.split("://", 1)[1])
        connection["credentials"]["connection_class"] = _no_reset_connection()
    return {
        "connections": {"default": connection},
        "apps": {
            "kernel": {
                "models": [MODELS],
                "migrations": MIGRATIONS,
                "default_connection": "default",
            }
        },
        "use_tz": True,
        "timezone": "UTC",
    }


MIGRATION_LOCK = 7_311_042  # pg_advisory_lock key: one process migrates at a time


async def upgrade(db_url: str) -> None:
    """Apply every migration not yet applied (first start: create the schema).
    On PostgreSQL processes starting together take turns under an advisory
    lock, so each finds the schema either untouched or complete."""
    if _is_postgres(db_url):
        import asyncpg

        con = await asyncpg.connect(_pg_dsn(db_url))
        try:
            await con.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
            try:
                await migrate(config=tortoise_config(db_url))
                await Tortoise.close_connections()
            finally:
                await con.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
        finally:
            await con.close()
        return
    await migrate(config=tortoise_config(db_url))
    await Tortoise.close_connections()


@cache
def _no_reset_connection() -> type:
    """asyncpg's connection, handed back to the pool without its reset query (unlock advisory
    locks, close cursors, UNLISTEN, RESET ALL): the kernel keeps no session state on pooled
    connections (the migration lock has a connection of its own), and that query was one more
    round trip for every query (7,800 in a royale night). An open transaction is still rolled
    back: asyncpg does that before asking for the query."""
    import asyncpg

    class Pooled(asyncpg.connection.Connection):
        def get_reset_query(self) -> str:
            return ""

    return Pooled


def _is_postgres(db_url: str) -> bool:
    return db_url.split("://", 1)[0] in ("postgresql", "postgres", "asyncpg")


def _pg_dsn(db_url: str) -> str:
    return "postgresql://" + db_url.split("://", 1)[1]


_sqlite_lock: Any = None


def sqlite_path(db_url: str) -> Path | None:
    """The database file a SQLite URL names, resolved (symlinks, relative to the working folder)
    and without its query (``?synchronous=NORMAL`` names the same file); None when not a file."""
    if not sqlite_file(db_url):
        return None
    return Path(db_url.removeprefix("sqlite://").split("?", 1)[0]).resolve()


def try_lock(path: Path) -> Any:
    """The exclusive lock on ``<database>.lock`` that one bot process (or a restore) holds for a
    SQLite file: the open lock file, or None when another holder has it."""
    import fcntl

    path.parent.mkdir(parents=True, exist_ok=True)
    f = open(str(path) + ".lock", "a+")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.close()
        return None
    return f


def lock_sqlite(db_url: str) -> None:
    """SQLite cannot be shared safely between bot processes: hold an exclusive
    lock on a file beside the database for the life of this process."""
    global _sqlite_lock
    path = sqlite_path(db_url)
    if path is None or _sqlite_lock is not None:
        return
    f = try_lock(path)
    if f is None:
        raise SystemExit(
            f"拒绝启动：另一个机器人进程正在使用数据库 {path}（或正在恢复备份）。SQLite 不能被两个进程同时使用；"
            "要运行多个进程，请改用 PostgreSQL（见 README）。"
        )
    _sqlite_lock = f


async def open_db(db_url: str) -> None:
    if db_url.startswith("sqlite://") and not sqlite_file(db_url):
        raise SystemExit("拒绝启动：SQLite 数据库要放在文件里（例如 DATABASE_URL=sqlite://data/bot.sqlite3），"
                         "内存数据库在退出时会丢掉所有游戏。")
    lock_sqlite(db_url)
    await upgrade(db_url)
    await Tortoise.init(config=tortoise_config(db_url), _enable_global_fallback=True)
    if _is_postgres(db_url):
        store.install(PostgresStore())
    else:
        store.install(SqliteStore(db_url.removeprefix("sqlite://").split("?", 1)[0]))


async def close_db() -> None:
    """Finish the writes handed in, then close."""
    if store.installed():
        await store.current().close()
        store.install(None)
    await Tortoise.close_connections()


def database_url_from_env(default: str) -> str:
    return os.environ.get("DATABASE_URL", default)
