"""Chinese message templates."""

from __future__ import annotations

from typing import Any

from . import model as m

KIND = {"guard": "看守", "prisoner": "囚犯"}
STATUS = {"alive": "存活", "dead": "死亡", "released": "已释放", "out": "出局"}
WHEN = {"day": "白天", "night": "夜晚", "any": "任意时间"}
COND = {
    1: "（三）1：监狱中不存在杀人犯阵营",
    2: "（三）2：监狱中不存在看守阵营",
    3: "（三）3：杀人犯被释放",
}


def ability_line(state: m.JSON, cfg: m.Settings, seat: int, ab: dict[str, Any]) -> str:
    left = m.uses_left(state, seat, ab)
    left_txt = "不限次数" if left is None else f"剩余 {left} 次"
    kind = ab["kind"]
    if kind == "kill":
        extra = "；可用 /不杀 放弃当晚" if ab.get("optional") else ""
        return f"杀人：每晚审讯结束时，与你同房的看守死亡{extra}。"
    if kind == "point_kill":
        return f"点杀：选房或审讯时私聊 /点杀 <看守>，当晚改杀该看守（{left_txt}）。"
    if kind == "noise":
        return f"噪音：审讯中私聊 /噪音，对同房囚犯播放噪音（{left_txt}）。"
    if kind == "lover":
        other = m.lover_of(state, cfg, seat)
        who = m.name(state, other) if other is not None else "（未发出）"
        return f"情侣：你与 {who} 是情侣，一方死亡另一方殉情。"
    must = "，必须使用" if ab.get("compulsory") else ""
    return (f"「{ab['name']}」：{WHEN[ab.get('when', 'any')]}私聊 /技能 {ab['name']} [内容]，"
            f"由导演结算（{left_txt}{must}）。")


def identity(state: m.JSON, cfg: m.Settings, seat: int) -> str:
    p = m.player(state, seat)
    r = m.role(state, cfg, seat)
    lines = [f"{m.name(state, seat)}：你是【{KIND[p['kind']]}】{r['name']}。"]
    if r.get("crimes"):
        lines.append(f"罪名：{'、'.join(r['crimes'])}。")
    if m.murderer_side(state, cfg, seat):
        lines.append("阵营：杀人犯阵营。")
    if r.get("text"):
        lines.append(r["text"])
    for ab in r.get("abilities", []):
        lines.append(ability_line(state, cfg, seat, ab))
    win = r.get("win", "default")
    if win == "alive":
        lines.append("胜利条件：游戏结束时你存活或已被释放。")
    elif win == "released":
        lines.append("胜利条件：你被释放。")
    elif win == "with_murderer":
        lines.append("胜利条件：杀人犯被释放。")
    if state.get("chief") == seat:
        lines.append("你是看守长：<权威> 最高票平票时以你的票为准；你投了少数票时须 /裁定 从最高票中选一个。")
    if state.get("leader") == seat:
        used = "（已用）" if state.get("uprising_used") else "（可用 1 次）"
        lines.append(f"你是囚犯领袖：讨论日私聊 /起义，全体存活囚犯投票处决一名看守{used}。")
    if p.get("love") is not None:
        lines.append(f"你爱：{m.name(state, p['love'])}。")
    if p.get("hate") is not None:
        lines.append(f"你恨：{m.name(state, p['hate'])}。")
    lines.append(f"状态：{STATUS[p['status']]}。")
    return "\n".join(lines)
