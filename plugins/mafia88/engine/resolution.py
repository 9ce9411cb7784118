"""Deaths are first *marked*, then applied once, in a fixed priority order.

Part 1 registers only the plain steps (a post kills its target; the top-voted
go out). Part 2 adds role effects (地雷, 魔镜, 蛋 fireworks/同归, 移魂, 还魂,
复活, 工兵, 独立杀 taking voters along, …) as further steps: each step reads the
state and the marks so far and may add or cancel marks before anything is
applied, so nobody dies twice and the order of submission never matters.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .model import State, mark_out


@dataclass
class Mark:
    seat: int
    cause: str  # "post" | "vote" | "novote" | "report" | "giveup" | "white" | "host" | part 2 causes
    reason: str  # Chinese, shown in the result and the export
    post: int | None = None
    cancelled: bool = False


@dataclass
class Resolution:
    round: int
    marks: list[Mark] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # extra lines for the announcement

    def mark(self, seat: int, cause: str, reason: str, post: int | None = None) -> None:
        """Mark a death; a seat already marked keeps its first (higher-priority) mark."""
        if any(m.seat == seat and not m.cancelled for m in self.marks):
            return
        self.marks.append(Mark(seat, cause, reason, post))

    def spare(self, seat: int) -> None:
        """Cancel a pending mark (e.g. a revival in part 2)."""
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


Step = Callable[[State, Resolution, dict[str, Any]], None]


def post_kills(state: State, res: Resolution, data: dict[str, Any]) -> None:
    """Plain effect: every published post kills its target (§十二)."""
    for p in data["posts"]:
        if state["players"][str(p["target"])]["alive"]:
            res.mark(p["target"], "post", f"第{res.round}轮被贴杀（{p['code']}）", post=p["id"])


def vote_outs(state: State, res: Resolution, data: dict[str, Any]) -> None:
    """Plain effect: the top-voted go out (§十三)."""
    for s in data["voted_out"]:
        res.mark(s, "vote", f"第{res.round}轮高票出局")


def pending_marks(state: State, res: Resolution, data: dict[str, Any]) -> None:
    """Non-voters (§十三.2) and failed reports (§十一.2) marked at the close."""
    for m in data["marks"]:
        res.mark(m["seat"], m["cause"], m["reason"])


# Priority order; part 2 inserts its steps here (e.g. before post_kills).
PUBLICATION_STEPS: list[Step] = [post_kills]
RESULT_STEPS: list[Step] = [vote_outs, pending_marks]


def run(state: State, r: int, steps: list[Step], data: dict[str, Any], effects: list) -> tuple[Resolution, list[Mark]]:
    res = Resolution(r)
    for step in steps:
        step(state, res, data)
    return res, res.apply(state, effects)
