"""Game data: the default TOML files, a host's variant merged over them, and
the typed model every variant must fit (one Chinese line per mistake).

Settings are one JSON-compatible dict with the top-level sections of the
content files: ``rules``, ``places``, ``weather``, ``airdrops`` (world.toml),
``grades``, ``weapons``, ``armours``, ``others`` (items.toml), ``shop``
(shop.toml), ``events`` (events.toml) and ``map`` (map.toml).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator

from plugins.gamekit.datafile import HHMM, Data, load_files, merged, problems
from plugins.gamekit.datafile import check as check_data
from plugins.gamekit.settings import per_settings

from . import texts as T

CONTENT_DIR = Path(__file__).resolve().parent.parent / "content"
CONTENT_FILES = ("world.toml", "items.toml", "shop.toml", "events.toml", "map.toml")

GRADES = ("green", "blue", "purple", "orange")
OTHER_KINDS = ("upgrader", "gps", "radar", "broadcast", "bomb", "supply", "money")

Count = Annotated[int, Field(ge=0)]
PosInt = Annotated[int, Field(ge=1)]
Name = Annotated[str, Field(min_length=1)]


class Rules(Data):
    """场所与区域, 生命与体力, 公示, 时限 (world.toml [rules])."""

    night_start: HHMM
    night_end: HHMM
    max_hp: PosInt
    max_stamina: PosInt
    daily_stamina: Count
    rest_hp: Count
    move_cost: Count
    search_cost: Count
    search_interval_s: Count
    fist_damage: Count
    bag_size: PosInt
    birth_deadline_night: PosInt
    sell_phase: Literal["day", "night", "any"]
    rest_move_cost: Count
    sell_which: Literal["equipped", "unequipped", "any"]
    gps_finds: Literal["equipped", "any"]
    use_from: Literal["hand", "any"]
    speech_cards: bool
    min_posts: Count
    test_mode: bool


class Places(Data):
    safe_zone: str = ""
    safe_zone_closes_after_night: PosInt
    names: Annotated[list[Annotated[str, Field(pattern=r"\S")]], Field(min_length=1)]
    closures: Annotated[list[Count], Field(min_length=1)]

    @model_validator(mode="after")
    def _names(self) -> Places:
        keys = [place_key(n) for n in self.names]
        dup = sorted({n for n, k in zip(self.names, keys, strict=True) if keys.count(k) > 1})
        errors = [T.DATA_PLACE_DUP.format(names=T.joined(dup))] if dup else []
        if self.safe_zone and self.safe_zone not in self.names:
            errors.append(T.DATA_SAFE_ZONE.format(place=self.safe_zone))
        problems(errors)
        return self


class Weather(Data):
    name: str
    weight: Count
    see: Annotated[int, Field(ge=0, le=100)]  # % chance a search shows who it found


class Airdrop(Data):
    day: PosInt
    items: list[str] = []


class Grades(Data):
    order: list[str]
    labels: dict[str, str]


class Weapon(Data):
    damage: Count
    uses: Count
    votes: Count
    count: Count
    names: Annotated[list[Name], Field(min_length=1)]


class OrangeWeapon(Weapon):
    splash: Count  # to everyone else in the place, ignoring armour
    bleed: Count  # per night end


class Armour(Data):
    reduce: Count
    uses: Count
    votes: Count
    count: Count
    names: Annotated[list[Name], Field(min_length=1)]


class Weapons(Data):
    green: Weapon
    blue: Weapon
    purple: Weapon
    orange: OrangeWeapon


class Armours(Data):
    green: Armour
    blue: Armour
    purple: Armour
    orange: Armour


class Other(Data):
    name: Name
    kind: Literal["upgrader", "gps", "radar", "broadcast", "bomb", "supply", "money"]
    votes: Count = 0
    count: Count = 0
    max_grade: Literal["blue", "purple", "orange"] | None = None  # upgrader
    damage: Count | None = None  # bomb
    money: PosInt | None = None  # money
    hp: Count = 0  # supply
    stamina: Count = 0
    cure: Literal["none", "instead", "also"] = "none"

    @model_validator(mode="after")
    def _kind_needs(self) -> Other:
        errors: list[str] = []
        if self.kind == "upgrader" and self.max_grade is None:
            errors.append(T.DATA_UPGRADER.format(name=self.name))
        if self.kind == "bomb" and self.damage is None:
            errors.append(T.DATA_BOMB.format(name=self.name))
        if self.kind == "money" and self.money is None:
            errors.append(T.DATA_MONEY.format(name=self.name))
        if self.kind == "supply" and self.hp + self.stamina == 0:
            errors.append(T.DATA_SUPPLY.format(name=self.name))
        problems(errors)
        return self


class Sell(Data):
    green_per_coin: PosInt
    better_price: PosInt


class Grant(Data):
    day: Count
    amount: Count


class Shop(Data):
    prices: dict[str, PosInt] = {}
    daily: dict[str, Count] = {}
    sell: Sell
    grant: Grant

    @model_validator(mode="after")
    def _daily_priced(self) -> Shop:
        problems(T.DATA_DAILY_PRICE.format(name=n) for n in self.daily if n not in self.prices)
        return self


class Event(Data):
    key: Literal["wanted", "comeback", "change", "pilgrimage", "witch", "wind", "leaderboard", "winter", "war", "moon"]
    name: Name
    weight: Count = 0
    min_day: Count = 0
    fixed_day: PosInt | None = None
    post: str = ""
    public_place: bool = False
    hp: PosInt | None = None
    count: PosInt | None = None
    money: Count | None = None
    penalty: Count | None = None
    effect: Count | None = None
    reward_per: PosInt | None = None
    reward: Count | None = None
    top: PosInt | None = None
    crowd: Count | None = None
    bottom_percent: Count | None = None
    over_hp: int | None = None
    under_hp: int | None = None
    exact_hp: int | None = None
    exact_st: int | None = None
    rewards: list[str] = []
    items: list[str] = []
    item: str | None = None
    morning_item: str | None = None
    evening_item: str | None = None
    weather: str | None = None
    first_weather: str | None = None

    def item_names(self) -> list[str]:
        one = [self.item, self.morning_item, self.evening_item]
        return self.rewards + self.items + [n for n in one if n is not None]


class Events(Data):
    per_day: Count
    prefer_new: bool
    no_repeat: bool
    list: list[Event]

    @model_validator(mode="after")
    def _unique(self) -> Events:
        keys = [e.key for e in self.list]
        dups = sorted({k for k in keys if keys.count(k) > 1})
        if dups:
            problems([T.DATA_EVENT_DUP.format(keys=T.joined(dups))])
        return self


class MapPlace(Data):
    name: str
    x: int
    y: int
    adjacent: list[str] = []


class Map(Data):
    columns: PosInt
    rows: PosInt
    places: list[MapPlace]


class Royale(Data):
    """Everything a royale variant holds; cross-references are checked once
    the sections they point into are valid."""

    rules: Rules
    places: Places
    weather: Annotated[list[Weather], Field(min_length=1)]
    grades: Grades
    weapons: Weapons
    armours: Armours
    others: list[Other]
    shop: Shop
    events: Events
    map: Map
    airdrops: list[Airdrop] = []

    @field_validator("weather")
    @classmethod
    def _weights(cls, weather: list[Weather]) -> list[Weather]:
        if sum(w.weight for w in weather) <= 0:
            problems([T.DATA_WEATHER_WEIGHTS])
        return weather

    @staticmethod
    def _items(info: ValidationInfo, others: list[Other] | None = None) -> list[str] | None:
        """Every item name (None while a section of them is invalid)."""
        weapons, armours = info.data.get("weapons"), info.data.get("armours")
        others = others if others is not None else info.data.get("others")
        if weapons is None or armours is None or others is None:
            return None
        return ([n for g in GRADES for n in getattr(weapons, g).names]
                + [n for g in GRADES for n in getattr(armours, g).names] + [o.name for o in others])

    @field_validator("others")
    @classmethod
    def _unique(cls, others: list[Other], info: ValidationInfo) -> list[Other]:
        names = cls._items(info, others) or [o.name for o in others]
        dups: list[str] = []
        for i, n in enumerate(names):
            if n in names[:i] and n not in dups:
                dups.append(n)
        if dups:
            problems([T.DATA_ITEM_DUP.format(names=T.joined(dups))])
        return others

    @field_validator("shop")
    @classmethod
    def _shop(cls, shop: Shop, info: ValidationInfo) -> Shop:
        items = cls._items(info)
        if items is not None:
            known = [*items, T.GREEN_WEAPON, T.GREEN_ARMOUR]
            problems(T.DATA_SHOP_ITEM.format(name=n) for n in shop.prices if n not in known)
        return shop

    @field_validator("events")
    @classmethod
    def _events(cls, events: Events, info: ValidationInfo) -> Events:
        items = cls._items(info)
        weather: list[Weather] | None = info.data.get("weather")
        errors: list[str] = []
        for e in events.list:
            if items is not None:
                errors += [T.DATA_EVENT_ITEM.format(event=e.name, name=n) for n in e.item_names() if n not in items]
            if weather is not None:
                errors += [T.DATA_EVENT_WEATHER.format(event=e.name, weather=w) for w in (e.weather, e.first_weather)
                           if w is not None and w not in [x.name for x in weather]]
        problems(errors)
        return events

    @field_validator("map")
    @classmethod
    def _map(cls, m: Map, info: ValidationInfo) -> Map:
        """Every place drawn once, inside the grid, neighbours both ways."""
        places: Places | None = info.data.get("places")
        if places is None:
            return m
        errors: list[str] = []
        by_name: dict[str, MapPlace] = {}
        cells: dict[tuple[int, int], str] = {}
        for e in m.places:
            if e.name not in places.names:
                errors.append(T.DATA_MAP_UNKNOWN.format(name=e.name))
                continue
            by_name[e.name] = e
            if not (0 <= e.x < m.columns and 0 <= e.y < m.rows):
                errors.append(T.DATA_MAP_OUTSIDE.format(name=e.name, max_x=m.columns - 1, max_y=m.rows - 1))
            elif (e.x, e.y) in cells:
                errors.append(T.DATA_MAP_SAME_CELL.format(name=e.name, other=cells[(e.x, e.y)]))
            else:
                cells[(e.x, e.y)] = e.name
        missing = [p for p in places.names if p not in by_name]
        if missing:
            errors.append(T.DATA_MAP_MISSING.format(names=T.joined(missing)))
        for name, e in by_name.items():
            for other in e.adjacent:
                if other not in by_name:
                    errors.append(T.DATA_MAP_ADJACENT.format(name=name, other=other))
                elif name not in by_name[other].adjacent:
                    errors.append(T.DATA_MAP_ONE_WAY.format(name=name, other=other))
        problems(errors)
        return m

    @field_validator("airdrops")
    @classmethod
    def _airdrops(cls, drops: list[Airdrop], info: ValidationInfo) -> list[Airdrop]:
        items = cls._items(info)
        if items is not None:
            problems(T.DATA_AIRDROP_ITEM.format(day=d.day, name=n) for d in drops for n in d.items if n not in items)
        return drops


def load_defaults() -> dict[str, Any]:
    return load_files(CONTENT_DIR, CONTENT_FILES)


_DEFAULTS = load_defaults()


def defaults() -> dict[str, Any]:
    return copy.deepcopy(_DEFAULTS)


def check(over: dict[str, Any] | None) -> dict[str, Any]:
    """The defaults with the host's variant over them, checked against
    :class:`Royale`; the engine keeps working on the plain dict."""
    cfg = merged(_DEFAULTS, over)
    check_data(Royale, cfg)
    return cfg


def place_key(name: str) -> str:
    """Places compare without spaces and case: "atelier of tales" = "Atelier of Tales"."""
    return "".join(name.split()).casefold()


@dataclass(frozen=True)
class ItemDef:
    name: str
    kind: str  # weapon, armour or one of OTHER_KINDS
    grade: str | None  # for weapons and armours
    data: dict[str, Any]  # the TOML row (damage, reduce, uses, votes, ...)

    @property
    def uses(self) -> int | None:
        n = self.data.get("uses", 0)
        return n or None


class Catalog:
    """Item definitions by name, built from settings."""

    def __init__(self, cfg: dict[str, Any]) -> None:
        self.cfg = cfg
        self.items: dict[str, ItemDef] = {}
        for section, kind in (("weapons", "weapon"), ("armours", "armour")):
            for grade in GRADES:
                row = cfg[section][grade]
                data = {k: v for k, v in row.items() if k != "names"}
                for n in row["names"]:
                    self.items[n] = ItemDef(n, kind, grade, data)
        for row in cfg["others"]:
            self.items[row["name"]] = ItemDef(row["name"], row["kind"], None, dict(row))

    def get(self, name: str) -> ItemDef:
        return self.items[name]

    def names(self, kind: str, grade: str) -> list[str]:
        section = "weapons" if kind == "weapon" else "armours"
        return list(self.cfg[section][grade]["names"])

    def grade_label(self, grade: str) -> str:
        return self.cfg["grades"]["labels"].get(grade, grade)


catalog = per_settings(Catalog)
"""The item catalogue of these settings, built once per settings object (the kernel
hands the same ``ctx.settings`` object to every command of a game)."""
