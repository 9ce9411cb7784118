"""Chinese message templates and renders (standings, breakdown, groups)."""

from __future__ import annotations

from typing import Any

from .model import KIND_NAMES, PART_KEYS, PART_NAMES, STATUS_NAMES, fmt, fmt_total, name

SIDE_NAMES = {"good": "好人", "wolf": "狼人"}
LEVEL_NAMES = {"warning": "警告", "light": "轻度", "medium": "中度", "heavy": "重度", "other": "判罚"}


def group_texts(state: dict[str, Any], r: int, lineups: dict[str, list[int]] | None = None) -> dict[str, str]:
    """One message per group, by group name: '第一轮 A组：1号位 张三（#5）…'."""
    rnd = state["rounds"][r]
    lineups = lineups or rnd["groups"]
    out = {}
    for g in sorted(lineups):
        lines = [f"{rnd['name']} {g}组（分组种子 {rnd['seed']}）："]
        lines += [f"{i}号位 {name(state, s)}" for i, s in enumerate(lineups[g], 1)]
        out[g] = "\n".join(lines)
    return out


def groups_text(state: dict[str, Any], r: int, lineups: dict[str, list[int]] | None = None) -> list[str]:
    """The messages of :func:`group_texts` in group order."""
    return list(group_texts(state, r, lineups).values())


def standings_text(state: dict[str, Any], cfg: dict[str, Any], r: int, table: list[dict[str, Any]], page: int) -> str:
    rnd = state["rounds"][r]
    size = cfg["options"]["standings_lines"]
    pages = max(1, (len(table) + size - 1) // size)
    page = min(max(page, 1), pages)
    advance = cfg["rounds"][r].get("advance", 0)
    lines = [f"{rnd['name']} 积分榜（第 {page}/{pages} 页，共 {len(table)} 人）"]
    for row in table[(page - 1) * size: page * size]:
        rank = f"{row['rank']}." if row["rank"] else "—"
        tail = ""
        if row["status"] != "active":
            tail = f"（{STATUS_NAMES[row['status']]}）"
        elif row["tie"]:
            tail = "（同分未分出，待裁判裁定 §九.4）"
        lines.append(f"{rank} {row['alias']}（#{row['seat']}） {fmt_total(row['total'])}{tail}")
        if advance and row["rank"] == advance:
            lines.append(f"—— 晋级线：前 {advance} 名 ——")
    if pages > page:
        lines.append(f"下一页：/积分榜 {page + 1}")
    return "\n".join(lines)


def breakdown_text(state: dict[str, Any], cfg: dict[str, Any], r: int, row: dict[str, Any], games: list[dict[str, Any]],
                   violations: list[dict[str, Any]]) -> str:
    from .standings import award_blocked, game_line

    rnd = state["rounds"][r]
    base = cfg["scoring"]["base"]
    rank = f"第 {row['rank']} 名" if row["rank"] else STATUS_NAMES[row["status"]]
    lines = [f"{name(state, row['seat'])} {rnd['name']}：{fmt_total(row['total'])} 分，{rank}",
             f"初始分 {fmt_total(base)}"]
    lines += [f"{PART_NAMES[k]} {fmt(row['parts'][k])}" for k in PART_KEYS]
    if row["status"] == "demoted":
        lines.append("已降为替补（§五 18:35），不参加本轮排名；再次上场后按实际成绩排名。")
    for g in games:
        key = str(row["seat"])
        pts = g["points"][key]
        plus, minus = game_line(state, cfg, g, key)
        tag = "（流局，仅计违规）" if g["status"] == "void" else ""
        dbl = "（双倍）" if g["double"] else ""
        lines.append(f"· 第{g['no']}场 {g['group']}组 局号#{g['id']} {pts['role']} {'胜' if pts['won'] else '负'} "
                     f"{_line(plus, minus)}{dbl}{tag}")
        blocked = award_blocked(state, cfg, row["seat"], g["id"])
        if blocked and (pts["mvp"] or pts["svp"]) and g["status"] == "ok":
            what = "全场最佳" if pts["mvp"] else "败方最佳"
            lines.append(f"  {what} {fmt(pts['parts']['award'])} 已取消：违规编号 {blocked['id']}（§七.3）")
    for v in violations:
        where = f"局号#{v['game']}" if v["game"] else "场外"
        text = f"· 违规#{v['id']} {v['type']}（{where}）-{fmt_total(v['points'])}"
        if v.get("reversed"):
            rv = v["reversed"]
            text += f"（已撤销 {rv['at'][5:16].replace('T', ' ')}：{rv['reason']}）"
        lines.append(text)
    wins = row["wins"]
    lines.append(f"全场最佳 {row['mvp']} 次，败方最佳 {row['svp']} 次；"
                 + "、".join(f"{KIND_NAMES[k]}胜 {wins[k]}" for k in ("wolf", "god", "villager")))
    return "\n".join(lines)


def _line(plus: float, minus: float) -> str:
    """'+4 -2 = +2': a player's plus points, minus points and total of one game."""
    return f"+{fmt_total(abs(plus))} -{fmt_total(abs(minus))} = {fmt(plus + minus)}"


def game_summary(state: dict[str, Any], cfg: dict[str, Any], game: dict[str, Any], notes: list[str] | None = None) -> str:
    from .standings import game_line

    parsed = game["parsed"]
    lines = [f"局号#{game['id']} {state['rounds'][game['round']]['name']} {game['group']}组 第{game['no']}场"
             f"{'（双倍积分）' if game['double'] else ''}：{SIDE_NAMES[parsed['winner']]}胜",
             "座位 选手 角色 加分 扣分 = 本局"]
    by_gseat = sorted(game["points"].items(), key=lambda kv: kv[1]["gseat"])
    for key, pts in by_gseat:
        mark = "（全场最佳）" if pts["mvp"] else "（败方最佳）" if pts["svp"] else ""
        plus, minus = game_line(state, cfg, game, key)
        lines.append(f"{pts['gseat']}号 {name(state, int(key))} {pts['role']} {_line(plus, minus)}{mark}")
    lines += notes or []
    lines.append("有异议请在次日 12:00 前私聊机器人 /申诉 局号 理由。")
    return "\n".join(lines)


def catalogue_text(cfg: dict[str, Any]) -> str:
    """/违规表: every violation type with its level, deduction and penalty ladder (§十三)."""
    lines = ["违规表（§十三）：类型｜等级｜扣分｜处罚阶梯"]
    for vname, v in cfg["violations"].items():
        extra = []
        if v.get("blocks_award"):
            extra.append("取消该局评选资格")
        if v.get("cancel_win"):
            extra.append("取消当局胜利分")
        if v["level"] == "heavy":
            extra.append("取消参赛资格")
        tail = f"（{'，'.join(extra)}）" if extra else ""
        clause = f" {v['clause']}" if v.get("clause") else ""
        lines.append(f"{vname}｜{LEVEL_NAMES[v['level']]}｜{fmt_total(v['points'])}{tail}{clause}"
                     + (f"｜{v['ladder']}" if v.get("ladder") else ""))
    opts = cfg["options"]
    lines.append(f"本届 {opts['dq_light']} 次轻度或 {opts['dq_medium']} 次中度违规取消资格（§十三.3.4）；"
                 "裁判记：/违规 玩家 类型 [局号]，撤回：/撤销 编号 理由。")
    return "\n".join(lines)
