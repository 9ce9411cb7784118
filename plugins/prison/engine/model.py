"""The game's state as typed structs (stored as JSON: seat keys become strings there), and small
helpers that read it.

The settings (roles, points, clock, room mode…) are not in the state: rules read them from
``ctx.settings``, the read-only hooks from their ``settings`` keyword (``content.Settings``).

During the auction (``phase`` auction) the state holds only ``order``, ``players`` (their /资料
``profile``, no camp or role yet), ``nights`` and ``auction``; the deal at its close fills in
the rest (:func:`become`).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import msgspec

from plugins.gamekit.state import GameState

from . import texts as T
from .content import Ability, Role, Settings


class Phase(StrEnum):
    AUCTION = "auction"  # 竞拍马甲 (only with a character list)
    PREP = "prep"  # love/hate
    DAY = "day"  # day 1: elections; later: the verdict (and 起义)
    VERDICT = "verdict"  # the chief or the leader picks among tied options
    ROOMS = "rooms"  # room choice
    NIGHT = "night"  # the interrogation window
    OVER = "over"


class Kind(StrEnum):
    """A player's camp."""

    GUARD = "guard"
    PRISONER = "prisoner"


class Status(StrEnum):
    ALIVE = "alive"  # in prison
    DEAD = "dead"
    RELEASED = "released"
    OUT = "out"  # put out by a host or a red card


class How(StrEnum):
    """How a character was won in the auction (and which choice a bid is)."""

    FIRST = "first"
    SECOND = "second"
    DRAW = "draw"


class Lost(StrEnum):
    """Why a choice was not won."""

    TAKEN = "taken"
    CAMP = "camp"
    SHORT = "short"


ABSTAIN = "skip"  # a vote's option; the others are "exec:<seat>" and "free:<seat>"
EXEC, FREE = "exec", "free"
CHOICES = (How.FIRST, How.SECOND)


# ---- the game proper -------------------------------------------------------------------


class Player(msgspec.Struct, gc=False, kw_only=True):
    seat: int
    alias: str
    user_id: str
    kind: Kind | None = None  # None only during the auction
    role: str = ""  # the role's id in the settings
    status: Status = Status.ALIVE
    out_day: int | None = None
    reason: str = ""
    number: int | None = None  # the random number that dealt the camp
    love: int | None = None
    hate: int | None = None
    posts: dict[int, int] = msgspec.field(default_factory=dict)  # day -> group posts counted
    uses: dict[str, int] = msgspec.field(default_factory=dict)  # ability key -> uses
    used_phase: dict[str, str] = msgspec.field(default_factory=dict)  # ability key -> "night:2"
    profile: dict[str, int | str] = msgspec.field(default_factory=dict)  # the /资料 fields (auction only)
    signup_alias: str = ""  # after the auction: the alias the player signed up with

    @property
    def camp(self) -> Kind:
        """The camp dealt (every player has one once the auction closed)."""
        assert self.kind is not None, "no camp during the auction"
        return self.kind


class Line(msgspec.Struct, gc=False, kw_only=True):
    """A line of a room's transcript."""

    seq: int
    at: str
    from_: str = msgspec.field(name="from")  # the label shown: 【看守】, 【囚犯】, 【噪音】
    seat: int
    text: str


class Pair(msgspec.Struct, gc=False, kw_only=True):
    g_room: str
    p_room: str
    guard: int
    prisoner: int
    group: str | None = None  # group mode: the room group's label
    lines: list[Line] = msgspec.field(default_factory=list)

    def partner(self, seat: int) -> int | None:
        return self.prisoner if seat == self.guard else self.guard if seat == self.prisoner else None


class Kill(msgspec.Struct, gc=False, kw_only=True):
    by: int
    victim: int
    how: str


class Night(msgspec.Struct, gc=False, kw_only=True):
    night: int
    rooms: dict[str, int]  # room -> seat
    pairs: list[Pair] = msgspec.field(default_factory=list)
    byes: list[int] = msgspec.field(default_factory=list)
    deaths: list[int] = msgspec.field(default_factory=list)
    kill: Kill | None = None


class Uprising(msgspec.Struct, gc=False, kw_only=True):
    by: int
    votes: dict[int, str] = msgspec.field(default_factory=dict)


class Pick(msgspec.Struct, gc=False, kw_only=True):
    """A tie the chief (or the leader) must settle with /裁定."""

    by: int
    camp: Kind
    options: list[str]


class Tonight(msgspec.Struct, gc=False, kw_only=True):
    point_kill: int | None = None
    spare: bool = False


class Act(msgspec.Struct, gc=False, kw_only=True):
    """A designed ability used and waiting for its resolution (tonight's at the window's open or
    close, a vote weight at the day's tally); the last use of a kind by a seat replaces it."""

    seq: int
    at: str
    day: int
    phase: Phase
    seat: int
    kind: str
    targets: list[int] = msgspec.field(default_factory=list)
    room: str = ""
    text: str = ""


class Use(msgspec.Struct, gc=False, kw_only=True):
    """An ability used (the sheet 技能使用); ``result`` None until a host settles it."""

    id: int
    seq: int
    at: str
    day: int
    phase: Phase
    seat: int
    ability: str
    target: str
    result: str | None = None
    settled_seq: int | None = None


class Submission(msgspec.Struct, gc=False, kw_only=True):
    seq: int
    at: str
    seat: int
    pairs: dict[str, str]


class Subs(msgspec.Struct, gc=False, kw_only=True):
    map: list[Submission] = msgspec.field(default_factory=list)  # （二）4 room mappings
    alias: list[Submission] = msgspec.field(default_factory=list)  # （二）6 alias lists


class Note(msgspec.Struct, gc=False, kw_only=True):
    seq: int
    text: str


class CardNote(msgspec.Struct, gc=False, kw_only=True):
    """An automatic yellow card the rules gave."""

    day: int
    seat: int
    reason: str


class PointItem(msgspec.Struct, gc=False, array_like=True):
    """One line of a seat's points, stored as [why, n]."""

    why: str
    n: int


class Rank(msgspec.Struct, gc=False, array_like=True):
    """One row of the ranking, stored as [rank, seat, total]."""

    rank: int
    seat: int
    total: int


class Result(msgspec.Struct, gc=False, kw_only=True):
    cond: int  # （三）1, 2 or 3
    winners: list[int]
    points: dict[int, list[PointItem]]
    ranking: list[Rank]


class SignupInfo(msgspec.Struct, gc=False, kw_only=True):
    """A player's sign-up fields at the deal (/资料, under a host's ``signup`` table)."""

    number: int | None = None
    nickname: str | None = None
    contact: str | None = None
    first: str | None = None
    second: str | None = None


# ---- the auction -----------------------------------------------------------------------


class Choice(msgspec.Struct, gc=False, frozen=True, kw_only=True):
    name: str
    coins: int
    seq: int  # the arrival of the /竞拍 that last changed it


class Bid(msgspec.Struct, gc=False, kw_only=True):
    first: Choice | None = None
    second: Choice | None = None
    number: int | None = None

    def choice(self, key: How) -> Choice | None:
        return self.first if key is How.FIRST else self.second


class Won(msgspec.Struct, gc=False, kw_only=True):
    name: str
    how: How
    coins: int
    lost: dict[How, Lost] = msgspec.field(default_factory=dict)  # a choice not won, and why
    balance: int = 0


class AuctionBook(msgspec.Struct, gc=False, kw_only=True):
    bids: dict[int, Bid] = msgspec.field(default_factory=dict)
    balances: dict[int, int] = msgspec.field(default_factory=dict)
    results: dict[int, Won] = msgspec.field(default_factory=dict)  # at the close
    closed_seq: int | None = None


# ---- the whole -------------------------------------------------------------------------


class State(GameState, kw_only=True):
    phase: Phase
    day: int = 0
    players: dict[int, Player] = msgspec.field(default_factory=dict)
    order: list[int] = msgspec.field(default_factory=list)  # the seats, in order
    mapping: dict[str, str] = msgspec.field(default_factory=dict)  # the secret room mapping: guard room -> prisoner room
    draw_key: int = 0  # the key the random numbers were dealt against (0: a host's deal)
    chief: int | None = None
    leader: int | None = None
    uprising_used: bool = False
    elect: dict[int, int] = msgspec.field(default_factory=dict)  # day 1: voter -> candidate
    votes: dict[int, str] = msgspec.field(default_factory=dict)  # the guards' verdict: voter -> option
    uprising: Uprising | None = None
    picks: list[Pick] = msgspec.field(default_factory=list)
    pending: dict[Kind, list[str]] = msgspec.field(default_factory=dict)  # the day's results waiting for the picks
    rooms: dict[str, int] = msgspec.field(default_factory=dict)  # tonight's choices: room -> seat
    nights: list[Night] = msgspec.field(default_factory=list)
    tonight: Tonight = msgspec.field(default_factory=Tonight)
    log: list[Use] = msgspec.field(default_factory=list)
    subs: Subs = msgspec.field(default_factory=Subs)
    notes: list[Note] = msgspec.field(default_factory=list)  # 树洞 (no seat kept)
    result: Result | None = None
    signup: dict[int, SignupInfo] = msgspec.field(default_factory=dict)  # the sign-up the deal used (export, （二）6)
    cards: list[CardNote] = msgspec.field(default_factory=list)
    auction: AuctionBook | None = None  # games with a character list
    acts: list[Act] = msgspec.field(default_factory=list)  # designed abilities waiting for their resolution


def become(state: State, new: State) -> None:
    """``state`` takes every field of ``new`` (the auction's close starts the game proper on the
    state object the kernel holds)."""
    for name in State.__struct_fields__:
        setattr(state, name, getattr(new, name))


# ---- reading the state -----------------------------------------------------------------


def room_letters(n: int) -> tuple[list[str], list[str]]:
    lower = [chr(ord("a") + i) for i in range(n)]
    return lower, [c.upper() for c in lower]


def in_prison(state: State, seat: int) -> bool:
    return state.players[seat].status is Status.ALIVE


def living(state: State, kind: Kind | None = None) -> list[int]:
    players = state.players
    return [s for s in state.order
            if players[s].status is Status.ALIVE and (kind is None or players[s].kind is kind)]


def role_of(cfg: Settings, state: State, seat: int) -> Role:
    return cfg.roles[state.players[seat].role]


def ability(cfg: Settings, state: State, seat: int, kind: str, name: str | None = None) -> Ability | None:
    for ab in role_of(cfg, state, seat).abilities:
        if ab.kind == kind and (name is None or ab.name == name):
            return ab
    return None


def uses_left(state: State, seat: int, ab: Ability) -> int | None:
    """None = unlimited."""
    if ab.limit == 0:
        return None
    return ab.limit - state.players[seat].uses.get(ab.key, 0)


def murderer_seat(cfg: Settings, state: State) -> int:
    for s in state.order:
        if role_of(cfg, state, s).murderer:
            return s
    raise KeyError("murderer")


def murderer_side(cfg: Settings, state: State, seat: int) -> bool:
    return role_of(cfg, state, seat).murderer_side


def name(state: State, seat: int) -> str:
    return T.SEAT_NAME.format(seat=seat, alias=state.players[seat].alias)


def names(state: State, seat_list: list[int]) -> str:
    return T.names_or_none([name(state, s) for s in seat_list])


def lover_of(cfg: Settings, state: State, seat: int) -> int | None:
    """The seat dealt the role this seat's lover ability points to (or that points here)."""
    mine = state.players[seat].role
    for ab in role_of(cfg, state, seat).abilities:
        if ab.kind == "lover":
            for s in state.order:
                if state.players[s].role == ab.with_:
                    return s
    for s in state.order:
        if s != seat and any(ab.kind == "lover" and ab.with_ == mine for ab in role_of(cfg, state, s).abilities):
            return s
    return None


def phase_tag(state: State) -> str:
    return f"{state.phase}:{state.day}"


def current_night(state: State) -> Night | None:
    if state.nights and state.nights[-1].night == state.day:
        return state.nights[-1]
    return None


def pair_of(state: State, seat: int) -> tuple[Pair | None, int | None]:
    """(tonight's pair, partner seat) for a seat, or (None, None) when 轮空/no night."""
    night = current_night(state)
    if night is None:
        return None, None
    for pair in night.pairs:
        partner = pair.partner(seat)
        if partner is not None:
            return pair, partner
    return None, None


def option(verb: str, seat: int) -> str:
    return f"{verb}:{seat}"


def parse_option(opt: str) -> tuple[str, int]:
    """"exec:12" -> ("exec", 12) (not for ABSTAIN)."""
    verb, seat = opt.split(":")
    return verb, int(seat)


# ---- the stored JSON, for readers outside the engine -------------------------------------
#
# The test suite's leak scan (tests/fixtures/leakscan.py) reads a finished game's rows as the
# database keeps them (plain JSON state and settings) with these two, by these names.


def role(state: dict[str, Any], settings: dict[str, Any], seat: int) -> dict[str, Any]:
    """A seat's role, from the stored JSON state and settings."""
    p = state["players"][str(seat)]
    camp = "guards" if p["kind"] == Kind.GUARD else "prisoners"
    found: dict[str, Any] = next(r for r in settings[camp] if r["id"] == p["role"])
    return found


def abilities(state: dict[str, Any], settings: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """The abilities of a seat's role, from the stored JSON (abilities without a name have no
    ``name`` key there)."""
    return list(role(state, settings, seat).get("abilities", []))
