"""The league's chat commands (the kernel wires them)."""

from __future__ import annotations

from plugins.kernel.commands import ArgSpec, CommandSpec

COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(("签到",), "checkin", where="group", who="player",
                usage="/签到", help="比赛日 18:00-18:35 在分组群签到（18:30 后记迟到扣 1 分）"),
    CommandSpec(("积分榜",), "standings", (ArgSpec("page", "int", optional=True),), who="anyone",
                alive_only=False, usage="/积分榜 [页码]", help="查看本轮积分榜和晋级线"),
    CommandSpec(("积分榜图",), "standings_picture", who="anyone", alive_only=False,
                usage="/积分榜图", help="把本轮积分榜画成图片发出来"),
    CommandSpec(("我的积分",), "my_points", (ArgSpec("player", "player", optional=True),), who="anyone",
                alive_only=False, usage="/我的积分 [<玩家>]", help="逐项查看本轮积分明细"),
    CommandSpec(("分组",), "groups", who="anyone", alive_only=False,
                usage="/分组", help="查看本轮分组和今天的出场名单"),
    CommandSpec(("申诉",), "appeal", (ArgSpec("game", "int"), ArgSpec("text", "text")), where="private",
                who="player", alive_only=False, usage="/申诉 <局号> <理由>",
                help="比赛日次日 12:00 前私聊提交申诉"),
    CommandSpec(("开赛日",), "open_day", (ArgSpec("date", "word", optional=True),), who="host",
                usage="/开赛日 [月-日]", help="裁判：开启下一个比赛日并设好签到时间"),
    CommandSpec(("未到",), "absent", (ArgSpec("players", "players"),), who="host",
                usage="/未到 <玩家> [<玩家>…]", help="裁判：记下未进房间的选手，18:50 视为弃权"),
    CommandSpec(("录分",), "score", (ArgSpec("text", "text"),), who="host",
                usage="/录分 <计分表>", help="裁判：粘贴一局的计分表（首行「A组 第1场」）"),
    CommandSpec(("改分",), "rescore", (ArgSpec("game", "int"), ArgSpec("text", "text")), who="host",
                usage="/改分 <局号> <计分表>", help="裁判：用新的计分表更正一局（留审计记录）"),
    CommandSpec(("流局",), "void", (ArgSpec("game", "int"), ArgSpec("reason", "text", optional=True)),
                who="host", usage="/流局 <局号> [原因]", help="裁判：判流局，只保留违规扣分"),
    CommandSpec(("违规",), "violation", (ArgSpec("player", "player"), ArgSpec("type", "word"),
                                          ArgSpec("game", "int", optional=True)),
                who="host", alive_only=False, usage="/违规 <玩家> <类型> [局号]",
                help="裁判：记一次违规扣分（类型见违规表）"),
    CommandSpec(("申诉列表",), "appeals", who="host", alive_only=False,
                usage="/申诉列表", help="裁判：查看待复核的申诉"),
    CommandSpec(("裁决",), "verdict", (ArgSpec("id", "int"), ArgSpec("verdict", "word"),
                                       ArgSpec("note", "text", optional=True)),
                who="host", alive_only=False, usage="/裁决 <编号> <维持|改判> [说明]",
                help="裁判：答复一件申诉"),
    CommandSpec(("下一轮",), "next_round", who="host", alive_only=False,
                usage="/下一轮", help="裁判：结束本轮，按排名晋级并公布新分组"),
)
