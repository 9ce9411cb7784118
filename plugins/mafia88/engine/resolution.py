"""Resolution in one fixed order (RULES.md "Resolution order").

Publication of a round's posts:
  1. judge every post against the board as it was when posts closed, in
     code-name order (§六.2), by the first matching ``[[post]]`` rule
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
from typing import Any

from . import texts as T
from .effects import EFFECT_NAME, post_rule
from .model import Settings, State, code_rank, mark_out, name, role_name

POST_CAUSES = ("post", "mutual", "mine", "soul")  # out at the publication: half vote this round (§十三.3)


@dataclass
class Mark:
    seat: int
    cause: str  # "post" | "mutual" | "mine" | "soul" | "vote" | "take" | "novote" | "report" | "giveup" | ...
    reason: str  # Chinese, shown in the result and the export
    post: int | None = None
    cancelled: bool = False


@dataclass
class Resolution:
    round: int
    marks: list[Mark] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # extra lines for the announcement
    steps: list[dict[str, Any]] = field(default_factory=list)  # the explanation for hosts

    def mark(self, seat: int, cause: str, reason: str, post: int | None = None) -> None:
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

    def apply(self, state: State, effects: list) -> list[Mark]:
        """Apply the marks once each; returns the marks that took effect."""
        done: list[Mark] = []
        for m in self.marks:
            if not m.cancelled and mark_out(state, m.seat, m.cause, m.reason, effects, post=m.post):
                done.append(m)
        return done


# ---- publication -------------------------------------------------------------

def plan_posts(state: State, cfg: Settings, r: int, posts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Step 1: one numbered step per post, in code-name order. Pure."""
    overrides = state.setdefault("overrides", {})
    items = []
    for p in sorted(posts, key=lambda p: (code_rank(state, cfg, p["author"]), p["id"])):
        a, t = p["author"], p["target"]
        ak, tk = state["players"][str(a)]["role"], state["players"][str(t)]["role"]
        if cfg["options"]["role_effects"]:
            rule = post_rule(cfg, ak, tk, r)
        else:
            rule = {"effect": "kill", "clause": T.MANUAL_MODE_CLAUSE, "check": False}
        ov = overrides.get(str(p["id"]))
        effect = ov["effect"] if ov else rule["effect"]
        items.append({"kind": "post", "post": p["id"], "author": a, "target": t, "code": p["code"],
                      "effect": effect, "rule": rule, "override": ov})
    return items


def plan_souls(state: State, r: int, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Step 2: 移魂 and 还魂 of this round (rounds 2–3), after the posts."""
    souls = state.get("souls", {}).get(str(r), {})
    out = []
    if "move" in souls:
        out.append({"kind": "move", **souls["move"]})
    if "back" in souls:
        out.append({"kind": "back", **souls["back"]})
    return out


def step_text(state: State, cfg: Settings, r: int, n: int, item: dict[str, Any]) -> str:
    if item["kind"] == "post":
        a, t = item["author"], item["target"]
        tr = role_name(state, cfg, t)
        rule = item["rule"]
        line = (T.STEP_POST.format(n=n, code=item["code"], poster_role=role_name(state, cfg, a), poster=name(state, a), target=name(state, t), target_seat=t, target_role=tr, r=r, effect=EFFECT_NAME[item["effect"]].replace(T.TARGET_WORD, tr)))
        if item["override"]:
            ov = item["override"]
            line += T.STEP_OVERRIDDEN.format(by=ov["by"], why=ov["why"], effect_name=EFFECT_NAME[rule["effect"]])
        elif rule.get("clause"):
            line += T.STEP_CLAUSE.format(clause=rule["clause"])
        if rule.get("check") and item["effect"] == "mutual" and not item["override"]:
            line += T.STEP_MAY_CHECK.format(seat=t)
        return line
    if item["kind"] == "move":
        return (T.STEP_SOUL_MOVE.format(n=n, by=name(state, item["by"]), source=name(state, item["from"]), to=name(state, item["to"]), source_seat=item["from"], to_seat=item["to"]))
    return (T.STEP_SOUL_BACK.format(n=n, by=name(state, item["by"]), to=name(state, item["to"])))


def resolve_posts(state: State, cfg: Settings, r: int, posts: list[dict[str, Any]]) -> tuple[Resolution, list[dict[str, Any]]]:
    """Steps 1–3 without applying anything: the Resolution to apply and the
    triggered effects (step 4) to record once it is applied."""
    res = Resolution(r)
    items = plan_posts(state, cfg, r, posts)
    items += plan_souls(state, r, items)
    triggered: list[dict[str, Any]] = []
    for n, item in enumerate(items, 1):
        res.steps.append({"n": n, "post": item.get("post"), "kind": item["kind"], "text": step_text(state, cfg, r, n, item)})
        if item["kind"] != "post":
            continue
        a, t, e, pid = item["author"], item["target"], item["effect"], item["post"]
        code = item["code"]
        if e in ("kill", "mutual", "reveal_kill", "countdown"):
            res.mark(t, "post", T.OUT_POSTED.format(r=r, code=code), post=pid)
        if e == "mutual":
            res.mark(a, "mutual", T.OUT_MUTUAL.format(r=r, target=name(state, t)))
        if e == "poster_dies":
            res.mark(a, "mine", T.OUT_MINE.format(r=r))
        if e in ("reveal", "reveal_kill", "countdown"):
            triggered.append({"kind": "reveal", "seat": a, "code": code, "by": t})
        if e == "countdown":
            triggered.append({"kind": "countdown", "seat": a, "code": code})
        if e == "mutual" and item["rule"].get("check") and not item["override"]:
            triggered.append({"kind": "check", "seat": t})
    # step 2: redirects, then counters
    for item in items:
        if item["kind"] == "move":
            m = res.marked(item["from"])
            if m is not None and m.cause == "post" and state["players"][str(item["to"])]["alive"]:
                res.spare(item["from"])
                res.mark(item["to"], "soul", T.OUT_SOUL_MOVED.format(r=r, source=name(state, item["from"])))
                item["done"] = True
                triggered.append({"kind": "moved", "from": item["from"], "to": item["to"]})
            else:
                res.notes.append(T.SOUL_MOVE_VOID)
    moved = next((i for i in items if i["kind"] == "move" and i.get("done")), None)
    for item in items:
        if item["kind"] == "back":
            if moved is not None and item["to"] == moved["to"]:
                res.spare(item["to"])
                res.mark(moved["from"], "post", T.OUT_POSTED_MOVE_UNDONE.format(r=r))
                triggered.append({"kind": "backed", "to": item["to"], "from": moved["from"]})
            else:
                res.notes.append(T.SOUL_BACK_VOID)
    return res, triggered


# ---- the vote result -------------------------------------------------------

Step = Callable[[State, Resolution, dict[str, Any]], None]


def vote_outs(state: State, res: Resolution, data: dict[str, Any]) -> None:
    """The top-voted go out (§十三); a player the 复活 chose is spared (§五白6)."""
    for s in data["voted_out"]:
        if s in data.get("revived", []):
            continue
        res.mark(s, "vote", T.OUT_VOTED.format(round=res.round))


def take_alongs(state: State, res: Resolution, data: dict[str, Any]) -> None:
    """Voters taken along by a voted-out 联合蛋/独立杀/地雷 (§五白3, 黑3, 黑5)."""
    for t in data.get("takes", []):
        for s in t["seats"]:
            res.mark(s, "take", T.OUT_TAKEN.format(round=res.round, seat=name(state, t["seat"]), clause=t["clause"]))


def pending_marks(state: State, res: Resolution, data: dict[str, Any]) -> None:
    """Non-voters (§十三.2), failed reports (§十一.2), countdowns (§五白1/黑1), unwritten letters."""
    for m in data["marks"]:
        res.mark(m["seat"], m["cause"], m["reason"])


RESULT_STEPS: list[Step] = [vote_outs, take_alongs, pending_marks]


def run(state: State, r: int, steps: list[Step], data: dict[str, Any], effects: list) -> tuple[Resolution, list[Mark]]:
    res = Resolution(r)
    for step in steps:
        step(state, res, data)
    return res, res.apply(state, effects)
