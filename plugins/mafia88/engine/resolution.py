"""Resolution in one fixed order (RULES.md "Resolution order").

Publication of a round's posts:
  1. judge every post against the board as it was when posts closed, in
     code-name order (§六.2), by the first matching ``[[effects.post]]`` rule
     (effects.toml) — a host's ``/改判`` replaces a step's effect;
  2. redirects and counters: 移魂 moves one post death to another player,
     还魂 cancels that move (§五白4, 黑8);
  3. deaths are marked first and applied once each (nobody dies twice);
  4. triggered effects last: 照出真身 (shown with the result post),
     countdowns (§五白1/黑1), the 地雷's identity check (§五黑5).

The vote result: voted out → 复活 spares one → take-alongs and 魔镜 reveals
chosen from the voter lines → pending marks (non-voters, reports, countdowns,
unwritten thank-you letters / 追魂) → applied once each.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import plugins.mafia88.engine.texts as T
from plugins.gamekit.contract import Effect

from .content import PostRule, Settings
from .effects import EFFECT_NAME, MANUAL_RULE, post_rule
from .model import code_rank, mark_out, name, role_name
from .state import Cause, Death, Override, Post, PostEffect, SoulBack, SoulMove, State, Take


@dataclass
class Mark:
    seat: int
    cause: Cause
    reason: str  # Chinese, shown in the result and the export
    post: int | None = None
    cancelled: bool = False


@dataclass(frozen=True)
class Step:
    """One numbered step of the explanation for hosts."""

    n: int
    post: int | None
    kind: Literal["post", "move", "back"]
    text: str


@dataclass(frozen=True)
class Trigger:
    """A triggered effect, recorded once the deaths are applied (step 4), or a soul text to publish."""

    kind: Literal["reveal", "countdown", "check", "moved", "backed"]
    seat: int = 0
    code: str = ""


@dataclass
class Resolution:
    round: int
    marks: list[Mark] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # extra lines for the announcement
    steps: list[Step] = field(default_factory=list)  # the explanation for hosts

    def mark(self, seat: int, cause: Cause, reason: str, post: int | None = None) -> None:
        """Mark a death; a seat already marked keeps its first (higher-priority) mark."""
        if any(m.seat == seat and not m.cancelled for m in self.marks):
            return
        self.marks.append(Mark(seat, cause, reason, post))

    def marked(self, seat: int) -> Mark | None:
        return next((m for m in self.marks if m.seat == seat and not m.cancelled), None)

    def spare(self, seat: int) -> None:
        """Cancel a pending mark (移魂, 还魂, 复活)."""
        for m in self.marks:
            if m.seat == seat:
                m.cancelled = True

    def apply(self, state: State, effects: list[Effect]) -> list[Mark]:
        """Apply the marks once each; returns the marks that took effect."""
        done: list[Mark] = []
        for m in self.marks:
            if not m.cancelled and mark_out(state, m.seat, m.cause, m.reason, effects, post=m.post):
                done.append(m)
        return done


# ---- publication -------------------------------------------------------------

@dataclass(frozen=True)
class PostItem:
    post: int
    author: int
    target: int
    code: str
    effect: PostEffect
    rule: PostRule
    override: Override | None
    spent: bool = False  # the target's 同归 is spent (§十二.5)


Item = PostItem | SoulMove | SoulBack


def plan_posts(state: State, cfg: Settings, r: int, posts: list[Post]) -> list[PostItem]:
    """Step 1: one numbered step per post, in code-name order. Pure."""
    items = []
    for p in sorted(posts, key=lambda p: (code_rank(state, cfg, p.author), p.id)):
        a, t = p.author, p.target
        ak, tk = state.players[a].role, state.players[t].role
        rule = post_rule(cfg, ak, tk, r) if cfg.options.role_effects else MANUAL_RULE
        ov = state.overrides.get(p.id)
        effect = ov.effect if ov else PostEffect(rule.effect)
        spent = ov is None and effect == PostEffect.MUTUAL and state.players[t].fireworks_spent
        if spent:  # §十二.5: revived after its white slip was not made good, its 烟花 is gone
            effect = PostEffect.KILL
        items.append(PostItem(p.id, a, t, p.code, effect, rule, ov, spent))
    return items


def plan_souls(state: State, r: int) -> list[SoulMove | SoulBack]:
    """Step 2: 移魂 and 还魂 of this round (rounds 2–3), after the posts."""
    souls = state.souls.get(r)
    if souls is None:
        return []
    return [x for x in (souls.move, souls.back) if x is not None]


def step_text(state: State, cfg: Settings, r: int, n: int, item: Item) -> str:
    if isinstance(item, PostItem):
        a, t = item.author, item.target
        tr = role_name(state, cfg, t)
        rule = item.rule
        line = (T.STEP_POST.format(n=n, code=item.code, poster_role=role_name(state, cfg, a), poster=name(state, a), target=name(state, t), target_seat=t, target_role=tr, r=r, effect=EFFECT_NAME[item.effect].replace(T.TARGET_WORD, tr)))
        if item.override:
            ov = item.override
            line += T.STEP_OVERRIDDEN.format(by=ov.by, why=ov.why, effect_name=EFFECT_NAME[rule.effect])
        elif item.spent:
            line += T.STEP_FIREWORKS_SPENT
        elif rule.clause:
            line += T.STEP_CLAUSE.format(clause=rule.clause)
        if rule.check and item.effect == PostEffect.MUTUAL and not item.override:
            line += T.STEP_MAY_CHECK.format(seat=t)
        return line
    if isinstance(item, SoulMove):
        return (T.STEP_SOUL_MOVE.format(n=n, by=name(state, item.by), source=name(state, item.from_), to=name(state, item.to), source_seat=item.from_, to_seat=item.to))
    return (T.STEP_SOUL_BACK.format(n=n, by=name(state, item.by), to=name(state, item.to)))


KILLS = (PostEffect.KILL, PostEffect.MUTUAL, PostEffect.REVEAL_KILL, PostEffect.COUNTDOWN)
REVEALS = (PostEffect.REVEAL, PostEffect.REVEAL_KILL, PostEffect.COUNTDOWN)


def resolve_posts(state: State, cfg: Settings, r: int, posts: list[Post]) -> tuple[Resolution, list[Trigger]]:
    """Steps 1–3 without applying anything: the Resolution to apply and the
    triggered effects (step 4) to record once it is applied."""
    res = Resolution(r)
    items: list[Item] = [*plan_posts(state, cfg, r, posts), *plan_souls(state, r)]
    triggered: list[Trigger] = []
    for n, item in enumerate(items, 1):
        kind: Literal["post", "move", "back"] = "post" if isinstance(item, PostItem) else "move" if isinstance(item, SoulMove) else "back"
        res.steps.append(Step(n, item.post if isinstance(item, PostItem) else None, kind, step_text(state, cfg, r, n, item)))
        if not isinstance(item, PostItem):
            continue
        a, t, e, pid = item.author, item.target, item.effect, item.post
        code = item.code
        if e in KILLS:
            res.mark(t, Cause.POST, T.OUT_POSTED.format(r=r, code=code), post=pid)
        if e == PostEffect.MUTUAL:
            res.mark(a, Cause.MUTUAL, T.OUT_MUTUAL.format(r=r, target=name(state, t)))
        if e == PostEffect.POSTER_DIES:
            res.mark(a, Cause.MINE, T.OUT_MINE.format(r=r))
        if e in REVEALS:
            triggered.append(Trigger("reveal", a, code))
        if e == PostEffect.COUNTDOWN:
            triggered.append(Trigger("countdown", a, code))
        if e == PostEffect.MUTUAL and item.rule.check and not item.override and not item.spent:
            triggered.append(Trigger("check", t))
    # step 2: redirects, then counters
    moved: SoulMove | None = None
    for item in items:
        if isinstance(item, SoulMove):
            m = res.marked(item.from_)
            if m is not None and m.cause == Cause.POST and state.players[item.to].alive:
                res.spare(item.from_)
                res.mark(item.to, Cause.SOUL, T.OUT_SOUL_MOVED.format(r=r, source=name(state, item.from_)))
                moved = moved or item
                triggered.append(Trigger("moved"))
            else:
                res.notes.append(T.SOUL_MOVE_VOID)
    for item in items:
        if isinstance(item, SoulBack):
            if moved is not None and item.to == moved.to:
                res.spare(item.to)
                res.mark(moved.from_, Cause.POST, T.OUT_POSTED_MOVE_UNDONE.format(r=r))
                triggered.append(Trigger("backed"))
            else:
                res.notes.append(T.SOUL_BACK_VOID)
    return res, triggered


# ---- the vote result -------------------------------------------------------

@dataclass(frozen=True)
class ResultInput:
    voted_out: list[int]
    marks: list[Death]  # pending: non-voters, reports, countdowns, unwritten letters
    takes: list[Take]
    revived: list[int]


ResultStep = Callable[[State, Resolution, ResultInput], None]


def vote_outs(state: State, res: Resolution, data: ResultInput) -> None:
    """The top-voted go out (§十三); a player the 复活 chose is spared (§五白6)."""
    for s in data.voted_out:
        if s in data.revived:
            continue
        res.mark(s, Cause.VOTE, T.OUT_VOTED.format(round=res.round))


def take_alongs(state: State, res: Resolution, data: ResultInput) -> None:
    """Voters taken along by a voted-out 联合蛋/独立杀/地雷 (§五白3, 黑3, 黑5)."""
    for t in data.takes:
        for s in t.seats:
            res.mark(s, Cause.TAKE, T.OUT_TAKEN.format(round=res.round, seat=name(state, t.seat), clause=t.clause))


def pending_marks(state: State, res: Resolution, data: ResultInput) -> None:
    """Non-voters (§十三.2), failed reports (§十一.2), countdowns (§五白1/黑1), unwritten letters."""
    for m in data.marks:
        res.mark(m.seat, m.cause, m.reason)


RESULT_STEPS: list[ResultStep] = [vote_outs, take_alongs, pending_marks]


def result_steps_text(state: State, cfg: Settings, r: int) -> str:
    """The vote result of round r as numbered steps, for hosts (/改判 结果<n> changes one)."""
    res = state.rounds[r].result
    assert res is not None
    lines = []
    for i, st in enumerate(res.steps, 1):
        if st.out:
            line = T.RESULT_STEP.format(i=i, seat=name(state, st.seat), seat_name=role_name(state, cfg, st.seat), reason=st.reason)
        else:
            line = T.RESULT_STEP_REVIVED.format(n_steps=i, items=name(state, st.seat))
        if st.override:
            line += T.RESULT_STEP_OVERRIDDEN.format(word=st.override)
        lines.append(line)
    tail = T.RESULT_STEPS_HOW.format(n=1) if res.steps else ""
    return T.RESULT_STEPS_HEAD.format(r=r) + ("\n".join(lines) or T.NOBODY_OUT) + tail


def run(state: State, r: int, steps: list[ResultStep], data: ResultInput, effects: list[Effect]) -> tuple[Resolution, list[Mark]]:
    res = Resolution(r)
    for step in steps:
        step(state, res, data)
    return res, res.apply(state, effects)
