"""Default league data (TOML) and validation of a host's variant."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import tomllib

from plugins.kernel.clock import parse_hhmm
from plugins.kernel.settings import deep_merge

CONTENT_DIR = Path(__file__).resolve().parent.parent / "content"
CONTENT_FILES = ("league.toml", "boards.toml", "violations.toml")
SIDES = ("good", "wolf")
KINDS = ("wolf", "god", "villager")
LEVELS = ("warning", "light", "medium", "heavy", "other")
TIME_KEYS = ("checkin_open", "late", "demote", "seat", "appeal_until")


def load_defaults() -> dict[str, Any]:
    """Every content file merged into one settings dict."""
    merged: dict[str, Any] = {}
    for name in CONTENT_FILES:
        with open(CONTENT_DIR / name, "rb") as fh:
            merged = deep_merge(merged, tomllib.load(fh))
    return merged


def _num(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def validate(cfg: dict[str, Any]) -> list[str]:
    """One Chinese line per mistake; empty when the settings are usable."""
    errors: list[str] = []
    times = cfg.get("times", {})
    for key in TIME_KEYS:
        try:
            parse_hhmm(str(times.get(key, "")))
        except ValueError:
            errors.append(f"times.{key} 应为 时:分，例如 18:30，现在是「{times.get(key)}」。")
    if not errors:
        order = [parse_hhmm(times[k]) for k in ("checkin_open", "late", "demote", "seat")]
        if order != sorted(order) or len(set(order)) != 4:
            errors.append("times 的顺序应为 checkin_open < late < demote < seat。")

    opts = cfg.get("options", {})
    for key in ("main_draw", "standings_lines", "dq_light", "dq_medium", "flag_per_game", "max_appeals"):
        if not isinstance(opts.get(key), int) or isinstance(opts.get(key), bool) or opts.get(key) < 1:
            errors.append(f"options.{key} 应为正整数。")

    sc = cfg.get("scoring", {})
    for key in ("base", "win", "loss", "vote_wolf", "vote_good", "vote_cap", "wolf_badge", "mvp", "svp"):
        if not _num(sc.get(key)):
            errors.append(f"scoring.{key} 应为数字。")
    if sc.get("cap_policy") not in ("reject", "clamp"):
        errors.append("scoring.cap_policy 只能是 reject 或 clamp。")

    roles = cfg.get("roles", {})
    if not isinstance(roles, dict) or not roles:
        errors.append("缺少 roles（角色表）。")
        roles = {}
    for rname, role in roles.items():
        if role.get("side") not in SIDES:
            errors.append(f"角色「{rname}」的 side 只能是 good 或 wolf。")
        if role.get("kind") not in KINDS:
            errors.append(f"角色「{rname}」的 kind 只能是 wolf、god 或 villager。")
        for ename, ev in role.get("events", {}).items():
            if not isinstance(ev, dict) or not _num(ev.get("points")):
                errors.append(f"角色「{rname}」的事件「{ename}」缺少数字 points。")
                continue
            if "cap" in ev and (not _num(ev["cap"]) or ev["cap"] <= 0):
                errors.append(f"角色「{rname}」的事件「{ename}」的 cap 应为正数。")
            if "max" in ev and (not isinstance(ev["max"], int) or ev["max"] < 1):
                errors.append(f"角色「{rname}」的事件「{ename}」的 max 应为正整数。")
    for name in sc.get("vote_exempt", []):
        if name not in roles:
            errors.append(f"scoring.vote_exempt 里的「{name}」不在角色表中。")

    boards = cfg.get("boards", {})
    for bname, board in boards.items():
        for rname, count in board.get("roles", {}).items():
            if rname not in roles:
                errors.append(f"版型「{bname}」用到的角色「{rname}」不在角色表中。")
            if not isinstance(count, int) or count < 1:
                errors.append(f"版型「{bname}」中「{rname}」的数量应为正整数。")

    viol = cfg.get("violations", {})
    for vname, v in viol.items():
        if v.get("level") not in LEVELS:
            errors.append(f"违规「{vname}」的 level 只能是 warning、light、medium、heavy 或 other。")
        if not _num(v.get("points")) or v.get("points") < 0:
            errors.append(f"违规「{vname}」的 points 应为不小于 0 的数字（扣分）。")
        for key in ("clause", "ladder"):
            if key in v and not isinstance(v[key], str):
                errors.append(f"违规「{vname}」的 {key} 应为文字。")
    if "迟到" not in viol:
        errors.append("违规表必须包含「迟到」（签到迟到自动扣分用，§十三.1.4）。")

    rounds = cfg.get("rounds", [])
    if not isinstance(rounds, list) or not rounds:
        errors.append("缺少 rounds（赛程轮次）。")
        rounds = []
    prev_advance = None
    for i, rnd in enumerate(rounds, 1):
        label = f"第 {i} 轮（{rnd.get('name', '?')}）"
        players, groups = rnd.get("players"), rnd.get("groups")
        if not isinstance(players, int) or not isinstance(groups, int) or groups < 1 or players < 1:
            errors.append(f"{label} 的 players、groups 应为正整数。")
            continue
        days = rnd.get("days", [])
        if not days:
            errors.append(f"{label} 没有比赛日。")
        for d, day in enumerate(days, 1):
            board = boards.get(day.get("board"))
            if board is None:
                errors.append(f"{label} 第 {d} 个比赛日的版型「{day.get('board')}」不存在。")
            elif sum(board.get("roles", {}).values()) * groups != players:
                errors.append(f"{label} 第 {d} 个比赛日：{groups} 组 × 版型人数 ≠ {players} 人。")
            if not isinstance(day.get("games"), int) or day.get("games") < 1:
                errors.append(f"{label} 第 {d} 个比赛日的 games 应为正整数。")
        total_games = sum(int(day.get("games", 0) or 0) for day in days)
        for g in rnd.get("double_games", []):
            if not isinstance(g, int) or not 1 <= g <= total_games:
                errors.append(f"{label} 的 double_games 里的 {g} 不是本轮的场次（1~{total_games}）。")
        advance = rnd.get("advance", 0)
        if not isinstance(advance, int) or advance < 0 or advance > players:
            errors.append(f"{label} 的 advance 应在 0~{players} 之间。")
        if prev_advance is not None and prev_advance != players:
            errors.append(f"{label} 的人数 {players} 应等于上一轮晋级人数 {prev_advance}。")
        prev_advance = advance
        if i == 1 and isinstance(opts.get("main_draw"), int) and players > opts["main_draw"]:
            errors.append(f"第一轮人数 {players} 不能超过正赛名额 options.main_draw。")
    return errors
