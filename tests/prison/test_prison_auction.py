"""【游戏流程】<3、竞拍马甲>: the auction of the script's characters.

Seats 1–6 are guards and 7–12 prisoners (the fixed deal of prison_helpers), so the camp of each
bidder is known and the award table can be computed by hand."""

from __future__ import annotations

import tomllib

import pytest

from plugins.gamekit.contract import Rename, Say, SetPhase
from plugins.prison.engine.engine import ENGINE
from plugins.prison.engine.content import CONTENT_DIR
from plugins.prison.engine.content import Character
from plugins.prison.engine.model import Bid, Choice, Kind
from plugins.prison.engine.rules_auction import award

CHARS = [
    {"name": "柯南", "camp": "any"}, {"name": "基德", "camp": "prisoner"}, {"name": "小兰"},
    {"name": "灰原", "camp": "任意"}, {"name": "目暮", "camp": "guard"}, {"name": "高木", "camp": "看守"},
    {"name": "佐藤", "camp": "guard"}, {"name": "琴酒", "camp": "prisoner"}, {"name": "伏特加", "camp": "囚犯"},
    {"name": "贝尔摩德", "camp": "prisoner"}, "步美", "元太",
]
# (seat, bid) in arrival order; seat 6 never bids
BIDS = [
    (1, "第一志愿=柯南:30 第二志愿=小兰:10"),
    (7, "第一志愿=柯南:30 第二志愿=小兰:20"),  # same coins as seat 1, later: loses the tie
    (3, "第一志愿=柯南:20 第二志愿=灰原:10"),
    (2, "第一志愿=基德:80 第二志愿=灰原:10"),  # 基德 is for prisoners only; 2 is a guard
    (8, "第一志愿=基德:40"),
    (9, "第一志愿=基德:40 第二志愿=贝尔摩德:1"),
    (4, "第一志愿=小兰:15 第二志愿=灰原:12"),
    (10, "第一志愿=小兰:25"),
    (5, "第一志愿=目暮"),  # no coins: 0
    (11, "第一志愿=琴酒:5 随机号码=77"),
    (12, "第一志愿=佐藤:10 第二志愿=伏特加:3"),  # 佐藤 is for guards only
]
# worked out by hand: seat -> (character, how, coins paid, balance left)
WON = {
    1: ("柯南", "first", 30, 70), 8: ("基德", "first", 40, 60), 10: ("小兰", "first", 25, 75),
    11: ("琴酒", "first", 5, 95), 5: ("目暮", "first", 0, 100),
    4: ("灰原", "second", 12, 88), 12: ("伏特加", "second", 3, 97), 9: ("贝尔摩德", "second", 1, 99),
}
LOST = {
    2: {"first": "camp", "second": "taken"}, 7: {"first": "taken", "second": "taken"},
    3: {"first": "taken", "second": "taken"}, 9: {"first": "taken"}, 4: {"first": "taken"},
    12: {"first": "camp"},
}


def auction_game(game, extra=None, **kw):
    return game({"characters": CHARS, "auction": {"balances": {"2": 80}}, **(extra or {})}, **kw)


def test_bids_then_the_close_award_by_the_hand_computed_table(game):
    """Highest first choice wins (ties: earlier bid), then second choices, then a draw among the
    fitting characters; camp-bound characters only go to that camp."""
    g = auction_game(game)
    assert g.state.phase == "auction" and g.phase == "auction"
    for seat, text in BIDS:
        g.do(seat, "bid", text=text)
    fx = g.advance()
    res = g.state.auction.results
    for seat, (name, how, coins, left) in WON.items():
        assert (res[seat].name, res[seat].how, res[seat].coins, res[seat].balance) == (
            name, how, coins, left), seat
    for seat in range(1, 13):
        assert res[seat].lost == LOST.get(seat, {}), seat
    # the draw: guards 2, 3, 6 and prisoner 7 share 高木 (guard), 佐藤 (guard), 步美, 元太 (any)
    drawn = {s: res[s].name for s in (2, 3, 6, 7)}
    assert all(res[s].how == "draw" and res[s].coins == 0 for s in drawn)
    assert sorted(drawn.values()) == sorted(["高木", "佐藤", "步美", "元太"]) and drawn[7] in ("步美", "元太")
    # the character won is the alias from now on (kernel roster too); the sign-up alias is kept
    assert [g.p(s).alias for s in (1, 8, 12)] == ["柯南", "基德", "伏特加"]
    assert g.p(1).signup_alias == "马甲1"
    renames = [e for e in fx if isinstance(e, Rename)]
    assert len(renames) == 1 and dict(renames[0].aliases) == {s: res[s].name for s in range(1, 13)}
    assert g.p(11).number == 77  # the bid's random number is the one used
    # then the game proper: identities, love/hate
    assert g.state.phase == "prep" and [e.key for e in fx if isinstance(e, SetPhase)] == ["prep"]


def test_each_player_learns_privately_how_the_character_was_won_and_hosts_get_the_table(game):
    g = auction_game(game)
    for seat, text in BIDS:
        g.do(seat, "bid", text=text)
    fx = g.advance()
    private = {e.to: e.text for e in fx if isinstance(e, Say) and isinstance(e.to, int)}
    assert private[1].startswith("竞拍结果：你以第一志愿出价 30 币拍得马甲「柯南」，余额 70 币。\n1号柯南：你是【看守】")
    assert "第一志愿「佐藤」未拍得：该角色限看守。你以第二志愿出价 3 币拍得马甲「伏特加」，余额 97 币。" in private[12]
    assert "第一志愿「柯南」未拍得：已被出价更高或更早的玩家拍得。第二志愿「小兰」未拍得" in private[7]
    assert f"你抽签分得马甲「{g.p(6).alias}」，不花硬币，余额 100 币。" in private[6]
    hosts = "\n".join(e.text for e in fx if isinstance(e, Say) and e.to == "hosts")
    assert "1号 柯南 ← 第一志愿出价 30 币（报名马甲 马甲1，QQ 10001；" in hosts
    assert "6号 " in hosts and "← 抽签" in hosts and "本局房间对应（保密）" in hosts
    group = "\n".join(e.text for e in fx if isinstance(e, Say) and e.to == "group")
    assert "竞拍结束" in group and "1号柯南" in group
    for s in range(1, 13):  # no QQ and no sign-up alias next to a character in the group
        assert str(10000 + s) not in group and f"马甲{s}" not in group
    assert "硬币余额 70" in ENGINE.private_info(g.state, 1, settings=g.settings)


def test_the_first_director_sheet_shows_bids_and_results(game):
    """【导演职责】A导 6: ID, nickname, contact, first and second choice, alias, number, identity."""
    g = auction_game(game)
    sheet = ENGINE.tables(g.state, settings=g.settings)["玩家"]
    assert sheet[1][17:] == ["马甲1", "竞拍中", "", 100]  # during the auction
    for seat, text in BIDS:
        g.do(seat, "bid", text=text)
    g.advance()
    sheet = ENGINE.tables(g.state, settings=g.settings)["玩家"]
    head = sheet[0]
    row = dict(zip(head, sheet[12]))
    assert row["马甲"] == "伏特加" and row["报名马甲"] == "马甲12" and row["马甲获得方式"] == "第二志愿出价"
    assert row["第一志愿"].startswith("佐藤 10 币（#") and row["第二志愿"].startswith("伏特加 3 币（#")
    assert (row["花费硬币"], row["硬币余额"], row["阵营"]) == (3, 97, "囚犯")
    assert dict(zip(head, sheet[6]))["马甲获得方式"] == "抽签"


def test_bids_change_until_the_close_and_only_what_is_named(game):
    g = auction_game(game)
    g.do(1, "bid", text="第一志愿=柯南:30 第二志愿=小兰:10 随机号码=5")
    seq1 = g.state.auction.bids[1].first.seq
    fx = g.do(1, "bid", text="第二志愿＝灰原：20币")
    b = g.state.auction.bids[1]
    assert (b.first.name, b.first.coins, b.first.seq) == ("柯南", 30, seq1)  # unchanged, still early
    assert (b.second.name, b.second.coins, b.number) == ("灰原", 20, 5)
    assert "第一志愿 柯南 30 币，第二志愿 灰原 20 币，随机号码 5；余额 100 币" in fx[0].text
    g.do(1, "bid", text="第一志愿=柯南:31")
    assert g.state.auction.bids[1].first.seq > seq1  # a raise is a new bid
    g.do(1, "bid", text="第二志愿=无")
    assert g.state.auction.bids[1].second is None
    assert "你现在的出价" in g.do(1, "bid")[0].text


@pytest.mark.parametrize("text, expected", [
    ("第一志愿=柯南:101", "第一志愿出价 101 币超过了你的余额 100 币。"),
    ("第一志愿=工藤新一:5", "没有角色「工藤新一」。本局角色：柯南、基德"),
    ("第一志愿=柯南:5 第二志愿=柯南:3", "第一志愿和第二志愿不能是同一个角色「柯南」，请换一个。"),
    ("第二志愿=柯南", "第一志愿和第二志愿不能是同一个角色「柯南」"),  # the standing first choice is 柯南
    ("第一志愿=小兰:5 随机号码=1000", "随机号码应为 1–999 的整数。"),
    ("志愿=柯南", "看不懂「志愿=柯南」"),
    ("第一志愿=柯南:-3", "第一志愿请写成 角色:硬币（硬币为不小于 0 的整数），例如 第一志愿=柯南:10。"),
    ("第一志愿=柯南:三十", "第一志愿请写成 角色:硬币"),
])
def test_bad_bids_are_refused_and_change_nothing(game, text, expected):
    g = auction_game(game)
    g.do(3, "bid", text="第一志愿=柯南:10")
    assert expected in g.reject(3, "bid", text=text)  # reject() also checks the state is untouched


def test_balance_is_per_player_and_a_host_may_sum_both_choices(game):
    g = auction_game(game)
    g.do(2, "bid", text="第一志愿=基德:80")  # seat 2's balance is 80 (host's table)
    assert g.reject(2, "bid", text="第一志愿=基德:81") == "第一志愿出价 81 币超过了你的余额 80 币。"
    g.do(1, "bid", text="第一志愿=柯南:60 第二志愿=小兰:50")  # each within 100
    s = auction_game(game, {"auction": {"limit": "sum"}})
    assert "两个志愿合计 110 币超过了你的余额 100 币" in s.reject(1, "bid", text="第一志愿=柯南:60 第二志愿=小兰:50")


def test_after_the_close_and_in_games_without_characters_bids_are_refused(game):
    g = auction_game(game)
    g.do(1, "bid", text="第一志愿=柯南:10")
    g.advance()
    assert g.reject(1, "bid", text="第一志愿=小兰:10") == "竞拍已经结束，不能再出价。你的马甲是「柯南」（/我的身份 可查看）。"
    plain = game()
    assert "本局没有竞拍马甲" in plain.reject(1, "bid", text="第一志愿=柯南:10")
    assert plain.state.phase == "prep"


def test_during_the_auction_only_bids_count(game):
    g = auction_game(game)
    assert "现在是竞拍马甲阶段" in g.reject(1, "love", seat=2)
    assert "现在是竞拍马甲阶段" in g.reject(None, "show_map", host=True)
    assert "不能让玩家出局" in g.reject(None, "kernel.out", host=True, seat=3, reason="x")
    assert "出价是匿名的" in g.reject(1, "bid", private=False, text="第一志愿=柯南:1")
    assert g.reject(None, "bid", text="第一志愿=柯南:1") == "你不是本局玩家。"
    assert "已出价 0/12 人" in ENGINE.status(g.state, settings=g.settings)
    g.do(4, "bid", text="第一志愿=灰原:9")
    table = g.do(None, "bid", host=True)[0].text  # a host's /竞拍: every standing bid, privately
    assert "已出价 1/12 人" in table and "4号 马甲4（QQ 10004，余额 100）：第一志愿 灰原 9 币" in table
    assert "出价表保密" in g.reject(None, "bid", host=True, private=False)
    assert "本局角色：柯南、基德（限囚犯）" in ENGINE.private_info(g.state, 1, settings=g.settings)
    rooms = auction_game(game, {"room_mode": "group"}, chats=("880100",))
    assert ENGINE.may_join(rooms.state, "880100", 1, settings=rooms.settings) is False  # no room is open


def test_the_opening_message_lists_the_characters_and_each_balance(game):
    g = auction_game(game, {"auction": {"minutes": 30, "balances": {"2": 80}}})
    group = [e.text for e in g.log if isinstance(e, Say) and e.to == "group"]
    assert len(group) == 1 and "基德（限囚犯）" in group[0] and "/竞拍 第一志愿=角色:硬币" in group[0]
    private = {e.to: e.text for e in g.log if isinstance(e, Say) and isinstance(e.to, int)}
    assert private[2].startswith("竞拍马甲：你有 80 枚硬币，11月30日 12:30截止。") and "100 枚" in private[1]
    assert not any("你是【" in t for t in private.values())  # no identity before the close


def test_sign_up_choices_are_the_opening_bids(game):
    """/资料 第一志愿=角色:硬币 before /开始 is a bid; a bad one is skipped and the player told."""
    g = auction_game(game, profiles={
        1: {"first": "小兰:20", "second": "灰原", "number": 400},
        2: {"first": "工藤新一:5"},
    })
    b = g.state.auction.bids
    assert (b[1].first.name, b[1].first.coins, b[1].second.coins, b[1].number) == ("小兰", 20, 0, 400)
    assert b[2].first is None
    private = {e.to: e.text for e in g.log if isinstance(e, Say) and isinstance(e.to, int)}
    assert "你报名时填写的志愿已记为出价：第一志愿 小兰 20 币，第二志愿 灰原 0 币，随机号码 400。" in private[1]
    assert "第一志愿「工藤新一:5」没有记为出价：没有角色「工藤新一」" in private[2]


def test_equal_opening_bids_are_decided_by_the_game_draw(game):
    """Two sign-up bids of the same coins arrive together (at /开始): the seeded draw decides."""
    winners = set()
    for seed in ("a", "b", "c", "d", "e", "f"):
        g = auction_game(game, seed=seed, profiles={1: {"first": "柯南:30"}, 7: {"first": "柯南:30"}})
        g.advance()
        got = [s for s in (1, 7) if g.p(s).alias == "柯南"]
        assert len(got) == 1
        assert g.state.auction.results[8 - got[0]].lost == {"first": "taken"}
        winners.add(got[0])
    assert winners == {1, 7}


def test_the_auction_replays_from_seed_and_bids(game):
    """The engine contract: same seed, same bids, same times -> the same award and effects."""
    runs = []
    for _ in range(2):
        g = auction_game(game, seed="replay")
        for seat, text in BIDS:
            g.do(seat, "bid", text=text)
        g.advance()
        runs.append((g.state, g.log))
    assert runs[0] == runs[1]


def test_a_bid_that_would_leave_a_camp_without_characters_loses(game):
    """Five guard-only characters and one for anyone: a prisoner cannot take the last one a
    sixth guard needs, however high the bid."""
    chars = [{"name": f"看守{i}", "camp": "guard"} for i in range(5)] + ["自由人"]
    chars += [{"name": f"囚犯{i}", "camp": "prisoner"} for i in range(6)]
    g = game({"characters": chars})
    g.do(7, "bid", text="第一志愿=自由人:90 第二志愿=囚犯3:0")
    g.do(1, "bid", text="第一志愿=自由人:10")
    g.advance()
    res = g.state.auction.results
    assert res[7].lost == {"first": "short"} and res[7].name == "囚犯3" and res[7].how == "second"
    assert res[1].name == "自由人"
    assert sorted(g.p(s).alias for s in range(1, 7)) == sorted([f"看守{i}" for i in range(5)] + ["自由人"])


def test_camps_come_from_the_bid_random_numbers_before_the_characters(game):
    """The random number decides guard or prisoner (as without an auction); a guard-only
    character then only goes to a player who drew guard."""
    numbers = [5, 900, 17, 333, 640, 2, 77, 450, 999, 120, 61, 808]
    g = game({"characters": CHARS}, fixed_deal=False)
    for s, n in enumerate(numbers, 1):
        g.do(s, "bid", text=f"随机号码={n} 第一志愿=目暮:{s}")
    g.advance()
    key = g.state.draw_key
    order = sorted(range(1, 13), key=lambda s: ((numbers[s - 1] - key) % 999, s))
    assert sorted(g.living("guard")) == sorted(order[:6])
    top_guard = max(order[:6])  # the highest bid among the guards
    assert g.p(top_guard).alias == "目暮"


def test_random_property_every_player_gets_one_fitting_character():
    """Property: any bids give each player exactly one character fitting the camp."""
    import random

    from hypothesis import given, settings
    from hypothesis import strategies as st

    s = ENGINE.settings_of(ENGINE.check_settings({"characters": CHARS}))
    names = [c.name for c in s.characters]
    camp = {c.name: c.camp for c in s.characters}
    kinds = {i: (Kind.GUARD if i <= 6 else Kind.PRISONER) for i in range(1, 13)}
    choice = st.one_of(st.none(), st.builds(lambda n, c, q: Choice(name=n, coins=c, seq=q),
                                            st.sampled_from(names), st.integers(0, 5), st.integers(1, 4)))

    @settings(max_examples=60, deadline=None)
    @given(st.lists(st.tuples(choice, choice), min_size=12, max_size=12), st.integers(0, 99))
    def run(pairs, seed):
        bids = {i + 1: Bid(first=a, second=b) for i, (a, b) in enumerate(pairs)}
        out = award(list(range(1, 13)), kinds, s.characters, bids, random.Random(seed))
        got = [out[i].name for i in range(1, 13)]
        assert len(set(got)) == 12
        assert all(camp[out[i].name] in ("any", kinds[i]) for i in range(1, 13))
        for i in range(1, 13):
            how = out[i].how
            if how != "draw":
                won = bids[i].choice(how)
                assert won is not None and won.name == out[i].name and out[i].coins == won.coins

    run()


def test_the_bundled_sample_script_loads():
    with open(CONTENT_DIR / "script_conan.toml", "rb") as fh:
        s = ENGINE.check_settings(tomllib.load(fh))
    assert len(s["characters"]) == 14 and s["characters"][1] == {"name": "怪盗基德", "camp": "prisoner"}
    assert ENGINE.settings_of(s).characters[2] == Character(name="毛利兰", camp="any")


@pytest.mark.parametrize("chars, expected", [
    (["柯南"] * 12, "角色「柯南」重复了。"),
    (["柯南"], "剧本角色只有 1 个，少于 12 名玩家"),
    ([{"name": f"c{i}", "camp": "prisoner"} for i in range(12)], "能给看守的角色（guard + any）只有 0 个，少于 6 名看守。"),
    ([{"name": "柯 南"}], "不能是纯数字或「无」，也不能含空格"),
    ([{"name": "柯南", "camp": "police"}], "characters[1].camp 只能是 guard、prisoner 或 any。"),
    ([{"name": "柯南", "age": 7}], "未知设置项「characters[1].age」"),
])
def test_character_list_mistakes_are_named(chars, expected):
    from plugins.gamekit.contract import Rejected

    with pytest.raises(Rejected) as exc:
        ENGINE.check_settings({"characters": chars})
    assert any(expected.replace("的camp", "的 camp") in line for line in str(exc.value).split("\n")), str(exc.value)


def test_auction_settings_mistakes_are_named():
    from plugins.gamekit.contract import Rejected

    with pytest.raises(Rejected) as exc:
        ENGINE.check_settings({"auction": {"coins": -1, "limit": "all", "balances": {"x": 3}, "price": 1}})
    lines = str(exc.value).split("\n")
    assert lines == ["auction.coins 应为不小于 0 的整数。", "auction.limit 只能是 each 或 sum。",
                     "auction.balances：「x」应为 座位号 = 不小于 0 的整数。", "未知设置项「auction.price」，请检查拼写。"]
