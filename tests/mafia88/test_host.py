"""Host tools (§十 table changes, §十五.10/12 rulings and the end)."""

from __future__ import annotations

import pytest
from mafia88_helpers import essay, small

from plugins.gamekit.contract import Eliminate, Finish, Rejected, Restore, Say
from plugins.mafia88.engine import ENGINE
from plugins.mafia88.engine.state import TableRow


def test_kernel_out_and_back():
    g = small()
    effects = g.cmd(None, "kernel.out", host=True, seat=3, reason="红牌")
    assert effects == [Eliminate(3, "判出局：红牌"), Say("group", "3号 玩家3 被哨子判出局：红牌。")]
    with pytest.raises(Rejected, match="已经出局"):
        g.cmd(None, "kernel.out", host=True, seat=3, reason="红牌")
    effects = g.cmd(None, "kernel.back", host=True, seat=3, reason="误判")
    assert effects == [Restore(3, "判复活：误判"), Say("group", "3号 玩家3 经哨子判定回到场上：误判。")]
    with pytest.raises(Rejected, match="还在场上"):
        g.cmd(None, "kernel.back", host=True, seat=3, reason="误判")


def test_host_out_is_announced_with_the_reason():
    g = small()
    effects = g.host("out", player=4, reason="自曝马甲（§十五.3）")
    assert "自曝马甲" in g.says("group", effects)[0]
    assert "你已出局：判出局：自曝马甲" in ENGINE.private_info(g.state, 4, settings=g.settings)


def test_game_ends_when_one_side_has_nobody_left_15_12():
    g = small()
    blacks = [s for s in g.alive() if g.p(s).role in ("gu_sha", "lianhe_sha", "du_sha")]
    for s in blacks[:-1]:
        g.host("out", player=s, reason="测试")
    assert g.finished is None
    effects = g.host("out", player=blacks[-1], reason="测试")
    fin = [e for e in effects if isinstance(e, Finish)]
    assert fin and "白方胜" in fin[0].summary
    assert g.state.step == "over"
    with pytest.raises(Rejected, match="游戏已结束"):
        g.cmd(g.alive()[0], "vote", targets=[g.alive()[1]])
    assert "游戏已结束：白方胜" in ENGINE.status(g.state, settings=g.settings)


def test_hosts_declare_the_end_and_the_reveal_lists_roles_posts_and_votes_12_8():
    g = small()
    gu = g.seats_of("gu_sha")[0]
    an = g.seats_of("an_dan")[0]
    g.submit_post(gu, g.seats_of("you_xia")[0])
    g.cmd(5, "vote", targets=[6])
    effects = g.host("end", result="平局", reason="全体同意")
    summary = [e for e in effects if isinstance(e, Finish)][0].summary
    assert "未分胜负" in summary and "全体同意" in summary
    assert f"{an}号 玩家{an}：暗蛋（白方）｜他在哪" in summary
    assert f"#1 第1轮 我服了（{gu}号 玩家{gu}）" in summary
    assert "第1轮（1 票）：\n#1 5号 玩家5→6号 玩家6" in summary
    with pytest.raises(Rejected):
        g.host("end", result="白方", reason="again")


def test_change_the_round_table_mid_game_10():
    g = small()
    g.host("set_round", round=2, votes=1, out=2, posts="独3")
    assert g.state.table[1] == TableRow(votes=1, out=2, posts={"独": 3})
    assert "第2轮：每人 1 票，票出 2，贴杀 独3" in g.cmd(1, "table")[0].text
    g.host("set_round", round=4, votes=1, out=1, posts="杀1")  # append an overtime round
    assert len(g.state.table) == 4
    with pytest.raises(Rejected, match="看不懂「魔2」"):
        g.host("set_round", round=2, votes=1, out=2, posts="魔2")
    with pytest.raises(Rejected, match="只能改已有轮次"):
        g.host("set_round", round=9, votes=1, out=2)
    # the current round: quota added before the due time lets a killer post now
    du = g.seats_of("du_sha")[0]
    with pytest.raises(Rejected, match="没有贴杀任务"):
        g.cmd(du, "post", code=g.p(du).code, target=g.seats_of("you_xia")[0])
    g.host("set_round", round=1, votes=2, out=1, posts="孤杀1 独1")
    g.cmd(du, "post", code=g.p(du).code, target=g.seats_of("you_xia")[0])
    g.cmd(2, "vote", targets=[3])
    with pytest.raises(Rejected, match="不能再改每人票数"):
        g.host("set_round", round=1, votes=1, out=1)
    with pytest.raises(Rejected, match="只有哨子"):
        g.cmd(2, "set_round", round=2, votes=1, out=1)


def test_vote_log_shows_proxies_and_who_has_not_voted():
    g = small()
    g.cmd(1, "proxy", targets=[2])
    g.cmd(3, "vote", targets=[2])
    text = g.host("vote_log")[0].text
    assert "1号 玩家1（托票） → 2号 玩家2" in text
    assert "未投票 11 人" in text and "3号 玩家3、" not in text


def test_status_and_tables():
    g = small()
    g.report_all()
    g.cmd(1, "vote", targets=[2])
    status = ENGINE.status(g.state, settings=g.settings)
    assert status.startswith("第1轮（投票中）｜存活 13 人｜已投票 1 人")
    tables = ENGINE.tables(g.state, settings=g.settings)
    assert set(tables) == {"身份", "投票", "杀帖", "进程", "结果", "记录"}
    assert len(tables["身份"]) == 14 and tables["身份"][0][0] == "座位"
    assert tables["投票"][1][4] == 1
    assert essay(5)


def test_self_post_leaving_no_full_vote_ends_the_game_12_10():
    g = small()
    gu = g.seats_of("gu_sha")[0]
    for s in g.seats_of("lianhe_sha") + g.seats_of("du_sha"):
        g.host("out", player=s, reason="测试")
    g.submit_post(gu, gu)  # self-posts are not forbidden (§十二.10)
    effects = g.fire("publish:1")
    fin = [e for e in effects if isinstance(e, Finish)]
    assert fin and "白方胜" in fin[0].summary
    assert g.timers == {} and g.phase is None
