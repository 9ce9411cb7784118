"""Fair admission: a busy game's burst
does not hold up another game's messages before NoneBot looks at them; each game still sees
its commands in arrival order; a routing command keeps its place among all messages."""

import asyncio

import pytest
from harness import group_payload, private_payload

from plugins.kernel.directory import directory
from plugins.kernel.leases import leases
from plugins.kernel.routing import admission as adm
from plugins.kernel.routing import events

SELF = "999"
BUSY, OTHER = 9501, 9502  # two games
BUSY_GROUP, OTHER_GROUP = "7701", "7702"


class Recorder:
    """Stands for the bot: records which messages NoneBot was given, holds each until released."""

    adapter = None

    def __init__(self) -> None:
        self.started: list[str] = []
        self.arrivals: list = []  # the arrival (ticket, receive time) each event's task carries
        self.gates: dict[str, asyncio.Event] = {}

    async def handle_event(self, event) -> None:
        text = event.get_plaintext()
        self.started.append(text)
        self.arrivals.append(getattr(event, events.ARRIVAL_FIELD, None))
        await self.gates.setdefault(text, asyncio.Event()).wait()

    async def release(self, *texts: str) -> None:
        for t in texts:
            self.gates.setdefault(t, asyncio.Event()).set()
        await _settle()


@pytest.fixture
async def lanes(monkeypatch):
    rec = Recorder()
    monkeypatch.setattr(adm, "get_bots", lambda: {SELF: rec})
    monkeypatch.setitem(directory.group_game, BUSY_GROUP, BUSY)
    monkeypatch.setitem(directory.group_game, OTHER_GROUP, OTHER)
    monkeypatch.setitem(directory.members, BUSY, {"301", "302", "303", "304", "305"})
    monkeypatch.setitem(directory.members, OTHER, {"401"})
    a = adm.Admission(depth=2)
    yield a, rec
    while a.lanes or a.inside or a.waiting:  # let everything through before the patches go
        for text in rec.started:
            rec.gates.setdefault(text, asyncio.Event()).set()
        await _settle()


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_burst_in_one_game_does_not_hold_up_another_games_message(lanes):
    a, rec = lanes
    for u in ("301", "302", "303", "304", "305"):
        a.put(private_payload(SELF, u, f"/行动 {u}"))
    a.put(private_payload(SELF, "401", "/投票 3"))
    await _settle()
    # two of the busy game's five are inside NoneBot; the other game's vote went straight in
    assert rec.started == ["/行动 301", "/行动 302", "/投票 3"]
    await rec.release("/行动 301", "/投票 3")
    assert rec.started[3:] == ["/行动 303"]
    await rec.release("/行动 302", "/行动 303", "/行动 304", "/行动 305")
    # the busy game's own messages went in in the order they arrived
    assert [t for t in rec.started if t.startswith("/行动")] == [f"/行动 {u}" for u in ("301", "302", "303", "304", "305")]
    assert not a.lanes and not a.inside


async def test_a_long_backlog_takes_one_place_while_a_shorter_one_is_served(lanes):
    """A royale night's players queue behind a vote burst's few: while the other game has a
    message inside, the busy game (its backlog at least the depth) lets one in at a time; alone
    again, it takes its full depth."""
    a, rec = lanes  # depth 2
    for u in ("301", "302", "303", "304", "305"):
        a.put(private_payload(SELF, u, f"/行动 {u}"))
    a.put(private_payload(SELF, "401", "/投票 3"))
    await _settle()
    assert rec.started == ["/行动 301", "/行动 302", "/投票 3"]
    await rec.release("/行动 301", "/行动 302")  # three wait: one goes in while the vote is inside
    assert rec.started[3:] == ["/行动 303"]
    await rec.release("/投票 3")  # alone again: a second one goes in
    assert rec.started[3:] == ["/行动 303", "/行动 304"]
    await rec.release("/行动 303", "/行动 304", "/行动 305")
    assert rec.started[3:] == ["/行动 303", "/行动 304", "/行动 305"]


async def test_group_and_private_messages_of_one_game_share_its_lane(lanes):
    a, rec = lanes
    a.put(group_payload(SELF, BUSY_GROUP, "301", "甲"))
    a.put(group_payload(SELF, BUSY_GROUP, "302", "乙"))
    a.put(private_payload(SELF, "303", "丙"))
    a.put(group_payload(SELF, OTHER_GROUP, "401", "丁"))
    await _settle()
    assert rec.started == ["甲", "乙", "丁"]
    await rec.release("甲")
    assert rec.started[-1] == "丙"


async def test_a_routing_command_waits_for_earlier_messages_and_holds_later_ones(lanes):
    """A sign-up naming a group (/报名 <群号>) must be routed after everything that came before
    it (e.g. the /创建 of that group) and before everything after it."""
    a, rec = lanes
    for u in ("301", "302", "303"):
        a.put(private_payload(SELF, u, f"/行动 {u}"))
    a.put(private_payload(SELF, "501", f"/报名 {BUSY_GROUP} 新人"))
    a.put(private_payload(SELF, "401", "/投票 3"))
    await _settle()
    assert rec.started == ["/行动 301", "/行动 302"]  # the third waits in the lane, the rest behind it
    await rec.release("/行动 301")
    # the last earlier message is in: the sign-up goes in; the vote after it waits for it to finish
    assert rec.started[2:] == ["/行动 303", f"/报名 {BUSY_GROUP} 新人"]
    await rec.release("/行动 302", "/行动 303")
    assert "/投票 3" not in rec.started
    await rec.release(f"/报名 {BUSY_GROUP} 新人")
    assert rec.started[-1] == "/投票 3"


async def test_messages_without_a_game_have_a_lane_each(lanes):
    a, rec = lanes
    for i in range(3):
        a.put(private_payload(SELF, "601", f"/在吗 {i}"))
    a.put(private_payload(SELF, "602", "/在吗"))
    a.put(group_payload(SELF, "7799", "603", "/帮助"))
    await _settle()
    assert rec.started == ["/在吗 0", "/在吗 1", "/在吗", "/帮助"]


async def test_a_message_for_a_game_another_process_serves_is_dropped_unread(lanes, monkeypatch):
    a, rec = lanes
    monkeypatch.setattr(leases, "shared", True)
    monkeypatch.setattr(leases, "theirs", lambda gid, now=None: gid == BUSY)
    a.put(group_payload(SELF, BUSY_GROUP, "301", "/行动 搜索"))
    a.put(group_payload(SELF, BUSY_GROUP, "1", "/结束"))  # a routing command goes the usual way
    a.put(group_payload(SELF, OTHER_GROUP, "401", "/投票 3"))
    await _settle()
    assert rec.started == ["/结束"]
    await rec.release("/结束")
    assert rec.started == ["/结束", "/投票 3"]


async def test_once_another_process_is_known_to_serve_a_game_its_queued_messages_are_dropped(lanes, monkeypatch):
    """The first messages of a game this process has not asked about go in; once one of them
    learns that another process serves it, those still waiting in its lane are not parsed."""
    a, rec = lanes
    served_here = {BUSY}
    monkeypatch.setattr(leases, "shared", True)
    monkeypatch.setattr(leases, "theirs", lambda gid, now=None: gid not in served_here)
    for u in ("301", "302", "303", "304"):
        a.put(private_payload(SELF, u, f"/行动 {u}"))
    await _settle()
    assert rec.started == ["/行动 301", "/行动 302"]
    served_here.clear()  # what the first one found out
    await rec.release("/行动 301", "/行动 302")
    assert rec.started == ["/行动 301", "/行动 302"] and not a.lanes and not a.inside


def test_a_message_let_in_before_its_game_was_known_as_anothers_is_dropped_by_the_router(monkeypatch):
    """Let in (with its arrival) while this process still took its game for its own, it is dropped
    when the router reads it if the process has learnt meanwhile that another serves the game."""
    from nonebot.adapters.onebot.v11 import Adapter

    event = Adapter.json_to_event({**private_payload(SELF, "301", "/行动 301"), events.ARRIVAL_FIELD: (1, None)})
    monkeypatch.setattr(leases, "shared", True)
    monkeypatch.setitem(directory.members, BUSY, {"301"})
    monkeypatch.setattr(leases, "theirs", lambda gid, now=None: False)
    assert events.arrival_of(event) == (1, None)
    monkeypatch.setattr(leases, "theirs", lambda gid, now=None: gid == BUSY)
    assert events.arrival_of(event) is None


async def test_a_message_takes_its_arrival_ticket_when_admitted_and_a_repeat_is_dropped_there(lanes):
    """The router reads the ticket from the event's task (no NoneBot preprocessor): tickets go in
    the order messages were let in, and a message delivered twice (OneBot may) goes in once."""
    a, rec = lanes
    first = private_payload(SELF, "301", "/行动 301")
    a.put(first)
    a.put(private_payload(SELF, "401", "/投票 3"))
    a.put(dict(first))  # the same message again
    a.put(private_payload(SELF, "302", "/行动 302"))
    await rec.release("/行动 301", "/投票 3", "/行动 302")
    assert rec.started == ["/行动 301", "/投票 3", "/行动 302"]
    tickets = [t for t, _ in rec.arrivals]
    assert tickets == sorted(tickets) and len(set(tickets)) == 3


async def test_a_message_read_before_its_account_disconnects_is_still_handled(lanes, monkeypatch):
    a, rec = lanes
    for u in ("301", "302", "303"):
        a.put(private_payload(SELF, u, f"/行动 {u}"))
    monkeypatch.setattr(adm, "get_bots", lambda: {})  # NapCat's connection dropped meanwhile
    await rec.release("/行动 301")
    assert rec.started == ["/行动 301", "/行动 302", "/行动 303"]


async def test_an_event_that_cannot_be_put_in_a_lane_is_handled_at_once(lanes, monkeypatch):
    a, rec = lanes

    def broken(data):
        raise KeyError("user_id")

    monkeypatch.setattr(adm, "classify", broken)
    a.put(private_payload(SELF, "301", "/行动 301"))
    a.put(private_payload(SELF, "302", "/行动 302"))
    a.put(private_payload(SELF, "303", "/行动 303"))
    await _settle()
    assert rec.started == ["/行动 301", "/行动 302", "/行动 303"]  # no lane, but nothing lost


@pytest.mark.parametrize(("segments", "barrier"), [
    ([{"type": "text", "data": {"text": "/报名 7701 小明"}}], True),
    ([{"type": "text", "data": {"text": "  ／切换 7702"}}], True),
    ([{"type": "at", "data": {"qq": "999"}}, {"type": "text", "data": {"text": " /创建 新局"}}], True),
    ([{"type": "text", "data": {"text": "机器人 /结束"}}], True),  # after a nickname: NoneBot strips it
    ([{"type": "text", "data": {"text": "/投票 3"}}], False),
    ([{"type": "text", "data": {"text": "我想报名"}}], False),
    ("/加主持 123", True),  # the string message format
])
def test_routing_commands_are_recognised_in_the_raw_message(segments, barrier):
    assert adm.is_barrier(adm.raw_text({"message": segments})) is barrier


def test_api_answers_and_heartbeats_pass_at_once():
    beat = {"time": 1, "self_id": 999, "post_type": "meta_event", "meta_event_type": "heartbeat",
            "status": {"online": True, "good": True}, "interval": 5000}
    assert adm.FairAdapter.json_to_event(beat) is not None
    assert adm.classify(group_payload(SELF, "7799", "1", "x"))[0] == ("g", "7799")


@pytest.mark.parametrize("payload", [
    private_payload(SELF, "301", "/行动 301"),
    group_payload(SELF, BUSY_GROUP, "301", "/票 2"),
    {**private_payload(SELF, "301", ""), "message": [{"type": "text", "data": {"text": "甲"}},
                                                     {"type": "at", "data": {"qq": "999"}},
                                                     {"type": "image", "data": {"file": "a.png", "url": "http://x"}}]},
    {**private_payload(SELF, "301", ""), "message": "[CQ:at,qq=999] 甲"},  # the string form
    {**private_payload(SELF, "301", ""), "message": [{"type": "face", "data": None}]},  # odd: the adapter's way
    {"time": 1, "self_id": 999, "post_type": "notice", "notice_type": "group_increase", "sub_type": "approve",
     "group_id": 7701, "user_id": 301, "operator_id": 0},
])
def test_an_event_is_read_as_the_adapter_reads_it(payload):
    from nonebot.adapters.onebot.v11 import Adapter

    ours, theirs = adm.parse_event(dict(payload)), Adapter.json_to_event(dict(payload))
    assert type(ours) is type(theirs)
    assert ours is None or ours.model_dump() == theirs.model_dump()
