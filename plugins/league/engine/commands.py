"""The league's chat commands: each row names its rule and its arguments (a rule
changes the state it is given and returns the effects). Who may send a command is
said here only (``who``); the rules check what depends on the state."""

from __future__ import annotations

import plugins.league.engine.rules_admin as A
import plugins.league.engine.rules_day as D
import plugins.league.engine.rules_games as G
import plugins.league.engine.rules_views as V
from plugins.gamekit.args import NoArgs
from plugins.gamekit.contract import CommandSpec

COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(("签到",), "checkin", NoArgs, where="group", who="player",
                usage="/签到", help="比赛日 18:00-18:35 在分组群签到（18:30 后记迟到扣 1 分）", rule=D.checkin),
    CommandSpec(("积分榜",), "standings", V.StandingsArgs, who="anyone",
                alive_only=False, usage="/积分榜 [页码]", help="查看本轮积分榜和晋级线", rule=V.standings, query=True),
    CommandSpec(("积分榜图",), "standings_picture", NoArgs, who="anyone", alive_only=False,
                usage="/积分榜图", help="把本轮积分榜画成图片发出来", rule=V.standings_picture, query=True),
    CommandSpec(("我的积分",), "my_points", V.MyPointsArgs, who="anyone",
                alive_only=False, usage="/我的积分 [<玩家>]", help="逐项查看本轮积分明细", rule=V.my_points, query=True),
    CommandSpec(("分组",), "groups", NoArgs, who="anyone", alive_only=False,
                usage="/分组", help="查看本轮分组和今天的出场名单", rule=V.groups, query=True),
    CommandSpec(("申诉",), "appeal", A.AppealArgs, where="private",
                who="player", alive_only=False, usage="/申诉 <局号> <理由>",
                help="比赛日次日 12:00 前私聊提交申诉", rule=A.appeal),
    CommandSpec(("开赛日",), "open_day", D.OpenDayArgs, who="host",
                usage="/开赛日 [月-日]", help="裁判：开启下一个比赛日并设好签到时间", rule=D.open_day),
    CommandSpec(("未到",), "absent", D.AbsentArgs, who="host",
                usage="/未到 <玩家> [<玩家>…]", help="裁判：记下未进房间的选手，18:50 视为弃权", rule=D.absent),
    CommandSpec(("录分",), "score", G.ScoreArgs, who="host",
                usage="/录分 <计分表>", help="裁判：粘贴一局的计分表（首行「A组 第1场」）", rule=G.score),
    CommandSpec(("改分",), "rescore", G.RescoreArgs, who="host",
                usage="/改分 <局号> <计分表>", help="裁判：用新的计分表更正一局（留审计记录）", rule=G.rescore),
    CommandSpec(("流局",), "void", G.VoidArgs,
                who="host", usage="/流局 <局号> [原因]", help="裁判：判流局，只保留违规扣分", rule=G.void),
    CommandSpec(("违规",), "violation", A.ViolationArgs,
                who="host", alive_only=False, usage="/违规 <玩家> <类型> [局号]",
                help="裁判：记一次违规扣分（类型见违规表）", rule=A.violation),
    CommandSpec(("撤销",), "undo", A.UndoArgs,
                who="host", alive_only=False, usage="/撤销 <编号> <理由>",
                help="裁判：撤回一条扣分（违规、迟到），编号见 /我的积分", rule=A.undo),
    CommandSpec(("评选",), "award", A.AwardArgs,
                who="host", alive_only=False, usage="/评选 <局号> <全场最佳|败方最佳> <玩家|无>",
                help="裁判：改评一局的全场最佳/败方最佳（§七）", rule=A.award),
    CommandSpec(("录分模板",), "template", G.TemplateArgs, who="host", alive_only=False,
                usage="/录分模板 <组> [第N场] 或 /录分模板 <局号>",
                help="裁判：取一局的计分表模板（已填好入座名单和版型角色）；写局号取已录的表来改", rule=G.template),
    CommandSpec(("违规表",), "catalogue", NoArgs, who="anyone", alive_only=False,
                usage="/违规表", help="查看违规类型、等级和处罚（§十三）", rule=V.catalogue, query=True),
    CommandSpec(("申诉列表",), "appeals", NoArgs, who="host", alive_only=False,
                usage="/申诉列表", help="裁判：查看待复核的申诉", rule=A.appeals, query=True),
    CommandSpec(("裁决",), "verdict", A.VerdictArgs,
                who="host", alive_only=False, usage="/裁决 <编号> <维持|改判> [说明]",
                help="裁判：答复一件申诉", rule=A.verdict),
    CommandSpec(("下一轮",), "next_round", NoArgs, who="host", alive_only=False,
                usage="/下一轮", help="裁判：结束本轮，按排名晋级并公布新分组", rule=A.next_round),
)
