"""Nights: rooms, pairing, the relay interrogation, room groups, deaths (【游戏流程】<6>)."""

from __future__ import annotations

import pytest

from plugins.gamekit.args import TextIn
from plugins.gamekit.contract import Command, Eliminate, GiveCard, GroupAdmin, Ignored, Say
from plugins.prison.engine.engine import ENGINE
from plugins.prison.engine.model import Kill

from prison_helpers import LOVER_G, LOVER_P, MURDERER, THIEF


def says(fx, to):
    return [e.text for e in fx if isinstance(e, Say) and e.to == to]


def to_rooms(g):
    g.to_day1()
    g.elect()
    assert g.state.phase == "rooms"


def test_rooms_first_come_first_served_and_a_taken_room_is_refused(game):
    """【游戏流程】<6>: guards pick a–f, prisoners A–F; a taken room is refused."""
    g = game()
    to_rooms(g)
    g.do(2, "room", room="c")
    msg = g.reject(3, "room", room="c")
    assert msg.startswith("c 号房已被选走，请换一间：") and "a b d e f" in msg
    assert "没有这个房间" in g.reject(3, "room", room="z")
    g.do(8, "room", room="c")  # a prisoner's 'c' is room C
    assert g.state.rooms == {"c": 2, "C": 8}
    g.do(2, "room", room="d")  # moving frees the old room
    assert g.state.rooms == {"d": 2, "C": 8}


def test_unpicked_players_get_a_random_free_room_at_the_deadline(game):
    g = game()
    to_rooms(g)
    g.do(1, "room", room="f")
    g.advance()
    rooms = g.state.nights[-1].rooms
    assert rooms["f"] == 1
    assert sorted(rooms.values()) == list(range(1, 13))
    assert len(g.state.nights[-1].pairs) == 6


def test_pairs_follow_the_secret_mapping_and_unmatched_players_are_bye(game):
    """【用语定义】轮空: a guard/prisoner who meets nobody."""
    g = game()
    to_rooms(g)
    g.advance()
    g.talk()
    g.thief()
    g.advance()  # murderer kills its partner guard
    g.advance()  # day 2 closes without votes
    assert len(g.living("guard")) == 5
    fx = g.advance()  # rooms close: 5 guards, 6 prisoners
    night = g.state.nights[-1]
    for pair in night.pairs:
        assert g.state.mapping[pair.g_room] == pair.p_room
        assert night.rooms[pair.g_room] == pair.guard and night.rooms[pair.p_room] == pair.prisoner
    assert len(night.pairs) == 5 and len(night.byes) == 1
    bye = night.byes[0]
    assert any("轮空" in t for t in says(fx, bye))
    assert g.reject(bye, "relay", text="有人吗", images=0) == "你今晚轮空，没有审讯对象，消息没有转发。"


def test_relay_passes_only_the_label_and_text_and_keeps_the_transcript(game):
    """Relay rooms: the partner sees 【看守】/【囚犯】 and the text, nothing else."""
    g = game()
    to_rooms(g)
    g.rooms([(1, 7)])
    fx = g.do(1, "relay", text="你是谁？", images=0)
    assert fx == [Say(7, "【看守】你是谁？")]
    fx = g.do(7, "relay", text="冤枉啊", images=2)
    assert fx == [Say(1, "【囚犯】冤枉啊（图片已略去）")]
    assert g.reject(7, "relay", text="", images=1) == "图片和表情无法转发，请改发文字。"
    lines = g.state.nights[-1].pairs[0].lines
    assert [(x.from_, x.text) for x in lines] == [("【看守】", "你是谁？"), ("【囚犯】", "冤枉啊（图片已略去）")]
    assert "10001" not in str(fx) and "马甲1" not in str(fx)


def test_relay_outside_the_window_is_refused(game):
    """Bad input: a relay line sent outside the window is refused."""
    g = game()
    g.to_day1()
    assert g.reject(1, "relay", text="hi", images=0).startswith("现在不是审讯时间，消息没有转发。")


def test_murderer_partner_guard_dies_when_the_window_closes(game):
    """【游戏流程】<6>: the murderer's guard is killed when the interrogation ends."""
    g = game()
    to_rooms(g)
    g.rooms([(4, MURDERER)])
    g.talk()
    g.thief()
    assert g.p(4).status == "alive"
    fx = g.advance()
    assert Eliminate(4, "第1夜被杀人犯杀死") in fx
    assert any("昨夜死亡：4号马甲4" in t for t in says(fx, "group"))
    assert g.state.nights[-1].kill == Kill(by=MURDERER, victim=4, how="杀人")


def test_point_kill_kills_any_guard_instead_important_1(game):
    """【重要规则公示】1 / 【用语定义】点杀: the murderer may kill any guard instead, once."""
    g = game()
    to_rooms(g)
    assert g.reject(8, "point_kill", seat=5) == "你没有点杀技能。"
    assert g.reject(MURDERER, "point_kill", seat=8) == "只能点杀监狱中存活的看守。"
    g.do(MURDERER, "point_kill", seat=5)
    g.rooms([(4, MURDERER)])
    g.talk()
    g.thief()
    g.advance()
    assert g.p(5).status == "dead" and g.p(4).status == "alive"
    g.advance()
    assert g.reject(MURDERER, "point_kill", seat=6) == "点杀已经用完了。"


def test_spare_means_no_kill_tonight(game):
    """【游戏流程】<6>: '杀人犯不杀人' is an exception when the identity allows it."""
    g = game()
    to_rooms(g)
    g.do(MURDERER, "spare")
    g.rooms([(4, MURDERER)])
    g.talk()
    g.thief()
    g.advance()
    assert len(g.living()) == 12
    assert g.reject(8, "spare") == "你不能放弃杀人。"


def test_lovers_share_fate(game):
    """【重要规则公示】5: lovers — when one dies the other dies too."""
    g = game()
    to_rooms(g)
    g.rooms([(LOVER_G, MURDERER)])
    g.talk()
    g.thief()
    fx = g.advance()
    assert g.p(LOVER_G).status == "dead" and g.p(LOVER_P).status == "dead"
    assert [e.seat for e in fx if isinstance(e, Eliminate)] == [LOVER_G, LOVER_P]


def test_noise_reaches_the_partner_and_is_limited(game):
    """【补充规则】噪音: a guard's noise during interrogation."""
    g = game()
    to_rooms(g)
    assert "只能在夜晚审讯时使用" in g.reject(1, "noise")
    g.rooms([(1, 12)])
    fx = g.do(1, "noise")
    assert any(t.startswith("【噪音】") for t in says(fx, 12))
    g.do(1, "noise")
    assert g.reject(1, "noise") == "噪音已经用完了。"
    assert g.reject(2, "noise") == "你没有噪音技能。"


def test_silent_player_in_the_room_gets_a_yellow_card_3_1(game):
    """【规则判罚】（三）1: a player who says nothing in their room."""
    g = game()
    to_rooms(g)
    g.rooms([(1, 12)])
    g.do(1, "relay", text="说话", images=0)
    g.thief()
    fx = g.advance()
    carded = sorted(e.seat for e in fx if isinstance(e, GiveCard))
    assert 12 in carded and 1 not in carded
    assert all("（三）1" in e.reason for e in fx if isinstance(e, GiveCard))


def test_compulsory_ability_not_used_gets_a_yellow_card_3_3(game):
    """【规则判罚】（三）3: the thief must use 偷看 every night."""
    g = game()
    to_rooms(g)
    g.advance()
    g.talk()
    fx = g.advance()
    assert [(e.seat, "（三）3" in e.reason) for e in fx if isinstance(e, GiveCard)] == [(THIEF, True)]


def test_generic_ability_goes_to_hosts_and_host_settles_it(game):
    """A generic ability of the identity file: the player submits it, a host settles it."""
    g = game()
    to_rooms(g)
    assert "只能在白天讨论日使用" in g.reject(4, "ability", ability="巡逻", text="3")
    fx = g.do(THIEF, "ability", ability="偷看", text="看 1 号")
    assert any("/结算 1" in t for t in says(fx, "hosts"))
    assert g.reject(3, "settle", host=False, id=1, text="x") == "只有导演可以这样做。"  # the table's who="host"
    fx = g.do(None, "settle", host=True, id=1, text="1 号在 c 号房")
    assert says(fx, THIEF) == ["你的技能「偷看」（#1）结算：1 号在 c 号房"]
    assert "已经结算过了" in g.reject(None, "settle", host=True, id=1, text="y")
    assert g.reject(5, "ability", ability="飞行", text="") == "你没有技能「飞行」。"
    # a designed ability is not sent to the hosts: its own command resolves it
    assert g.reject(2, "ability", ability="搜身", text="3") == "「搜身」请用 /查验 <玩家> 发动。"
    g.rooms([(1, MURDERER)])
    g.talk()
    g.advance()  # day 2: 巡逻 twice, then it is used up
    g.do(4, "ability", ability="巡逻", text="3")
    g.do(4, "ability", ability="巡逻", text="5")
    assert g.reject(4, "ability", ability="巡逻", text="6") == "「巡逻」已经用完了。"


ROOMS = ("9001", "9002", "9003", "9004", "9005", "9006")


def test_group_mode_tells_each_player_the_room_group(game):
    """Group rooms: rooms are the linked chats labelled with their group number;
    each player is told tonight's group privately."""
    g = game({"room_mode": "group"}, chats=("联谊",) + ROOMS)
    to_rooms(g)
    fx = g.rooms([(1, 7)])
    pairs = g.state.nights[-1].pairs
    assert sorted(p.group for p in pairs) == list(ROOMS)  # "联谊" is not a room
    assert any(f"今晚你的审讯群：{pairs[0].group}" in t for t in says(fx, 1))
    assert g.reject(1, "relay", text="hi", images=0) == "本局审讯在房间群进行，私聊消息不会转发。"
    g.thief()
    g.advance()
    assert g.p(1).status == "dead"


def test_group_mode_night_message_offers_the_alt_account(game):
    """【版杀前言】4 / 【游戏流程】<6> "玩家须用自己的qq小号申请入群": the private night message says a
    room group may be joined with the 小号 registered by /小号, not only with the sign-up QQ."""
    g = game({"room_mode": "group"}, chats=ROOMS)
    to_rooms(g)
    fx = g.rooms([(1, 7)])
    for seat in (1, 7):
        text = next(t for t in says(fx, seat) if "今晚你的审讯群" in t)
        assert "小号" in text and "/小号" in text


def test_group_mode_room_admin_effects(game):
    """Window opens: cards 看守/囚犯 and unmute; closes: mute + 墙壁升起了; next night: kick
    last night's occupants. Too few groups: the hosts are told; no admin effect for the rest."""
    g = game({"room_mode": "group"}, chats=ROOMS[:2])
    to_rooms(g)
    fx = g.rooms([(1, 7)])
    pairs = g.state.nights[-1].pairs
    first = pairs[0].group
    assert first in ROOMS[:2] and pairs[2].group is None
    admin = [e for e in fx if isinstance(e, GroupAdmin)]
    assert not any(e.action == "set_card" for e in admin)  # nobody is inside yet: QQ refuses cards
    assert ENGINE.joined(g.state, first, 1, settings=g.settings) == [GroupAdmin(first, "set_card", 1, "看守")]
    assert ENGINE.joined(g.state, first, 7, settings=g.settings) == [GroupAdmin(first, "set_card", 7, "囚犯")]
    assert ENGINE.joined(g.state, first, 2, settings=g.settings) == []  # not tonight's occupant
    assert [e.chat for e in admin if e.action == "unmute_all"] == [p.group for p in pairs[:2]]
    assert not any(e.action == "kick" for e in admin)
    assert any("房间群不够" in t for t in says(fx, "hosts"))
    assert any("今晚房间群不够" in t and "私聊转发" in t for t in says(fx, pairs[2].guard))
    # that pair falls back to the relay; a pair with a room group does not
    relayed = g.do(pairs[2].guard, "relay", text="你好", images=0)
    assert says(relayed, pairs[2].prisoner) == ["【看守】你好"]
    assert g.reject(1, "relay", text="hi", images=0) == "本局审讯在房间群进行，私聊消息不会转发。"
    g.thief()
    fx = g.advance()
    assert GroupAdmin(first, "mute_all") in fx and f"chat:{first}" in [e.to for e in fx if isinstance(e, Say)]
    assert any(t == "墙壁升起了。" for t in says(fx, f"chat:{first}"))
    for s in g.living("guard"):
        g.do(s, "abstain")
    g.advance()
    fx = g.rooms([])
    kicked = sorted(e.seat for e in fx if isinstance(e, GroupAdmin) and e.action == "kick")
    new = {p.group: (p.guard, p.prisoner) for p in g.state.nights[-1].pairs}
    expect = sorted(s for p in pairs[:2] for s in (p.guard, p.prisoner) if s not in new.get(p.group, ()))
    assert kicked == expect and 1 in kicked  # the dead guard of night 1 is removed too


def test_group_mode_only_tonights_two_players_may_join_and_lines_are_kept(game):
    """Bad input: a join request from the wrong person is refused (may_join);
    room lines (group text with actor.chat = the room's label) are kept."""
    g = game({"room_mode": "group"}, chats=ROOMS)
    to_rooms(g)
    assert ENGINE.may_join(g.state, ROOMS[0], 1, settings=g.settings) is False  # not during room choice
    g.rooms([(1, 7)])
    group = g.state.nights[-1].pairs[0].group
    assert ENGINE.may_join(g.state, group, 1, settings=g.settings) and ENGINE.may_join(g.state, group, 7, settings=g.settings)
    assert not ENGINE.may_join(g.state, group, 2, settings=g.settings) and not ENGINE.may_join(g.state, group, None, settings=g.settings)
    assert not ENGINE.may_join(g.state, "9999", 1, settings=g.settings)  # a room group, not tonight's
    # a linked chat that is not a room (label not a group number): players yes, strangers no
    assert ENGINE.may_join(g.state, "联谊", 5, settings=g.settings) is None and ENGINE.may_join(g.state, "联谊", None, settings=g.settings) is None  # left to its admins
    out = ENGINE.apply(g.state, g.actor(1, False, chat=group), Command("post", TextIn(text="报上名来")), g.ctx())
    g._take(out)
    other = [p.group for p in g.state.nights[-1].pairs if p.group != group][0]
    with pytest.raises(Ignored):  # a line in a room that is not this player's tonight
        ENGINE.apply(g.state, g.actor(1, False, chat=other), Command("post", TextIn(text="x")), g.ctx())
    g.thief()
    fx = g.advance()
    lines = g.state.nights[-1].pairs[0].lines
    assert [(x.from_, x.text) for x in lines] == [("【看守】", "报上名来")]
    carded = sorted(e.seat for e in fx if isinstance(e, GiveCard))
    assert 1 not in carded and 7 in carded  # (三)1 applies once room lines are reported
    assert not ENGINE.may_join(g.state, group, 1, settings=g.settings)


def test_relay_to_a_partner_put_out_is_refused(game):
    g = game()
    to_rooms(g)
    g.rooms([(1, 12)])
    g.do(None, "kernel.out", host=True, seat=12, reason="红牌")
    assert g.reject(1, "relay", text="喂", images=0) == "对方已不在审讯室，消息没有转发。"
