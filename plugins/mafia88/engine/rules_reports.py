"""Reports (报道, §十一): counted at once; short or rejected reports must be
redone before round 1 ends, or the player is out."""

from __future__ import annotations

import plugins.mafia88.engine.texts as T
from plugins.gamekit.contract import Actor, Ctx, Effect, Rejected, Say

from .args import PlayerReason, TextArgs
from .checks import measure_text, problems
from .content import Settings
from .model import iso, name, rnd, when
from .originality import earlier_texts, flagged, overlap_line, overlap_of
from .state import Report, State, Step
from .texts import figures_line


def report_open(state: State) -> None:
    if state.round != 1 or rnd(state).closed or state.step == Step.OVER:
        raise Rejected(T.REPORT_CLOSED)


def report(state: State, actor: Actor, args: TextArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/报道 <正文>."""
    cfg = ctx.settings
    text = args.text
    report_open(state)
    seat = actor.seat
    assert seat is not None  # who="player"
    p = state.players[seat]
    prev = p.report
    redo = bool(prev and prev.rejected)
    limits = cfg.limits
    minimum = limits.report_redo_min if redo else limits.report_min
    if len(text) > limits.report_max:
        raise Rejected(T.REPORT_TOO_LONG.format(n_text=len(text), report_max=limits.report_max))
    fig = measure_text(text)
    bad = problems(fig, minimum, limits)
    # the figures are not kept (the reply gave them): the state keeps what the rules decide on, the
    # length for the hosts' sheet, and the text (a row of its own, TEXTS) with its overlap with the
    # game's earlier texts for the hosts (§十一.1 原创首发)
    overlap = overlap_of(text, earlier_texts(state, cfg, skip_seat=seat), cfg)
    p.report = Report(chars=fig.chars, ok=not bad, need=minimum, rejected=redo and bool(bad), seq=ctx.seq,
                      at=iso(ctx.now), note=prev.note if prev else "", text=text, overlap=overlap)
    line = figures_line(fig)
    fx: list[Effect] = []
    if flagged(overlap):
        fx.append(Say("hosts", T.OV_HOSTS_REPORT.format(seat=seat, player=name(state, seat), line=overlap_line(overlap))))
    if bad:
        close = rnd(state).due.close
        return [Say("reply", T.REPORT_FAILED.format(line=line, bad=T.SEMI_SEP.join(bad), close=when(state, close))), *fx]
    fx.insert(0, Say("reply", T.REPORT_OK.format(line=line)))
    if cfg.options.publish_reports:  # §十一: 跟帖报道, under the alias (§十二.2)
        fx.append(Say("group", T.REPORT_POST.format(seat=name(state, seat), text=text, n=seat)))
    return fx


def reject_report(state: State, actor: Actor, args: PlayerReason, ctx: Ctx[Settings]) -> list[Effect]:
    """/退回报道 (§十一.3/4): a host rejects a report (genre etc.): redo at 601+."""
    cfg = ctx.settings
    seat = args.player
    if state.round != 1 or rnd(state).closed:
        raise Rejected(T.REPORT_REJECT_LATE)
    p = state.players.get(seat)
    if p is None:
        raise Rejected(T.NO_SUCH_SEAT.format(seat=seat))
    reason = args.reason.strip() or T.REPORT_REJECT_DEFAULT
    minimum = cfg.limits.report_redo_min
    prev = p.report
    p.report = Report(chars=prev.chars if prev else None, ok=False, need=minimum, rejected=True,
                      seq=prev.seq if prev else ctx.seq, at=prev.at if prev else iso(ctx.now), note=reason,
                      text=prev.text if prev else "", overlap=prev.overlap if prev else [])
    close = rnd(state).due.close
    return [
        Say("reply", T.REPORT_REJECTED.format(seat=name(state, seat), minimum=minimum)),
        Say(seat, T.REPORT_REJECTED_TELL.format(reason=reason, close=when(state, close), minimum=minimum)),
    ]


def failing_reports(state: State, cfg: Settings) -> list[int]:
    required = cfg.options.report_required
    out = []
    for seat, p in sorted(state.players.items()):
        if not p.alive:
            continue
        rep = p.report
        if (rep is None and required) or (rep is not None and not rep.ok):
            out.append(seat)
    return out
