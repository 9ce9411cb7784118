"""The fake OneBot v11 implementation of the tests (``tests/fixtures/fake_onebot.py``)
with clocks: every event it sends and every API call it receives is stamped
with ``time.perf_counter()``, and a caller can wait for "the next message the
bot sends to X that looks like Y" (registered before the event is sent)."""

from __future__ import annotations

import asyncio
import itertools
import json
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "fixtures"))

import websockets
from fake_onebot import BotProcess, FakeOneBot, _plain, free_port  # noqa: F401

SEND_ACTIONS = ("send_group_msg", "send_private_msg", "send_msg")
Pred = Callable[[str], bool]


class TimedOneBot(FakeOneBot):
    def __init__(self, url: str, self_id: str = "999"):
        super().__init__(url, self_id)
        # every message the bot sent: (perf_counter at arrival, "group"|"private", target, text)
        self.received: list[tuple[float, str, str, str]] = []
        # waiting callers per (kind, target): (pred, future, whole: the pred sees only whole messages)
        self._expect: dict[tuple[str, str], list[tuple[Pred, asyncio.Future[float], bool]]] = defaultdict(list)
        # other bot processes the same QQ account is connected to (NapCat allows several reverse
        # WebSocket clients): every event sent here reaches them too, with the same message id
        self.mirrors: list[FakeOneBot] = []

    async def _read(self) -> None:
        n = itertools.count(1)
        try:
            async for raw in self._ws:
                t = time.perf_counter()
                frame = json.loads(raw)
                if "action" not in frame:
                    continue
                action, params = frame["action"], frame.get("params", {})
                self.calls.append((action, params))
                if action in SEND_ACTIONS:
                    kind = "group" if "group_id" in params else "private"
                    target = str(params.get("group_id") or params.get("user_id"))
                    text = _plain(params.get("message"))
                    self.received.append((t, kind, target, text))
                    waiting = self._expect.get((kind, target))
                    # the bot sends replies queued for one group as one message, a line each
                    units = [text] + (text.split("\n") if "\n" in text else [])
                    for j, unit in enumerate(units if waiting else ()):
                        for i, (pred, fut, whole) in enumerate(waiting):
                            if not fut.done() and not (whole and j) and pred(unit):
                                fut.set_result(t)
                                del waiting[i]
                                break
                resp = {"status": "ok", "retcode": 0, "data": {"message_id": next(n)}, "echo": frame.get("echo")}
                await self._ws.send(json.dumps(resp))
                self._changed.set()
        except websockets.exceptions.ConnectionClosed:
            pass

    def expect(self, kind: str, target: str, pred: Pred, *, whole: bool = False) -> asyncio.Future[float]:
        """A future set to the arrival time of the next matching message. With ``whole`` only a
        whole message is matched, not one of its lines (one reply each: private messages are
        never merged, so a multi-line reply cannot answer two waiting callers)."""
        fut: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self._expect[(kind, str(target))].append((pred, fut, whole))
        return fut

    async def send_group(self, group: str, user: str, text: str, role: str = "member") -> float:
        ev = self._base(user, text, None) | {
            "message_type": "group", "sub_type": "normal", "group_id": int(group),
            "sender": {"user_id": int(user), "nickname": f"u{user}", "card": "", "role": role},
        }
        raw = json.dumps(ev)
        t = time.perf_counter()
        await self._ws.send(raw)
        for other in self.mirrors:
            await other._ws.send(raw)
        return t

    async def send_private(self, user: str, text: str) -> float:
        ev = self._base(user, text, None) | {
            "message_type": "private", "sub_type": "friend",
            "sender": {"user_id": int(user), "nickname": f"u{user}"},
        }
        raw = json.dumps(ev)
        t = time.perf_counter()
        await self._ws.send(raw)
        for other in self.mirrors:
            await other._ws.send(raw)
        return t

    async def ask_group(self, group: str, user: str, text: str, pred: Pred | None = None, *,
                        role: str = "member", timeout: float = 60) -> float:
        """Send and wait for the reply addressed to the sender; returns the latency (s)."""
        prefix = f"u{user}："
        fut = self.expect("group", group, lambda s: s.startswith(prefix) and (pred is None or pred(s)))
        t0 = await self.send_group(group, user, text, role)
        return await asyncio.wait_for(fut, timeout) - t0

    async def ask_private(self, user: str, text: str, pred: Pred | None = None, *, timeout: float = 60) -> float:
        fut = self.expect("private", user, pred or (lambda s: True))
        t0 = await self.send_private(user, text)
        return await asyncio.wait_for(fut, timeout) - t0
