"""§十二.5: an egg brought back because the white slip that killed it was never made good
keeps its life but not its 烟花 (the 同归 a post on it causes) for the rest of the game."""

from __future__ import annotations

from roles_helpers import at_round, post_in_round, quiet_round

from plugins.mafia88.engine import ENGINE


def white_slip_on(g, author: int, target: int) -> None:
    r = g.state.round
    g.host("set_round", round=r, votes=1, out=0, posts="联1")
    g.cmd(author, "white", code=g.p(author).code, target=target)


def test_an_egg_revived_after_an_unmade_white_slip_loses_its_fireworks_section_12_5():
    g = at_round(2)
    a, b = g.seats_of("lianhe_sha")
    egg = g.seats_of("du_dan")[0]
    white_slip_on(g, a, egg)
    g.fire_due(g.timers["publish:2"])
    assert not g.p(egg).alive and not g.p(a).alive  # §五白5: 接任意贴同归
    g.fire_due(g.timers["white:2"])  # 12:00 next day, no text: the slip is void
    assert g.p(egg).alive and not g.p(a).alive  # §十二.5: 接帖者…予以复活
    told = "\n".join(g.says(egg))
    assert "烟花功能失效" in told and "§十二.5" in told
    assert "烟花功能失效" in ENGINE.private_info(g.state, egg, settings=g.settings)  # /我的身份
    assert any("烟花功能失效" in t for t in g.says("hosts"))
    assert not any("烟花" in t for t in g.says("group"))
    quiet_round(g)
    assert g.state.round == 3
    post_in_round(g, b, egg)  # §十二.5 但烟花功能失效: the post only kills
    g.fire_due(g.timers["publish:3"])
    assert not g.p(egg).alive and g.p(b).alive
    assert any("烟花" in line and "§十二.5" in line for t in g.says("hosts") for line in t.splitlines() if line.startswith("1. "))


def test_a_disguised_egg_is_not_told_what_it_is_section_12_5_and_5_white_7():
    g = at_round(2)
    a, b = g.seats_of("lianhe_sha")
    egg = g.seats_of("an_dan")[0]
    white_slip_on(g, a, egg)
    g.fire_due(g.timers["publish:2"])
    g.fire_due(g.timers["white:2"])
    assert g.p(egg).alive
    assert not any("烟花" in t for t in g.says(egg))
    assert "烟花" not in ENGINE.private_info(g.state, egg, settings=g.settings)
    quiet_round(g)
    post_in_round(g, b, egg)
    g.fire_due(g.timers["publish:3"])
    assert not g.p(egg).alive and g.p(b).alive


def test_an_egg_whose_white_slip_was_made_good_is_not_revived_section_12_4():
    from mafia88_helpers import essay

    g = at_round(2)
    a = g.seats_of("lianhe_sha")[0]
    egg = g.seats_of("du_dan")[0]
    white_slip_on(g, a, egg)
    g.fire_due(g.timers["publish:2"])
    g.cmd(a, "rewrite", post="1", text=essay(1250))
    g.cmd(a, "done")
    g.fire_due(g.timers["white:2"])
    assert not g.p(egg).alive and not g.p(egg).fireworks_spent
