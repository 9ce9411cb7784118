"""The league's settings: the default TOML files (merged into one settings dict by
gamekit's loader, a host's /配置 merged over them) and the typed model every variant
must fit (one Chinese line per mistake)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    Field,
    SerializerFunctionWrapHandler,
    ValidationInfo,
    field_validator,
    model_serializer,
    model_validator,
)

import plugins.league.engine.texts as T
from plugins.gamekit.clock import parse_hhmm
from plugins.gamekit.datafile import HHMM, Content, Data, problems
from plugins.gamekit.settings import GameSettings

CONTENT_DIR = Path(__file__).resolve().parent.parent / "content"
CONTENT_FILES = ("league.toml", "boards.toml", "violations.toml")
CONTENT = Content(CONTENT_DIR, CONTENT_FILES)

PosInt = Annotated[int, Field(ge=1)]
Count = Annotated[int, Field(ge=0)]
Number = float  # strict: an int or a float, never a bool or a string


class Times(Data):
    checkin_open: HHMM  # §五 签到开始
    late: HHMM
    demote: HHMM
    seat: HHMM
    appeal_until: HHMM

    @model_validator(mode="after")
    def _in_order(self) -> Times:
        order = [parse_hhmm(t) for t in (self.checkin_open, self.late, self.demote, self.seat)]
        if order != sorted(order) or len(set(order)) != 4:
            problems([T.DATA_TIMES_ORDER])
        return self

    def words(self) -> dict[str, str]:
        """The times by name, for the texts' {checkin_open} {late} {demote} {seat} {appeal_until}."""
        return {"checkin_open": self.checkin_open, "late": self.late, "demote": self.demote, "seat": self.seat,
                "appeal_until": self.appeal_until}


class Options(Data):
    main_draw: PosInt
    standings_lines: PosInt
    refill_on_forfeit: bool
    dq_light: PosInt
    dq_medium: PosInt
    flag_per_game: PosInt
    max_appeals: PosInt
    picture_after_day: bool = True  # §五（一）: the standings picture to the main group once a match day is scored


class Scoring(Data):
    base: Number
    win: Number
    loss: Number
    vote_wolf: Number
    vote_good: Number
    vote_cap: Number
    vote_exempt: list[str] = []
    wolf_badge: Number
    mvp: Number
    svp: Number
    cap_policy: Literal["reject", "clamp"]


class Event(Data):
    points: Number
    cap: Annotated[float, Field(gt=0)] | None = None  # the most a cap group's positive points count
    group: str | None = None  # the cap group (default: the event itself)
    max: PosInt | None = None  # the most times a game may record it
    won_only: bool | None = None  # it counts only when the player's side wins (a sheet saying otherwise is refused)

    @model_serializer(mode="wrap")
    def _unset_left_out(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """The stored settings leave an unset option out, as a host writes it (TOML has no null)."""
        return {k: v for k, v in handler(self).items() if v is not None}


class Role(Data):
    side: Literal["good", "wolf"]
    kind: Literal["wolf", "god", "villager"]
    events: dict[str, Event] = {}


class Board(Data):
    roles: dict[str, PosInt]

    @property
    def size(self) -> int:
        return sum(self.roles.values())


class Violation(Data):
    level: Literal["warning", "light", "medium", "heavy", "other"]
    points: Annotated[float, Field(ge=0)]
    blocks_award: bool = False
    cancel_win: bool = False
    clause: str = ""
    ladder: str = ""


class Day(Data):
    label: str = ""
    board: str
    games: PosInt


class Round(Data):
    key: str
    name: str
    players: PosInt
    groups: PosInt
    advance: Count = 0
    double_games: list[int] = []
    days: list[Day]


class Settings(GameSettings):
    """Everything a league variant holds (§四 赛程, §六 版型与计分, §十三 违规)."""

    times: Times
    options: Options
    scoring: Scoring
    roles: dict[str, Role]
    boards: dict[str, Board]
    violations: dict[str, Violation]
    rounds: list[Round]

    @field_validator("roles")
    @classmethod
    def _roles(cls, roles: dict[str, Role], info: ValidationInfo) -> dict[str, Role]:
        if not roles:
            problems([T.DATA_NO_ROLES])
        scoring = info.data.get("scoring")
        exempt = scoring.vote_exempt if scoring else []
        problems(T.DATA_EXEMPT_UNKNOWN.format(role=n) for n in exempt if n not in roles)
        return roles

    @field_validator("boards")
    @classmethod
    def _boards(cls, boards: dict[str, Board], info: ValidationInfo) -> dict[str, Board]:
        roles = info.data.get("roles")
        if roles is not None:
            problems(T.DATA_BOARD_ROLE_UNKNOWN.format(board=b, role=r)
                     for b, board in boards.items() for r in board.roles if r not in roles)
        return boards

    @field_validator("violations")
    @classmethod
    def _violations(cls, violations: dict[str, Violation]) -> dict[str, Violation]:
        if T.LATE_VIOLATION not in violations:
            problems([T.DATA_NO_LATE])
        return violations

    @field_validator("rounds")
    @classmethod
    def _rounds(cls, rounds: list[Round], info: ValidationInfo) -> list[Round]:
        """§四: each day's board seats every group; rounds chain by advance."""
        boards: dict[str, Board] = info.data.get("boards") or {}
        options = info.data.get("options")
        errors: list[str] = [] if rounds else [T.DATA_NO_ROUNDS]
        prev_advance = None
        for i, rnd in enumerate(rounds, 1):
            label = T.DATA_ROUND.format(no=i, name=rnd.name)
            if not rnd.days:
                errors.append(T.DATA_NO_DAYS.format(round=label))
            for d, day in enumerate(rnd.days, 1):
                board = boards.get(day.board)
                if board is None:
                    if "boards" in info.data:
                        errors.append(T.DATA_DAY_BOARD_UNKNOWN.format(round=label, day=d, board=day.board))
                elif sum(board.roles.values()) * rnd.groups != rnd.players:
                    errors.append(T.DATA_DAY_SIZE.format(round=label, day=d, groups=rnd.groups, players=rnd.players))
            total = sum(day.games for day in rnd.days)
            errors += [T.DATA_DOUBLE_GAME.format(round=label, no=g, total=total)
                       for g in rnd.double_games if not 1 <= g <= total]
            if rnd.advance > rnd.players:
                errors.append(T.DATA_ADVANCE.format(round=label, players=rnd.players))
            if prev_advance is not None and prev_advance != rnd.players:
                errors.append(T.DATA_CHAIN.format(round=label, players=rnd.players, advance=prev_advance))
            prev_advance = rnd.advance
            if i == 1 and options is not None and rnd.players > options.main_draw:
                errors.append(T.DATA_MAIN_DRAW.format(players=rnd.players))
        problems(errors)
        return rounds
