"""Fair admission: one game's burst does not queue in front of another game's messages.

NoneBot's OneBot adapter turns every frame into an event task the moment it arrives, so
sixty simultaneous actions of a royale night all go through NoneBot's pipeline (the event
model, the matcher checks) before a vote that arrived with them in another group is looked
at, and while they wait for their game's lock every turn of the event loop carries them all.
Here each event is first read as JSON only and put in its lane (its game, or the group or
user when there is no game); a lane has at most ``LANE_DEPTH`` events inside NoneBot at a
time, so the other games' events pass at once; and a lane with a long backlog has one inside
while a lane with a shorter backlog is served (``Admission.limit``).

Order: a lane admits its events in arrival order and they take their arrival tickets then
(``events.py``; a repeated delivery is dropped there), so every game sees its commands in
arrival order, as before. A message that may change where later messages go (``ROUTING_WORDS``:
/创建, /报名, /切换, …) is a barrier: it is admitted after every earlier event, and later events
are put in lanes only after it has been handled. API responses and meta events pass at once.
With several processes, a message of a game another process serves goes no further than here,
unparsed: it takes its arrival and is kept (``kept.py``), in case this process takes the game over.
"""

from __future__ import annotations

import asyncio
import re
from collections import deque
from functools import cache
from typing import Any, cast

from nonebot import get_adapter, get_bots
from nonebot.adapters import Bot as BaseBot
from nonebot.adapters.onebot.v11 import Adapter, Bot, Event, Message, MessageSegment
from nonebot.log import logger
from pydantic import TypeAdapter

from ..clean import clean_text
from ..directory import directory
from ..leases import leases
from .events import ARRIVAL_FIELD, ROUTING_WORDS, arrive, command_starts, delivery_key, own_message
from .kept import keep

LANE_DEPTH = 3
"""Events of one lane inside NoneBot at once: enough to overlap one command's database write
with the next one's parsing; a game's commands run one at a time under its lock anyway."""

LANED = ("message", "notice", "request")  # the events that go through lanes; the rest pass at once
Lane = tuple[str, str]
Item = tuple[dict[str, Any], BaseBot | None]  # an event's JSON and the account it came through


def raw_text(data: dict[str, Any]) -> str:
    """The text segments of a message event, joined (mentions and pictures left out)."""
    msg = data.get("message")
    if isinstance(msg, str):
        return clean_text(msg)
    if not isinstance(msg, list):
        return ""
    return clean_text("".join(seg["data"]["text"] for seg in msg if isinstance(seg, dict) and seg.get("type") == "text"
                              and not _textless(seg)))


def _textless(seg: dict[str, Any]) -> bool:
    """A text segment without a text (seen from real implementations beside another text
    segment): NoneBot's adapter joins neighbouring text segments and fails on it."""
    data = seg.get("data")
    return seg.get("type") == "text" and not (isinstance(data, dict) and isinstance(data.get("text"), str))


_barrier_re: tuple[tuple[str, ...], re.Pattern[str]] | None = None


def is_barrier(text: str) -> bool:
    """The text holds a routing command anywhere (wider than the router's test: a command
    after a mention or the bot's nickname counts too; a false alarm only costs a wait)."""
    global _barrier_re
    starts = command_starts()
    if _barrier_re is None or _barrier_re[0] != starts:
        words = "|".join(sorted(map(re.escape, ROUTING_WORDS), key=len, reverse=True))
        _barrier_re = (starts, re.compile(f"(?:{'|'.join(map(re.escape, starts))})(?:{words})"))
    return _barrier_re[1].search(text) is not None


def classify(data: dict[str, Any]) -> tuple[Lane | None, bool, bool]:
    """(lane or None to pass at once, barrier, kept: another process serves its game, the lane's)."""
    kind = data.get("post_type")
    if kind not in LANED:
        return None, False, False
    if kind == "message" and is_barrier(raw_text(data)):
        return None, True, False
    group = None if data.get("group_id") is None else str(data.get("group_id"))
    user = str(data.get("user_id", ""))
    own: Lane = ("g", group) if group is not None else ("u", user)
    game = (directory.message_game(group, user)
            if group is not None or kind == "message" else None)  # a private notice or request: no game
    if not isinstance(game, int):
        return own, False, False
    lane: Lane = ("game", str(game))
    return lane, False, kind == "message" and _served_elsewhere(lane)


def _served_elsewhere(lane: Lane) -> bool:
    return lane[0] == "game" and leases.shared and leases.theirs(int(lane[1]))


def _keep(item: Item, lane: Lane) -> None:
    """A message of a game another process serves: its arrival taken (a repeat is dropped), kept."""
    data, _ = item
    arrival = arrive(delivery_key(data))
    if arrival is not None:
        keep(int(lane[1]), arrival, str(data.get("self_id")), data)


class Admission:
    """The lanes of every connected account (one event loop, one instance)."""

    def __init__(self, depth: int = LANE_DEPTH) -> None:
        self.depth = depth
        self.waiting: deque[Item] = deque()  # not yet in a lane (behind a barrier)
        self.lanes: dict[Lane, deque[Item]] = {}
        self.inside: dict[Lane, int] = {}
        self.barrier: asyncio.Task | None = None

    def put(self, data: dict[str, Any]) -> None:
        """An event as it arrives, with the account it came through (kept: a message read before
        a disconnection is still handled, as NoneBot would)."""
        self.waiting.append((data, get_bots().get(str(data.get("self_id")))))
        self.pump()

    def pump(self) -> None:
        for held, queue in sorted(self.lanes.items(), key=lambda lq: len(lq[1])):  # shortest backlog first
            while queue and self.inside.get(held, 0) < self.limit(held):
                item = queue.popleft()
                if item[0].get("post_type") != "message" or not _served_elsewhere(held):  # (learnt meanwhile)
                    self._admit(item, held)
                else:
                    _keep(item, held)
            if not queue:
                del self.lanes[held]
        while self.waiting and self.barrier is None:
            try:
                lane, barrier, drop = classify(self.waiting[0][0])
            except Exception as exc:  # an odd event: NoneBot takes it at once, as without lanes
                logger.opt(exception=exc).warning("kernel: an event could not be put in a lane")
                lane, barrier, drop = None, False, False
            if barrier and self.lanes:
                return  # every earlier event goes in first
            item = self.waiting.popleft()
            if drop and lane is not None:
                _keep(item, lane)
                continue
            if barrier:
                self.barrier = self._admit(item, None)
            elif lane is None or (lane not in self.lanes and self.inside.get(lane, 0) < self.limit(lane)):
                self._admit(item, lane)
            else:
                self.lanes.setdefault(lane, deque()).append(item)

    def limit(self, lane: Lane) -> int:
        """Events the lane may have inside NoneBot now: ``depth``, but one while a lane with a
        shorter backlog has events inside (a royale night's sixty players queue behind a vote
        burst's few: each step of the burst's commands waits for fewer of the night's)."""
        mine = len(self.lanes.get(lane, ()))
        if mine < self.depth:
            return self.depth
        others = [len(self.lanes.get(o, ())) for o in self.inside if o != lane]
        return 1 if others and min(others) < mine else self.depth

    def _admit(self, item: Item, lane: Lane | None) -> asyncio.Task | None:
        data, bot = item
        if bot is None:  # an account never connected: not taken (nor marked as delivered)
            return None
        if data.get("post_type") == "message":
            arrival = arrive(delivery_key(data))
            if arrival is None:
                return None  # delivered before
            data = {**data, ARRIVAL_FIELD: arrival}  # it travels with the event
        event = parse_event(data)
        if event is None:
            return None
        task = asyncio.create_task(cast(Bot, bot).handle_event(event))
        adapter = bot.adapter
        if isinstance(adapter, FairAdapter):
            adapter.tasks.add(task)
            task.add_done_callback(adapter.tasks.discard)
        if lane is not None:
            self.inside[lane] = self.inside.get(lane, 0) + 1
        task.add_done_callback(lambda t: self._done(t, lane))
        return task

    def _done(self, task: asyncio.Task, lane: Lane | None) -> None:
        if lane is not None:
            left = self.inside[lane] - 1
            if left:
                self.inside[lane] = left
            else:
                del self.inside[lane]
        if task is self.barrier:
            self.barrier = None
        self.pump()


admission = Admission()


@cache
def _validator(model: type[Event]) -> TypeAdapter[Event]:
    return TypeAdapter(model)


def parse_event(data: dict[str, Any]) -> Event | None:
    """``Adapter.json_to_event``, cheaper: the adapter builds a pydantic validator for the event
    model and one for each of its two messages every time (two thirds of its cost); here each
    model's validator is built once and a message's segments are made directly. A text segment
    without a text is dropped first. Anything odd goes the adapter's way (it logs what it
    cannot read)."""
    msg = data.get("message")
    if isinstance(msg, list) and any(isinstance(seg, dict) and _textless(seg) for seg in msg):
        msg = [seg for seg in msg if not (isinstance(seg, dict) and _textless(seg))]  # dropped, not parsed
        data = {**data, "message": msg}
    if isinstance(msg, list) and all(isinstance(seg, dict) and isinstance(seg.get("type"), str)
                                     and isinstance(seg.get("data"), dict) for seg in msg):
        data = {**data, "message": Message(MessageSegment(seg["type"], seg["data"]) for seg in msg)}
    for model in Adapter.get_event_model(data):
        try:
            return _validator(model).validate_python(data)
        except Exception:
            continue
    return Adapter.json_to_event(data)


class FairAdapter(Adapter):
    """The OneBot v11 adapter with fair admission of events (registered by ``bot.py``)."""

    @classmethod
    def json_to_event(cls, json_data: Any) -> Event | None:
        if isinstance(json_data, dict) and own_message(json_data):
            return None  # the bot's own message echoed back: ignored
        if isinstance(json_data, dict) and json_data.get("post_type") in LANED:
            self_id = str(json_data.get("self_id"))
            if self_id not in get_bots():  # an HTTP-posted event of an account not yet seen:
                adapter = get_adapter(cls)  # NoneBot connects it when the event is returned
                adapter.bot_connect(Bot(adapter, self_id))
            admission.put(json_data)
            return None  # admitted later, as its own task
        return super().json_to_event(json_data)
