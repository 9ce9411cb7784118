"""The players' web pages (off unless ``WEB_PUBLIC_URL`` is set): a personal
link and short password per player and game (``/网页``), sessions, CSRF
tokens, and page actions run as commands with ``source = "web"``. Games
register their page in ``page.PAGES`` (``plugins/<game>/web.py``)."""

from __future__ import annotations

from .page import PAGES, View, WebPage, register_page

__all__ = ["PAGES", "View", "WebPage", "register_page"]
