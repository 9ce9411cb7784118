"""The league's state: typed (msgspec), stored as JSON under the same keys as ever.

The kernel "game" is the whole league: ``players`` is the registration list (seat =
registration number, ``#n``), ``rounds`` the rounds played so far (groups, members,
demotions, the closing ranking), ``days`` the match days opened (lineups, check-ins,
the 18:30/18:35/18:50 steps), ``games`` the score sheets entered, ``violations``,
``appeals`` and ``audit`` the referees' records. The settings (rounds, boards,
scoring, ...) are not in the state: rules read ``ctx.settings``.

Times are kept as the ISO texts they were stored as (UTC, ``datetime.isoformat``).
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

import msgspec

from plugins.gamekit.state import GameState


class Status(StrEnum):
    """A registrant's place in the league."""

    ACTIVE = "active"
    FORFEIT = "forfeit"  # §十二.5: not seated at 18:50
    DQ = "dq"  # disqualified (§十三.3, §十三.3.4)
    OUT = "out"  # put out by a referee (/出局, a red card)


class DqCause(StrEnum):
    VIOLATIONS = "violations"  # the live violations reach §十三.3 / §十三.3.4: undone by /撤销


class Side(StrEnum):
    GOOD = "good"
    WOLF = "wolf"


class Kind(StrEnum):
    """A role's card kind, for the §九.2 tie-break."""

    WOLF = "wolf"
    GOD = "god"
    VILLAGER = "villager"


class Level(StrEnum):
    WARNING = "warning"
    LIGHT = "light"
    MEDIUM = "medium"
    HEAVY = "heavy"
    OTHER = "other"  # a deduction that does not count toward §十三.3.4


class Source(StrEnum):
    """Where a violation was recorded."""

    CMD = "cmd"  # /违规
    SHEET = "sheet"  # a score sheet's 违规:类型
    AUTO = "auto"  # the 18:30 late step


class Step(StrEnum):
    """The clock steps of a match day (§五, §十二.5), in order."""

    LATE = "late"  # 18:30
    DEMOTE = "demote"  # 18:35
    SEAT = "seat"  # 18:50


STEPS = (Step.LATE, Step.DEMOTE, Step.SEAT)


class GameStatus(StrEnum):
    OK = "ok"
    VOID = "void"  # §十一: only its violations count


class AppealStatus(StrEnum):
    OPEN = "open"
    UPHELD = "upheld"
    CHANGED = "changed"


class Award(StrEnum):
    MVP = "mvp"  # 全场最佳
    SVP = "svp"  # 败方最佳


# ---- registrants and rounds -----------------------------------------------------------


class Player(msgspec.Struct, gc=False, kw_only=True, omit_defaults=True):
    """A registrant; the two disqualification notes are left out of the JSON when unset."""

    alias: str
    user_id: str
    status: Status
    dq_cause: DqCause | None = None  # set while disqualified by violations
    dq_group: str | None = None  # the group they were in then ("" for none)


class Round(msgspec.Struct, gc=False, kw_only=True):
    key: str
    name: str
    seed: int  # the grouping's shuffle seed (shown with the groups)
    groups: dict[str, list[int]]  # "A" -> registration numbers in position order
    members: list[int]  # everyone ranked in this round (substitutes join when put in)
    demoted: list[int] = msgspec.field(default_factory=list)  # ever demoted this round
    benched: list[int] = msgspec.field(default_factory=list)  # demoted and not put in again
    ranking: list[int] | None = None  # set when the round closes (/下一轮)
    order: dict[str, list[int]] = msgspec.field(default_factory=dict)  # everyone ever at a group's positions


# ---- match days -----------------------------------------------------------------------


class DayTimes(msgspec.Struct, gc=False, kw_only=True):
    """The day's clock (ISO, UTC)."""

    checkin_open: str
    late: str
    demote: str
    seat: str

    def of(self, step: Step) -> datetime:
        match step:
            case Step.LATE:
                return datetime.fromisoformat(self.late)
            case Step.DEMOTE:
                return datetime.fromisoformat(self.demote)
            case Step.SEAT:
                return datetime.fromisoformat(self.seat)

    def opens(self) -> datetime:
        return datetime.fromisoformat(self.checkin_open)


class Day(msgspec.Struct, gc=False, kw_only=True):
    round: int
    index: int  # 0-based within the round
    date: str  # ISO date
    board: str
    label: str = ""
    games: int  # games of each group this day
    first_no: int  # the round's number of the day's first game
    times: DayTimes
    lineups: dict[str, list[int]]  # today's players of each group, in position order
    checked: dict[int, str] = msgspec.field(default_factory=dict)  # seat -> when they checked in
    late: list[int] = msgspec.field(default_factory=list)
    absent: list[int] = msgspec.field(default_factory=list)  # marked /未到
    promoted: dict[int, str] = msgspec.field(default_factory=dict)  # substitute -> group
    done: list[Step] = msgspec.field(default_factory=list)
    forfeit: list[int] = msgspec.field(default_factory=list)
    demoted: list[int] = msgspec.field(default_factory=list)
    ran: dict[Step, str] = msgspec.field(default_factory=dict)  # the real time each step ran

    def group_of(self, seat: int) -> str | None:
        """The group whose lineup ``seat`` plays in today."""
        for g, members in self.lineups.items():
            if seat in members:
                return g
        return None

    def checked_by(self, seat: int, step: Step) -> bool:
        """Checked in no later than the step's time (a check-in sent before a late
        /开赛日 keeps the time it was sent)."""
        at_iso = self.checked.get(seat)
        return at_iso is not None and datetime.fromisoformat(at_iso) <= self.times.of(step)


# ---- games ----------------------------------------------------------------------------


class Parts(msgspec.Struct, gc=False, kw_only=True):
    """One player's points of one game by part (§六（二）), the game's factor applied."""

    win: float
    behaviour: float
    vote: float
    badge: float
    award: float

    def values(self) -> tuple[float, float, float, float, float]:
        return self.win, self.behaviour, self.vote, self.badge, self.award


class Points(msgspec.Struct, gc=False, kw_only=True):
    """One player's line of a game as the sheet scored it."""

    plus: float | None = None  # the sheet's plus and minus points (older games: computed from parts)
    minus: float | None = None
    parts: Parts
    role: str  # a role of the settings
    side: Side
    kind: Kind
    gseat: int  # the seat in the game
    won: bool
    mvp: bool
    svp: bool

    def has(self, award: Award) -> bool:
        return self.mvp if award is Award.MVP else self.svp


class VoteLine(msgspec.Struct, gc=False, kw_only=True):
    day: int
    round: int  # 1: the vote, 2: the runoff
    target: int  # game seats
    voters: list[int]


class Tie(msgspec.Struct, gc=False, kw_only=True):
    stage: list[int]
    selfboom: bool  # a wolf on the stage exploded (自曝)


class Parsed(msgspec.Struct, gc=False, kw_only=True):
    """A sheet's game-level facts (per-player results are the game's points)."""

    group: str
    game_no: int | None
    winner: Side
    votes: list[VoteLine] = msgspec.field(default_factory=list)
    ties: dict[int, Tie] = msgspec.field(default_factory=dict)  # by day
    bind_day: int | None = None


class Correction(msgspec.Struct, gc=False, kw_only=True):
    at: str
    by: str
    sheet: str  # the sheet it replaced


class Game(msgspec.Struct, gc=False, kw_only=True):
    id: int
    round: int
    day: int  # the day's index in the round
    group: str
    no: int  # the game's number in the round
    double: bool  # §四（二）.2
    date: str
    status: GameStatus = GameStatus.OK
    sheet: str
    parsed: Parsed
    points: dict[int, Points]
    history: list[Correction] = msgspec.field(default_factory=list)
    void_reason: str = ""


# ---- the referees' records ------------------------------------------------------------


class Reversal(msgspec.Struct, gc=False, kw_only=True):
    at: str
    by: str
    reason: str


class Violation(msgspec.Struct, gc=False, kw_only=True):
    id: int
    seat: int
    round: int
    game: int | None
    type: str  # a violation type of the settings
    level: Level
    points: float  # the deduction (doubled in a doubled game)
    source: Source
    at: str
    by: str = ""
    reversed: Reversal | None = None  # taken back (/撤销, or given way to a corrected sheet)


class Appeal(msgspec.Struct, gc=False, kw_only=True):
    id: int
    seat: int
    game: int
    text: str
    at: str
    status: AppealStatus = AppealStatus.OPEN
    answer: str = ""


class AuditRow(msgspec.Struct, gc=False, kw_only=True):
    at: str
    by: str
    action: str
    detail: str


class State(GameState, kw_only=True):
    players: dict[int, Player]
    round: int = 0  # the current round
    rounds: list[Round] = msgspec.field(default_factory=list)
    days: list[Day] = msgspec.field(default_factory=list)
    games: list[Game] = msgspec.field(default_factory=list)
    violations: list[Violation] = msgspec.field(default_factory=list)
    appeals: list[Appeal] = msgspec.field(default_factory=list)
    audit: list[AuditRow] = msgspec.field(default_factory=list)
    finished: bool = False
    early: dict[str, dict[int, str]] = msgspec.field(default_factory=dict)  # date -> seat -> check-in time

    @property
    def current(self) -> Round:
        return self.rounds[self.round]

    def current_day(self) -> Day | None:
        """The last match day opened, if it belongs to the current round."""
        if self.days and self.days[-1].round == self.round:
            return self.days[-1]
        return None

    def group_of(self, r: int, seat: int) -> str | None:
        """The group of round ``r`` that ``seat`` holds a place in."""
        for g, members in self.rounds[r].groups.items():
            if seat in members:
                return g
        return None

    def live_violations(self) -> list[Violation]:
        """Violations that still count (not taken back with /撤销 or replaced by /改分)."""
        return [v for v in self.violations if v.reversed is None]

    def resolver(self) -> dict[str, int]:
        """Alias or registration number text -> registration number."""
        out: dict[str, int] = {str(k): k for k in self.players}
        for k, p in self.players.items():
            out[p.alias] = k
        return out


GROUP_NAMES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
