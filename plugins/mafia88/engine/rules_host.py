"""Host overrides: out/back with a reason, the round table, the vote log and
ending the game (§十, §十五.10/12)."""

from __future__ import annotations

import re
from typing import Any

from plugins.kernel.contract import Ctx, Rejected, Say

from .content import row_errors
from .model import Settings, State, bring_back, dt, mark_out, name, player, rnd, row, tz
from .rules_round import check_end, finish
from .rules_votes import non_voters

_POST_TOKEN = re.compile(r"^(\D+?)(\d+)$")


def put_out(state: State, cfg: Settings, seat: int, reason: str, announce: bool, effects: list) -> None:
    p = player(state, seat)
    if p is None:
        raise Rejected(f"没有 {seat} 号玩家。")
    if state["step"] == "over":
        raise Rejected("游戏已结束。")
    if not p["alive"]:
        raise Rejected(f"{name(state, seat)} 已经出局。")
    reason = reason.strip() or "哨子判罚"
    mark_out(state, seat, "host", f"判出局：{reason}", effects)
    if announce:
        effects.append(Say("group", f"{name(state, seat)} 被哨子判出局：{reason}。"))
    check_end(state, cfg, effects)


def put_back(state: State, seat: int, reason: str, announce: bool, effects: list) -> None:
    p = player(state, seat)
    if p is None:
        raise Rejected(f"没有 {seat} 号玩家。")
    if state["step"] == "over":
        raise Rejected("游戏已结束。")
    if p["alive"]:
        raise Rejected(f"{name(state, seat)} 还在场上，不需要复活。")
    reason = reason.strip() or "哨子判定"
    bring_back(state, seat, f"判复活：{reason}", effects)
    if announce:
        effects.append(Say("group", f"{name(state, seat)} 经哨子判定回到场上：{reason}。"))


def parse_posts(text: str, gkeys: list[str]) -> dict[str, int]:
    """'联2 独3' -> {'联': 2, '独': 3}; '无' -> {}."""
    text = text.replace("，", " ").replace(",", " ").replace("、", " ").strip()
    if text in ("", "无"):
        return {}
    out: dict[str, int] = {}
    for token in text.split():
        m = _POST_TOKEN.match(token)
        if not m or m.group(1) not in gkeys:
            raise Rejected(f"看不懂「{token}」：请写 组名+贴数，如 联2 独3；组名可用：{'、'.join(gkeys)}。")
        out[m.group(1)] = int(m.group(2))
    return out


def set_round(state: State, r: int, votes: int, out: int, posts_text: str | None, ctx: Ctx) -> list:
    """§十 last line: hosts adjust the table. Past steps cannot change."""
    cfg = ctx.settings
    if state["step"] == "over":
        raise Rejected("游戏已结束。")
    cur = state["round"]
    if r < cur:
        raise Rejected(f"第{r}轮已经过去，只能改第{cur}轮及以后。")
    if r > len(state["table"]) + 1:
        raise Rejected(f"进程表现在有 {len(state['table'])} 轮，只能改已有轮次或加第{len(state['table']) + 1}轮。")
    gkeys = [g["key"] for g in cfg["groups"]]
    old: dict[str, Any] = row(state, r) if r <= len(state["table"]) else {"votes": votes, "out": out, "posts": {}}
    new: dict[str, Any] = {"votes": votes, "out": out, "posts": parse_posts(posts_text, gkeys) if posts_text is not None else dict(old["posts"])}
    errors = row_errors(new, gkeys, f"第{r}轮")
    if errors:
        raise Rejected("\n".join(errors))
    if r == cur:
        rd = rnd(state)
        if rd["ballots"] and new["votes"] != old["votes"]:
            raise Rejected("本轮已有人投票，不能再改每人票数。")
        if rd["closed"]:
            raise Rejected("本轮投票已截止，不能再改。")
        if rd["posts_done"] and new["posts"] != old["posts"]:
            raise Rejected("本轮交贴已截止，不能再改贴杀数。")
    if r == len(state["table"]) + 1:
        state["table"].append(new)
    else:
        state["table"][r - 1] = new
    quotas = "、".join(f"{g}{n}" for g, n in new["posts"].items() if n > 0) or "无"
    text = f"哨子调整进程：第{r}轮 每人 {votes} 票，票出 {out} 人，贴杀 {quotas}。"
    return [Say("group", text), Say("reply", "已调整。" + text)]


def table_text(state: State) -> str:
    lines = ["进程表："]
    for i, rw in enumerate(state["table"], 1):
        quotas = "、".join(f"{g}{n}" for g, n in rw["posts"].items() if n > 0) or "无"
        mark = " ← 当前" if i == state["round"] and state["step"] != "over" else ""
        lines.append(f"第{i}轮：每人 {rw['votes']} 票，票出 {rw['out']}，贴杀 {quotas}{mark}")
    return "\n".join(lines)


def vote_log(state: State, r: int | None) -> list:
    r = r or state["round"]
    if str(r) not in state["rounds"]:
        raise Rejected(f"还没有第{r}轮。")
    rd = state["rounds"][str(r)]
    lines = [f"第{r}轮投票记录（{len(rd['ballots'])} 票）："]
    for b in rd["ballots"]:
        lines.append(f"#{b['n']}｜序号 {b['seq']}｜{dt(b['at']).astimezone(tz(state)):%m-%d %H:%M:%S}｜{name(state, b['voter'])}{'（托票）' if b['proxy'] else ''} → "
                     f"{'、'.join(name(state, t) for t in b['targets'])}")
    if rd["overtime"]:
        for b in rd["overtime"]["ballots"]:
            lines.append(f"加时 #{b['n']}｜序号 {b['seq']}｜{name(state, b['voter'])} → {name(state, b['target'])}")
    if r == state["round"] and not rd["closed"]:
        missing = non_voters(state, r)
        lines.append(f"未投票 {len(missing)} 人：" + ("、".join(name(state, s) for s in missing) or "无"))
    return [Say("reply", "\n".join(lines))]


WINNER_WORDS = {"白方": "white", "白": "white", "黑方": "black", "黑": "black", "平局": "", "平": ""}


def end_game(state: State, cfg: Settings, result: str, reason: str, effects: list) -> None:
    """§十二.8 / §十五.12: the hosts declare the end (and the winner)."""
    if state["step"] == "over":
        raise Rejected("游戏已经结束。")
    if result not in WINNER_WORDS:
        raise Rejected("请写结果：/结束游戏 <白方|黑方|平局> [理由]")
    finish(state, cfg, WINNER_WORDS[result], f"哨子宣布结束：{reason.strip() or '全体同意结束'}", effects)


def private_message(state: State, actor, seat: int, text: str, ctx: Ctx) -> list:
    """/私信 <玩家> <内容>: a host writes to one player through the bot; logged in the state."""
    from .model import iso

    text = text.strip()
    if not text:
        raise Rejected("请写内容：/私信 <玩家> <内容>。")
    if player(state, seat) is None:
        raise Rejected(f"没有 {seat} 号玩家。")
    state.setdefault("dms", []).append({"seq": ctx.seq, "at": iso(ctx.now), "by": actor.user_id, "seat": seat, "text": text})
    return [Say(seat, f"哨子私信：{text}"), Say("reply", f"已私信 {name(state, seat)}（已记录）。")]
