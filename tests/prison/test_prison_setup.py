"""Start: dealing, private identities, the secret room mapping, love/hate (【游戏流程】<3>–<4>, （二）1)."""

from __future__ import annotations

import copy
import json

from plugins.gamekit.contract import Say, SetPhase
from plugins.prison.engine.engine import ENGINE
from plugins.prison.engine.model import SignupInfo


def test_deal_follows_random_numbers_against_a_drawn_key(game):
    """【游戏流程】<3、竞拍马甲>: the random number decides guard or prisoner (RULES.md: the
    first six by (number - key) mod 999 are guards)."""
    numbers = {str(i): {"number": n} for i, n in enumerate([5, 900, 17, 333, 640, 2, 77, 450, 999, 120, 61, 808], 1)}
    g = game({"signup": numbers}, fixed_deal=False)
    key = g.state.draw_key
    order = sorted(range(1, 13), key=lambda s: ((numbers[str(s)]["number"] - key) % 999, s))
    assert sorted(g.living("guard")) == sorted(order[:6])
    assert [g.p(s).number for s in range(1, 13)] == [numbers[str(s)]["number"] for s in range(1, 13)]


def test_without_numbers_the_rng_deals_every_role_once(game):
    g = game(fixed_deal=False, seed="other")
    roles = sorted(p.role for p in g.state.players.values())
    s = ENGINE.settings_of(ENGINE.check_settings({}))
    assert roles == sorted(r.id for r in s.guards + s.prisoners)
    assert len(g.living("guard")) == 6
    assert all(p.number is not None and 1 <= p.number <= 999 for p in g.state.players.values())


def test_each_player_gets_identity_privately_and_the_group_only_the_lists(game):
    """（一）: identities are private; 【游戏流程】<4>: the guard and prisoner lists are public."""
    g = game()
    private = {fx.to: fx.text for fx in g.log if isinstance(fx, Say) and isinstance(fx.to, int)}
    assert sorted(private) == list(range(1, 13))
    assert "你是【囚犯】杀人犯" in private[7] and "点杀" in private[7]
    assert "你是【看守】噪音看守" in private[1]
    assert "情侣：你与 9号马甲9 是情侣" in private[3]
    group = " ".join(fx.text for fx in g.log if isinstance(fx, Say) and fx.to == "group")
    assert "看守：1号马甲1" in group and "杀人犯" not in group and "噪音" not in group


def test_room_mapping_is_a_secret_bijection_told_only_to_hosts(game):
    """【导演职责】B导 2: the room mapping is drawn at random once per game and kept secret."""
    g = game()
    mapping = g.state.mapping
    assert sorted(mapping) == list("abcdef") and sorted(mapping.values()) == list("ABCDEF")
    shown = " ".join(f"{a}-{b}" for a, b in mapping.items())
    assert [fx.to for fx in g.log if isinstance(fx, Say) and shown in fx.text] == ["hosts"]
    maps = {tuple(game(seed=f"m{i}").state.mapping.values()) for i in range(6)}
    assert len(maps) > 1


def test_prep_phase_has_a_deadline_then_day_one(game):
    from datetime import timedelta

    from prison_helpers import T0

    g = game({"prep_minutes": 90})
    assert g.phase == "prep" and g.ends == T0 + timedelta(seconds=1, minutes=90)
    g.to_day1()
    assert g.state.phase == "day" and g.state.day == 1
    day = [fx for fx in g.log if isinstance(fx, SetPhase)][-1]
    assert day.key == "day" and day.ends_at.hour == 12  # 20:00 in Shanghai
    assert game({"prep_minutes": 0}).ends is None


def test_love_or_hate_one_player_not_oneself_2_1(game):
    """（二）1: each player names one player to love or to hate, never themselves."""
    g = game()
    assert g.reject(4, "love", seat=4) == "不能选择自己，请换一名玩家。"
    g.do(4, "love", seat=9)
    assert (g.p(4).love, g.p(4).hate) == (9, None)
    g.do(4, "hate", seat=12)
    assert (g.p(4).love, g.p(4).hate) == (None, 12)
    g.to_day1()
    reminder = [e.text for e in g.log if isinstance(e, Say) and e.to == "hosts" and "没有选择爱/恨" in e.text]
    assert len(reminder) == 1 and "4号马甲4" not in reminder[0] and "5号马甲5" in reminder[0]
    assert "开局前" in g.reject(5, "love", seat=9)
    assert g.reject(None, "love", seat=9) == "你不是本局玩家。"


def test_start_refuses_a_roster_that_does_not_fit_the_identity_file(game):
    import pytest

    from plugins.gamekit.contract import Rejected

    with pytest.raises(Rejected, match="需要 12 人，现在报名 11 人"):
        game(n=11, fixed_deal=False)


def test_the_stored_state_holds_no_copy_of_the_settings(game):
    """Rules read the settings from ctx.settings; the stored state keeps only what the game
    decided (the deal, the sign-up it used), never the settings themselves."""
    profiles = {1: {"nickname": "阿一", "number": 5}}
    chars = {"characters": [f"角色{i}" for i in range(1, 13)]}
    for g in (game(profiles=profiles), game(chars, profiles=profiles, fixed_deal=False)):
        stored = ENGINE.encode(g.state)
        assert "cfg" not in stored
        assert not {"guards", "prisoners", "points", "characters", "room_mode", "min_posts"} & set(stored)
        dumped = json.dumps(stored, ensure_ascii=False)
        assert all(r.name not in dumped for r in g.settings.guards + g.settings.prisoners)
    g = game(profiles=profiles)
    assert g.state.signup == {1: SignupInfo(nickname="阿一", number=5)}


def test_an_older_state_with_cfg_is_upgraded(game):
    """Version 1 kept the settings (with the sign-up merged in) under "cfg": decoded, it is
    today's state (the hooks, a command and a deadline read it so); the stored copy is unchanged."""
    g = game(profiles={2: {"nickname": "阿二"}})
    old = ENGINE.encode(g.state)
    old["cfg"] = {**g.stored, "signup": old.pop("signup")}
    old["version"] = 1
    kept = copy.deepcopy(old)
    upgraded = ENGINE.decode(old)
    assert old == kept, "reading an older state changed the stored copy"
    assert ENGINE.private_info(upgraded, 1, settings=g.settings) == ENGINE.private_info(g.state, 1, settings=g.settings)
    assert ENGINE.tables(upgraded, settings=g.settings) == ENGINE.tables(g.state, settings=g.settings)
    assert ENGINE.reveal(upgraded, settings=g.settings) == ENGINE.reveal(g.state, settings=g.settings)
    g.state = upgraded
    g.do(1, "love", seat=2)
    stored = ENGINE.encode(g.state)
    assert "cfg" not in stored and stored["version"] == ENGINE.STATE_VERSION == 2
    assert g.state.signup == {2: SignupInfo(nickname="阿二")}
    auction = game({"characters": [f"角色{i}" for i in range(1, 13)]}, fixed_deal=False)
    old = ENGINE.encode(auction.state)
    del old["signup"]  # a version-1 auction had none
    old["cfg"] = {**auction.stored, "signup": {}}
    old["version"] = 1
    assert "cfg" not in ENGINE.upgrade(old) and "signup" not in ENGINE.upgrade(old)
    auction.state = ENGINE.decode(old)
    auction.do(1, "bid", text="第一志愿=角色1:1")
    stored = ENGINE.encode(auction.state)
    assert "cfg" not in stored and stored["signup"] == {} and auction.state.phase == "auction"
