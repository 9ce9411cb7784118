"""Small helpers on the state that need the settings (the state's types: ``state.py``)."""

from __future__ import annotations

import plugins.royale.engine.texts as T
from plugins.gamekit.contract import Ctx, Rejected

from .content import Catalog, Rules, Settings
from .state import GEAR, Item, ItemKind, Npc, Player, State

RoyaleCtx = Ctx[Settings]
"""What every rule gets: the time, the game's random generator and its typed settings."""


def new_player(seat: int, alias: str, rules: Rules) -> Player:
    return Player(seat=seat, alias=alias, alive=True, hp=rules.max_hp, st=rules.max_stamina, money=0, place=None,
                  items=[], weapon=None, armour=None, bleed=0, bleed_by=None, rest=False, acted=False, search=None,
                  search_at=None, green_sold=0, held=None, claims=[])


def new_item(state: State, cat: Catalog, name: str) -> Item:
    d = cat.get(name)
    item = Item(id=state.next_id, name=name, kind=d.kind, grade=d.grade, uses=d.uses, used_night=0)
    state.next_id += 1
    return item


def open_places(state: State, settings: Settings) -> list[str]:
    closed = state.closed
    return [p for p in settings.places.names if p not in closed]


def find_own(p: Player, name: str, *, prefer_unequipped: bool = False, prefer_equipped: bool = False) -> Item:
    """The player's item called ``name`` (refuses if none)."""
    name = (name or "").strip()
    hits = [it for it in p.items if it.name == name]
    if not hits:
        raise Rejected(T.NOT_HOLDING.format(name=name))
    if prefer_unequipped or prefer_equipped:
        pick = [it for it in hits if p.is_equipped(it) == prefer_equipped]
        if pick:
            return pick[0]
    return hits[0]


def drop_all(state: State, p: Player | Npc) -> list[Item]:
    """Everything ``p`` holds falls where they stand (vanishes if nowhere)."""
    items = p.empty_hands()
    if p.place is not None and p.place not in state.closed:
        state.ground[p.place].extend(items)
    return items


def heal(p: Player, amount: int, cap: int) -> None:
    """Add HP up to the cap (never lowers HP already above it)."""
    p.hp = max(p.hp, min(cap, p.hp + amount))


def refresh(p: Player, amount: int, cap: int) -> None:
    p.st = max(p.st, min(cap, p.st + amount))


def item_line(cat: Catalog, item: Item) -> str:
    """'竹制长矛（绿色武器 伤害15）'."""
    if item.kind not in GEAR:
        return T.item_text(item.name, item.kind)
    d = cat.items.get(item.name)
    number = None if d is None else d.damage if item.kind == ItemKind.WEAPON else d.reduce
    return T.item_text(item.name, item.kind, cat.grade_label(item.grade or ""), number, item.uses)
