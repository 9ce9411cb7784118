"""Start the bot: NoneBot2 with the FastAPI driver, OneBot v11 over reverse
WebSocket at ws://HOST:PORT/onebot/v11/ws (defaults 127.0.0.1:8080).

    python bot.py                 run the bot
    python bot.py migrate         apply database migrations and exit
    python bot.py makemigrations  write a migration after changing models (developers)
    python bot.py checkmigrations exit 1 if the models changed without a migration
    python bot.py backup [FILE]   write a consistent copy of the database (also while the bot runs)
    python bot.py restore FILE    put a backup in place of the database (the bot must be stopped)
"""

import asyncio
import gc
import os
import sys
from typing import TYPE_CHECKING, Any

import nonebot
from nonebot.log import default_filter, default_format, logger, logger_id

if TYPE_CHECKING:
    from loguru import Record

nonebot.init()
driver = nonebot.get_driver()
# NoneBot's console handler takes every level and drops records below LOG_LEVEL in a filter, so
# each debug and trace call (several per message) first builds a whole record: give the handler
# the level itself, and those calls return at once.
# NoneBot also logs three lines for every message at INFO (the message itself, "Event will be
# handled by" and "running complete" of the one router): a private message's text is a player's
# secret, the command log in the database already records each command, and at a vote burst's
# rate the lines cost a fifth of the bot's time. They are kept at DEBUG.
_PER_EVENT = {"handle_event", "_run_matcher", "simple_run"}
_level = driver.config.log_level
_debug = (logger.level(_level).no if isinstance(_level, str) else _level) <= logger.level("DEBUG").no


def _filter(record: "Record") -> bool:
    if record["name"] == "nonebot" and record["function"] in _PER_EVENT and record["level"].no < 30:
        return _debug
    return default_filter(record)


logger.remove(logger_id)
logger.add(sys.stdout, level=_level, diagnose=False, filter=_filter, format=default_format)
if not _debug:  # the first of the three (the message itself, at SUCCESS) is not even built: NoneBot skips
    # an event's line when its log string raises NoLogException (the record, its colour markup and the
    # event's text cost ~6% of the event loop's time on a royale night, only to be dropped by _filter)
    from nonebot.adapters.onebot.v11.event import Event as _OneBotEvent
    from nonebot.adapters.onebot.v11.exception import NoLogException

    def _unlogged(self: object) -> str:
        raise NoLogException

    _OneBotEvent.get_log_string = _unlogged  # type: ignore[method-assign]

    # the other two ("Event will be handled by", "running complete"): loguru built each record (the
    # caller's frame, the time, ...) before _filter dropped it, ~4% of the event loop's time beside a
    # royale night; their modules' logger skips INFO instead (every other level goes on as before)
    import nonebot.internal.matcher.matcher as _nb_matcher
    import nonebot.message as _nb_message

    class _NoInfo:
        def __init__(self, inner: Any) -> None:
            self._inner = inner

        def info(self, *_args: object, **_kwargs: object) -> None:
            pass

        def __getattr__(self, name: str) -> Any:
            return getattr(self._inner, name)

    _nb_message.logger = _nb_matcher.logger = _NoInfo(logger)  # type: ignore[assignment]
nonebot.load_from_toml("pyproject.toml")
# Developers/tests only: extra plugin modules, comma-separated (e.g. the demo game).
for _name in filter(None, os.environ.get("EXTRA_PLUGINS", "").split(",")):
    nonebot.load_plugin(_name.strip())
# OneBot v11 with the kernel's fair admission of events (one game's burst does not hold up
# another game's messages); it lives in the kernel plugin, so it is registered once that is loaded.
from plugins.kernel.routing.admission import FairAdapter  # noqa: E402

driver.register_adapter(FairAdapter)

app = nonebot.get_asgi()


@driver.on_startup
async def _freeze_startup_objects() -> None:
    """Runs after the plugins' start-up. Everything loaded so far (NoneBot, pydantic, the
    plugins' tables) lives as long as the process: keep it out of the garbage collector's
    full passes, which otherwise walk it all every few seconds (a 60 ms pause here)."""
    gc.collect()
    gc.freeze()


def _manage(cmd: str, *args: str) -> None:
    from plugins.kernel.config import kernel_config
    from plugins.kernel.db import tortoise_config, upgrade

    url = kernel_config().database_url
    if cmd == "migrate":
        asyncio.run(upgrade(url))
        print("数据库已是最新结构。")
    elif cmd == "makemigrations":
        from tortoise.cli import cli

        import plugins.kernel.db as db

        db.TORTOISE_ORM = tortoise_config(url)  # type: ignore[attr-defined]
        sys.argv = ["tortoise", "-c", "plugins.kernel.db.TORTOISE_ORM", "makemigrations"]
        cli.main()
    elif cmd == "checkmigrations":
        raise SystemExit(asyncio.run(_pending_changes(tortoise_config(url))))
    elif cmd in ("backup", "restore"):
        _backup_or_restore(cmd, url, args)
    else:
        raise SystemExit(f"unknown command {cmd}")


def _backup_or_restore(cmd: str, url: str, args: tuple[str, ...]) -> None:
    from pathlib import Path

    from plugins.kernel.backup import BackupError, restore, take_backup

    try:
        if cmd == "backup":
            path = take_backup(url, Path(args[0]) if args else None)
            print(f"备份完成：{path}\n（恢复：停止机器人后运行 python bot.py restore {path}）")
            return
        if not args:
            raise SystemExit("用法：python bot.py restore <备份文件>（先停止机器人）")
        kept = asyncio.run(restore(url, Path(args[0])))
    except BackupError as exc:
        raise SystemExit(str(exc)) from None
    print(f"已恢复：{args[0]}" + (f"；原来的数据库保存在 {kept}" if kept else "") + "。现在可以启动机器人。")


async def _pending_changes(config: dict) -> int:
    from tortoise.context import TortoiseContext
    from tortoise.migrations.autodetector import MigrationAutodetector

    async with TortoiseContext() as ctx:
        await ctx.init(config=config)
        assert ctx.apps is not None
        writers = await MigrationAutodetector(ctx.apps, config["apps"]).changes()
    for w in writers:
        print(f"missing migration for app {w.app_label}: run `python bot.py makemigrations`")
    return 1 if writers else 0


if __name__ == "__main__":
    if len(sys.argv) > 1:
        _manage(sys.argv[1], *sys.argv[2:])
    else:
        from plugins.kernel.config import kernel_config

        # NapCat's client offers permessage-deflate and uvicorn accepts it: every frame compressed and
        # inflated again (~2% of the event loop beside a royale night) for a link that is usually loopback
        nonebot.run(ws_per_message_deflate=kernel_config().ws_compression)
