"""After the vote closes (§五, §七): choices made from one's own voter lines
within a decision window, 复活, and the letters (追魂, 感谢信) with their dues.

choice = {seat, kind: "take" | "reveal" | "soul" | "first_soul", need, options,
          picked: [...] | None, clause}
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from plugins.gamekit.clock import on_day
from plugins.gamekit.contract import Actor, Ctx, Rejected, Say, SetPhase, SetTimer

from . import texts as T
from .effects import ability, vote_rule
from .model import FACTION_NAME, Settings, State, dt, hhmm, iso, name, rnd, role, role_name, tz, when
from .rules_votes import tally

KIND_WORD = T.KIND_WORD


def voter_line(state: State, r: int, seat: int) -> list[int]:
    """The living voters on a candidate's voter lines, in arrival order (领票人 first)."""
    for c in tally(state, r):
        if c["seat"] == seat:
            out: list[int] = []
            for ln in sorted(c["lines"], key=lambda ln: ln["seq"]):
                v = ln["voter"]
                if v != seat and state["players"][str(v)]["alive"] and v not in out:
                    out.append(v)
            return out
    return []


def open_choices(state: State, cfg: Settings, r: int, voted_out: list[int]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(choices to make, automatic take-alongs) for this round's voted-out players."""
    choices: list[dict[str, Any]] = []
    auto: list[dict[str, Any]] = []
    if not cfg["options"]["role_effects"]:
        return choices, auto
    used = state.setdefault("used", {})
    by_role: dict[str, list[int]] = {}
    for s in voted_out:
        by_role.setdefault(state["players"][str(s)]["role"], []).append(s)
    for s in voted_out:
        rk = state["players"][str(s)]["role"]
        rule = vote_rule(cfg, rk, r)
        if rule is None:
            continue
        line = [v for v in voter_line(state, r, s) if v not in voted_out]
        if rule["take"]:
            if rule["shared"] and used.get(rk):
                pass  # §五白3: the other egg's take-along is void once one egg took players
            elif rule["together"] == "first_last" and len(by_role[rk]) > 1:
                full = voter_line(state, r, s)
                picks = [v for v in (full[:1] + full[-1:]) if v not in voted_out]
                auto.append({"seat": s, "seats": list(dict.fromkeys(picks)), "clause": rule["clause"]})
            elif line:
                choices.append({"seat": s, "kind": "take", "need": min(rule["take"], len(line)), "options": line,
                                "picked": None, "clause": rule["clause"]})
        if rule["reveal"] and line:
            choices.append({"seat": s, "kind": "reveal", "need": min(rule["reveal"], len(line)), "options": line,
                            "picked": None, "clause": rule["clause"]})
        if rule["soul"]:
            choices.append({"seat": s, "kind": "soul", "need": 1, "options": [], "picked": None, "optional": True,
                            "clause": rule["clause"]})
    if r == 1 and voted_out:  # §七.1 高票一挂特权: the top-voted of round 1
        top = voted_out[0]
        line = voter_line(state, r, top)
        if line:
            choices.append({"seat": top, "kind": "first_soul", "need": 1, "options": line, "picked": None,
                            "optional": True, "clause": T.FIRST_HIGH_CLAUSE})
    return choices, auto


def revive_holder(state: State, cfg: Settings, r: int, voted_out: list[int]) -> int | None:
    """§五白6: the living 复活 in its rounds, if there is someone else to revive."""
    if not cfg["options"]["role_effects"]:
        return None
    rv = ability(cfg, "revive")
    if r not in rv["rounds"]:
        return None
    for s in sorted(int(x) for x in state["players"]):
        p = state["players"][str(s)]
        if p["role"] == rv["role"] and p["alive"] and [v for v in voted_out if v != s]:
            return s
    return None


def begin(state: State, r: int, voted_out: list[int], ctx: Ctx, effects: list) -> bool:
    """Open the decision window if someone must choose. False: publish at once."""
    cfg = ctx.settings
    choices, auto = open_choices(state, cfg, r, voted_out)
    holder = revive_holder(state, cfg, r, voted_out)
    # in the 复活's rounds the window always opens while voted-out players exist: its
    # absence would tell the group that the 复活 is out (§五白6)
    revive_round = cfg["options"]["role_effects"] and r in ability(cfg, "revive")["rounds"] and bool(voted_out)
    if not choices and holder is None and not revive_round:
        rnd(state)["decide"] = {"voted_out": voted_out, "choices": [], "auto": auto, "revive": None}
        return False
    minutes = cfg["times"]["decision_minutes"]
    ends = ctx.now + timedelta(minutes=minutes)
    cutoff = ends - timedelta(minutes=ability(cfg, "revive")["cutoff_minutes"])
    rnd(state)["decide"] = {"voted_out": voted_out, "choices": choices, "auto": auto, "ends": iso(ends),
                            "revive": {"holder": holder, "cutoff": iso(cutoff), "picked": None} if holder else None}
    state["step"] = "deciding"
    effects.append(Say("group", T.DECIDE_CLOSED.format(r=r, ends=hhmm(state, iso(ends)))))
    effects.append(SetPhase("deciding", T.DECIDE_PHASE.format(r=r), ends))
    for c in choices:
        effects.append(Say(c["seat"], _prompt(state, r, c, ends)))
    if holder:
        outs = [v for v in voted_out if v != holder]
        effects.append(Say(holder, T.REVIVE_PROMPT.format(r=r, items=T.LIST_SEP.join(name(state, s) for s in outs), cutoff=hhmm(state, iso(cutoff)))))
    lines = [T.DECIDE_WINDOW.format(r=r, ends=hhmm(state, iso(ends)))]
    for c in choices:
        lines.append(T.DECIDE_CHOICE_LINE.format(seat=name(state, c["seat"]), seat_name=role_name(state, cfg, c["seat"]), kind_word=KIND_WORD[c["kind"]], need=c["need"], clause=c["clause"]))
    for a in auto:
        lines.append(T.DECIDE_AUTO_TAKE.format(seat=name(state, a["seat"]), items=T.LIST_SEP.join(name(state, s) for s in a["seats"]) or T.NONE, clause=a["clause"]))
    if holder:
        lines.append(T.DECIDE_REVIVE_LINE.format(holder=name(state, holder), cutoff=hhmm(state, iso(cutoff))))
    effects.append(Say("hosts", "\n".join(lines)))
    return True


def _prompt(state: State, r: int, c: dict[str, Any], ends) -> str:
    lines = T.LIST_SEP.join(f"{i}. {name(state, s)}" for i, s in enumerate(c["options"], 1))
    deadline = hhmm(state, iso(ends))
    if c["kind"] == "take":
        return (T.PROMPT_TAKE.format(r=r, need=c["need"], clause=c["clause"], lines=lines, deadline=deadline))
    if c["kind"] == "reveal":
        return (T.PROMPT_REVEAL.format(r=r, clause=c["clause"], lines=lines, deadline=deadline))
    if c["kind"] == "soul":
        return (T.PROMPT_SOUL.format(r=r, clause=c["clause"], deadline=deadline))
    return (T.PROMPT_FIRST_SOUL.format(lines=lines, deadline=deadline))


# ---- commands in the window ------------------------------------------------

def _window(state: State, ctx: Ctx) -> dict[str, Any]:
    cur = rnd(state)
    dec = cur.get("decide")
    if state["step"] != "deciding" or not dec:
        raise Rejected(T.NOT_CHOICE_TIME)
    return dec


def _mine(dec: dict[str, Any], seat: int, kinds: tuple[str, ...]) -> dict[str, Any] | None:
    return next((c for c in dec["choices"] if c["seat"] == seat and c["kind"] in kinds), None)


def choose(state: State, actor: Actor, kind: str, targets: list[int], ctx: Ctx, effects: list) -> None:
    """/带人, /照出, /指定追魂."""
    assert actor.seat is not None  # a PLAYER_ONLY command: the engine's before() refused non-players
    dec = _window(state, ctx)
    kinds = ("soul", "first_soul") if kind == "soul" else (kind,)
    c = _mine(dec, actor.seat, kinds)
    if c is None:
        what = {"take": T.RIGHT_TAKE,
                "reveal": T.RIGHT_REVEAL,
                "soul": T.RIGHT_SOUL}[kind]
        raise Rejected(T.NO_RIGHT.format(what=what))
    if c["picked"] is not None:
        raise Rejected(T.ALREADY_CHOSEN.format(items=T.LIST_SEP.join(name(state, s) for s in c["picked"])))
    picks = list(dict.fromkeys(targets))
    if actor.seat in picks:
        raise Rejected(T.NOT_SELF)
    if c["kind"] == "soul":
        if len(picks) != 1:
            raise Rejected(T.ONE_SOUL_ONLY)
        if not state["players"][str(picks[0])]["alive"]:
            raise Rejected(T.SOUL_PICK_OUT.format(pick=name(state, picks[0])))
    else:
        bad = [s for s in picks if s not in c["options"]]
        if bad:
            raise Rejected(T.NOT_ON_LINES.format(picks=T.LIST_SEP.join(name(state, s) for s in bad), clause=c["clause"], lines=T.LIST_SEP.join(name(state, s) for s in c["options"])))
        if len(picks) != c["need"]:
            raise Rejected(T.PICK_EXACTLY.format(need=c["need"], clause=c["clause"]))
    c["picked"] = picks
    effects.append(Say("reply", T.CHOICE_RECORDED.format(kind_word=KIND_WORD[c["kind"]], items=T.LIST_SEP.join(name(state, s) for s in picks), round=state["round"])))
    effects.append(Say("hosts", T.CHOICE_HOSTS.format(seat=name(state, actor.seat), kind_word=KIND_WORD[c["kind"]], items=T.LIST_SEP.join(name(state, s) for s in picks))))
    maybe_finish(state, ctx, effects)


def revive(state: State, actor: Actor, target: int, ctx: Ctx, effects: list) -> None:
    """/复活 <玩家> (§五白6)."""
    cfg = ctx.settings
    assert actor.seat is not None  # a PLAYER_ONLY command: the engine's before() refused non-players
    rv = ability(cfg, "revive")
    me = state["players"][str(actor.seat)]
    if me["role"] != rv["role"]:
        raise Rejected(T.REVIVE_NO_RIGHT)
    r = state["round"]
    if r not in rv["rounds"]:
        raise Rejected(T.REVIVE_WRONG_ROUND.format(rounds=T.LIST_SEP.join(str(x) for x in rv["rounds"]), r=r))
    if not me["alive"]:
        raise Rejected(T.REVIVE_HOLDER_OUT)
    dec = _window(state, ctx)
    info = dec.get("revive")
    if not info or info["holder"] != actor.seat:
        raise Rejected(T.REVIVE_NOBODY)
    ends = ctx.phase.ends_at if ctx.phase is not None else dt(dec["ends"])  # follows /延时
    cutoff = iso(ends - timedelta(minutes=rv["cutoff_minutes"]))
    if ctx.now >= dt(cutoff):
        raise Rejected(T.REVIVE_TOO_LATE.format(cutoff_minutes=rv["cutoff_minutes"], cutoff=hhmm(state, cutoff)))
    if info["picked"] is not None:
        raise Rejected(T.REVIVE_ALREADY.format(picked=name(state, info["picked"])))
    if target == actor.seat:
        raise Rejected(T.REVIVE_SELF)
    if target not in dec["voted_out"]:
        raise Rejected(T.REVIVE_NOT_HIGH.format(target=name(state, target)))
    info["picked"] = target
    effects.append(Say("reply", T.REVIVE_RECORDED.format(target=name(state, target), r=r)))
    effects.append(Say("hosts", T.REVIVE_HOSTS.format(seat=name(state, actor.seat), target=name(state, target))))
    maybe_finish(state, ctx, effects)


def maybe_finish(state: State, ctx: Ctx, effects: list) -> None:
    """Publish early when every choice is in (optional ones included)."""
    dec = rnd(state)["decide"]
    if any(c["picked"] is None for c in dec["choices"]):
        return
    if dec["revive"] and dec["revive"]["picked"] is None:
        return
    if not dec["choices"] and not dec["revive"]:
        return  # nobody to wait for, but the window runs its time (see begin)
    from .rules_round import finish_decisions

    finish_decisions(state, ctx, effects)


def settle(state: State, r: int, ctx: Ctx) -> tuple[list[dict[str, Any]], list[str]]:
    """At the window's end: seeded picks for missing forced choices. Returns
    (take-alongs, notes for the result post)."""
    cfg = ctx.settings
    dec = rnd(state, r)["decide"]
    notes: list[str] = []
    rv = dec.get("revive")
    if rv and rv["picked"] is not None:  # a revived player is not out: its take-along or reveal does not happen
        dec["choices"] = [c for c in dec["choices"] if c["seat"] != rv["picked"]]
        dec["auto"] = [a for a in dec.get("auto", []) if a["seat"] != rv["picked"]]
    takes = [dict(a) for a in dec.get("auto", [])]
    for c in dec["choices"]:
        if c["picked"] is None and not c.get("optional"):
            c["picked"] = sorted(ctx.rng.sample(c["options"], c["need"]))
            c["random"] = True
        if c["picked"] is None:
            continue
        if c["kind"] == "take":
            takes.append({"seat": c["seat"], "seats": c["picked"], "clause": c["clause"], "random": c.get("random", False)})
            rk = state["players"][str(c["seat"])]["role"]
            rule = vote_rule(cfg, rk, r)
            if rule and rule["shared"]:
                state.setdefault("used", {})[rk] = True
    for t in takes:
        if t["seats"]:
            how = T.RANDOM_PICK_NOTE if t.get("random") else ""
            notes.append(T.TAKE_NOTE.format(seat=name(state, t["seat"]), items=T.LIST_SEP.join(name(state, s) for s in t["seats"]), how=how))
    return takes, notes


def after_result(state: State, r: int, ctx: Ctx, effects: list) -> list[str]:
    """Reveals and letters once the result is applied; lines for the result post."""
    cfg = ctx.settings
    dec = rnd(state, r).get("decide") or {}
    lines: list[str] = []
    for c in dec.get("choices", []):
        if c["picked"] is None:
            continue
        how = T.RANDOM_PICK_NOTE if c.get("random") else ""
        if c["kind"] == "reveal":
            for s in c["picked"]:
                rk = role(cfg, state["players"][str(s)]["role"])
                lines.append(T.MIRROR_NOTE.format(seat=name(state, c["seat"]), target=name(state, s), role=rk["name"], faction_name=FACTION_NAME[rk["faction"]], how=how))
        elif c["kind"] in ("soul", "first_soul"):
            writer = c["picked"][0]
            add_letter(state, c["kind"], writer, c["seat"], r, ctx, effects)
            lines.append(T.SOUL_DESIGNATED_NOTE.format(seat=name(state, c["seat"]), writer=name(state, writer), letter_due=when(state, letter_due(state, ctx))))
    rv = dec.get("revive")
    if rv and rv["picked"] is not None:
        add_letter(state, "thanks", rv["picked"], rv["holder"], r, ctx, effects)
        lines.append(T.REVIVED_NOTE.format(picked=name(state, rv["picked"]), letter_due=when(state, letter_due(state, ctx)), thanks_min=ability(cfg, "revive")["thanks_min"]))
    return lines


# ---- letters: 追魂 and 感谢信 ------------------------------------------------

LETTER = T.LETTER
HIGH_FROM_ROUND = 6  # §七.2: designations after round 5; due 12:00 the day after round 6 starts


def designate_high(state: State, actor: Actor, writer: int, by: str, ctx: Ctx) -> list:
    """/高贴指定 <玩家> [指定者]: §七.2 高贴数特权, recorded by a host (post counts live on the forum)."""
    cfg = ctx.settings
    r = state["round"]
    if r < HIGH_FROM_ROUND:
        raise Rejected(T.HIGH_TOO_EARLY.format(r=r))
    if not state["players"][str(writer)]["alive"]:
        raise Rejected(T.HIGH_WRITER_OUT.format(writer=name(state, writer)))
    if any(x["kind"] == "high" and x["writer"] == writer for x in state.get("letters", [])):
        raise Rejected(T.HIGH_ALREADY.format(writer=name(state, writer)))
    start = dt(state["rounds"][str(HIGH_FROM_ROUND)]["due"]["posts"]) if str(HIGH_FROM_ROUND) in state["rounds"] else ctx.now
    due = on_day(start, cfg["times"]["white_due"], tz(state), 1)
    if due <= ctx.now:
        due = on_day(ctx.now, cfg["times"]["white_due"], tz(state), 1)
    letters = state.setdefault("letters", [])
    letters.append({"id": len(letters) + 1, "kind": "high", "writer": writer, "for": None, "by": by.strip(), "round": r,
                    "min": 500, "due": iso(due), "done": False, "text": ""})
    state.setdefault("audit", []).append({"seq": ctx.seq, "at": iso(ctx.now), "by": actor.user_id,
                                          "what": T.HIGH_AUDIT.format(by=by.strip() or T.UNWRITTEN, writer=name(state, writer))})
    return [SetTimer(f"letter:{len(letters)}", due),
            Say(writer, T.HIGH_TELL_WRITER.format(due=when(state, iso(due)))),
            Say("reply", T.HIGH_RECORDED.format(writer=name(state, writer), due=when(state, iso(due))))]


def letter_due(state: State, ctx: Ctx) -> str:
    cfg = ctx.settings
    return iso(on_day(ctx.now, cfg["times"]["white_due"], tz(state), 1))


def add_letter(state: State, kind: str, writer: int, for_seat: int, r: int, ctx: Ctx, effects: list) -> None:
    cfg = ctx.settings
    letters = state.setdefault("letters", [])
    due = letter_due(state, ctx)
    minimum = ability(cfg, "revive")["thanks_min"] if kind == "thanks" else 500
    letters.append({"id": len(letters) + 1, "kind": kind, "writer": writer, "for": for_seat, "round": r,
                    "min": minimum, "due": due, "done": False, "text": ""})
    word, clause = LETTER[kind]
    effects.append(SetTimer(f"letter:{len(letters)}", dt(due)))
    effects.append(Say(writer, T.LETTER_DUE_TELL.format(due=when(state, due), word=word, minimum=minimum, clause=clause)))


def write_letter(state: State, actor: Actor, word: str, text: str, ctx: Ctx) -> list:
    cfg = ctx.settings
    kinds = ("soul", "first_soul", "high") if word == T.SOUL_LETTER else ("thanks",)
    mine = [x for x in state.get("letters", []) if x["writer"] == actor.seat and x["kind"] in kinds and not x["done"]]
    if not mine:
        raise Rejected(T.NO_LETTER.format(word=word))
    x = mine[0]
    if ctx.now >= dt(x["due"]):
        raise Rejected(T.LETTER_LATE.format(word=word, due=when(state, x["due"])))
    from .rules_posts import measure_text, post_problems

    fig = measure_text(text)
    bad = post_problems(fig, x["min"], cfg["limits"])
    if bad:
        raise Rejected(T.LETTER_FAILED.format(word=word, bad=T.SEMI_SEP.join(bad)))
    x["done"] = True
    x["text"] = text
    out = [Say("reply", T.LETTER_OK.format(word=word, chars=fig.chars))]
    if x["kind"] == "soul":
        from .model import bring_back

        effects: list = []
        if bring_back(state, x["for"], T.REVIVED_BY_LETTER.format(round=state["round"]), effects):
            out += effects
            out.append(Say("group", T.LETTER_SOUL_DONE.format(writer=name(state, x["writer"]), for_=name(state, x["for"]), text=text)))
    elif x["for"] is None:
        out.append(Say("group", T.LETTER_POST_HIGH.format(word=word, writer=name(state, x["writer"]), text=text)))
    else:
        out.append(Say("group", T.LETTER_POST.format(word=word, writer=name(state, x["writer"]), for_=name(state, x["for"]), text=text)))
    return out


def letter_due_fired(state: State, lid: int, ctx: Ctx, effects: list) -> None:
    cfg = ctx.settings
    letters = state.get("letters", [])
    if not 1 <= lid <= len(letters):
        return
    x = letters[lid - 1]
    if x["done"] or x.get("lapsed"):
        return
    x["lapsed"] = True
    p = state["players"][str(x["writer"])]
    if x["kind"] == "soul":
        effects.append(Say("group", T.LETTER_SOUL_MISSED.format(writer=name(state, x["writer"]), for_=name(state, x["for"]))))
    elif x["kind"] == "first_soul":
        if p["alive"]:
            p.setdefault("half", [])
            p["half"] = sorted(set(p["half"]) | {2, 3})
            effects.append(Say("group", T.LETTER_FIRST_MISSED.format(writer=name(state, x["writer"]))))
    elif x["kind"] == "high" and p["alive"]:
        from .model import mark_out

        mark_out(state, x["writer"], "high", T.OUT_HIGH_LETTER_MISSED, effects)
        effects.append(Say("group", T.LETTER_HIGH_MISSED.format(writer=name(state, x["writer"]))))
        from .rules_round import check_end

        check_end(state, cfg, effects)
    elif x["kind"] == "thanks" and p["alive"]:
        nxt = x["round"] + 1
        p.setdefault("half", [])
        p["half"] = sorted(set(p["half"]) | {nxt})
        state.setdefault("doomed", []).append({"seat": x["writer"], "round": nxt,
                                               "reason": T.OUT_THANKS_MISSED.format(nxt=nxt)})
        effects.append(Say("group", T.LETTER_THANKS_MISSED.format(writer=name(state, x["writer"]), nxt=nxt)))
