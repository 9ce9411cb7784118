"""Kernel settings, read from the environment / .env (names are case-insensitive),
validated at start: a wrong value stops the bot with a message naming it.

They live in one namespace, ``GAMEHOST``: ``GAMEHOST__SEND_INTERVAL=1.5`` (NoneBot's
nested names). The flat names of earlier versions (``SEND_INTERVAL=1.5``) are still
read where the namespaced one is not set, so an old .env keeps working."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from nonebot import get_plugin_config
from pydantic import BaseModel, Field, create_model, field_validator, model_validator

NAMESPACE = "gamehost"


class KernelConfig(BaseModel):
    onebot_http_events: bool = False  # accept OneBot events posted over HTTP (off: reverse WebSocket only)
    ws_compression: bool = False  # permessage-deflate on the OneBot WebSocket (CPU for nothing on one host; on for a far link)
    max_text_chars: int = Field(5000, gt=0)  # longest message a player may send (a spec may set its own)
    max_host_text_chars: int = Field(30000, gt=0)  # longest message of a host command (identity files, sheets)
    lease_seconds: float = Field(30.0, gt=0)  # a game whose serving process died is taken over within this time
    # the players' web pages: the public address players reach (e.g. https://games.example.com behind a
    # reverse proxy); empty = no web pages
    web_public_url: str = ""
    database_url: str = "sqlite://data/bot.sqlite3"
    # files the bot keeps (exports, pictures); empty = nonebot-plugin-localstore's data folder for the
    # kernel (./data/kernel with LOCALSTORE_USE_CWD=true, as .env.example sets)
    data_dir: str = ""
    game_timezone: str = "Asia/Shanghai"
    export_upload_max_mb: float = 50.0  # /导出 uploads files up to this size; larger ones stay on the bot's computer
    # outbound queue
    send_interval: float = Field(1.5, ge=0)  # seconds between two private messages
    send_jitter: float = Field(0.5, ge=0)  # +/- random seconds added to the interval
    group_send_interval: float = Field(0.6, ge=0)  # seconds between two group messages
    send_max_attempts: int = Field(5, gt=0)  # per message, then it is given up and hosts are told
    send_backoff: float = Field(2.0, gt=0)  # first retry delay, doubled each time
    send_pause_after: int = Field(5, gt=0)  # consecutive failures that pause the whole queue
    send_pause_seconds: float = Field(120.0, gt=0)
    send_wait: float = Field(1.0, gt=0)  # a send unanswered this long goes on in the background; others continue
    # backups the running bot takes itself into <data dir>/backups/: how often ("6h", "30m"; empty = never)
    # and how many to keep
    backup_every: str = ""
    backup_keep: int = 8

    @field_validator("game_timezone")
    @classmethod
    def _zone(cls, v: str) -> str:
        try:
            ZoneInfo(v)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"GAMEHOST__GAME_TIMEZONE「{v}」不是有效的时区，例如 Asia/Shanghai") from None
        return v

    @field_validator("backup_every")
    @classmethod
    def _every(cls, v: str) -> str:
        if v.strip() and every_seconds(v) is None:
            raise ValueError(f"GAMEHOST__BACKUP_EVERY「{v}」应写成时长，例如 6h、30m 或 1d；留空表示不自动备份") from None
        return v.strip()

    @field_validator("backup_keep", mode="before")
    @classmethod
    def _keep(cls, v: Any) -> Any:
        try:
            n = int(str(v).strip())
        except ValueError:
            n = 0
        if n < 1:
            raise ValueError(f"GAMEHOST__BACKUP_KEEP「{v}」应是正整数：保留最近几份备份，例如 8") from None
        return n

    @field_validator("database_url")
    @classmethod
    def _db(cls, v: str) -> str:
        if v.split("://", 1)[0] not in ("sqlite", "postgresql", "postgres", "asyncpg"):
            raise ValueError("GAMEHOST__DATABASE_URL 应以 sqlite:// 或 postgresql:// 开头")
        return v


_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def every_seconds(text: str) -> float | None:
    """"6h", "30m", "90s", "1d", "1.5h" as seconds; None when not such a duration (or zero)."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smhd])\s*", text.lower())
    if m is None or float(m.group(1)) <= 0:
        return None
    return float(m.group(1)) * _UNITS[m.group(2)]


class Config(BaseModel):
    """The kernel plugin's config: one namespace (``GAMEHOST__…``) plus the flat names of
    earlier versions, read where the namespaced one is absent."""

    gamehost: KernelConfig = KernelConfig.model_construct()  # replaced by the validator below

    @model_validator(mode="before")
    @classmethod
    def _legacy_flat_names(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        scoped = data.get(NAMESPACE) or {}
        flat = {k: data[k] for k in KernelConfig.model_fields if k in data and k not in scoped}
        return {**data, NAMESPACE: {**flat, **scoped}}


_RAW_FIELDS: dict[str, Any] = {NAMESPACE: (dict[str, Any] | None, None), **{k: (Any, None) for k in KernelConfig.model_fields}}
_RAW = create_model("RawKernelConfig", **_RAW_FIELDS)
"""What NoneBot reads from the environment and .env: both spellings, not yet validated."""


@cache
def kernel_config() -> KernelConfig:
    """The validated kernel settings (read once; NoneBot's config does not change at run time)."""
    raw = get_plugin_config(_RAW).model_dump(exclude_none=True)
    return Config.model_validate(raw).gamehost


def data_dir() -> Path:
    """Where the bot keeps files: GAMEHOST__DATA_DIR if set, else localstore's folder for the kernel."""
    explicit = kernel_config().data_dir
    if explicit:
        return Path(explicit)
    import nonebot_plugin_localstore as store  # loaded by the kernel's require(); see __init__

    return store.get_plugin_data_dir()
