"""The league's referees' desk in a real browser (Chromium at phone size and on a desktop): a
referee opens the match day's game of a group with its lineup pre-filled, picks roles, taps
events, votes and the winner, sees the sheet's own mistakes live (caps §六（二）2, §七.3) and the
standing points before sending; the desk sends the ordinary /录分, then reopens the game for
/改分; the day's last sheet posts the standings picture to the main group. A player's page has
no desk. One bot process and one browser for the module.

Set UPDATE_SCREENSHOT=1 to rewrite docs/web-league-desk.png."""

from __future__ import annotations

import json
import os
import tempfile
from datetime import datetime, timezone
from pathlib import Path

import pytest
from web_helpers import bot_with_web, chromium, db_rows, login, screenshot_path, web_access
from webclient import Client

GROUP = "6000"
HOST = "10000"
ROLES = ["预言家", "女巫", "猎人", "白痴", "平民", "平民", "平民", "平民", "狼人", "狼人", "狼人", "狼人"]


def _zone_at_noon() -> str:
    """A fixed-offset zone where it is now about 12:00, so the day's check-in window is open."""
    h = (12 - datetime.now(timezone.utc).hour) % 24
    h = h - 24 if h > 12 else h
    return "Etc/GMT" if h == 0 else (f"Etc/GMT-{h}" if h > 0 else f"Etc/GMT+{-h}")


VARIANT = """/配置 timezone = "{tz}"
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
advance = 0
double_games = []
days = [{{ label = "第1天", board = "标准场", games = 1 }}]
"""


def tmp_shot(name: str) -> Path:
    """A screenshot to look at (not kept in docs/)."""
    return Path(tempfile.gettempdir()) / f"qqgames-{os.getpid()}-{name}"


def qq(seat: int) -> str:
    return str(3000 + seat)


def lineups(bp) -> dict[str, list[int]]:
    st = json.loads(db_rows(bp, "SELECT state FROM game WHERE group_id = ?", GROUP)[0][0])
    return {g: list(m) for g, m in st["days"][-1]["lineups"].items()}


@pytest.fixture(scope="module")
async def league(tmp_path_factory):
    async with bot_with_web(tmp_path_factory.mktemp("league-web")) as (bp, ob):
        await ob.group_message(GROUP, HOST, "/创建 联赛", role="owner")
        await ob.wait_for("开局了")
        await ob.group_message(GROUP, HOST, VARIANT.format(tz=_zone_at_noon()))
        await ob.wait_for("配置已更新")
        for seat in range(1, 25):
            await ob.group_message(GROUP, qq(seat), f"/报名 选手{seat}")
            await ob.wait_for(f"报名成功：{seat}号")
        await ob.group_message(GROUP, HOST, "/开始")
        await ob.wait_for("第一轮 B组")
        await ob.group_message(GROUP, HOST, "/开赛日")
        await ob.wait_for("第一轮 第1比赛日")
        yield bp, ob


@pytest.fixture(scope="module")
async def browser(league):
    bp, _ = league
    async with chromium(f"http://127.0.0.1:{bp.port}/") as new_page:
        yield new_page


async def fill_roles(page, roles: list[str]) -> None:
    for n, role in enumerate(roles, 1):
        await page.select_option(f"#seats .seat[data-gseat='{n}'] select.role", role)


async def tap(page, seat: int, text: str) -> None:
    await page.locator(f"#seats .seat[data-gseat='{seat}'] .taps button", has_text=text).first.click()


async def test_a_referee_scores_a_game_on_the_phone_6_2(league, browser):
    """§六（二）: the desk writes the sheet /录分 reads and checks it with the same rule: caps (§六（二）2,
    counted up to the cap with a note), §七.3 (no award with a violation that blocks it), the points
    and standings before sending; sent as /录分 (source web), reopened for /改分."""
    bp, ob = league
    link, pw = await web_access(ob, HOST)
    page = await browser()
    await login(page, link, pw)
    await page.wait_for_selector("#slots .slot[data-slot='A-1'].on")
    assert "第一轮 第1比赛日" in await page.inner_text("#day")
    names = await page.locator("#seats .seat .who").all_inner_texts()
    a = lineups(bp)["A"]
    assert names == [f"选手{s}（#{s}）" for s in a]  # the day's lineup, in position order
    await page.wait_for_selector("#bar-state:has-text('12 个座位未选角色')")

    await fill_roles(page, ROLES)
    await page.click("#winner button[data-side='好人']")
    await tap(page, 1, "全场最佳")
    await tap(page, 2, "+毒狼人")
    await tap(page, 2, "+毒狼人")
    await page.select_option("#seats .seat[data-gseat='1'] select.viol", "场外有逻辑")
    # §七.3: the violation takes the award; the mistake is shown at the seat
    await page.wait_for_selector("#seats .seat[data-gseat='1'].bad .seat-errors:has-text('§七.3')")
    assert await page.locator("#send").is_disabled()
    await page.locator("#seats .seat[data-gseat='1']").screenshot(path=str(tmp_shot("web-league-desk-seat-error.png")))
    await page.locator("#seats .seat[data-gseat='1'] .chip.bad button.x").click()
    # votes by taps: day 1, seats 5 and 6 vote seat 9 out
    await page.select_option("#v-target", "9")
    await page.click("#v-voters button.num:text-is('5')")
    await page.click("#v-voters button.num:text-is('6')")
    await page.click("#v-add")
    await page.wait_for_selector("#votes li:has-text('第1天 票 → 9号：5 6')")
    await page.wait_for_selector("#bar.ready")
    # §六（二）2 上限: counted up to the cap, said before sending
    assert "毒狼人 写了 +2，按上限 +1 计" in await page.inner_text("#notes")
    assert "A组 第1场：好人胜" in await page.inner_text("#points-title")
    first = await page.inner_text("#points li[data-gseat='1']")
    assert "全场最佳" in first and "本局 +5 -0 = +5" in first and "积分 100 → 105" in first and "第 1 名" in first
    assert "提交后积分榜图自动发到主群" not in await page.inner_text("#editor")  # B's game is still open
    await page.screenshot(path=str(tmp_shot("web-league-desk-phone-full.png")), full_page=True)  # the whole desk
    await page.click("#day")
    await page.keyboard.press("Home")  # the top: the day's games, the winner, the first seats and the send bar
    await page.screenshot(path=str(screenshot_path("web-league-desk.png")))
    await page.click("#send")
    await page.wait_for_selector("#answer:has-text('已录入局号#1')")
    assert db_rows(bp, "SELECT name, source FROM command_log WHERE name = 'score'") == [("score", "web")]
    await ob.wait_for("局号#1 第一轮 A组 第1场：好人胜")

    # the game reopens as a correction (/改分) with the sheet as entered
    await page.wait_for_selector("#slots .slot[data-slot='A-1'].done.on")
    assert "更正 局号#1" in await page.inner_text("#ed-title")
    assert await page.locator("#seats .seat[data-gseat='1'] select.role").input_value() == "预言家"
    await tap(page, 3, "+枪狼人")
    await page.wait_for_selector("#bar.ready")
    assert "/改分 1" in await page.inner_text("#send")
    await page.click("#send")
    await page.wait_for_selector("#answer:has-text('局号#1 已更正')")
    assert [r[0] for r in db_rows(bp, "SELECT name FROM command_log WHERE source = 'web' ORDER BY id")] == ["score", "rescore"]


async def test_the_days_last_sheet_posts_the_standings_picture_on_a_desktop_5(league, browser):
    """§五（一） 「当天比赛成绩…在赛事群内公布」: once every group's game of the day is scored, the
    standings picture goes to the main group by itself; the desk says so before sending."""
    _, ob = league
    link, pw = await web_access(ob, HOST)
    page = await browser({"width": 1280, "height": 900})
    await login(page, link, pw)
    await page.click("#slots .slot[data-slot='B-1']")
    await page.wait_for_selector("#slots .slot[data-slot='B-1'].on")
    await fill_roles(page, ROLES)
    await page.click("#winner button[data-side='狼人']")
    await page.wait_for_selector("#bar.ready")
    await page.wait_for_selector("#picture-note:has-text('提交后积分榜图自动发到主群')")
    await page.screenshot(path=str(tmp_shot("web-league-desk-wide.png")), full_page=True)
    before = len(ob.calls)
    await page.click("#send")
    await page.wait_for_selector("#answer:has-text('积分榜图已发到主群')")
    await ob.wait_for("全部 2 局已录分")
    pictures = [p for a, p in ob.calls[before:] if a == "send_group_msg" and str(p.get("group_id")) == GROUP
                and any(seg.get("type") == "image" for seg in p.get("message", []))]
    assert pictures and "第一轮 积分榜" in "".join(s["data"].get("text", "") for s in pictures[0]["message"])
    # any entered game of the round reopens from the list, as a correction
    await page.select_option("#reopen", "1")
    await page.wait_for_selector("#ed-title:has-text('更正 局号#1')")
    await page.wait_for_selector("#bar.ready")
    assert not await page.inner_text("#picture-note")  # a correction posts no picture


async def test_a_player_has_no_desk(league, browser):
    """A player's page shows their own place and points; no desk, no check, no /录分."""
    bp, ob = league
    player = lineups(bp)["A"][0]
    link, pw = await web_access(ob, qq(player))
    page = await browser()
    await login(page, link, pw)
    await page.wait_for_selector("#info:has-text('第一轮 A组 1号位')")
    assert await page.locator("#desk-box").is_hidden() and await page.locator("#bar").is_hidden()
    c = Client()
    c.login(link, pw)
    status, view = c.view(link)
    assert view["page"]["desk"] is None and "第一轮" in view["page"]["me"]["points"]
    before = db_rows(bp, "SELECT count(*) FROM command_log")
    status, body = c.act(link, "录分", "A组 第1场\n胜方 好人")
    assert status == 409 and "网页上没有这个操作" in body["replies"][0]
    status, text = c.request("POST", link + "api/act", json.dumps({"word": "录分", "rest": "A组", "host": True}).encode(),
                             {"Content-Type": "application/json", "X-CSRF-Token": c.csrf})
    assert status == 409 and "只有裁判可以这样做" in text
    status, text = c.request("POST", link + "api/x/check", json.dumps({"draft": {}}).encode(),
                             {"Content-Type": "application/json", "X-CSRF-Token": c.csrf})
    assert "只有裁判可以使用录分台" in text
    assert db_rows(bp, "SELECT count(*) FROM command_log") == before
