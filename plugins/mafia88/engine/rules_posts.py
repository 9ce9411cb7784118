"""Kill posts (§十二): drafting by private message, measurable checks, host
judgement, white slips, rewrites, giving up, publication and the 12:00 due."""

from __future__ import annotations

import dataclasses
from typing import Any

from plugins.kernel.clock import on_day
from plugins.kernel.contract import Actor, Ctx, Ignored, Rejected, Say, SetTimer
from plugins.kernel.textcheck import measure

from .model import (
    FACTION_NAME,
    Settings,
    State,
    alive,
    bring_back,
    code_rank,
    dt,
    hhmm,
    is_no_white_round,
    iso,
    mark_out,
    name,
    player,
    rnd,
    role,
    role_label,
    role_name,
    row,
    seats,
    tz,
    when,
)
from .texts import figures_line


def measure_text(text: str):
    """The kernel's figures (its repeat count also catches a clause repeated with
    commas, 甲，甲，甲, §十二.2)."""
    return measure(text)


LIVE = ("pending", "approved", "white", "rejected")
STATUS_NAME = {"pending": "待审", "approved": "已通过", "white": "白条待补", "rejected": "退回待重写", "void": "作废"}


# ---- eligibility -----------------------------------------------------------

def _living_with(state: State, roles: list[str], but: int | None = None) -> int:
    return sum(1 for s in alive(state) if state["players"][str(s)]["role"] in roles and s != but)


def tier_for(state: State, cfg: Settings, gkey: str, seat: int, quota: int) -> int | None:
    """0 for the group's own roles, i for the i-th substitute tier that is
    open now (§九), None if the player cannot post for the group."""
    from .model import group

    g = group(cfg, gkey)
    mine = state["players"][str(seat)]["role"]
    if mine in g["roles"]:
        return 0
    earlier = list(g["roles"])
    for i, tier in enumerate(g["substitutes"], 1):
        if mine in tier["roles"]:
            n = _living_with(state, earlier)
            if tier["when"] == "short" and n < quota:
                return i
            if tier["when"] == "none" and n == 0:
                return i
            if tier["when"] == "last":
                fac = role(cfg, mine)["faction"]
                others = [s for s in alive(state) if s != seat and role(cfg, state["players"][str(s)]["role"])["faction"] == fac]
                if not others:
                    return i
            return None
        earlier.extend(tier["roles"])
    return None


def round_posts(state: State, r: int, gkey: str | None = None) -> list[dict[str, Any]]:
    return [p for p in state["posts"] if p["round"] == r and p["status"] != "void" and (gkey is None or p["group"] == gkey)]


def post_of(state: State, seat: int, r: int) -> dict[str, Any] | None:
    for p in round_posts(state, r):
        if p["author"] == seat:
            return p
    return None


def quotas_of(state: State, cfg: Settings, r: int) -> dict[str, int]:
    """The round's post quotas, plus optional groups open this round (工兵 rounds 2–4, §五黑7)."""
    quotas = {g: n for g, n in row(state, r)["posts"].items() if n > 0}
    if cfg["options"]["role_effects"]:
        for g in cfg["groups"]:
            opt = g.get("optional") or {}
            if opt and opt["rounds"][0] <= r <= opt["rounds"][1] and g["key"] not in quotas:
                quotas[g["key"]] = opt["posts"]
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
            full.append(f"「{g}」{q}/{q}")
            continue
        options.append((t, i, g))
    if options:
        return sorted(options)[0][2]
    if full:
        raise Rejected(f"本轮你能出的贴已满（{'、'.join(full)}），不能再交。")
    mine = state["players"][str(seat)]["role"]
    for g in cfg["groups"]:
        opt = g.get("optional") or {}
        if opt and mine in g["roles"] and cfg["options"]["role_effects"]:
            a, b = opt["rounds"]
            raise Rejected(f"{role(cfg, mine)['name']}只能在第{a}至{b}轮出贴（§五黑7），本轮是第{r}轮，不能出贴。")
    raise Rejected("你本轮没有贴杀任务，不能出贴。")


def _posting_open(state: State, ctx: Ctx) -> None:
    cur = rnd(state)
    if state["step"] != "round":
        raise Rejected("现在不是交贴时间。")
    due = cur["due"]["posts"]
    if cur["posts_done"] or (due and ctx.now >= dt(due)):
        raise Rejected(f"本轮交贴已截止（{hhmm(state, due)}），下轮结果帖发出后 15 分钟内再交。")


def _author_checks(state: State, cfg: Settings, actor: Actor, code: str, target: int) -> None:
    seat = actor.seat
    assert seat is not None  # post and white are PLAYER_ONLY: the engine's before() refused non-players
    me = state["players"][str(seat)]
    if not me["code"] or role(cfg, me["role"])["disguise"]:
        raise Rejected("你没有贴杀权。")
    if code.strip() != me["code"]:
        raise Rejected("代号不对，请写你自己的代号（见 /我的身份）。")
    if str(seat) in state["drafts"]:
        raise Rejected("你有一份草稿还没完成：先 /完成 或 /撤稿。")
    t = player(state, target)
    if t is None:
        raise Rejected(f"没有 {target} 号玩家，请核对目标。")
    if not t["alive"]:
        raise Rejected(f"{name(state, target)} 已出局，不能贴杀，请换一个目标。")
    mine = post_of(state, seat, state["round"])
    if mine is not None:
        raise Rejected(f"你本轮已交贴（#{mine['id']}），每轮只能交一份。")


# ---- drafting --------------------------------------------------------------

def open_post(state: State, actor: Actor, code: str, target: int, text: str, ctx: Ctx) -> list:
    cfg = ctx.settings
    assert actor.seat is not None  # a PLAYER_ONLY command: the engine's before() refused non-players
    _posting_open(state, ctx)
    _author_checks(state, cfg, actor, code, target)
    g = group_for(state, cfg, actor.seat, state["round"])
    state["drafts"][str(actor.seat)] = {
        "mode": "new", "round": state["round"], "code": code.strip(), "target": target, "group": g,
        "parts": [text] if text.strip() else [],
    }
    count = measure(text).chars if text.strip() else 0
    return [Say("reply", f"开始起草第{state['round']}轮杀帖：代号 {code.strip()}，目标 {name(state, target)}（{g}）。"
                         f"已收 {count} 字。请继续私聊发送正文，可分多条；写完发 /完成，放弃发 /撤稿。")]


def declare_white(state: State, actor: Actor, code: str, target: int, ctx: Ctx) -> list:
    """§十二.4 white slip: the kill stands now, 1200 characters are due by 12:00."""
    cfg = ctx.settings
    assert actor.seat is not None  # a PLAYER_ONLY command: the engine's before() refused non-players
    _posting_open(state, ctx)
    r = state["round"]
    if is_no_white_round(state, r):
        raise Rejected("大结局轮和加时轮不允许白条（§十二.8），请在截止前交正式杀帖。")
    _author_checks(state, cfg, actor, code, target)
    g = group_for(state, cfg, actor.seat, r)
    post = _new_post(state, actor.seat, r, code.strip(), target, g, "white", "", None, ctx)
    due = _expected_white_due(state, cfg)
    minimum = cfg["limits"]["rewrite_min"]
    return [
        Say("reply", f"白条已登记（#{post['id']}），目标 {name(state, target)} 将随本轮杀帖出局。"
                     f"请在 {due} 前私聊 /重写 {post['id']} 交 {minimum} 字以上正文，否则你出局、目标复活。"),
        Say("hosts", f"白条 #{post['id']}：代号 {post['code']}（{name(state, actor.seat)}）→ {name(state, target)}，正文 {due} 前补交。"),
    ]


def open_rewrite(state: State, actor: Actor, post_id: int, text: str, ctx: Ctx) -> list:
    cfg = ctx.settings
    post = _get(state, post_id)
    if post["author"] != actor.seat:
        raise Rejected(f"#{post_id} 不是你的杀帖。")
    if post["status"] not in ("white", "rejected"):
        raise Rejected(f"#{post_id} 现在是「{STATUS_NAME.get(post['status'], post['status'])}」，不需要重写。")
    due = rnd(state, post["round"])["due"]["white"]
    if due and ctx.now >= dt(due):
        raise Rejected(f"重写期限已过（{when(state, due)}）。")
    if str(actor.seat) in state["drafts"]:
        raise Rejected("你有一份草稿还没完成：先 /完成 或 /撤稿。")
    state["drafts"][str(actor.seat)] = {
        "mode": "rewrite", "round": post["round"], "post": post_id, "code": post["code"], "target": post["target"],
        "group": post["group"], "parts": [text] if text.strip() else [],
    }
    minimum = cfg["limits"]["rewrite_min"]
    return [Say("reply", f"开始重写 #{post_id}（需 {minimum} 字以上）。请私聊发送正文，写完发 /完成，放弃发 /撤稿。")]


def append_text(state: State, cfg: Settings, actor: Actor, text: str, images: int = 0) -> list:
    if actor.seat is None or str(actor.seat) not in state["drafts"]:
        raise Ignored()
    d = state["drafts"][str(actor.seat)]
    if text.strip():
        cap = cfg["limits"].get("post_max", 6000)
        total = sum(len(x) for x in d["parts"]) + len(text)
        if total > cap:
            raise Rejected(f"杀帖正文太长：加上这段共 {total} 字，最多 {cap} 字。这段没有收下，请删短后再发。")
        d["parts"].append(text)
    count = measure("\n".join(d["parts"])).chars
    note = "（图片不计入正文）" if images else ""
    return [Say("reply", f"已收到{note}，累计 {count} 字。继续发送正文，写完发 /完成。")]


def drop_draft(state: State, actor: Actor) -> list:
    if state["drafts"].pop(str(actor.seat), None) is None:
        raise Rejected("你没有未完成的草稿。")
    return [Say("reply", "草稿已作废。需要时重新 /出贴。")]


def problems(fig, minimum: int, limits: dict[str, int]) -> list[str]:
    out = []
    if fig.chars < minimum:
        out.append(f"字数 {fig.chars}，不足 {minimum}")
    if fig.quote_ratio * 100 > limits["quote_max_percent"]:
        out.append(f"引用占 {fig.quote_ratio * 100:.1f}%，超过 {limits['quote_max_percent']}%")
    if fig.unquoted < minimum:
        out.append(f"去掉引用后 {fig.unquoted} 字，不足 {minimum}")
    return out


def post_problems(fig, minimum: int, limits: dict[str, int]) -> list[str]:
    out = problems(fig, minimum, limits)
    if fig.repeat_ratio * 100 > limits["repeat_max_percent"]:
        out.append(f"重复句子占 {fig.repeat_ratio * 100:.1f}%，超过 {limits['repeat_max_percent']}%")
    if not fig.simplified:
        out.append(f"含繁体字 {fig.traditional} 个，请用简体" if fig.traditional else "没有汉字")
    return out


def named_aliases(state: State, text: str, but: int) -> list[int]:
    """Seats whose alias appears in the text (longest aliases first, so 玩家1
    inside 玩家12 is not counted), excluding seat ``but``."""
    covered = [False] * len(text)
    found: list[int] = []
    for s in sorted(seats(state), key=lambda s: (-len(state["players"][str(s)]["alias"]), s)):
        a = state["players"][str(s)]["alias"]
        start = text.find(a)
        while start >= 0:
            if not any(covered[start:start + len(a)]):
                for i in range(start, start + len(a)):
                    covered[i] = True
                if s != but and s not in found:
                    found.append(s)
            start = text.find(a, start + 1)
    return sorted(found)


def first_post_problems(state: State, cfg: Settings, seat: int, d: dict[str, Any], text: str) -> list[str]:
    """§六.1: the 孤杀's first post names exactly 8 aliases, at least one a 联合杀 (not itself)."""
    need = cfg["options"]["first_post_aliases"]
    if not need or state["players"][str(seat)]["role"] != "gu_sha":
        return []
    mine = [p for p in state["posts"] if p["author"] == seat and p["status"] != "void"]
    if mine and (d["mode"] == "new" or d.get("post") != mine[0]["id"]):
        return []
    named = named_aliases(state, text, seat)
    out = []
    if len(named) != need:
        out.append(f"孤杀第一贴须有且只有 {need} 个游戏马甲（§六.1），现有 {len(named)} 个")
    if not any(state["players"][str(s)]["role"] == "lianhe_sha" for s in named):
        out.append("孤杀第一贴至少要有一个联合杀马甲（§六.1）")
    return out


def finish_draft(state: State, actor: Actor, ctx: Ctx) -> list:
    cfg = ctx.settings
    assert actor.seat is not None  # a PLAYER_ONLY command: the engine's before() refused non-players
    d = state["drafts"].get(str(actor.seat))
    if d is None:
        raise Rejected("你没有未完成的草稿：先 /出贴 <代号> <目标>。")
    text = "\n".join(d["parts"])
    fig = measure_text(text)
    limits = cfg["limits"]
    minimum = limits["post_min"] if d["mode"] == "new" else limits["rewrite_min"]
    bad = post_problems(fig, minimum, limits)
    bad += first_post_problems(state, cfg, actor.seat, d, text)
    if bad:
        raise Rejected(f"杀帖未通过：{'；'.join(bad)}。\n{figures_line(dataclasses.asdict(fig))}\n可继续发送正文补充后再 /完成，或 /撤稿 重写。")
    if d["mode"] == "new":
        _posting_open(state, ctx)
        r = state["round"]
        if not state["players"][str(d["target"])]["alive"]:
            raise Rejected(f"{name(state, d['target'])} 已出局，请 /撤稿 后换一个目标。")
        if len(round_posts(state, r, d["group"])) >= quotas_of(state, cfg, r).get(d["group"], 0):
            raise Rejected(f"「{d['group']}」本轮的贴已满，不能再交；请 /撤稿。")
        post = _new_post(state, actor.seat, r, d["code"], d["target"], d["group"], "post", text, fig, ctx)
        head = f"杀帖已交（#{post['id']}）"
    else:
        post = _get(state, d["post"])
        due = rnd(state, post["round"])["due"]["white"]
        if due and ctx.now >= dt(due):
            raise Rejected(f"重写期限已过（{when(state, due)}）。")
        post.update(text=text, figures=dataclasses.asdict(fig), status="pending", text_shown=False)
        post["history"].append({"at": iso(ctx.now), "seq": ctx.seq, "event": "rewrite"})
        head = f"重写稿已交（#{post['id']}）"
    del state["drafts"][str(actor.seat)]
    line = figures_line(post["figures"])
    return [
        Say("reply", f"{head}：{line}。已交哨子审核，结果会私聊告诉你。"),
        Say("hosts", f"新{'重写稿' if d['mode'] != 'new' else '杀帖'} #{post['id']}：代号 {post['code']}（{name(state, post['author'])}）→ "
                     f"{name(state, post['target'])}。{line}。/看贴 {post['id']} 查看，/通过 {post['id']} 或 /退回 {post['id']} <理由>。"),
    ]


def _new_post(state: State, author: int, r: int, code: str, target: int, g: str, kind: str, text: str, fig, ctx: Ctx) -> dict:
    post = {
        "id": len(state["posts"]) + 1, "round": r, "author": author, "code": code, "group": g, "target": target,
        "kind": kind, "status": "white" if kind == "white" else "pending", "text": text,
        "figures": dataclasses.asdict(fig) if fig else None, "seq": ctx.seq, "at": iso(ctx.now),
        "published": False, "text_shown": False, "killed": False,
        "history": [{"at": iso(ctx.now), "seq": ctx.seq, "event": kind}],
    }
    state["posts"].append(post)
    return post


def _get(state: State, post_id: int) -> dict[str, Any]:
    if not 1 <= post_id <= len(state["posts"]):
        raise Rejected(f"没有 #{post_id} 号杀帖，/贴单 可查看帖号。")
    return state["posts"][post_id - 1]


def _expected_white_due(state: State, cfg: Settings) -> str:
    cur = rnd(state)
    if cur["due"]["white"]:
        return when(state, cur["due"]["white"])
    return when(state, iso(white_due_at(state, cfg, state["round"])))


def white_due_at(state: State, cfg: Settings, r: int):
    """§十二.4: white slips and rewrites are due the day after the posts were due."""
    due = dt(rnd(state, r)["due"]["posts"])
    return on_day(due, cfg["times"]["white_due"], tz(state), 1)


def my_posts(state: State, actor: Actor) -> list:
    mine = [p for p in state["posts"] if p["author"] == actor.seat]
    lines = [f"#{p['id']} 第{p['round']}轮 → {name(state, p['target'])}：{STATUS_NAME[p['status']]}" for p in mine]
    d = state["drafts"].get(str(actor.seat))
    if d:
        lines.append(f"草稿：→ {name(state, d['target'])}，已收 {measure(chr(10).join(d['parts'])).chars} 字（/完成 或 /撤稿）")
    return [Say("reply", "\n".join(lines) if lines else "你还没有交过杀帖。")]


# ---- host judgement --------------------------------------------------------

def list_posts(state: State, r: int | None) -> list:
    r = r or state["round"]
    posts = [p for p in state["posts"] if p["round"] == r]
    if not posts:
        return [Say("reply", f"第{r}轮还没有杀帖。")]
    lines = [f"第{r}轮杀帖（贴杀：{_quota_text(state, r)}）："]
    for p in posts:
        fig = figures_line(p["figures"]) if p["figures"] else "正文未交"
        lines.append(f"#{p['id']} {p['code']}（{name(state, p['author'])}）→ {name(state, p['target'])}｜{STATUS_NAME[p['status']]}｜{fig}")
    return [Say("reply", "\n".join(lines))]


def show_post(state: State, post_id: int) -> list:
    p = _get(state, post_id)
    fig = figures_line(p["figures"]) if p["figures"] else "正文未交"
    return [Say("reply", f"#{p['id']} 第{p['round']}轮 {p['code']}（{name(state, p['author'])}）→ {name(state, p['target'])}｜"
                         f"{STATUS_NAME[p['status']]}\n{fig}\n\n{p['text'] or '（白条，正文未交）'}")]


def approve(state: State, post_id: int, ctx: Ctx) -> list:
    p = _get(state, post_id)
    if p["status"] != "pending":
        raise Rejected(f"#{post_id} 现在是「{STATUS_NAME[p['status']]}」，只有待审的杀帖可以通过。")
    p["status"] = "approved"
    p["history"].append({"at": iso(ctx.now), "seq": ctx.seq, "event": "approved"})
    effects = [Say("reply", f"#{post_id} 已通过。"), Say(p["author"], f"你的杀帖 #{post_id} 已通过审核。")]
    if p["published"] and not p["text_shown"]:
        p["text_shown"] = True
        effects.append(Say("group", _post_text(state, p, late=True)))
    return effects


def reject(state: State, post_id: int, reason: str, ctx: Ctx) -> list:
    """§十二.7: a rejected post must be rewritten at 1200+ characters by 12:00."""
    cfg = ctx.settings
    p = _get(state, post_id)
    if p["status"] not in ("pending", "approved"):
        raise Rejected(f"#{post_id} 现在是「{STATUS_NAME[p['status']]}」，不能退回。")
    due = rnd(state, p["round"])["due"]["white"]
    if due and ctx.now >= dt(due):
        raise Rejected(f"#{post_id} 的重写期限（{when(state, due)}）已过；如需判罚请用 /判出局。")
    reason = reason.strip() or "不符合杀帖要求"
    p["status"] = "rejected"
    p["history"].append({"at": iso(ctx.now), "seq": ctx.seq, "event": "rejected", "note": reason})
    due_txt = when(state, due) if due else _expected_white_due(state, cfg) if p["round"] == state["round"] else "次日 12:00"
    minimum = cfg["limits"]["rewrite_min"]
    return [
        Say("reply", f"#{post_id} 已退回，作者须在 {due_txt} 前重写。"),
        Say(p["author"], f"你的杀帖 #{post_id} 被退回：{reason}。请在 {due_txt} 前私聊 /重写 {post_id} 交 {minimum} 字以上的新稿，"
                         f"否则你出局、目标复活（§十二.7）。"),
    ]


def _quota_text(state: State, r: int) -> str:
    posts = {g: n for g, n in row(state, r)["posts"].items() if n > 0}
    return "、".join(f"{g}{n}" for g, n in posts.items()) or "无"


def _post_text(state: State, p: dict[str, Any], late: bool = False) -> str:
    tag = "补发" if late else "杀帖"
    return f"【第{p['round']}轮{tag}｜代号 {p['code']}】目标：{name(state, p['target'])}\n\n{p['text']}"


# ---- timers ----------------------------------------------------------------

def posts_due(state: State, r: int, ctx: Ctx, effects: list) -> None:
    """Posts are due (§十二.4): drafts lapse; each missing quota post puts
    out one silent author of the group in code-name order (§十二.9)."""
    cfg = ctx.settings
    cur = rnd(state, r)
    if cur["posts_done"]:
        return
    cur["posts_done"] = True
    for seat_key in sorted(state["drafts"], key=int):
        d = state["drafts"][seat_key]
        if d["mode"] == "new" and d["round"] == r:
            del state["drafts"][seat_key]
            effects.append(Say(int(seat_key), "交贴已截止，你未完成的草稿已作废。"))
    from .model import group

    gave_up: list[int] = []
    for gkey, quota in row(state, r)["posts"].items():
        missing = quota - len(round_posts(state, r, gkey))
        if missing <= 0:
            continue
        g = group(cfg, gkey)
        silent = [s for s in alive(state) if state["players"][str(s)]["role"] in g["roles"] and post_of(state, s, r) is None]
        silent.sort(key=lambda s: code_rank(state, cfg, s))
        for s in silent[:missing]:
            if mark_out(state, s, "giveup", f"第{r}轮未交杀帖，视为放弃贴杀（§十二.9）", effects):
                gave_up.append(s)
    got = round_posts(state, r)
    whites = sum(1 for p in got if p["kind"] == "white")
    text = f"第{r}轮交贴截止：收到杀帖 {len(got)} 份" + (f"（含白条 {whites} 份）" if whites else "") + "。"
    if gave_up:  # by seat: code-name order would tell their roles a round early
        text += f"{'、'.join(name(state, s) for s in sorted(gave_up))} 未交杀帖，视为放弃贴杀，出局。"
    text += f"杀帖将于 {when(state, cur['due']['publish'])} 公布。"
    effects.append(Say("group", text))
    from .resolution import resolve_posts

    res, _ = resolve_posts(state, cfg, r, round_posts(state, r))
    effects.append(Say("hosts", explanation(state, r, res, final=False)))


def publish(state: State, r: int, ctx: Ctx, effects: list) -> None:
    """Publish the round's posts in code-name order (§六.2) and apply their
    kills once each; reveal the identities of last round's dead (§五)."""
    cfg = ctx.settings
    cur = rnd(state, r)
    if cur["published"]:
        return
    posts_due(state, r, ctx, effects)
    cur["published"] = True
    auto = cfg["options"]["auto_approve_pending"]
    posts = sorted(round_posts(state, r), key=lambda p: (code_rank(state, cfg, p["author"]), p["id"]))
    killed: list[str] = []
    notes: list[str] = []
    held: list[str] = []
    for p in posts:
        p["published"] = True
        if p["status"] == "pending" and auto:
            p["status"] = "approved"
            p["history"].append({"at": iso(ctx.now), "seq": ctx.seq, "event": "auto-approved"})
        if p["status"] == "approved":
            p["text_shown"] = True
            effects.append(Say("group", _post_text(state, p)))
        elif p["status"] == "pending":
            held.append(f"代号 {p['code']} 的杀帖（目标 {name(state, p['target'])}）")
        else:
            notes.append(f"代号 {p['code']} 的杀帖（目标 {name(state, p['target'])}）正文待补")
    from .resolution import resolve_posts

    res, triggered = resolve_posts(state, cfg, r, posts)
    cur["explanation"] = explanation(state, r, res, final=True)  # kept: /结算 shows it as it was
    effects.append(Say("hosts", cur["explanation"]))
    applied = res.apply(state, effects)
    others: list[str] = []
    for m in applied:
        if m.post is not None:
            state["posts"][m.post - 1]["killed"] = True
        if m.cause == "post":
            killed.append(name(state, m.seat))
        else:
            others.append(name(state, m.seat))
    record_triggered(state, cfg, r, triggered, effects)
    from .rules_souls import publish_texts

    publish_texts(state, r, triggered, effects)
    notes += res.notes
    white_at = white_due_at(state, cfg, r)
    cur["due"]["white"] = iso(white_at)
    effects.append(SetTimer(f"white:{r}", white_at))
    lines = [f"【第{r}轮杀帖公布】贴杀：{'、'.join(killed) if killed else '无'}。"]
    if others:
        lines.append(f"随杀帖出局（同归、贴中地雷或被移魂）：{'、'.join(others)}。")
    if killed or others:
        lines.append("被贴杀者本轮投票算半票，只在平票时生效（§十三.3）。")
    if notes:
        lines.append("；".join(notes) + f"，须在 {when(state, iso(white_at))} 前补交，否则出贴者出局、目标复活。")
    if held:
        lines.append("；".join(held) + " 正文待哨子审核，通过后补发。")
    reveal = reveal_line(state, cfg, r - 1)
    if reveal:
        lines.append(reveal)
    effects.append(Say("group", "\n".join(lines)))


def reveal_line(state: State, cfg: Settings, r: int) -> str:
    """Identities of the players who went out in round r and are still out."""
    if r < 1 or str(r) not in state["rounds"]:
        return ""
    seen: list[int] = []
    for o in state["rounds"][str(r)]["outs"]:
        if o["seat"] not in seen and not state["players"][str(o["seat"])]["alive"]:
            seen.append(o["seat"])
    if not seen:
        return ""
    parts = [f"{name(state, s)}：{role_label(state, cfg, s)}（{FACTION_NAME[role(cfg, state['players'][str(s)]['role'])['faction']]}）" for s in seen]
    return f"第{r}轮出局者身份：" + "；".join(parts) + "。"


def white_due(state: State, r: int, ctx: Ctx, effects: list) -> None:
    """12:00 next day (§十二.4/7): an unwritten white slip or rewrite puts its
    author out and brings the target back."""
    cur = rnd(state, r)
    if cur["white_done"]:
        return
    cur["white_done"] = True
    lines: list[str] = []
    for p in [p for p in state["posts"] if p["round"] == r and p["status"] in ("white", "rejected")]:
        p["status"] = "void"
        p["history"].append({"at": iso(ctx.now), "seq": ctx.seq, "event": "void"})
        mark_out(state, p["author"], "white", f"第{r}轮杀帖未按时补交/重写（§十二.4、§十二.7）", effects)
        t = state["players"][str(p["target"])]
        back = False
        if not t["alive"] and t["out"] and t["out"].get("post") == p["id"]:
            back = bring_back(state, p["target"], f"第{r}轮杀帖 #{p['id']} 作废，复活", effects)
        lines.append(f"代号 {p['code']} 的杀帖未按时补交，{name(state, p['author'])} 出局" + (f"，{name(state, p['target'])} 复活" if back else ""))
    if lines:
        effects.append(Say("group", "；".join(lines) + "。"))


def explanation(state: State, r: int, res, final: bool) -> str:
    """The resolution as numbered steps, for hosts only (issue 13 item 8)."""
    cur = rnd(state, r)
    if final:
        head = f"第{r}轮杀帖结算（已公布）："
    else:
        head = (f"第{r}轮杀帖结算预览，{when(state, cur['due']['publish'])} 按此公布。"
                f"改判：/改判 <步骤> <结果> <理由>（结果：{'、'.join(OVERRIDE_WORDS)}）；立即公布：/发布")
    lines = [head] + [s["text"] for s in res.steps]
    if not res.steps:
        lines.append("本轮没有杀帖。")
    lines += res.notes
    return "\n".join(lines)


OVERRIDE_WORDS = {"出局": "kill", "同归": "mutual", "出贴者出局": "poster_dies", "照出": "reveal",
                  "照出并出局": "reveal_kill", "倒计时": "countdown", "无人出局": "none"}


def record_triggered(state: State, cfg: Settings, r: int, triggered: list, effects: list) -> None:
    """Step 4 of the publication: reveals, countdowns, the 地雷's identity check."""
    cur = rnd(state, r)
    cd = cfg["effects"]["countdown_rounds"]
    for t in triggered:
        if t["kind"] == "reveal":
            cur.setdefault("reveals", []).append({"seat": t["seat"], "why": f"代号 {t['code']} 贴中魔镜"})
        elif t["kind"] == "countdown" and state["players"][str(t["seat"])]["alive"]:
            state.setdefault("countdowns", []).append({"seat": t["seat"], "until": r + cd - 1, "code": t["code"]})
            effects.append(Say(t["seat"], f"你的杀帖贴中魔镜，真身将随本轮结果贴公布；你只能活到第{r + cd - 1}轮结果贴（§五白1、黑1）。"))
        elif t["kind"] == "check":
            state.setdefault("checks", {})[str(t["seat"])] = {"round": r, "used": False}
            effects.append(Say(t["seat"], "你被贴中同归；你可以指定场上任何一名玩家查看其身份（§五黑5）：私聊 /查身份 <玩家>。"))


# ---- host rulings on the resolution (issue 13 item 8) -----------------------

def override(state: State, actor: Actor, step: int, word: str, why: str, ctx: Ctx) -> list:
    """/改判 <步骤> <结果> <理由>: replace the effect of one post step before publication."""
    cfg = ctx.settings
    r = state["round"]
    cur = rnd(state)
    if state["step"] != "round" or cur["published"]:
        raise Rejected(f"第{r}轮杀帖已公布，不能再改判；如需判罚请用 /判出局 或 /判复活。")
    if not cur["posts_done"]:
        raise Rejected(f"第{r}轮交贴还没截止（{when(state, cur['due']['posts'])}），截止后会私聊发结算步骤，再改判。")
    effect = OVERRIDE_WORDS.get(word.strip())
    if effect is None:
        raise Rejected(f"看不懂结果「{word}」，请写：{'、'.join(OVERRIDE_WORDS)}。例：/改判 2 同归 规则§五白2")
    why = why.strip()
    if not why:
        raise Rejected("请写改判理由：/改判 <步骤> <结果> <理由>。")
    from .resolution import resolve_posts

    res, _ = resolve_posts(state, cfg, r, round_posts(state, r))
    st = next((s for s in res.steps if s["n"] == step), None)
    if st is None:
        raise Rejected(f"没有第 {step} 步；本轮结算共 {len(res.steps)} 步（见私聊的结算预览）。")
    if st["kind"] != "post":
        raise Rejected(f"第 {step} 步是移魂/还魂，不能改判结果；请用 /判出局 或 /判复活。")
    state.setdefault("overrides", {})[str(st["post"])] = {
        "effect": effect, "by": actor.user_id, "why": why, "seq": ctx.seq, "at": iso(ctx.now), "step": step}
    state.setdefault("audit", []).append({"seq": ctx.seq, "at": iso(ctx.now), "by": actor.user_id,
                                          "what": f"改判第{r}轮第{step}步（#{st['post']}）为「{word.strip()}」：{why}"})
    res, _ = resolve_posts(state, cfg, r, round_posts(state, r))
    return [Say("reply", f"已改判第 {step} 步为「{word.strip()}」（已记录：{actor.user_id}，{why}）。"),
            Say("hosts", explanation(state, r, res, final=False))]


def show_steps(state: State, cfg: Settings) -> list:
    """/结算: the current round's resolution steps (after the posts are due)."""
    from .resolution import resolve_posts

    r = state["round"]
    cur = rnd(state)
    if not cur["posts_done"]:
        raise Rejected(f"第{r}轮交贴还没截止（{when(state, cur['due']['posts'])}），截止后才有结算步骤。")
    if cur.get("explanation"):
        return [Say("reply", cur["explanation"])]
    res, _ = resolve_posts(state, cfg, r, round_posts(state, r))
    return [Say("reply", explanation(state, r, res, final=False))]


def publish_now(state: State, ctx: Ctx, effects: list) -> None:
    """/发布: publish the round's posts now (after the posts are due)."""
    from plugins.kernel.contract import CancelTimer

    r = state["round"]
    cur = rnd(state)
    if state["step"] != "round" or cur["published"]:
        raise Rejected(f"第{r}轮杀帖已经公布。")
    if not cur["posts_done"]:
        raise Rejected(f"第{r}轮交贴还没截止（{when(state, cur['due']['posts'])}），截止后才能发布。")
    publish(state, r, ctx, effects)
    effects.append(CancelTimer(f"publish:{r}"))
    effects.insert(0, Say("reply", f"第{r}轮杀帖已发布。"))


def check_identity(state: State, actor: Actor, target: int, ctx: Ctx) -> list:
    """§五黑5: a 地雷 that went out 同归 (rounds 4–5) names one player and is told their identity."""
    cfg = ctx.settings
    assert actor.seat is not None  # a PLAYER_ONLY command: the engine's before() refused non-players
    chk = state.get("checks", {}).get(str(actor.seat))
    if chk is None:
        raise Rejected("你没有查看身份的权利（§五黑5：只有第四、五轮被贴中同归的地雷可以查看一人）。")
    if chk["used"]:
        raise Rejected("你已经查看过一次身份，不能再查（§五黑5）。")
    if target == actor.seat:
        raise Rejected("不能查看自己的身份，请指定场上另一名玩家。")
    if not state["players"][str(target)]["alive"]:
        raise Rejected(f"{name(state, target)} 已出局，请指定场上的玩家（§五黑5）。")
    chk["used"] = True
    chk["target"] = target
    return [Say("reply", f"{name(state, target)} 的身份：{role_name(state, cfg, target)}"
                         f"（{FACTION_NAME[role(cfg, state['players'][str(target)]['role'])['faction']]}）。"),
            Say("hosts", f"{name(state, actor.seat)}（地雷）查看了 {name(state, target)} 的身份。")]
