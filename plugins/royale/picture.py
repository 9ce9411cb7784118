"""The map picture: the places on their grid (``content/map.toml``), drawn with Pillow
from the state the kernel hands the renderer.

Not part of the pure engine: the engine returns ``Picture(to, "map", caption)``;
the kernel calls ``render_state`` with the new state, stores the PNG and sends it.
Fonts as in the league's standings picture: ``ROYALE_FONT`` (a font file) first,
then the PyPI package ``pylopdf-fonts-zh-cn`` (Noto Sans SC), then common system
CJK fonts.
"""

from __future__ import annotations

import io
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from plugins.kernel import pictures

from .engine import ENGINE
from .engine import texts as T
from .engine.content import Settings
from .engine.rules_cycle import map_layout
from .engine.state import NpcKind, State

BG = (250, 248, 242)
INK = (33, 37, 41)
MUTED = (150, 150, 150)
OPEN_BG = (255, 255, 255)
OPEN_LINE = (120, 130, 140)
SAFE_LINE = (200, 30, 30)
SAFE_BG = (255, 236, 236)
CLOSED_BG = (215, 215, 215)
CLOSED_X = (110, 110, 110)
CLOSING_BG = (255, 224, 178)
CLOSING_HATCH = (230, 130, 30)
WITCH = (123, 31, 162)
WOLF = (93, 64, 55)
HOLY = (46, 125, 50)

CELL_W, CELL_H, GAP, MARGIN = 176, 112, 10, 24


def font_path() -> str | None:
    """The CJK font file used (ROYALE_FONT overrides), or None when none is installed."""
    return pictures.font_path("ROYALE_FONT")


def load_font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return pictures.load_font(size, "ROYALE_FONT")


def _fit(text: str, width: float, sizes: tuple[int, ...] = (28, 24, 21, 18)) -> tuple[Any, list[str]]:
    """The largest font that fits ``text`` in ``width`` on one line, else two lines."""
    for size in sizes:
        f = load_font(size)
        if f.getlength(text) <= width:
            return f, [text]
    f = load_font(sizes[-1])
    cut = len(text)
    while cut > 1 and f.getlength(text[:cut]) > width:
        cut -= 1
    return f, [text[:cut], text[cut:]]


@lru_cache(maxsize=1)
def _hatch() -> Image.Image:
    tile = Image.new("RGB", (CELL_W, CELL_H), CLOSING_BG)
    td = ImageDraw.Draw(tile)
    for k in range(-CELL_H, CELL_W, 18):
        td.line([k, CELL_H, k + CELL_H, 0], fill=CLOSING_HATCH, width=2)
    return tile


def render_map_png(state: State, settings: Settings) -> bytes:
    m = map_layout(settings)
    cols, rows = m.columns, m.rows
    closed, closing = set(state.closed), set(state.closing)
    marks: dict[str, list[tuple[str, tuple[int, int, int]]]] = {}
    for n in state.npcs:
        if not n.alive:
            continue
        if n.kind == NpcKind.WITCH and m.witch_public:
            marks.setdefault(n.place, []).append((T.MAP_WITCH, WITCH))
        if n.kind == NpcKind.WEREWOLF and m.wolf_public:
            marks.setdefault(n.place, []).append((T.MAP_WOLF, WOLF))
    if state.holy:
        marks.setdefault(state.holy, []).append((T.MAP_HOLY, HOLY))
    title_h, legend_h = 70, 96
    width = MARGIN * 2 + cols * CELL_W + (cols - 1) * GAP
    height = MARGIN * 2 + title_h + rows * CELL_H + (rows - 1) * GAP + legend_h
    img = Image.new("RGB", (width, height), BG)
    d = ImageDraw.Draw(img)
    title = T.MAP_TITLE.format(day=state.day, weather=state.weather or "-")
    d.text((MARGIN, MARGIN), title, font=load_font(34), fill=INK)
    top = MARGIN + title_h
    for name, (x, y) in sorted(m.pos.items(), key=lambda kv: (kv[1][1], kv[1][0])):
        x0 = MARGIN + x * (CELL_W + GAP)
        y0 = top + y * (CELL_H + GAP)
        box = [x0, y0, x0 + CELL_W, y0 + CELL_H]
        safe = name == m.safe
        if name in closed:
            d.rectangle(box, fill=CLOSED_BG, outline=CLOSED_X, width=2)
        elif name in closing:
            img.paste(_hatch(), (x0, y0))
            d.rectangle(box, outline=CLOSING_HATCH, width=3)
        else:
            d.rectangle(box, fill=SAFE_BG if safe else OPEN_BG, outline=OPEN_LINE, width=2)
        if safe and name not in closed:
            d.rectangle([x0 + 3, y0 + 3, x0 + CELL_W - 3, y0 + CELL_H - 3], outline=SAFE_LINE, width=5)
        f, lines = _fit(name, CELL_W - 16)
        ink = MUTED if name in closed else INK
        lh = f.size + 4 if hasattr(f, "size") else 24
        ty = y0 + CELL_H / 2 - (len(lines) * lh) / 2 + lh / 2 - (10 if marks.get(name) else 0)
        for line in lines:
            d.text((x0 + CELL_W / 2, ty), line, font=f, fill=ink, anchor="mm")
            ty += lh
        if name in closed:
            d.line([x0 + 6, y0 + 6, x0 + CELL_W - 6, y0 + CELL_H - 6], fill=CLOSED_X, width=4)
            d.line([x0 + 6, y0 + CELL_H - 6, x0 + CELL_W - 6, y0 + 6], fill=CLOSED_X, width=4)
        tags = marks.get(name, [])
        if tags:
            small = load_font(20)
            total = sum(small.getlength(t) + 16 for t, _ in tags) + 6 * (len(tags) - 1)
            tx = x0 + CELL_W / 2 - total / 2
            for text, colour in tags:
                w = small.getlength(text) + 16
                d.rounded_rectangle([tx, y0 + CELL_H - 34, tx + w, y0 + CELL_H - 8], radius=8, fill=colour)
                d.text((tx + w / 2, y0 + CELL_H - 21), text, font=small, fill=(255, 255, 255), anchor="mm")
                tx += w + 6
    ly = top + rows * CELL_H + (rows - 1) * GAP + 20
    small = load_font(22)
    lx: float = MARGIN
    for label, fill, outline in ((T.MAP_LEGEND_SAFE, SAFE_BG, SAFE_LINE), (T.MAP_LEGEND_OPEN, OPEN_BG, OPEN_LINE),
                                 (T.MAP_LEGEND_CLOSING, CLOSING_BG, CLOSING_HATCH),
                                 (T.MAP_LEGEND_CLOSED, CLOSED_BG, CLOSED_X)):
        d.rectangle([lx, ly, lx + 34, ly + 28], fill=fill, outline=outline, width=3)
        d.text((lx + 42, ly + 14), label, font=small, fill=INK, anchor="lm")
        lx += 42 + small.getlength(label) + 30
    shown = [(t, c) for t, c in ((T.MAP_WITCH, WITCH), (T.MAP_WOLF, WOLF), (T.MAP_HOLY, HOLY))
             if any(t == tag for tags in marks.values() for tag, _ in tags)]
    for text, colour in shown:
        w = load_font(20).getlength(text) + 16
        d.rounded_rectangle([lx, ly + 1, lx + w, ly + 27], radius=8, fill=colour)
        d.text((lx + w / 2, ly + 14), text, font=load_font(20), fill=(255, 255, 255), anchor="mm")
        lx += w + 12
    note = T.MAP_NOTE.format(open=len([p for p in m.pos if p not in closed]), closing=len(closing))
    d.text((MARGIN, ly + 48), note, font=small, fill=MUTED)
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def render_state(state: State, settings: Settings | dict[str, Any]) -> bytes:
    """The renderer the kernel calls for ``Picture(..., "map")``: the game's typed state and
    its settings (``ENGINE.settings_of``; as stored, plain JSON, they are read as typed first)."""
    return render_map_png(state, ENGINE.settings_of(settings) if isinstance(settings, dict) else settings)
