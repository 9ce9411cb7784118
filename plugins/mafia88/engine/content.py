"""The game's settings as one typed model (:class:`Settings`): the TOML files under
``plugins/mafia88/content`` merged in order, a host's /配置 over them, checked with one Chinese
line per mistake (``gamekit.datafile``), then read by the rules as ``ctx.settings``."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, ValidationInfo, field_serializer, field_validator, model_validator
from pydantic_core import PydanticCustomError

import plugins.mafia88.engine.texts as T
from plugins.gamekit.datafile import HHMM, Content, Data, problems, validate
from plugins.gamekit.settings import GameSettings

CONTENT = Content(Path(__file__).resolve().parent.parent / "content",
                  ("roles.toml", "rounds.toml", "game.toml", "signals.toml", "effects.toml", "sources.toml"))
"""Where the default settings live: the files merged in this order."""

Count = Annotated[int, Field(ge=0)]
PosInt = Annotated[int, Field(ge=1)]
Key = Annotated[str, Field(min_length=1)]
Pair = Annotated[list[Key], Field(min_length=2, max_length=2)]  # [寻找暗号, 接头暗号]


def _span(v: list[int]) -> list[int]:
    if not (len(v) == 2 and v[0] >= 1 and (v[1] == 0 or v[1] >= v[0])):
        raise PydanticCustomError("span", T.CFG_SPAN)
    return v


Span = Annotated[list[Count], AfterValidator(_span)]
"""Rounds a rule acts in: [first, last], last 0 = no end."""


class Role(Data):
    key: Key
    name: Key
    faction: Literal["white", "black"]
    count: Count
    codes: list[Key] = []  # §十六, in code-name order
    knows: list[str] = []
    disguise: str = ""
    signals: bool = False
    brief: str = ""


class Substitute(Data):
    roles: list[str]
    when: Literal["short", "none", "last"]  # §九


class PostOption(Data):
    rounds: Annotated[list[PosInt], Field(min_length=2, max_length=2)]
    posts: PosInt


class Group(Data):
    key: Key
    roles: Annotated[list[str], Field(min_length=1)]
    substitutes: list[Substitute] = []
    optional: PostOption | None = None  # §十二.9

    @field_validator("optional", mode="before")
    @classmethod
    def _no_option(cls, v: Any) -> Any:
        return None if v == {} else v  # {} = no optional posts (how it is written back)

    @field_serializer("optional")
    def _optional(self, v: PostOption | None) -> dict[str, Any]:
        return v.model_dump() if v else {}


class Row(Data):
    """One round of the table (§十): votes per voter, number out, posts per group."""

    votes: PosInt
    out: Count
    posts: dict[str, Count] = {}


class Times(Data):
    vote_close: HHMM
    proxy_cutoff_minutes: Count
    post_due_minutes: Count
    first_posts_minutes: Count
    publish_delay_minutes: Count
    min_vote_minutes: Count
    white_due: HHMM
    overtime_minutes: Count
    decision_minutes: Count


class Limits(Data):
    report_min: Count
    report_redo_min: Count
    post_min: Count
    rewrite_min: Count
    quote_max_percent: Count
    repeat_max_percent: Count
    report_max: Count
    post_max: Count


class Options(Data):
    report_required: bool
    auto_approve_pending: bool
    signal_carriers: Count
    fill_role: str
    role_effects: bool
    publish_reports: bool
    first_post_aliases: Count


class Complaints(Data):
    """§十四.1 (and §十二.6): how long a post or report may be complained about."""

    post_rule: Literal["before_close", "next_day"] = "before_close"  # §十四.1 or §十二.6's reading
    post_hours_before_close: Count = 3  # §十四.1: until 3 hours before the vote close of the round it was published in
    post_next_day_at: HHMM = "18:00"  # §十二.6: until this time the day after it was published
    report_next_day_at: HHMM = "15:00"  # §十四.1: reports until 15:00 the day after the report deadline


class Source(Data):
    """A text posts and reports are compared with (§十二.2/6 原创首发)."""

    title: Key
    text: Key


class Originality(Data):
    """The overlap shown to hosts for every post and report (§十一.1, §十二.2/6)."""

    shingle: PosInt = 8  # characters per shingle
    flag_percent: Count = 20  # flag a text sharing this share of its shingles with one other text
    flag_run: Count = 60  # … or a run of this many characters (0: off)
    top: PosInt = 3  # how many of the closest texts are kept and shown
    sources: list[Source] = []  # the seed's texts a post may be copied from (content/sources.toml)
    extra_sources: list[Source] = []  # a host's own additions (/配置)


class PostRule(Data):
    poster: Annotated[list[str], Field(min_length=1)]
    target: Annotated[list[str], Field(min_length=1)]
    rounds: Span = [1, 0]
    effect: Literal["kill", "mutual", "poster_dies", "reveal", "reveal_kill", "countdown", "none"]
    check: bool = False
    clause: str = ""


class VoteRule(Data):
    role: str
    rounds: Span = [1, 0]
    take: Count = 0
    reveal: Count = 0
    soul: bool = False
    shared: bool = False
    together: Literal["", "first_last"] = ""
    clause: str = ""


class Revive(Data):
    role: str
    rounds: Annotated[list[PosInt], Field(min_length=1)]
    cutoff_minutes: Count
    thanks_min: Count
    clause: str = ""


class Soul(Data):
    role: str
    rounds: Annotated[list[PosInt], Field(min_length=1)]
    text_min: Count
    becomes: str = ""
    clause: str = ""


class Effects(Data):
    """Role effects of §五 as data (effects.toml)."""

    countdown_rounds: PosInt
    post: list[PostRule] = []
    vote: list[VoteRule] = []
    revive: Revive
    soul_move: Soul
    soul_back: Soul


def _counts(info: ValidationInfo) -> dict[str, int]:
    """Each role's number of players once ``counts`` is applied."""
    roles: list[Role] = info.data.get("roles") or []
    over: dict[str, int] = info.data.get("counts") or {}
    return {r.key: over.get(r.key, r.count) for r in roles}


def posts_problems(posts: dict[str, int], gkeys: list[str], label: str) -> list[str]:
    return [T.CFG_UNKNOWN_GROUP.format(label=label, group=g, available=T.LIST_SEP.join(gkeys)) for g in posts if g not in gkeys]


class Settings(GameSettings):
    """Everything a mafia88 game's settings hold: roles (§四, §十六), post groups (§九),
    the round table (§十), times, limits, options, 暗号 (§七.3), effects (§五). ``counts``
    is applied to the roles' ``count`` when the settings are read."""

    roles: list[Role]
    counts: dict[str, Count] = {}
    groups: list[Group]
    rounds: list[Row]
    times: Times
    limits: Limits
    options: Options
    signal_pool: list[Pair]
    signals: list[Pair] = []
    effects: Effects
    complaints: Complaints = Complaints()
    originality: Originality = Originality()

    @model_validator(mode="before")
    @classmethod
    def _counts_into_roles(cls, data: Any) -> Any:
        """``counts`` overrides each role's ``count`` (the stored settings carry the result)."""
        if not isinstance(data, dict) or not isinstance(data.get("counts"), dict) or not isinstance(data.get("roles"), list):
            return data
        counts = {k: n for k, n in data["counts"].items() if type(n) is int and n >= 0}  # a bad count is reported once, under counts
        roles = [{**r, "count": counts[r["key"]]} if isinstance(r, dict) and isinstance(r.get("key"), str) and r["key"] in counts
                 else r for r in data["roles"]]
        return {**data, "roles": roles}

    @field_validator("roles")
    @classmethod
    def _roles(cls, roles: list[Role]) -> list[Role]:
        keys = [r.key for r in roles]
        errors = [T.CFG_DUPLICATE_ROLE_KEY.format(key=k) for i, k in enumerate(keys) if k in keys[:i]]
        for r in roles:
            errors += [T.CFG_UNKNOWN_KNOWS.format(role=r.name, known=k) for k in r.knows if k not in keys]
            if r.disguise and r.disguise not in keys:
                errors.append(T.CFG_UNKNOWN_DISGUISE.format(role=r.name, disguise=r.disguise))
        codes = [c for r in roles for c in r.codes]
        dup = sorted({c for c in codes if codes.count(c) > 1})
        if dup:
            errors.append(T.CFG_DUPLICATE_CODES.format(dup=T.LIST_SEP.join(dup)))
        problems(errors)
        return roles

    @field_validator("counts")
    @classmethod
    def _apply_counts(cls, counts: dict[str, int], info: ValidationInfo) -> dict[str, int]:
        roles: list[Role] | None = info.data.get("roles")
        if roles is None:
            return counts
        keys = [r.key for r in roles]
        errors = [T.CFG_UNKNOWN_COUNT_ROLE.format(key=k) for k in counts if k not in keys]
        n = {r.key: counts.get(r.key, r.count) for r in roles}
        errors += [T.CFG_TOO_FEW_CODES.format(role=r.name, n=n[r.key], n_codes=len(r.codes))
                   for r in roles if r.codes and len(r.codes) < n[r.key]]
        if sum(n.values()) <= 0:
            errors.append(T.CFG_NO_PLAYERS)
        problems(errors)
        return counts

    @field_validator("groups")
    @classmethod
    def _groups(cls, groups: list[Group], info: ValidationInfo) -> list[Group]:
        roles: list[Role] | None = info.data.get("roles")
        if roles is None:
            return groups
        keys = [r.key for r in roles]
        errors: list[str] = []
        for g in groups:
            errors += [T.CFG_GROUP_UNKNOWN_ROLE.format(group=g.key, role=k) for k in g.roles if k not in keys]
            errors += [T.CFG_GROUP_UNKNOWN_SUBSTITUTE.format(group=g.key, role=k)
                       for tier in g.substitutes for k in tier.roles if k not in keys]
        problems(errors)
        return groups

    @field_validator("rounds")
    @classmethod
    def _rounds(cls, rounds: list[Row], info: ValidationInfo) -> list[Row]:
        groups: list[Group] | None = info.data.get("groups")
        errors = [] if rounds else [T.CFG_NO_ROUNDS]
        if groups is not None:
            gkeys = [g.key for g in groups]
            for i, row in enumerate(rounds, 1):
                errors += posts_problems(row.posts, gkeys, T.CFG_ROUND_LABEL.format(i=i))
        problems(errors)
        return rounds

    @field_validator("options")
    @classmethod
    def _options(cls, opts: Options, info: ValidationInfo) -> Options:
        if "roles" not in info.data:
            return opts
        n = _counts(info)
        errors: list[str] = []
        if opts.fill_role and opts.fill_role not in n:
            errors.append(T.CFG_UNKNOWN_FILL_ROLE.format(fill_role=opts.fill_role))
        if opts.signal_carriers and n.get("du_sha", 0) < opts.signal_carriers:
            errors.append(T.CFG_TOO_FEW_CARRIERS.format(signal_carriers=opts.signal_carriers))
        problems(errors)
        return opts

    @field_validator("signals")
    @classmethod
    def _signals(cls, signals: list[list[str]], info: ValidationInfo) -> list[list[str]]:
        opts: Options | None = info.data.get("options")
        pool: list[list[str]] | None = info.data.get("signal_pool")
        carriers = opts.signal_carriers if opts else 0
        if carriers and signals and len(signals) != carriers:
            problems([T.CFG_SIGNALS_COUNT.format(carriers=carriers)])
        elif carriers and not signals and pool is not None and len(pool) < carriers:
            problems([T.CFG_SIGNAL_POOL_SHORT.format(carriers=carriers)])
        return signals

    @field_validator("effects")
    @classmethod
    def _effects(cls, eff: Effects, info: ValidationInfo) -> Effects:
        roles: list[Role] | None = info.data.get("roles")
        if roles is None:
            return eff
        keys = [r.key for r in roles]
        errors: list[str] = []
        for i, rule in enumerate(eff.post, 1):
            for side in ("poster", "target"):
                bad = [k for k in getattr(rule, side) if k != "*" and k not in keys]
                if bad:
                    errors.append(T.CFG_EFFECT_POST_UNKNOWN_ROLE.format(i=i, side=side, roles=T.LIST_SEP.join(bad)))
        errors += [T.CFG_EFFECT_VOTE_UNKNOWN_ROLE.format(i=i, role=rule.role)
                   for i, rule in enumerate(eff.vote, 1) if rule.role not in keys]
        for name in ("revive", "soul_move", "soul_back"):
            t = getattr(eff, name)
            if t.role not in keys:
                errors.append(T.CFG_EFFECT_UNKNOWN_ROLE.format(name=name, role=t.role))
            if getattr(t, "becomes", "") and t.becomes not in keys:
                errors.append(T.CFG_EFFECT_UNKNOWN_BECOMES.format(name=name, becomes=t.becomes))
        problems(errors)
        return eff

    # ---- look-ups (computed once per settings object: settings never change) ----------------

    @cached_property
    def role_of(self) -> dict[str, Role]:
        return {r.key: r for r in self.roles}

    @cached_property
    def group_of(self) -> dict[str, Group]:
        return {g.key: g for g in self.groups}

    @cached_property
    def role_keys(self) -> list[str]:
        """Role keys in role order (§十六's code-name order starts here)."""
        return [r.key for r in self.roles]

    @cached_property
    def posting(self) -> frozenset[str]:
        """The roles that post for a group, or stand in for one (§九)."""
        keys: set[str] = set()
        for g in self.groups:
            keys.update(g.roles)
            for tier in g.substitutes:
                keys.update(tier.roles)
        return frozenset(keys)

    def role(self, key: str) -> Role:
        return self.role_of[key]

    def group(self, key: str) -> Group:
        return self.group_of[key]


def row_errors(row: dict[str, Any], gkeys: list[str], label: str) -> list[str]:
    """The mistakes in one row of the round table (/改进程), each as
    ``第3轮：…``."""
    parsed, errors = validate(Row, row)
    lines = [T.CFG_ROW_ERROR.format(label=label, line=line) for line in errors]
    if parsed is not None:
        row.setdefault("posts", {})
        lines += posts_problems(parsed.posts, gkeys, label)
    return lines
