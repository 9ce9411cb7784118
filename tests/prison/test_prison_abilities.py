"""Designed abilities the bot resolves itself: 查验, 保护, 封锁, 窃听, 换房, 传话, 投票加权 — each on its
own, then together in the order RULES.md gives ("Designed abilities").

The seed leaves the identities to the director: 【身份与胜利条件】（四）2 "每次游戏都将由监狱长设计一套
身份", （一）1(2) "看守一般是拥有技能的"; the murderer's partner dies when the interrogation ends
"（特殊能力如指杀或杀人犯不杀人除外）" (【游戏流程】<6>); the director records every use
(【导演职责】A导 9); the counting of votes is the director's (【游戏流程】<5>, 【重要规则公示】4).

Sample seats (content/sample12.toml, the helper's fixed deal): 1 噪音, 2 搜身 (查验 身份, 1 次),
3↔9 lovers, 4 巡逻 (generic), 5 监听 (窃听, 2 次), 6 守护 (保护 看守, 可选自己, 2 次) and 威望 (投票加权,
1 次), 7 murderer, 8 递纸条 (传话, 2 次), 10 偷看 (generic), 11 调包 (换房 囚犯, 1 次), 12 断电 (封锁, 2 次).
"""

from __future__ import annotations

import copy

import pytest

from plugins.gamekit.contract import Eliminate, GiveCard, Say
from plugins.gamekit.datafile import load_toml
from plugins.prison.engine.content import CONTENT_DIR
from plugins.prison.engine.engine import ENGINE

from prison_helpers import LOVER_G, LOVER_P, MURDERER

SAMPLE = load_toml(CONTENT_DIR / "sample12.toml")
SECRET_WORDS = ("搜身", "守护", "断电", "监听", "调包", "递纸条", "威望", "封锁", "保护", "查验", "窃听", "传话", "加权")


def says(fx, to):
    return [e.text for e in fx if isinstance(e, Say) and e.to == to]


def roles(**abilities) -> dict:
    """The sample's identities with the abilities of some roles (by id) replaced."""
    out = {"guards": copy.deepcopy(SAMPLE["guards"]), "prisoners": copy.deepcopy(SAMPLE["prisoners"])}
    for r in out["guards"] + out["prisoners"]:
        if r["id"] in abilities:
            r["abilities"] = abilities[r["id"]]
    return out


def to_rooms(g) -> None:
    g.to_day1()
    g.elect(chief=1, leader=MURDERER)
    assert g.state.phase == "rooms"


def night(g, pairs, *, talk: bool = True):
    """Rooms for ``pairs`` (guard, prisoner), everyone talks, the thief peeks; the window closes.
    Returns (the opening's effects, the close's effects)."""
    opening = g.rooms(pairs)
    if talk:
        g.talk()
    g.thief()
    return opening, g.advance()


def no_group_secret(fx) -> None:
    """Secret aliases: nothing of the abilities reaches the group."""
    for text in says(fx, "group"):
        assert not any(w in text for w in SECRET_WORDS), text


# ---- 查验 -------------------------------------------------------------------------------


def test_check_at_night_tells_the_identity_at_dawn_and_spends_its_use(game):
    """（四）2 designed 查验 (搜身, learn = "role", 1 use): queued in the night, answered when the window closes."""
    g = game()
    to_rooms(g)
    fx = g.do(2, "check", seat=9)
    assert says(fx, "reply") == ["已记下「搜身」：9号马甲9，审讯结束时结算，天亮前私聊告诉你结果；之前可以改。"]
    fx = g.do(2, "check", seat=MURDERER)  # changed: replaces, no extra use
    assert "（已替换你之前的选择）" in says(fx, "reply")[0]
    assert "今晚已选：「搜身」7号马甲7" in ENGINE.private_info(g.state, 2, settings=g.settings)
    assert g.p(2).uses == {}
    _, fx = night(g, [(1, MURDERER)])
    assert "「搜身」：7号马甲7 是 【囚犯】杀人犯（故意杀人罪）。" in says(fx, 2)
    assert g.p(2).uses == {"check": 1}
    assert not any("查验" in t or "有人" in t for t in says(fx, MURDERER))  # tell_target not set
    use = g.state.log[-1]
    assert (use.ability, use.seat, use.target, use.result) == ("搜身", 2, "7号马甲7", "【囚犯】杀人犯（故意杀人罪）")
    assert any("· 搜身：2号马甲2 → 7号马甲7：【囚犯】杀人犯（故意杀人罪）" in t for t in says(fx, "hosts"))
    no_group_secret(fx)
    g.advance()  # day 2 closes
    assert g.reject(2, "check", seat=8) == "「搜身」已经用完了。"


def test_check_by_day_answers_at_once_with_the_camp_and_tells_the_target(game):
    """learn = "camp": 看守, 杀人犯阵营 (the murderer's side, （三）1) or another prisoner; by day at once, once a day."""
    g = game(roles(search=[{"kind": "check", "when": "day", "learn": "camp", "tell_target": True}]))
    g.to_day1()
    assert g.reject(2, "check", seat=2) == "「查验」不能选自己，请换一名玩家。"
    fx = g.do(2, "check", seat=8)
    assert says(fx, "reply") == ["「查验」：8号马甲8 是 杀人犯阵营。"]
    assert says(fx, 8) == ["有人查验了你。"]
    assert g.reject(2, "check", seat=9) == "「查验」每个白天或夜晚只能用一次。"
    g.elect()
    assert g.reject(2, "check", seat=9) == "「查验」只能在白天讨论日使用。"
    night(g, [(1, MURDERER)])
    assert says(g.do(2, "check", seat=9), "reply") == ["「查验」：9号马甲9 是 囚犯，不属于杀人犯阵营。"]
    assert g.p(2).uses == {"check": 2}


def test_check_target_rules_and_who_has_it(game):
    g = game(roles(search=[{"kind": "check", "target": "prisoner", "self": True}]))
    to_rooms(g)
    assert g.reject(3, "check", seat=7) == "你没有查验技能。"
    assert g.reject(2, "check", seat=4) == "「查验」只能选囚犯。"
    assert g.reject(2, "check", seat=2) == "「查验」只能选囚犯。"  # self allowed, but 2 is a guard
    g.do(2, "check", seat=11)


# ---- 保护 -------------------------------------------------------------------------------


def test_protect_saves_the_murder_target_and_tells_the_protector(game):
    """保护: the murderer's partner guard is not killed tonight (【游戏流程】<6> 除外)."""
    g = game()
    to_rooms(g)
    assert g.reject(6, "protect", seat=9) == "「守护」只能选看守。"
    g.do(6, "protect", seat=1)
    _, fx = night(g, [(1, MURDERER)])
    assert g.p(1).status == "alive" and not any(isinstance(e, Eliminate) for e in fx)
    assert "「守护」：1号马甲1 昨夜遭到袭击，被你保护下来了。" in says(fx, 6)
    assert not says(fx, 1)[1:]  # only the wall rises: tell_target not set
    assert any("昨夜死亡：无" in t for t in says(fx, "group"))
    assert g.state.nights[-1].kill is None
    assert ("杀人", 7, "1号马甲1", "未遂（目标被保护）") in [(u.ability, u.seat, u.target, u.result) for u in g.state.log]
    assert g.p(6).uses == {"protect": 1}
    no_group_secret(fx)


def test_a_protected_point_kill_target_lives_and_the_point_kill_is_spent(game):
    """【重要规则公示】1 点杀 against 保护: nobody dies; the 点杀 was made, so it is used up."""
    g = game()
    to_rooms(g)
    g.do(MURDERER, "point_kill", seat=5)
    g.do(6, "protect", seat=5)
    night(g, [(1, MURDERER)])
    assert g.p(5).status == "alive" and g.p(1).status == "alive"
    assert g.p(MURDERER).uses == {"point_kill": 1}


def test_protecting_a_lover_keeps_both_lovers_alive(game):
    """情侣 (【重要规则公示】5): the protected guard is not killed, so nobody dies of love."""
    g = game(roles(keeper=[{"kind": "protect", "tell_target": True}]))
    to_rooms(g)
    g.do(6, "protect", seat=LOVER_G)
    _, fx = night(g, [(LOVER_G, MURDERER)])
    assert g.p(LOVER_G).status == "alive" and g.p(LOVER_P).status == "alive"
    assert "昨夜你遭到袭击，但有人保护了你。" in says(fx, LOVER_G)


def test_an_unneeded_protection_is_spent_and_told_only_when_set(game):
    g = game(roles(keeper=[{"kind": "protect", "tell_target": True, "self": True}]))
    to_rooms(g)
    g.do(6, "protect", seat=6)
    _, fx = night(g, [(1, MURDERER)])
    assert g.p(1).status == "dead"
    assert "昨夜有人保护了你。" in says(fx, 6)
    assert g.p(6).uses == {"protect": 1}


# ---- 封锁 -------------------------------------------------------------------------------


def test_a_blocked_murderer_kills_nobody(game):
    """封锁 on the murderer: the kill fails tonight, the murderer is told why."""
    g = game()
    to_rooms(g)
    g.do(12, "block", seat=MURDERER)
    _, fx = night(g, [(1, MURDERER)])
    assert g.p(1).status == "alive"
    assert "你今晚被封锁了，没有杀死任何人。" in says(fx, MURDERER)
    assert any("昨夜死亡：无" in t for t in says(fx, "group"))
    assert g.p(12).uses == {"block": 1}
    assert any("断电：12号马甲12 → 7号马甲7：已生效" in t for t in says(fx, "hosts"))
    no_group_secret(fx)


def test_a_blocked_point_kill_is_spent(game):
    g = game()
    to_rooms(g)
    g.do(MURDERER, "point_kill", seat=5)
    g.do(12, "block", seat=MURDERER)
    night(g, [(1, MURDERER)])
    assert g.p(5).status == "alive" and g.p(MURDERER).uses == {"point_kill": 1}


def test_a_blocked_checker_learns_nothing_and_spends_the_use(game):
    g = game(roles(saboteur=[{"kind": "block", "tell_target": True}]))
    to_rooms(g)
    g.do(2, "check", seat=MURDERER)
    g.do(12, "block", seat=2)
    _, fx = night(g, [(1, MURDERER)])
    assert "「搜身」没有生效：你被封锁了。" in says(fx, 2)
    assert "昨夜你被人封锁了，你的技能没有生效。" in says(fx, 2)
    assert not any("杀人犯" in t for t in says(fx, 2))
    assert g.p(2).uses == {"check": 1}


def test_blocked_noise_is_spent_and_nobody_hears_it(game):
    """噪音 (【补充规则】) is played at once: blocked earlier tonight, it fails at once."""
    g = game()
    to_rooms(g)
    g.do(12, "block", seat=1)
    g.rooms([(1, MURDERER)])
    fx = g.do(1, "noise")
    assert fx == [Say("reply", "噪音没有放出去：你今晚被封锁了。")]
    assert g.p(1).uses == {"noise": 1}
    assert not any(line.from_ == "【噪音】" for line in g.state.nights[-1].pairs[0].lines)


def test_blocks_resolve_in_arrival_order(game):
    """Two blockers on each other: the earlier block holds, the later one (its user blocked) fails."""
    g = game(roles(listener=[{"kind": "block"}]))
    to_rooms(g)
    g.do(5, "block", seat=12)
    g.do(12, "block", seat=5)
    g.do(5, "block", seat=12)  # changed again: now the later one
    _, fx = night(g, [(1, MURDERER)])
    assert "「封锁」没有生效：你被封锁了。" in says(fx, 5)
    assert not any("没有生效" in t for t in says(fx, 12))
    assert g.p(1).status == "dead"


# ---- 窃听 -------------------------------------------------------------------------------


def test_eavesdrop_reads_the_rooms_transcript_at_dawn(game):
    g = game()
    to_rooms(g)
    assert g.reject(5, "eavesdrop", room="z") == "没有这个房间。可窃听：a b c d e f A B C D E F（看守房或囚犯房都行）。"
    room = next(iter(g.state.mapping))
    g.do(5, "eavesdrop", room=room)
    g.do(MURDERER, "spare")
    g.do(LOVER_G, "room", room=room)
    g.do(MURDERER, "room", room=g.state.mapping[room])
    g.advance()
    g.do(LOVER_G, "relay", text="你是谁", images=0)
    g.do(MURDERER, "relay", text="我是好人", images=0)
    g.talk()
    g.thief()
    fx = g.advance()
    heard = next(t for t in says(fx, 5) if t.startswith("「监听」"))
    assert heard.startswith(f"「监听」：{room} 号房第1夜的审讯记录：\n【看守】你是谁\n【囚犯】我是好人")
    assert "马甲" not in heard and "号马甲" not in heard
    assert not any("窃听" in t for t in says(fx, LOVER_G))
    assert g.p(5).uses == {"eavesdrop": 1}


def test_eavesdrop_by_the_prisoner_room_and_told_to_the_room(game):
    g = game(roles(listener=[{"kind": "eavesdrop", "tell_target": True}]))
    to_rooms(g)
    room = next(iter(g.state.mapping))
    g.do(5, "eavesdrop", room=g.state.mapping[room])
    g.do(LOVER_G, "room", room=room)
    g.do(MURDERER, "spare")
    g.do(MURDERER, "room", room=g.state.mapping[room])
    g.advance()
    g.talk()
    g.thief()
    fx = g.advance()
    assert "昨夜有人窃听了你的审讯。" in says(fx, LOVER_G) and "昨夜有人窃听了你的审讯。" in says(fx, MURDERER)


# ---- 换房 -------------------------------------------------------------------------------


def test_swap_exchanges_two_prisoners_rooms_before_the_pairs_are_made(game):
    """换房: the two swap rooms when the window opens, so each meets the other's guard."""
    g = game()
    to_rooms(g)
    assert g.reject(11, "swap", a=1, b=7) == "「调包」只能选囚犯。"
    assert g.reject(11, "swap", a=7, b=7) == "请写两名不同的玩家：/换房 <玩家> <玩家>。"
    g.do(11, "swap", a=MURDERER, b=12)
    opening, _ = night(g, [(1, MURDERER), (5, 12)])
    pairs = {(p.guard, p.prisoner) for p in g.state.nights[-1].pairs}
    assert (1, 12) in pairs and (5, MURDERER) in pairs
    assert g.p(5).status == "dead" and g.p(1).status == "alive"
    assert "「调包」已生效：7号马甲7 与 12号马甲12 交换房间。" in says(opening, 11)
    assert any("调包：11号马甲11 → 7号马甲7 与 12号马甲12 交换房间" in t for t in says(opening, "hosts"))
    assert g.p(11).uses == {"swap": 1}
    no_group_secret(opening)


def test_swap_only_while_rooms_are_chosen_and_only_within_a_camp(game):
    g = game(roles(survivor=[{"kind": "swap", "tell_target": True}]))
    to_rooms(g)
    assert g.reject(11, "swap", a=1, b=7) == "只能让两名看守或两名囚犯交换房间。"
    g.do(11, "swap", a=1, b=2)  # two guards
    opening = g.rooms([(1, MURDERER), (2, 9)])
    assert {(p.guard, p.prisoner) for p in g.state.nights[-1].pairs} >= {(2, MURDERER), (1, 9)}
    assert "今晚你的房间被人调换了，以审讯开始的通知为准。" in says(opening, 1)
    assert g.reject(11, "swap", a=8, b=9) == "「换房」只能在选房时使用（审讯开始时生效）。"


# ---- 传话 -------------------------------------------------------------------------------


def test_message_by_day_reaches_the_player_without_a_name(game):
    g = game()
    g.to_day1()
    assert g.reject(8, "message", seat=1, text="") == "请写上要传的话：/传话 <玩家> <内容>。"
    assert g.reject(8, "message", seat=1, text="长" * 201) == "一次传话最多 200 个字，请缩短。"
    fx = g.do(8, "message", seat=1, text="小心 3 号")
    assert says(fx, 1) == ["【匿名传话】小心 3 号"]
    assert "8" not in says(fx, 1)[0] and "马甲8" not in says(fx, 1)[0]
    assert g.reject(8, "message", seat=2, text="再说一句") == "「递纸条」每个白天或夜晚只能用一次。"
    no_group_secret(fx)


def test_message_at_night_arrives_when_the_window_closes_unless_blocked(game):
    g = game()
    to_rooms(g)
    g.do(8, "message", seat=4, text="今晚别说话")
    g.do(12, "block", seat=8)
    g.rooms([(1, MURDERER)])
    g.talk()
    g.thief()
    fx = g.advance()
    assert not any("今晚别说话" in t for t in says(fx, 4))
    assert "「递纸条」没有生效：你被封锁了。" in says(fx, 8)
    g.advance()  # day 2 closes: rooms
    g.do(8, "message", seat=4, text="明天见")
    _, fx = night(g, [])
    assert "【匿名传话】明天见" in says(fx, 4)
    assert g.p(8).uses == {"message": 2}


# ---- 投票加权 ----------------------------------------------------------------------------


def day2(g) -> None:
    to_rooms(g)
    g.do(MURDERER, "spare")
    night(g, [(1, MURDERER)])
    assert g.state.day == 2 and g.state.phase == "day"


def test_a_weighted_vote_counts_twice_and_the_group_never_sees_whose(game):
    """【游戏流程】<5> 关于票数的计算方式将由组织者决定: 6's /加权 makes its vote count 2 (a 2–1
    instead of a tie the chief, voting the other way, would settle, 【看守长】<权威>)."""
    g = game()
    g.to_day1()
    assert g.reject(6, "vote_weight") == "加权只能在第2天起的讨论日、投票截止前使用。"
    g.elect(chief=1, leader=MURDERER)
    g.do(MURDERER, "spare")
    night(g, [(1, MURDERER)])
    fx = g.do(6, "vote_weight")
    assert says(fx, "reply") == ["「威望」：今天你的裁决票算 2 票（截止时计入）。剩余 0 次。"]
    assert g.reject(6, "vote_weight") == "「威望」每个白天或夜晚只能用一次。"
    g.do(6, "execute", seat=10)
    g.do(1, "release", seat=11)
    fx = g.advance()
    assert g.p(10).status == "dead" and g.p(11).status == "alive"
    assert says(fx, "hosts")[0] == "第2天加权计票（保密）：6号马甲6×2"
    for text in says(fx, "group"):
        assert "×2" not in text and "威望" not in text and "加权" not in text
    assert not g.state.acts


def test_without_the_weight_the_same_votes_tie_and_the_chief_settles(game):
    g = game()
    day2(g)
    g.do(6, "execute", seat=10)
    g.do(1, "release", seat=11)
    g.advance()
    assert g.p(11).status == "released" and g.p(10).status == "alive"


def test_a_passive_weight_counts_every_day_without_a_command(game):
    g = game(roles(keeper=[{"kind": "vote_weight", "weight": 3}]))
    day2(g)
    assert g.reject(6, "vote_weight") == "「投票加权」一直有效：你的每一票都算 3 票，不用发动。"
    g.do(6, "execute", seat=10)
    for s in (1, 2):
        g.do(s, "release", seat=11)
    g.advance()
    assert g.p(10).status == "dead"


def test_a_prisoners_weight_counts_in_the_uprising(game):
    """【囚犯领袖】<起义>, 【补充规则】投票规则与看守裁决相同: a prisoner's weight counts there."""
    g = game(roles(saboteur=[{"kind": "vote_weight", "uses": 1}]))
    day2(g)
    assert g.reject(12, "vote_weight") == "囚犯只有在起义投票时才能加权。"
    g.do(MURDERER, "uprising")
    g.do(12, "vote_weight")
    g.do(12, "execute", seat=5)
    g.do(MURDERER, "execute", seat=4)
    for s in range(1, 7):
        g.do(s, "abstain")
    g.advance()
    assert g.p(5).status == "dead" and g.p(4).status == "alive"


# ---- together ------------------------------------------------------------------------------


def test_a_blocked_protector_does_not_save_the_murder_target(game):
    g = game()
    to_rooms(g)
    g.do(6, "protect", seat=1)
    g.do(12, "block", seat=6)
    _, fx = night(g, [(1, MURDERER)])
    assert g.p(1).status == "dead"
    assert "「守护」没有生效：你被封锁了。" in says(fx, 6)
    assert g.p(6).uses == {"protect": 1}


def test_a_blocked_swapper_swaps_nothing_and_a_block_after_the_opening_is_too_late(game):
    g = game()
    to_rooms(g)
    g.do(11, "swap", a=MURDERER, b=12)
    g.do(12, "block", seat=11)
    opening = g.rooms([(1, MURDERER), (5, 12)])
    assert "「调包」没有生效：你被封锁了。" in says(opening, 11)
    assert {(1, MURDERER), (5, 12)} <= {(p.guard, p.prisoner) for p in g.state.nights[-1].pairs}


def test_a_night_of_every_kind_resolves_in_order_and_the_hosts_get_it_all(game):
    """RULES.md order: 换房 at the opening; at the close 封锁, 保护, the kill, then 查验, 窃听, 传话 —
    a check on the guard killed tonight still answers (the night's uses are simultaneous)."""
    g = game()
    to_rooms(g)
    room = next(iter(g.state.mapping))             # the helper puts 1 and 9 there
    g.do(11, "swap", a=MURDERER, b=12)             # 7 goes where 12 chose: meets guard 2
    g.do(12, "block", seat=8)                      # the accomplice's message fails
    g.do(8, "message", seat=1, text="我是好人")
    g.do(6, "protect", seat=5)                     # 5 is not attacked
    g.do(2, "check", seat=12)                      # 2 dies tonight and still learns it
    g.do(5, "eavesdrop", room=room)
    opening, fx = night(g, [(1, 9), (2, 12), (4, MURDERER)])
    assert {(1, 9), (2, MURDERER), (4, 12)} <= {(p.guard, p.prisoner) for p in g.state.nights[-1].pairs}
    assert g.p(2).status == "dead" and g.p(5).status == "alive"
    assert "「搜身」：12号马甲12 是 【囚犯】破坏犯（故意毁坏财物罪）。" in says(fx, 2)
    assert "「递纸条」没有生效：你被封锁了。" in says(fx, 8) and not any("我是好人" in t for t in says(fx, 1))
    assert any(t.startswith(f"「监听」：{room} 号房第1夜的审讯记录：") for t in says(fx, 5))
    summary = next(t for t in says(fx, "hosts") if t.startswith("第1夜技能结算（保密）"))
    order = [line.split("：")[0] for line in summary.splitlines()[1:]]
    assert order == ["· 杀人", "· 断电", "· 递纸条", "· 守护", "· 搜身", "· 监听"]
    assert "递纸条：8号马甲8 → 1号马甲1：失效（被封锁）" in summary
    no_group_secret(opening + fx)
    sheet = ENGINE.tables(g.state, settings=g.settings)["技能使用"]
    assert [row[8] for row in sheet[1:]] == ["调包", "偷看", "杀人", "断电", "递纸条", "守护", "搜身", "监听"]
    assert all(row[10] != "待结算" for row in sheet[1:] if row[8] != "偷看")


def test_a_compulsory_designed_ability_not_used_gets_a_yellow_card_3_3(game):
    """【规则判罚】（三）3 必须行使能力的玩家未在规定时间内行使: a designed ability may be compulsory too."""
    g = game(roles(listener=[{"kind": "eavesdrop", "compulsory": True}]))
    to_rooms(g)
    _, fx = night(g, [(1, MURDERER)])
    assert [e.seat for e in fx if isinstance(e, GiveCard)] == [5]
    g.advance()  # day 2 closes: rooms
    g.do(5, "eavesdrop", room="a")
    _, fx = night(g, [])
    assert not any(isinstance(e, GiveCard) and e.seat == 5 for e in fx)


@pytest.mark.parametrize("seat, words", [
    (2, ["「搜身」：夜晚（选房或审讯时）私聊 /查验 <玩家>，得知对方的身份和罪名，天亮前告知（剩余 1 次）。"]),
    (5, ["「监听」：夜晚私聊 /窃听 <房间>，天亮前读到该房间当晚的审讯记录（剩余 2 次）。"]),
    (6, ["「守护」：夜晚私聊 /保护 <玩家>，对方今晚不会被杀人犯杀死（剩余 2 次，只能选看守，可以选自己）。",
         "「威望」：讨论日私聊 /加权，当天你的裁决票算 2 票（剩余 1 次）。"]),
    (8, ["「递纸条」：白天或夜晚私聊 /传话 <玩家> <内容>，匿名给对方传一句话（剩余 2 次）。"]),
    (11, ["「调包」：选房时私聊 /换房 <玩家> <玩家>，审讯开始时两人交换房间（同为看守或同为囚犯）（剩余 1 次，只能选囚犯，可以选自己）。"]),
    (12, ["「断电」：夜晚私聊 /封锁 <玩家>，对方今晚的技能全部失效（剩余 2 次）。"]),
])
def test_the_identity_message_says_how_to_use_each_designed_ability(game, seat, words):
    g = game()
    text = ENGINE.private_info(g.state, seat, settings=g.settings)
    for line in words:
        assert line in text.splitlines(), text


def test_the_host_settles_nothing_of_a_designed_ability(game):
    """Designed uses are resolved and logged by the bot: /结算 finds them settled."""
    g = game()
    g.to_day1()
    g.do(8, "message", seat=1, text="你好")
    assert "已经结算过了" in g.reject(None, "settle", host=True, id=1, text="x")
