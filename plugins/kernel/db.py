"""Database start-up: apply migrations (creating the schema on first start),
then open the connection for the handlers.

Tortoise 1.x keeps connections in a context variable; ``Tortoise.init`` runs in
the driver's startup hook, so it must pass ``_enable_global_fallback=True`` or
message handlers fail with "No TortoiseContext is currently active".
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tortoise import Tortoise
from tortoise.migrations.api import migrate

MODELS = "plugins.kernel.models"
MIGRATIONS = "plugins.kernel.migrations"


def tortoise_config(db_url: str) -> dict[str, Any]:
    if db_url.startswith("sqlite://") and db_url != "sqlite://:memory:":
        Path(db_url.removeprefix("sqlite://")).parent.mkdir(parents=True, exist_ok=True)
    if db_url.startswith("postgresql://") or db_url.startswith("postgres://"):
        db_url = "asyncpg://" + db_url.split("://", 1)[1]
    return {
        "connections": {"default": db_url},
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


async def upgrade(db_url: str) -> None:
    """Apply every migration not yet applied (first start: create the schema)."""
    await migrate(config=tortoise_config(db_url))
    await Tortoise.close_connections()


async def open_db(db_url: str) -> None:
    await upgrade(db_url)
    await Tortoise.init(config=tortoise_config(db_url), _enable_global_fallback=True)


async def close_db() -> None:
    await Tortoise.close_connections()


def database_url_from_env(default: str) -> str:
    return os.environ.get("DATABASE_URL", default)
