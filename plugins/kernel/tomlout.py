"""A small TOML writer for /配置: settings are shown the way hosts edit them.

Settings are JSON-like (dicts, lists, strings, numbers, booleans): tables become
``[section]``, lists of tables ``[[section]]``, other lists inline arrays. A None
(TOML has no null) is written as a comment."""

from __future__ import annotations

import json
import math
import re
from typing import Any

BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def key(k: str) -> str:
    return k if BARE.match(k) else json.dumps(k, ensure_ascii=False)


def value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)  # JSON's escapes are TOML basic-string escapes
    if isinstance(v, list):
        return "[" + ", ".join(value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{key(k)} = {value(x)}" for k, x in v.items() if x is not None) + " }"
    return json.dumps(str(v), ensure_ascii=False)


def _is_tables(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, dict) for x in v)


def dumps(data: dict[str, Any], path: tuple[str, ...] = ()) -> str:
    lines: list[str] = []
    _table(data, path, lines)
    return "\n".join(lines).strip("\n")


def _table(data: dict[str, Any], path: tuple[str, ...], lines: list[str]) -> None:
    for k, v in data.items():
        if v is None:
            lines.append(f"# {key(k)} = （空）")
        elif not isinstance(v, dict) and not _is_tables(v):
            lines.append(f"{key(k)} = {value(v)}")
    for k, v in data.items():
        sub = (*path, key(k))
        if isinstance(v, dict):
            lines += ["", "[" + ".".join(sub) + "]"]
            _table(v, sub, lines)
        elif _is_tables(v):
            for item in v:
                lines += ["", "[[" + ".".join(sub) + "]]"]
                _table(item, sub, lines)
