"""Every event NapCatQQ and Lagrange.OneBot send (the shapes in ``tests/fixtures/onebot_events``),
fed through the real adapter path (``FairAdapter.json_to_event``, the admission lanes, the
adapter's ``Bot.handle_event``) into a running game: nothing breaks, and each is handled as a
player would expect."""

import asyncio
from typing import Any

import nonebot
import onebot_events as ob
import pytest
from harness import FakeBot, demo_running, texts
from nonebot.adapters.onebot.v11 import Adapter
from nonebot.log import logger

from plugins.kernel.models import CommandLog, Outbox
from plugins.kernel.routing.admission import FairAdapter, admission

SELF, SECOND = "999", "998"
HOST, PLAYER, OTHER = "1", "31", "32"


@pytest.fixture
async def bots(harness):
    """The harness's account and a second account of the bot, both connected."""
    driver = nonebot.get_driver()
    adapter = next(a for a in driver._adapters.values() if isinstance(a, Adapter))
    second = nonebot.get_bots().get(SECOND)
    if second is None:  # (another test may have connected it already)
        second = FakeBot(adapter, SECOND)
        driver._bot_connect(second)
    yield harness, second


@pytest.fixture
def log() -> Any:
    """What the bot logs at INFO and above while the test runs, with any traceback."""
    lines: list[tuple[str, str, bool]] = []
    sink = logger.add(lambda m: lines.append((m.record["level"].name, m.record["message"], m.record["exception"] is not None)),
                      level="INFO")
    yield lines
    logger.remove(sink)


async def feed(h, payload: dict[str, Any]) -> list[tuple[str, str, str]]:
    """One event as the WebSocket driver hands it to the adapter; then everything it caused, sent."""
    event = FairAdapter.json_to_event(payload)
    if event is not None:  # what is not laned (meta events, the bot's own messages) goes to NoneBot at once
        bot = nonebot.get_bots()[str(payload["self_id"])]
        await bot.handle_event(event)
    for _ in range(500):
        await asyncio.sleep(0.005)
        if not (admission.waiting or admission.lanes or admission.inside or admission.barrier):
            break
    await asyncio.sleep(0.01)
    return await h.drain()


def group_sent(out, group) -> list[str]:
    return [t for kind, target, t in out if kind == "group" and target == group]


async def test_every_documented_event_goes_through_without_a_traceback(bots, log):
    h, second = bots
    await demo_running(h)
    said: dict[str, str] = {}
    for name, payload in ob.corpus(SELF, SECOND, h.group_id, PLAYER, OTHER, HOST):
        said[name] = texts(await feed(h, payload))
        broken = [(lvl, msg) for lvl, msg, exc in log if exc or lvl in ("ERROR", "CRITICAL")]
        assert not broken, f"{name}: {broken}"
    for name in ("reply then command", "reply, at the bot, command", "at the bot, command"):
        assert "投给 2号" in said[name], name
    assert "你是 2号" in said["group temp session"]
    assert not said["message_sent"]
    quiet = ("poke", "group_admin set", "group_ban", "group_card", "essence", "group_upload", "friend request",
             "group invite", "lifecycle connect", "heartbeat", "group_recall by an admin")
    assert not [name for name in quiet if said[name]]


async def test_a_vote_after_a_reply_or_a_mention_of_the_bot_counts(bots):
    """QQ puts a reply (and an @ of the replied-to sender) before the text when a player answers
    the bot's vote post; a command after them is still a command."""
    h, _ = bots
    game = await demo_running(h)
    shapes = [
        [ob.reply(ob.next_id()), ob.text("/票 2")],
        [ob.reply(ob.next_id()), ob.at(SELF), ob.text(" /票 2")],
        [ob.at(SELF), ob.text(" /票 2")],
        [ob.reply(ob.next_id()), ob.at(OTHER), ob.text(" /票 2")],
    ]
    for segs in shapes:
        out = await feed(h, ob.group_message(SELF, h.group_id, PLAYER, segs))
        assert "投给 2号" in texts(out), segs
    assert await CommandLog.filter(game_id=game.id, name="vote").count() == len(shapes)


async def test_a_recalled_vote_stays_counted_and_the_voter_is_told_privately(bots):
    h, _ = bots
    game = await demo_running(h)
    vote = ob.group_message(SELF, h.group_id, PLAYER, [ob.text("/票 2")])
    assert "投给 2号" in texts(await feed(h, vote))
    out = await feed(h, ob.group_recall(SELF, h.group_id, PLAYER, vote["message_id"]))
    assert not group_sent(out, h.group_id)  # nothing in the group joins the account to the vote
    told = texts(out, PLAYER)
    assert "/票" in told and "仍然有效" in told and "主持" in told
    assert "已投 1 票" in texts(await feed(h, ob.group_message(SELF, h.group_id, OTHER, [ob.text("/查票")])))
    secret = ob.private_message(SELF, PLAYER, [ob.text("/密 收到")])
    await feed(h, secret)
    out = await feed(h, ob.friend_recall(SELF, PLAYER, secret["message_id"]))
    assert "/密" in texts(out, PLAYER) and not group_sent(out, h.group_id)
    # a recall of a message the bot never acted on, or by the bot itself, says nothing
    assert not await feed(h, ob.group_recall(SELF, h.group_id, PLAYER, ob.next_id()))
    assert not await feed(h, ob.group_recall(SELF, h.group_id, PLAYER, vote["message_id"], operator=SELF))
    assert not await feed(h, ob.group_recall(SELF, h.group_id, PLAYER, vote["message_id"]))  # told once
    assert await CommandLog.filter(game_id=game.id, name="vote").count() == 1


async def test_a_player_who_leaves_or_is_kicked_is_reported_to_the_hosts_privately(bots):
    h, _ = bots
    await demo_running(h)
    out = await feed(h, ob.group_decrease(SELF, h.group_id, OTHER, "leave"))
    assert not group_sent(out, h.group_id)
    assert "2号「乙」" in texts(out, HOST) and "退出" in texts(out, HOST)
    out = await feed(h, ob.group_decrease(SELF, h.group_id, PLAYER, "kick", operator=HOST))
    assert not group_sent(out, h.group_id)
    assert "1号「甲」" in texts(out, HOST) and "移出" in texts(out, HOST)
    assert not texts(await feed(h, ob.group_decrease(SELF, h.group_id, "777009", "leave")))  # not a player


async def test_the_bot_removed_from_the_game_group_parks_its_posts_until_it_is_back(bots):
    h, _ = bots
    game = await demo_running(h)
    out = await feed(h, ob.group_decrease(SELF, h.group_id, SELF, "kick_me", operator=HOST))
    assert "移出" in texts(out, HOST) and not group_sent(out, h.group_id)
    out = await feed(h, ob.private_message(SELF, HOST, [ob.text("/公告 今晚九点继续")]))
    assert not group_sent(out, h.group_id)
    assert not [t for t in texts(out, HOST).splitlines() if "发送失败" in t]  # not given up with errors
    assert await Outbox.filter(game_id=game.id, target_id=h.group_id, status="parked").count() == 1
    out = await feed(h, ob.group_increase(SELF, h.group_id, SELF, "invite", operator=HOST))
    assert "今晚九点继续" in "\n".join(group_sent(out, h.group_id))  # back in the group: it goes out


async def test_the_bots_own_messages_echoed_back_are_ignored(bots):
    h, _ = bots
    game = await demo_running(h)
    assert not await feed(h, ob.message_sent(SELF, h.group_id, "/票 1"))
    own = ob.group_message(SELF, h.group_id, SELF, [ob.text("/票 1")])  # an implementation that reports it as a message
    assert not await feed(h, own)
    assert await CommandLog.filter(game_id=game.id, name="vote").count() == 0


async def test_a_second_accounts_events_go_to_the_same_game_and_are_answered_through_it(bots):
    h, second = bots
    game = await demo_running(h)
    before = len(second.calls)
    await feed(h, ob.group_message(SECOND, h.group_id, OTHER, [ob.text("/票 1")]))
    assert await CommandLog.filter(game_id=game.id, name="vote", user_id=OTHER).count() == 1
    answers = [d for api, d in second.calls[before:] if api == "send_group_msg"]
    assert answers and "投给 1号" in answers[0]["message"].extract_plain_text()


async def test_friend_and_group_requests_are_left_to_the_humans(bots, log):
    h, _ = bots
    await demo_running(h)
    before = len(h.bot.calls)
    for payload in (ob.friend_request(SELF, "777003"), ob.group_request(SELF, "778001", "777005", "invite")):
        await feed(h, payload)
    assert not [api for api, _ in h.bot.calls[before:] if api.startswith("set_")]
    infos = [msg for lvl, msg, _ in log if lvl == "INFO"]
    assert any("777003" in m for m in infos) and any("778001" in m for m in infos)
