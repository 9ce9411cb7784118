from nonebot.plugin import PluginMetadata

from .config import Config

__plugin_meta__ = PluginMetadata(
    name="大逃杀",
    description="大逃杀",
    usage="/帮助",
    type="application",
    config=Config,
    supported_adapters={"~onebot.v11"},
)
