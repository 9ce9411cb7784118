from nonebot.plugin import PluginMetadata

from .config import Config

__plugin_meta__ = PluginMetadata(
    name="88人场",
    description="88人场",
    usage="/帮助",
    type="application",
    config=Config,
    supported_adapters={"~onebot.v11"},
)
