"""The league through the bot: a small stage variant set with /配置,
sign-ups in the main group, two group chats linked with /绑定群, a match day
with check-ins in the right and wrong chats, the 18:30 / 18:35 / 18:50 steps
fired by the kernel's timers, score sheets, standings (text and picture), a
private appeal, the export and the next round."""

from __future__ import annotations

import csv
from datetime import timedelta
from pathlib import Path

import pytest
from harness import export_folder, texts
from helpers_league import plain_sheet

from plugins.kernel.deadlines import fire_timer
from plugins.kernel.longtexts import game_with_texts
from plugins.kernel.models import Game, Outbox, Timer
from plugins.kernel.order import utcnow
from plugins.league.engine import ENGINE

pytestmark = pytest.mark.usefixtures("leak_scan")  # every group message checked against the game's secrets


def _zone_at_noon() -> str:
    """A fixed-offset zone where it is now about 12:00, so the match day's check-in
    window (06:00-20:00 below) is open whenever the test runs."""
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
days = [{{ label = "第1天", board = "标准场", games = 1 }}]
[[rounds]]
key = "final"
name = "总决赛"
players = 12
groups = 1
advance = 0
double_games = []
days = [{{ label = "第2天", board = "标准场", games = 1 }}]
"""

HOST = "1"


def qq(seat: int) -> str:
    return str(2000 + seat)


def alias(seat: int) -> str:
    return f"选手{seat}"


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


async def test_league_match_day_through_the_bot(harness):
    h = harness
    main = h.group_id
    chat = {"A": str(int(main) + 1_000_000), "B": str(int(main) + 2_000_000)}

    assert "开局了" in texts(await h.group(HOST, "/创建 联赛", role="owner"))
    assert "配置已更新" in texts(await h.group(HOST, "/配置 " + VARIANT.format(tz=_zone_at_noon())))
    for seat in range(1, 29):
        assert f"报名成功：{seat}号「{alias(seat)}」" in texts(await h.group(qq(seat), f"/报名 {alias(seat)}"))
    # §十.1 before the start: who is main draw and who is a substitute (kernel hook signup_view)
    roster = texts(await h.group(qq(1), "/名单"), main)
    assert "名单（报名 28 人（正赛 24，替补 4））：" in roster
    assert f"24号 {alias(24)}（正赛）" in roster and f"25号 {alias(25)}（替补）" in roster
    assert "存活" not in roster
    status = texts(await h.group(qq(1), "/状态"), main)
    assert "报名中，报名 28 人（正赛 24，替补 4）" in status and "存活" not in status
    out = texts(await h.group(HOST, "/开始"), main)
    assert "报名 28 人：前 24 人为正赛选手，其余 4 人按报名顺序为替补" in out
    assert "第一轮 A组" in out and "第一轮 B组" in out  # no chats linked yet: grouping in the main group

    # the hosts link one QQ group per league group
    assert "标签「A」" in texts(await h.group(HOST, f"/绑定群 {main} A", group=chat["A"]))
    assert "标签「B」" in texts(await h.group(HOST, f"/绑定群 {main} B", group=chat["B"]))

    out = await h.group(HOST, "/开赛日")
    assert "第一轮 第1比赛日" in texts(out, main) and "请在分组群发送 /签到" in texts(out, main)
    assert "出场名单" not in texts(out, main)
    lineups = (await _game()).state.days[-1].lineups
    A, B = lineups["A"], lineups["B"]
    for g in ("A", "B"):
        posted = texts(out, chat[g])
        assert f"{g}组 出场名单" in posted and f"1号位 {who(lineups[g][0])}" in posted
        assert "请在本群发送 /签到" in posted

    # check-in: only in the player's own group chat
    a0 = A[0]
    assert "请到 A组 的分组群" in texts(await h.group(qq(a0), "/签到", group=chat["B"]), chat["B"])
    assert "请到 A组 的分组群" in texts(await h.group(qq(a0), "/签到"), main)
    assert "签到成功：A组 1号位" in texts(await h.group(qq(a0), "/签到", group=chat["A"]), chat["A"])
    assert "你已经签到过了" in texts(await h.group(qq(a0), "/签到", group=chat["A"]))
    assert "你不是本届联赛的报名选手，不能这样做。" in texts(await h.group("9999", "/签到", group=chat["A"]))
    assert "不在今天的出场名单里" in texts(await h.group(qq(27), "/签到", group=chat["A"]))

    late_a, demoted_b, absent_b = A[11], B[10], B[11]
    for g, members in (("A", A), ("B", B)):
        for seat in members:
            if seat not in (a0, late_a, demoted_b):
                assert "签到成功" in texts(await h.group(qq(seat), "/签到", group=chat[g]))

    # 20:00 passes (the league's "18:30"): late, -1 point, said in each group's own chat
    out = await _fire(h, "checkin.late")
    assert f"20:00 未签到，记迟到（各扣 1 分）：{who(late_a)}" in texts(out, chat["A"])
    assert f"20:00 未签到，记迟到（各扣 1 分）：{who(demoted_b)}" in texts(out, chat["B"])
    assert "记迟到" not in texts(out, main)
    assert "仍未签到，记迟到扣 1 分" in texts(out, qq(late_a))
    assert "签到成功：A组 12号位（迟到，已扣 1 分）" in texts(await h.group(qq(late_a), "/签到", group=chat["A"]))

    # 20:05 (the "18:35"): still missing => substitute; the first substitute (#25) comes in
    out = await _fire(h, "checkin.demote")
    assert f"B组：{who(demoted_b)} 降为替补，{who(25)} 递补 11号位" in texts(out, chat["B"])
    assert "替补调整" not in texts(out, main)
    assert "你已降为替补" in texts(out, qq(demoted_b))
    assert "你已递补进入 B组 11号位" in texts(out, qq(25))
    assert "已降为替补" in texts(await h.group(qq(demoted_b), "/签到", group=chat["B"]))
    assert "签到成功：B组 11号位" in texts(await h.group(qq(25), "/签到", group=chat["B"]))

    # a referee marks a checked-in player who never took the seat; 20:20 (the "18:50"): forfeit
    assert f"已记未到：{who(absent_b)}" in texts(await h.group(HOST, f"/未到 {alias(absent_b)}"))
    out = await _fire(h, "checkin.seat")
    assert f"B组：{who(absent_b)} 弃权，{who(26)} 顶上" in texts(out, chat["B"])
    assert "你已顶上" in texts(out, qq(26))
    assert f"{absent_b}号 {alias(absent_b)}（出局）" in texts(await h.group(qq(a0), "/名单"))

    # the sheet template for A's game, pre-filled with the seated lineup
    tpl = texts(await h.group(HOST, "/录分模板 A", group=chat["A"]), chat["A"])
    assert "A组 第1场\n# 标准场：" in tpl and "胜方 好人/狼人" in tpl
    assert "没有 Z组" in texts(await h.group(HOST, "/录分模板 Z"))

    # the referees enter both games; each summary goes to its group's chat
    g = await _game()
    lineups = g.state.days[-1].lineups
    settings = ENGINE.settings_of(g.settings)
    sheet_a = plain_sheet(settings, "标准场", "A", 1, lineups["A"], tokens={0: "全场最佳", 8: "败方最佳"})
    out = await h.group(HOST, "/录分 " + sheet_a, group=chat["A"])
    assert "已录入局号#1" in texts(out, chat["A"])
    assert "局号#1 第一轮 A组 第1场：好人胜" in texts(out, chat["A"]) and "局号#1" not in texts(out, main)
    sheet_b = plain_sheet(settings, "标准场", "B", 1, lineups["B"], winner="狼人")
    out = await h.group(HOST, "/录分 " + sheet_b)
    assert "已录入局号#2" in texts(out, main)
    assert "局号#2 第一轮 B组 第1场：狼人胜" in texts(out, chat["B"]) and "好人胜" not in texts(out, chat["B"])
    assert "本轮没有 C组" in texts(await h.group(HOST, "/录分 C组 第1场\n胜方 好人"))

    # standings and one player's breakdown
    board = texts(await h.group(qq(a0), "/积分榜"), main)
    assert "第一轮 积分榜（第 1/1 页" in board and "—— 晋级线：前 12 名 ——" in board
    assert f"{alias(absent_b)}（#{absent_b}） 100（弃权）" in board
    mine = texts(await h.group(qq(late_a), "/我的积分"), main)
    assert f"{who(late_a)} 第一轮" in mine and "· 违规#1 迟到（场外）-1" in mine and "违规扣分 -1" in mine
    # the late deduction is taken back (§八 改判); the player is told in private
    out = await h.group(HOST, "/撤销 1 签到群卡顿")
    assert f"已撤销编号 1：{who(late_a)} 迟到（场外），退回 1 分。" in texts(out, main)
    assert "裁判撤销了你的违规「迟到」" in texts(out, qq(late_a))
    assert "已于" in texts(await h.group(HOST, "/撤销 1 再来一次"), main)
    mine = texts(await h.group(qq(late_a), "/我的积分"), main)
    assert "（已撤销" in mine and "违规扣分 0" in mine

    # the standings picture: an image segment after the caption
    before = len(h.bot.calls)
    out = await h.group(qq(a0), "/积分榜图", group=chat["A"])
    assert "第一轮 积分榜（共" in texts(out, chat["A"]) and "完整名次见图" in texts(out, chat["A"])
    msg = [d["message"] for a, d in h.bot.calls[before:] if a == "send_group_msg"][-1]
    assert [seg.type for seg in msg] == ["text", "image"] and msg[1].data["file"].startswith("base64://")
    row = await Outbox.filter(image__isnull=False).order_by("-id").first()
    assert Path(row.image).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    # an appeal, by private message only
    assert "请私聊我" in texts(await h.group(qq(a0), "/申诉 1 投票记错了"))
    out = await h.private(qq(a0), "/申诉 1 第1天 5号的票记错了")
    assert "申诉已提交（编号 1）" in texts(out, qq(a0))
    assert f"新申诉 1：{who(a0)} 对局号#1（A组 第1场）" in texts(out, HOST)
    assert "没有局号#9" in texts(await h.private(qq(a0), "/申诉 9 理由"))

    # the export: the league's own sheets next to the kernel's
    out = texts(await h.group(HOST, "/导出"))
    assert "已导出" in out
    folder = export_folder(h)
    table = list(csv.reader((folder / "积分榜-第一轮.csv").read_text(encoding="utf-8-sig").splitlines()))
    assert table[0][:5] == ["排名", "序号", "马甲", "组", "总分"] and len(table) == 1 + 26
    assert (folder / "计分表.csv").is_file() and (folder / "申诉.csv").is_file()
    assert any(p.suffix == ".xlsx" for p in folder.iterdir())

    # the round closes: league-wide in the main group, the new grouping in the group chat
    out = await h.group(HOST, "/下一轮")
    assert "第一轮 结束，前 12 名晋级" in texts(out, main)
    assert "总决赛 A组" in texts(out, chat["A"]) and "总决赛 A组" not in texts(out, main)
