"""Game data: the bundled TOML variants, a host's variant merged over one,
and the typed model every variant must fit (one Chinese line per mistake)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import tomllib
from pydantic import BeforeValidator, Field, ValidationInfo, field_validator, model_validator

from plugins.gamekit.contract import Rejected
from plugins.gamekit.datafile import HHMM, Data, check, load_toml, merged, problems

from . import texts as T

CONTENT_DIR = Path(__file__).resolve().parent.parent / "content"
DEFAULT_VARIANT = "sample12"

KINDS_GUARD = ("noise", "lover", "generic")
KINDS_PRISONER = ("kill", "point_kill", "lover", "generic")
MIN_PLAYERS, MAX_PLAYERS = 10, 14
CAMP_WORDS = T.CAMP_WORDS
NAME_BANNED = T.NAME_BANNED

Count = Annotated[int, Field(ge=0)]
Key = Annotated[str, Field(min_length=1)]
GroupId = Annotated[str, BeforeValidator(lambda v: str(v) if type(v) is int else v)]
"""A QQ group number, written "123456" or 123456."""


class Points(Data):
    """【身份与胜利条件】（二）积分制."""

    day: int
    love_win: int
    hate_win: int
    idol: int
    pest: int
    mapping_first: int
    released: int
    murderer_dead: int
    guards_dead: int
    aliases: int


class Ability(Data):
    kind: Literal["noise", "lover", "generic", "kill", "point_kill"]
    uses: Count = 0  # 0 = 不限次数
    name: str | None = None  # generic: /技能 <name>
    when: Literal["day", "night", "any"] = "any"
    compulsory: bool = False
    optional: bool = False
    with_: str | None = Field(None, alias="with")  # lover: the other role's id

    @model_validator(mode="after")
    def _kind_needs(self) -> Ability:
        errors: list[str] = []
        if self.kind == "lover" and not self.with_:
            errors.append(T.LOVER_NEEDS_WITH)
        if self.kind == "generic":
            if not self.name or " " in self.name:
                errors.append(T.GENERIC_NEEDS_NAME)
            if self.compulsory and self.when == "any":
                errors.append(T.COMPULSORY_NEEDS_WHEN)
        problems(errors)
        return self


class Role(Data):
    id: Key
    name: Key
    text: str = ""
    crimes: list[Key] | None = None
    murderer: bool = False
    side: Literal["murderer"] | None = None  # 杀人犯阵营
    win: Literal["default", "alive", "released", "with_murderer"] = "default"
    abilities: list[Ability] = []

    @model_validator(mode="after")
    def _generic_names(self) -> Role:
        names = [ab.name for ab in self.abilities if ab.kind == "generic" and ab.name]
        problems(T.ABILITY_TWICE.format(name=n) for i, n in enumerate(names) if n in names[:i])
        return self


class Auction(Data):
    """【游戏流程】<3、竞拍马甲>."""

    minutes: Count
    coins: Count
    limit: Literal["each", "sum"]  # each：每个志愿各不超过余额；sum：两个志愿合计不超过余额
    balances: dict[str, Count] = {}  # 座位号 = 硬币数

    @field_validator("balances")
    @classmethod
    def _seats(cls, balances: dict[str, int]) -> dict[str, int]:
        problems(T.BALANCE_SEAT.format(seat=seat) for seat in balances if not seat.isdigit())
        return balances


class Character(Data):
    name: Annotated[str, Field(pattern=r"\S")]
    camp: Literal["guard", "prisoner", "any"] = "any"

    @model_validator(mode="after")
    def _alias_like(self) -> Character:
        """A character becomes a player's alias (马甲)."""
        errors: list[str] = []
        if len(self.name) > 16:
            errors.append(T.CHAR_TOO_LONG.format(name=self.name))
        if self.name.isdigit() or self.name == T.NO_CHAR_NAME or any(c.isspace() or c in NAME_BANNED for c in self.name):
            errors.append(T.CHAR_BAD_NAME.format(name=self.name, banned=NAME_BANNED))
        problems(errors)
        return self


class Signup(Data):
    number: Annotated[int, Field(ge=1, le=999)] | None = None  # 随机数
    nickname: str | None = None
    contact: str | None = None
    first: str | None = None
    second: str | None = None


def _camp_problems(roles: list[Role], camp: str) -> list[str]:
    """What a guard or a prisoner may be (【身份与胜利条件】)."""
    label, kinds = (T.KIND["guard"], KINDS_GUARD) if camp == "guards" else (T.KIND["prisoner"], KINDS_PRISONER)
    errors: list[str] = []
    for r in roles:
        where = T.ROLE_WHERE.format(camp=label, id=r.id)
        if camp == "guards":
            if r.crimes is not None:
                errors.append(T.GUARD_NO_CRIMES.format(where=where))
            if r.murderer:
                errors.append(T.GUARD_NOT_MURDERER.format(where=where))
            if r.side == "murderer":
                errors.append(T.GUARD_NOT_SIDE.format(where=where))
        for j, ab in enumerate(r.abilities, 1):
            aw = T.ABILITY_WHERE.format(where=where, n=j)
            if ab.kind not in kinds:
                errors.append(T.KIND_NOT_FOR.format(where=aw, kind=ab.kind, camp=label, kinds=T.SEP.join(kinds)))
            elif ab.kind in ("kill", "point_kill") and not r.murderer:
                errors.append(T.KILL_MURDERER_ONLY.format(where=aw, kind=ab.kind))
    return errors


class Prison(Data):
    """Everything a prison variant holds: the clock, the points, the identity
    files (guards, prisoners), the script's characters and the auction, and
    a host's fixed sign-up numbers and deal."""

    variant: str = DEFAULT_VARIANT
    title: str = ""
    room_mode: Literal["relay", "group", "web"]  # relay：私聊转发；group：房间群；web：网页审讯室
    room_groups: list[GroupId] = []
    prep_minutes: Count
    day_end: HHMM
    rooms_end: HHMM
    night_end: HHMM
    verdict_minutes: Annotated[int, Field(ge=1)]
    min_posts: Count
    auto_cards: bool
    tie_without_chief: Literal["nothing", "random"]
    max_submissions: Count
    top_ties: Literal["none", "all", "drawn"]
    guards_dead_bonus: Literal["living", "all"]
    timezone: str | None = None
    points: Points
    auction: Auction
    guards: Annotated[list[Role], Field(min_length=1)]
    prisoners: Annotated[list[Role], Field(min_length=1)]
    characters: list[Character] = []
    signup: dict[str, Signup] = {}
    deal: dict[str, str] = {}  # 座位号 -> 身份 id

    @field_validator("guards")
    @classmethod
    def _guards(cls, guards: list[Role]) -> list[Role]:
        problems(_camp_problems(guards, "guards"))
        return guards

    @field_validator("prisoners")
    @classmethod
    def _prisoners(cls, prisoners: list[Role], info: ValidationInfo) -> list[Role]:
        errors = _camp_problems(prisoners, "prisoners")
        murderers = sum(r.murderer for r in prisoners)
        if murderers != 1:
            errors.append(T.ONE_MURDERER.format(n=murderers))
        guards: list[Role] | None = info.data.get("guards")
        if guards is not None:
            roles = guards + prisoners
            ids = [r.id for r in roles]
            errors += [T.ROLE_ID_TWICE.format(id=i) for n, i in enumerate(ids) if i in ids[:n]]
            for r in roles:
                for ab in r.abilities:
                    if ab.kind == "lover" and ab.with_ not in ids:
                        errors.append(T.LOVER_MISSING.format(id=r.id, other=ab.with_))
                    elif ab.kind == "lover" and ab.with_ == r.id:
                        errors.append(T.LOVER_SELF.format(id=r.id))
            n_g, n_p = len(guards), len(prisoners)
            if not MIN_PLAYERS <= n_g + n_p <= MAX_PLAYERS:
                errors.append(T.PLAYER_COUNT.format(g=n_g, p=n_p, total=n_g + n_p, low=MIN_PLAYERS, high=MAX_PLAYERS))
            if abs(n_g - n_p) > 1:
                errors.append(T.CAMPS_UNEVEN.format(g=n_g, p=n_p))
        problems(errors)
        return prisoners

    @field_validator("characters")
    @classmethod
    def _characters(cls, chars: list[Character], info: ValidationInfo) -> list[Character]:
        """Every player gets a character fitting the camp (【游戏流程】<3、竞拍马甲>)."""
        names = [c.name.casefold() for c in chars]
        errors = [T.CHAR_TWICE.format(name=c.name) for i, c in enumerate(chars) if names[i] in names[:i]]
        guards, prisoners = info.data.get("guards"), info.data.get("prisoners")
        if chars and guards is not None and prisoners is not None:
            n_g, n_p = len(guards), len(prisoners)
            camps = {camp: sum(c.camp == camp for c in chars) for camp in ("guard", "prisoner", "any")}
            if len(chars) < n_g + n_p:
                errors.append(T.CHARS_SHORT.format(n=len(chars), players=n_g + n_p))
            if camps["guard"] + camps["any"] < n_g:
                errors.append(T.CHARS_SHORT_GUARD.format(n=camps["guard"] + camps["any"], need=n_g))
            if camps["prisoner"] + camps["any"] < n_p:
                errors.append(T.CHARS_SHORT_PRISONER.format(n=camps["prisoner"] + camps["any"], need=n_p))
        problems(errors)
        return chars

    @field_validator("signup")
    @classmethod
    def _signup_seats(cls, signup: dict[str, Signup]) -> dict[str, Signup]:
        problems(T.SIGNUP_SEAT.format(seat=seat) for seat in signup if not seat.isdigit())
        return signup

    @field_validator("deal")
    @classmethod
    def _deal(cls, deal: dict[str, str], info: ValidationInfo) -> dict[str, str]:
        errors = [T.DEAL_SEAT.format(seat=seat) for seat in deal if not seat.isdigit()]
        guards, prisoners = info.data.get("guards"), info.data.get("prisoners")
        if guards is not None and prisoners is not None:
            ids = [r.id for r in guards + prisoners]
            errors += [T.DEAL_NO_ROLE.format(seat=seat, id=rid) for seat, rid in deal.items() if rid not in ids]
        used = list(deal.values())
        errors += [T.DEAL_TWICE.format(id=rid) for i, rid in enumerate(used)
                   if used.count(rid) > 1 and rid not in used[:i]]
        problems(errors)
        return deal


def load_variant(name: str) -> dict[str, Any]:
    path = CONTENT_DIR / f"{name}.toml"
    if not name.replace("_", "").isalnum() or not path.is_file():
        raise Rejected(T.NO_VARIANT.format(name=name))
    return load_toml(path)


def parse_toml(text: str) -> dict[str, Any]:
    """A host's variant file as text -> overrides dict (Rejected on syntax errors)."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise Rejected(T.TOML_ERROR.format(error=exc)) from exc


def _normalize_characters(chars: Any) -> Any:
    """``["柯南", ...]`` or ``[{ name, camp }]`` -> ``[{name, camp}]`` with camp in English."""
    if not isinstance(chars, list):
        return chars
    out: list[Any] = []
    for ch in chars:
        if isinstance(ch, str):
            ch = {"name": ch}
        if isinstance(ch, dict):
            ch = dict(ch)
            ch["camp"] = CAMP_WORDS.get(ch.get("camp", "any"), ch.get("camp"))
        out.append(ch)
    return out


def check_settings(overrides: dict[str, Any] | None) -> dict[str, Any]:
    """The host's variant over the bundled identity file it names, checked
    against :class:`Prison`; the engine keeps working on the plain dict."""
    overrides = overrides or {}
    s = merged(load_variant(str(overrides.get("variant", DEFAULT_VARIANT))), overrides)
    s.setdefault("variant", DEFAULT_VARIANT)
    s["characters"] = _normalize_characters(s.get("characters", []))
    check(Prison, s)
    return s
