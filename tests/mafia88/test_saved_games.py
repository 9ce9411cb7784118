"""A game saved by the dict engine (state version 2) is read by the typed engine and played on.

``fixtures/saved-v2.json`` is ``ENGINE.encode(state)`` of the 30-player every-role game of
test_roles_game.py (plus reports, a /接头, a /私信, a /改判, a rejected post and a white slip whose
rewrite is being drafted), saved in round 4 while the votes were open: what the kernel stored,
long texts inline. The same game is then played on through the bot, from its database row."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

from mafia88_helpers import Game, essay

from plugins.gamekit.contract import Eliminate, Restore
from plugins.mafia88.engine import ENGINE
from plugins.mafia88.engine.state import Cause, DraftMode, LetterKind, PostEffect, PostStatus, Step

SAVED = Path(__file__).parent / "fixtures" / "saved-v2.json"
COUNTS = {"yin_jian": 1, "lianhe_jian": 2, "lianhe_dan": 2, "yi_hun": 1, "du_dan": 1, "fu_huo": 1, "an_dan": 1,
          "you_xia": 10, "gu_sha": 1, "lianhe_sha": 2, "du_sha": 3, "di_lei": 1, "hei_dan": 1, "mo_jing": 1,
          "gong_bing": 1, "huan_hun": 1}
ROUNDS = [
    {"votes": 1, "out": 1, "posts": {"孤杀": 1}},
    {"votes": 1, "out": 2, "posts": {"隐剑": 1, "剑": 1, "联": 1, "独": 1}},
    {"votes": 1, "out": 1, "posts": {"剑": 1, "孤杀": 1, "联": 1, "独": 1}},
    {"votes": 1, "out": 1, "posts": {"联": 1}},
    {"votes": 1, "out": 2, "posts": {"联": 1}},
    {"votes": 1, "out": 1, "posts": {}},
]
SETTINGS = {"counts": COUNTS, "options": {"report_required": False}, "rounds": ROUNDS}
"""The settings the saved game was played with."""
SEQ = 156  # the saved game's last command


def raw() -> dict:
    return json.loads(SAVED.read_text(encoding="utf-8"))


def test_the_saved_game_is_read_and_written_back_unchanged():
    old = raw()
    assert old["version"] == 2
    state = ENGINE.decode(raw())
    assert state.round == 4 and state.step == Step.ROUND and state.winner is None
    assert sorted(s for s, p in state.players.items() if p.alive) == [6, 7, 13, 20, 23, 25, 28, 30]
    assert state.players[28].dealt == "huan_hun" and state.players[28].role == "lianhe_sha"  # §五黑8
    assert state.players[30].half == [2, 3]  # its §七.1 追魂 never written
    assert state.players[2].report is not None and state.players[2].report.note == "体裁不符"
    assert state.drafts[13].mode == DraftMode.REWRITE and state.drafts[13].post == 13
    assert [p.status for p in state.posts[-3:]] == [PostStatus.APPROVED, PostStatus.REJECTED, PostStatus.WHITE]
    assert state.overrides[13].effect == PostEffect.NONE and state.checks[9].used is False
    assert state.souls[2].move is not None and state.souls[2].move.from_ == 7 and state.contacts[0].from_ == 8
    assert [x.kind for x in state.letters] == [LetterKind.FIRST_SOUL, LetterKind.THANKS]
    assert [(b.voter, b.proxy) for b in state.rounds[4].ballots] == [(6, False), (7, False), (13, True), (20, False)]
    # what this code writes is what was read, with this code's version
    assert ENGINE.encode(state) == {**old, "version": ENGINE.STATE_VERSION}


def test_upgrade_brings_older_shapes_of_the_saved_game_up_to_date():
    """Version 1 kept a copy of the settings ("cfg", "v"); before version 3 a report kept its
    figures and an empty text: the upgraded state is the saved game as this code writes it."""
    old = raw()
    old["cfg"], old["v"] = ENGINE.check_settings(SETTINGS), 1
    rep = old["players"]["2"]["report"]
    chars = rep.pop("chars")
    rep |= {"text": "", "figures": {"chars": chars, "quoted": 0, "unquoted": chars, "quote_ratio": 0.0}}
    state = ENGINE.decode(old)
    assert state.players[2].report is not None and state.players[2].report.chars == chars
    assert ENGINE.encode(state) == {**raw(), "version": ENGINE.STATE_VERSION}


def test_the_saved_game_plays_on_to_the_next_round():
    state = ENGINE.decode(raw())
    due = state.rounds[4].due
    assert due.close and due.white
    g = Game.resume(state, SETTINGS, datetime.fromisoformat("2026-12-03T13:45:00+00:00"), SEQ,
                    {"phase": datetime.fromisoformat(due.close), "white:4": datetime.fromisoformat(due.white)})
    # the draft of the white slip's text goes on, is handed in and approved: published late
    g.cmd(13, "text", text=essay(1000, "再补"))
    done = g.cmd(13, "done")
    assert done[0].text.startswith("重写稿已交（#13）"), done[0].text
    published = g.host("approve", post="#13")
    assert any(t.startswith("【第4轮补发") for t in g.says("group", published))
    # the 地雷 that went out 同归 in round 4 checks one player (§五黑5)
    assert g.cmd(9, "check", target=28)[0].text.endswith("联合杀（黑方）。")
    for voter, target in ((23, 6), (25, 6), (28, 30), (30, 6)):
        g.cmd(voter, "vote", targets=[target])
    assert "第4轮（投票中）｜存活 8 人｜已投票 8 人" in ENGINE.status(g.state, settings=g.settings)
    # 12:00: the rejected post was never rewritten: its author is out, its target back (§十二.7)
    effects = g.fire("white:4")
    assert [e.seat for e in effects if isinstance(e, Eliminate)] == [6]
    assert [e.seat for e in effects if isinstance(e, Restore)] == [12]
    assert g.p(6).out is not None and g.p(6).out.cause == Cause.WHITE
    g.cmd(12, "vote", targets=[30])
    g.now += timedelta(minutes=30)
    g.close_round()  # the close, then the 复活's window of round 4 (§五白6), in which nobody acts
    result = next(t for t in g.says("group") if t.startswith("【第4轮结果】"))
    assert "高票出局：30号 玩家30（4 票）" in result, result
    assert g.state.round == 5 and g.state.step == Step.ROUND and g.state.rounds[4].result is not None
    assert not g.p(30).alive and g.p(30).out is not None and g.p(30).out.cause == Cause.VOTE
    assert any(t.startswith("【第5轮】") for t in g.says("group"))
    # the hosts' sheets read every part of it
    sheets = ENGINE.tables(g.state, settings=g.settings)
    assert len(sheets["身份"]) == 31 and any("私信" in str(row[3]) for row in sheets["记录"])


# ---- through the bot ---------------------------------------------------------------------------

HOST = "1"


def qq(seat: int) -> str:
    return str(330000 + seat)


def config_text() -> str:
    lines = ["/配置 [options]", "report_required = false", "", "[counts]"]
    lines += [f"{k} = {n}" for k, n in COUNTS.items()]
    for r in ROUNDS:
        posts = ", ".join(f'"{g}" = {n}' for g, n in r["posts"].items())
        lines += ["", "[[rounds]]", f"votes = {r['votes']}", f"out = {r['out']}", f"posts = {{ {posts} }}"]
    return "\n".join(lines)


async def fire(h, gid: int, key: str) -> list[tuple[str, str, str]]:
    from plugins.kernel.deadlines import fire_timer
    from plugins.kernel.models import Timer
    from plugins.kernel.order import utcnow

    t = await Timer.get(game_id=gid, key=key, status="armed")
    await Timer.filter(id=t.id).update(ends_at=utcnow() - timedelta(seconds=1))
    await fire_timer(t.id, set())
    return await h.drain()


async def test_the_saved_game_plays_on_through_the_bot(harness):
    from harness import texts

    from plugins.kernel.held import forget
    from plugins.kernel.models import Game as GameRow
    from plugins.kernel.models import Player, Timer
    from plugins.kernel.order import utcnow

    h = harness
    await h.group(HOST, "/创建 88人场", role="owner")
    gid = (await GameRow.get(group_id=h.group_id, status="signup")).id
    assert "配置已更新" in texts(await h.private(HOST, config_text()))
    for s in range(1, 31):
        await h.private(qq(s), f"/报名 {h.group_id} 玩家{s}")
    await h.group(HOST, "/开始")
    # the saved game in its row, as after a restart: its state, its roster's flags, its deadline
    saved = raw()
    await GameRow.filter(id=gid).update(state=saved, last_seq=SEQ, phase_key="round", phase_label="第4轮投票")
    for seat, p in saved["players"].items():
        await Player.filter(game_id=gid, seat=int(seat)).update(alive=p["alive"], out_reason=p["out"]["reason"] if p["out"] else None)
    await Timer.filter(game_id=gid, status="armed").update(status="cancelled")
    await Timer.create(game_id=gid, key="phase", ends_at=utcnow() + timedelta(hours=6))
    forget(gid)

    log = texts(await h.private(HOST, "/票记录"))
    assert "第4轮" in log and "13号 玩家13（托票） → 30号 玩家30" in log and "未投票 4 人" in log, log
    posts = texts(await h.private(HOST, "/贴单"))
    assert "#12 你逗我（6号 玩家6）→ 12号 玩家12｜退回待重写" in posts and "#13 你恨我（13号 玩家13）→ 7号 玩家7｜白条待补" in posts, posts
    mine = texts(await h.private(qq(13), "/我的贴"))  # the saved draft of the white slip's text is there
    assert "#13 第4轮 → 7号 玩家7：白条待补" in mine and "草稿：→ 7号 玩家7，已收 3" in mine, mine
    assert "联合杀（黑方）" in texts(await h.private(qq(9), "/查身份 28"))  # §五黑5, after the 地雷 went out
    for voter, target in ((23, 6), (25, 6), (28, 30), (30, 6)):
        assert "第4轮第" in texts(await h.private(qq(voter), f"/投票 {target}"))
    assert "只有哨子" in texts(await h.private(qq(7), "/票记录"))

    await Timer.create(game_id=gid, key="white:4", ends_at=utcnow())
    out = await fire(h, gid, "white:4")  # 12:00: neither text was delivered (§十二.4/7)
    assert "未按时补交" in texts(out, h.group_id)
    alive = {p.seat for p in await Player.filter(game_id=gid, alive=True)}
    assert 6 not in alive and 13 not in alive and 12 in alive  # the authors out, the rejected post's target back
    assert "第4轮第" in texts(await h.private(qq(12), "/投票 30"))
    out = await fire(h, gid, "phase")  # the close: the 复活's window (§五白6)
    assert "结果贴将于" in texts(out, h.group_id)
    out = await fire(h, gid, "phase")
    group = texts(out, h.group_id)
    assert "【第4轮结果】" in group and "高票出局：30号 玩家30（4 票）" in group and "【第5轮】" in group, group
    assert 30 not in {p.seat for p in await Player.filter(game_id=gid, alive=True)}
    row = await GameRow.get(id=gid)
    assert row.state["version"] == ENGINE.STATE_VERSION and row.state["round"] == 5
