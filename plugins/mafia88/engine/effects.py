"""Role effects as data (content/effects.toml): validation and look-ups.

A post is judged by the first ``[[post]]`` rule that matches its poster's
role, its target's role and the round; a voted-out role acts by its
``[[vote]]`` rule. The primitives are applied by ``resolution.py``."""

from __future__ import annotations

from typing import Any

from .model import State

POST_EFFECTS = ("kill", "mutual", "poster_dies", "reveal", "reveal_kill", "countdown", "none")
EFFECT_NAME = {
    "kill": "目标出局",
    "mutual": "同归：目标与出贴者都出局",
    "poster_dies": "出贴者出局，目标不出局",
    "reveal": "照出出贴者真身，无人出局",
    "reveal_kill": "照出出贴者真身，目标出局",
    "countdown": "照出出贴者真身，目标出局，出贴者只能再活两轮",
    "none": "无人出局",
}
DEFAULT_RULE = {"effect": "kill", "clause": "§十二 杀帖贴中目标，目标出局", "check": False}


def in_rounds(rounds: list[int], r: int) -> bool:
    first, last = rounds
    return r >= first and (last == 0 or r <= last)


def _matches(keys: list[str], role_key: str) -> bool:
    return "*" in keys or role_key in keys


def post_rule(state: State, poster_role: str, target_role: str, r: int) -> dict[str, Any]:
    for rule in state["cfg"]["effects"]["post"]:
        if _matches(rule["poster"], poster_role) and _matches(rule["target"], target_role) and in_rounds(rule["rounds"], r):
            return rule
    return DEFAULT_RULE


def vote_rule(state: State, role_key: str, r: int) -> dict[str, Any] | None:
    for rule in state["cfg"]["effects"]["vote"]:
        if rule["role"] == role_key and in_rounds(rule["rounds"], r):
            return rule
    return None


def ability(state: State, name: str) -> dict[str, Any]:
    """The [revive] / [soul_move] / [soul_back] table."""
    return state["cfg"]["effects"][name]


def _rounds_ok(v: Any) -> bool:
    return (isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in v)
            and v[0] >= 1 and (v[1] == 0 or v[1] >= v[0]))


def effect_errors(cfg: dict[str, Any], keys: list[str]) -> list[str]:
    """One Chinese line per mistake in the effects table."""
    eff = cfg.get("effects")
    errors: list[str] = []
    if not isinstance(eff, dict):
        return ["effects 应是一个表。"]
    known = set(keys) | {"*"}
    for i, rule in enumerate(eff.get("post", []), 1):
        label = f"effects.post 第{i}条"
        if not isinstance(rule, dict):
            errors.append(f"{label}应是一个表。")
            continue
        rule.setdefault("rounds", [1, 0])
        rule.setdefault("check", False)
        rule.setdefault("clause", "")
        for side in ("poster", "target"):
            v = rule.get(side)
            if not isinstance(v, list) or not v:
                errors.append(f"{label}：{side} 应是身份列表（或 [\"*\"]）。")
            elif any(k not in known for k in v):
                errors.append(f"{label}：{side} 里的身份「{'、'.join(k for k in v if k not in known)}」不存在。")
        if rule.get("effect") not in POST_EFFECTS:
            errors.append(f"{label}：effect 应为 {'、'.join(POST_EFFECTS)} 之一。")
        if not _rounds_ok(rule["rounds"]):
            errors.append(f"{label}：rounds 应为 [起始轮, 结束轮]（结束轮 0 表示不结束）。")
    for i, rule in enumerate(eff.get("vote", []), 1):
        label = f"effects.vote 第{i}条"
        if not isinstance(rule, dict):
            errors.append(f"{label}应是一个表。")
            continue
        rule.setdefault("rounds", [1, 0])
        for k in ("take", "reveal"):
            rule.setdefault(k, 0)
            if not isinstance(rule[k], int) or rule[k] < 0:
                errors.append(f"{label}：{k} 应为不小于 0 的整数。")
        rule.setdefault("soul", False)
        rule.setdefault("shared", False)
        rule.setdefault("together", "")
        rule.setdefault("clause", "")
        if rule.get("role") not in keys:
            errors.append(f"{label}：身份「{rule.get('role')}」不存在。")
        if not _rounds_ok(rule["rounds"]):
            errors.append(f"{label}：rounds 应为 [起始轮, 结束轮]（结束轮 0 表示不结束）。")
        if rule["together"] not in ("", "first_last"):
            errors.append(f"{label}：together 只能是 first_last。")
    for name in ("revive", "soul_move", "soul_back"):
        t = eff.get(name)
        if not isinstance(t, dict):
            errors.append(f"effects.{name} 应是一个表。")
            continue
        if t.get("role") not in keys:
            errors.append(f"effects.{name}：身份「{t.get('role')}」不存在。")
        r = t.get("rounds")
        if not (isinstance(r, list) and r and all(isinstance(x, int) and x >= 1 for x in r)):
            errors.append(f"effects.{name}：rounds 应是轮次列表，如 [2, 4]。")
        if t.get("becomes") and t["becomes"] not in keys:
            errors.append(f"effects.{name}：becomes「{t['becomes']}」不存在。")
    if not isinstance(eff.get("countdown_rounds"), int) or eff["countdown_rounds"] < 1:
        errors.append("effects.countdown_rounds 应为正整数。")
    return errors
