from nonebot.plugin import PluginMetadata

from .config import Config

__plugin_meta__ = PluginMetadata(
    name="囚犯游戏",
    description="囚犯游戏",
    usage="/帮助",
    type="application",
    config=Config,
    supported_adapters={"~onebot.v11"},
)
