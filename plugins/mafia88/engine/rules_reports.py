"""Reports (报道, §十一): counted at once; short or rejected reports must be
redone before round 1 ends, or the player is out."""

from __future__ import annotations

import dataclasses

from plugins.gamekit.contract import Actor, Ctx, Rejected, Say
from plugins.gamekit.textcheck import measure

from . import texts as T
from .model import Settings, State, iso, name, player, rnd, when
from .rules_posts import problems
from .texts import figures_line


def _open(state: State) -> None:
    if state["round"] != 1 or rnd(state)["closed"] or state["step"] == "over":
        raise Rejected(T.REPORT_CLOSED)


def report(state: State, actor: Actor, text: str, ctx: Ctx) -> list:
    cfg = ctx.settings
    _open(state)
    if actor.seat is None:
        raise Rejected(T.REPORT_NOT_PLAYER)
    prev = state["players"][str(actor.seat)]["report"]
    redo = bool(prev and prev.get("rejected"))
    limits = cfg["limits"]
    minimum = limits["report_redo_min"] if redo else limits["report_min"]
    if len(text) > limits.get("report_max", 3000):
        raise Rejected(T.REPORT_TOO_LONG.format(n_text=len(text), report_max=limits.get("report_max", 3000)))
    fig = measure(text)
    bad = problems(fig, minimum, limits)
    # neither the text nor its figures are kept in the state (issue 19: small states; every later
    # write of the game carried them): the text stays in the command log (and the /导出 sheet of
    # commands), a valid one is posted in the group, and the reply gave the figures; the state keeps
    # what the rules decide on, and the length for the hosts' sheet
    state["players"][str(actor.seat)]["report"] = {
        "chars": fig.chars, "ok": not bad, "need": minimum, "rejected": redo and bool(bad), "seq": ctx.seq,
        "at": iso(ctx.now), "note": prev.get("note", "") if prev else "",
    }
    line = figures_line(dataclasses.asdict(fig))
    if bad:
        close = rnd(state)["due"]["close"]
        return [Say("reply", T.REPORT_FAILED.format(line=line, bad=T.SEMI_SEP.join(bad), close=when(state, close)))]
    fx = [Say("reply", T.REPORT_OK.format(line=line))]
    if cfg["options"].get("publish_reports", True):  # §十一: 跟帖报道, under the alias (12.2)
        fx.append(Say("group", T.REPORT_POST.format(seat=name(state, actor.seat), text=text)))
    return fx


def reject_report(state: State, seat: int, reason: str, ctx: Ctx) -> list:
    """§十一.3/4: a host rejects a report (genre etc.): redo at 601+."""
    cfg = ctx.settings
    if state["round"] != 1 or rnd(state)["closed"]:
        raise Rejected(T.REPORT_REJECT_LATE)
    p = player(state, seat)
    if p is None:
        raise Rejected(T.NO_SUCH_SEAT.format(seat=seat))
    reason = reason.strip() or T.REPORT_REJECT_DEFAULT
    minimum = cfg["limits"]["report_redo_min"]
    rep = dict(p["report"] or {"chars": None, "seq": ctx.seq, "at": iso(ctx.now)})
    rep.update(ok=False, rejected=True, need=minimum, note=reason)
    p["report"] = rep
    close = rnd(state)["due"]["close"]
    return [
        Say("reply", T.REPORT_REJECTED.format(seat=name(state, seat), minimum=minimum)),
        Say(seat, T.REPORT_REJECTED_TELL.format(reason=reason, close=when(state, close), minimum=minimum)),
    ]


def failing_reports(state: State, cfg: Settings) -> list[int]:
    required = cfg["options"]["report_required"]
    out = []
    for seat in sorted(int(s) for s in state["players"]):
        p = state["players"][str(seat)]
        if not p["alive"]:
            continue
        rep = p["report"]
        if (rep is None and required) or (rep is not None and not rep["ok"]):
            out.append(seat)
    return out
