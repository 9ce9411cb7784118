"""大逃杀: the chat side. Rules live in the pure engine (``.engine``);
the kernel routes the commands of ``COMMANDS`` to it."""

from nonebot import require
from nonebot.plugin import PluginMetadata

require("plugins.kernel")

from plugins.kernel.registry import GameKind, register_game  # noqa: E402

from . import web  # noqa: E402,F401  (the action page, served when WEB_PUBLIC_URL is set)
from .config import Config  # noqa: E402
from .engine import COMMANDS, ENGINE  # noqa: E402
from .picture import render_state  # noqa: E402

__plugin_meta__ = PluginMetadata(
    name="大逃杀",
    description="大逃杀：41个地点、道具、天气、缩圈与十种随机事件，夜晚行动实时结算",
    usage="/创建 大逃杀，之后 /帮助",
    type="application",
    config=Config,
    supported_adapters={"~onebot.v11"},
)

KIND = register_game(
    GameKind(
        key="royale",
        title="大逃杀",
        names=("大逃杀", "royale"),
        engine=ENGINE,
        commands=COMMANDS,
        min_players=2,
        max_players=200,
        private_signup=False,
        intro="夜晚行动请私聊机器人。",
        renderers={"map": render_state},
    )
)
