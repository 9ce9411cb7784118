"""大逃杀's action page (the seed's players acted on a web page): the player's own
side only — what /背包, /商店 and /状态 would tell them — and buttons for every
night action, sent through the kernel as commands with source "web"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from plugins.kernel.web.page import View, WebPage, register_page

from .engine import texts as T
from .engine.content import catalog
from .engine.events import claims_text
from .engine.model import equipped, is_equipped

SCOUT = ("gps", "radar")


def _search(p: dict[str, Any]) -> dict[str, Any] | None:
    """What the last search found, as the answer told it (never who a shadow was)."""
    s = p.get("search")
    if not s:
        return None
    if s["kind"] == "item":
        return {"kind": "item", "name": s["name"]}
    return {"kind": "someone"}


def view(v: View) -> dict[str, Any]:
    st = v.state
    cfg = v.settings
    cat = catalog(cfg)
    rules = cfg["rules"]
    closed = st["closed"]
    out: dict[str, Any] = {
        "day": st["day"], "phase": st["phase"], "weather": st["weather"],
        "places": [p for p in cfg["places"]["names"] if p not in closed],
        "closing": list(st["closing"]),
        "shop": [{"name": n, "price": price, "left": st["shop"].get(n, 0)} for n, price in cfg["shop"]["prices"].items()],
        "search_interval": rules["search_interval_s"], "max_hp": rules["max_hp"], "max_st": rules["max_stamina"],
        "night": f"{rules['night_start']}–{rules['night_end']}",
        "me": None,
    }
    if v.seat is None or str(v.seat) not in st["players"]:
        return out
    p = st["players"][str(v.seat)]
    w, a = equipped(p, "weapon"), equipped(p, "armour")
    items = []
    for it in p["items"]:
        slot = "weapon" if it is w else "armour" if it is a else "held" if is_equipped(p, it) else None
        items.append({"id": it["id"], "name": it["name"], "kind": it["kind"], "label": T.item_line(cat, it),
                      "slot": slot, "scout": it["kind"] in SCOUT,
                      "sellable": it["kind"] in ("weapon", "armour")})
    out["me"] = {
        "alive": p["alive"], "hp": p["hp"], "st": p["st"], "money": p["money"], "place": p["place"],
        "bleed": p["bleed"], "rest": p["rest"], "items": items, "search": _search(p), "search_at": p["search_at"],
        "claims": claims_text(p) if p.get("claims") else "",
    }
    return out


PAGE = register_page("royale", WebPage(title=T.WEB_TITLE, static=Path(__file__).with_name("static"), view=view,
                                       words=T.WEB_WORDS))
