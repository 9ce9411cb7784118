"""移魂 and 还魂 (§五白4, 黑8), the role changes after round 3, and the
unions of §八 told privately."""

from __future__ import annotations

from typing import Any

from plugins.kernel.contract import Actor, Ctx, Rejected, Say

from .effects import ability
from .model import Settings, State, dt, iso, name, rnd, role, role_name, when


def _holder_checks(state: State, actor: Actor, which: str, ctx: Ctx) -> dict[str, Any]:
    cfg = ctx.settings
    ab = ability(cfg, which)
    word = "移魂" if which == "soul_move" else "还魂"
    p = state["players"][str(actor.seat)]
    if not cfg["options"]["role_effects"] or p["role"] != ab["role"]:
        raise Rejected(f"你没有{word}的权利（{ab['clause']}）。")
    if not p["alive"]:
        raise Rejected(f"你已出局，{word}功能失效（{ab['clause']}）。")
    r = state["round"]
    if r not in ab["rounds"]:
        raise Rejected(f"{word}只能在第{'、'.join(str(x) for x in ab['rounds'])}轮使用（{ab['clause']}），本轮是第{r}轮。")
    cur = rnd(state)
    due = cur["due"]["posts"]
    if state["step"] != "round" or cur["posts_done"] or (due and ctx.now >= dt(due)):
        raise Rejected(f"{word}须在交贴截止（{when(state, due)}）前告知，已超时，视为放弃本轮{word}（{ab['clause']}）。")
    if word in state.setdefault("souls", {}).get(str(r), {}).get("words", []):
        raise Rejected(f"你本轮已经{word}过了，不能更改。")
    return ab


def _text_checks(state: State, cfg: Settings, text: str, minimum: int, word: str) -> None:
    from .rules_posts import measure_text, post_problems

    bad = post_problems(measure_text(text), minimum, cfg["limits"])
    if bad:
        raise Rejected(f"{word}文章未通过：{'；'.join(bad)}（须原创 {minimum} 字以上）。请改好后重新发送。")


def move(state: State, actor: Actor, src: int, dst: int, text: str, ctx: Ctx) -> list:
    """/移魂 <被贴杀者> <移到谁> <500字正文>."""
    cfg = ctx.settings
    assert actor.seat is not None  # a PLAYER_ONLY command: the engine's before() refused non-players
    ab = _holder_checks(state, actor, "soul_move", ctx)
    if actor.seat in (src, dst):
        raise Rejected(f"移魂不能移魂自己，只能把其他被贴人移到另一人身上（{ab['clause']}）。")
    if src == dst:
        raise Rejected("被贴杀者和移到的人不能是同一人。")
    for s in (src, dst):
        if not state["players"][str(s)]["alive"]:
            raise Rejected(f"{name(state, s)} 已出局，请选场上的玩家。")
    _text_checks(state, cfg, text, ab["text_min"], "移魂")
    r = state["round"]
    souls = state["souls"].setdefault(str(r), {"words": []})
    souls["move"] = {"by": actor.seat, "from": src, "to": dst, "text": text, "seq": ctx.seq, "at": iso(ctx.now)}
    souls["words"].append("移魂")
    return [Say("reply", f"已记录第{r}轮移魂：若 {name(state, src)} 本轮被贴杀，则移到 {name(state, dst)} 身上，与杀贴同时公布。"),
            Say("hosts", f"移魂 {name(state, actor.seat)}：{name(state, src)} → {name(state, dst)}（{len(text)} 字）。")]


def back(state: State, actor: Actor, dst: int, text: str, ctx: Ctx) -> list:
    """/还魂 <玩家> <800字正文>."""
    cfg = ctx.settings
    assert actor.seat is not None  # a PLAYER_ONLY command: the engine's before() refused non-players
    ab = _holder_checks(state, actor, "soul_back", ctx)
    if dst == actor.seat:
        raise Rejected(f"还魂不能还魂自己，只能还魂其他人（{ab['clause']}）。")
    _text_checks(state, cfg, text, ab["text_min"], "还魂")
    r = state["round"]
    souls = state["souls"].setdefault(str(r), {"words": []})
    souls["back"] = {"by": actor.seat, "to": dst, "text": text, "seq": ctx.seq, "at": iso(ctx.now)}
    souls["words"].append("还魂")
    return [Say("reply", f"已记录第{r}轮还魂：{name(state, dst)}，与杀贴同时公布。"),
            Say("hosts", f"还魂 {name(state, actor.seat)}：{name(state, dst)}（{len(text)} 字）。")]


def publish_texts(state: State, r: int, triggered: list[dict[str, Any]], effects: list) -> None:
    """The texts of a 移魂 that took effect and of a 还魂 that undid it go out with the posts."""
    souls = state.get("souls", {}).get(str(r), {})
    kinds = {t["kind"] for t in triggered}
    if "moved" in kinds and "move" in souls:
        effects.append(Say("group", f"【第{r}轮移魂贴】\n\n{souls['move']['text']}"))
    if "backed" in kinds and "back" in souls:
        effects.append(Say("group", f"【第{r}轮还魂贴】\n\n{souls['back']['text']}"))


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
                from .texts import role_message

                effects.append(Say(s, f"第{r}轮起你转为{role(cfg, ab['becomes'])['name']}（{ab['clause']}）。\n" + role_message(state, cfg, s)))
                effects.append(Say("hosts", f"{name(state, s)} 由{role(cfg, ab['role'])['name']}转为{role(cfg, ab['becomes'])['name']}（{ab['clause']}）。"))
                # those told the new role's members at the start learn of the newcomer (孤杀, 联合杀)
                for o in sorted(int(x) for x in state["players"]):
                    q = state["players"][str(o)]
                    if o != s and q["alive"] and ab["becomes"] in role(cfg, q["role"])["knows"]:
                        effects.append(Say(o, f"第{r}轮起 {name(state, s)} 转为{role(cfg, ab['becomes'])['name']}（{ab['clause']}）。"))


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
        out.append(("剑", yj + lj, "§八.1"))
    ld = _with(state, "lianhe_dan")
    if ld and not _with(state, "lianhe_dan", alive=True):
        out.append(("蛋", ld + _with(state, "yi_hun") + _with(state, "fu_huo"), "§八.2"))
    du_out, du_in = _with(state, "du_sha", alive=False), _with(state, "du_sha", alive=True)
    if len(du_out) >= 7:
        out.append(("独活", du_in + _with(state, "lianhe_sha", alive=None), "§八.5"))
        out.append(("独出", du_out + _with(state, "hei_dan") + _with(state, "gong_bing") + _with(state, "di_lei")
                    + _with(state, "huan_hun"), "§八.5"))
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
            lst = "、".join(f"{name(state, o)}（{role_name(state, cfg, o)}，{'存活' if state['players'][str(o)]['alive'] else '已出局'}）"
                           for o in others)
            effects.append(Say(s, f"联合（{clause}）：你现在与以下玩家联合：{lst}。"))
        effects.append(Say("hosts", f"联合（{clause}）已私聊告知：{'、'.join(name(state, s) for s in members)}。"))
