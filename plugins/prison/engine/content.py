"""The game's settings: one typed model (``Settings``) for the clock, the room mode, the points,
the auction, the identity file (guards, prisoners) and a host's sign-up numbers and deal, each
mistake a host makes named in one Chinese line. The TOML files of ``content/`` are loaded by
gamekit's ``Content`` (``CONTENT``): ``game.toml``, then the identity file the ``variant`` key
names (``sample12.toml`` by default), then the host's /配置."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from plugins.gamekit.datafile import HHMM, Content, Data, problems
from plugins.gamekit.settings import GameSettings

from . import texts as T

CONTENT_DIR = Path(__file__).resolve().parent.parent / "content"
DEFAULT_VARIANT = "sample12"
CONTENT = Content(CONTENT_DIR, ("game.toml",), variant="variant", default_variant=DEFAULT_VARIANT)

DESIGNED = ("check", "protect", "block", "eavesdrop", "swap", "message", "vote_weight")
"""Ability kinds the bot resolves itself (RULES.md "Designed abilities"); each used by its own command."""
KINDS_GUARD = ("noise", "lover", "generic", *DESIGNED)
KINDS_PRISONER = ("kill", "point_kill", "lover", "generic", *DESIGNED)
DEFAULT_USES = {"point_kill": 1, "noise": 1}  # an ability's uses when its file names none (else unlimited)
TIMINGS: dict[str, tuple[str, ...]] = {  # the timings a designed kind allows; the first is its default
    "check": ("night", "day", "any"),
    "protect": ("night",),
    "block": ("night",),
    "eavesdrop": ("night",),
    "swap": ("night",),
    "message": ("any", "day", "night"),
    "vote_weight": ("day",),
}
KIND_KEYS: dict[str, tuple[str, ...]] = {  # keys only some kinds take -> those kinds
    "learn": ("check",),
    "target": ("check", "protect", "block", "swap", "message"),
    "self_": ("check", "protect", "block", "swap", "message"),
    "tell_target": ("check", "protect", "block", "eavesdrop", "swap"),
    "weight": ("vote_weight",),
    "optional": ("kill",),
    "with_": ("lover",),
}
KEY_NAMES = {"self_": "self", "with_": "with"}  # as written in the file
MIN_PLAYERS, MAX_PLAYERS = 10, 14
NAME_BANNED = T.NAME_BANNED

Count = Annotated[int, Field(ge=0)]
Key = Annotated[str, Field(min_length=1)]
GroupId = Annotated[str, BeforeValidator(lambda v: str(v) if type(v) is int else v)]
"""A QQ group number, written "123456" or 123456."""
# which camp a character may go to; hosts may write it in Chinese too (T.CAMP_WORDS)
Camp = Annotated[Literal["guard", "prisoner", "any"], BeforeValidator(lambda v: T.CAMP_WORDS.get(v, v) if isinstance(v, str) else v)]


class Part(Data):
    """A part of the settings: read-only like the whole."""

    model_config = ConfigDict(frozen=True)


class Points(Part):
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


class Ability(Part):
    model_config = ConfigDict(serialize_by_alias=True)  # stored as written: ``with``, ``self``

    kind: Literal["noise", "lover", "generic", "kill", "point_kill",
                  "check", "protect", "block", "eavesdrop", "swap", "message", "vote_weight"]
    uses: Count | None = None  # 0 = 不限次数; not written: DEFAULT_USES
    name: str | None = None  # generic: /技能 <name>; a designed kind: the name players read
    when: Literal["day", "night", "any"] | None = None  # not written: "any", a designed kind's own timing
    compulsory: bool = False
    optional: bool | None = None  # kill: /不杀 allowed
    with_: str | None = Field(None, alias="with")  # lover: the other role's id
    learn: Literal["camp", "role"] | None = None  # check: 阵营 (default) or 身份
    target: Literal["any", "guard", "prisoner"] | None = None  # who may be chosen (default any)
    self_: bool | None = Field(None, alias="self")  # may choose oneself (default false)
    tell_target: bool | None = None  # the target learns it, anonymously (default false)
    weight: Annotated[int, Field(ge=2)] | None = None  # vote_weight: a vote counts this many (default 2)

    @property
    def limit(self) -> int:
        """How many times it may be used; 0 = unlimited."""
        return self.uses if self.uses is not None else DEFAULT_USES.get(self.kind, 0)

    @property
    def key(self) -> str:
        """Its key in a player's ``uses`` and ``used_phase``."""
        return f"{self.kind}:{self.name}" if self.kind == "generic" else self.kind

    @property
    def label(self) -> str:
        """The name players read: its own, else the kind's."""
        return self.name or T.KIND_NAME.get(self.kind, self.kind)

    @property
    def timing(self) -> str:
        """day, night or any: as written, else the kind's own."""
        if self.when is not None:
            return self.when
        return TIMINGS[self.kind][0] if self.kind in TIMINGS else "any"

    @property
    def designed(self) -> bool:
        return self.kind in DESIGNED

    @property
    def passive(self) -> bool:
        """vote_weight without a limit: every vote counts ``weight``, no command needed."""
        return self.kind == "vote_weight" and self.limit == 0

    @property
    def learns(self) -> str:
        return self.learn or "camp"

    @property
    def targets(self) -> str:
        return self.target or "any"

    @property
    def may_self(self) -> bool:
        return bool(self.self_)

    @property
    def tells(self) -> bool:
        return bool(self.tell_target)

    @property
    def votes(self) -> int:
        return self.weight or 2

    @model_validator(mode="after")
    def _kind_needs(self) -> Ability:
        errors: list[str] = []
        kind = self.kind
        what = T.KIND_WORD.format(kind=kind, name=T.KIND_NAME.get(kind, kind))
        for key, kinds in KIND_KEYS.items():
            value = getattr(self, key)  # false is "not set" (stored settings write optional = false)
            if value is not None and value is not False and kind not in kinds:
                errors.append(T.KEY_NOT_FOR.format(key=KEY_NAMES.get(key, key), what=what, kinds=T.SEP.join(
                    T.KIND_WORD.format(kind=k, name=T.KIND_NAME.get(k, k)) for k in kinds)))
        if kind == "lover" and not self.with_:
            errors.append(T.LOVER_NEEDS_WITH)
        if kind == "generic" and (not self.name or " " in self.name):
            errors.append(T.GENERIC_NEEDS_NAME)
        if kind != "generic" and self.name is not None and (not self.name.strip() or " " in self.name):
            errors.append(T.NAME_NO_SPACE.format(what=what))
        if kind in TIMINGS and self.when is not None and self.when not in TIMINGS[kind]:
            errors.append(T.WHEN_NOT_FOR.format(what=what, allowed=T.SEP.join(
                T.WHEN_WORD.format(when=w, text=T.WHEN[w]) for w in TIMINGS[kind])))
        if self.compulsory and (kind in DESIGNED or kind == "generic"):
            if self.passive:
                errors.append(T.COMPULSORY_PASSIVE.format(what=what))
            elif self.timing == "any":
                errors.append(T.COMPULSORY_NEEDS_WHEN)
        problems(errors)
        return self


class Role(Part):
    id: Key
    name: Key
    text: str = ""
    crimes: list[Key] | None = None
    murderer: bool = False
    side: Literal["murderer"] | None = None  # 杀人犯阵营
    win: Literal["default", "alive", "released", "with_murderer"] = "default"
    abilities: list[Ability] = []

    @property
    def murderer_side(self) -> bool:
        return self.murderer or self.side == "murderer"

    @model_validator(mode="after")
    def _ability_names(self) -> Role:
        """Names unique within a role (a generic one is used by its name); one ability per
        other kind (its command finds it by the kind)."""
        names = [ab.label for ab in self.abilities]
        errors = [T.ABILITY_TWICE.format(name=n) for i, n in enumerate(names) if n in names[:i]]
        kinds = [ab.kind for ab in self.abilities if ab.designed]
        errors += [T.KIND_TWICE.format(what=T.KIND_WORD.format(kind=k, name=T.KIND_NAME.get(k, k)))
                   for i, k in enumerate(kinds) if k in kinds[:i]]
        problems(errors)
        return self


class Auction(Part):
    """【游戏流程】<3、竞拍马甲>."""

    minutes: Count
    coins: Count
    limit: Literal["each", "sum"]  # each：每个志愿各不超过余额；sum：两个志愿合计不超过余额
    balances: dict[str, Count] = {}  # 座位号 = 硬币数

    def balance(self, seat: int) -> int:
        return self.balances.get(str(seat), self.coins)

    @field_validator("balances")
    @classmethod
    def _seats(cls, balances: dict[str, int]) -> dict[str, int]:
        problems(T.BALANCE_SEAT.format(seat=seat) for seat in balances if not seat.isdigit())
        return balances


class Character(Part):
    name: Annotated[str, Field(pattern=r"\S")]
    camp: Camp = "any"

    @model_validator(mode="before")
    @classmethod
    def _bare_name(cls, value: Any) -> Any:
        """``characters = ["柯南", …]``: a name alone may go to either camp."""
        return {"name": value} if isinstance(value, str) else value

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


class Signup(Part):
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


class Settings(GameSettings):
    """Everything a prison game is set with: the clock, the points, the identity file
    (guards, prisoners), the script's characters and the auction, and a host's fixed
    sign-up numbers and deal."""

    variant: str = DEFAULT_VARIANT  # the identity file under game.toml (content/<variant>.toml)
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
    points: Points
    auction: Auction
    guards: Annotated[list[Role], Field(min_length=1)]
    prisoners: Annotated[list[Role], Field(min_length=1)]
    characters: list[Character] = []
    signup: dict[str, Signup] = {}
    deal: dict[str, str] = {}  # 座位号 -> 身份 id

    @cached_property
    def roles(self) -> dict[str, Role]:
        """Every role by its id (ids are unique across both camps)."""
        return {r.id: r for r in self.guards + self.prisoners}

    @cached_property
    def n_players(self) -> int:
        return len(self.guards) + len(self.prisoners)

    @cached_property
    def dealt(self) -> dict[int, str]:
        """A host's deal: seat -> role id (the TOML keys are seat numbers)."""
        return {int(seat): rid for seat, rid in self.deal.items()}

    @cached_property
    def signed_up(self) -> dict[int, Signup]:
        """A host's sign-up table by seat."""
        return {int(seat): entry for seat, entry in self.signup.items()}

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
