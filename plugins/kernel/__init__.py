"""The game kernel: what all four games stand on.

Database (schema and upgrades), games and rosters, phases and deadlines that
survive restarts, the outbound queue, arrival order and duplicate events,
permissions, cards, audit log, export and help. Game plugins ``require`` it
and register a :class:`~plugins.kernel.registry.GameKind`; they import only
:mod:`.registry` (and, for their chat side, :mod:`.web` and :mod:`.pictures`); their engines
import only :mod:`plugins.gamekit`. See ARCHITECTURE.md.
"""

from datetime import timedelta

from nonebot import get_driver, get_plugin_config, require
from nonebot.adapters.onebot.v11.config import Config as OneBotConfig
from nonebot.drivers import ASGIMixin
from nonebot.plugin import PluginMetadata

require("nonebot_plugin_apscheduler")  # before anything that schedules
require("nonebot_plugin_localstore")  # the data folder (config.data_dir)

from .backup import schedule_backups  # noqa: E402

# Importing the rooms registers the router, the notices and the kernel's commands.
from .commands import admin, discipline, hosting, info, lobby, queue, speech, web  # noqa: E402,F401
from .config import Config, kernel_config  # noqa: E402
from .db import close_db, open_db  # noqa: E402
from .directory import directory, load_contacts  # noqa: E402
from .gate import Gate, check_bind  # noqa: E402
from .health import install as install_health  # noqa: E402
from .held import forget  # noqa: E402
from .leases import leases  # noqa: E402
from .order import utcnow  # noqa: E402
from .outbox import load_parked  # noqa: E402
from .routing import events, kept, members, notices, router  # noqa: E402,F401
from .sending import send_via_bot, worker  # noqa: E402,F401
from .timers import rearm_all  # noqa: E402
from .web.routes import install as install_web  # noqa: E402

__plugin_meta__ = PluginMetadata(
    name="游戏内核",
    description="四个游戏共用的内核：数据库、阶段与截止时间、发送队列、权限、名单、判罚、日志、导出",
    usage="/帮助",
    type="application",
    config=Config,
    supported_adapters={"~onebot.v11"},
)

_cfg = kernel_config()
driver = get_driver()
_onebot = get_plugin_config(OneBotConfig)
check_bind(str(driver.config.host), _onebot.onebot_access_token)
assert isinstance(driver, ASGIMixin), "the kernel needs an ASGI driver (DRIVER=~fastapi)"
driver.server_app.add_middleware(Gate, token=_onebot.onebot_access_token, http_events=_cfg.onebot_http_events)
install_health(driver.server_app)  # GET /healthz, GET /metrics (loopback or the token: gate.py)
if _cfg.web_public_url:  # the players' web pages (off by default)
    install_web(driver.server_app, _cfg.web_public_url)
    web.SITE["url"] = _cfg.web_public_url.rstrip("/")


async def _acquired(game_id: int) -> None:
    """This process now serves the game: fresh routing, a fresh copy, the messages kept of it in
    their places in its arrival order (before its deadlines, before any newer message), its
    deadlines armed here."""
    forget(game_id)
    router.replay(game_id)
    await directory.refresh(game_id)
    await rearm_all(game_id)
    worker.wake.set()


@driver.on_startup
async def _startup() -> None:
    await open_db(_cfg.database_url)
    await events.recall_delivered(utcnow() - timedelta(hours=1))
    await directory.load()
    await load_contacts()
    await load_parked()
    leases.configure(ttl=_cfg.lease_seconds, shared=not _cfg.database_url.startswith("sqlite"), on_acquire=_acquired,
                     on_alive=kept.answered)
    await leases.renew()  # take the games nobody serves (all of them when alone); arms their deadlines
    leases.start()
    worker.start()
    schedule_backups(_cfg)  # GAMEHOST__BACKUP_EVERY (off when empty)


@driver.on_shutdown
async def _shutdown() -> None:
    await worker.stop()
    await directory.stop()
    await leases.stop()
    await close_db()
