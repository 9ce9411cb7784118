"""A league saved by the plain-dict engine (state version 2, ``fixtures/saved-v2.json``: exactly
what ``encode`` gave and the kernel stored, the appeals' texts inline) is read by the typed
engine and plays on — on the pure engine and through the bot after a restart.

The saved league (30 registrations, settings ``SAVED``) stopped before the final's second
match day: round one with a late check-in, a demotion, a forfeit (未到), a corrected sheet, a
void game and its replay, violations taken back and kept, an appeal answered and one open; the
final's first day played, a finalist disqualified (作弊) before it and a substitute red-carded;
two finalists had checked in early for the second day. The texts expected below are what the
plain-dict engine answered when it played on from the same state."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import msgspec
import pytest
from harness import texts as chat_texts
from helpers_league import League, at, checkin_all, plain_sheet, texts

from plugins.gamekit.contract import Finish, copy_state
from plugins.kernel.deadlines import fire_timer
from plugins.kernel.held import forget
from plugins.kernel.longtexts import game_with_texts
from plugins.kernel.models import Game, Player, Timer
from plugins.kernel.order import utcnow
from plugins.league.engine import ENGINE
from plugins.league.engine.standings import rows
from plugins.league.engine.state import AppealStatus, DqCause, GameStatus, Side, Status, Step

SAVED_JSON = Path(__file__).parent / "fixtures" / "saved-v2.json"
DAYS_R1 = [{"label": "1月2日", "board": "标准场", "games": 1}, {"label": "1月3日", "board": "标准场", "games": 1}]
DAYS_FINAL = [{"label": "1月9日", "board": "标准场", "games": 1}, {"label": "1月10日", "board": "标准场", "games": 1}]
SAVED = {"options": {"main_draw": 24},
         "rounds": [{"key": "r1", "name": "第一轮", "players": 24, "groups": 2, "advance": 12,
                     "double_games": [], "days": DAYS_R1},
                    {"key": "final", "name": "总决赛", "players": 12, "groups": 1, "advance": 0,
                     "double_games": [2], "days": DAYS_FINAL}]}
FINAL = ("总决赛 最终排名：\n1. p2（#2） 113\n2. p1（#1） 111\n3. p3（#3） 109\n4. p10（#10） 109\n5. p11（#11） 109\n"
         "6. p8（#8） 109\n7. p6（#6） 109\n8. p4（#4） 108\n9. p13（#13） 94\n10. p19（#19） 93\n11. p21（#21） 92\n"
         "12. p22（#22） 91")


def saved() -> dict:
    return json.loads(SAVED_JSON.read_text(encoding="utf-8"))


def test_the_saved_state_decodes_with_its_values():
    raw = saved()
    assert raw["version"] == ENGINE.STATE_VERSION == 2
    st = ENGINE.decode(copy_state(raw))
    assert (st.round, st.finished, len(st.players), len(st.games), len(st.violations)) == (1, False, 30, 6, 9)
    p7 = st.players[7]
    assert (p7.status, p7.dq_cause, p7.dq_group) == (Status.DQ, DqCause.VIOLATIONS, "A")
    assert [k for k, p in st.players.items() if p.status is not Status.ACTIVE] == [7, 9, 18, 24]
    assert (st.players[24].status, st.players[9].status, st.players[3].dq_cause) == (Status.OUT, Status.FORFEIT, None)
    assert st.rounds[0].ranking is not None and st.rounds[0].ranking[:3] == [19, 3, 1]
    assert st.rounds[0].benched == [23] and st.rounds[1].ranking is None
    first = st.days[0]
    assert (first.late, first.absent, first.forfeit, first.promoted) == ([24, 23], [9], [9], {25: "B", 26: "A"})
    assert first.done == [Step.LATE, Step.DEMOTE, Step.SEAT] and first.ran[Step.SEAT] == "2027-01-02T10:50:00+00:00"
    assert st.early == {"2027-01-10": {22: "2027-01-10T10:05:00+00:00", 3: "2027-01-10T10:07:00+00:00"}}
    g1 = st.games[0]
    assert len(g1.history) == 1 and g1.parsed.ties[1].stage == [9, 7] and g1.parsed.winner is Side.GOOD
    assert g1.points[3].mvp and g1.points[3].parts.award == 2 and g1.points[3].plus == 6.5
    assert st.games[1].parsed.bind_day == 2
    assert (st.games[3].status, st.games[3].void_reason) == (GameStatus.VOID, "断线重开")
    assert [v.id for v in st.violations if v.reversed is not None] == [3, 5]
    assert st.violations[4].reversed is not None and st.violations[4].reversed.reason == "复核录像，非贴脸"
    assert [a.status for a in st.appeals] == [AppealStatus.UPHELD, AppealStatus.OPEN]
    assert st.appeals[1].text == "第1天复票记录有误，5号和6号的复票应投给9号。"
    assert st.audit[-1].action == "评选"


def test_the_saved_state_is_written_back_in_the_same_shape():
    raw = saved()
    assert ENGINE.encode(ENGINE.decode(copy_state(raw))) == raw


def test_a_version_one_state_of_the_same_game_is_upgraded():
    raw = saved()
    old = {**copy_state(raw), "version": 1, "cfg": ENGINE.check_settings(SAVED)}
    assert ENGINE.upgrade(copy_state(old)) == {**raw, "version": 1}
    assert ENGINE.decode(old) == msgspec.structs.replace(ENGINE.decode(copy_state(raw)), version=1)


def test_the_saved_league_plays_on_to_its_final_ranking():
    lg = League.resume(ENGINE.decode(saved()), SAVED, chats=("A",))
    table = rows(lg.state, lg.cfg, 1)
    assert [(r.seat, r.total, r.rank) for r in table[:3]] == [(1, 105, 1), (3, 103, 2), (2, 103, 3)]
    assert [(r.seat, r.status) for r in table if r.rank is None] == [(7, "dq"), (18, "forfeit"), (5, "demoted")]
    eff = lg.host("open_day", at("1-10", "12:00"), date="1-10")
    assert texts(eff, "group")[0].startswith("总决赛 第2比赛日 1月10日（标准场）")
    assert lg.day.checked == {22: "2027-01-10T10:05:00+00:00", 3: "2027-01-10T10:07:00+00:00"}  # kept early
    assert lg.state.early == {}
    lineup = lg.lineup("A")
    assert lineup == [22, 3, 6, 21, 8, 1, 25, 4, 19, 10, 11, 2]
    assert texts(lg.player(1, "checkin", at("1-10", "18:20"), chat="A"), "reply") == \
        ["签到成功：A组 6号位。18:50 前按裁判指示进入房间就座。"]
    checkin_all(lg, at("1-10", "18:25"), skip=(25,))
    eff = lg.timer("checkin.late", at("1-10", "18:30"))
    assert texts(eff, "chat:A") == ["18:30 未签到，记迟到（各扣 1 分）：p25（#25）"]
    eff = lg.timer("checkin.demote", at("1-10", "18:35"))
    assert texts(eff, "chat:A") == ["18:35 替补调整：\nA组：p25（#25） 降为替补，p12（#12） 递补 7号位"]
    eff = lg.timer("checkin.seat", at("1-10", "18:50"))  # #12 never checks in
    assert texts(eff, "chat:A") == ["18:50 未入座视为弃权（§十二.5）：\nA组：p12（#12） 弃权，p13（#13） 顶上"]
    eff = lg.host("score", at("1-10", "21:00"), text=plain_sheet(lg.cfg, "标准场", "A", 2, lg.lineup("A"),
                                                               tokens={1: "全场最佳", 9: "败方最佳"}))
    summary = texts(eff, "chat:A")[0].splitlines()
    assert summary[0] == "局号#7 总决赛 A组 第2场（双倍积分）：好人胜"
    assert "2号 p2（#2） 女巫 +10 -0 = +10（全场最佳）" in summary and "10号 p19（#19） 狼人 +2 -6 = -4（败方最佳）" in summary
    mine = texts(lg.host("my_points", at("1-10", "22:00"), player=4), "reply")[0]
    assert "· 违规#9 黑麦（局号#6）-1" in mine and "· 第2场 A组 局号#7 白痴 胜 +6 -0 = +6（双倍）" in mine
    eff = lg.host("next_round", at("1-11", "10:00"))
    assert [e.summary for e in eff if isinstance(e, Finish)] == [FINAL]
    assert lg.state.finished and lg.state.players[12].status is Status.FORFEIT


# ---- through the bot, after a restart ------------------------------------------------------


def _zone_at_noon() -> str:
    """A fixed-offset zone where it is now about 12:00 (as in tests/games/test_league_chat.py)."""
    h = (12 - utcnow().hour) % 24
    h = h - 24 if h > 12 else h
    return "Etc/GMT" if h == 0 else (f"Etc/GMT-{h}" if h > 0 else f"Etc/GMT+{-h}")


VARIANT = """timezone = "{tz}"
[times]
checkin_open = "06:00"
late = "20:00"
demote = "20:05"
seat = "20:20"
[options]
main_draw = 24
[[rounds]]
key = "r1"
name = "第一轮"
players = 24
groups = 2
advance = 12
double_games = []
days = [{{ label = "1月2日", board = "标准场", games = 1 }}, {{ label = "1月3日", board = "标准场", games = 1 }}]
[[rounds]]
key = "final"
name = "总决赛"
players = 12
groups = 1
advance = 0
double_games = [2]
days = [{{ label = "1月9日", board = "标准场", games = 1 }}, {{ label = "1月10日", board = "标准场", games = 1 }}]
"""
HOST = "1"


def qq(seat: int) -> str:
    return str(10000 + seat)  # as the saved league's registrations


async def _fire(h, game_id: int, key: str):
    t = await Timer.get(game_id=game_id, key=key, status="armed")
    await Timer.filter(id=t.id).update(ends_at=utcnow() - timedelta(seconds=5))
    await fire_timer(t.id, set())
    return await h.drain()


@pytest.mark.usefixtures("leak_scan")
async def test_a_saved_league_written_into_the_game_row_plays_on_through_the_bot(harness):
    h = harness
    main = h.group_id
    assert "开局了" in chat_texts(await h.group(HOST, "/创建 联赛", role="owner"))
    assert "配置已更新" in chat_texts(await h.group(HOST, "/配置 " + VARIANT.format(tz=_zone_at_noon())))
    for seat in range(1, 31):
        assert f"报名成功：{seat}号「p{seat}」" in chat_texts(await h.group(qq(seat), f"/报名 p{seat}"))
    assert "第一轮 A组" in chat_texts(await h.group(HOST, "/开始"))
    # the bot stops; the game's row holds the league saved by the plain-dict engine; the bot starts again
    gid = (await Game.get(group_id=main, status="running")).id
    await Game.filter(id=gid).update(state=saved())
    await Player.filter(game_id=gid, seat__in=[7, 9, 18, 24]).update(alive=False)
    forget(gid)

    board = chat_texts(await h.group(qq(2), "/积分榜"), main)
    assert "总决赛 积分榜（第 1/1 页，共 15 人）\n1. p1（#1） 105\n2. p3（#3） 103" in board
    assert "p7（#7） 100（取消资格）" in board and "p5（#5） 99（降为替补）" in board
    mine = chat_texts(await h.group(qq(4), "/我的积分"), main)
    assert "· 违规#9 黑麦（局号#6）-1" in mine
    assert "第1天复票记录有误" in chat_texts(await h.private(HOST, "/申诉列表"), HOST)  # the open appeal, inline text

    out = await h.group(HOST, "/开赛日")
    assert "总决赛 第2比赛日" in chat_texts(out, main)
    g = await game_with_texts(gid)
    lineup = g.state.days[-1].lineups["A"]
    assert sorted(lineup) == [1, 2, 3, 4, 6, 8, 10, 11, 19, 21, 22, 25] and g.state.early == {}
    late = lineup[6]
    for seat in lineup:
        if seat != late:
            assert "签到成功：A组" in chat_texts(await h.group(qq(seat), "/签到"), main)
    assert f"记迟到（各扣 1 分）：p{late}（#{late}）" in chat_texts(await _fire(h, gid, "checkin.late"), main)
    assert "签到成功：A组 7号位（迟到，已扣 1 分）" in chat_texts(await h.group(qq(late), "/签到"), main)
    await _fire(h, gid, "checkin.demote")
    await _fire(h, gid, "checkin.seat")

    g = await game_with_texts(gid)
    sheet = plain_sheet(ENGINE.settings_of(g.settings), "标准场", "A", 2, g.state.days[-1].lineups["A"],
                        tokens={1: "全场最佳"})
    out = await h.group(HOST, "/录分 " + sheet)
    assert "已录入局号#7" in chat_texts(out, main) and "局号#7 总决赛 A组 第2场（双倍积分）：好人胜" in chat_texts(out, main)
    out = await h.group(HOST, "/下一轮")
    final = chat_texts(out, main)
    assert "总决赛 最终排名：" in final and f"p{late}（#{late}）" in final
    g = await game_with_texts(gid)
    assert g.status == "ended" and g.state.finished and len(g.state.games) == 7
    assert g.state.appeals[1].text == "第1天复票记录有误，5号和6号的复票应投给9号。"  # now in a row of its own
    stored = (await Game.get(id=gid)).state
    assert stored["appeals"][1]["text"] != g.state.appeals[1].text  # the row holds a reference to it
