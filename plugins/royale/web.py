"""大逃杀's action page (the seed's players acted on a web page): the player's own
side only — what /背包, /商店 and /状态 would tell them — and buttons for every
night action, sent through the kernel as commands with source "web". What the page
offers follows the bot's own checks (a button the bot would refuse is closed, and the
shop says why); the bot's answers are shown naming the page's buttons (``T.WEB_HINTS``)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any, cast

from plugins.kernel.web.page import View, WebPage, register_page

from .engine import texts as T
from .engine.content import Settings
from .engine.events import claims_text
from .engine.model import item_line
from .engine.rules_cycle import window_length
from .engine.rules_night import local_time
from .engine.state import GEAR, FoundItem, ItemKind, Phase, Player, Searched, Slot, State

SCOUT = (ItemKind.GPS, ItemKind.RADAR)


def _search(p: Player) -> dict[str, Any] | None:
    """What the last search found, as the answer told it (never who a shadow was)."""
    s = p.search
    if s is None:
        return None
    if isinstance(s, FoundItem):
        return {"kind": "item", "name": s.name}
    return {"kind": "someone"}


def found_text(p: Player) -> str:
    s = p.search
    if isinstance(s, FoundItem):
        return T.WEB_FOUND_ITEM.format(name=s.name)
    if s is not None:
        return T.WEB_FOUND_SOMEONE
    if p.searched == Searched.EMPTY:
        return T.WEB_FOUND_EMPTY
    if p.searched == Searched.FOUND:
        return T.WEB_FOUND_USED
    return T.WEB_FOUND_NOT_YET


def night_text(v: View, st: State, settings: Settings, over: bool) -> str:
    """Tonight's real window: the phase deadline (moved by /推进 and /延时), else the usual one."""
    rules = settings.rules
    if over:
        return T.WEB_OVER
    if v.deadline is None:  # paused: no running deadline
        return T.WEB_NIGHT_USUAL.format(start=rules.night_start, end=rules.night_end)
    if st.phase == Phase.NIGHT:
        return T.WEB_NIGHT_UNTIL.format(night=st.day, end=local_time(v.deadline, v.now, v.tz))
    ends: datetime = v.deadline + window_length(rules)
    return T.WEB_NIGHT_NEXT.format(start=local_time(v.deadline, v.now, v.tz), end=local_time(ends, v.now, v.tz))


def buy_refusal(st: State, settings: Settings, p: Player, name: str, price: int) -> str:
    """Why /购买 would be refused now, in the bot's order ("" if it would not)."""
    if not p.alive:
        return T.WEB_BUY_DEAD
    if st.phase != Phase.NIGHT:
        return T.WEB_BUY_DAY
    if p.place is None:
        return T.WEB_BUY_UNBORN
    if p.rest:
        return T.WEB_BUY_RESTING
    if st.shop.get(name, 0) <= 0:
        return T.WEB_BUY_SOLD_OUT
    if p.money < price:
        return T.WEB_BUY_MONEY.format(price=price, money=p.money)
    if len(p.items) >= settings.rules.bag_size:
        return T.WEB_BUY_FULL
    return ""


def view(v: View) -> dict[str, Any]:
    st: State = v.state
    settings = cast(Settings, v.settings)  # the kernel hands the engine's typed settings (``settings_of``)
    cat = settings.catalog
    rules = settings.rules
    closed = st.closed
    over = st.phase == Phase.OVER or v.status == "ended"
    p = st.players.get(v.seat) if v.seat is not None else None
    shop = []
    for name, price in settings.shop.prices.items():
        why = "" if over or p is None else buy_refusal(st, settings, p, name, price)  # (the notice says it is over)
        shop.append({"name": name, "price": price, "left": st.shop.get(name, 0), "why": why})
    out: dict[str, Any] = {
        "day": st.day, "phase": str(st.phase), "over": over, "weather": st.weather,
        "places": [p for p in settings.places.names if p not in closed],
        "closing": [] if over else list(st.closing),
        "shop": shop,
        "search_interval": rules.search_interval_s, "max_hp": rules.max_hp, "max_st": rules.max_stamina,
        "night": night_text(v, st, settings, over),
        "hints": [list(h) for h in T.WEB_HINTS],
        "me": None,
    }
    if p is None:
        return out
    night = st.phase == Phase.NIGHT and not over
    born = p.place is not None
    acting = p.alive and night and born and not p.rest
    when = rules.sell_phase
    sell_now = p.alive and not over and (when == "any" or (when == "day") == (st.phase == Phase.DAY))
    w, a = p.equipped(Slot.WEAPON), p.equipped(Slot.ARMOUR)
    items = []
    for it in p.items:
        slot = "weapon" if it is w else "armour" if it is a else "held" if p.is_equipped(it) else None
        in_hand = slot is not None
        which = rules.sell_which
        sellable = it.kind in GEAR and (which == "any" or (which == "equipped") == in_hand)
        usable = it.kind not in GEAR and (rules.use_from == "any" or in_hand)
        items.append({"id": it.id, "name": it.name, "kind": str(it.kind), "label": item_line(cat, it),
                      "slot": slot, "scout": it.kind in SCOUT, "sellable": sellable, "usable": usable})
    out["me"] = {
        "alive": p.alive, "hp": p.hp, "st": p.st, "money": p.money, "place": p.place,
        "bleed": p.bleed, "rest": p.rest, "items": items, "search": _search(p), "search_at": p.search_at,
        "found": "" if over else found_text(p),
        "claims": T.WEB_CLAIMS.format(claims=claims_text(p)) if p.claims else T.WEB_NO_CLAIMS,
        "can": {
            "birth": p.alive and night and not born and st.day <= rules.birth_deadline_night,
            "move": acting, "search": acting, "rest": acting and not p.acted, "items": acting,
            "attack": acting and p.search is not None and not isinstance(p.search, FoundItem),
            "pickup": acting and isinstance(p.search, FoundItem),
            "sell": sell_now, "claim": p.alive and not over and bool(p.claims),
        },
    }
    return out


PAGE = register_page("royale", WebPage(title=T.WEB_TITLE, static=Path(__file__).with_name("static"), view=view,
                                       words=T.WEB_WORDS))
