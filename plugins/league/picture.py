"""The standings picture (/积分榜图): a PNG table drawn with Pillow.

Not part of the pure engine: the engine returns the rows (``standings_rows``)
and a ``Picture("reply", "standings", caption)`` effect; the kernel calls the
renderer registered in ``GameKind.renderers`` (``render_state``) with the new
state, stores the PNG under ``<data_dir>/pictures/`` and sends it with the caption.

Chinese needs a CJK font. The font comes from the PyPI package
``pylopdf-fonts-zh-cn`` (Noto Sans SC, SIL OFL 1.1; a plain wheel, nothing is
downloaded at run time); ``LEAGUE_FONT`` (a font file path) overrides it, and
common system CJK fonts (Debian's fonts-noto-cjk, fonts-wqy-*) are used if the
package is missing.
"""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageDraw, ImageFont

import plugins.league.engine.texts as T
from plugins.kernel import pictures

from .engine import ENGINE, Settings, State, standings_rows
from .engine.state import GameStatus

COLUMNS = T.PICTURE_COLUMNS
HEADER_EVERY = 30  # the header row is drawn again before every 30 players
SIGNED = T.PICTURE_SIGNED

BG = (255, 255, 255)
INK = (33, 37, 41)
MUTED = (134, 142, 150)
HEAD_BG = (52, 58, 64)
HEAD_INK = (255, 255, 255)
STRIPE = (244, 246, 248)
ADVANCE_BG = (232, 245, 233)
ADVANCE_STRIPE = (220, 239, 222)
LINE = (211, 47, 47)


def font_path() -> str | None:
    """The CJK font file used (LEAGUE_FONT overrides), or None when none is installed."""
    return pictures.font_path("LEAGUE_FONT")


def load_font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return pictures.load_font(size, "LEAGUE_FONT")


def _cell(header: str, value: Any) -> str:
    if value is None or value == "":
        return ""
    if isinstance(value, float) or (isinstance(value, int) and not isinstance(value, bool)):
        x = round(float(value), 2)
        text = f"{x:g}"
        if header in SIGNED and x > 0:
            text = "+" + text
        return text
    return str(value)


def render_standings_png(rows: list[list[Any]], title: str, *, subtitle: str = "") -> bytes:
    """Draw a standings table. ``rows`` is ``standings_rows(state, settings, r)``: a header
    row first, then one row per player (column ``晋级`` = "是" marks the players
    above the advancement line). Returns PNG bytes."""
    header = list(rows[0]) if rows else []
    body = [list(r) for r in rows[1:]]
    keep = [i for i, h in enumerate(header) if h in COLUMNS] or list(range(len(header)))
    adv_col = header.index(T.PICTURE_ADVANCE) if T.PICTURE_ADVANCE in header else None
    cols = [header[i] for i in keep]
    cells = [[_cell(header[i], r[i]) for i in keep] for r in body]
    advancing = [adv_col is not None and r[adv_col] == T.CELL_YES for r in body]
    unranked = [r[0] in ("", None) for r in body] if header[:1] == [T.PICTURE_RANK] else [False] * len(body)

    f_title, f_head, f_body, f_small = load_font(30), load_font(20), load_font(20), load_font(16)
    pad_x, row_h, margin = 14, 34, 24

    def w(text: str, font: Any) -> float:
        return font.getlength(text) if text else 0.0

    widths = [max([w(c, f_head)] + [w(r[j], f_body) for r in cells]) + 2 * pad_x for j, c in enumerate(cols)]
    table_w = int(sum(widths))
    title_h = 50 + (28 if subtitle else 0)
    heads = max(1, (len(cells) + HEADER_EVERY - 1) // HEADER_EVERY)
    width = max(table_w, int(w(title, f_title)), int(w(subtitle, f_small))) + 2 * margin
    height = margin + title_h + row_h * (len(cells) + heads) + 40 + margin
    img = Image.new("RGB", (width, height), BG)
    d = ImageDraw.Draw(img)
    d.text((margin, margin), title, font=f_title, fill=INK)
    if subtitle:
        d.text((margin, margin + 46), subtitle, font=f_small, fill=MUTED)
    y: float = margin + title_h

    def header_row(y: float) -> float:
        d.rectangle([margin, y, margin + table_w, y + row_h], fill=HEAD_BG)
        x: float = margin
        for j, c in enumerate(cols):
            d.text((x + widths[j] / 2, y + row_h / 2), c, font=f_head, fill=HEAD_INK, anchor="mm")
            x += widths[j]
        return y + row_h

    last_adv = max((i for i, a in enumerate(advancing) if a), default=None)
    line_y: float | None = None
    for i, r in enumerate(cells):
        if i % HEADER_EVERY == 0:
            y = header_row(y)
        if advancing[i]:
            bg = ADVANCE_STRIPE if i % 2 else ADVANCE_BG
        else:
            bg = STRIPE if i % 2 else BG
        d.rectangle([margin, y, margin + table_w, y + row_h], fill=bg)
        x: float = margin
        for j, text in enumerate(r):
            ink = MUTED if unranked[i] else INK
            if cols[j] in T.PICTURE_LEFT:
                d.text((x + pad_x, y + row_h / 2), text, font=f_body, fill=ink, anchor="lm")
            else:
                d.text((x + widths[j] / 2, y + row_h / 2), text, font=f_body, fill=ink, anchor="mm")
            x += widths[j]
        y += row_h
        if last_adv is not None and i == last_adv and i < len(cells) - 1 and (i + 1) % HEADER_EVERY:
            line_y = y
    if line_y is not None:  # drawn last so the next row's background does not cover it
        d.line([margin, line_y, margin + table_w, line_y], fill=LINE, width=3)
    if last_adv is not None:
        note = T.PICTURE_NOTE_ADVANCE.format(n=last_adv + 1)
    else:
        note = T.PICTURE_NOTE
    d.text((margin, y + 12), note, font=f_small, fill=MUTED)
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def render_state(state: State, settings: Settings | dict[str, Any]) -> bytes:
    """The renderer the kernel calls for ``Picture(..., "standings")``: the current round.
    ``settings``: the game's typed settings (the registry's type still says a dict: a
    stored settings dict is read into the model)."""
    typed = ENGINE.settings_of(settings) if isinstance(settings, dict) else settings
    r = state.round
    table = standings_rows(state, typed, r)
    entered = sum(1 for g in state.games if g.round == r and g.status is GameStatus.OK)
    advance = typed.rounds[r].advance
    sub = T.PICTURE_SUBTITLE.format(n=len(table) - 1, games=entered) + (T.PICTURE_ADVANCE_LINE.format(n=advance) if advance else "")
    return render_standings_png(table, T.PICTURE_TITLE.format(round=state.rounds[r].name), subtitle=sub)
