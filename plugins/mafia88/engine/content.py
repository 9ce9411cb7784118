"""Default game data (TOML under ``plugins/mafia88/content``), merging of a
host's variant over it, and validation with one Chinese line per mistake."""

from __future__ import annotations

import copy
from functools import lru_cache
from pathlib import Path
from typing import Any

import tomllib

from plugins.kernel.clock import parse_hhmm
from plugins.kernel.contract import Rejected

CONTENT_DIR = Path(__file__).resolve().parent.parent / "content"
FACTIONS = ("white", "black")
WHEN = ("short", "none", "last")
DICT_SECTIONS = ("times", "limits", "options", "effects")
LIST_SECTIONS = ("roles", "groups", "rounds", "signal_pool", "signals")
KNOWN = DICT_SECTIONS + LIST_SECTIONS + ("counts",)
TIME_KEYS = ("vote_close", "white_due")
KERNEL_KEYS = ("timezone",)


@lru_cache(maxsize=1)
def _defaults() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in ("roles", "rounds", "game", "signals", "effects"):
        with open(CONTENT_DIR / f"{name}.toml", "rb") as fh:
            data = tomllib.load(fh)
        if name == "signals":
            out["signal_pool"] = data["pool"]
        elif name == "effects":
            out["effects"] = data
        else:
            out.update(data)
    out.setdefault("signals", [])
    out.setdefault("counts", {})
    return out


def defaults() -> dict[str, Any]:
    return copy.deepcopy(_defaults())


def merge(overrides: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Host overrides over the defaults: list sections are replaced, the
    times/limits/options tables are merged key by key."""
    base = defaults()
    errors: list[str] = []
    for key, value in overrides.items():
        if key in KERNEL_KEYS:
            continue  # the kernel's own settings (ctx.tz comes from "timezone")
        if key not in KNOWN:
            errors.append(f"未知设置项「{key}」，可用：{'、'.join(KNOWN)}。")
            continue
        if key in DICT_SECTIONS or key == "counts":
            if not isinstance(value, dict):
                errors.append(f"设置项「{key}」应是一个表（键 = 值）。")
                continue
            for sub, v in value.items():
                if key in DICT_SECTIONS and sub not in base[key]:
                    errors.append(f"「{key}」里没有「{sub}」这一项，可用：{'、'.join(base[key])}。")
                    continue
                base[key][sub] = copy.deepcopy(v)
        else:
            if not isinstance(value, list):
                errors.append(f"设置项「{key}」应是一个列表。")
                continue
            base[key] = copy.deepcopy(value)
    return base, errors


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def validate(cfg: dict[str, Any]) -> list[str]:
    errors: list[str] = []
    keys: list[str] = []
    for i, role in enumerate(cfg["roles"], 1):
        if not isinstance(role, dict):
            errors.append(f"第 {i} 个身份不是表。")
            continue
        key = role.get("key")
        if not isinstance(key, str) or not key:
            errors.append(f"第 {i} 个身份缺少 key。")
            continue
        if key in keys:
            errors.append(f"身份 key「{key}」重复。")
        keys.append(key)
        role.setdefault("codes", [])
        role.setdefault("knows", [])
        role.setdefault("disguise", "")
        role.setdefault("signals", False)
        role.setdefault("brief", "")
        if not isinstance(role.get("name"), str) or not role.get("name"):
            errors.append(f"身份「{key}」缺少中文名 name。")
        if role.get("faction") not in FACTIONS:
            errors.append(f"身份「{key}」的 faction 应为 white 或 black。")
    for key, n in cfg["counts"].items():
        if key not in keys:
            errors.append(f"counts 里的身份「{key}」不存在。")
        elif not _is_int(n) or n < 0:
            errors.append(f"counts 里「{key}」的人数应为不小于 0 的整数。")
        else:
            for role in cfg["roles"]:
                if role.get("key") == key:
                    role["count"] = n
    for role in cfg["roles"]:
        if not isinstance(role, dict) or not role.get("key"):
            continue
        key, name = role["key"], role.get("name", role["key"])
        count = role.get("count")
        if not _is_int(count) or count < 0:
            errors.append(f"身份「{name}」的人数 count 应为不小于 0 的整数。")
            continue
        if role["codes"] and len(role["codes"]) < count:
            errors.append(f"身份「{name}」有 {count} 人，但只有 {len(role['codes'])} 个代号。")
        for k in role["knows"]:
            if k not in keys:
                errors.append(f"身份「{name}」的 knows 里「{k}」不存在。")
        if role["disguise"] and role["disguise"] not in keys:
            errors.append(f"身份「{name}」的 disguise「{role['disguise']}」不存在。")
    all_codes = [c for r in cfg["roles"] if isinstance(r, dict) for c in r.get("codes", [])]
    dup = sorted({c for c in all_codes if all_codes.count(c) > 1})
    if dup:
        errors.append(f"代号重复：{'、'.join(dup)}。")
    if sum(r.get("count", 0) for r in cfg["roles"] if isinstance(r, dict) and _is_int(r.get("count"))) <= 0:
        errors.append("身份总人数为 0。")

    gkeys: list[str] = []
    for i, g in enumerate(cfg["groups"], 1):
        if not isinstance(g, dict) or not isinstance(g.get("key"), str):
            errors.append(f"第 {i} 个贴杀组缺少 key。")
            continue
        gkeys.append(g["key"])
        g.setdefault("substitutes", [])
        g.setdefault("optional", {})
        opt = g["optional"]
        if opt and not (isinstance(opt, dict) and isinstance(opt.get("rounds"), list) and len(opt["rounds"]) == 2
                        and all(_is_int(x) and x >= 1 for x in opt["rounds"]) and _is_int(opt.get("posts")) and opt["posts"] >= 1):
            errors.append(f"贴杀组「{g['key']}」的 optional 应为 {{ rounds = [起始轮, 结束轮], posts = 贴数 }}。")
        for k in g.get("roles", []):
            if k not in keys:
                errors.append(f"贴杀组「{g['key']}」的身份「{k}」不存在。")
        if not g.get("roles"):
            errors.append(f"贴杀组「{g['key']}」没有出贴身份 roles。")
        for tier in g["substitutes"]:
            if tier.get("when") not in WHEN:
                errors.append(f"贴杀组「{g['key']}」的代贴条件 when 应为 short、none 或 last。")
            for k in tier.get("roles", []):
                if k not in keys:
                    errors.append(f"贴杀组「{g['key']}」的代贴身份「{k}」不存在。")
    if not cfg["rounds"]:
        errors.append("进程表 rounds 不能为空。")
    for i, row in enumerate(cfg["rounds"], 1):
        errors.extend(row_errors(row, gkeys, f"第{i}轮"))

    times = cfg["times"]
    for k in TIME_KEYS:
        try:
            parse_hhmm(str(times[k]))
        except ValueError as exc:
            errors.append(f"times.{k}：{exc}")
    for k, v in times.items():
        if k not in TIME_KEYS and (not _is_int(v) or v < 0):
            errors.append(f"times.{k} 应为不小于 0 的分钟数。")
    for k, v in cfg["limits"].items():
        if not _is_int(v) or v < 0:
            errors.append(f"limits.{k} 应为不小于 0 的整数。")
    opts = cfg["options"]
    for k in ("report_required", "auto_approve_pending", "role_effects", "publish_reports"):
        if not isinstance(opts[k], bool):
            errors.append(f"options.{k} 应为 true 或 false。")
    if not _is_int(opts["first_post_aliases"]) or opts["first_post_aliases"] < 0:
        errors.append("options.first_post_aliases 应为不小于 0 的整数。")
    if not _is_int(opts["signal_carriers"]) or opts["signal_carriers"] < 0:
        errors.append("options.signal_carriers 应为不小于 0 的整数。")
    if opts["fill_role"] and opts["fill_role"] not in keys:
        errors.append(f"options.fill_role「{opts['fill_role']}」不存在。")
    du = next((r for r in cfg["roles"] if isinstance(r, dict) and r.get("key") == "du_sha"), None)
    carriers = opts["signal_carriers"] if _is_int(opts["signal_carriers"]) else 0
    if carriers and (du is None or du.get("count", 0) < carriers):
        errors.append(f"暗号需要 {carriers} 个独立杀，但独立杀人数不够。")
    for name in ("signals", "signal_pool"):
        for pair in cfg[name]:
            if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) and x for x in pair)):
                errors.append(f"{name} 的每一项应是 [寻找暗号, 接头暗号] 两个文字。")
                break
    from .effects import effect_errors

    errors.extend(effect_errors(cfg, keys))
    if carriers and cfg["signals"] and len(cfg["signals"]) != carriers:
        errors.append(f"signals 应正好有 {carriers} 对暗号。")
    elif carriers and not cfg["signals"] and len(cfg["signal_pool"]) < carriers:
        errors.append(f"暗号库 signal_pool 至少要有 {carriers} 对。")
    return errors


def row_errors(row: Any, gkeys: list[str], label: str) -> list[str]:
    errors: list[str] = []
    if not isinstance(row, dict):
        return [f"{label}：应是一个表。"]
    row.setdefault("posts", {})
    if not _is_int(row.get("votes")) or row["votes"] < 1:
        errors.append(f"{label}：每人票数 votes 应为正整数。")
    if not _is_int(row.get("out")) or row["out"] < 0:
        errors.append(f"{label}：出局人数 out 应为不小于 0 的整数。")
    if not isinstance(row["posts"], dict):
        errors.append(f"{label}：贴杀 posts 应是 组 = 数量 的表。")
        return errors
    for g, n in row["posts"].items():
        if g not in gkeys:
            errors.append(f"{label}：贴杀组「{g}」不存在，可用：{'、'.join(gkeys)}。")
        elif not _is_int(n) or n < 0:
            errors.append(f"{label}：「{g}」的贴数应为不小于 0 的整数。")
    return errors


def check_settings(settings: dict[str, Any]) -> dict[str, Any]:
    cfg, errors = merge(settings or {})
    if not errors:
        errors = validate(cfg)
    if errors:
        raise Rejected("\n".join(errors))
    return cfg
