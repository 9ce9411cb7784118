"""The map: layout and adjacency in content/map.toml, a picture in
every morning post and on /地图."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from plugins.gamekit.contract import Picture, Rejected
from plugins.royale.engine import ENGINE
from plugins.royale.engine.content import CONTENT
from plugins.royale.engine.rules_cycle import map_layout
from plugins.royale.picture import font_path, render_state

from royale_helpers import Game


def test_every_place_on_the_grid_adjacency_symmetric():
    cfg = ENGINE.settings_of(ENGINE.check_settings({}))
    entries = {e.name: e for e in cfg.map.places}
    assert sorted(entries) == sorted(cfg.places.names)
    for name, e in entries.items():
        assert e.adjacent, name
        for other in e.adjacent:
            assert name in entries[other].adjacent


def test_map_mistakes_are_named():
    d = CONTENT.defaults()
    places = [dict(e) for e in d["map"]["places"]]
    places[0]["adjacent"] = ["火星"]
    places[1]["x"] = 99
    with pytest.raises(Rejected) as exc:
        ENGINE.check_settings({"map": {"places": places[:-1]}})
    msg = str(exc.value)
    assert "「火星」不在地图上" in msg and "位置 x、y 应在" in msg and "地图缺少地点：ZLD" in msg


def test_morning_post_and_map_command_carry_the_picture():
    g = Game(3, seed="map")
    pics = [e for e in g.all_effects if isinstance(e, Picture)]
    assert [(p.to, p.name) for p in pics] == [("group", "map")]
    out = g.cmd(1, "map")
    assert [(e.to, e.name) for e in out.effects] == [("reply", "map")]


def test_picture_is_a_png_phone_sized():
    g = Game(3, seed="map2")
    g.born({1: "果园", 2: "果园", 3: "果园"})
    g.advance()
    png = render_state(g.state, g.cfg)
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG" and 900 <= img.width <= 1600 and img.height < 1200
    assert font_path() is not None  # Chinese place names need a CJK font


def test_closed_and_closing_places_are_drawn_differently():
    """Closed places crossed out (grey), tonight's closures shaded (orange)."""
    from plugins.royale.picture import CELL_H, CELL_W, CLOSED_BG, CLOSING_BG, GAP, MARGIN

    g = Game(3, seed="map3")
    g.born({1: "雾雨小镇", 2: "雾雨小镇", 3: "雾雨小镇"})
    g.advance()
    img = Image.open(io.BytesIO(render_state(g.state, g.cfg))).convert("RGB")
    pos = map_layout(g.cfg).pos  # the board comes from the game's settings, not a copy in the state
    assert "map" not in ENGINE.encode(g.state)

    def corner(name):
        x, y = pos[name]
        return img.getpixel((MARGIN + x * (CELL_W + GAP) + 12, MARGIN + 70 + y * (CELL_H + GAP) + 30))

    closed, closing = g.state.closed[0], g.state.closing[0]
    assert corner(closed) == CLOSED_BG
    assert corner(closing) in (CLOSING_BG, (230, 130, 30))
    assert corner("果园") not in (CLOSED_BG, CLOSING_BG) or "果园" in g.state.closing + g.state.closed


def test_the_picture_follows_the_hosts_board():
    """A host's own board (settings) is what the picture draws; a state stored before versioning
    that still carries its own copy of a (wider) layout is read without it: the settings say it."""
    g = Game(3, seed="map4")
    normal = Image.open(io.BytesIO(render_state(g.state, g.cfg))).size
    hosts = ENGINE.settings_of(ENGINE.check_settings({"map": {"columns": g.cfg.map.columns + 1}}))
    theirs = Image.open(io.BytesIO(render_state(g.state, hosts))).size
    layout = map_layout(g.cfg)
    copy = {"columns": layout.columns + 1, "rows": layout.rows, "safe": layout.safe,
            "pos": {name: list(xy) for name, xy in layout.pos.items()}}
    older = ENGINE.decode({**ENGINE.encode(g.state), "map": copy, "version": 0})
    kept = Image.open(io.BytesIO(render_state(older, g.cfg))).size
    assert theirs[0] > normal[0] and kept == normal
