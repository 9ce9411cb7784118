"""狼人杀城市联赛: the chat side. Rules live in the pure engine (``.engine``);
the kernel routes the commands of ``COMMANDS`` to it."""

from nonebot import require
from nonebot.plugin import PluginMetadata

require("plugins.kernel")

from plugins.kernel.registry import GameKind, register_game  # noqa: E402

from . import web  # noqa: E402,F401  (the page and the referees' desk, served when WEB_PUBLIC_URL is set)
from .config import Config  # noqa: E402
from .engine import COMMANDS, ENGINE  # noqa: E402
from .picture import render_state  # noqa: E402

__plugin_meta__ = PluginMetadata(
    name="狼人杀城市联赛",
    description="狼人杀城市联赛线上赛：报名、签到、分组、计分、积分榜、申诉",
    usage="/创建 联赛，之后 /帮助",
    type="application",
    config=Config,
    supported_adapters={"~onebot.v11"},
)

KIND = register_game(
    GameKind(
        key="league",
        title="狼人杀城市联赛",
        names=("联赛", "城市联赛", "league"),
        engine=ENGINE,
        commands=COMMANDS,
        min_players=1,
        max_players=1000,
        private_signup=False,
        intro="按报名顺序前120名为正赛，其余为替补。",
        renderers={"standings": render_state},
    )
)
