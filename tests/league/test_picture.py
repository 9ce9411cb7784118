"""The standings picture (/积分榜图): drawn outside the pure engine, Chinese
glyphs really rendered (not tofu boxes), the /积分榜图 command returns a Picture."""

from __future__ import annotations

import io
import os

from helpers_league import League, at, play_day
from PIL import Image, ImageChops

from plugins.gamekit.contract import Picture
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
    rows = standings_rows(lg.state, lg.cfg, 0)
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
    assert Image.open(io.BytesIO(render_state(lg.state, lg.cfg))).size[0] > 400


def test_standings_picture_command_returns_a_picture_effect():
    lg = _league()
    eff = lg.player(1, "standings_picture", at("1-2", "23:00"))
    assert len(eff) == 1 and isinstance(eff[0], Picture)
    assert eff[0].to == "reply" and eff[0].name == "standings"
    assert eff[0].caption.startswith("第一轮 积分榜（共 24 人，前 12 名晋级）")
    assert "1. " in eff[0].caption and "/积分榜" in eff[0].caption


def test_picture_has_win_counts_group_column_tie_notes_and_repeated_header_9_2():
    """§九.2 in the picture: 狼牌胜/神牌胜/民牌胜, 组 (multi-group round), a note where §九 broke a
    tie, and the header again every 30 rows (130 players: 5 header rows)."""
    from helpers_league import checkin_all, plain_sheet

    from plugins.league.picture import HEADER_EVERY

    lg = League(n=130)
    lg.host("open_day", at("1-2", "12:00"), date="1-2")
    a = lg.lineup("A")
    checkin_all(lg, at("1-2", "18:10"), skip=(a[5],))
    for key, hhmm in (("checkin.late", "18:30"), ("checkin.demote", "18:35"), ("checkin.seat", "18:50")):
        lg.timer(key, at("1-2", hhmm))
    for g in sorted(lg.day.lineups):
        lg.host("score", at("1-2", "21:00"), text=plain_sheet(lg.cfg, lg.day.board, g, 1, lg.lineup(g),
                                                              tokens={0: "全场最佳", 8: "败方最佳"}))
    rows = standings_rows(lg.state, lg.cfg, 0)
    head = rows[0]
    for col in ("组", "狼牌胜", "神牌胜", "民牌胜", "备注"):
        assert col in head
    by_seat = {r[1]: dict(zip(head, r)) for r in rows[1:]}
    note = head.index("备注")
    # ten 预言家 with MVP on 105 (+3 +2), separated only by registration order (§九.3 in round 1)
    assert [r[note] for r in rows[1:11]] == ["同分，按报名顺序（§九.3）"] * 10
    # on 103 the gods come before the villagers (§九.2): the first villager's note says so
    villagers = [r for r in rows[1:] if r[head.index("民牌胜")] == 1]
    assert villagers[0][note] == "同分，按神牌胜场（§九.2）"
    assert villagers[1][note] == "同分，按报名顺序（§九.3）"
    assert by_seat[a[5]]["备注"] == "降为替补" and by_seat[a[5]]["排名"] == ""
    assert {r[head.index("组")] for r in rows[1:] if r[0]} == set("ABCDEFGHIJ")
    png = render_state(lg.state, lg.cfg)
    img = Image.open(io.BytesIO(png)).convert("RGB")
    if os.environ.get("LEAGUE_PICTURE_OUT"):
        img.save(os.environ["LEAGUE_PICTURE_OUT"])
    # count the dark header bands: one every 30 players
    x = 30
    bands, inside = 0, False
    for y in range(img.height):
        dark = img.getpixel((x, y)) == (52, 58, 64)
        if dark and not inside:
            bands += 1
        inside = dark
    assert bands == (len(rows) - 1 + HEADER_EVERY - 1) // HEADER_EVERY == 5
