"""A game saved by the plain-dict engine (state version 2) reads back as the typed state and plays on.

``fixtures/saved-v2.json`` is what ``ENGINE.encode(state)`` gave (and the kernel stored, long texts
inline) for a 12-player game played with the dict engine by this file's settings and the
helper's fixed deal: an auction (bids, a balance set by the host, sign-up fields), love/hate, day
1's posts, elections and a 巡逻 settled by a host, a player put out by a red card, night 1 in
room groups (two linked chats; the other pairs on the relay; a bye, noise, 搜身 settled, 偷看,
a 点杀), day 2's 起义 and the guards' votes, submissions and 树洞 notes — saved at day 2's
verdict, the chief to /裁定 a three-way tie, the uprising already decided.
"""

from __future__ import annotations

import copy
import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

from plugins.gamekit.contract import Eliminate, Finish, Say
from plugins.gamekit.datafile import load_toml
from plugins.prison.engine.engine import ENGINE
from plugins.prison.engine.model import Kill, Kind, Phase, Pick, PointItem, SignupInfo, Status

from prison_helpers import MURDERER, Game

SAVED = Path(__file__).with_name("fixtures") / "saved-v2.json"
CHARS = ["柯南", {"name": "基德", "camp": "prisoner"}, "小兰", "灰原", {"name": "目暮", "camp": "guard"},
         {"name": "高木", "camp": "guard"}, {"name": "佐藤", "camp": "guard"}, {"name": "琴酒", "camp": "prisoner"},
         {"name": "伏特加", "camp": "prisoner"}, {"name": "贝尔摩德", "camp": "prisoner"}, "步美", "元太", "光彦"]
IDENTITIES = load_toml(Path(__file__).with_name("fixtures") / "identities-v2.toml")  # as the game was started with
OVERRIDES = {"room_mode": "group", "characters": CHARS, "auction": {"balances": {"2": 80}},
             "signup": {"3": {"nickname": "阿三"}}, "guards": IDENTITIES["guards"], "prisoners": IDENTITIES["prisoners"],
             "deal": {str(seat): rid for seat, rid in enumerate(
                 ("noise", "search", "lover_g", "patrol", "plain1", "plain2", "murderer", "accomplice", "lover_p",
                  "thief", "survivor", "plain_p"), start=1)}}
CHATS = ("9001", "9002")
SAVED_AT = datetime(2026, 12, 1, 12, 0, 1, tzinfo=timezone.utc)  # day 2's deadline (20:00 in Shanghai) had passed
LAST_SEQ = 161


def raw() -> dict:
    return json.loads(SAVED.read_text(encoding="utf-8"))


def resumed() -> Game:
    """The helper's game with the saved state in place, its clock and arrival numbers where they were."""
    g = Game(OVERRIDES, seed="saved-v2", chats=CHATS)
    g.state = ENGINE.decode(raw())
    g.seq, g.now, g.ends, g.phase = LAST_SEQ, SAVED_AT, SAVED_AT + timedelta(minutes=30), "verdict"
    return g


def test_the_saved_json_reads_as_the_typed_state():
    saved = raw()
    assert saved["version"] == ENGINE.STATE_VERSION == 2  # today's shape: no upgrade on the way
    st = ENGINE.decode(copy.deepcopy(saved))
    assert (st.phase, st.day, st.chief, st.leader, st.uprising_used) == (Phase.VERDICT, 2, 1, MURDERER, True)
    assert st.picks == [Pick(by=1, camp=Kind.GUARD, options=["exec:10", "exec:11", "free:12"])]
    assert st.pending == {Kind.PRISONER: ["exec:2"]} and st.uprising is not None and st.uprising.votes[12] == "skip"
    assert st.votes == {2: "free:12", 3: "exec:11", 6: "exec:10"}
    p1, p4, p5 = st.players[1], st.players[4], st.players[5]
    assert (p1.alias, p1.kind, p1.role, p1.love, p1.posts, p1.uses, p1.signup_alias) == (
        "佐藤", Kind.GUARD, "noise", 9, {1: 5, 2: 5}, {"noise": 1}, "马甲1")
    assert (p4.status, p4.out_day, p4.reason) == (Status.DEAD, 1, "第1夜被杀人犯杀死")
    assert (p5.status, p5.reason) == (Status.OUT, "红牌：辱骂")
    night = st.nights[0]
    assert night.kill == Kill(by=MURDERER, victim=4, how="点杀") and night.deaths == [4] and len(night.byes) == 1
    assert [p.group for p in night.pairs[:2]] == ["9001", "9002"] and night.pairs[2].group is None
    assert night.pairs[0].lines[1].from_ == "【囚犯】" and night.pairs[0].lines[1].text.endswith("（图片）")
    assert [(u.ability, u.result, u.settled_seq) for u in st.log[:3]] == [
        ("巡逻", "9号昨夜不是轮空", 83), ("噪音", "已播放", None), ("搜身", "口袋里有一张纸条", 105)]
    assert st.signup[3] == SignupInfo(nickname="阿三", first="柯南:30", second="小兰:5")
    book = st.auction
    assert book is not None and book.closed_seq is not None and book.balances[2] == 80
    assert (book.results[2].name, book.results[2].how, book.results[2].balance) == ("目暮", "first", 0)
    assert [n.text for n in st.notes] == ["好紧张，第一次当看守", "死得好冤", "谁在投我"]
    assert len(st.subs.map) == 2 and st.subs.alias[0].seat == 10 and st.cards[0].seat == 6
    # written back, it keeps every key and value it was read with (only defaults are added)
    again = ENGINE.encode(st)

    def within(old, new, where="$"):
        if isinstance(old, dict):
            for k, v in old.items():
                assert k in new, f"{where}.{k} was dropped"
                within(v, new[k], f"{where}.{k}")
        elif isinstance(old, list):
            assert len(old) == len(new), where
            for i, (a, b) in enumerate(zip(old, new)):
                within(a, b, f"{where}[{i}]")
        else:
            assert old == new, where

    within(saved, again)


def test_the_saved_game_plays_on_to_the_end():
    g = resumed()
    assert g.reject(2, "decide", choice="释放", seat=12) == "现在没有需要你裁定的平票。"
    assert "只能从最高票中选" in g.reject(1, "decide", choice="处决", seat=9)
    fx = g.do(1, "decide", choice="释放", seat=12)  # the chief settles the tie; then both results apply
    group = "\n".join(e.text for e in fx if isinstance(e, Say) and e.to == "group")
    assert "12号贝尔摩德 被释放" in group and "2号目暮 被起义的囚犯们处决" in group
    assert Eliminate(2, "起义处决") in fx
    st = g.state
    assert (st.phase, st.picks, st.pending, st.votes, st.uprising) == (Phase.ROOMS, [], {}, {}, None)
    assert (st.players[12].status, st.players[2].status) == (Status.RELEASED, Status.DEAD)
    assert g.living("guard") == [1, 3, 6] and g.living("prisoner") == [7, 8, 9, 10, 11]
    g.do(MURDERER, "spare")
    g.rooms([(6, MURDERER)])  # the deadline: night 2 in the room groups (three pairs, two byes)
    assert len(g.state.nights) == 2 and len(g.state.nights[1].pairs) == 3 and len(g.state.nights[1].byes) == 2
    assert g.reject(MURDERER, "point_kill", seat=3) == "点杀已经用完了。"  # spent on night 1
    g.do(10, "ability", ability="偷看", text="看 6 号")
    fx = g.advance()  # the wall rises; the murderer spared tonight
    assert not [e for e in fx if isinstance(e, Eliminate)] and g.state.day == 3
    for seat in g.living("guard"):
        g.do(seat, "release", seat=MURDERER)
    fx = g.advance()  # day 3's verdict releases the murderer: （三）3
    finish = [e for e in fx if isinstance(e, Finish)]
    assert len(finish) == 1 and finish[0].summary.startswith("游戏结束：（三）3：杀人犯被释放。")
    r = g.state.result
    assert r is not None and r.cond == 3 and r.winners == [MURDERER, 8] and g.state.phase == "over"
    assert PointItem("第一个提交正确房间对应（#157）（（二）4）", 3) in r.points[9]
    assert PointItem("被释放（（二）5）", 2) in r.points[12] and PointItem("被释放（（二）5）", 2) in r.points[MURDERER]
    assert PointItem("马甲-玩家对应全部正确（（二）6）", 2) in r.points[10]
    assert "· 谁在投我" in finish[0].summary
    sheets = ENGINE.tables(g.state, settings=g.settings)
    assert any(row[0] == 2 for row in sheets["审讯对应"][1:]) and len(sheets["积分"]) == 13
