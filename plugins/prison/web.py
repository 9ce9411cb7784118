"""囚犯游戏's web interrogation room (room_mode = "web"): during the window the two
partners of a room chat live on a page, labelled only 看守 / 囚犯; each line is the
relay's line (the same engine command, the same transcript); outside the window the
page is read-only. The page shows the player's own identity text (/我的身份)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from plugins.kernel.web.page import View, WebPage, register_page

from .engine import ENGINE
from .engine import model as m
from .engine import texts as T

LABEL = {T.ROOM_LABEL[kind]: T.KIND[kind] for kind in T.KIND}  # a transcript line's label -> the page's


def _room(v: View) -> tuple[dict[str, Any] | None, int | None, bool]:
    """The player's room record to show (tonight's, else the last night they had one), the
    night number and whether it is open now."""
    st = v.state
    if v.seat is None or str(v.seat) not in st.get("players", {}):
        return None, None, False
    for night in reversed(st.get("nights", [])):
        for pair in night["pairs"]:
            if v.seat in (pair["guard"], pair["prisoner"]):
                open_now = (st["phase"] == "night" and night is m.current_night(st) and v.status == "running"
                            and m.in_prison(st, pair["guard"]) and m.in_prison(st, pair["prisoner"]))
                return pair, night["night"], open_now
    return None, None, False


def live(v: View) -> list[dict[str, Any]]:
    pair, _, _ = _room(v)
    if pair is None:
        return []
    return [{"who": LABEL.get(line["from"], line["from"]), "mine": line["seat"] == v.seat, "text": line["text"],
             "at": line["at"]} for line in pair["lines"]]


def view(v: View) -> dict[str, Any]:
    st = v.state
    pair, night, open_now = _room(v)
    me = ""
    if v.seat is not None and str(v.seat) in st.get("players", {}) and st.get("phase") != "auction":
        me = LABEL.get(T.ROOM_LABEL.get(m.player(st, v.seat)["kind"], ""), "")
    cfg = v.settings
    return {
        "identity": ENGINE.private_info(st, v.seat, settings=cfg) if v.seat is not None else "",
        "me": me, "night": night, "open": open_now, "has_room": pair is not None,
        "window": f"{cfg.get('rooms_end', '')}–{cfg.get('night_end', '')}",
        "lines": live(v),
    }


PAGE = register_page("prison", WebPage(
    title=T.WEB_TITLE, static=Path(__file__).with_name("static"), view=view, words=("",),
    enabled=lambda settings: settings.get("room_mode") == "web", live=live,
))
