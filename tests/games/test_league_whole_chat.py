"""A whole small league stage through the bot: sign-ups in
the main group, /开始, one QQ group linked per league group, a match day with
check-ins (one late, one demoted and replaced by a substitute), the 20:00 /
20:05 / 20:20 steps fired by the kernel's timers, a score sheet for every game
of the day, a referee's violation, a private appeal answered, standings, and
/下一轮 closing the stage with the final ranking. Every group message is
checked by the leak scan.

The stage is one round (a clock zone where it is noon now, check-in 06:00-20:00):
a second round would need a second match day on another date, which the
league opens only on that date."""

from __future__ import annotations

from datetime import timedelta

import pytest
from harness import texts
from helpers_league import plain_sheet

from plugins.kernel.deadlines import fire_timer
from plugins.kernel.longtexts import game_with_texts
from plugins.kernel.models import Game, Player, Timer
from plugins.kernel.order import utcnow
from plugins.league.engine import ENGINE

pytestmark = pytest.mark.usefixtures("leak_scan")  # every group message checked against the game's secrets


def _zone_at_noon() -> str:
    """A fixed-offset zone where it is now about 12:00 (as in test_league_chat.py)."""
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
name = "小组赛"
players = 24
groups = 2
advance = 0
double_games = []
days = [{{ label = "第1天", board = "标准场", games = 2 }}]
"""

HOST = "1"


def qq(seat: int) -> str:
    return str(3000 + seat)


def alias(seat: int) -> str:
    return f"队员{seat}"


def who(seat: int) -> str:
    return f"{alias(seat)}（#{seat}）"


async def _game() -> Game:
    """The running game as the kernel reads it: its typed state (texts in place)."""
    g = await Game.filter(status="running").order_by("-id").first()
    assert g is not None
    return await game_with_texts(g.id)


async def _fire(h, key: str):
    """The deadline passes: the kernel's timer row is moved into the past and fired."""
    g = await _game()
    t = await Timer.get(game_id=g.id, key=key, status="armed")
    await Timer.filter(id=t.id).update(ends_at=utcnow() - timedelta(seconds=5))
    await fire_timer(t.id, set())
    return await h.drain()


async def test_a_whole_league_stage_through_the_bot(harness):
    h = harness
    main = h.group_id
    chat = {"A": str(int(main) + 1_000_000), "B": str(int(main) + 2_000_000)}

    assert "开局了" in texts(await h.group(HOST, "/创建 联赛", role="owner"))
    gid = (await Game.get(group_id=main, status="signup")).id
    await Game.filter(id=gid).update(seed="league-whole-1")  # a fixed grouping
    assert "配置已更新" in texts(await h.group(HOST, "/配置 " + VARIANT.format(tz=_zone_at_noon())))
    for seat in range(1, 27):
        assert f"报名成功：{seat}号「{alias(seat)}」" in texts(await h.group(qq(seat), f"/报名 {alias(seat)}"))
    assert "报名 26 人（正赛 24，替补 2）" in texts(await h.group(qq(3), "/名单"), main)
    out = texts(await h.group(HOST, "/开始"), main)
    assert "小组赛 A组" in out and "小组赛 B组" in out
    for g in ("A", "B"):
        assert f"标签「{g}」" in texts(await h.group(HOST, f"/绑定群 {main} {g}", group=chat[g]))

    # the match day: the lineup in each group's chat, check-in there
    out = await h.group(HOST, "/开赛日")
    assert "小组赛 第1比赛日" in texts(out, main) and "本日：第1场、第2场" in texts(out, main)
    lineups = (await _game()).state.days[-1].lineups
    A, B = lineups["A"], lineups["B"]
    for g in ("A", "B"):
        assert f"{g}组 出场名单" in texts(out, chat[g])
    late, demoted = A[5], B[7]
    assert "请到 A组 的分组群" in texts(await h.group(qq(A[0]), "/签到"), main)
    for g, members in (("A", A), ("B", B)):
        for seat in members:
            if seat not in (late, demoted):
                assert "签到成功" in texts(await h.group(qq(seat), "/签到", group=chat[g]))
    out = await _fire(h, "checkin.late")
    assert f"记迟到（各扣 1 分）：{who(late)}" in texts(out, chat["A"])
    assert "签到成功：A组 6号位（迟到，已扣 1 分）" in texts(await h.group(qq(late), "/签到", group=chat["A"]))
    out = await _fire(h, "checkin.demote")
    assert f"B组：{who(demoted)} 降为替补，{who(25)} 递补 8号位" in texts(out, chat["B"])
    assert "你已递补进入 B组 8号位" in texts(out, qq(25))
    assert "签到成功：B组 8号位" in texts(await h.group(qq(25), "/签到", group=chat["B"]))
    out = await _fire(h, "checkin.seat")
    assert "弃权" not in texts(out)  # everyone in the lineup is seated

    # a score sheet for every game of the day, each summary in its group's chat
    g = await _game()
    lineups = g.state.days[-1].lineups
    settings = ENGINE.settings_of(g.settings)
    played = {}
    for no in (1, 2):
        for grp in ("A", "B"):
            winner = "好人" if (no + ord(grp)) % 2 else "狼人"
            tokens = {0: "全场最佳", 8: "败方最佳"} if winner == "好人" else {8: "全场最佳", 0: "败方最佳"}
            if (no, grp) == (2, "A"):
                tokens[3] = "违规:擦边"  # a violation on the sheet itself
            sheet = plain_sheet(settings, "标准场", grp, no, lineups[grp], winner=winner, tokens=tokens)
            out = await h.group(HOST, "/录分 " + sheet, group=chat[grp])
            game_no = len(played) + 1
            assert f"已录入局号#{game_no}" in texts(out, chat[grp])
            assert f"局号#{game_no} 小组赛 {grp}组 第{no}场：{winner}胜" in texts(out, chat[grp])
            played[(no, grp)] = game_no
    sheet_violator = sorted(lineups["A"])[3]
    assert "擦边" in texts(await h.group(qq(sheet_violator), "/我的积分"), main)

    # a referee's violation in a game; the player is told in private and appeals there
    offender = sorted(lineups["B"])[2]
    game = played[(1, "B")]
    out = await h.group(HOST, f"/违规 {alias(offender)} 场外 {game}")
    assert f"已记 {who(offender)} " in texts(out, main) and "违规「场外」" in texts(out, main)
    assert "裁判判定你" in texts(out, qq(offender))
    vid = int(texts(out, main).split("（编号 ")[1].split("）")[0])
    assert "请私聊我" in texts(await h.group(qq(offender), f"/申诉 {game} 没有场外"))
    out = await h.private(qq(offender), f"/申诉 {game} 我说的是场内信息，没有场外")
    assert "申诉已提交（编号 1）" in texts(out, qq(offender))
    assert f"新申诉 1：{who(offender)} 对局号#{game}" in texts(out, HOST)
    assert "新申诉" not in texts(out, main)
    assert f"{who(offender)}" in texts(await h.private(HOST, "/申诉列表"), HOST)
    out = await h.private(HOST, "/裁决 1 改判 复核录像：场内信息")
    assert "已记改判" in texts(out, HOST)
    assert "裁判组答复：改判" in texts(out, qq(offender))
    out = await h.private(HOST, f"/撤销 {vid} 申诉改判")
    assert f"已撤销编号 {vid}：{who(offender)} 场外" in texts(out, HOST)
    assert "违规扣分 0" in texts(await h.group(qq(offender), "/我的积分"), main)

    # standings: the whole round on one page, forfeits none, the demoted player unranked
    board = texts(await h.group(qq(2), "/积分榜"), main)
    assert "小组赛 积分榜（第 1/1 页" in board and "降为替补" in board
    assert "迟到" in texts(await h.group(qq(late), "/我的积分"), main)

    # the stage ends: the final ranking in the main group, the game is over
    out = await h.group(HOST, "/下一轮")
    final = texts(out, main)
    assert "小组赛 最终排名：" in final and f"24. {who(late)} 99" in final  # the late check-in's -1 (§五)
    assert who(demoted) not in final  # demoted at 20:05 and never back: not ranked (§十.3)
    assert "最终排名" not in texts(out, chat["A"]) + texts(out, chat["B"])  # league-wide news: main group only
    g = await game_with_texts(gid)
    assert g.status == "ended" and g.state.finished
    assert await Player.filter(game_id=gid).count() == 26
