"""Group chats (/绑定群 <主群号> <组名>): what concerns one league group goes to
its linked chat, league-wide news to the main group; /签到 only in the right place."""

from __future__ import annotations

from datetime import timedelta

from helpers_league import League, at, checkin_all, plain_sheet, texts

SMALL = {"options": {"main_draw": 24},
         "rounds": [{"key": "r1", "name": "第一轮", "players": 24, "groups": 2, "advance": 12,
                     "double_games": [], "days": [{"label": "d", "board": "标准场", "games": 1}] * 2},
                    {"key": "final", "name": "总决赛", "players": 12, "groups": 1, "advance": 0,
                     "double_games": [], "days": [{"label": "d", "board": "标准场", "games": 1}]}]}


def league(chats=("A",)) -> League:
    return League(n=27, settings=SMALL, chats=chats)


def test_groups_announced_in_their_chats_when_linked_before_the_start():
    lg = League(n=27, settings=SMALL, chats=("A", "B"))
    assert [t.split("（")[0] for t in texts(lg.effects, "chat:A")] == ["第一轮 A组"]
    assert [t.split("（")[0] for t in texts(lg.effects, "chat:B")] == ["第一轮 B组"]
    assert len(texts(lg.effects, "group")) == 1  # only the registration summary


def test_open_day_posts_each_linked_group_its_lineup_and_tells_the_rest_to_use_the_main_group():
    lg = league(("A",))
    eff = lg.host("open_day", at("1-2", "09:00"), date="1-2")
    main = texts(eff, "group")
    assert len(main) == 1 and "还没有绑定分组群的组（B组）请在本群（主群）签到" in main[0]
    [a] = texts(eff, "chat:A")
    assert a.startswith("第一轮 第1比赛日 1月2日（标准场） A组 出场名单：")
    assert f"1号位 p{lg.lineup('A')[0]}（#{lg.lineup('A')[0]}）" in a and "请在本群发送 /签到" in a
    assert texts(eff, "chat:B") == []


def test_checkin_only_in_the_players_own_group_chat():
    lg = league(("A",))
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    a, b = lg.lineup("A")[0], lg.lineup("B")[0]
    # A has a linked chat: not in the main group, not in another chat
    assert lg.player_rejected(a, "checkin", at("1-2", "18:05"), chat="main") == \
        "你是 A组，请到 A组 的分组群（标签「A」）发送 /签到，不要在这个群签到。"
    assert "请到 A组 的分组群" in lg.player_rejected(a, "checkin", at("1-2", "18:05"), chat="B")
    assert texts(lg.player(a, "checkin", at("1-2", "18:05"), chat="A"), "reply")[0].startswith("签到成功：A组 1号位")
    # B has no linked chat: the main group only
    assert lg.player_rejected(b, "checkin", at("1-2", "18:05"), chat="A") == \
        "你是 B组，B组 还没有绑定分组群，请在联赛主群发送 /签到。"
    assert texts(lg.player(b, "checkin", at("1-2", "18:05"), chat="main"), "reply")[0].startswith("签到成功：B组")
    # a substitute is told to wait wherever he writes
    assert lg.player_rejected(25, "checkin", at("1-2", "18:05"), chat="A") == "你不在今天的出场名单里；替补请等待递补通知。"


def test_clock_steps_announce_per_group_chat_and_the_rest_in_the_main_group():
    lg = league(("A", "B"))
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    late_a, late_b, gone_b = lg.lineup("A")[3], lg.lineup("B")[5], lg.lineup("B")[6]
    for g, chat in (("A", "A"), ("B", "B")):
        for seat in lg.lineup(g):
            if seat not in (late_a, late_b, gone_b):
                lg.player(seat, "checkin", at("1-2", "18:10"), chat=chat)
    eff = lg.timer("checkin.late", at("1-2", "18:30"))
    assert texts(eff, "chat:A") == [f"18:30 未签到，记迟到（各扣 1 分）：p{late_a}（#{late_a}）"]
    assert texts(eff, "chat:B") == [f"18:30 未签到，记迟到（各扣 1 分）：p{late_b}（#{late_b}）、p{gone_b}（#{gone_b}）"]
    assert texts(eff, "group") == []
    assert "迟到，已扣 1 分" in texts(lg.player(late_a, "checkin", at("1-2", "18:31"), chat="A"), "reply")[0]
    lg.player(late_b, "checkin", at("1-2", "18:32"), chat="B")
    eff = lg.timer("checkin.demote", at("1-2", "18:35"))
    assert texts(eff, "chat:B") == [f"18:35 替补调整：\nB组：p{gone_b}（#{gone_b}） 降为替补，p25（#25） 递补 7号位"]
    assert texts(eff, "group") == [] and texts(eff, "chat:A") == []
    eff = lg.timer("checkin.seat", at("1-2", "18:50"))  # #25 never came
    assert texts(eff, "chat:B") == ["18:50 未入座视为弃权（§十二.5）：\nB组：p25（#25） 弃权，p26（#26） 顶上"]
    assert texts(eff, "group") == []


def test_a_timer_fired_a_moment_early_still_runs_its_step():
    """The kernel may fire up to a second before the stored time; the step must not be lost."""
    lg = league(())
    lg.host("open_day", at("1-2", "09:00"), date="1-2")
    checkin_all(lg, at("1-2", "18:10"), skip=(lg.lineup("A")[0],))
    early = at("1-2", "18:30") - timedelta(seconds=1)
    eff = lg.timer("checkin.late", early)
    assert "记迟到" in texts(eff, "group")[0] and "late" in lg.day.done
    assert "demote" not in lg.day.done  # later steps wait for their own time


def test_game_summary_goes_to_the_group_chat_and_round_change_to_the_main_group():
    lg = league(("A", "B"))
    for d in ("1-2", "1-3"):
        lg.host("open_day", at(d, "09:00"), date=d)
        checkin_all(lg, at(d, "18:10"))
        for key, hhmm in (("checkin.late", "18:30"), ("checkin.demote", "18:35"), ("checkin.seat", "18:50")):
            lg.timer(key, at(d, hhmm))
        for g in ("A", "B"):
            eff = lg.host("score", at(d, "22:00"), text=plain_sheet(lg.cfg, "标准场", g, None, lg.lineup(g)))
            assert texts(eff, f"chat:{g}")[0].startswith("局号#")
            assert texts(eff, "group") == []
    eff = lg.host("void", at("1-3", "23:00"), game=1, reason="断线")
    assert texts(eff, "chat:A")[0].startswith("局号#1（A组 第1场）流局：断线") and texts(eff, "group") == []
    eff = lg.host("rescore", at("1-3", "23:10"), game=2,
                  text=plain_sheet(lg.cfg, "标准场", "B", 1, lg.state.days[0].lineups["B"], winner="狼人"))
    assert texts(eff, "chat:B")[0].startswith("裁判更正了计分表") and texts(eff, "group") == []
    eff = lg.host("next_round", at("1-4", "10:00"))
    assert texts(eff, "group")[0].startswith("第一轮 结束，前 12 名晋级")
    assert texts(eff, "chat:A")[0].startswith("总决赛 A组")  # the new grouping in the group's chat
