"""Reports (报道, §十一): counted at once; short or rejected reports must be
redone before round 1 ends, or the player is out."""

from __future__ import annotations

import dataclasses

from plugins.kernel.contract import Actor, Ctx, Rejected, Say
from plugins.kernel.textcheck import measure

from .model import Settings, State, iso, name, player, rnd, when
from .rules_posts import problems
from .texts import figures_line


def _open(state: State) -> None:
    if state["round"] != 1 or rnd(state)["closed"] or state["step"] == "over":
        raise Rejected("报道已截止（第1轮结束前有效，§十一.2）。")


def report(state: State, actor: Actor, text: str, ctx: Ctx) -> list:
    cfg = ctx.settings
    _open(state)
    if actor.seat is None:
        raise Rejected("你不是本局玩家，不能报道。")
    prev = state["players"][str(actor.seat)]["report"]
    redo = bool(prev and prev.get("rejected"))
    limits = cfg["limits"]
    minimum = limits["report_redo_min"] if redo else limits["report_min"]
    if len(text) > limits.get("report_max", 3000):
        raise Rejected(f"报道太长：{len(text)} 字，最多 {limits.get('report_max', 3000)} 字。请删短后重新 /报道。")
    fig = measure(text)
    bad = problems(fig, minimum, limits)
    # the text itself is not kept in the state (issue 19: small states): it stays in the
    # command log (and the /导出 sheet of commands), and a valid one is posted in the group
    state["players"][str(actor.seat)]["report"] = {
        "text": "", "figures": dataclasses.asdict(fig), "ok": not bad, "need": minimum,
        "rejected": redo and bool(bad), "seq": ctx.seq, "at": iso(ctx.now), "note": prev.get("note", "") if prev else "",
    }
    line = figures_line(dataclasses.asdict(fig))
    if bad:
        close = rnd(state)["due"]["close"]
        return [Say("reply", f"报道已统计：{line}。不合格：{'；'.join(bad)}。请在第1轮投票截止（{when(state, close)}）前重新 /报道，否则出局（§十一.2）。")]
    fx = [Say("reply", f"报道已统计：{line}。合格。")]
    if cfg["options"].get("publish_reports", True):  # §十一: 跟帖报道, under the alias (12.2)
        fx.append(Say("group", f"【{name(state, actor.seat)} 报道】\n{text}"))
    return fx


def reject_report(state: State, seat: int, reason: str, ctx: Ctx) -> list:
    """§十一.3/4: a host rejects a report (genre etc.): redo at 601+."""
    cfg = ctx.settings
    if state["round"] != 1 or rnd(state)["closed"]:
        raise Rejected("第1轮已结束，不合格报道直接判出局（§十一.3），请用 /判出局。")
    p = player(state, seat)
    if p is None:
        raise Rejected(f"没有 {seat} 号玩家。")
    reason = reason.strip() or "不符合报道要求"
    minimum = cfg["limits"]["report_redo_min"]
    rep = dict(p["report"] or {"text": "", "figures": None, "seq": ctx.seq, "at": iso(ctx.now)})
    rep.update(ok=False, rejected=True, need=minimum, note=reason)
    p["report"] = rep
    close = rnd(state)["due"]["close"]
    return [
        Say("reply", f"已退回 {name(state, seat)} 的报道，须在第1轮结束前重报 {minimum} 字以上。"),
        Say(seat, f"你的报道被哨子退回：{reason}。请在第1轮投票截止（{when(state, close)}）前重新 /报道 {minimum} 字以上（§十一.3），否则出局。"),
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
