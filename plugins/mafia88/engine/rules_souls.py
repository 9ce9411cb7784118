"""移魂 and 还魂 (§五白4, 黑8), the role changes after round 3, and the
unions of §八 told privately."""

from __future__ import annotations

from typing import Any

from plugins.gamekit.contract import Actor, Ctx, Rejected, Say

from . import texts as T
from .effects import ability
from .model import Settings, State, dt, iso, name, rnd, role, role_name, when


def _holder_checks(state: State, actor: Actor, which: str, ctx: Ctx) -> dict[str, Any]:
    cfg = ctx.settings
    ab = ability(cfg, which)
    word = T.SOUL_MOVE if which == "soul_move" else T.SOUL_BACK
    p = state["players"][str(actor.seat)]
    if not cfg["options"]["role_effects"] or p["role"] != ab["role"]:
        raise Rejected(T.SOUL_NO_RIGHT.format(word=word, clause=ab["clause"]))
    if not p["alive"]:
        raise Rejected(T.SOUL_HOLDER_OUT.format(word=word, clause=ab["clause"]))
    r = state["round"]
    if r not in ab["rounds"]:
        raise Rejected(T.SOUL_WRONG_ROUND.format(word=word, rounds=T.LIST_SEP.join(str(x) for x in ab["rounds"]), clause=ab["clause"], r=r))
    cur = rnd(state)
    due = cur["due"]["posts"]
    if state["step"] != "round" or cur["posts_done"] or (due and ctx.now >= dt(due)):
        raise Rejected(T.SOUL_TOO_LATE.format(word=word, due=when(state, due), clause=ab["clause"]))
    if word in state.setdefault("souls", {}).get(str(r), {}).get("words", []):
        raise Rejected(T.SOUL_ALREADY.format(word=word))
    return ab


def _text_checks(state: State, cfg: Settings, text: str, minimum: int, word: str) -> None:
    from .rules_posts import measure_text, post_problems

    bad = post_problems(measure_text(text), minimum, cfg["limits"])
    if bad:
        raise Rejected(T.SOUL_TEXT_FAILED.format(word=word, bad=T.SEMI_SEP.join(bad), minimum=minimum))


def move(state: State, actor: Actor, src: int, dst: int, text: str, ctx: Ctx) -> list:
    """/移魂 <被贴杀者> <移到谁> <500字正文>."""
    cfg = ctx.settings
    assert actor.seat is not None  # a PLAYER_ONLY command: the engine's before() refused non-players
    ab = _holder_checks(state, actor, "soul_move", ctx)
    if actor.seat in (src, dst):
        raise Rejected(T.SOUL_MOVE_SELF.format(clause=ab["clause"]))
    if src == dst:
        raise Rejected(T.SOUL_SAME_PERSON)
    for s in (src, dst):
        if not state["players"][str(s)]["alive"]:
            raise Rejected(T.SOUL_TARGET_OUT.format(player=name(state, s)))
    _text_checks(state, cfg, text, ab["text_min"], T.SOUL_MOVE)
    r = state["round"]
    souls = state["souls"].setdefault(str(r), {"words": []})
    souls["move"] = {"by": actor.seat, "from": src, "to": dst, "text": text, "seq": ctx.seq, "at": iso(ctx.now)}
    souls["words"].append(T.SOUL_MOVE)
    return [Say("reply", T.SOUL_MOVE_RECORDED.format(r=r, src=name(state, src), dst=name(state, dst))),
            Say("hosts", T.SOUL_MOVE_HOSTS.format(seat=name(state, actor.seat), src=name(state, src), dst=name(state, dst), n_text=len(text)))]


def back(state: State, actor: Actor, dst: int, text: str, ctx: Ctx) -> list:
    """/还魂 <玩家> <800字正文>."""
    cfg = ctx.settings
    assert actor.seat is not None  # a PLAYER_ONLY command: the engine's before() refused non-players
    ab = _holder_checks(state, actor, "soul_back", ctx)
    if dst == actor.seat:
        raise Rejected(T.SOUL_BACK_SELF.format(clause=ab["clause"]))
    _text_checks(state, cfg, text, ab["text_min"], T.SOUL_BACK)
    r = state["round"]
    souls = state["souls"].setdefault(str(r), {"words": []})
    souls["back"] = {"by": actor.seat, "to": dst, "text": text, "seq": ctx.seq, "at": iso(ctx.now)}
    souls["words"].append(T.SOUL_BACK)
    return [Say("reply", T.SOUL_BACK_RECORDED.format(r=r, dst=name(state, dst))),
            Say("hosts", T.SOUL_BACK_HOSTS.format(seat=name(state, actor.seat), dst=name(state, dst), n_text=len(text)))]


def publish_texts(state: State, r: int, triggered: list[dict[str, Any]], effects: list) -> None:
    """The texts of a 移魂 that took effect and of a 还魂 that undid it go out with the posts."""
    souls = state.get("souls", {}).get(str(r), {})
    kinds = {t["kind"] for t in triggered}
    if "moved" in kinds and "move" in souls:
        effects.append(Say("group", T.SOUL_MOVE_POST.format(r=r, text=souls["move"]["text"])))
    if "backed" in kinds and "back" in souls:
        effects.append(Say("group", T.SOUL_BACK_POST.format(r=r, text=souls["back"]["text"])))


def convert_roles(state: State, cfg: Settings, r: int, effects: list) -> None:
    """After the rounds of 移魂/还魂 (§五白4, 黑8): a living 移魂 becomes 游侠,
    a living 还魂 becomes 联合杀. Called when round r starts."""
    if not cfg["options"]["role_effects"]:
        return
    for which in ("soul_move", "soul_back"):
        ab = ability(cfg, which)
        if not ab.get("becomes") or r != max(ab["rounds"]) + 1:
            continue
        for s in sorted(int(x) for x in state["players"]):
            p = state["players"][str(s)]
            if p["role"] == ab["role"] and p["alive"]:
                p["dealt"] = p.get("dealt") or p["role"]
                p["role"] = ab["becomes"]
                from .model import role_message

                effects.append(Say(s, T.CONVERTED_TELL.format(r=r, becomes=role(cfg, ab["becomes"])["name"], clause=ab["clause"]) + role_message(state, cfg, s)))
                effects.append(Say("hosts", T.CONVERTED_HOSTS.format(player=name(state, s), role=role(cfg, ab["role"])["name"], becomes=role(cfg, ab["becomes"])["name"], clause=ab["clause"])))
                # those told the new role's members at the start learn of the newcomer (孤杀, 联合杀)
                for o in sorted(int(x) for x in state["players"]):
                    q = state["players"][str(o)]
                    if o != s and q["alive"] and ab["becomes"] in role(cfg, q["role"])["knows"]:
                        effects.append(Say(o, T.CONVERTED_MATES.format(r=r, player=name(state, s), becomes=role(cfg, ab["becomes"])["name"], clause=ab["clause"])))


# ---- unions (§八) -----------------------------------------------------------

def _with(state: State, key: str, alive: bool | None = None) -> list[int]:
    out = []
    for s in sorted(int(x) for x in state["players"]):
        p = state["players"][str(s)]
        if (p.get("dealt") or p["role"]) == key and (alive is None or p["alive"] == alive):
            out.append(s)
    return out


def unions(state: State) -> list[tuple[str, list[int], str]]:
    """(key, members, clause) of the unions that hold now."""
    out: list[tuple[str, list[int], str]] = []
    r = state["round"]
    yj, lj = _with(state, "yin_jian"), _with(state, "lianhe_jian")
    after_r4_posts = r > 4 or (r == 4 and rnd(state)["published"])
    if yj and lj and (any(not state["players"][str(s)]["alive"] for s in yj) or after_r4_posts):
        out.append((T.UNION_SWORD, yj + lj, T.UNION_SWORD_CLAUSE))
    ld = _with(state, "lianhe_dan")
    if ld and not _with(state, "lianhe_dan", alive=True):
        out.append((T.UNION_EGG, ld + _with(state, "yi_hun") + _with(state, "fu_huo"), T.UNION_EGG_CLAUSE))
    du_out, du_in = _with(state, "du_sha", alive=False), _with(state, "du_sha", alive=True)
    if len(du_out) >= 7:
        out.append((T.UNION_DU_LIVING, du_in + _with(state, "lianhe_sha", alive=None), T.UNION_DU_CLAUSE))
        out.append((T.UNION_DU_OUT, du_out + _with(state, "hei_dan") + _with(state, "gong_bing") + _with(state, "di_lei")
                    + _with(state, "huan_hun"), T.UNION_DU_CLAUSE))
    return out


def tell_unions(state: State, cfg: Settings, effects: list) -> None:
    """Tell the members of each new union who the others are (privately)."""
    if not cfg["options"]["role_effects"]:
        return
    told = state.setdefault("unions_told", [])
    for key, members, clause in unions(state):
        if key in told:
            continue
        told.append(key)
        for s in members:
            others = [o for o in members if o != s]
            if not others:
                continue
            lst = T.LIST_SEP.join(T.UNION_MATE.format(mate=name(state, o), role=role_name(state, cfg, o), alive=T.ALIVE if state["players"][str(o)]["alive"] else T.OUT_WORD)
                           for o in others)
            effects.append(Say(s, T.UNION_TELL.format(clause=clause, lst=lst)))
        effects.append(Say("hosts", T.UNION_HOSTS.format(clause=clause, items=T.LIST_SEP.join(name(state, s) for s in members))))
