"""88人场's post desk: the player's role text, the round's duties and deadlines, a
post editor with the figures /完成 checks (the engine's own measure and limits, via a
small JSON endpoint), the own posts and their state. Hosts get a desk of the round's
posts with figures, approve / reject, and the resolution steps (/结算)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from plugins.gamekit.contract import Rejected
from plugins.kernel.web.page import View, WebPage, register_page

from .engine import ENGINE
from .engine import texts as T
from .engine.model import name, rnd, row, when
from .engine.rules_posts import STATUS_NAME, _quota_text, group_for, measure_text, post_problems
from .engine.texts import figures_line

WORDS = T.WEB_WORDS
HOST_WORDS = T.WEB_HOST_WORDS
MAX_MEASURE = 20000


def _reason(post: dict[str, Any]) -> str:
    notes = [h.get("note", "") for h in post.get("history", []) if h.get("event") == "rejected"]
    return notes[-1] if notes else ""


def _post(st: dict[str, Any], cfg: dict[str, Any], p: dict[str, Any], *, host: bool) -> dict[str, Any]:
    out = {"id": p["id"], "round": p["round"], "target": name(st, p["target"]), "status": p["status"],
           "status_name": STATUS_NAME.get(p["status"], p["status"]), "kind": p["kind"], "reason": _reason(p),
           "figures": figures_line(p["figures"]) if p.get("figures") else T.TEXT_MISSING}
    if host:
        limits = cfg["limits"]
        minimum = limits["post_min"] if not any(h["event"] == "rewrite" for h in p["history"]) else limits["rewrite_min"]
        fig = measure_text(p["text"]) if p.get("text") else None
        out |= {"author": name(st, p["author"]), "code": p["code"], "group": p["group"], "text": p.get("text") or "",
                "problems": post_problems(fig, minimum, limits) if fig else []}
    return out


def view(v: View) -> dict[str, Any]:
    st, cfg = v.state, v.settings
    r = st["round"]
    cur = rnd(st, r)
    tr = row(st, r)
    due = cur["due"]
    out: dict[str, Any] = {
        "round": r, "step": st["step"], "votes": tr["votes"], "out": tr["out"], "quota": _quota_text(st, r),
        "due": {"posts": when(st, due.get("posts")), "publish": when(st, due.get("publish")),
                "close": when(st, due.get("close")), "white": when(st, due.get("white"))},
        "limits": {k: cfg["limits"][k] for k in ("post_min", "rewrite_min", "quote_max_percent", "repeat_max_percent")},
        "players": [{"seat": int(s), "name": name(st, int(s))} for s in sorted(st["players"], key=int)],
        "me": None, "desk": None,
    }
    if v.seat is not None and str(v.seat) in st["players"]:
        p = st["players"][str(v.seat)]
        try:
            duty = T.WEB_DUTY.format(group=group_for(st, cfg, v.seat, r))
        except Rejected as exc:
            duty = str(exc)
        d = st["drafts"].get(str(v.seat))
        out["me"] = {
            "role": ENGINE.private_info(st, v.seat, settings=cfg), "alive": p["alive"], "duty": duty,
            "posts": [_post(st, cfg, q, host=False) for q in st["posts"] if q["author"] == v.seat],
            "draft": {"target": name(st, d["target"]), "chars": measure_text("\n".join(d["parts"])).chars,
                      "mode": d["mode"], "post": d.get("post")} if d else None,
        }
    if v.is_host:
        out["desk"] = [_post(st, cfg, q, host=True) for q in st["posts"] if q["round"] == r or q["status"] in ("pending", "white", "rejected")]
    return out


def measure(v: View, body: dict[str, Any]) -> dict[str, Any]:
    """The figures /完成 will check, for the editor (nothing is stored)."""
    text = body.get("text")
    if not isinstance(text, str):
        return {"ok": False, "error": T.WEB_BAD_INPUT}
    text = text[:MAX_MEASURE]
    limits = v.settings["limits"]
    minimum = limits["rewrite_min"] if body.get("mode") == "rewrite" else limits["post_min"]
    fig = measure_text(text)
    return {"ok": True, "figures": dataclasses.asdict(fig), "line": figures_line(dataclasses.asdict(fig)),
            "problems": post_problems(fig, minimum, limits), "minimum": minimum}


PAGE = register_page("mafia88", WebPage(
    title=T.WEB_TITLE, static=Path(__file__).with_name("static"), view=view, words=WORDS, host_words=HOST_WORDS,
    extra={"api": {"measure": measure}},
))
