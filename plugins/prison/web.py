"""囚犯游戏's web interrogation room (room_mode = "web"): during the window the two
partners of a room chat live on a page, labelled only 看守 / 囚犯; each line is the
relay's line (the same engine command, the same transcript); outside the window the
page is read-only and says why. Each line shows its time in the game's zone. The page
shows the player's own identity text (/我的身份)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any, cast
from zoneinfo import ZoneInfo

from plugins.kernel.web.page import View, WebPage, register_page

from .engine import model as m
from .engine import texts as T
from .engine.content import Settings
from .engine.engine import ENGINE
from .engine.model import Line, Pair, Phase, State, Status

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


def _line(line: Line, seat: int | None, tz: ZoneInfo) -> dict[str, Any]:
    local = datetime.fromisoformat(line.at).astimezone(tz)
    hhmm = local.strftime("%H:%M")
    return {"who": LABEL.get(line.from_, line.from_), "mine": line.seat == seat, "text": line.text, "at": line.at,
            "time": hhmm, "when": T.WEB_WHEN.format(month=local.month, day=local.day, hhmm=hhmm)}


def live(v: View) -> list[dict[str, Any]]:
    pair, _, _ = _room(v)
    if pair is None:
        return []
    return [_line(line, v.seat, v.tz) for line in pair.lines]


def _read_only(v: View, pair: Pair | None) -> str:
    """Why the room takes no line now."""
    st: State = v.state
    if v.status == "paused":
        return T.WEB_PAUSED
    if v.status == "ended" or st.phase is Phase.OVER:
        return T.WEB_ENDED
    if v.seat is None or v.seat not in st.players:
        return T.WEB_NOT_PLAYER
    status = st.players[v.seat].status
    if status is Status.RELEASED:
        return T.WEB_RELEASED
    if status is not Status.ALIVE:
        return T.WEB_GONE
    if st.phase is not Phase.NIGHT:
        return T.WEB_READ_ONLY
    tonight, partner = m.pair_of(st, v.seat)
    if tonight is None or partner is None:
        return T.WEB_BYE
    if pair is tonight and not m.in_prison(st, partner):
        return T.WEB_PARTNER_GONE
    return T.WEB_READ_ONLY


def view(v: View) -> dict[str, Any]:
    st: State = v.state
    cfg = cast(Settings, v.settings)  # the engine's typed settings (settings_of), whatever View's annotation says
    pair, night, open_now = _room(v)
    me = ""
    if v.seat is not None and v.seat in st.players and st.phase is not Phase.AUCTION:
        me = LABEL.get(T.ROOM_LABEL[st.players[v.seat].camp], "")
    window = f"{cfg.rooms_end}–{cfg.night_end}"
    if open_now:
        state_text = T.WEB_OPEN.format(window=window)
    elif pair is not None:
        state_text = T.WEB_RECORD.format(night=night)
    else:
        state_text = T.WEB_NO_ROOM.format(window=window)
    return {
        "identity": ENGINE.private_info(st, v.seat, settings=cfg) if v.seat is not None else "",
        "me": me, "night": night, "open": open_now, "has_room": pair is not None,
        "window": window, "state": state_text,
        "placeholder": T.WEB_SAY if open_now else _read_only(v, pair),
        "lines": live(v),
    }


PAGE = register_page("prison", WebPage(
    title=T.WEB_TITLE, static=Path(__file__).with_name("static"), view=view, words=("",),
    enabled=lambda settings: settings.get("room_mode") == "web", live=live,
))
