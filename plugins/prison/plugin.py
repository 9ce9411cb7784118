"""囚犯游戏: the chat side. Rules live in the pure engine (``.engine``);
the kernel routes the commands of ``COMMANDS`` to it."""

from nonebot import require
from nonebot.plugin import PluginMetadata

require("plugins.kernel")

from plugins.kernel.registry import GameKind, ProfileField, register_game  # noqa: E402

from . import web  # noqa: E402,F401  (the web interrogation room, room_mode = "web")
from .config import Config  # noqa: E402
from .engine.commands import COMMANDS  # noqa: E402
from .engine.engine import ENGINE  # noqa: E402

__plugin_meta__ = PluginMetadata(
    name="囚犯游戏",
    description="囚犯游戏：看守与囚犯、白天投票处决或释放、夜晚匿名审讯房间、积分制",
    usage="/创建 囚犯，之后 /帮助",
    type="application",
    config=Config,
    supported_adapters={"~onebot.v11"},
)

KIND = register_game(
    GameKind(
        key="prison",
        title="囚犯游戏",
        names=("囚犯", "囚犯游戏", "prison"),
        engine=ENGINE,
        commands=COMMANDS,
        min_players=10,
        max_players=14,
        private_signup=True,
        intro=("马甲保密：请私聊报名，并私聊 /资料 填写随机号码（1–999，决定看守或囚犯）和志愿（角色:硬币）。"
               "导演载入剧本角色时，开始后先竞拍，拍得的角色换作你的马甲（座位号不变）。"),
        profile_fields=(
            ProfileField("number", "随机号码", "int", 1, 999),
            ProfileField("first", "第一志愿"),
            ProfileField("second", "第二志愿"),
            ProfileField("nickname", "昵称"),
            ProfileField("contact", "联系方式"),
        ),
        extra={"alt_accounts": True},  # /小号: a throwaway QQ for the room groups
    )
)
