"""Kernel settings, read from the environment / .env (names are case-insensitive),
validated at start: a wrong value stops the bot with a message naming it."""

from __future__ import annotations

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, Field, field_validator


class Config(BaseModel):
    onebot_http_events: bool = False  # accept OneBot events posted over HTTP (off: reverse WebSocket only)
    max_text_chars: int = Field(5000, gt=0)  # longest message a player may send (a spec may set its own)
    max_host_text_chars: int = Field(30000, gt=0)  # longest message of a host command (identity files, sheets)
    lease_seconds: float = Field(30.0, gt=0)  # a game whose serving process died is taken over within this time
    # the players' web pages: the public address players reach (e.g. https://games.example.com behind a
    # reverse proxy); empty = no web pages
    web_public_url: str = ""
    database_url: str = "sqlite://data/bot.sqlite3"
    data_dir: str = "data"
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

    @field_validator("game_timezone")
    @classmethod
    def _zone(cls, v: str) -> str:
        try:
            ZoneInfo(v)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"GAME_TIMEZONE「{v}」不是有效的时区，例如 Asia/Shanghai") from None
        return v

    @field_validator("database_url")
    @classmethod
    def _db(cls, v: str) -> str:
        if v.split("://", 1)[0] not in ("sqlite", "postgresql", "postgres", "asyncpg"):
            raise ValueError("DATABASE_URL 应以 sqlite:// 或 postgresql:// 开头")
        return v
