"""Game data: the bundled TOML variants and validation of a host's variant."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import tomllib

from plugins.kernel.clock import parse_hhmm
from plugins.kernel.contract import Rejected

CONTENT_DIR = Path(__file__).resolve().parent.parent / "content"
DEFAULT_VARIANT = "sample12"

KINDS_GUARD = ("noise", "lover", "generic")
KINDS_PRISONER = ("kill", "point_kill", "lover", "generic")
WINS = ("default", "alive", "released", "with_murderer")
WHENS = ("day", "night", "any")
POINT_KEYS = (
    "day", "love_win", "hate_win", "idol", "pest", "mapping_first",
    "released", "murderer_dead", "guards_dead", "aliases",
)
TOP_KEYS = (
    "variant", "title", "room_mode", "room_groups", "prep_minutes", "day_end", "rooms_end",
    "night_end", "verdict_minutes", "min_posts", "auto_cards", "tie_without_chief",
    "max_submissions", "points", "guards", "prisoners", "signup", "deal", "timezone",
    "top_ties", "guards_dead_bonus", "auction", "characters",
)
ROLE_KEYS = ("id", "name", "text", "crimes", "murderer", "side", "win", "abilities")
ABILITY_KEYS = ("kind", "uses", "name", "when", "compulsory", "optional", "with")
SIGNUP_KEYS = ("number", "nickname", "contact", "first", "second")
MIN_PLAYERS, MAX_PLAYERS = 10, 14
TOP_TIES = ("none", "all", "drawn")
CAMP_WORDS = {"guard": "guard", "prisoner": "prisoner", "any": "any", "看守": "guard", "囚犯": "prisoner", "任意": "any"}
AUCTION_KEYS = ("minutes", "coins", "limit", "balances")
AUCTION_LIMITS = ("each", "sum")
NAME_BANNED = "@[]:：=＝,，、;；"
GUARDS_DEAD_BONUS = ("living", "all")


def load_variant(name: str) -> dict[str, Any]:
    path = CONTENT_DIR / f"{name}.toml"
    if not name.replace("_", "").isalnum() or not path.is_file():
        raise Rejected(f"没有名为「{name}」的内置身份文件。")
    with path.open("rb") as fh:
        return tomllib.load(fh)


def parse_toml(text: str) -> dict[str, Any]:
    """A host's variant file as text -> overrides dict (Rejected on syntax errors)."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise Rejected(f"身份文件格式错误：{exc}") from exc


def merge(overrides: dict[str, Any]) -> dict[str, Any]:
    base = load_variant(str(overrides.get("variant", DEFAULT_VARIANT)))
    out = copy.deepcopy(base)
    for key, value in overrides.items():
        if key in ("points", "auction") and isinstance(value, dict):
            out.setdefault(key, {}).update(copy.deepcopy(value))
        else:
            out[key] = copy.deepcopy(value)
    out.setdefault("variant", DEFAULT_VARIANT)
    out.setdefault("characters", [])
    out["characters"] = _normalize_characters(out["characters"])
    return out


def _normalize_characters(chars: Any) -> Any:
    """``["柯南", ...]`` or ``[{ name, camp }]`` -> ``[{name, camp}]`` with camp in English."""
    if not isinstance(chars, list):
        return chars
    out: list[Any] = []
    for ch in chars:
        if isinstance(ch, str):
            ch = {"name": ch}
        if isinstance(ch, dict):
            ch = dict(ch)
            ch["camp"] = CAMP_WORDS.get(ch.get("camp", "any"), ch.get("camp"))
        out.append(ch)
    return out


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _check_roles(s: dict[str, Any], errors: list[str]) -> None:
    ids: list[str] = []
    murderers = 0
    lovers: list[tuple[str, str]] = []
    for camp, label, kinds in (("guards", "看守", KINDS_GUARD), ("prisoners", "囚犯", KINDS_PRISONER)):
        roles = s.get(camp)
        if not isinstance(roles, list) or not roles:
            errors.append(f"缺少 [[{camp}]]：至少要有一个{label}身份。")
            continue
        for i, role in enumerate(roles, 1):
            where = f"第 {i} 个{label}身份"
            if not isinstance(role, dict):
                errors.append(f"{where}应为表（[[{camp}]]）。")
                continue
            rid = role.get("id")
            if not isinstance(rid, str) or not rid:
                errors.append(f"{where}缺少 id。")
            else:
                where = f"{label}身份「{rid}」"
                if rid in ids:
                    errors.append(f"身份 id「{rid}」重复，请改成唯一的 id。")
                ids.append(rid)
            for key in role:
                if key not in ROLE_KEYS:
                    errors.append(f"{where}有未知字段「{key}」，可用：{'、'.join(ROLE_KEYS)}。")
            if not isinstance(role.get("name"), str) or not role.get("name"):
                errors.append(f"{where}缺少 name（身份名）。")
            if "text" in role and not isinstance(role["text"], str):
                errors.append(f"{where}的 text 应为文字。")
            crimes = role.get("crimes", [])
            if not isinstance(crimes, list) or not all(isinstance(c, str) and c for c in crimes):
                errors.append(f"{where}的 crimes 应为文字列表，例如 [\"盗窃罪\"]。")
            if camp == "guards" and "crimes" in role:
                errors.append(f"{where}：看守没有罪名，请删去 crimes。")
            if role.get("murderer") not in (None, True, False):
                errors.append(f"{where}的 murderer 只能是 true 或 false。")
            is_murderer = role.get("murderer") is True
            if is_murderer:
                if camp == "guards":
                    errors.append(f"{where}：杀人犯必须是囚犯。")
                murderers += 1
            side = role.get("side")
            if side is not None and side != "murderer":
                errors.append(f"{where}的 side 只能是 \"murderer\"（杀人犯阵营），或不写。")
            if side == "murderer" and camp == "guards":
                errors.append(f"{where}：只有囚犯可以属于杀人犯阵营。")
            if role.get("win", "default") not in WINS:
                errors.append(f"{where}的 win 只能是 {'、'.join(WINS)}。")
            abilities = role.get("abilities", [])
            if not isinstance(abilities, list):
                errors.append(f"{where}的 abilities 应为列表。")
                continue
            generic_names: list[str] = []
            for j, ab in enumerate(abilities, 1):
                aw = f"{where}的第 {j} 个技能"
                if not isinstance(ab, dict):
                    errors.append(f"{aw}应为 {{ kind = ... }} 形式。")
                    continue
                for key in ab:
                    if key not in ABILITY_KEYS:
                        errors.append(f"{aw}有未知字段「{key}」，可用：{'、'.join(ABILITY_KEYS)}。")
                kind = ab.get("kind")
                if kind not in kinds:
                    errors.append(f"{aw}的 kind「{kind}」不可用于{label}，可用：{'、'.join(kinds)}。")
                    continue
                if "uses" in ab and (not _is_int(ab["uses"]) or ab["uses"] < 0):
                    errors.append(f"{aw}的 uses 应为不小于 0 的整数（0 = 不限次数）。")
                if kind in ("kill", "point_kill") and not is_murderer:
                    errors.append(f"{aw}：{kind} 只能给杀人犯（murderer = true）。")
                if kind == "lover":
                    other = ab.get("with")
                    if not isinstance(other, str) or not other:
                        errors.append(f"{aw}：情侣需要 with = \"对方身份 id\"。")
                    else:
                        lovers.append((str(rid), other))
                if kind == "generic":
                    name = ab.get("name")
                    if not isinstance(name, str) or not name or " " in name:
                        errors.append(f"{aw}：通用技能需要 name（不含空格），玩家用 /技能 <name> 发动。")
                    elif name in generic_names:
                        errors.append(f"{aw}：技能名「{name}」在同一身份中重复。")
                    else:
                        generic_names.append(name)
                    if ab.get("when", "any") not in WHENS:
                        errors.append(f"{aw}的 when 只能是 day、night 或 any。")
                    elif ab.get("compulsory") and ab.get("when", "any") == "any":
                        errors.append(f"{aw}：必须使用的技能要写明 when = \"day\" 或 \"night\"。")
                for flag in ("compulsory", "optional"):
                    if flag in ab and not isinstance(ab[flag], bool):
                        errors.append(f"{aw}的 {flag} 只能是 true 或 false。")
    if isinstance(s.get("prisoners"), list) and murderers != 1:
        errors.append(f"囚犯中必须恰好有一个杀人犯（murderer = true），现在有 {murderers} 个。")
    for rid, other in lovers:
        if other not in ids:
            errors.append(f"身份「{rid}」的情侣指向不存在的身份「{other}」。")
        elif other == rid:
            errors.append(f"身份「{rid}」不能和自己是情侣。")
    n_g = len(s["guards"]) if isinstance(s.get("guards"), list) else 0
    n_p = len(s["prisoners"]) if isinstance(s.get("prisoners"), list) else 0
    if n_g and n_p and not MIN_PLAYERS <= n_g + n_p <= MAX_PLAYERS:
        errors.append(f"看守 {n_g} + 囚犯 {n_p} = {n_g + n_p} 人，应为 {MIN_PLAYERS}–{MAX_PLAYERS} 人。")
    if n_g and n_p and abs(n_g - n_p) > 1:
        errors.append(f"看守 {n_g} 人、囚犯 {n_p} 人：两边应各占一半（最多差 1）。")


def _check_auction(s: dict[str, Any], errors: list[str]) -> None:
    """【游戏流程】<3、竞拍马甲>: the script's characters and the auction's coins."""
    auction = s.get("auction")
    if not isinstance(auction, dict):
        errors.append("[auction] 应为表。")
    else:
        for key in auction:
            if key not in AUCTION_KEYS:
                errors.append(f"[auction] 有未知项「{key}」，可用：{'、'.join(AUCTION_KEYS)}。")
        for key in ("minutes", "coins"):
            if not _is_int(auction.get(key)) or auction[key] < 0:
                errors.append(f"[auction] 的 {key} 应为不小于 0 的整数。")
        if auction.get("limit") not in AUCTION_LIMITS:
            errors.append("[auction] 的 limit 只能是 each（每个志愿各不超过余额）或 sum（两个志愿合计不超过余额）。")
        balances = auction.get("balances", {})
        if not isinstance(balances, dict):
            errors.append("[auction] 的 balances 应为表：座位号 = 硬币数。")
        else:
            for seat, n in balances.items():
                if not str(seat).isdigit() or not _is_int(n) or n < 0:
                    errors.append(f"[auction] balances 的「{seat}」应为 座位号 = 不小于 0 的整数。")
    chars = s.get("characters")
    if not isinstance(chars, list):
        errors.append("characters 应为角色列表，例如 characters = [\"柯南\", \"怪盗基德\"] 或 [[characters]] 表。")
        return
    seen: list[str] = []
    camps = {"guard": 0, "prisoner": 0, "any": 0}
    for i, ch in enumerate(chars, 1):
        if not isinstance(ch, dict):
            errors.append(f"第 {i} 个角色应为名字或 {{ name = ..., camp = ... }}。")
            continue
        for key in ch:
            if key not in ("name", "camp"):
                errors.append(f"第 {i} 个角色有未知字段「{key}」，可用：name、camp。")
        name = ch.get("name")
        if not isinstance(name, str) or not name.strip():
            errors.append(f"第 {i} 个角色缺少 name（角色名）。")
            continue
        where = f"角色「{name}」"
        if len(name) > 16:
            errors.append(f"{where}太长：马甲最长 16 个字。")
        if name.isdigit() or name == "无" or any(ch_.isspace() or ch_ in NAME_BANNED for ch_ in name):
            errors.append(f"{where}不能是纯数字或「无」，也不能含空格和 {NAME_BANNED}。")
        if name.casefold() in seen:
            errors.append(f"{where}重复了。")
        seen.append(name.casefold())
        if ch.get("camp") not in camps:
            errors.append(f"{where}的 camp 只能是 guard（看守）、prisoner（囚犯）或 any（任意）。")
        else:
            camps[ch["camp"]] += 1
    n_g = len(s["guards"]) if isinstance(s.get("guards"), list) else 0
    n_p = len(s["prisoners"]) if isinstance(s.get("prisoners"), list) else 0
    if chars and n_g and n_p:
        if len(chars) < n_g + n_p:
            errors.append(f"剧本角色只有 {len(chars)} 个，少于 {n_g + n_p} 名玩家：每人都要分到一个马甲。")
        if camps["guard"] + camps["any"] < n_g:
            errors.append(f"能给看守的角色（guard + any）只有 {camps['guard'] + camps['any']} 个，少于 {n_g} 名看守。")
        if camps["prisoner"] + camps["any"] < n_p:
            errors.append(f"能给囚犯的角色（prisoner + any）只有 {camps['prisoner'] + camps['any']} 个，少于 {n_p} 名囚犯。")


def validate(s: dict[str, Any]) -> None:
    """Raise Rejected listing every mistake, one Chinese line each."""
    errors: list[str] = []
    for key in s:
        if key not in TOP_KEYS:
            errors.append(f"未知设置「{key}」，请检查拼写。")
    if s.get("room_mode") not in ("relay", "group", "web"):
        errors.append("room_mode 只能是 relay（私聊转发）、group（房间群）或 web（网页审讯室，需开启网页）。")
    groups = s.get("room_groups", [])
    if not isinstance(groups, list) or not all(isinstance(g, (str, int)) for g in groups):
        errors.append("room_groups 应为群号列表，例如 [\"123456\", \"234567\"]。")
    for key in ("day_end", "rooms_end", "night_end"):
        try:
            parse_hhmm(str(s.get(key, "")))
        except ValueError as exc:
            errors.append(f"{key}：{exc}。")
    for key, low in (("prep_minutes", 0), ("verdict_minutes", 1), ("min_posts", 0), ("max_submissions", 0)):
        if not _is_int(s.get(key)) or s[key] < low:
            errors.append(f"{key} 应为不小于 {low} 的整数。")
    if not isinstance(s.get("auto_cards"), bool):
        errors.append("auto_cards 只能是 true 或 false。")
    if s.get("tie_without_chief") not in ("nothing", "random"):
        errors.append("tie_without_chief 只能是 nothing 或 random。")
    if s.get("top_ties") not in TOP_TIES:
        errors.append("top_ties 只能是 none（平票则无万人迷/讨厌鬼）、all（平票者都算）或 drawn（平票者中抽一人）。")
    if s.get("guards_dead_bonus") not in GUARDS_DEAD_BONUS:
        errors.append("guards_dead_bonus 只能是 living（看守全灭时仍在狱中或已释放的囚犯）或 all（所有囚犯）。")
    points = s.get("points")
    if not isinstance(points, dict):
        errors.append("[points] 应为表。")
    else:
        for key in POINT_KEYS:
            if not _is_int(points.get(key)):
                errors.append(f"[points] 的 {key} 应为整数。")
        for key in points:
            if key not in POINT_KEYS:
                errors.append(f"[points] 有未知项「{key}」。")
    _check_roles(s, errors)
    _check_auction(s, errors)
    signup = s.get("signup", {})
    if not isinstance(signup, dict):
        errors.append("signup 应为表：座位号 -> { number = 随机数, nickname = ... }。")
    else:
        for seat, info in signup.items():
            if not str(seat).isdigit() or not isinstance(info, dict):
                errors.append(f"signup 的「{seat}」应为座位号，值为表。")
                continue
            for key in info:
                if key not in SIGNUP_KEYS:
                    errors.append(f"signup 座位 {seat} 有未知字段「{key}」。")
            num = info.get("number")
            if num is not None and (not _is_int(num) or not 1 <= num <= 999):
                errors.append(f"座位 {seat} 的随机数应为 1–999 的整数。")
    deal = s.get("deal", {})
    if not isinstance(deal, dict):
        errors.append("deal 应为表：座位号 -> 身份 id。")
    else:
        all_ids = [r.get("id") for c in ("guards", "prisoners") for r in (s.get(c) or []) if isinstance(r, dict)]
        for seat, rid in deal.items():
            if not str(seat).isdigit():
                errors.append(f"deal 的「{seat}」应为座位号。")
            if rid not in all_ids:
                errors.append(f"deal 座位 {seat} 的身份「{rid}」不存在。")
        used = list(deal.values())
        dups: list[str] = []
        for rid in used:
            if used.count(rid) > 1 and rid not in dups:
                dups.append(rid)
                errors.append(f"deal 中身份「{rid}」发给了多人。")
    if errors:
        raise Rejected("\n".join(errors))


def check_settings(overrides: dict[str, Any]) -> dict[str, Any]:
    s = merge(overrides)
    validate(s)
    return s
