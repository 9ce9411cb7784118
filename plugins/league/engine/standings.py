"""Round standings with the §九 tie-breaks and the advancement line."""

from __future__ import annotations

from dataclasses import dataclass, field

from .content import Settings
from .state import Game, GameStatus, Kind, State, Status, Violation

UNRANKED = 10**9
DEMOTED = "demoted"  # row status of a player demoted to substitute who has not played since (§五/§十.3)
PART_KEYS = ("win", "behaviour", "vote", "badge", "award", "violation")
PREVIOUS = 6  # the sort key's position of the previous round's ranking (§九.3)


@dataclass(slots=True)
class RowParts:
    """A player's points in a round by part (in the order of ``PART_KEYS``)."""

    win: float = 0.0
    behaviour: float = 0.0
    vote: float = 0.0
    badge: float = 0.0
    award: float = 0.0
    violation: float = 0.0

    def values(self) -> tuple[float, ...]:
        return self.win, self.behaviour, self.vote, self.badge, self.award, self.violation

    def rounded(self) -> RowParts:
        return RowParts(*(round(x, 4) for x in self.values()))


def no_wins() -> dict[Kind, int]:
    return {Kind.WOLF: 0, Kind.GOD: 0, Kind.VILLAGER: 0}


@dataclass(slots=True)
class Row:
    """One member of a round in the standings."""

    seat: int
    alias: str
    status: str  # the player's Status, or DEMOTED
    parts: RowParts = field(default_factory=RowParts)
    mvp: int = 0
    svp: int = 0
    wins: dict[Kind, int] = field(default_factory=no_wins)  # §九.2 wins by card kind
    games: int = 0
    group: str = ""  # rounds with several groups
    total: float = 0.0
    prev: int = 0  # §九.3 the previous round's ranking (registration number in round 1)
    key: tuple[float, ...] = ()
    rank: int | None = None  # None: not ranked (demoted, disqualified, forfeited, out)
    advance: bool = False
    tie: bool = False  # still equal after every rule (§九.4)
    tiebreak: int = 0  # the position of ``key`` that separated an equal total from a neighbour (0: none)


def award_blocked(state: State, settings: Settings, seat: int, game_id: int | None) -> Violation | None:
    """§七.3: the live violation that cost ``seat`` award eligibility in that game, if any."""
    catalogue = settings.violations
    for v in state.live_violations():
        if v.seat == seat and v.game == game_id:
            vc = catalogue.get(v.type)
            if vc is not None and vc.blocks_award:
                return v
    return None


def cancels_win(settings: Settings, v: Violation) -> bool:
    """§十三.3.5 a): the violation cancels the win points of its game."""
    vc = settings.violations.get(v.type)
    return vc is not None and vc.cancel_win


def _prev_position(state: State, r: int, seat: int) -> int:
    """§九.3: the previous round's ranking; registration order in round 1."""
    if r == 0:
        return seat
    ranking = state.rounds[r - 1].ranking or []
    return ranking.index(seat) + 1 if seat in ranking else UNRANKED


def game_award(state: State, settings: Settings, game: Game, seat: int) -> tuple[float, bool, bool]:
    """(award points, mvp, svp) of one player in one game after §七.3."""
    pts = game.points[seat]
    if award_blocked(state, settings, seat, game.id):
        return 0.0, False, False
    return pts.parts.award, pts.mvp, pts.svp


def rows(state: State, settings: Settings, r: int) -> list[Row]:
    """Every member of round ``r``, ranked. Eligible players first (rank 1..n),
    then demoted (not played since), disqualified and forfeited ones (rank None)."""
    base = settings.scoring.base
    rnd = state.rounds[r]
    bench = set(rnd.benched)
    multi = len(rnd.groups) > 1
    acc: dict[int, Row] = {}
    for seat in rnd.members:
        p = state.players[seat]
        status: str = p.status
        if p.status is Status.ACTIVE and seat in bench:
            status = DEMOTED
        acc[seat] = Row(seat=seat, alias=p.alias, status=status)
    for g, m in rnd.groups.items():
        for seat in m:
            if seat in acc:
                acc[seat].group = g
    live = state.live_violations()
    cancelled = {(v.seat, v.game) for v in live if v.game is not None and cancels_win(settings, v)}
    for game in state.games:
        if game.round != r or game.status is not GameStatus.OK:
            continue
        for seat, pts in game.points.items():
            row = acc.get(seat)
            if row is None:
                continue
            award, mvp, svp = game_award(state, settings, game, seat)
            parts, sums = pts.parts, row.parts
            if not (parts.win > 0 and (seat, game.id) in cancelled):  # §十三.3.5 a): a loss still counts
                sums.win += parts.win
            sums.behaviour += parts.behaviour
            sums.vote += parts.vote
            sums.badge += parts.badge
            sums.award += award
            row.games += 1
            row.mvp += int(mvp)
            row.svp += int(svp)
            if pts.won:
                row.wins[pts.kind] += 1
            if not row.group:
                row.group = game.group
    for v in live:
        row = acc.get(v.seat)
        if v.round == r and row is not None:
            row.parts.violation -= v.points
    for row in acc.values():
        row.parts = row.parts.rounded()
        row.total = round(base + sum(row.parts.values()), 4)
        row.prev = _prev_position(state, r, row.seat)
        row.key = (-row.total, -row.mvp, -row.svp, -row.wins[Kind.WOLF],
                   -row.wins[Kind.GOD], -row.wins[Kind.VILLAGER], row.prev)
        if not multi:
            row.group = ""
    eligible = sorted((x for x in acc.values() if x.status == Status.ACTIVE), key=lambda x: (x.key, x.seat))
    others = sorted((x for x in acc.values() if x.status != Status.ACTIVE), key=lambda x: (x.key, x.seat))
    advance = settings.rounds[r].advance
    for i, row in enumerate(eligible):
        row.rank = i + 1
        row.advance = i < advance
        row.tie = any(0 <= j < len(eligible) and j != i and eligible[j].key == row.key for j in (i - 1, i + 1))
        for j in (i - 1, i + 1):
            if row.tiebreak or not 0 <= j < len(eligible) or row.tie:
                continue
            other = eligible[j].key
            if other[0] != row.key[0]:
                continue
            row.tiebreak = next(k for k in range(1, len(other)) if other[k] != row.key[k])
    return eligible + others


def rank_of(state: State, settings: Settings, r: int, seat: int) -> int | None:
    for row in rows(state, settings, r):
        if row.seat == seat:
            return row.rank
    return None


def game_line(state: State, settings: Settings, game: Game, seat: int) -> tuple[float, float]:
    """(plus, minus) of one player in one game as it counts now: the sheet's points
    (positive and negative separately), §七.3 and §十三.3.5 a) applied, minus the
    live violation deductions recorded in that game. A void game keeps only the
    violations (§十一.3)."""
    pts = game.points[seat]
    live = [v for v in state.live_violations() if v.seat == seat and v.game == game.id]
    minus = -sum(v.points for v in live)
    if game.status is not GameStatus.OK:
        return 0.0, round(minus, 4)
    parts = pts.parts
    plus = pts.plus if pts.plus is not None else sum(x for x in parts.values() if x > 0)
    minus += pts.minus if pts.minus is not None else sum(x for x in parts.values() if x < 0)
    award, _, _ = game_award(state, settings, game, seat)
    plus -= parts.award - award
    if parts.win > 0 and any(cancels_win(settings, v) for v in live):
        plus -= parts.win
    return round(plus, 4), round(minus, 4)
