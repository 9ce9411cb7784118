"""88人场's post desk: the player's role text, the round's duties and deadlines, a
post editor with the figures /完成 checks (the engine's own measure and limits, via a
small JSON endpoint), the own posts and their state. Hosts get a desk of the round's
posts with figures, approve / reject, and the resolution steps (/结算)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, cast

from plugins.gamekit.contract import Rejected
from plugins.kernel.web.page import View, WebPage, register_page

from .engine import ENGINE
from .engine import texts as T
from .engine.checks import measure_text, post_problems
from .engine.content import Settings
from .engine.model import name, rnd, row, when
from .engine.rules_posts import STATUS_NAME, group_for, quota_text
from .engine.state import Event, Post, PostStatus, State
from .engine.texts import figures_line

WORDS = T.WEB_WORDS
HOST_WORDS = T.WEB_HOST_WORDS
MAX_MEASURE = 20000
OPEN = (PostStatus.PENDING, PostStatus.WHITE, PostStatus.REJECTED)


def settings_of(v: View) -> Settings:
    """The game's typed settings (``View.settings`` holds the engine's model; the kernel types it as a dict)."""
    return cast(Settings, v.settings)


def reason_of(post: Post) -> str:
    notes = [h.note for h in post.history if h.event == Event.REJECTED]
    return notes[-1] if notes else ""


def post_view(st: State, cfg: Settings, p: Post, *, host: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": p.id, "round": p.round, "target": name(st, p.target), "status": p.status,
        "status_name": STATUS_NAME[p.status], "kind": p.kind, "reason": reason_of(p),
        "figures": figures_line(p.figures) if p.figures else T.TEXT_MISSING}
    if host:
        limits = cfg.limits
        minimum = limits.post_min if not any(h.event == Event.REWRITE for h in p.history) else limits.rewrite_min
        fig = measure_text(p.text) if p.text else None
        out |= {"author": name(st, p.author), "code": p.code, "group": p.group, "text": p.text,
                "problems": post_problems(fig, minimum, limits) if fig else []}
    return out


def view(v: View) -> dict[str, Any]:
    st: State = v.state
    cfg = settings_of(v)
    r = st.round
    due = rnd(st, r).due
    tr = row(st, r)
    out: dict[str, Any] = {
        "round": r, "step": st.step, "votes": tr.votes, "out": tr.out, "quota": quota_text(st, r),
        "due": {"posts": when(st, due.posts), "publish": when(st, due.publish),
                "close": when(st, due.close), "white": when(st, due.white)},
        "limits": {"post_min": cfg.limits.post_min, "rewrite_min": cfg.limits.rewrite_min,
                   "quote_max_percent": cfg.limits.quote_max_percent, "repeat_max_percent": cfg.limits.repeat_max_percent},
        "players": [{"seat": s, "name": name(st, s)} for s in sorted(st.players)],
        "me": None, "desk": None,
    }
    me = st.players.get(v.seat) if v.seat is not None else None
    if v.seat is not None and me is not None:
        try:
            duty = T.WEB_DUTY.format(group=group_for(st, cfg, v.seat, r))
        except Rejected as exc:
            duty = str(exc)
        d = st.drafts.get(v.seat)
        out["me"] = {
            "role": ENGINE.private_info(st, v.seat, settings=cfg), "alive": me.alive, "duty": duty,
            "posts": [post_view(st, cfg, q, host=False) for q in st.posts if q.author == v.seat],
            "draft": {"target": name(st, d.target), "chars": measure_text("\n".join(d.parts)).chars,
                      "mode": d.mode, "post": d.post} if d else None,
        }
    if v.is_host:
        out["desk"] = [post_view(st, cfg, q, host=True) for q in st.posts if q.round == r or q.status in OPEN]
    return out


def measure(v: View, body: dict[str, Any]) -> dict[str, Any]:
    """The figures /完成 will check, for the editor (nothing is stored)."""
    text = body.get("text")
    if not isinstance(text, str):
        return {"ok": False, "error": T.WEB_BAD_INPUT}
    text = text[:MAX_MEASURE]
    limits = settings_of(v).limits
    minimum = limits.rewrite_min if body.get("mode") == "rewrite" else limits.post_min
    fig = measure_text(text)
    return {"ok": True, "figures": dataclasses.asdict(fig), "line": figures_line(fig),
            "problems": post_problems(fig, minimum, limits), "minimum": minimum}


PAGE = register_page("mafia88", WebPage(
    title=T.WEB_TITLE, static=Path(__file__).with_name("static"), view=view, words=WORDS, host_words=HOST_WORDS,
    extra={"api": {"measure": measure}},
))
