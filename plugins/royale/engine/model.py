"""State shape and small helpers. State is plain JSON (dicts keyed by str seat).

state = {
  "day": int, "phase": "day" | "night" | "over",
  "players": {"<seat>": Player}, "closed": [place], "closing": [place],
  "ground": {place: [Item]}, "next_id": int, "weather": str, "see": int,
  "shop": {name: count}, "deaths": [Death], "batch": int,
  "airdrops": [name], "broadcasts": [{"by", "place", "target"}],
  "published": {"<seat>": [day]}, "result": None | {"winner": seat | None},
}
Player = {seat, alias, alive, hp, st, money, place, items: [Item], weapon, armour, held,
          bleed, bleed_by, rest, acted, search, search_at, green_sold, claims}
  (hands: weapon, armour and held — a non-gear item taken in hand — at most 2 set)
Npc = {npc: True, id, kind ("witch" | "werewolf"), name, alive, hp, place, items, weapon,
       armour, held, bleed, bleed_by, damage: [[seat, dmg]], day}
Event state (engine/events.py): event, event_log, event_plan, moon, npcs, npc_deaths,
  night_log, witch_guests, witch_turn, holy, landed, posts, misses, host_log, test
Item = {id, name, kind, grade, uses, used_night}
Death = {seat, night, cause, killer, batch}
"""

from __future__ import annotations

from typing import Any

from plugins.gamekit.contract import Rejected, copy_state

from . import texts as T
from .content import Catalog, place_key

State = dict[str, Any]
Player = dict[str, Any]
Item = dict[str, Any]

def new_player(seat: int, alias: str, rules: dict[str, Any]) -> Player:
    return {
        "seat": seat, "alias": alias, "alive": True,
        "hp": rules["max_hp"], "st": rules["max_stamina"], "money": 0,
        "place": None, "items": [], "weapon": None, "armour": None,
        "bleed": 0, "bleed_by": None, "rest": False, "acted": False,
        "search": None, "search_at": None, "green_sold": 0, "held": None, "claims": [],
    }


EXTRA_STATE: dict[str, Any] = {
    "today": [], "event_log": [], "event_plan": {"force": None, "forbid": []}, "moon": False,
    "npcs": [], "npc_seq": 0, "npc_deaths": [], "night_log": {"hits": [], "attackers": [], "holy": []},
    "witch_guests": None, "witch_turn": 0, "holy": None, "landed": [], "posts": {}, "misses": {},
    "host_log": [],
}


def is_test(cfg: dict[str, Any]) -> bool:
    """A 测试赛 (rules.test_mode, fixed at /开始 like every setting)."""
    return bool(cfg["rules"]["test_mode"])


def ensure(state: State) -> State:
    """Fill keys added after a game started (older states keep working); drop the copies of
    settings older versions kept ("test", "map": the settings say it)."""
    state.pop("test", None)
    state.pop("map", None)
    for key, value in EXTRA_STATE.items():
        if key not in state:
            state[key] = copy_state(value)
    for p in state["players"].values():
        p.setdefault("held", None)
        p.setdefault("claims", [])
    return state


def new_item(state: State, cat: Catalog, name: str) -> Item:
    d = cat.get(name)
    item = {"id": state["next_id"], "name": name, "kind": d.kind, "grade": d.grade,
            "uses": d.uses, "used_night": 0}
    state["next_id"] += 1
    return item


def player(state: State, seat: int) -> Player:
    return state["players"][str(seat)]


def seats(state: State) -> list[int]:
    return sorted(int(s) for s in state["players"])


def alive(state: State) -> list[Player]:
    return [player(state, s) for s in seats(state) if player(state, s)["alive"]]


def open_places(state: State, cfg: dict[str, Any]) -> list[str]:
    closed = state["closed"]
    return [p for p in cfg["places"]["names"] if p not in closed]


def find_place(cfg: dict[str, Any], text: str) -> str | None:
    key = place_key(text or "")
    for p in cfg["places"]["names"]:
        if place_key(p) == key:
            return p
    return None


def people_at(state: State, place: str, *, exclude: int | None = None) -> list[Player]:
    return [p for p in alive(state) if p["place"] == place and p["seat"] != exclude]


def find_own(p: Player, name: str, *, prefer_unequipped: bool = False, prefer_equipped: bool = False) -> Item:
    """The player's item called ``name`` (refuses if none)."""
    name = (name or "").strip()
    hits = [it for it in p["items"] if it["name"] == name]
    if not hits:
        raise Rejected(T.NOT_HOLDING.format(name=name))
    if prefer_unequipped or prefer_equipped:
        pick = [it for it in hits if is_equipped(p, it) == prefer_equipped]
        if pick:
            return pick[0]
    return hits[0]


def is_equipped(p: Player, item: Item) -> bool:
    """In hand: the weapon, the armour or a held non-gear item."""
    return item["id"] in (p["weapon"], p["armour"], p.get("held"))


def hands_used(p: Player) -> int:
    return sum(1 for slot in ("weapon", "armour", "held") if p.get(slot) is not None)


def remove_item(p: Player, item: Item) -> None:
    p["items"] = [it for it in p["items"] if it["id"] != item["id"]]
    for slot in ("weapon", "armour", "held"):
        if p.get(slot) == item["id"]:
            p[slot] = None


def equipped(p: Player, slot: str) -> Item | None:
    ident = p.get(slot)
    for it in p["items"]:
        if it["id"] == ident:
            return it
    return None


def drop_all(state: State, p: Player) -> list[Item]:
    """Everything the player holds falls where they stand (vanishes if nowhere)."""
    items = p["items"]
    p["items"], p["weapon"], p["armour"], p["held"] = [], None, None, None
    if p["place"] is not None and p["place"] not in state["closed"]:
        state["ground"][p["place"]].extend(items)
    return items


def npcs_at(state: State, place: str) -> list[dict[str, Any]]:
    return [n for n in state.get("npcs", []) if n["alive"] and n["place"] == place]


def npc(state: State, ident: str) -> dict[str, Any]:
    return next(n for n in state["npcs"] if n["id"] == ident)


def heal(p: dict[str, Any], amount: int, cap: int) -> None:
    """Add HP up to the cap (never lowers HP already above it)."""
    p["hp"] = max(p["hp"], min(cap, p["hp"] + amount))


def refresh(p: dict[str, Any], amount: int, cap: int) -> None:
    p["st"] = max(p["st"], min(cap, p["st"] + amount))
