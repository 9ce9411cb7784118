"""The game kernel: what all four games stand on.

Database (schema and upgrades), games and rosters, phases and deadlines that
survive restarts, the outbound queue, arrival order and duplicate events,
permissions, cards, audit log, export and help. Game plugins ``require`` it
and register a :class:`~plugins.kernel.registry.GameKind`.
"""

import base64
import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from nonebot import get_bots, get_driver, get_plugin_config, require
from nonebot.adapters.onebot.v11 import Message, MessageSegment
from nonebot.adapters.onebot.v11.config import Config as OneBotConfig
from nonebot.exception import NetworkError
from nonebot.log import logger
from nonebot.plugin import PluginMetadata

require("nonebot_plugin_apscheduler")

from apscheduler.jobstores.base import JobLookupError  # noqa: E402
from nonebot_plugin_apscheduler import scheduler  # noqa: E402

from . import handlers  # noqa: E402,F401  (registers the router)
from .config import Config  # noqa: E402
from .db import close_db, open_db  # noqa: E402
from .gate import Gate, check_bind  # noqa: E402
from .models import Timer  # noqa: E402
from .outbox import NoBot, OutboxWorker, SendTimeout  # noqa: E402
from .registry import GameKind, register_game  # noqa: E402,F401
from .leases import leases  # noqa: E402
from .runtime import DEADLINE_BACKOFF, directory, fire_timer, set_hooks, utcnow  # noqa: E402

__plugin_meta__ = PluginMetadata(
    name="游戏内核",
    description="四个游戏共用的内核：数据库、阶段与截止时间、发送队列、权限、名单、判罚、日志、导出",
    usage="/帮助",
    type="application",
    config=Config,
    supported_adapters={"~onebot.v11"},
)

config = get_plugin_config(Config)
driver = get_driver()
_onebot = get_plugin_config(OneBotConfig)
check_bind(str(driver.config.host), _onebot.onebot_access_token)
driver.server_app.add_middleware(Gate, token=_onebot.onebot_access_token, http_events=config.onebot_http_events)


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


worker = OutboxWorker(config, send_via_bot)


def _superusers() -> set[str]:
    return set(driver.config.superusers)


async def _fire(timer_id: int) -> None:
    await fire_timer(timer_id, _superusers())


def arm(t: Timer, at: datetime | None = None) -> None:
    """Mirror one timer row in the scheduler (the row is the truth); ``at``
    overrides the run time (a retry after a failure)."""
    job_id = f"timer-{t.id}"
    if t.status == "armed":
        scheduler.add_job(
            _fire,
            "date",
            run_date=at or t.ends_at,
            args=[t.id],
            id=job_id,
            replace_existing=True,
            misfire_grace_time=None,
        )
    else:
        try:
            scheduler.remove_job(job_id)
        except JobLookupError:
            pass


def retry(timer_id: int, at: datetime) -> None:
    scheduler.add_job(_fire, "date", run_date=at, args=[timer_id], id=f"timer-{timer_id}",
                      replace_existing=True, misfire_grace_time=None)


async def rearm_all(game_id: int | None = None) -> int:
    """Arm a scheduler job for every armed timer row (of one game, or all);
    overdue ones fire now. A failed one is retried after its back-off."""
    rows = Timer.filter(status="armed") if game_id is None else Timer.filter(status="armed", game_id=game_id)
    armed = await rows.order_by("ends_at")
    now = utcnow()
    for t in armed:
        if t.attempts and t.ends_at <= now:
            arm(t, now + timedelta(seconds=DEADLINE_BACKOFF[min(t.attempts, len(DEADLINE_BACKOFF)) - 1]))
        else:
            arm(t)
    overdue = sum(1 for t in armed if t.ends_at <= now)
    logger.info(f"kernel: {len(armed)} deadlines armed ({overdue} overdue, firing now)")
    return len(armed)


async def _acquired(game_id: int) -> None:
    """This process now serves the game: fresh routing, its deadlines armed here."""
    await directory.refresh(game_id)
    await rearm_all(game_id)
    worker.wake.set()


@driver.on_startup
async def _startup() -> None:
    await open_db(config.database_url)
    await directory.load()
    set_hooks(worker.wake.set, arm, retry)
    leases.configure(ttl=config.lease_seconds, shared=not config.database_url.startswith("sqlite"), on_acquire=_acquired)
    await leases.renew()  # take the games nobody serves (all of them when alone); arms their deadlines
    leases.start()
    worker.start()


@driver.on_shutdown
async def _shutdown() -> None:
    await worker.stop()
    await leases.stop()
    await close_db()
