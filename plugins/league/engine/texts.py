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


def standings_text(state: dict[str, Any], r: int, table: list[dict[str, Any]], page: int, size: int) -> str:
    rnd = state["rounds"][r]
    pages = max(1, (len(table) + size - 1) // size)
    page = min(max(page, 1), pages)
    advance = state["cfg"]["rounds"][r].get("advance", 0)
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


def breakdown_text(state: dict[str, Any], r: int, row: dict[str, Any], games: list[dict[str, Any]],
                   violations: list[dict[str, Any]]) -> str:
    rnd = state["rounds"][r]
    base = state["cfg"]["scoring"]["base"]
    rank = f"第 {row['rank']} 名" if row["rank"] else STATUS_NAMES[row["status"]]
    lines = [f"{name(state, row['seat'])} {rnd['name']}：{fmt_total(row['total'])} 分，{rank}",
             f"初始分 {fmt_total(base)}"]
    lines += [f"{PART_NAMES[k]} {fmt(row['parts'][k])}" for k in PART_KEYS]
    for g in games:
        pts = g["points"][str(row["seat"])]
        sub = sum(pts["parts"].values())
        tag = "（流局，仅计违规）" if g["status"] == "void" else ""
        dbl = "（双倍）" if g["double"] else ""
        lines.append(f"· 第{g['no']}场 {g['group']}组 {pts['role']} {'胜' if pts['won'] else '负'} "
                     f"{fmt(sub) if g['status'] == 'ok' else '0'}{dbl}{tag}")
    for v in violations:
        where = f"局号#{v['game']}" if v["game"] else "场外"
        lines.append(f"· 违规 {v['type']}（{where}）-{fmt_total(v['points'])}")
    wins = row["wins"]
    lines.append(f"全场最佳 {row['mvp']} 次，败方最佳 {row['svp']} 次；"
                 + "、".join(f"{KIND_NAMES[k]}胜 {wins[k]}" for k in ("wolf", "god", "villager")))
    return "\n".join(lines)


def game_summary(state: dict[str, Any], game: dict[str, Any]) -> str:
    parsed = game["parsed"]
    lines = [f"局号#{game['id']} {state['rounds'][game['round']]['name']} {game['group']}组 第{game['no']}场"
             f"{'（双倍积分）' if game['double'] else ''}：{SIDE_NAMES[parsed['winner']]}胜"]
    by_gseat = sorted(game["points"].items(), key=lambda kv: kv[1]["gseat"])
    for key, pts in by_gseat:
        mark = "（全场最佳）" if pts["mvp"] else "（败方最佳）" if pts["svp"] else ""
        lines.append(f"{pts['gseat']}号 {name(state, int(key))} {pts['role']} {fmt(sum(pts['parts'].values()))}{mark}")
    lines.append("有异议请在次日 12:00 前私聊机器人 /申诉 局号 理由。")
    return "\n".join(lines)
