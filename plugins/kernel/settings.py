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


_views: dict[int, tuple[dict, dict]] = {}


def engine_settings(settings: dict) -> dict:
    """What an engine sees of a game's settings (``ctx.settings``): the same object for the
    same stored settings, so an engine may cache what it derives from them (settings are
    never changed in place: /配置 stores a new dict)."""
    hit = _views.get(id(settings))
    if hit is not None and hit[0] is settings:
        return hit[1]
    view = {k: v for k, v in settings.items() if k == "timezone" or k not in KERNEL_SETTINGS}
    if len(_views) >= 512:
        _views.clear()
    _views[id(settings)] = (settings, view)
    return view
