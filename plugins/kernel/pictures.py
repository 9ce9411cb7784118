"""Fonts for the pictures games draw with Pillow (league standings, the royale
map): a CJK font from, in order, the game's own environment variable, the
bundled Noto Sans SC (pip package pylopdf-fonts-zh-cn, SIL OFL, the
``pictures`` extra), then the usual system places."""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

_bundled: Callable[[], Path] | None
try:
    from pylopdf_fonts_zh_cn import sans_path as _bundled  # optional: the "pictures" extra
except ImportError:  # pragma: no cover - system fonts then
    _bundled = None

SYSTEM_FONTS = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJKsc-Regular.otf",
    "/usr/share/fonts/truetype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/System/Library/Fonts/PingFang.ttc",
    "C:/Windows/Fonts/msyh.ttc",
)


def font_path(env: str = "") -> str | None:
    """The CJK font file used, or None when none is installed."""
    chosen = os.environ.get(env) if env else None
    if chosen and Path(chosen).is_file():
        return chosen
    if _bundled is not None:
        p = _bundled()
        if Path(p).is_file():
            return str(p)
    return next((p for p in SYSTEM_FONTS if Path(p).is_file()), None)


@lru_cache(maxsize=32)
def load_font(size: int, env: str = "") -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    path = font_path(env)
    if path is None:  # no CJK font: Latin still readable, Chinese will not be
        return ImageFont.load_default(size)
    return ImageFont.truetype(path, size)
