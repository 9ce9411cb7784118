"""After the vote closes (§五, §七): choices made from one's own voter lines
within a decision window, 复活, and the letters (追魂, 感谢信) with their dues.

choice = {seat, kind: "take" | "reveal" | "soul" | "first_soul", need, options,
          picked: [...] | None, clause}
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from plugins.kernel.clock import on_day
from plugins.kernel.contract import Actor, Ctx, Rejected, Say, SetPhase, SetTimer

from .effects import ability, vote_rule
from .model import FACTION_NAME, Settings, State, dt, hhmm, iso, name, rnd, role, role_name, tz, when
from .rules_votes import tally

KIND_WORD = {"take": "带人", "reveal": "照出", "soul": "指定追魂", "first_soul": "指定追魂"}


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
                            "optional": True, "clause": "§七.1 高票一挂特权"})
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
    effects.append(Say("group", f"第{r}轮投票截止。结果贴将于 {hhmm(state, iso(ends))} 公布（§五：等待出局者和特殊身份的选择）。"))
    effects.append(SetPhase("deciding", f"第{r}轮结果前的选择", ends))
    for c in choices:
        effects.append(Say(c["seat"], _prompt(state, r, c, ends)))
    if holder:
        outs = [v for v in voted_out if v != holder]
        effects.append(Say(holder, f"第{r}轮高票者：{'、'.join(name(state, s) for s in outs)}。你可以复活其中一人（§五白6）："
                                   f"{hhmm(state, iso(cutoff))} 前私聊 /复活 <玩家>；不复活则不用回复。"))
    lines = [f"第{r}轮选择窗口（{hhmm(state, iso(ends))} 截止，到时未选由机器人随机代选）："]
    for c in choices:
        lines.append(f"{name(state, c['seat'])}（{role_name(state, cfg, c['seat'])}）{KIND_WORD[c['kind']]} {c['need']} 人（{c['clause']}）")
    for a in auto:
        lines.append(f"{name(state, a['seat'])} 自动带走：{'、'.join(name(state, s) for s in a['seats']) or '无'}（{a['clause']}）")
    if holder:
        lines.append(f"复活 {name(state, holder)} 可在 {hhmm(state, iso(cutoff))} 前复活一名高票者。")
    effects.append(Say("hosts", "\n".join(lines)))
    return True


def _prompt(state: State, r: int, c: dict[str, Any], ends) -> str:
    lines = "、".join(f"{i}. {name(state, s)}" for i, s in enumerate(c["options"], 1))
    deadline = hhmm(state, iso(ends))
    if c["kind"] == "take":
        return (f"你第{r}轮高票出局，可从票你的线上选 {c['need']} 人陪同出局（{c['clause']}）。你的票线：{lines}。"
                f"{deadline} 前私聊 /带人 <玩家>…；到时未选，机器人随机代选。")
    if c["kind"] == "reveal":
        return (f"你第{r}轮高票出局，可照出票你的线上一人的真身和身份（{c['clause']}）。你的票线：{lines}。"
                f"{deadline} 前私聊 /照出 <玩家>；到时未选，机器人随机代选。")
    if c["kind"] == "soul":
        return (f"你第{r}轮高票出局，可指定场上一名玩家为你写 500 字追魂（{c['clause']}），写成则你下轮复活。"
                f"{deadline} 前私聊 /指定追魂 <玩家>；不指定则不用回复。")
    return (f"你是第1轮高票出局者，可指定票你的线上一人写 500 字追魂（§七.1 高票一挂特权）。你的票线：{lines}。"
            f"{deadline} 前私聊 /指定追魂 <玩家>；不指定则不用回复。")


# ---- commands in the window ------------------------------------------------

def _window(state: State, ctx: Ctx) -> dict[str, Any]:
    cur = rnd(state)
    dec = cur.get("decide")
    if state["step"] != "deciding" or not dec:
        raise Rejected("现在不是选择时间：带人、照出、指定追魂和复活只在本轮投票截止后、结果贴发出前进行（§五）。")
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
        what = {"take": "带人（§五白3、黑3、黑5：联合蛋、独立杀、地雷高票出局时）",
                "reveal": "照出（§五黑6：魔镜高票出局时）",
                "soul": "指定追魂（§五黑5 地雷高票出局、§七.1 第1轮高票出局者）"}[kind]
        raise Rejected(f"你本轮没有{what}的权利。")
    if c["picked"] is not None:
        raise Rejected(f"你已经选过了：{'、'.join(name(state, s) for s in c['picked'])}，不能更改。")
    picks = list(dict.fromkeys(targets))
    if actor.seat in picks:
        raise Rejected("不能选自己。")
    if c["kind"] == "soul":
        if len(picks) != 1:
            raise Rejected("请只指定一人：/指定追魂 <玩家>。")
        if not state["players"][str(picks[0])]["alive"]:
            raise Rejected(f"{name(state, picks[0])} 已出局，请指定场上的玩家。")
    else:
        bad = [s for s in picks if s not in c["options"]]
        if bad:
            raise Rejected(f"{'、'.join(name(state, s) for s in bad)} 不在票你的线上（{c['clause']}）。"
                           f"可选：{'、'.join(name(state, s) for s in c['options'])}。")
        if len(picks) != c["need"]:
            raise Rejected(f"请正好选 {c['need']} 人（{c['clause']}）。")
    c["picked"] = picks
    effects.append(Say("reply", f"已记录：{KIND_WORD[c['kind']]} {'、'.join(name(state, s) for s in picks)}，随第{state['round']}轮结果贴生效。"))
    effects.append(Say("hosts", f"{name(state, actor.seat)} {KIND_WORD[c['kind']]}：{'、'.join(name(state, s) for s in picks)}。"))
    maybe_finish(state, ctx, effects)


def revive(state: State, actor: Actor, target: int, ctx: Ctx, effects: list) -> None:
    """/复活 <玩家> (§五白6)."""
    cfg = ctx.settings
    assert actor.seat is not None  # a PLAYER_ONLY command: the engine's before() refused non-players
    rv = ability(cfg, "revive")
    me = state["players"][str(actor.seat)]
    if me["role"] != rv["role"]:
        raise Rejected("你没有复活的权利（§五白6）。")
    r = state["round"]
    if r not in rv["rounds"]:
        raise Rejected(f"复活只在第{'、'.join(str(x) for x in rv['rounds'])}轮有效（§五白6），本轮是第{r}轮。")
    if not me["alive"]:
        raise Rejected("你已出局，复活功能失效（§五白6）。")
    dec = _window(state, ctx)
    info = dec.get("revive")
    if not info or info["holder"] != actor.seat:
        raise Rejected("本轮没有可复活的高票者。")
    ends = ctx.phase.ends_at if ctx.phase is not None else dt(dec["ends"])  # follows /延时
    cutoff = iso(ends - timedelta(minutes=rv["cutoff_minutes"]))
    if ctx.now >= dt(cutoff):
        raise Rejected(f"复活须在结果贴前 {rv['cutoff_minutes']} 分钟（{hhmm(state, cutoff)}）前告知，已超时，视为放弃（§五白6）。")
    if info["picked"] is not None:
        raise Rejected(f"你已选择复活 {name(state, info['picked'])}，不能更改。")
    if target == actor.seat:
        raise Rejected("复活不能复活自己，只能复活其他高票者（§五白6）。")
    if target not in dec["voted_out"]:
        raise Rejected(f"{name(state, target)} 不是本轮高票者；复活只能复活高票者，不能复活被贴杀者（§五白6）。")
    info["picked"] = target
    effects.append(Say("reply", f"已记录：复活 {name(state, target)}，随第{r}轮结果贴生效。"))
    effects.append(Say("hosts", f"复活 {name(state, actor.seat)} 选择复活 {name(state, target)}。"))
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
            how = "（未在时限内选择，机器人随机代选）" if t.get("random") else ""
            notes.append(f"{name(state, t['seat'])} 带走：{'、'.join(name(state, s) for s in t['seats'])}{how}。")
    return takes, notes


def after_result(state: State, r: int, ctx: Ctx, effects: list) -> list[str]:
    """Reveals and letters once the result is applied; lines for the result post."""
    cfg = ctx.settings
    dec = rnd(state, r).get("decide") or {}
    lines: list[str] = []
    for c in dec.get("choices", []):
        if c["picked"] is None:
            continue
        how = "（未在时限内选择，机器人随机代选）" if c.get("random") else ""
        if c["kind"] == "reveal":
            for s in c["picked"]:
                rk = role(cfg, state["players"][str(s)]["role"])
                lines.append(f"魔镜 {name(state, c['seat'])} 照出：{name(state, s)} 是{rk['name']}（{FACTION_NAME[rk['faction']]}）{how}。")
        elif c["kind"] in ("soul", "first_soul"):
            writer = c["picked"][0]
            add_letter(state, c["kind"], writer, c["seat"], r, ctx, effects)
            lines.append(f"{name(state, c['seat'])} 指定 {name(state, writer)} 写 500 字追魂，{when(state, letter_due(state, ctx))} 前私聊 /追魂 <正文>。")
    rv = dec.get("revive")
    if rv and rv["picked"] is not None:
        add_letter(state, "thanks", rv["picked"], rv["holder"], r, ctx, effects)
        lines.append(f"{name(state, rv['picked'])} 被复活（不公布身份），须在 {when(state, letter_due(state, ctx))} 前私聊 /感谢信 <正文>"
                     f"（{ability(cfg, 'revive')['thanks_min']} 字以上），否则降为半票、下一轮自动出局（§五白6）。")
    return lines


# ---- letters: 追魂 and 感谢信 ------------------------------------------------

LETTER = {"soul": ("追魂", "§五黑5"), "first_soul": ("追魂", "§七.1"), "thanks": ("感谢信", "§五白6"),
          "high": ("追魂", "§七.2")}
HIGH_FROM_ROUND = 6  # §七.2: designations after round 5; due 12:00 the day after round 6 starts


def designate_high(state: State, actor: Actor, writer: int, by: str, ctx: Ctx) -> list:
    """/高贴指定 <玩家> [指定者]: §七.2 高贴数特权, recorded by a host (post counts live on the forum)."""
    cfg = ctx.settings
    r = state["round"]
    if r < HIGH_FROM_ROUND:
        raise Rejected(f"高贴数特权在第五轮结束后才能指定（§七.2），现在是第{r}轮。")
    if not state["players"][str(writer)]["alive"]:
        raise Rejected(f"{name(state, writer)} 已出局；只能指定还活着的玩家（§七.2）。")
    if any(x["kind"] == "high" and x["writer"] == writer for x in state.get("letters", [])):
        raise Rejected(f"{name(state, writer)} 已被指定过（§七.2：先指定先得）。")
    start = dt(state["rounds"][str(HIGH_FROM_ROUND)]["due"]["posts"]) if str(HIGH_FROM_ROUND) in state["rounds"] else ctx.now
    due = on_day(start, cfg["times"]["white_due"], tz(state), 1)
    if due <= ctx.now:
        due = on_day(ctx.now, cfg["times"]["white_due"], tz(state), 1)
    letters = state.setdefault("letters", [])
    letters.append({"id": len(letters) + 1, "kind": "high", "writer": writer, "for": None, "by": by.strip(), "round": r,
                    "min": 500, "due": iso(due), "done": False, "text": ""})
    state.setdefault("audit", []).append({"seq": ctx.seq, "at": iso(ctx.now), "by": actor.user_id,
                                          "what": f"高贴数特权：{by.strip() or '（未写）'} 指定 {name(state, writer)}"})
    return [SetTimer(f"letter:{len(letters)}", due),
            Say(writer, f"你被指定写 500 字情书或追魂（§七.2 高贴数特权），请在 {when(state, iso(due))} 前私聊 /追魂 <正文>，否则出局。"),
            Say("reply", f"已记录：{name(state, writer)} 须在 {when(state, iso(due))} 前交 500 字（§七.2）。")]


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
    effects.append(Say(writer, f"你须在 {when(state, due)} 前私聊 /{word} <正文> 交 {minimum} 字以上的{word}（{clause}）。"))


def write_letter(state: State, actor: Actor, word: str, text: str, ctx: Ctx) -> list:
    cfg = ctx.settings
    kinds = ("soul", "first_soul", "high") if word == "追魂" else ("thanks",)
    mine = [x for x in state.get("letters", []) if x["writer"] == actor.seat and x["kind"] in kinds and not x["done"]]
    if not mine:
        raise Rejected(f"你没有要写的{word}。")
    x = mine[0]
    if ctx.now >= dt(x["due"]):
        raise Rejected(f"{word}期限已过（{when(state, x['due'])}）。")
    from .rules_posts import measure_text, post_problems

    fig = measure_text(text)
    bad = post_problems(fig, x["min"], cfg["limits"])
    if bad:
        raise Rejected(f"{word}未通过：{'；'.join(bad)}。请改好后重新 /{word} <正文>。")
    x["done"] = True
    x["text"] = text
    out = [Say("reply", f"{word}已收到（{fig.chars} 字），合格。")]
    if x["kind"] == "soul":
        from .model import bring_back

        effects: list = []
        if bring_back(state, x["for"], f"追魂写成，第{state['round']}轮复活（§五黑5）", effects):
            out += effects
            out.append(Say("group", f"{name(state, x['writer'])} 为 {name(state, x['for'])} 写成追魂，{name(state, x['for'])} 复活（§五黑5）。\n\n{text}"))
    elif x["for"] is None:
        out.append(Say("group", f"【{word}｜{name(state, x['writer'])}（§七.2）】\n\n{text}"))
    else:
        out.append(Say("group", f"【{word}｜{name(state, x['writer'])} → {name(state, x['for'])}】\n\n{text}"))
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
        effects.append(Say("group", f"{name(state, x['writer'])} 未按时写追魂，{name(state, x['for'])} 不复活（§五黑5）。"))
    elif x["kind"] == "first_soul":
        if p["alive"]:
            p.setdefault("half", [])
            p["half"] = sorted(set(p["half"]) | {2, 3})
            effects.append(Say("group", f"{name(state, x['writer'])} 未按时写追魂，第二、三轮只有半票（§七.1）。"))
    elif x["kind"] == "high" and p["alive"]:
        from .model import mark_out

        mark_out(state, x["writer"], "high", "未按时写高贴数特权指定的 500 字（§七.2）", effects)
        effects.append(Say("group", f"{name(state, x['writer'])} 未按时写被指定的 500 字，出局（§七.2）。"))
        from .rules_round import check_end

        check_end(state, cfg, effects)
    elif x["kind"] == "thanks" and p["alive"]:
        nxt = x["round"] + 1
        p.setdefault("half", [])
        p["half"] = sorted(set(p["half"]) | {nxt})
        state.setdefault("doomed", []).append({"seat": x["writer"], "round": nxt,
                                               "reason": f"被复活后未按时写感谢信，第{nxt}轮结束自动出局（§五白6）"})
        effects.append(Say("group", f"{name(state, x['writer'])} 未按时写感谢信，降为半票，第{nxt}轮结果贴时出局（§五白6）。"))
