"""What a game declares to have a web page (pure: no I/O). A game's ``web.py``
registers a :class:`WebPage`; the kernel serves it (``routes.py``). The start's
messages tell the players of it (``with_page_line``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from plugins.gamekit.effects import GROUP, Say


@dataclass(frozen=True)
class View:
    """Everything a page's ``view`` may read: one player's (or host's) side of one game."""

    game_id: int
    status: str  # signup|running|paused|ended
    state: Any
    settings: Any  # the engine's settings (its Settings model)
    kernel_settings: dict[str, Any]  # the game's settings row as stored (room_mode, anon_* …)
    seat: int | None  # None: a host who is not a player
    alias: str
    is_host: bool
    now: datetime
    tz: ZoneInfo
    phase_label: str
    deadline: datetime | None  # the phase deadline


@dataclass(frozen=True)
class WebPage:
    """A game's page: its static folder (``index.html`` + scripts and styles it
    names), the JSON the page shows (``view``), the command words the page may
    send (checked again by the kernel's command table and the engine), and
    whether the game uses it (``enabled``, e.g. prison only with room_mode = "web")."""

    title: str
    static: Path
    view: Callable[[View], dict[str, Any]]
    words: tuple[str, ...]  # command words a page action may use (player side)
    host_words: tuple[str, ...] = ()  # … and a host's
    enabled: Callable[[dict[str, Any]], bool] = lambda settings: True
    live: Callable[[View], list[dict[str, Any]]] | None = None  # lines for the live stream (SSE), if any
    extra: dict[str, Any] = field(default_factory=dict)


PAGES: dict[str, WebPage] = {}


def register_page(kind_key: str, page: WebPage) -> WebPage:
    PAGES[kind_key] = page
    return page


SITE: dict[str, str] = {"url": ""}  # the public address, set when the web layer is installed
START_LINE = "本局有网页：私聊我发送 /网页 获取你的链接和密码。"


def offered(kind_key: str, settings: dict[str, Any]) -> bool:
    """The bot has a public address and this game uses its page."""
    page = PAGES.get(kind_key)
    return bool(SITE["url"]) and page is not None and page.enabled(settings)


def with_page_line(effects: list[Any], kind_key: str, settings: dict[str, Any]) -> list[Any]:
    """The start's effects with ``START_LINE`` at the end of each player's last private message
    (no message added); a game that sends its players none at the start gets it at the end of its
    first group post instead (a line that names nobody)."""
    if not offered(kind_key, settings):
        return effects
    last: dict[str | int, int] = {e.to: i for i, e in enumerate(effects) if isinstance(e, Say) and isinstance(e.to, int)}
    if not last:
        first = next((i for i, e in enumerate(effects) if isinstance(e, Say) and e.to == GROUP), None)
        last = {GROUP: first} if first is not None else {}
    out = list(effects)
    for i in last.values():
        out[i] = replace(out[i], text=out[i].text.rstrip("\n") + "\n" + START_LINE)
    return out
