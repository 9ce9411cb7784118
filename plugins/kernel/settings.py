"""Pure helpers for game settings (host variants loaded with /配置)."""

from __future__ import annotations

import copy
from typing import Any


def deep_merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """``over`` on top of ``base``: tables merge key by key, anything else
    (lists included) is replaced. Neither input is changed."""
    out = copy.deepcopy(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


KERNEL_SETTINGS = {
    "timezone": "Asia/Shanghai",
    "anon_speech": True,  # secret-alias games: /发言 posts under the alias
    "anon_plain": False,  # … and so does plain private text the game has no use for
    "anon_pictures": False,  # reserved: pictures in anonymous speech are shown as "（图片）"
}
"""The kernel's own per-game settings (changed with /配置 like the game's);
engines see only ``timezone`` of them."""


def engine_settings(settings: dict) -> dict:
    return {k: v for k, v in settings.items() if k == "timezone" or k not in KERNEL_SETTINGS}
