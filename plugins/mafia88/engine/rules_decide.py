"""After the vote closes (§五, §七): choices made from one's own voter lines
within a decision window, 复活, and the letters (追魂, 感谢信) with their dues.
The commands sent in the window are in ``rules_window.py``."""

from __future__ import annotations

from datetime import datetime, timedelta

import plugins.mafia88.engine.texts as T
from plugins.gamekit.clock import on_day
from plugins.gamekit.contract import Actor, Ctx, Effect, Rejected, Say, SetPhase, SetTimer

from .args import HighArgs, TextArgs
from .checks import measure_text, post_problems
from .content import Settings
from .effects import vote_rule
from .ending import check_end
from .model import FACTION_NAME, bring_back, dt, hhmm, iso, mark_out, name, rnd, role_name, tz, when
from .rules_votes import tally
from .state import Cause, Choice, ChoiceKind, Decision, Doomed, Letter, LetterKind, Note, Revive, State, Step, Take

KIND_WORD = T.KIND_WORD


def voter_line(state: State, r: int, seat: int) -> list[int]:
    """The living voters on a candidate's voter lines, in arrival order (领票人 first)."""
    for c in tally(state, r):
        if c.seat == seat:
            out: list[int] = []
            for ln in sorted(c.lines, key=lambda ln: ln.seq):
                v = ln.voter
                if v != seat and state.players[v].alive and v not in out:
                    out.append(v)
            return out
    return []


def open_choices(state: State, cfg: Settings, r: int, voted_out: list[int]) -> tuple[list[Choice], list[Take]]:
    """(choices to make, automatic take-alongs) for this round's voted-out players."""
    choices: list[Choice] = []
    auto: list[Take] = []
    if not cfg.options.role_effects:
        return choices, auto
    by_role: dict[str, list[int]] = {}
    for s in voted_out:
        by_role.setdefault(state.players[s].role, []).append(s)
    for s in voted_out:
        rk = state.players[s].role
        rule = vote_rule(cfg, rk, r)
        if rule is None:
            continue
        line = [v for v in voter_line(state, r, s) if v not in voted_out]
        if rule.take:
            if rule.shared and state.used.get(rk):
                pass  # §五白3: the other egg's take-along is void once one egg took players
            elif rule.together == "first_last" and len(by_role[rk]) > 1:
                full = voter_line(state, r, s)
                picks = [v for v in (full[:1] + full[-1:]) if v not in voted_out]
                auto.append(Take(seat=s, seats=list(dict.fromkeys(picks)), clause=rule.clause))
            elif line:
                choices.append(Choice(seat=s, kind=ChoiceKind.TAKE, need=min(rule.take, len(line)), options=line,
                                      picked=None, clause=rule.clause))
        if rule.reveal and line:
            choices.append(Choice(seat=s, kind=ChoiceKind.REVEAL, need=min(rule.reveal, len(line)), options=line,
                                  picked=None, clause=rule.clause))
        if rule.soul:
            choices.append(Choice(seat=s, kind=ChoiceKind.SOUL, need=1, options=[], picked=None, optional=True,
                                  clause=rule.clause))
    if r == 1 and voted_out:  # §七.1 高票一挂特权: the top-voted of round 1
        top = voted_out[0]
        line = voter_line(state, r, top)
        if line:
            choices.append(Choice(seat=top, kind=ChoiceKind.FIRST_SOUL, need=1, options=line, picked=None,
                                  optional=True, clause=T.FIRST_HIGH_CLAUSE))
    return choices, auto


def revive_holder(state: State, cfg: Settings, r: int, voted_out: list[int]) -> int | None:
    """§五白6: the living 复活 in its rounds, if there is someone else to revive."""
    if not cfg.options.role_effects:
        return None
    rv = cfg.effects.revive
    if r not in rv.rounds:
        return None
    for s, p in sorted(state.players.items()):
        if p.role == rv.role and p.alive and [v for v in voted_out if v != s]:
            return s
    return None


def begin(state: State, r: int, voted_out: list[int], ctx: Ctx[Settings], effects: list[Effect]) -> bool:
    """Open the decision window if someone must choose. False: publish at once."""
    cfg = ctx.settings
    choices, auto = open_choices(state, cfg, r, voted_out)
    holder = revive_holder(state, cfg, r, voted_out)
    # in the 复活's rounds the window always opens while voted-out players exist: its
    # absence would tell the group that the 复活 is out (§五白6)
    revive_round = cfg.options.role_effects and r in cfg.effects.revive.rounds and bool(voted_out)
    if not choices and holder is None and not revive_round:
        rnd(state).decide = Decision(voted_out=voted_out, choices=[], auto=auto, revive=None)
        return False
    minutes = cfg.times.decision_minutes
    ends = ctx.now + timedelta(minutes=minutes)
    cutoff = ends - timedelta(minutes=cfg.effects.revive.cutoff_minutes)
    rnd(state).decide = Decision(voted_out=voted_out, choices=choices, auto=auto, ends=iso(ends),
                                 revive=Revive(holder=holder, cutoff=iso(cutoff), picked=None) if holder else None)
    state.step = Step.DECIDING
    effects.append(Say("group", T.DECIDE_CLOSED.format(r=r, ends=hhmm(state, iso(ends)))))
    effects.append(SetPhase("deciding", T.DECIDE_PHASE.format(r=r), ends))
    for c in choices:
        effects.append(Say(c.seat, prompt(state, r, c, ends)))
    if holder:
        outs = [v for v in voted_out if v != holder]
        effects.append(Say(holder, T.REVIVE_PROMPT.format(r=r, items=T.LIST_SEP.join(name(state, s) for s in outs), cutoff=hhmm(state, iso(cutoff)))))
    lines = [T.DECIDE_WINDOW.format(r=r, ends=hhmm(state, iso(ends)))]
    for c in choices:
        lines.append(T.DECIDE_CHOICE_LINE.format(seat=name(state, c.seat), seat_name=role_name(state, cfg, c.seat), kind_word=KIND_WORD[c.kind], need=c.need, clause=c.clause))
    for a in auto:
        lines.append(T.DECIDE_AUTO_TAKE.format(seat=name(state, a.seat), items=T.LIST_SEP.join(name(state, s) for s in a.seats) or T.NONE, clause=a.clause))
    if holder:
        lines.append(T.DECIDE_REVIVE_LINE.format(holder=name(state, holder), cutoff=hhmm(state, iso(cutoff))))
    effects.append(Say("hosts", "\n".join(lines)))
    return True


def prompt(state: State, r: int, c: Choice, ends: datetime) -> str:
    lines = T.LIST_SEP.join(f"{i}. {name(state, s)}" for i, s in enumerate(c.options, 1))
    deadline = hhmm(state, iso(ends))
    if c.kind == ChoiceKind.TAKE:
        return (T.PROMPT_TAKE.format(r=r, need=c.need, clause=c.clause, lines=lines, deadline=deadline))
    if c.kind == ChoiceKind.REVEAL:
        return (T.PROMPT_REVEAL.format(r=r, clause=c.clause, lines=lines, deadline=deadline))
    if c.kind == ChoiceKind.SOUL:
        return (T.PROMPT_SOUL.format(r=r, clause=c.clause, deadline=deadline))
    return (T.PROMPT_FIRST_SOUL.format(lines=lines, deadline=deadline))


def window(state: State) -> Decision:
    """The open decision window (Rejected outside it)."""
    dec = rnd(state).decide
    if state.step != Step.DECIDING or not dec:
        raise Rejected(T.NOT_CHOICE_TIME)
    return dec


def choice_of(dec: Decision, seat: int, kinds: tuple[ChoiceKind, ...]) -> Choice | None:
    return next((c for c in dec.choices if c.seat == seat and c.kind in kinds), None)


def settle(state: State, r: int, ctx: Ctx[Settings]) -> tuple[list[Take], list[str]]:
    """At the window's end: seeded picks for missing forced choices. Returns
    (take-alongs, notes for the result post)."""
    cfg = ctx.settings
    dec = rnd(state, r).decide
    assert dec is not None  # opened by begin()
    notes: list[str] = []
    rv = dec.revive
    if rv and rv.picked is not None:  # a revived player is not out: its take-along or reveal does not happen
        dec.choices = [c for c in dec.choices if c.seat != rv.picked]
        dec.auto = [a for a in dec.auto if a.seat != rv.picked]
    takes = [Take(seat=a.seat, seats=list(a.seats), clause=a.clause, random=a.random) for a in dec.auto]
    for c in dec.choices:
        if c.picked is None and not c.optional:
            c.picked = sorted(ctx.rng.sample(c.options, c.need))
            c.random = True
        if c.picked is None:
            continue
        if c.kind == ChoiceKind.TAKE:
            takes.append(Take(seat=c.seat, seats=c.picked, clause=c.clause, random=c.random))
            rk = state.players[c.seat].role
            rule = vote_rule(cfg, rk, r)
            if rule and rule.shared:
                state.used[rk] = True
    for t in takes:
        if t.seats:
            how = T.RANDOM_PICK_NOTE if t.random else ""
            notes.append(T.TAKE_NOTE.format(seat=name(state, t.seat), items=T.LIST_SEP.join(name(state, s) for s in t.seats), how=how))
    return takes, notes


def after_result(state: State, r: int, ctx: Ctx[Settings], effects: list[Effect]) -> list[str]:
    """Reveals and letters once the result is applied; lines for the result post."""
    cfg = ctx.settings
    dec = rnd(state, r).decide
    lines: list[str] = []
    if dec is None:
        return lines
    for c in dec.choices:
        if c.picked is None:
            continue
        how = T.RANDOM_PICK_NOTE if c.random else ""
        if c.kind == ChoiceKind.REVEAL:
            for s in c.picked:
                rk = cfg.role(state.players[s].role)
                lines.append(T.MIRROR_NOTE.format(seat=name(state, c.seat), target=name(state, s), role=rk.name, faction_name=FACTION_NAME[rk.faction], how=how))
        elif c.kind in (ChoiceKind.SOUL, ChoiceKind.FIRST_SOUL):
            writer = c.picked[0]
            add_letter(state, LetterKind(c.kind.value), writer, c.seat, r, ctx, effects)
            lines.append(T.SOUL_DESIGNATED_NOTE.format(seat=name(state, c.seat), writer=name(state, writer), letter_due=when(state, letter_due(state, ctx))))
    rv = dec.revive
    if rv and rv.picked is not None:
        add_letter(state, LetterKind.THANKS, rv.picked, rv.holder, r, ctx, effects)
        lines.append(T.REVIVED_NOTE.format(picked=name(state, rv.picked), letter_due=when(state, letter_due(state, ctx)), thanks_min=cfg.effects.revive.thanks_min))
    return lines


# ---- letters: 追魂 and 感谢信 ------------------------------------------------

LETTER = T.LETTER
HIGH_FROM_ROUND = 6  # §七.2: designations after round 5; due 12:00 the day after round 6 starts
LETTER_MIN = 500  # §五黑5, §七.1/2: a 追魂 has at least 500 characters


def designate_high(state: State, actor: Actor, args: HighArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/高贴指定 <玩家> [指定者]: §七.2 高贴数特权, recorded by a host (post counts live on the forum)."""
    cfg = ctx.settings
    writer, by = args.player, args.by
    r = state.round
    if r < HIGH_FROM_ROUND:
        raise Rejected(T.HIGH_TOO_EARLY.format(r=r))
    if not state.players[writer].alive:
        raise Rejected(T.HIGH_WRITER_OUT.format(writer=name(state, writer)))
    if any(x.kind == LetterKind.HIGH and x.writer == writer for x in state.letters):
        raise Rejected(T.HIGH_ALREADY.format(writer=name(state, writer)))
    six = state.rounds.get(HIGH_FROM_ROUND)
    start = dt(six.due.posts) if six is not None and six.due.posts else ctx.now
    due = on_day(start, cfg.times.white_due, tz(state), 1)
    if due <= ctx.now:
        due = on_day(ctx.now, cfg.times.white_due, tz(state), 1)
    letters = state.letters
    letters.append(Letter(id=len(letters) + 1, kind=LetterKind.HIGH, writer=writer, for_=None, by=by.strip(), round=r,
                          min=LETTER_MIN, due=iso(due), done=False, text=""))
    state.audit.append(Note(seq=ctx.seq, at=iso(ctx.now), by=actor.user_id,
                            what=T.HIGH_AUDIT.format(by=by.strip() or T.UNWRITTEN, writer=name(state, writer))))
    return [SetTimer(f"letter:{len(letters)}", due),
            Say(writer, T.HIGH_TELL_WRITER.format(due=when(state, iso(due)))),
            Say("reply", T.HIGH_RECORDED.format(writer=name(state, writer), due=when(state, iso(due))))]


def letter_due(state: State, ctx: Ctx[Settings]) -> str:
    return iso(on_day(ctx.now, ctx.settings.times.white_due, tz(state), 1))


def add_letter(state: State, kind: LetterKind, writer: int, for_seat: int, r: int, ctx: Ctx[Settings], effects: list[Effect]) -> None:
    cfg = ctx.settings
    letters = state.letters
    due = letter_due(state, ctx)
    minimum = cfg.effects.revive.thanks_min if kind == LetterKind.THANKS else LETTER_MIN
    letters.append(Letter(id=len(letters) + 1, kind=kind, writer=writer, for_=for_seat, round=r,
                          min=minimum, due=due, done=False, text=""))
    word, clause = LETTER[kind]
    effects.append(SetTimer(f"letter:{len(letters)}", dt(due)))
    effects.append(Say(writer, T.LETTER_DUE_TELL.format(due=when(state, due), word=word, minimum=minimum, clause=clause)))


SOUL_KINDS = (LetterKind.SOUL, LetterKind.FIRST_SOUL, LetterKind.HIGH)


def letter_soul(state: State, actor: Actor, args: TextArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/追魂 <正文>: the 追魂 one was named to write (§五黑5, §七.1, §七.2)."""
    return write_letter(state, actor, T.SOUL_LETTER, args.text, ctx)


def letter_thanks(state: State, actor: Actor, args: TextArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/感谢信 <正文>: a revived player's thank-you letter (§五白6)."""
    return write_letter(state, actor, T.THANKS_LETTER, args.text, ctx)


def write_letter(state: State, actor: Actor, word: str, text: str, ctx: Ctx[Settings]) -> list[Effect]:
    cfg = ctx.settings
    kinds = SOUL_KINDS if word == T.SOUL_LETTER else (LetterKind.THANKS,)
    mine = [x for x in state.letters if x.writer == actor.seat and x.kind in kinds and not x.done]
    if not mine:
        raise Rejected(T.NO_LETTER.format(word=word))
    x = mine[0]
    if ctx.now >= dt(x.due):
        raise Rejected(T.LETTER_LATE.format(word=word, due=when(state, x.due)))
    fig = measure_text(text)
    bad = post_problems(fig, x.min, cfg.limits)
    if bad:
        raise Rejected(T.LETTER_FAILED.format(word=word, bad=T.SEMI_SEP.join(bad)))
    x.done = True
    x.text = text
    out: list[Effect] = [Say("reply", T.LETTER_OK.format(word=word, chars=fig.chars))]
    if x.kind == LetterKind.SOUL:
        assert x.for_ is not None  # a 地雷's 追魂 is written for it
        if bring_back(state, x.for_, T.REVIVED_BY_LETTER.format(round=state.round), out):
            out.append(Say("group", T.LETTER_SOUL_DONE.format(writer=name(state, x.writer), for_=name(state, x.for_), text=text)))
    elif x.for_ is None:
        out.append(Say("group", T.LETTER_POST_HIGH.format(word=word, writer=name(state, x.writer), text=text)))
    else:
        out.append(Say("group", T.LETTER_POST.format(word=word, writer=name(state, x.writer), for_=name(state, x.for_), text=text)))
    return out


def letter_due_fired(state: State, lid: int, ctx: Ctx[Settings], effects: list[Effect]) -> None:
    cfg = ctx.settings
    letters = state.letters
    if not 1 <= lid <= len(letters):
        return
    x = letters[lid - 1]
    if x.done or x.lapsed:
        return
    x.lapsed = True
    p = state.players[x.writer]
    if x.kind == LetterKind.SOUL:
        assert x.for_ is not None
        effects.append(Say("group", T.LETTER_SOUL_MISSED.format(writer=name(state, x.writer), for_=name(state, x.for_))))
    elif x.kind == LetterKind.FIRST_SOUL:
        if p.alive:
            p.half = sorted(set(p.half) | {2, 3})
            effects.append(Say("group", T.LETTER_FIRST_MISSED.format(writer=name(state, x.writer))))
    elif x.kind == LetterKind.HIGH and p.alive:
        mark_out(state, x.writer, Cause.HIGH, T.OUT_HIGH_LETTER_MISSED, effects)
        effects.append(Say("group", T.LETTER_HIGH_MISSED.format(writer=name(state, x.writer))))
        check_end(state, cfg, effects)
    elif x.kind == LetterKind.THANKS and p.alive:
        nxt = x.round + 1
        p.half = sorted(set(p.half) | {nxt})
        state.doomed.append(Doomed(seat=x.writer, round=nxt, reason=T.OUT_THANKS_MISSED.format(nxt=nxt)))
        effects.append(Say("group", T.LETTER_THANKS_MISSED.format(writer=name(state, x.writer), nxt=nxt)))
