"""The chat commands of the 88-player game: each row names its arguments and its rule (in the
``rules_*`` modules), and who may use it; the kernel's router reads the arguments and checks the
row's permission. A rule changes the state it is given and returns the effects."""

from __future__ import annotations

from plugins.gamekit.args import NoArgs, TextIn
from plugins.gamekit.contract import CommandSpec

from .args import (
    EndArgs,
    HighArgs,
    MessageArgs,
    OverrideArgs,
    PlayerReason,
    PostArgs,
    PostRef,
    RejectArgs,
    RewriteArgs,
    RoundArgs,
    SetRoundArgs,
    SoulBackArgs,
    SoulMoveArgs,
    Target,
    Targets,
    TextArgs,
    WhiteArgs,
)
from .rules_decide import designate_high, letter_soul, letter_thanks
from .rules_host import end, host_back, host_out, private_message, set_round, show_table, vote_log
from .rules_posts import (
    append_text,
    approve,
    check_identity,
    declare_white,
    drop_draft,
    finish_draft,
    list_posts,
    my_posts,
    open_post,
    open_rewrite,
    publish_now,
    reject,
    show_post,
    show_steps,
)
from .rules_reports import reject_report, report
from .rules_rulings import override
from .rules_souls import back, move
from .rules_start import signal
from .rules_votes import proxy, show_tally, vote
from .rules_window import name_soul, reveal, revive, take

COMMANDS: tuple[CommandSpec, ...] = (
    # players
    CommandSpec(("报道",), "report", TextArgs, usage="/报道 <正文>",
                help="第1轮结束前提交报道（301字以上，引用不超过10%），机器人当场统计字数", rule=report),
    CommandSpec(("投票",), "vote", Targets, alive_only=False,
                usage="/投票 <玩家> [<玩家>]", help="投本轮的票（票数见进程），投出不能改；加时只投一票", rule=vote),
    CommandSpec(("托票",), "proxy", Targets, where="private", alive_only=False,
                usage="/托票 <玩家> [<玩家>]", help="私聊托票给哨子，截止前20分钟停止；托票后不能自己投", rule=proxy),
    CommandSpec(("票型",), "tally", NoArgs, who="anyone", alive_only=False, usage="/票型",
                help="查看本轮票型和每人的票线", rule=show_tally, query=True),
    CommandSpec(("进程",), "table", NoArgs, who="anyone", alive_only=False, usage="/进程",
                help="查看进程表：每轮票数、出局数和贴杀数", rule=show_table, query=True),
    CommandSpec(("出贴",), "post", PostArgs,
                where="private", usage="/出贴 <代号> <目标> [正文…]",
                help="私聊起草杀帖，正文可分多条发送，写完发 /完成", rule=open_post),
    CommandSpec(("白条",), "white", WhiteArgs, where="private",
                usage="/白条 <代号> <目标>", help="来不及交贴时打白条，次日12:00前补1200字", rule=declare_white),
    CommandSpec(("重写",), "rewrite", RewriteArgs, where="private",
                alive_only=False, usage="/重写 <帖号> [正文…]", help="补交白条或重写被退回的杀帖（1200字以上）", rule=open_rewrite),
    CommandSpec(("完成",), "done", NoArgs, where="private", alive_only=False, usage="/完成", help="交出正在起草的杀帖", rule=finish_draft),
    CommandSpec(("撤稿",), "drop", NoArgs, where="private", alive_only=False, usage="/撤稿", help="放弃正在起草的杀帖", rule=drop_draft),
    CommandSpec(("我的贴",), "mine", NoArgs, where="private", alive_only=False, usage="/我的贴", help="查看自己交过的杀帖和状态", rule=my_posts, query=True),
    CommandSpec((), "text", TextIn, where="private", alive_only=False,
                help="起草杀帖时私聊发送的正文", rule=append_text),
    CommandSpec(("带人",), "take", Targets, where="private",
                usage="/带人 <玩家> [<玩家>…]", help="高票出局后从票自己的线上选人陪同出局（联合蛋、独立杀、地雷，§五）", rule=take),
    CommandSpec(("照出",), "reveal", Targets, where="private",
                usage="/照出 <玩家>", help="魔镜高票出局后照出票自己的线上一人（§五黑6）", rule=reveal),
    CommandSpec(("指定追魂",), "soul", Targets, where="private",
                usage="/指定追魂 <玩家>", help="地雷高票出局或第1轮高票出局者指定一人写追魂（§五黑5、§七.1）", rule=name_soul),
    CommandSpec(("复活",), "revive", Target, where="private",
                usage="/复活 <玩家>", help="复活：第二、四轮结果贴前复活一名高票者（§五白6）", rule=revive),
    CommandSpec(("追魂",), "letter_soul", TextArgs, where="private", alive_only=False,
                usage="/追魂 <正文>", help="交被指定的500字追魂", rule=letter_soul),
    CommandSpec(("感谢信",), "letter_thanks", TextArgs, where="private",
                usage="/感谢信 <正文>", help="被复活者次日12:00前交500字感谢信（§五白6）", rule=letter_thanks),
    CommandSpec(("移魂",), "soul_move", SoulMoveArgs,
                where="private", usage="/移魂 <被贴杀者> <移到谁> <500字正文>",
                help="移魂：第二、三轮交贴截止前，把当轮被贴杀者移魂到另一人身上（§五白4）", rule=move),
    CommandSpec(("还魂",), "soul_back", SoulBackArgs, where="private",
                usage="/还魂 <玩家> <800字正文>", help="还魂：第二、三轮交贴截止前还魂一人（§五黑8）", rule=back),
    CommandSpec(("接头",), "signal", TextArgs, where="private",
                usage="/接头 <寻找暗号>", help="知道暗号的独立杀和孤杀：用寻找暗号找到对方（§五黑3、§七.3）", rule=signal),
    # hosts
    CommandSpec(("贴单",), "posts", RoundArgs, where="private", who="host",
                alive_only=False, usage="/贴单 [轮次]", help="哨子：查看某轮杀帖、字数和状态", rule=list_posts, query=True),
    CommandSpec(("看贴",), "show", PostRef, where="private", who="host", alive_only=False,
                usage="/看贴 <帖号|报道号>", help="哨子：查看杀帖或报道全文、字数和与其他文字的重合（报道号 = 报道+座位号）", rule=show_post, query=True),
    CommandSpec(("通过",), "approve", PostRef, where="private", who="host", alive_only=False,
                usage="/通过 <帖号>", help="哨子：通过杀帖", rule=approve),
    CommandSpec(("退回",), "reject", RejectArgs, where="private",
                who="host", alive_only=False, usage="/退回 <帖号> [理由]", help="哨子：退回杀帖，作者须次日12:00前重写1200字", rule=reject),
    CommandSpec(("退回报道",), "reject_report", PlayerReason,
                who="host", alive_only=False, usage="/退回报道 <玩家> [理由]", help="哨子：退回报道，须在第1轮结束前重报601字", rule=reject_report),
    # /出局 and /回场 (the kernel's words) are aliases here: the same action, announced by the rules
    CommandSpec(("判出局", "出局"), "out", PlayerReason,
                who="host", alive_only=False, usage="/判出局 <玩家> [理由]", help="哨子：判玩家出局（§十四.6）",
                audit=True, rule=host_out),
    CommandSpec(("判复活", "回场"), "back", PlayerReason,
                who="host", alive_only=False, usage="/判复活 <玩家> [理由]", help="哨子：让出局玩家回到场上",
                audit=True, rule=host_back),
    CommandSpec(("改进程",), "set_round", SetRoundArgs,
                who="host", alive_only=False, usage="/改进程 <轮次> <每人票数> <票出人数> [贴杀，如 联2 独3]",
                help="哨子：调整某轮进程（§十）", rule=set_round),
    CommandSpec(("票记录",), "vote_log", RoundArgs, where="private", who="host",
                alive_only=False, usage="/票记录 [轮次]", help="哨子：查看投票记录（含托票和未投票名单）", rule=vote_log, query=True),
    CommandSpec(("改判",), "override", OverrideArgs,
                where="private", who="host", alive_only=False, usage="/改判 <步骤> <结果> <理由>",
                help="哨子：杀帖公布前改判结算预览中的一步（出局/同归/出贴者出局/照出/照出并出局/倒计时/无人出局）；"
                     "结果贴后改判其中一步：/改判 结果<步骤> <出局|无人出局> <理由>",
                extra={"example": "/改判 结果1 无人出局 投票机故障"}, rule=override),
    CommandSpec(("结算",), "steps", NoArgs, where="private", who="host", alive_only=False, usage="/结算",
                help="哨子：查看本轮杀帖结算步骤（交贴截止后）", rule=show_steps),
    CommandSpec(("发布",), "publish_now", NoArgs, who="host", alive_only=False, usage="/发布",
                help="哨子：交贴截止后立即公布本轮杀帖和结算", rule=publish_now),
    CommandSpec(("私信",), "dm", MessageArgs, where="private", who="host",
                alive_only=False, usage="/私信 <玩家> <内容>", help="哨子：通过机器人私聊一名玩家（记录在案）", rule=private_message),
    CommandSpec(("高贴指定",), "high_posts", HighArgs, who="host",
                alive_only=False, usage="/高贴指定 <被指定者> [指定者]",
                help="哨子：第五轮结束后记录高贴数特权的指定，被指定者须交 500 字（§七.2）", rule=designate_high),
    CommandSpec(("查身份",), "check", Target, where="private", alive_only=False,
                usage="/查身份 <玩家>", help="地雷同归后查看一名玩家的身份（§五黑5）", rule=check_identity),
    # the kernel's /结束 is an alias here; without 白方/黑方/平局 the game ends with no winner
    CommandSpec(("结束游戏", "结束"), "end", EndArgs,
                who="host", alive_only=False, usage="/结束游戏 [白方|黑方|平局] [理由]",
                help="哨子：宣布游戏结束（写明胜方，不写则不分胜负）并公布全部身份",
                extra={"example": "/结束游戏 白方 黑方全部出局"}, rule=end),
)
