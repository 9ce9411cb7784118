"""88人场's post desk: the player's role text, the round's duties and deadlines, a
post editor with the figures /完成 checks (the engine's own measure and limits, §六.1 for the
孤杀's first post too, via a small JSON endpoint), the own posts and their state with a 重写
button where a rewrite is due. Hosts get a desk of the round's posts (and the reports) with
figures and their overlap with earlier texts, approve / reject, and the resolution steps."""

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
from .engine.model import iso, name, rnd, row, when
from .engine.originality import flagged, overlap_line
from .engine.rules_posts import (
    STATUS_NAME,
    first_post_problems,
    group_for,
    post_of,
    quota_text,
    rewrite_due_text,
    white_due_at,
)
from .engine.state import DraftMode, Event, Post, PostStatus, State

WORDS = T.WEB_WORDS
HOST_WORDS = T.WEB_HOST_WORDS
MAX_MEASURE = 20000
OPEN = (PostStatus.PENDING, PostStatus.WHITE, PostStatus.REJECTED)
REDO = (PostStatus.WHITE, PostStatus.REJECTED)


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
        "figures": T.figures_line(p.figures) if p.figures else T.TEXT_MISSING,
        "redo": p.status in REDO, "due": rewrite_due_text(st, cfg, p) if p.status in REDO else ""}
    if host:
        limits = cfg.limits
        minimum = limits.post_min if not any(h.event == Event.REWRITE for h in p.history) else limits.rewrite_min
        fig = measure_text(p.text) if p.text else None
        out |= {"author": name(st, p.author), "code": p.code, "group": p.group, "text": p.text,
                "problems": post_problems(fig, minimum, limits) if fig else [],
                "overlap": overlap_line(p.overlap), "flag": flagged(p.overlap)}
    return out


def duty_of(st: State, cfg: Settings, seat: int) -> str:
    """What the player has to do about posts now, in the desk's words (the bot's own rules)."""
    redo = [p for p in st.posts if p.author == seat and p.status in REDO]
    if redo:
        p = redo[0]
        return T.WEB_DUTY_REDO.format(id=p.id, status_name=STATUS_NAME[p.status], due=rewrite_due_text(st, cfg, p),
                                      minimum=cfg.limits.rewrite_min)
    mine = post_of(st, seat, st.round)
    if mine is not None:
        return T.WEB_DUTY_DONE.format(id=mine.id, status_name=STATUS_NAME[mine.status])
    try:
        return T.WEB_DUTY.format(group=group_for(st, cfg, seat, st.round))
    except Rejected as exc:
        return str(exc)


def view(v: View) -> dict[str, Any]:
    st: State = v.state
    cfg = settings_of(v)
    r = st.round
    due = rnd(st, r).due
    tr = row(st, r)
    white = due.white or (iso(white_due_at(st, cfg, r)) if due.posts else None)
    out: dict[str, Any] = {
        "round": r, "step": st.step, "votes": tr.votes, "out": tr.out, "quota": quota_text(st, r),
        "due": {"posts": when(st, due.posts), "publish": when(st, due.publish),
                "close": when(st, due.close), "white": when(st, white)},
        "limits": {"post_min": cfg.limits.post_min, "rewrite_min": cfg.limits.rewrite_min,
                   "quote_max_percent": cfg.limits.quote_max_percent, "repeat_max_percent": cfg.limits.repeat_max_percent},
        "players": [{"seat": s, "name": name(st, s)} for s in sorted(st.players)],
        "me": None, "desk": None, "reports": None,
    }
    me = st.players.get(v.seat) if v.seat is not None else None
    if v.seat is not None and me is not None:
        d = st.drafts.get(v.seat)
        out["me"] = {
            "role": ENGINE.private_info(st, v.seat, settings=cfg), "alive": me.alive, "code": me.code,
            "duty": duty_of(st, cfg, v.seat),
            "targets": [{"seat": s, "name": name(st, s)} for s, p in sorted(st.players.items()) if p.alive and s != v.seat],
            "posts": [post_view(st, cfg, q, host=False) for q in st.posts if q.author == v.seat],
            "draft": {"target": name(st, d.target), "target_seat": d.target, "code": d.code, "text": "\n".join(d.parts),
                      "chars": measure_text("\n".join(d.parts)).chars, "mode": d.mode, "post": d.post} if d else None,
        }
    if v.is_host:
        out["desk"] = [post_view(st, cfg, q, host=True) for q in st.posts if q.round == r or q.status in OPEN]
        out["reports"] = [{"n": s, "player": name(st, s), "chars": p.report.chars or 0, "ok": p.report.ok,
                           "overlap": overlap_line(p.report.overlap), "flag": flagged(p.report.overlap)}
                          for s, p in sorted(st.players.items()) if p.report is not None and p.report.text]
    return out


def measure(v: View, body: dict[str, Any]) -> dict[str, Any]:
    """The figures /完成 will check, for the editor (nothing is stored): the text checks of §十二.2 and,
    for the 孤杀's first post, the aliases of §六.1."""
    text = body.get("text")
    if not isinstance(text, str):
        return {"ok": False, "error": T.WEB_BAD_INPUT}
    text = text[:MAX_MEASURE]
    cfg = settings_of(v)
    limits = cfg.limits
    st: State = v.state
    d = st.drafts.get(v.seat) if v.seat is not None else None
    post = body.get("post")
    if d is not None:
        mode, post_id = d.mode, d.post
    elif body.get("mode") == "rewrite":
        mode, post_id = DraftMode.REWRITE, int(post) if isinstance(post, str) and post.isdigit() else None
    else:
        mode, post_id = DraftMode.NEW, None
    minimum = limits.rewrite_min if mode == DraftMode.REWRITE else limits.post_min
    fig = measure_text(text)
    problems = post_problems(fig, minimum, limits)
    if v.seat is not None and v.seat in st.players:
        problems += first_post_problems(st, cfg, v.seat, mode, post_id, text)
    return {"ok": True, "figures": dataclasses.asdict(fig), "line": T.figures_line(fig),
            "problems": problems, "minimum": minimum}


PAGE = register_page("mafia88", WebPage(
    title=T.WEB_TITLE, static=Path(__file__).with_name("static"), view=view, words=WORDS, host_words=HOST_WORDS,
    extra={"api": {"measure": measure}},
))
