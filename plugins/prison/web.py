"""囚犯游戏's web interrogation room (room_mode = "web"): during the window the two
partners of a room chat live on a page, labelled only 看守 / 囚犯; each line is the
relay's line (the same engine command, the same transcript); outside the window the
page is read-only. The page shows the player's own identity text (/我的身份)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

from plugins.kernel.web.page import View, WebPage, register_page

from .engine import model as m
from .engine import texts as T
from .engine.content import Settings
from .engine.engine import ENGINE
from .engine.model import Pair, Phase, State

LABEL = {T.ROOM_LABEL[kind]: T.KIND[kind] for kind in T.KIND}  # a transcript line's label -> the page's


def _room(v: View) -> tuple[Pair | None, int | None, bool]:
    """The player's room record to show (tonight's, else the last night they had one), the
    night number and whether it is open now."""
    st: State = v.state
    if v.seat is None or v.seat not in st.players:
        return None, None, False
    for night in reversed(st.nights):
        for pair in night.pairs:
            if v.seat in (pair.guard, pair.prisoner):
                open_now = (st.phase is Phase.NIGHT and night is m.current_night(st) and v.status == "running"
                            and m.in_prison(st, pair.guard) and m.in_prison(st, pair.prisoner))
                return pair, night.night, open_now
    return None, None, False


def live(v: View) -> list[dict[str, Any]]:
    pair, _, _ = _room(v)
    if pair is None:
        return []
    return [{"who": LABEL.get(line.from_, line.from_), "mine": line.seat == v.seat, "text": line.text, "at": line.at}
            for line in pair.lines]


def view(v: View) -> dict[str, Any]:
    st: State = v.state
    cfg = cast(Settings, v.settings)  # the engine's typed settings (settings_of), whatever View's annotation says
    pair, night, open_now = _room(v)
    me = ""
    if v.seat is not None and v.seat in st.players and st.phase is not Phase.AUCTION:
        me = LABEL.get(T.ROOM_LABEL[st.players[v.seat].camp], "")
    return {
        "identity": ENGINE.private_info(st, v.seat, settings=cfg) if v.seat is not None else "",
        "me": me, "night": night, "open": open_now, "has_room": pair is not None,
        "window": f"{cfg.rooms_end}–{cfg.night_end}",
        "lines": live(v),
    }


PAGE = register_page("prison", WebPage(
    title=T.WEB_TITLE, static=Path(__file__).with_name("static"), view=view, words=("",),
    enabled=lambda settings: settings.get("room_mode") == "web", live=live,
))
