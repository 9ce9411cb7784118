"""Sending through OneBot: the function the outbound queue calls, and the one
queue worker of this process."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

from nonebot import get_bots
from nonebot.adapters.onebot.v11 import Message, MessageSegment
from nonebot.exception import NetworkError

from .config import kernel_config
from .outbox import NoBot, OutboxWorker, SendTimeout


async def send_via_bot(
    self_id: str, target_type: str, target_id: str, text: str, *, at_all: bool = False, image: str | None = None
) -> None:
    bots = get_bots()
    bot = bots.get(self_id) or next(iter(bots.values()), None)
    if bot is None:
        raise NoBot()
    try:
        await _call(bot, target_type, target_id, text, at_all=at_all, image=image)
    except NetworkError as exc:
        if "timeout" in str(exc).lower():
            raise SendTimeout(str(exc)) from exc
        raise


async def _call(bot: Any, target_type: str, target_id: str, text: str, *, at_all: bool, image: str | None) -> None:
    if target_type == "api":
        call = json.loads(text)
        await bot.call_api(call["action"], **call["params"])
        return
    msg = Message(MessageSegment.text(text)) if text else Message()  # user text is never parsed as CQ codes
    if at_all and target_type == "group":
        msg = MessageSegment.at("all") + MessageSegment.text(" ") + msg
    if image:
        msg += MessageSegment.image("base64://" + base64.b64encode(Path(image).read_bytes()).decode())
    if target_type == "group":
        await bot.call_api("send_group_msg", group_id=int(target_id), message=msg)
    else:
        await bot.call_api("send_private_msg", user_id=int(target_id), message=msg)


worker = OutboxWorker(kernel_config(), send_via_bot)


def wake_outbox() -> None:
    worker.wake.set()
