"""The operator's two doors, on the bot's own server (guarded by gate.py: loopback, or the token):

- ``GET /healthz``: JSON — the database reachable, the bot's own QQ accounts connected over OneBot,
  the outbound queue's depth and the age of its oldest waiting message; 503 when unhealthy (the
  database unreachable, or no account connected), with what to do in ``problems`` (Chinese).
- ``GET /metrics``: Prometheus' text format (metrics.py).

Neither names a player: the only QQ numbers shown are the bot's own accounts."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse, Response
from nonebot.log import logger
from prometheus_client import CONTENT_TYPE_LATEST
from tortoise import connections

from . import metrics

PROBE_SECONDS = 3.0  # a database that takes longer than this to answer SELECT 1 counts as unreachable


def install(app: FastAPI) -> None:
    app.add_api_route("/healthz", healthz, methods=["GET"], include_in_schema=False)
    app.add_api_route("/metrics", scrape, methods=["GET"], include_in_schema=False)


async def probe_database() -> str | None:
    """None when the database answers; else why not (the error's kind only)."""
    try:
        await asyncio.wait_for(connections.get("default").execute_query("SELECT 1"), PROBE_SECONDS)
    except asyncio.TimeoutError:
        return f"no answer within {PROBE_SECONDS:g} s"
    except Exception as exc:
        return type(exc).__name__
    return None


async def healthz() -> JSONResponse:
    error = await probe_database()
    accounts = metrics.accounts()
    body: dict[str, Any] = {"database": {"ok": error is None}, "accounts": accounts}
    problems = []
    if error is not None:
        body["database"]["error"] = error
        problems.append("数据库无法连接：请检查数据库（PostgreSQL 是否在运行）和 GAMEHOST__DATABASE_URL。")
    else:
        depth, age = await metrics.queue_state()
        body["outbox"] = {"pending": depth, "oldest_wait_seconds": round(age, 3)}
    if not accounts:
        problems.append("没有 QQ 账号连着机器人：请检查 NapCat 是否在线、反向 WebSocket 地址和 token 是否正确。")
    body["status"] = "ok" if not problems else "unhealthy"
    body["problems"] = problems
    return JSONResponse(body, status_code=200 if not problems else 503)


async def scrape() -> Response:
    try:
        await metrics.refresh()
    except Exception as exc:  # the counters are still worth having; the gauges keep their last values
        logger.opt(exception=exc).warning("metrics: reading the gauges from the database failed")
    return Response(metrics.exposition(), media_type=CONTENT_TYPE_LATEST)
