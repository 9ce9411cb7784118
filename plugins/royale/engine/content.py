"""The game's settings: the typed model every variant must fit (one Chinese line per mistake).

The default settings are the content files merged (``CONTENT``, loaded by gamekit's one
loader): ``rules``, ``places``, ``weather``, ``airdrops`` (world.toml), ``grades``, ``weapons``,
``armours``, ``others`` (items.toml), ``shop`` (shop.toml), ``events`` (events.toml) and ``map``
(map.toml). A host's /配置 is merged over them and the whole is checked by :class:`Settings`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, SerializerFunctionWrapHandler, ValidationInfo, field_validator, model_serializer, model_validator

import plugins.royale.engine.texts as T
from plugins.gamekit.datafile import HHMM, Content, Data, problems
from plugins.gamekit.settings import GameSettings

from .state import EventKey, Grade, ItemKind

CONTENT_DIR = Path(__file__).resolve().parent.parent / "content"
CONTENT_FILES = ("world.toml", "items.toml", "shop.toml", "events.toml", "map.toml")
CONTENT = Content(CONTENT_DIR, CONTENT_FILES)

Count = Annotated[int, Field(ge=0)]
PosInt = Annotated[int, Field(ge=1)]
Name = Annotated[str, Field(min_length=1)]


def as_given(model: Data | GameSettings, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
    """The fields a model was given, serialised (what the kernel stores is then what the content
    files and the host wrote, as before: no defaults, no nulls, read back the same from TOML)."""
    data = handler(model)
    return {k: v for k, v in data.items() if k in model.model_fields_set}


class Section(Data):
    """A part of the settings (stored as given)."""

    @model_serializer(mode="wrap")
    def _as_given(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return as_given(self, handler)


class Rules(Section):
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
    speech_cards_short_day: bool = False  # also card a day the host closed before its deadline
    test_mode: bool


class Places(Section):
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


class Weather(Section):
    name: str
    weight: Count
    see: Annotated[int, Field(ge=0, le=100)]  # % chance a search shows who it found


class Airdrop(Section):
    day: PosInt
    items: list[str] = []


class Grades(Section):
    order: list[str]
    labels: dict[str, str]


class Weapon(Section):
    damage: Count
    uses: Count
    votes: Count
    count: Count
    names: Annotated[list[Name], Field(min_length=1)]


class OrangeWeapon(Weapon):
    splash: Count  # to everyone else in the place, ignoring armour
    bleed: Count  # per night end


class Armour(Section):
    reduce: Count
    uses: Count
    votes: Count
    count: Count
    names: Annotated[list[Name], Field(min_length=1)]


class Weapons(Section):
    green: Weapon
    blue: Weapon
    purple: Weapon
    orange: OrangeWeapon

    def by_grade(self) -> dict[Grade, Weapon]:
        return {Grade.GREEN: self.green, Grade.BLUE: self.blue, Grade.PURPLE: self.purple, Grade.ORANGE: self.orange}


class Armours(Section):
    green: Armour
    blue: Armour
    purple: Armour
    orange: Armour

    def by_grade(self) -> dict[Grade, Armour]:
        return {Grade.GREEN: self.green, Grade.BLUE: self.blue, Grade.PURPLE: self.purple, Grade.ORANGE: self.orange}


class Other(Section):
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


class Sell(Section):
    green_per_coin: PosInt
    better_price: PosInt


class Grant(Section):
    day: Count
    amount: Count


class Shop(Section):
    prices: dict[str, PosInt] = {}
    daily: dict[str, Count] = {}
    sell: Sell
    grant: Grant

    @model_validator(mode="after")
    def _daily_priced(self) -> Shop:
        problems(T.DATA_DAILY_PRICE.format(name=n) for n in self.daily if n not in self.prices)
        return self


class Event(Section):
    """One of the ten events (``key`` names its rules in events.py). Each event reads the
    fields of its own rule; ``post`` is the line of the morning post."""

    key: Literal["wanted", "comeback", "change", "pilgrimage", "witch", "wind", "leaderboard", "winter", "war", "moon"]
    name: Name
    weight: Count = 0
    min_day: Count = 0
    fixed_day: PosInt | None = None
    post: str = ""
    public_place: bool | None = None  # witch (default true), moon (default false): is the place posted
    hp: PosInt = 1
    count: PosInt = 1
    money: Count = 0
    penalty: Count = 0
    effect: Count = 30
    reward_per: PosInt = 25
    reward: Count = 5
    top: PosInt = 1
    crowd: Count = 0
    bottom_percent: Count = 0
    over_hp: int = 0
    under_hp: int = 0
    exact_hp: int = 0
    exact_st: int = 0
    rewards: list[str] = []
    items: list[str] = []
    item: str | None = None
    morning_item: str | None = None
    evening_item: str | None = None
    weather: str | None = None
    first_weather: str | None = None

    @property
    def event(self) -> EventKey:
        return EventKey(self.key)

    def item_names(self) -> list[str]:
        one = [self.item, self.morning_item, self.evening_item]
        return self.rewards + self.items + [n for n in one if n is not None]


class Events(Section):
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


class MapPlace(Section):
    name: str
    x: int
    y: int
    adjacent: list[str] = []


class Map(Section):
    columns: PosInt
    rows: PosInt
    places: list[MapPlace]


class Settings(GameSettings):
    """Everything a royale game is set up with (a variant over the defaults); cross-references
    are checked once the sections they point into are valid."""

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

    @model_serializer(mode="wrap")
    def _as_given(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return as_given(self, handler)

    @field_validator("weather")
    @classmethod
    def _weights(cls, weather: list[Weather]) -> list[Weather]:
        if sum(w.weight for w in weather) <= 0:
            problems([T.DATA_WEATHER_WEIGHTS])
        return weather

    @staticmethod
    def _items(info: ValidationInfo, others: list[Other] | None = None) -> list[str] | None:
        """Every item name (None while a section of them is invalid)."""
        weapons: Weapons | None = info.data.get("weapons")
        armours: Armours | None = info.data.get("armours")
        others = others if others is not None else info.data.get("others")
        if weapons is None or armours is None or others is None:
            return None
        return ([n for w in weapons.by_grade().values() for n in w.names]
                + [n for a in armours.by_grade().values() for n in a.names] + [o.name for o in others])

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

    # ---- derived once per game's settings (the kernel hands the same object to every command) ----

    @cached_property
    def catalog(self) -> Catalog:
        return Catalog(self)

    @cached_property
    def event_defs(self) -> dict[str, Event]:
        return {e.key: e for e in self.events.list}

    @cached_property
    def place_keys(self) -> dict[str, str]:
        """place_key(name) -> name."""
        return {place_key(n): n for n in self.places.names}

    @cached_property
    def grid(self) -> dict[str, MapPlace]:
        return {e.name: e for e in self.map.places}

    @property
    def test_mode(self) -> bool:
        """A 测试赛 (rules.test_mode, fixed at /开始 like every setting)."""
        return self.rules.test_mode

    def event(self, key: str) -> Event | None:
        return self.event_defs.get(key)

    def find_place(self, text: str) -> str | None:
        return self.place_keys.get(place_key(text or ""))

    def grade_label(self, grade: str) -> str:
        return self.grades.labels.get(grade, grade)


def defaults() -> dict[str, Any]:
    """The default settings as stored (plain JSON): ``CONTENT.defaults()``, kept under this name
    for the tests' leak scan (tests/fixtures/leakscan.py reads the place and item names here)."""
    return CONTENT.defaults()


def place_key(name: str) -> str:
    """Places compare without spaces and case: "atelier of tales" = "Atelier of Tales"."""
    return "".join(name.split()).casefold()


@dataclass(frozen=True)
class ItemDef:
    """An item's definition (its row of items.toml); numbers a kind does not use are 0."""

    name: str
    kind: ItemKind
    grade: Grade | None = None  # weapons and armours
    damage: int = 0  # weapons, bombs
    reduce: int = 0  # armours
    limit: int = 0  # uses of gear (0: unlimited)
    votes: int = 0
    count: int = 0  # scattered at the start
    splash: int = 0  # orange weapons
    bleed: int = 0
    max_grade: Grade = Grade.ORANGE  # upgraders
    money: int = 0
    hp: int = 0  # supplies
    stamina: int = 0
    cure: str = "none"  # supplies: "none", "instead" (of healing) or "also"

    @property
    def uses(self) -> int | None:
        """Uses of a new one (None: unlimited)."""
        return self.limit or None


class Catalog:
    """Item definitions by name, built from settings (``settings.catalog``)."""

    def __init__(self, settings: Settings | dict[str, Any]) -> None:
        if isinstance(settings, dict):  # settings as stored (plain JSON; the tests' leak scan builds one so)
            settings = Settings.model_validate(settings, strict=False)
        self.settings = settings
        self.items: dict[str, ItemDef] = {}
        self._names: dict[tuple[ItemKind, Grade], list[str]] = {}
        for grade, w in settings.weapons.by_grade().items():
            extra = w if isinstance(w, OrangeWeapon) else None
            for n in w.names:
                self.items[n] = ItemDef(n, ItemKind.WEAPON, grade, damage=w.damage, limit=w.uses, votes=w.votes,
                                        count=w.count, splash=extra.splash if extra else 0,
                                        bleed=extra.bleed if extra else 0)
            self._names[ItemKind.WEAPON, grade] = list(w.names)
        for grade, a in settings.armours.by_grade().items():
            for n in a.names:
                self.items[n] = ItemDef(n, ItemKind.ARMOUR, grade, reduce=a.reduce, limit=a.uses, votes=a.votes,
                                        count=a.count)
            self._names[ItemKind.ARMOUR, grade] = list(a.names)
        for o in settings.others:
            self.items[o.name] = ItemDef(
                o.name, ItemKind(o.kind), damage=o.damage or 0, votes=o.votes, count=o.count,
                max_grade=Grade(o.max_grade) if o.max_grade else Grade.ORANGE, money=o.money or 0,
                hp=o.hp, stamina=o.stamina, cure=o.cure)

    def get(self, name: str) -> ItemDef:
        return self.items[name]

    def names(self, kind: ItemKind, grade: Grade) -> list[str]:
        return list(self._names[kind, grade])

    def grade_label(self, grade: str) -> str:
        return self.settings.grade_label(grade)


__all__ = ["CONTENT", "Catalog", "ItemDef", "Settings", "defaults", "place_key"]
