from __future__ import annotations

from pydantic import BaseModel


class Config(BaseModel):
    """Kernel settings, read from the environment / .env (names are case-insensitive)."""

    onebot_http_events: bool = False  # accept OneBot events posted over HTTP (off: reverse WebSocket only)
    max_text_chars: int = 5000  # longest message a player may send (a spec may set its own)
    max_host_text_chars: int = 30000  # longest message of a host command (identity files, score sheets)
    lease_seconds: float = 30.0  # a game whose serving process died is taken over within this time
    # the players' web pages: the public address players reach (e.g. https://games.example.com behind a
    # reverse proxy); empty = no web pages
    web_public_url: str = ""
    database_url: str = "sqlite://data/bot.sqlite3"
    data_dir: str = "data"
    game_timezone: str = "Asia/Shanghai"
    # outbound queue
    send_interval: float = 1.5  # seconds between two private messages
    send_jitter: float = 0.5  # +/- random seconds added to the interval
    group_send_interval: float = 0.6  # seconds between two group messages
    send_max_attempts: int = 5  # per message, then it is given up and hosts are told
    send_backoff: float = 2.0  # first retry delay, doubled each time
    send_pause_after: int = 5  # consecutive failures that pause the whole queue
    send_pause_seconds: float = 120.0
    send_wait: float = 1.0  # a send unanswered this long goes on in the background; others continue
