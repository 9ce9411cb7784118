"""Game settings: the typed model's base, and the one merge of a host's variant over the defaults."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict

T = TypeVar("T")


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


class GameSettings(BaseModel):
    """Base of a game's settings model (``GameEngine.Settings``): built from the game's TOML
    content and a host's /配置, validated once, then read-only (``ctx.settings``). Unknown keys
    are mistakes and values are not coerced ("3" is not a number)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


KERNEL_SETTINGS = {
    "timezone": "Asia/Shanghai",
    "anon_speech": True,  # secret-alias games: /发言 posts under the alias
    "anon_plain": False,  # … and so does plain private text the game has no use for
    "anon_pictures": False,  # reserved: pictures in anonymous speech are shown as "（图片）"
}
"""The kernel's own per-game settings (changed with /配置 like the game's);
engines see only ``timezone`` of them."""


def per_settings(build: Callable[[dict], T], size: int = 64) -> Callable[[dict], T]:
    """``build(settings)`` computed once per settings object (settings are never changed in
    place: /配置 stores a new dict), at most ``size`` remembered."""
    memo: dict[int, tuple[dict, T]] = {}

    def get(settings: dict) -> T:
        hit = memo.get(id(settings))
        if hit is not None and hit[0] is settings:  # the id of a dict still alive (it is kept here)
            return hit[1]
        value = build(settings)
        if len(memo) >= size:
            memo.clear()
        memo[id(settings)] = (settings, value)
        return value

    return get


engine_settings = per_settings(
    lambda settings: {k: v for k, v in settings.items() if k == "timezone" or k not in KERNEL_SETTINGS}, size=512)
"""What an engine sees of a game's settings (``ctx.settings``): the same object for the
same stored settings, so an engine may cache what it derives from them (``per_settings``)."""


def given(settings: dict | None, game: str) -> dict:
    """The settings the kernel passes to a hook without Ctx (always, for a started game)."""
    if not settings:
        raise ValueError(f"{game}: the hook needs the game's settings (settings=...)")
    return settings
