"""大逃杀's action page (the seed's players acted on a web page): the player's own
side only — what /背包, /商店 and /状态 would tell them — and buttons for every
night action, sent through the kernel as commands with source "web"."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

from plugins.kernel.web.page import View, WebPage, register_page

from .engine import texts as T
from .engine.content import Settings
from .engine.events import claims_text
from .engine.model import item_line
from .engine.state import GEAR, FoundItem, ItemKind, Player, Slot, State

SCOUT = (ItemKind.GPS, ItemKind.RADAR)


def _search(p: Player) -> dict[str, Any] | None:
    """What the last search found, as the answer told it (never who a shadow was)."""
    s = p.search
    if s is None:
        return None
    if isinstance(s, FoundItem):
        return {"kind": "item", "name": s.name}
    return {"kind": "someone"}


def view(v: View) -> dict[str, Any]:
    st: State = v.state
    settings = cast(Settings, v.settings)  # the kernel hands the engine's typed settings (``settings_of``)
    cat = settings.catalog
    rules = settings.rules
    closed = st.closed
    out: dict[str, Any] = {
        "day": st.day, "phase": str(st.phase), "weather": st.weather,
        "places": [p for p in settings.places.names if p not in closed],
        "closing": list(st.closing),
        "shop": [{"name": n, "price": price, "left": st.shop.get(n, 0)} for n, price in settings.shop.prices.items()],
        "search_interval": rules.search_interval_s, "max_hp": rules.max_hp, "max_st": rules.max_stamina,
        "night": f"{rules.night_start}–{rules.night_end}",
        "me": None,
    }
    p = st.players.get(v.seat) if v.seat is not None else None
    if p is None:
        return out
    w, a = p.equipped(Slot.WEAPON), p.equipped(Slot.ARMOUR)
    items = []
    for it in p.items:
        slot = "weapon" if it is w else "armour" if it is a else "held" if p.is_equipped(it) else None
        items.append({"id": it.id, "name": it.name, "kind": str(it.kind), "label": item_line(cat, it),
                      "slot": slot, "scout": it.kind in SCOUT, "sellable": it.kind in GEAR})
    out["me"] = {
        "alive": p.alive, "hp": p.hp, "st": p.st, "money": p.money, "place": p.place,
        "bleed": p.bleed, "rest": p.rest, "items": items, "search": _search(p), "search_at": p.search_at,
        "claims": claims_text(p) if p.claims else "",
    }
    return out


PAGE = register_page("royale", WebPage(title=T.WEB_TITLE, static=Path(__file__).with_name("static"), view=view,
                                       words=T.WEB_WORDS))
