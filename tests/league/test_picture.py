"""The standings picture (issue 6 item 9): drawn outside the pure engine, Chinese
glyphs really rendered (not tofu boxes), the /积分榜图 command returns a Picture."""

from __future__ import annotations

import io
import os

from helpers_league import League, at, play_day
from PIL import Image, ImageChops

from plugins.kernel.engine import Picture
from plugins.league.engine import standings_rows
from plugins.league.picture import (
    font_path,
    load_font,
    render_standings_png,
    render_state,
)

SMALL = {"options": {"main_draw": 24},
         "rounds": [{"key": "r1", "name": "第一轮", "players": 24, "groups": 2, "advance": 12,
                     "double_games": [], "days": [{"label": "d", "board": "标准场", "games": 1}]}]}


def _glyph(ch: str) -> bytes:
    font = load_font(40)
    img = Image.new("L", (60, 60), 0)
    from PIL import ImageDraw

    ImageDraw.Draw(img).text((10, 5), ch, font=font, fill=255)
    return img.tobytes()


def test_a_cjk_font_is_installed_and_draws_real_glyphs():
    assert font_path() is not None, "no CJK font: install pylopdf-fonts-zh-cn (see pyproject)"
    notdef = _glyph("\U0010fffd")  # a private-use code point no font has: the .notdef box
    win, lose, seat = _glyph("胜"), _glyph("负"), _glyph("狼")
    assert any(win) and any(lose)  # something was drawn
    assert len({win, lose, seat, notdef}) == 4  # each character its own shape, none the tofu box


def _league() -> League:
    lg = League(n=28, settings=SMALL)
    play_day(lg, "1-2", tokens_for=lambda g, no, lineup: {0: "全场最佳", 8: "败方最佳"})
    return lg


def test_standings_png_renders_the_rows_with_chinese_text():
    lg = _league()
    rows = standings_rows(lg.state, 0)
    png = render_standings_png(rows, "第一轮 积分榜")
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG" and img.height > 34 * len(rows) and img.width > 400
    if os.environ.get("LEAGUE_PICTURE_OUT"):  # to look at it: LEAGUE_PICTURE_OUT=/tmp/x.png pytest ...
        with open(os.environ["LEAGUE_PICTURE_OUT"], "wb") as fh:
            fh.write(png)
    # a different title draws different pixels in the title band only
    other = Image.open(io.BytesIO(render_standings_png(rows, "第二轮 积分榜")))
    assert other.size == img.size
    diff = ImageChops.difference(img.convert("RGB"), other.convert("RGB")).getbbox()
    assert diff is not None and diff[3] < 80
    # the renderer the kernel calls draws the current round from the state
    assert Image.open(io.BytesIO(render_state(lg.state))).size[0] > 400


def test_standings_picture_command_returns_a_picture_effect():
    lg = _league()
    eff = lg.player(1, "standings_picture", at("1-2", "23:00"))
    assert len(eff) == 1 and isinstance(eff[0], Picture)
    assert eff[0].to == "reply" and eff[0].name == "standings"
    assert eff[0].caption.startswith("第一轮 积分榜（共 24 人，前 12 名晋级）")
    assert "1. " in eff[0].caption and "/积分榜" in eff[0].caption
