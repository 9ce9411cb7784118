from nonebot.plugin import PluginMetadata

from .config import Config

__plugin_meta__ = PluginMetadata(
    name="游戏内核",
    description="四个游戏共用的内核：数据库、阶段与截止时间、发送队列、权限、名单、判罚、日志、导出",
    usage="/帮助",
    type="application",
    config=Config,
    supported_adapters={"~onebot.v11"},
)
