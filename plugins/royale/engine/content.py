"""Game data: load the default TOML files, merge a host's variant, validate.

Settings are one JSON-compatible dict with the top-level sections of the
content files: ``rules``, ``places``, ``weather``, ``airdrops`` (world.toml),
``grades``, ``weapons``, ``armours``, ``others`` (items.toml) and ``shop``
(shop.toml).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomllib

from plugins.kernel.clock import parse_hhmm
from plugins.kernel.contract import Rejected
from plugins.kernel.settings import deep_merge

CONTENT_DIR = Path(__file__).resolve().parent.parent / "content"
CONTENT_FILES = ("world.toml", "items.toml", "shop.toml", "events.toml", "map.toml")

GRADES = ("green", "blue", "purple", "orange")
OTHER_KINDS = ("upgrader", "gps", "radar", "broadcast", "bomb", "supply", "money")
GREEN_WEAPON = "绿色武器"
GREEN_ARMOUR = "绿色防具"

RULE_INTS = (
    "max_hp", "max_stamina", "daily_stamina", "rest_hp", "move_cost", "search_cost",
    "search_interval_s", "fist_damage", "bag_size", "birth_deadline_night", "rest_move_cost",
    "min_posts",
)
RULE_CHOICES = {
    "sell_phase": ("day", "night", "any"),
    "sell_which": ("equipped", "unequipped", "any"),
    "gps_finds": ("equipped", "any"),
    "use_from": ("hand", "any"),
}
RULE_BOOLS = ("speech_cards", "test_mode")
EVENT_KEYS = ("wanted", "comeback", "change", "pilgrimage", "witch", "wind", "leaderboard", "winter", "war", "moon")


def load_defaults() -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for name in CONTENT_FILES:
        with open(CONTENT_DIR / name, "rb") as fh:
            merged.update(tomllib.load(fh))
    return merged


_DEFAULTS = load_defaults()


def defaults() -> dict[str, Any]:
    return copy.deepcopy(_DEFAULTS)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def validate(cfg: dict[str, Any]) -> list[str]:
    """Every mistake as one Chinese line (empty list: fine)."""
    errs: list[str] = []
    for key in cfg:
        if key not in _DEFAULTS:
            errs.append(f"未知设置项「{key}」，可用：{'、'.join(_DEFAULTS)}。")
    rules = cfg.get("rules", {})
    for key in rules:
        if key not in _DEFAULTS["rules"]:
            errs.append(f"未知规则项「rules.{key}」。")
    for key in RULE_INTS:
        v = rules.get(key)
        if not _is_int(v) or v < 0:
            errs.append(f"rules.{key} 应为不小于 0 的整数，收到「{v}」。")
    for key in ("max_hp", "max_stamina", "bag_size", "birth_deadline_night"):
        if _is_int(rules.get(key)) and rules[key] < 1:
            errs.append(f"rules.{key} 至少为 1。")
    for key in ("night_start", "night_end"):
        try:
            parse_hhmm(str(rules.get(key)))
        except ValueError as exc:
            errs.append(f"rules.{key}：{exc}")
    for key, choices in RULE_CHOICES.items():
        if rules.get(key) not in choices:
            errs.append(f"rules.{key} 只能是 {'、'.join(choices)} 之一。")
    for key in RULE_BOOLS:
        if not isinstance(rules.get(key), bool):
            errs.append(f"rules.{key} 应为 true 或 false。")

    places = cfg.get("places", {})
    names = places.get("names")
    if not isinstance(names, list) or not names or not all(isinstance(n, str) and n.strip() for n in names):
        errs.append("places.names 应为非空的地点名列表。")
        names = []
    else:
        keys = [place_key(n) for n in names]
        dup = sorted({n for n, k in zip(names, keys) if keys.count(k) > 1})
        if dup:
            errs.append(f"地点重名：{'、'.join(dup)}。")
    safe = places.get("safe_zone")
    if safe not in ("", None) and safe not in names:
        errs.append(f"安全区「{safe}」不在地点列表中。")
    v = places.get("safe_zone_closes_after_night")
    if not _is_int(v) or v < 1:
        errs.append("places.safe_zone_closes_after_night 应为正整数。")
    closures = places.get("closures")
    if not isinstance(closures, list) or not closures or not all(_is_int(c) and c >= 0 for c in closures):
        errs.append("places.closures 应为不小于 0 的整数列表，例如 [5, 5, 4]。")

    weather = cfg.get("weather")
    if not isinstance(weather, list) or not weather:
        errs.append("weather 至少要有一种天气。")
    else:
        for w in weather:
            if not isinstance(w, dict) or not isinstance(w.get("name"), str):
                errs.append("每种天气需要 name、weight、see。")
                continue
            if not _is_int(w.get("weight")) or w["weight"] < 0:
                errs.append(f"天气「{w['name']}」的 weight 应为不小于 0 的整数。")
            if not _is_int(w.get("see")) or not 0 <= w["see"] <= 100:
                errs.append(f"天气「{w['name']}」的 see 应为 0 到 100 的整数。")
        if not errs and sum(w["weight"] for w in weather) <= 0:
            errs.append("天气权重之和必须大于 0。")

    item_names: list[str] = []
    for section, number in (("weapons", "damage"), ("armours", "reduce")):
        block = cfg.get(section, {})
        for grade in GRADES:
            g = block.get(grade)
            label = f"{section}.{grade}"
            if not isinstance(g, dict):
                errs.append(f"缺少 {label}。")
                continue
            for key in (number, "uses", "votes", "count"):
                if not _is_int(g.get(key)) or g[key] < 0:
                    errs.append(f"{label}.{key} 应为不小于 0 的整数。")
            ns = g.get("names")
            if not isinstance(ns, list) or not ns or not all(isinstance(n, str) and n for n in ns):
                errs.append(f"{label}.names 应为非空的名称列表。")
            else:
                item_names.extend(ns)
        if isinstance(block.get("orange"), dict) and section == "weapons":
            for key in ("splash", "bleed"):
                if not _is_int(block["orange"].get(key)) or block["orange"][key] < 0:
                    errs.append(f"weapons.orange.{key} 应为不小于 0 的整数。")
    others = cfg.get("others", [])
    if not isinstance(others, list):
        errs.append("others 应为道具列表。")
        others = []
    for o in others:
        name = o.get("name") if isinstance(o, dict) else None
        if not isinstance(name, str) or not name:
            errs.append("others 中每件道具需要 name。")
            continue
        item_names.append(name)
        kind = o.get("kind")
        if kind not in OTHER_KINDS:
            errs.append(f"道具「{name}」的 kind 应为 {'、'.join(OTHER_KINDS)} 之一。")
        for key in ("votes", "count"):
            if not _is_int(o.get(key, 0)) or o.get(key, 0) < 0:
                errs.append(f"道具「{name}」的 {key} 应为不小于 0 的整数。")
        if kind == "upgrader" and o.get("max_grade") not in GRADES[1:]:
            errs.append(f"升级器「{name}」的 max_grade 应为 blue、purple 或 orange。")
        if kind == "bomb" and (not _is_int(o.get("damage")) or o["damage"] < 0):
            errs.append(f"炸弹「{name}」需要 damage（不小于 0 的整数）。")
        if kind == "money" and (not _is_int(o.get("money")) or o["money"] < 1):
            errs.append(f"货币「{name}」需要 money（正整数）。")
        if kind == "supply":
            hp, st = o.get("hp", 0), o.get("stamina", 0)
            if not (_is_int(hp) and _is_int(st)) or hp < 0 or st < 0 or hp + st == 0:
                errs.append(f"补给「{name}」需要 hp 或 stamina（正整数）。")
            if o.get("cure", "none") not in ("none", "instead", "also"):
                errs.append(f"补给「{name}」的 cure 只能是 none、instead 或 also。")
    seen: set[str] = set()
    dups: list[str] = []
    for n in item_names:
        if n in seen and n not in dups:
            dups.append(n)
        seen.add(n)
    if dups:
        errs.append(f"道具重名：{'、'.join(dups)}。")

    known = seen | {GREEN_WEAPON, GREEN_ARMOUR}
    shop = cfg.get("shop", {})
    prices = shop.get("prices", {})
    for name, price in prices.items():
        if name not in known:
            errs.append(f"商店商品「{name}」不是已知道具。")
        if not _is_int(price) or price < 1:
            errs.append(f"商店商品「{name}」的价格应为正整数。")
    for name, n in shop.get("daily", {}).items():
        if name not in prices:
            errs.append(f"每日上架的「{name}」没有价格（shop.prices）。")
        if not _is_int(n) or n < 0:
            errs.append(f"每日上架的「{name}」数量应为不小于 0 的整数。")
    sell = shop.get("sell", {})
    for key in ("green_per_coin", "better_price"):
        if not _is_int(sell.get(key)) or sell[key] < 1:
            errs.append(f"shop.sell.{key} 应为正整数。")
    grant = shop.get("grant", {})
    for key in ("day", "amount"):
        if not _is_int(grant.get(key)) or grant[key] < 0:
            errs.append(f"shop.grant.{key} 应为不小于 0 的整数。")

    errs += _validate_events(cfg, seen, names)
    errs += _validate_map(cfg, names)

    drops = cfg.get("airdrops", [])
    if not isinstance(drops, list):
        errs.append("airdrops 应为列表。")
        drops = []
    for d in drops:
        if not isinstance(d, dict) or not _is_int(d.get("day")) or d["day"] < 1:
            errs.append("每次空投需要 day（正整数）和 items。")
            continue
        for n in d.get("items", []):
            if n not in seen:
                errs.append(f"第{d['day']}天空投的「{n}」不是已知道具。")
    return errs


def _validate_events(cfg: dict[str, Any], items: set[str], places: list[str]) -> list[str]:
    errs: list[str] = []
    ev = cfg.get("events", {})
    if not _is_int(ev.get("per_day")) or ev["per_day"] < 0:
        errs.append("events.per_day 应为不小于 0 的整数。")
    for key in ("prefer_new", "no_repeat"):
        if not isinstance(ev.get(key), bool):
            errs.append(f"events.{key} 应为 true 或 false。")
    rows = ev.get("list")
    if not isinstance(rows, list):
        return errs + ["events.list 应为事件列表。"]
    keys = [r.get("key") for r in rows if isinstance(r, dict)]
    for r in rows:
        if not isinstance(r, dict) or r.get("key") not in EVENT_KEYS:
            errs.append(f"事件的 key 应为 {'、'.join(EVENT_KEYS)} 之一，收到「{r.get('key') if isinstance(r, dict) else r}」。")
            continue
        label = f"事件「{r.get('name') or r['key']}」"
        if not isinstance(r.get("name"), str) or not r["name"]:
            errs.append(f"{label}需要 name。")
        for key in ("weight", "min_day"):
            if not _is_int(r.get(key, 0)) or r.get(key, 0) < 0:
                errs.append(f"{label}的 {key} 应为不小于 0 的整数。")
        for key in ("hp", "count", "money", "penalty", "effect", "reward_per", "reward", "top", "crowd", "bottom_percent"):
            if key in r and (not _is_int(r[key]) or r[key] < (1 if key in ("hp", "reward_per", "top", "count") else 0)):
                errs.append(f"{label}的 {key} 应为正整数。")
        for key in ("rewards", "items"):
            for n in r.get(key, []):
                if n not in items:
                    errs.append(f"{label}的道具「{n}」不是已知道具。")
        for key in ("item", "morning_item", "evening_item"):
            if key in r and r[key] not in items:
                errs.append(f"{label}的道具「{r[key]}」不是已知道具。")
        for key in ("weather", "first_weather"):
            if key in r and r[key] not in [w.get("name") for w in cfg.get("weather", []) if isinstance(w, dict)]:
                errs.append(f"{label}的天气「{r[key]}」不在 weather 中。")
    dups = sorted({k for k in keys if keys.count(k) > 1})
    if dups:
        errs.append(f"事件重复：{'、'.join(dups)}。")
    return errs


def _validate_map(cfg: dict[str, Any], places: list[str]) -> list[str]:
    errs: list[str] = []
    m = cfg.get("map", {})
    cols, rows = m.get("columns"), m.get("rows")
    if not _is_int(cols) or not _is_int(rows) or cols < 1 or rows < 1:
        return ["map.columns 和 map.rows 应为正整数。"]
    entries = m.get("places")
    if not isinstance(entries, list):
        return ["map.places 应为地点列表（name、x、y、adjacent）。"]
    by_name: dict[str, dict[str, Any]] = {}
    cells: dict[tuple[int, int], str] = {}
    for e in entries:
        name = e.get("name") if isinstance(e, dict) else None
        if name not in places:
            errs.append(f"地图上的「{name}」不在 places.names 中。")
            continue
        by_name[name] = e
        x, y = e.get("x"), e.get("y")
        if not _is_int(x) or not _is_int(y) or not (0 <= x < cols and 0 <= y < rows):
            errs.append(f"地图上「{name}」的位置 x、y 应在 0..{cols - 1}、0..{rows - 1} 之内。")
        elif (x, y) in cells:
            errs.append(f"地图上「{name}」与「{cells[(x, y)]}」在同一格。")
        else:
            cells[(x, y)] = name
    missing = [p for p in places if p not in by_name]
    if missing:
        errs.append(f"地图缺少地点：{'、'.join(missing)}。")
    for name, e in by_name.items():
        for other in e.get("adjacent", []):
            if other not in by_name:
                errs.append(f"「{name}」的相邻地点「{other}」不在地图上。")
            elif name not in by_name[other].get("adjacent", []):
                errs.append(f"相邻关系应双向：「{name}」与「{other}」。")
    return errs


def check(over: dict[str, Any]) -> dict[str, Any]:
    try:
        cfg = deep_merge(_DEFAULTS, over or {})
        errs = validate(cfg)
    except (AttributeError, TypeError) as exc:  # wrong shapes, e.g. a list where a table belongs
        errs = [f"设置格式有误：{exc}"]
        cfg = {}
    if errs:
        raise Rejected("\n".join(errs))
    return cfg


def place_key(name: str) -> str:
    """Places compare without spaces and case: "atelier of tales" = "Atelier of Tales"."""
    return "".join(name.split()).casefold()


@dataclass(frozen=True)
class ItemDef:
    name: str
    kind: str  # weapon, armour or one of OTHER_KINDS
    grade: str | None  # for weapons and armours
    data: dict[str, Any]  # the TOML row (damage, reduce, uses, votes, ...)

    @property
    def uses(self) -> int | None:
        n = self.data.get("uses", 0)
        return n or None


class Catalog:
    """Item definitions by name, built from settings."""

    def __init__(self, cfg: dict[str, Any]) -> None:
        self.cfg = cfg
        self.items: dict[str, ItemDef] = {}
        for section, kind in (("weapons", "weapon"), ("armours", "armour")):
            for grade in GRADES:
                row = cfg[section][grade]
                data = {k: v for k, v in row.items() if k != "names"}
                for n in row["names"]:
                    self.items[n] = ItemDef(n, kind, grade, data)
        for row in cfg["others"]:
            self.items[row["name"]] = ItemDef(row["name"], row["kind"], None, dict(row))

    def get(self, name: str) -> ItemDef:
        return self.items[name]

    def names(self, kind: str, grade: str) -> list[str]:
        section = "weapons" if kind == "weapon" else "armours"
        return list(self.cfg[section][grade]["names"])

    def grade_label(self, grade: str) -> str:
        return self.cfg["grades"]["labels"].get(grade, grade)
