"""Database: the schema is created on first start and an
existing database is upgraded in place when the models change, keeping its
rows — by the documented commands."""

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(repo: Path, db: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "GAMEHOST__DATABASE_URL": f"sqlite://{db}", "PYTHONPATH": str(repo), "LOG_LEVEL": "WARNING"}
    return subprocess.run([sys.executable, "bot.py", *args], cwd=repo, env=env, capture_output=True, text=True, timeout=120)


def _columns(db: Path, table: str) -> list[str]:
    with sqlite3.connect(db) as con:
        return [r[1] for r in con.execute(f"PRAGMA table_info({table})")]


def test_models_have_no_unmigrated_changes(tmp_path):
    r = _run(ROOT, tmp_path / "x.sqlite3", "checkmigrations")
    assert r.returncode == 0, r.stdout + r.stderr


def test_first_start_creates_schema_and_upgrade_keeps_rows(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    shutil.copy(ROOT / "bot.py", repo)
    shutil.copy(ROOT / "pyproject.toml", repo)
    shutil.copytree(ROOT / "plugins", repo / "plugins", ignore=shutil.ignore_patterns("__pycache__"))
    db = tmp_path / "data" / "bot.sqlite3"

    r = _run(repo, db, "migrate")
    assert r.returncode == 0, r.stderr
    assert "seed" in _columns(db, "game")
    with sqlite3.connect(db) as con:
        con.execute(
            "INSERT INTO game (group_id, self_id, kind, status, seed, settings, last_seq, created_by, created_at)"
            " VALUES ('1', '', 'demo', 'running', 's', '{}', 3, 'u', '2026-11-30 00:00:00+00:00')"
        )

    # a developer adds a field, writes the migration, and the host upgrades
    models = repo / "plugins" / "kernel" / "models.py"
    models.write_text(
        models.read_text().replace(
            "    end_reason = fields.TextField(null=True)\n",
            "    end_reason = fields.TextField(null=True)\n    note = fields.TextField(null=True)\n",
            1,
        )
    )
    assert _run(repo, db, "checkmigrations").returncode == 1
    before = set((repo / "plugins" / "kernel" / "migrations").glob("0*.py"))
    r = _run(repo, db, "makemigrations")
    assert r.returncode == 0, r.stderr
    assert len(set((repo / "plugins" / "kernel" / "migrations").glob("0*.py")) - before) == 1
    r = _run(repo, db, "migrate")
    assert r.returncode == 0, r.stderr
    assert "note" in _columns(db, "game")
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT kind, last_seq FROM game").fetchall() == [("demo", 3)]
    assert _run(repo, db, "migrate").returncode == 0  # idempotent


async def test_an_in_memory_sqlite_database_is_refused_at_start():
    """A bot's games must survive an exit, and the store writes through a connection of its own."""
    import pytest

    from plugins.kernel.db import open_db

    with pytest.raises(SystemExit, match="SQLite 数据库要放在文件里"):
        await open_db("sqlite://:memory:")
