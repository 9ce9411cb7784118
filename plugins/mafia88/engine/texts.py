"""Chinese message templates (short, each says what to do next)."""

from __future__ import annotations

from typing import Any

from .model import FACTION_NAME, Settings, State, name, role

STEP_LABEL = {"round": "投票中", "overtime": "加时投票", "deciding": "结果前选择", "over": "已结束"}


def role_message(state: State, cfg: Settings, seat: int) -> str:
    """The private role message (/我的身份). A disguised role (暗蛋) is told
    its disguise, built from the disguise's data only, so it reads byte for
    byte like that role's message (§五 白方 7)."""
    p = state["players"][str(seat)]
    real = role(cfg, p["role"])
    shown = role(cfg, real["disguise"]) if real["disguise"] else real
    lines = [f"你的身份：{shown['name']}（{FACTION_NAME[shown['faction']]}）。"]
    if shown["brief"]:
        lines.append(shown["brief"])
    if shown is real and p["code"]:
        lines.append(f"你的代号：{p['code']}。")
    for key in shown["knows"]:
        if shown is not real:
            break
        mates = [s for s in sorted(int(x) for x in state["players"]) if state["players"][str(s)]["role"] == key and s != seat]
        label = role(cfg, key)["name"]
        lines.append(f"{label}：{'、'.join(name(state, s) for s in mates) if mates else '无'}。")
    if shown is real and p["signal"]:
        seek, reply = p["signal"]
        lines.append(f"你的暗号：寻找暗号「{seek}」，接头暗号「{reply}」。")
        others = [pair for pair in state["signals"] if list(pair) != list(p["signal"])]
        if others:  # §五黑3, §七.3: the three carriers can find each other
            lines.append("另外两个独立杀的暗号（寻找/接头）：" + "；".join(f"「{a}」/「{b}」" for a, b in others)
                         + "。私聊 /接头 <寻找暗号> 可找到对方。")
    if shown is real and real["signals"] and state["signals"]:
        pairs = "；".join(f"「{a}」/「{b}」" for a, b in state["signals"])
        lines.append(f"三个独立杀的暗号（寻找/接头）：{pairs}。私聊 /接头 <寻找暗号> 可找到对方。")
    if shown is real and posting_roles(cfg).count(real["key"]):
        lines.append("出贴：私聊发 /出贴 <代号> <目标> 再发正文，写完发 /完成。")
    return "\n".join(lines)


def posting_roles(cfg: Settings) -> list[str]:
    keys: list[str] = []
    for g in cfg["groups"]:
        keys.extend(g["roles"])
        for tier in g["substitutes"]:
            keys.extend(tier["roles"])
    return keys


def figures_line(fig: dict[str, Any]) -> str:
    from plugins.kernel.textcheck import TextFigures, describe

    return describe(TextFigures(**fig))
