"""The royale state's types (msgspec), stored as JSON with the keys the plain-dict engine wrote.

Seats are ``dict[int, Player]`` (string keys in JSON). Every key that engine wrote is written
again (what a player or an NPC carries first: ``Hands``); keys it wrote only sometimes
(``Item.temp``, an event's data) are left out while they hold their default, as it did.
"""

from __future__ import annotations

from enum import StrEnum

import msgspec

from plugins.gamekit.state import GameState


class Phase(StrEnum):
    DAY = "day"
    NIGHT = "night"
    OVER = "over"


class Grade(StrEnum):
    GREEN = "green"
    BLUE = "blue"
    PURPLE = "purple"
    ORANGE = "orange"


GRADES: tuple[Grade, ...] = (Grade.GREEN, Grade.BLUE, Grade.PURPLE, Grade.ORANGE)
"""Lowest first: an upgrade goes one step up."""


class ItemKind(StrEnum):
    WEAPON = "weapon"
    ARMOUR = "armour"
    UPGRADER = "upgrader"
    GPS = "gps"
    RADAR = "radar"
    BROADCAST = "broadcast"
    BOMB = "bomb"
    SUPPLY = "supply"
    MONEY = "money"


GEAR = (ItemKind.WEAPON, ItemKind.ARMOUR)


class Slot(StrEnum):
    """A hand: the weapon, the armour, or any other item taken in hand (【更换】)."""

    WEAPON = "weapon"
    ARMOUR = "armour"
    HELD = "held"


SLOTS: tuple[Slot, ...] = (Slot.WEAPON, Slot.ARMOUR, Slot.HELD)


class Searched(StrEnum):
    """What the player's searches found tonight (the action page says it)."""

    NOT_YET = ""  # no search tonight
    EMPTY = "empty"  # the last one found nothing
    FOUND = "found"  # the last one found something (``search`` holds it until it is used up)


class NpcKind(StrEnum):
    WITCH = "witch"
    WEREWOLF = "werewolf"


class EventKey(StrEnum):
    """The ten events (``content/events.toml``'s keys)."""

    WANTED = "wanted"
    COMEBACK = "comeback"
    CHANGE = "change"
    PILGRIMAGE = "pilgrimage"
    WITCH = "witch"
    WIND = "wind"
    LEADERBOARD = "leaderboard"
    WINTER = "winter"
    WAR = "war"
    MOON = "moon"


class Item(msgspec.Struct, gc=False, kw_only=True, omit_defaults=True):
    id: int
    name: str
    kind: ItemKind
    grade: Grade | None  # weapons and armours
    uses: int | None  # None: unlimited
    used_night: int  # scouts: the night last used
    temp: bool = False  # 逆袭's one-night gear


class Hands(msgspec.Struct, gc=False, kw_only=True):
    """What a player or an NPC carries, and the two hands: item ids in the three slots (at most
    two set; ``held`` is a non-gear item taken in hand to be used)."""

    items: list[Item] = msgspec.field(default_factory=list)
    weapon: int | None = None
    armour: int | None = None
    held: int | None = None

    def hand(self, slot: Slot) -> int | None:
        if slot is Slot.WEAPON:
            return self.weapon
        if slot is Slot.ARMOUR:
            return self.armour
        return self.held

    def set_hand(self, slot: Slot, ident: int | None) -> None:
        if slot is Slot.WEAPON:
            self.weapon = ident
        elif slot is Slot.ARMOUR:
            self.armour = ident
        else:
            self.held = ident

    def equipped(self, slot: Slot) -> Item | None:
        ident = self.hand(slot)
        if ident is None:
            return None
        for it in self.items:
            if it.id == ident:
                return it
        return None

    def is_equipped(self, item: Item) -> bool:
        """In hand: the weapon, the armour or a held non-gear item."""
        return item.id in (self.weapon, self.armour, self.held)

    def hands_used(self) -> int:
        return (self.weapon is not None) + (self.armour is not None) + (self.held is not None)

    def remove(self, item: Item) -> None:
        self.items = [it for it in self.items if it.id != item.id]
        if self.weapon == item.id:
            self.weapon = None
        if self.armour == item.id:
            self.armour = None
        if self.held == item.id:
            self.held = None

    def empty_hands(self) -> list[Item]:
        """Everything carried, taken away (the hands emptied too)."""
        items, self.items = self.items, []
        self.weapon = self.armour = self.held = None
        return items


class Find(msgspec.Struct, gc=False, tag_field="kind", kw_only=True):
    """What the last search found (attack and pickup use it up)."""

    place: str


class FoundItem(Find, tag="item", kw_only=True):
    id: int
    name: str


class FoundPlayer(Find, tag="player", kw_only=True):
    seat: int


class FoundNpc(Find, tag="npc", kw_only=True):
    id: str


Found = FoundItem | FoundPlayer | FoundNpc


class Claim(msgspec.Struct, gc=False, tag_field="kind", kw_only=True):
    """A reward waiting for /领取."""


class WitchClaim(Claim, tag="witch", kw_only=True):
    units: int
    each: int


class WantedClaim(Claim, tag="wanted", kw_only=True):
    options: list[str]


class AirdropClaim(Claim, tag="airdrop", kw_only=True):
    options: list[str]


Claims = WitchClaim | WantedClaim | AirdropClaim


class Player(Hands, kw_only=True):
    seat: int
    alias: str
    alive: bool
    hp: int
    st: int  # stamina
    money: int
    place: str | None  # None: not yet born
    bleed: int
    bleed_by: int | None
    rest: bool
    acted: bool
    search: Found | None
    search_at: str | None  # ISO time of the last search
    green_sold: int
    claims: list[Claims] = msgspec.field(default_factory=list)
    searched: Searched = Searched.NOT_YET


class Blow(msgspec.Struct, gc=False, array_like=True):
    """Damage an NPC took, stored as [by, damage] (by None: no one)."""

    by: int | None
    dmg: int


class Npc(Hands, kw_only=True):
    npc: bool = True  # marks an NPC among those searched and hit
    id: str  # "n1"
    kind: NpcKind
    name: str
    alive: bool
    hp: int
    max_hp: int
    place: str
    bleed: int = 0
    bleed_by: int | None = None
    damage: list[Blow] = msgspec.field(default_factory=list)
    day: int
    gone: bool = False  # vanished in a closure
    rewarded: bool = False  # the witch's killers got their reward


class Death(msgspec.Struct, gc=False, kw_only=True):
    seat: int
    night: int
    cause: str
    killer: int | None
    batch: int  # deaths of one batch happen at the same moment (same rank)
    place: str | None = None
    day: bool = False  # by day (a host's /出局): public at once, not one of the night's deaths


class NpcDeath(msgspec.Struct, gc=False, kw_only=True):
    id: str
    name: str
    kind: NpcKind
    night: int
    cause: str
    killer: int | None
    place: str


class Broadcast(msgspec.Struct, gc=False, kw_only=True):
    """生命启示: a place (and a player) to publish the next morning."""

    by: int
    place: str
    target: int | None


class Result(msgspec.Struct, gc=False, kw_only=True):
    winner: int | None  # None: the last ones died together (the host wins)


class OwnHands(msgspec.Struct, gc=False, array_like=True):
    """逆袭: the lucky one's own hands, given back after the night."""

    weapon: int | None
    armour: int | None
    held: int | None


class Today(msgspec.Struct, gc=False, kw_only=True, omit_defaults=True):
    """One of today's events and what it drew."""

    key: EventKey
    seats: list[int] | None = None  # 通缉令: the wanted
    place: str | None = None  # 朝圣之路: the holy place
    seat: int | None = None  # 逆袭: the lucky one
    hands: OwnHands | None = None


class LoggedEvent(msgspec.Struct, gc=False, kw_only=True):
    day: int
    key: EventKey


class Plan(msgspec.Struct, gc=False, kw_only=True):
    """A host's plan for tomorrow's event (/事件)."""

    force: EventKey | None = None
    forbid: list[EventKey] = msgspec.field(default_factory=list)


class Hit(msgspec.Struct, gc=False, array_like=True):
    """A direct effective hit, stored as [attacker, seat or NPC id, damage]."""

    by: int
    whom: int | str
    dmg: int


class NightLog(msgspec.Struct, gc=False, kw_only=True):
    hits: list[Hit] = msgspec.field(default_factory=list)
    attackers: list[int] = msgspec.field(default_factory=list)
    holy: list[int] = msgspec.field(default_factory=list)  # 朝圣之路: who reached the holy place


class Guests(msgspec.Struct, gc=False, kw_only=True):
    """Who spent the night with the witch, and what it does to them next night."""

    seats: list[int]
    delta: int


class Landed(msgspec.Struct, gc=False, kw_only=True):
    day: int
    name: str
    place: str


class HostEntry(msgspec.Struct, gc=False, kw_only=True):
    day: int
    by: str  # the host's QQ number
    what: str


class State(GameState, kw_only=True):
    day: int
    phase: Phase
    players: dict[int, Player]
    closed: list[str]
    closing: list[str]
    ground: dict[str, list[Item]]  # place -> items there
    next_id: int
    weather: str
    see: int  # % chance a search shows who it found
    shop: dict[str, int]  # item -> left on the shelf
    deaths: list[Death]
    deaths_posted: int = 0  # deaths already announced (night deaths wait for the morning)
    batch: int
    airdrops: list[str]  # announced this morning, landing tonight
    airdrops_next: list[str] = msgspec.field(default_factory=list)  # a host's /空投 at night: the next morning's
    broadcasts: list[Broadcast]
    published: dict[int, list[int]]  # seat -> days they were published
    result: Result | None
    today: list[Today] = msgspec.field(default_factory=list)
    event_log: list[LoggedEvent] = msgspec.field(default_factory=list)
    event_plan: Plan = msgspec.field(default_factory=Plan)
    moon: bool = False  # 月圆之夜 until 起风了
    npcs: list[Npc] = msgspec.field(default_factory=list)
    npc_seq: int = 0
    npc_deaths: list[NpcDeath] = msgspec.field(default_factory=list)
    night_log: NightLog = msgspec.field(default_factory=NightLog)
    witch_guests: Guests | None = None
    witch_turn: int = 0
    holy: str | None = None
    landed: list[Landed] = msgspec.field(default_factory=list)
    posts: dict[int, int] = msgspec.field(default_factory=dict)  # seat -> group posts today
    misses: dict[int, int] = msgspec.field(default_factory=dict)  # seat -> days under the quota
    host_log: list[HostEntry] = msgspec.field(default_factory=list)
    wiped: bool = False  # 测试赛: the records were deleted
    day_ends: str | None = None  # ISO time today's day was set to end (a day closed before it was cut short)

    def seats(self) -> list[int]:
        return sorted(self.players)

    def alive(self) -> list[Player]:
        return [self.players[s] for s in sorted(self.players) if self.players[s].alive]

    def people_at(self, place: str, *, exclude: int | None = None) -> list[Player]:
        return [p for p in self.alive() if p.place == place and p.seat != exclude]

    def npcs_at(self, place: str) -> list[Npc]:
        return [n for n in self.npcs if n.alive and n.place == place]

    def npc(self, ident: str) -> Npc:
        return next(n for n in self.npcs if n.id == ident)

    def witch(self) -> Npc | None:
        return next((n for n in self.npcs if n.kind is NpcKind.WITCH and n.alive), None)

    def new_batch(self) -> int:
        """Deaths of one batch happen at the same moment (same rank)."""
        self.batch += 1
        return self.batch

    def announced(self) -> list[int]:
        """Deaths already announced: night deaths stay secret until the morning post (or the end,
        whose summary names them; a test game's wiped records too)."""
        if self.phase == Phase.OVER:
            return [s for s in sorted(self.players) if not self.players[s].alive]
        return sorted(d.seat for d in self.deaths[: self.deaths_posted])
