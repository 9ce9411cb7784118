"""The web interrogation room's data (room_mode = "web", plugins/prison/web.py): each line's time in
the game's zone, and why the room is read-only when it is (【游戏流程】<6>: the interrogation is the
night window; outside it the page only shows the record)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from plugins.kernel.web.page import View
from plugins.prison.web import view

from prison_helpers import MURDERER

KATHMANDU = ZoneInfo("Asia/Kathmandu")  # +05:45: no other zone shows the same minutes


def page(g, seat: int, tz: ZoneInfo = KATHMANDU, status: str = "running") -> dict:
    v = View(1, status, g.state, g.settings, dict(g.stored), seat, g.p(seat).alias, False, g.now, tz, "", None)
    return view(v)


def night(g) -> None:
    g.to_day1()
    g.elect()
    g.rooms([(1, MURDERER)])


def test_each_line_carries_its_time_in_the_games_zone(game):
    """A line's time is shown as the game's clock reads it, whatever zone the phone is in."""
    g = game({"room_mode": "web"})
    night(g)
    g.do(1, "relay", text="你是谁？", images=0)
    g.do(MURDERER, "relay", text="冤枉啊", images=0)
    lines = page(g, 1)["lines"]
    for line, stored in zip(lines, g.state.nights[-1].pairs[0].lines, strict=True):
        local = datetime.fromisoformat(stored.at).astimezone(KATHMANDU)
        assert line["time"] == local.strftime("%H:%M")
        assert line["when"] == f"{local.month}月{local.day}日 {local:%H:%M}"
    assert [x["time"] for x in page(g, 1, ZoneInfo("UTC"))["lines"]] != [x["time"] for x in lines]


def test_the_room_says_why_it_is_read_only(game):
    """Open: the box invites a line. Closed: it says the room can only be read, and why."""
    g = game({"room_mode": "web"})
    night(g)
    open_page = page(g, 1)
    assert open_page["open"] and open_page["placeholder"].startswith("对对方说")
    assert page(g, 1, status="paused")["placeholder"] == "游戏暂停中，只能查看。"
    g.do(1, "relay", text="你是谁？", images=0)
    g.do(MURDERER, "relay", text="冤枉啊", images=0)
    g.thief()
    g.advance()  # the wall rises: guard 1 (the murderer's partner) is dead
    closed = page(g, MURDERER)
    assert not closed["open"]
    assert closed["placeholder"] == "审讯时间外只能查看。"
    assert "墙壁已经升起" in closed["state"]
    assert page(g, 1)["placeholder"] == "你已出局，只能查看。"
