"""88人场: the chat side. Rules live in the pure engine (``.engine``);
the kernel routes the commands of ``COMMANDS`` to it."""

from nonebot import require
from nonebot.plugin import PluginMetadata

require("plugins.kernel")

from plugins.kernel.registry import GameKind, register_game  # noqa: E402

from . import web  # noqa: E402,F401  (the post desk, served when WEB_PUBLIC_URL is set)
from .config import Config  # noqa: E402
from .engine import COMMANDS, ENGINE  # noqa: E402

__plugin_meta__ = PluginMetadata(
    name="88人场",
    description="88人两方对抗版杀：私聊发身份、报道字数统计、投票机、杀帖与结果帖",
    usage="/创建 88人场，之后 /帮助",
    type="application",
    config=Config,
    supported_adapters={"~onebot.v11"},
)

KIND = register_game(
    GameKind(
        key="mafia88",
        title="88人场",
        names=("88人场", "88", "风云", "mafia88"),
        engine=ENGINE,
        commands=COMMANDS,
        min_players=4,
        max_players=200,
        private_signup=True,
        intro="马甲保密：请私聊报名。",
    )
)
