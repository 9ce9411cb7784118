from nonebot.plugin import PluginMetadata

from .config import Config

__plugin_meta__ = PluginMetadata(
    name="狼人杀城市联赛",
    description="狼人杀城市联赛",
    usage="/帮助",
    type="application",
    config=Config,
    supported_adapters={"~onebot.v11"},
)
