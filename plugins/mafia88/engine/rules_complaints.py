"""Complaints (§十四, §十二.6): /投诉 by a game alias about a published post or a report, posted in
the group under that alias, within the seed's deadline; the hosts' list (/投诉列表) and their ruling
(/裁决), whose outcome the seed fixes and which is published under aliases."""

from __future__ import annotations

from datetime import datetime

import plugins.mafia88.engine.texts as T
from plugins.gamekit.args import NoArgs
from plugins.gamekit.clock import on_day
from plugins.gamekit.contract import Actor, Ctx, Effect, Rejected, Say, SetTimer

from .args import ComplainArgs, RulingArgs
from .content import Settings
from .ending import check_end
from .model import dt, iso, mark_out, name, rnd, tz, when
from .rules_posts import ask_rewrite, get_post, report_of, text_ref, void_post
from .state import Cause, Complaint, ComplaintKind, ComplaintStatus, Note, Post, PostStatus, State

RULING_WORDS = T.RULING_WORDS


def reports_window(state: State, cfg: Settings) -> datetime:
    """§十四.1: reports may be complained about until 15:00 the day after the report deadline
    (round 1's vote close; fixed when it closes, following /延时 until then)."""
    if state.reports_until:
        return dt(state.reports_until)
    close = rnd(state, 1).due.close
    assert close is not None  # set when round 1 opened
    return on_day(dt(close), cfg.complaints.report_next_day_at, tz(state), 1)


def close_reports_window(state: State, cfg: Settings, closed_at: datetime) -> None:
    """Round 1's vote closed (reports close with it, §十一.2): the report complaint window is fixed."""
    state.reports_until = iso(on_day(closed_at, cfg.complaints.report_next_day_at, tz(state), 1))


def post_words(state: State, p: Post) -> str:
    """A post as the group knows it: number, round, code and target (never its author)."""
    return T.COMPLAINT_ON_POST.format(id=p.id, round=p.round, code=p.code, target=name(state, p.target))


def report_words(state: State, seat: int) -> str:
    return T.COMPLAINT_ON_REPORT.format(n=seat, player=name(state, seat))


def target_of(state: State, cfg: Settings, ref: str) -> tuple[ComplaintKind, int, str, datetime]:
    """(kind, number, how the group names it, complaints until) of a post or report reference."""
    kind, n = text_ref(ref)
    if kind == "report":
        report_of(state, n)  # there is one
        return ComplaintKind.REPORT, n, report_words(state, n), reports_window(state, cfg)
    p = get_post(state, n)
    if not p.text_shown or p.complain_until is None:
        raise Rejected(T.COMPLAIN_NOT_PUBLISHED.format(id=p.id))
    if p.status == PostStatus.VOID:
        raise Rejected(T.COMPLAIN_VOID.format(id=p.id))
    return ComplaintKind.POST, n, post_words(state, p), dt(p.complain_until)


def complain(state: State, actor: Actor, args: ComplainArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/投诉 <贴号|报道号> <理由> (§十四): a game alias, in or out (§十四.4: no outsiders), within the
    deadline (§十四.1); posted publicly under the alias (§十四.2)."""
    cfg = ctx.settings
    seat = actor.seat
    assert seat is not None  # who="player"
    reason = args.reason.strip()
    if not reason:
        raise Rejected(T.COMPLAIN_USAGE)
    kind, n, what, until = target_of(state, cfg, args.ref)
    if ctx.now >= until:
        raise Rejected(T.COMPLAIN_LATE.format(until=when(state, iso(until))))
    c = Complaint(id=len(state.complaints) + 1, by=seat, kind=kind, ref=n, reason=reason, seq=ctx.seq, at=iso(ctx.now),
                  until=iso(until))
    state.complaints.append(c)
    return [
        Say("group", T.COMPLAINT_POST.format(id=c.id, by=name(state, seat), what=what, reason=reason)),
        Say("reply", T.COMPLAINT_FILED.format(id=c.id, until=when(state, c.until))),
        Say("hosts", T.COMPLAINT_HOSTS.format(id=c.id, line=complaint_line(state, c), words=T.LIST_SEP.join(words_for(c.kind)))),
        SetTimer(f"complaint:{c.id}", until),
    ]


def words_for(kind: ComplaintKind) -> tuple[str, ...]:
    return T.RULING_POST_WORDS if kind == ComplaintKind.POST else T.RULING_REPORT_WORDS


def complaint_line(state: State, c: Complaint) -> str:
    """One complaint for hosts: who, about what (a post with its author), why, until when, its state."""
    if c.kind == ComplaintKind.POST:
        p = state.posts[c.ref - 1]
        what = T.COMPLAINT_POST_HOSTS.format(what=post_words(state, p), author=name(state, p.author))
    else:
        what = report_words(state, c.ref)
    status = T.COMPLAINT_STATUS[c.status] + (T.COMPLAINT_RULING.format(ruling=c.ruling) if c.ruling else "")
    return T.COMPLAINT_LINE.format(id=c.id, by=name(state, c.by), what=what, reason=c.reason, until=when(state, c.until), status=status)


def list_complaints(state: State, actor: Actor, args: NoArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/投诉列表: every complaint with its deadline and state, open ones first; the windows open now."""
    cfg = ctx.settings
    order = sorted(state.complaints, key=lambda c: (c.status != ComplaintStatus.OPEN, c.id))
    lines = [T.COMPLAINTS_HEAD.format(n_open=sum(1 for c in order if c.status == ComplaintStatus.OPEN), n=len(order))]
    lines += [complaint_line(state, c) for c in order] or [T.NO_COMPLAINTS]
    windows = [T.WINDOW_POST.format(id=p.id, until=when(state, p.complain_until)) for p in state.posts
               if p.text_shown and p.complain_until and ctx.now < dt(p.complain_until) and p.status != PostStatus.VOID]
    until = reports_window(state, cfg)
    if ctx.now < until:
        windows.insert(0, T.WINDOW_REPORTS.format(until=when(state, iso(until))))
    lines.append(T.WINDOWS_OPEN + (T.LIST_SEP.join(windows) or T.NONE))
    lines.append(T.RULING_HOW.format(post_words=T.LIST_SEP.join(T.RULING_POST_WORDS), report_words=T.LIST_SEP.join(T.RULING_REPORT_WORDS)))
    return [Say("reply", "\n".join(lines))]


def rule(state: State, actor: Actor, args: RulingArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/裁决 <投诉号> <结果> [理由] (§十四.3/6, §十二.6/7, §十一.3): the outcome the seed fixes, published."""
    cfg = ctx.settings
    if not 1 <= args.complaint <= len(state.complaints):
        raise Rejected(T.NO_SUCH_COMPLAINT.format(id=args.complaint))
    c = state.complaints[args.complaint - 1]
    if c.status != ComplaintStatus.OPEN:
        raise Rejected(T.COMPLAINT_RULED.format(id=c.id, status=T.COMPLAINT_STATUS[c.status]))
    word = args.result.strip()
    outcome = RULING_WORDS.get(word)
    if outcome is None or word not in words_for(c.kind):
        raise Rejected(T.RULING_BAD_WORD.format(word=word, words=T.LIST_SEP.join(words_for(c.kind))))
    why = args.reason.strip()
    effects: list[Effect] = []
    steps: list[str] = []
    if outcome == "dismiss":
        c.status = ComplaintStatus.DISMISSED
        notice = T.RULING_DISMISSED.format(id=c.id, why=why or T.RULING_NO_REASON)
    elif c.kind == ComplaintKind.POST:
        p = state.posts[c.ref - 1]
        if p.status == PostStatus.VOID:
            raise Rejected(T.RULING_POST_VOID.format(id=p.id))
        if outcome == "copy":
            c.status = ComplaintStatus.COPY
            author_alive = state.players[p.author].alive
            back = void_post(state, cfg, p, Cause.COMPLAINT, T.OUT_COMPLAINT_COPY.format(r=p.round, id=p.id), ctx, effects)
            steps.append(T.RULING_STEP_COPY.format(id=p.id, code=p.code, author=name(state, p.author),
                                                   fate=T.RULING_AUTHOR_OUT if author_alive else T.RULING_AUTHOR_WAS_OUT))
            steps.append((T.RULING_STEP_BACK if back else T.RULING_STEP_NOT_BACK).format(target=name(state, p.target), id=p.id))
            notice = T.RULING_COPY.format(id=c.id, what=post_words(state, p), author=name(state, p.author),
                                          back=T.TARGET_REVIVED.format(target=name(state, p.target)) if back else "",
                                          why=why or T.RULING_NO_REASON)
        else:
            if p.status not in (PostStatus.PENDING, PostStatus.APPROVED):
                raise Rejected(T.RULING_REWRITE_STATUS.format(id=p.id, status_name=T.STATUS_NAME[p.status]))
            c.status = ComplaintStatus.REWRITE
            due_txt = ask_rewrite(state, cfg, p, why or T.RULING_REWRITE_REASON, ctx, effects)
            steps.append(T.RULING_STEP_REWRITE.format(id=p.id, code=p.code, author=name(state, p.author), due=due_txt))
            notice = T.RULING_REWRITE.format(id=c.id, what=post_words(state, p), due=due_txt, why=why or T.RULING_NO_REASON)
    else:
        seat = c.ref
        if state.round == 1 and not rnd(state, 1).closed:  # §十一.3: 第一轮结束前…需重新报道601字以上
            c.status = ComplaintStatus.REWRITE
            rep = state.players[seat].report
            assert rep is not None
            minimum = cfg.limits.report_redo_min
            rep.ok, rep.need, rep.rejected, rep.note = False, minimum, True, why or T.RULING_REPORT_REASON
            close = rnd(state, 1).due.close
            effects.append(Say(seat, T.REPORT_REJECTED_TELL.format(reason=rep.note, close=when(state, close), minimum=minimum)))
            notice = T.RULING_REPORT_REDO.format(id=c.id, what=report_words(state, seat), minimum=minimum, why=why or T.RULING_NO_REASON)
        else:  # §十一.3: 第一轮结束后，任何形式的不合格报道，皆判出局
            c.status = ComplaintStatus.UPHELD
            if not mark_out(state, seat, Cause.COMPLAINT, T.OUT_COMPLAINT_REPORT, effects):
                raise Rejected(T.ALREADY_OUT.format(seat=name(state, seat)))
            notice = T.RULING_REPORT_OUT.format(id=c.id, what=report_words(state, seat), why=why or T.RULING_NO_REASON)
    c.ruling, c.ruled_by, c.ruled_at = word + (T.COLON + why if why else ""), actor.user_id, iso(ctx.now)
    state.audit.append(Note(seq=ctx.seq, at=iso(ctx.now), by=actor.user_id, what=T.RULING_AUDIT.format(id=c.id, word=word, why=why)))
    out: list[Effect] = [Say("group", notice), Say("reply", T.RULING_DONE.format(id=c.id, word=word))]
    if steps:
        out.append(Say("hosts", T.RULING_STEPS_HEAD.format(id=c.id) + "\n".join(f"{i}. {s}" for i, s in enumerate(steps, 1))))
    out += effects
    check_end(state, cfg, out)
    return out


def complaint_due(state: State, cid: int, ctx: Ctx[Settings], effects: list[Effect]) -> None:
    """The complaint window a complaint was filed in has closed: hosts are reminded of it if still open."""
    if 1 <= cid <= len(state.complaints) and state.complaints[cid - 1].status == ComplaintStatus.OPEN:
        c = state.complaints[cid - 1]
        effects.append(Say("hosts", T.COMPLAINT_WINDOW_CLOSED.format(id=c.id, line=complaint_line(state, c))))
