"""The league's page (served when WEB_PUBLIC_URL is set; the same personal link and password
as every game's, by /网页). A player sees their own place and points. A referee (host) also
gets the referees' desk (``engine/desk.py``): the match day's games, a sheet filled in by
taps and checked live by the /录分 rule itself, sent as the ordinary /录分 or /改分."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from plugins.gamekit.contract import Ctx
from plugins.kernel.web.page import View, WebPage, register_page

from .engine import ENGINE, Settings, State
from .engine import texts as T
from .engine.desk import desk_view, open_game, preview
from .engine.rules_views import points_text

HOST_WORDS = tuple(ENGINE.specs[name].words[0] for name in ("score", "rescore"))  # what the desk sends


def _typed(v: View) -> tuple[State, Settings]:
    """The view's state and settings: the engine's models, as the kernel hands them."""
    return v.state, v.settings


def view(v: View) -> dict[str, Any]:
    st, cfg = _typed(v)
    out: dict[str, Any] = {"me": None, "desk": None}
    if v.seat is not None and v.seat in st.players:
        out["me"] = {"info": ENGINE.private_info(st, v.seat, settings=cfg), "points": points_text(st, cfg, v.seat, v.tz)}
    if v.is_host:  # a player never gets the desk (nor its drafts)
        out["desk"] = desk_view(st, cfg)
    return out


def check(v: View, body: dict[str, Any]) -> dict[str, Any]:
    """The desk's live check: what /录分 (or /改分) would answer for the draft; nothing is stored."""
    if not v.is_host:
        return {"ok": False, "errors": [T.DESK_HOSTS_ONLY]}
    st, cfg = _typed(v)
    ctx = Ctx(now=v.now, rng=random.Random(0), seq=0, tz=v.tz, settings=cfg)
    return preview(st, cfg, body.get("draft"), ctx)


def reopen(v: View, body: dict[str, Any]) -> dict[str, Any]:
    """An entered game's sheet as a draft for the desk (to correct with /改分)."""
    if not v.is_host:
        return {"ok": False, "error": T.DESK_HOSTS_ONLY}
    st, cfg = _typed(v)
    return open_game(st, cfg, body.get("game"))


PAGE = register_page("league", WebPage(
    title=T.DESK_TITLE, static=Path(__file__).with_name("static"), view=view, words=(), host_words=HOST_WORDS,
    extra={"api": {"check": check, "open": reopen}},
))
