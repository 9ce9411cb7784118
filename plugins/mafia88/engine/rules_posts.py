"""Kill posts (§十二): drafting by private message, measurable checks, host
judgement, white slips, rewrites, giving up, publication and the 12:00 due."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal

import plugins.mafia88.engine.texts as T
from plugins.gamekit.args import NoArgs, TextIn
from plugins.gamekit.clock import on_day
from plugins.gamekit.contract import Actor, CancelTimer, Ctx, Effect, Ignored, Rejected, Say, SetTimer
from plugins.gamekit.textcheck import TextFigures, char_count

from .args import HandInArgs, OverrideArgs, PostArgs, PostRef, RejectArgs, RewriteArgs, RoundArgs, Target, WhiteArgs
from .checks import measure_text, post_problems
from .content import Settings
from .ending import check_end
from .model import (
    FACTION_NAME,
    alive,
    bring_back,
    code_rank,
    dt,
    hhmm,
    is_no_white_round,
    iso,
    mark_out,
    name,
    rnd,
    role_label,
    role_name,
    row,
    seats,
    tz,
    when,
)
from .originality import earlier_texts, flagged, overlap_line, overlap_of
from .resolution import Resolution, Trigger, resolve_posts
from .rules_souls import publish_texts
from .state import (
    Cause,
    Check,
    Countdown,
    Draft,
    DraftMode,
    Event,
    HistoryEntry,
    Note,
    Override,
    Post,
    PostEffect,
    PostKind,
    PostStatus,
    Report,
    Reveal,
    State,
    Step,
)
from .texts import figures_line

STATUS_NAME = T.STATUS_NAME
OVERRIDE_WORDS = T.OVERRIDE_WORDS


def post_number(value: object) -> int:
    """A post number as players write it: "3", "#3" or "＃3"."""
    text = str(value).strip().lstrip(T.POST_NUMBER_MARKS)
    if not text.isdigit():
        raise Rejected(T.NOT_A_POST_NUMBER.format(value=value))
    return int(text)


def step_number(value: int | str) -> int:
    """A step of the resolution as hosts write it: "3" (a number in older logs)."""
    text = str(value).strip()
    if not text.isdigit():
        raise Rejected(T.NOT_A_STEP.format(value=value))
    return int(text)


# ---- eligibility -----------------------------------------------------------

def living_with(state: State, roles: list[str]) -> int:
    return sum(1 for p in state.players.values() if p.alive and p.role in roles)


def tier_for(state: State, cfg: Settings, gkey: str, seat: int, quota: int) -> int | None:
    """0 for the group's own roles, i for the i-th substitute tier that is
    open now (§九), None if the player cannot post for the group."""
    g = cfg.group(gkey)
    mine = state.players[seat].role
    if mine in g.roles:
        return 0
    earlier = list(g.roles)
    for i, tier in enumerate(g.substitutes, 1):
        if mine in tier.roles:
            n = living_with(state, earlier)
            if tier.when == "short" and n < quota:
                return i
            if tier.when == "none" and n == 0:
                return i
            if tier.when == "last":
                fac = cfg.role(mine).faction
                others = [s for s, p in state.players.items() if p.alive and s != seat and cfg.role(p.role).faction == fac]
                if not others:
                    return i
            return None
        earlier.extend(tier.roles)
    return None


def round_posts(state: State, r: int, gkey: str | None = None) -> list[Post]:
    return [p for p in state.posts if p.round == r and p.status != PostStatus.VOID and (gkey is None or p.group == gkey)]


def post_of(state: State, seat: int, r: int) -> Post | None:
    for p in round_posts(state, r):
        if p.author == seat:
            return p
    return None


def quotas_of(state: State, cfg: Settings, r: int) -> dict[str, int]:
    """The round's post quotas, plus optional groups open this round (工兵 rounds 2–4, §五黑7)."""
    quotas = {g: n for g, n in row(state, r).posts.items() if n > 0}
    if cfg.options.role_effects:
        for g in cfg.groups:
            opt = g.optional
            if opt and opt.rounds[0] <= r <= opt.rounds[1] and g.key not in quotas:
                quotas[g.key] = opt.posts
    return quotas


def group_for(state: State, cfg: Settings, seat: int, r: int) -> str:
    quotas = quotas_of(state, cfg, r)
    options: list[tuple[int, int, str]] = []
    full: list[str] = []
    for i, (g, q) in enumerate(quotas.items()):
        t = tier_for(state, cfg, g, seat, q)
        if t is None:
            continue
        if len(round_posts(state, r, g)) >= q:
            full.append(T.GROUP_FULL.format(group=g, quota=q))
            continue
        options.append((t, i, g))
    if options:
        return sorted(options)[0][2]
    if full:
        raise Rejected(T.POSTS_FULL.format(full=T.LIST_SEP.join(full)))
    mine = state.players[seat].role
    if cfg.options.role_effects:
        for grp in cfg.groups:
            opt = grp.optional
            if opt and mine in grp.roles:
                a, b = opt.rounds
                raise Rejected(T.POST_ROUNDS_ONLY.format(role=cfg.role(mine).name, first=a, last=b, r=r))
    raise Rejected(T.NO_POST_DUTY)


def posting_open(state: State, ctx: Ctx[Settings]) -> None:
    cur = rnd(state)
    if state.step != Step.ROUND:
        raise Rejected(T.NOT_POSTING_TIME)
    due = cur.due.posts
    if cur.posts_done or (due and ctx.now >= dt(due)):
        raise Rejected(T.POSTING_CLOSED.format(due=hhmm(state, due) if due else T.UNSET_TIME))


def author_checks(state: State, cfg: Settings, seat: int, code: str, target: int) -> None:
    me = state.players[seat]
    if not me.code or cfg.role(me.role).disguise:
        raise Rejected(T.NO_POST_RIGHT)
    if code.strip() != me.code:
        raise Rejected(T.WRONG_CODE)
    if seat in state.drafts:
        raise Rejected(T.DRAFT_OPEN)
    t = state.players.get(target)
    if t is None:
        raise Rejected(T.NO_SUCH_TARGET.format(target=target))
    if not t.alive:
        raise Rejected(T.TARGET_OUT.format(target=name(state, target)))
    mine = post_of(state, seat, state.round)
    if mine is not None:
        raise Rejected(T.ALREADY_POSTED.format(id=mine.id))


# ---- drafting --------------------------------------------------------------

def open_post(state: State, actor: Actor, args: PostArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/出贴 <代号> <目标> [正文…]: a draft, written on over private messages (§十二.4)."""
    cfg = ctx.settings
    code, target, text = args.code, args.target, args.text
    seat = actor.seat
    assert seat is not None  # who="player"
    posting_open(state, ctx)
    author_checks(state, cfg, seat, code, target)
    g = group_for(state, cfg, seat, state.round)
    state.drafts[seat] = Draft(mode=DraftMode.NEW, round=state.round, code=code.strip(), target=target, group=g,
                               parts=[text] if text.strip() else [])
    count = char_count(text)
    return [Say("reply", T.DRAFT_STARTED.format(round=state.round, code=code.strip(), target=name(state, target), group=g, count=count))]


def declare_white(state: State, actor: Actor, args: WhiteArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/白条 (§十二.4): the kill stands now, 1200 characters are due by 12:00."""
    cfg = ctx.settings
    code, target = args.code, args.target
    seat = actor.seat
    assert seat is not None  # who="player"
    posting_open(state, ctx)
    r = state.round
    if is_no_white_round(state, r):
        raise Rejected(T.NO_WHITE_ROUND)
    author_checks(state, cfg, seat, code, target)
    g = group_for(state, cfg, seat, r)
    post = new_post(state, seat, r, code.strip(), target, g, PostKind.WHITE, "", None, ctx)
    due = expected_white_due(state, cfg)
    minimum = cfg.limits.rewrite_min
    return [
        Say("reply", T.WHITE_REGISTERED.format(id=post.id, target=name(state, target), due=due, minimum=minimum)),
        Say("hosts", T.WHITE_HOSTS.format(id=post.id, code=post.code, seat=name(state, seat), target=name(state, target), due=due)),
    ]


def open_rewrite(state: State, actor: Actor, args: RewriteArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/重写 <帖号> [正文…]: the text of a white slip or a rejected post (§十二.4/7)."""
    cfg = ctx.settings
    post_id, text = post_number(args.post), args.text
    seat = actor.seat
    assert seat is not None  # who="player"
    post = get_post(state, post_id)
    if post.author != seat:
        raise Rejected(T.NOT_YOUR_POST.format(post_id=post_id))
    if post.status not in (PostStatus.WHITE, PostStatus.REJECTED):
        raise Rejected(T.NO_REWRITE_NEEDED.format(post_id=post_id, status_name=STATUS_NAME[post.status]))
    if ctx.now >= rewrite_due(state, cfg, post):
        raise Rejected(T.REWRITE_LATE.format(due=rewrite_due_text(state, cfg, post)))
    if seat in state.drafts:
        raise Rejected(T.DRAFT_OPEN)
    state.drafts[seat] = Draft(mode=DraftMode.REWRITE, round=post.round, post=post_id, code=post.code, target=post.target,
                               group=post.group, parts=[text] if text.strip() else [])
    minimum = cfg.limits.rewrite_min
    return [Say("reply", T.REWRITE_STARTED.format(post_id=post_id, minimum=minimum))]


def append_text(state: State, actor: Actor, args: TextIn, ctx: Ctx[Settings]) -> list[Effect]:
    """Private text while a draft is open: more of its text (anything else is not for the game)."""
    text = args.text
    d = state.drafts.get(actor.seat) if actor.seat is not None else None
    if d is None:
        raise Ignored()
    if text.strip():
        cap = ctx.settings.limits.post_max
        total = sum(len(x) for x in d.parts) + len(text)
        if total > cap:
            raise Rejected(T.POST_TOO_LONG.format(total=total, cap=cap))
        d.parts.append(text)
    count = char_count("\n".join(d.parts))
    note = T.IMAGES_NOT_COUNTED if args.images else ""
    return [Say("reply", T.TEXT_RECEIVED.format(note=note, count=count))]


def drop_draft(state: State, actor: Actor, args: NoArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/撤稿."""
    if actor.seat is None or state.drafts.pop(actor.seat, None) is None:
        raise Rejected(T.NO_DRAFT)
    return [Say("reply", T.DRAFT_DROPPED)]


def named_aliases(state: State, text: str, but: int) -> list[int]:
    """Seats whose alias appears in the text (longest aliases first, so 玩家1
    inside 玩家12 is not counted), excluding seat ``but``."""
    covered = [False] * len(text)
    found: list[int] = []
    for s in sorted(seats(state), key=lambda s: (-len(state.players[s].alias), s)):
        a = state.players[s].alias
        start = text.find(a)
        while start >= 0:
            if not any(covered[start:start + len(a)]):
                for i in range(start, start + len(a)):
                    covered[i] = True
                if s != but and s not in found:
                    found.append(s)
            start = text.find(a, start + 1)
    return sorted(found)


def first_post_problems(state: State, cfg: Settings, seat: int, mode: DraftMode, post: int | None, text: str) -> list[str]:
    """§六.1: the 孤杀's first post names exactly 8 aliases, at least one a 联合杀 (not itself).
    ``mode``/``post``: a new post, or the rewrite of post ``post``."""
    need = cfg.options.first_post_aliases
    if not need or state.players[seat].role != "gu_sha":
        return []
    mine = [p for p in state.posts if p.author == seat and p.status != PostStatus.VOID]
    if mine and (mode == DraftMode.NEW or post != mine[0].id):
        return []
    named = named_aliases(state, text, seat)
    out = []
    if len(named) != need:
        out.append(T.FIRST_POST_ALIASES.format(need=need, n_named=len(named)))
    if not any(state.players[s].role == "lianhe_sha" for s in named):
        out.append(T.FIRST_POST_UNION_ALIAS)
    return out


def finish_draft(state: State, actor: Actor, args: NoArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/完成: the draft is measured and handed in for review (§十二.2)."""
    seat = actor.seat
    assert seat is not None  # who="player"
    d = state.drafts.get(seat)
    if d is None:
        raise Rejected(T.NO_DRAFT_START)
    return hand_in_draft(state, seat, d, ctx, T.CHAT_WORDS)


def hand_in(state: State, actor: Actor, args: HandInArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/交贴 <正文> (the post desk's button): the open draft's text becomes this text, then it is handed
    in as by /完成; the answers name the desk's buttons."""
    seat = actor.seat
    assert seat is not None  # who="player"
    d = state.drafts.get(seat)
    if d is None:
        raise Rejected(T.NO_DRAFT_WEB)
    if args.text.strip():
        cap = ctx.settings.limits.post_max
        if len(args.text) > cap:
            raise Rejected(T.POST_TOO_LONG_WEB.format(total=len(args.text), cap=cap))
        d.parts = [args.text]
    return hand_in_draft(state, seat, d, ctx, T.WEB_BUTTONS)


def hand_in_draft(state: State, seat: int, d: Draft, ctx: Ctx[Settings], words: dict[str, str]) -> list[Effect]:
    """Measure the draft and hand it in for review (§十二.2, §六.1); ``words``: how the answers name
    what to do next (chat commands or the desk's buttons)."""
    cfg = ctx.settings
    text = "\n".join(d.parts)
    fig = measure_text(text)
    limits = cfg.limits
    minimum = limits.post_min if d.mode == DraftMode.NEW else limits.rewrite_min
    bad = post_problems(fig, minimum, limits)
    bad += first_post_problems(state, cfg, seat, d.mode, d.post, text)
    if bad:
        raise Rejected(T.POST_FAILED.format(bad=T.SEMI_SEP.join(bad), figures_line=figures_line(fig), **words))
    if d.mode == DraftMode.NEW:
        posting_open(state, ctx)
        r = state.round
        if not state.players[d.target].alive:
            raise Rejected(T.DRAFT_TARGET_OUT.format(target=name(state, d.target), **words))
        if len(round_posts(state, r, d.group)) >= quotas_of(state, cfg, r).get(d.group, 0):
            raise Rejected(T.DRAFT_GROUP_FULL.format(group=d.group, **words))
        post = new_post(state, seat, r, d.code, d.target, d.group, PostKind.POST, text, fig, ctx)
        post.overlap = overlap_of(text, earlier_texts(state, cfg, skip_post=post.id), cfg)
        head = T.POST_SUBMITTED.format(id=post.id)
    else:
        assert d.post is not None  # a rewrite names its post
        post = get_post(state, d.post)
        if ctx.now >= rewrite_due(state, cfg, post):
            raise Rejected(T.REWRITE_LATE.format(due=rewrite_due_text(state, cfg, post)))
        post.text, post.figures, post.status, post.text_shown = text, fig, PostStatus.PENDING, False
        post.overlap = overlap_of(text, earlier_texts(state, cfg, skip_post=post.id), cfg)
        post.history.append(HistoryEntry(at=iso(ctx.now), seq=ctx.seq, event=Event.REWRITE))
        head = T.REWRITE_SUBMITTED.format(id=post.id)
    del state.drafts[seat]
    line = figures_line(fig)
    return [
        Say("reply", T.SUBMITTED_FOR_REVIEW.format(head=head, line=line)),
        Say("hosts", T.NEW_POST_HOSTS.format(mode=T.REWRITE_WORD if d.mode != DraftMode.NEW else T.KILL_POST, id=post.id, code=post.code, author=name(state, post.author), target=name(state, post.target), line=line, overlap=overlap_line(post.overlap))),
    ]


def new_post(state: State, author: int, r: int, code: str, target: int, g: str, kind: PostKind, text: str,
             fig: TextFigures | None, ctx: Ctx[Settings]) -> Post:
    post = Post(
        id=len(state.posts) + 1, round=r, author=author, code=code, group=g, target=target,
        kind=kind, status=PostStatus.WHITE if kind == PostKind.WHITE else PostStatus.PENDING, text=text,
        figures=fig, seq=ctx.seq, at=iso(ctx.now), published=False, text_shown=False, killed=False,
        history=[HistoryEntry(at=iso(ctx.now), seq=ctx.seq, event=Event(kind.value))],
    )
    state.posts.append(post)
    return post


def get_post(state: State, post_id: int) -> Post:
    if not 1 <= post_id <= len(state.posts):
        raise Rejected(T.NO_SUCH_POST.format(post_id=post_id))
    return state.posts[post_id - 1]


def expected_white_due(state: State, cfg: Settings) -> str:
    cur = rnd(state)
    if cur.due.white:
        return when(state, cur.due.white)
    return when(state, iso(white_due_at(state, cfg, state.round)))


def white_due_at(state: State, cfg: Settings, r: int) -> datetime:
    """§十二.4: white slips and rewrites are due the day after the posts were due."""
    posts = rnd(state, r).due.posts
    assert posts is not None  # set when the round opened
    return on_day(dt(posts), cfg.times.white_due, tz(state), 1)


def my_posts(state: State, actor: Actor, args: NoArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/我的贴."""
    mine = [p for p in state.posts if p.author == actor.seat]
    lines = [T.MY_POST_LINE.format(id=p.id, round=p.round, target=name(state, p.target), status_name=STATUS_NAME[p.status]) for p in mine]
    d = state.drafts.get(actor.seat) if actor.seat is not None else None
    if d:
        lines.append(T.MY_DRAFT_LINE.format(target=name(state, d.target), chars=char_count("\n".join(d.parts))))
    return [Say("reply", "\n".join(lines) if lines else T.NO_POSTS_YET)]


# ---- host judgement --------------------------------------------------------

def list_posts(state: State, actor: Actor, args: RoundArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/贴单 [轮次]."""
    r = args.round or state.round
    posts = [p for p in state.posts if p.round == r]
    if not posts:
        return [Say("reply", T.NO_ROUND_POSTS.format(r=r))]
    lines = [T.ROUND_POSTS_HEAD.format(r=r, quota_text=quota_text(state, r))]
    for p in posts:
        fig = figures_line(p.figures) if p.figures else T.TEXT_MISSING
        flag = T.OV_FLAG if flagged(p.overlap) else ""
        lines.append(T.POST_LIST_LINE.format(id=p.id, code=p.code, author=name(state, p.author), target=name(state, p.target), status_name=STATUS_NAME[p.status], fig=fig) + flag)
    return [Say("reply", "\n".join(lines))]


def show_post(state: State, actor: Actor, args: PostRef, ctx: Ctx[Settings]) -> list[Effect]:
    """/看贴 <帖号> or /看贴 报道<座位>: the text, its figures and its overlap (§十二.6 原创首发)."""
    kind, n = text_ref(args.post)
    if kind == "report":
        rep = report_of(state, n)
        verdict = T.REPORT_OK_WORD if rep.ok else T.REPORT_BAD_WORD
        return [Say("reply", T.REPORT_SHOW.format(seat=n, player=name(state, n), chars=rep.chars or 0, verdict=verdict,
                                                   overlap=overlap_line(rep.overlap), text=rep.text or T.TEXT_MISSING))]
    p = get_post(state, n)
    fig = figures_line(p.figures) if p.figures else T.TEXT_MISSING
    return [Say("reply", T.POST_SHOW.format(id=p.id, round=p.round, code=p.code, author=name(state, p.author), target=name(state, p.target), status_name=STATUS_NAME[p.status], fig=fig, overlap=overlap_line(p.overlap), text=p.text or T.WHITE_NO_TEXT))]


def text_ref(value: object) -> tuple[Literal["post", "report"], int]:
    """A post number ("3", "#3", "贴3") or a report number ("报道12": the report of seat 12)."""
    text = str(value).strip()
    for mark in T.REPORT_REF_MARKS:
        if text.startswith(mark):
            rest = text[len(mark):].strip()
            if not rest.isdigit():
                raise Rejected(T.NOT_A_REPORT_NUMBER.format(value=value))
            return "report", int(rest)
    return "post", post_number(text.removeprefix(T.POST_REF_MARK))


def report_of(state: State, seat: int) -> Report:
    p = state.players.get(seat)
    if p is None or p.report is None or p.report.chars is None:
        raise Rejected(T.NO_SUCH_REPORT.format(seat=seat))
    return p.report


def approve(state: State, actor: Actor, args: PostRef, ctx: Ctx[Settings]) -> list[Effect]:
    """/通过 <帖号>."""
    post_id = post_number(args.post)
    p = get_post(state, post_id)
    if p.status != PostStatus.PENDING:
        raise Rejected(T.APPROVE_WRONG_STATUS.format(post_id=post_id, status_name=STATUS_NAME[p.status]))
    p.status = PostStatus.APPROVED
    p.history.append(HistoryEntry(at=iso(ctx.now), seq=ctx.seq, event=Event.APPROVED))
    effects: list[Effect] = [Say("reply", T.APPROVED.format(post_id=post_id)), Say(p.author, T.APPROVED_TELL_AUTHOR.format(post_id=post_id))]
    if p.published and not p.text_shown:
        show_text(state, ctx.settings, p, ctx)
        effects.append(Say("group", post_text(state, p, late=True)))
    return effects


def reject(state: State, actor: Actor, args: RejectArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/退回 <帖号> [理由] (§十二.7): a rejected post must be rewritten at 1200+ characters by 12:00."""
    cfg = ctx.settings
    post_id = post_number(args.post)
    p = get_post(state, post_id)
    if p.status not in (PostStatus.PENDING, PostStatus.APPROVED):
        raise Rejected(T.REJECT_WRONG_STATUS.format(post_id=post_id, status_name=STATUS_NAME[p.status]))
    due = rnd(state, p.round).due.white
    window = p.complain_until
    if due and ctx.now >= dt(due) and not (window and ctx.now < dt(window)):
        late = window if window and dt(window) > dt(due) else due
        raise Rejected(T.REJECT_LATE.format(post_id=post_id, due=when(state, late)))
    effects: list[Effect] = []
    due_txt = ask_rewrite(state, cfg, p, args.reason.strip() or T.REJECT_DEFAULT_REASON, ctx, effects)
    return [Say("reply", T.REJECTED.format(post_id=post_id, due_txt=due_txt)), *effects]


def ask_rewrite(state: State, cfg: Settings, p: Post, reason: str, ctx: Ctx[Settings], effects: list[Effect]) -> str:
    """§十二.7: the post is to be rewritten at 1200+ characters, by the round's white-slip due or,
    asked for after it (a complaint, §十四.1), by the white-slip hour of the next day. Returns the due."""
    p.status = PostStatus.REJECTED
    p.history.append(HistoryEntry(at=iso(ctx.now), seq=ctx.seq, event=Event.REJECTED, note=reason))
    due = rnd(state, p.round).due.white
    if due and (ctx.now >= dt(due) or rnd(state, p.round).white_done):
        redo = on_day(ctx.now, cfg.times.white_due, tz(state), 1)
        p.redo_due = iso(redo)
        effects.append(SetTimer(f"redo:{p.id}", redo))
    due_txt = rewrite_due_text(state, cfg, p)
    effects.append(Say(p.author, T.REJECTED_TELL_AUTHOR.format(post_id=p.id, reason=reason, due_txt=due_txt, minimum=cfg.limits.rewrite_min)))
    return due_txt


def rewrite_due(state: State, cfg: Settings, p: Post) -> datetime:
    """When the text of a white slip or a rejected post is due (§十二.4/7)."""
    if p.redo_due:
        return dt(p.redo_due)
    due = rnd(state, p.round).due.white
    return dt(due) if due else white_due_at(state, cfg, p.round)


def rewrite_due_text(state: State, cfg: Settings, p: Post) -> str:
    return when(state, iso(rewrite_due(state, cfg, p)))


def redo_due(state: State, pid: int, ctx: Ctx[Settings], effects: list[Effect]) -> None:
    """A rewrite asked for after the round's white-slip due, not delivered by its own due (§十二.7)."""
    if not 1 <= pid <= len(state.posts):
        return
    p = state.posts[pid - 1]
    if p.status != PostStatus.REJECTED or p.redo_due is None:
        return
    back = void_post(state, ctx.settings, p, Cause.WHITE, T.OUT_WHITE_MISSED.format(r=p.round), ctx, effects)
    effects.append(Say("group", T.WHITE_MISSED.format(code=p.code, author=name(state, p.author))
                       + (T.TARGET_REVIVED.format(target=name(state, p.target)) if back else "") + T.PERIOD))


def post_window(state: State, cfg: Settings, shown: datetime) -> datetime:
    """Until when a post whose text went out at ``shown`` may be complained about (§十四.1, §十二.6)."""
    c = cfg.complaints
    if c.post_rule == "before_close":
        close = rnd(state).due.close
        if close and not rnd(state).closed:
            until = dt(close) - timedelta(hours=c.post_hours_before_close)
            if until > shown:
                return until
        # published after that round's last complaint hour: that hour of the next day
        last = (dt(close) if close else shown) - timedelta(hours=c.post_hours_before_close)
        return on_day(shown, f"{last.astimezone(tz(state)):%H:%M}", tz(state), 1)
    return on_day(shown, c.post_next_day_at, tz(state), 1)


def show_text(state: State, cfg: Settings, p: Post, ctx: Ctx[Settings]) -> None:
    """The post's text goes out now (a rewrite: its new text): its complaint window opens (§十四.1)."""
    p.text_shown = True
    p.complain_until = iso(post_window(state, cfg, ctx.now))


def quota_text(state: State, r: int) -> str:
    posts = {g: n for g, n in row(state, r).posts.items() if n > 0}
    return T.LIST_SEP.join(f"{g}{n}" for g, n in posts.items()) or T.NONE


def post_text(state: State, p: Post, late: bool = False) -> str:
    tag = T.LATE_TAG if late else T.KILL_POST
    return T.POST_PUBLISHED_TEXT.format(round=p.round, tag=tag, code=p.code, target=name(state, p.target), text=p.text)


# ---- timers ----------------------------------------------------------------

def posts_due(state: State, r: int, ctx: Ctx[Settings], effects: list[Effect]) -> None:
    """Posts are due (§十二.4): drafts lapse; each missing quota post puts
    out one silent author of the group in code-name order (§十二.9)."""
    cfg = ctx.settings
    cur = rnd(state, r)
    if cur.posts_done:
        return
    cur.posts_done = True
    for seat in sorted(state.drafts):
        d = state.drafts[seat]
        if d.mode == DraftMode.NEW and d.round == r:
            del state.drafts[seat]
            effects.append(Say(seat, T.DRAFT_VOIDED))
    gave_up: list[int] = []
    for gkey, quota in row(state, r).posts.items():
        missing = quota - len(round_posts(state, r, gkey))
        if missing <= 0:
            continue
        g = cfg.group(gkey)
        silent = [s for s in alive(state) if state.players[s].role in g.roles and post_of(state, s, r) is None]
        silent.sort(key=lambda s: code_rank(state, cfg, s))
        for s in silent[:missing]:
            if mark_out(state, s, Cause.GIVEUP, T.OUT_NO_POST.format(r=r), effects):
                gave_up.append(s)
    got = round_posts(state, r)
    whites = sum(1 for p in got if p.kind == PostKind.WHITE)
    text = T.POSTS_DUE_HEAD.format(r=r, n_got=len(got)) + (T.POSTS_DUE_WHITES.format(whites=whites) if whites else "") + T.PERIOD
    if gave_up:  # by seat: code-name order would tell their roles a round early
        text += T.POSTS_DUE_MISSING.format(items=T.LIST_SEP.join(name(state, s) for s in sorted(gave_up)))
    text += T.POSTS_PUBLISH_AT.format(publish=when(state, cur.due.publish))
    effects.append(Say("group", text))
    res, _ = resolve_posts(state, cfg, r, round_posts(state, r))
    effects.append(Say("hosts", explanation(state, r, res, final=False)))


def publish(state: State, r: int, ctx: Ctx[Settings], effects: list[Effect]) -> None:
    """Publish the round's posts in code-name order (§六.2) and apply their
    kills once each; reveal the identities of last round's dead (§五)."""
    cfg = ctx.settings
    cur = rnd(state, r)
    if cur.published:
        return
    posts_due(state, r, ctx, effects)
    cur.published = True
    auto = cfg.options.auto_approve_pending
    posts = sorted(round_posts(state, r), key=lambda p: (code_rank(state, cfg, p.author), p.id))
    killed: list[str] = []
    notes: list[str] = []
    held: list[str] = []
    for p in posts:
        p.published = True
        if p.status == PostStatus.PENDING and auto:
            p.status = PostStatus.APPROVED
            p.history.append(HistoryEntry(at=iso(ctx.now), seq=ctx.seq, event=Event.AUTO_APPROVED))
        if p.status == PostStatus.APPROVED:
            show_text(state, cfg, p, ctx)
            effects.append(Say("group", post_text(state, p)))
        elif p.status == PostStatus.PENDING:
            held.append(T.PUBLISH_POST_REF.format(code=p.code, target=name(state, p.target)))
        else:
            notes.append(T.PUBLISH_POST_PENDING.format(code=p.code, target=name(state, p.target)))
    res, triggered = resolve_posts(state, cfg, r, posts)
    cur.explanation = explanation(state, r, res, final=True)  # kept: /结算 shows it as it was
    effects.append(Say("hosts", cur.explanation))
    applied = res.apply(state, effects)
    others: list[str] = []
    for m in applied:
        if m.post is not None:
            state.posts[m.post - 1].killed = True
        if m.cause == Cause.POST:
            killed.append(name(state, m.seat))
        else:
            others.append(name(state, m.seat))
    record_triggered(state, cfg, r, triggered, effects)
    publish_texts(state, r, triggered, effects)
    notes += res.notes
    white_at = white_due_at(state, cfg, r)
    cur.due.white = iso(white_at)
    effects.append(SetTimer(f"white:{r}", white_at))
    lines = [T.PUBLISH_HEAD.format(r=r, killed=T.LIST_SEP.join(killed) if killed else T.NONE)]
    if others:
        lines.append(T.PUBLISH_OTHERS.format(others=T.LIST_SEP.join(others)))
    if killed or others:
        lines.append(T.PUBLISH_HALF_VOTE)
    if notes:
        lines.append(T.SEMI_SEP.join(notes) + T.PUBLISH_WHITE_DUE.format(white_at=when(state, iso(white_at))))
    if held:
        lines.append(T.SEMI_SEP.join(held) + T.PUBLISH_REVIEW_PENDING)
    reveal = reveal_line(state, cfg, r - 1)
    if reveal:
        lines.append(reveal)
    effects.append(Say("group", "\n".join(lines)))


def reveal_line(state: State, cfg: Settings, r: int) -> str:
    """Identities of the players who went out in round r and are still out."""
    rd = state.rounds.get(r)
    if r < 1 or rd is None:
        return ""
    seen: list[int] = []
    for o in rd.outs:
        if o.seat not in seen and not state.players[o.seat].alive:
            seen.append(o.seat)
    if not seen:
        return ""
    parts = [T.REVEAL_ROLE_LINE.format(player=name(state, s), role=role_label(state, cfg, s), faction_name=FACTION_NAME[cfg.role(state.players[s].role).faction]) for s in seen]
    return T.REVEAL_ROLES_HEAD.format(r=r) + T.SEMI_SEP.join(parts) + T.PERIOD


def white_due(state: State, r: int, ctx: Ctx[Settings], effects: list[Effect]) -> None:
    """12:00 next day (§十二.4/7): an unwritten white slip or rewrite puts its
    author out and brings the target back."""
    cur = rnd(state, r)
    if cur.white_done:
        return
    cur.white_done = True
    lines: list[str] = []
    for p in [p for p in state.posts if p.round == r and p.status in (PostStatus.WHITE, PostStatus.REJECTED) and p.redo_due is None]:
        back = void_post(state, ctx.settings, p, Cause.WHITE, T.OUT_WHITE_MISSED.format(r=r), ctx, effects)
        lines.append(T.WHITE_MISSED.format(code=p.code, author=name(state, p.author)) + (T.TARGET_REVIVED.format(target=name(state, p.target)) if back else ""))
    if lines:
        effects.append(Say("group", T.SEMI_SEP.join(lines) + T.PERIOD))


def void_post(state: State, cfg: Settings, p: Post, cause: Cause, reason: str, ctx: Ctx[Settings], effects: list[Effect]) -> bool:
    """A post made void (§十二.4/5/6/7): its author is out, its target comes back if that post was
    its death. A target that had taken the author along (同归) comes back without its 烟花 (§十二.5).
    Returns whether the target came back."""
    p.status = PostStatus.VOID
    p.history.append(HistoryEntry(at=iso(ctx.now), seq=ctx.seq, event=Event.VOID))
    mark_out(state, p.author, cause, reason, effects)
    t = state.players[p.target]
    if t.alive or not t.out or t.out.post != p.id:
        return False
    author_out = state.players[p.author].out
    mutual = author_out is not None and author_out.cause == Cause.MUTUAL and author_out.round == p.round
    bring_back(state, p.target, T.POST_VOIDED_REVIVED.format(r=p.round, id=p.id), effects)
    if mutual:
        t.fireworks_spent = True
        if not cfg.role(t.role).disguise:  # a disguised egg (暗蛋) is not told what it is (§五白7)
            effects.append(Say(p.target, T.FIREWORKS_SPENT_TELL))
        effects.append(Say("hosts", T.FIREWORKS_SPENT_HOSTS.format(target=name(state, p.target))))
    return True


def explanation(state: State, r: int, res: Resolution, final: bool) -> str:
    """The resolution as numbered steps, for hosts only."""
    cur = rnd(state, r)
    if final:
        head = T.STEPS_PUBLISHED_HEAD.format(r=r)
    else:
        head = (T.STEPS_PREVIEW_HEAD.format(r=r, publish=when(state, cur.due.publish), override_words=T.LIST_SEP.join(OVERRIDE_WORDS)))
    lines = [head] + [s.text for s in res.steps]
    if not res.steps:
        lines.append(T.NO_POSTS_THIS_ROUND)
    lines += res.notes
    return "\n".join(lines)


def record_triggered(state: State, cfg: Settings, r: int, triggered: list[Trigger], effects: list[Effect]) -> None:
    """Step 4 of the publication: reveals, countdowns, the 地雷's identity check."""
    cur = rnd(state, r)
    cd = cfg.effects.countdown_rounds
    for t in triggered:
        if t.kind == "reveal":
            cur.reveals.append(Reveal(seat=t.seat, why=T.MIRROR_HIT_AUDIT.format(code=t.code)))
        elif t.kind == "countdown" and state.players[t.seat].alive:
            state.countdowns.append(Countdown(seat=t.seat, until=r + cd - 1, code=t.code))
            effects.append(Say(t.seat, T.MIRROR_HIT_TELL.format(r=r + cd - 1)))
        elif t.kind == "check":
            state.checks[t.seat] = Check(round=r, used=False)
            effects.append(Say(t.seat, T.MINE_MUTUAL_TELL))


# ---- host rulings on the resolution ------------------------------------------

def override_post(state: State, actor: Actor, args: OverrideArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/改判 <步骤> <结果> <理由>: replace the effect of one post step before publication."""
    cfg = ctx.settings
    step, word = step_number(args.step), args.result
    r = state.round
    cur = rnd(state)
    if state.step != Step.ROUND or cur.published:
        raise Rejected(T.OVERRIDE_PUBLISHED.format(r=r))
    if not cur.posts_done:
        raise Rejected(T.OVERRIDE_TOO_EARLY.format(r=r, posts=when(state, cur.due.posts)))
    effect = OVERRIDE_WORDS.get(word.strip())
    if effect is None:
        raise Rejected(T.OVERRIDE_BAD_WORD.format(word=word, override_words=T.LIST_SEP.join(OVERRIDE_WORDS)))
    why = args.reason.strip()
    if not why:
        raise Rejected(T.OVERRIDE_NO_REASON)
    res, _ = resolve_posts(state, cfg, r, round_posts(state, r))
    st = next((s for s in res.steps if s.n == step), None)
    if st is None:
        raise Rejected(T.OVERRIDE_NO_STEP.format(step=step, n_steps=len(res.steps)))
    if st.kind != "post" or st.post is None:
        raise Rejected(T.OVERRIDE_SOUL_STEP.format(step=step))
    state.overrides[st.post] = Override(effect=PostEffect(effect), by=actor.user_id, why=why, seq=ctx.seq, at=iso(ctx.now), step=step)
    state.audit.append(Note(seq=ctx.seq, at=iso(ctx.now), by=actor.user_id,
                            what=T.OVERRIDE_AUDIT.format(r=r, step=step, post=st.post, word=word.strip(), why=why)))
    res, _ = resolve_posts(state, cfg, r, round_posts(state, r))
    return [Say("reply", T.OVERRIDE_DONE.format(step=step, word=word.strip(), user_id=actor.user_id, why=why)),
            Say("hosts", explanation(state, r, res, final=False))]


def show_steps(state: State, actor: Actor, args: NoArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/结算: the current round's resolution steps (after the posts are due)."""
    cfg = ctx.settings
    r = state.round
    cur = rnd(state)
    if not cur.posts_done:
        raise Rejected(T.STEPS_TOO_EARLY.format(r=r, posts=when(state, cur.due.posts)))
    if cur.explanation:
        return [Say("reply", cur.explanation)]
    res, _ = resolve_posts(state, cfg, r, round_posts(state, r))
    return [Say("reply", explanation(state, r, res, final=False))]


def publish_now(state: State, actor: Actor, args: NoArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/发布: publish the round's posts now (after the posts are due)."""
    r = state.round
    cur = rnd(state)
    if state.step != Step.ROUND or cur.published:
        raise Rejected(T.ALREADY_PUBLISHED.format(r=r))
    if not cur.posts_done:
        raise Rejected(T.PUBLISH_TOO_EARLY.format(r=r, posts=when(state, cur.due.posts)))
    effects: list[Effect] = [Say("reply", T.PUBLISHED_NOW.format(r=r))]
    publish(state, r, ctx, effects)
    effects.append(CancelTimer(f"publish:{r}"))
    check_end(state, ctx.settings, effects)
    return effects


def check_identity(state: State, actor: Actor, args: Target, ctx: Ctx[Settings]) -> list[Effect]:
    """/查身份 (§五黑5): a 地雷 that went out 同归 (rounds 4–5) names one player and is told their identity."""
    cfg = ctx.settings
    target = args.target
    seat = actor.seat
    assert seat is not None  # who="player"
    chk = state.checks.get(seat)
    if chk is None:
        raise Rejected(T.CHECK_NO_RIGHT)
    if chk.used:
        raise Rejected(T.CHECK_USED)
    if target == seat:
        raise Rejected(T.CHECK_SELF)
    if not state.players[target].alive:
        raise Rejected(T.CHECK_TARGET_OUT.format(target=name(state, target)))
    chk.used = True
    chk.target = target
    return [Say("reply", T.CHECK_RESULT.format(target=name(state, target), target_name=role_name(state, cfg, target), faction_name=FACTION_NAME[cfg.role(state.players[target].role).faction])),
            Say("hosts", T.CHECK_HOSTS.format(seat=name(state, seat), target=name(state, target)))]
