"""The chat commands of the 88-player game (the kernel's router dispatches them)."""

from __future__ import annotations

from plugins.kernel.contract import ArgSpec, CommandSpec

COMMANDS: tuple[CommandSpec, ...] = (
    # players
    CommandSpec(("报道",), "report", (ArgSpec("text", "text"),), usage="/报道 <正文>",
                help="第1轮结束前提交报道（301字以上，引用不超过10%），机器人当场统计字数"),
    CommandSpec(("投票",), "vote", (ArgSpec("targets", "players"),), alive_only=False,
                usage="/投票 <玩家> [<玩家>]", help="投本轮的票（票数见进程），投出不能改；加时只投一票"),
    CommandSpec(("托票",), "proxy", (ArgSpec("targets", "players"),), where="private", alive_only=False,
                usage="/托票 <玩家> [<玩家>]", help="私聊托票给哨子，截止前20分钟停止；托票后不能自己投"),
    CommandSpec(("票型",), "tally", who="anyone", alive_only=False, usage="/票型",
                help="查看本轮票型和每人的票线"),
    CommandSpec(("进程",), "table", who="anyone", alive_only=False, usage="/进程",
                help="查看进程表：每轮票数、出局数和贴杀数"),
    CommandSpec(("出贴",), "post", (ArgSpec("code", "word"), ArgSpec("target", "player"), ArgSpec("text", "text", optional=True)),
                where="private", usage="/出贴 <代号> <目标> [正文…]",
                help="私聊起草杀帖，正文可分多条发送，写完发 /完成"),
    CommandSpec(("白条",), "white", (ArgSpec("code", "word"), ArgSpec("target", "player")), where="private",
                usage="/白条 <代号> <目标>", help="来不及交贴时打白条，次日12:00前补1200字"),
    CommandSpec(("重写",), "rewrite", (ArgSpec("post", "word"), ArgSpec("text", "text", optional=True)), where="private",
                alive_only=False, usage="/重写 <帖号> [正文…]", help="补交白条或重写被退回的杀帖（1200字以上）"),
    CommandSpec(("完成",), "done", where="private", alive_only=False, usage="/完成", help="交出正在起草的杀帖"),
    CommandSpec(("撤稿",), "drop", where="private", alive_only=False, usage="/撤稿", help="放弃正在起草的杀帖"),
    CommandSpec(("我的贴",), "mine", where="private", alive_only=False, usage="/我的贴", help="查看自己交过的杀帖和状态"),
    CommandSpec((), "text", (ArgSpec("text", "text"),), where="private", alive_only=False,
                help="起草杀帖时私聊发送的正文"),
    # hosts
    CommandSpec(("贴单",), "posts", (ArgSpec("round", "int", optional=True),), where="private", who="host",
                alive_only=False, usage="/贴单 [轮次]", help="哨子：查看某轮杀帖、字数和状态"),
    CommandSpec(("看贴",), "show", (ArgSpec("post", "word"),), where="private", who="host", alive_only=False,
                usage="/看贴 <帖号>", help="哨子：查看杀帖全文"),
    CommandSpec(("通过",), "approve", (ArgSpec("post", "word"),), where="private", who="host", alive_only=False,
                usage="/通过 <帖号>", help="哨子：通过杀帖"),
    CommandSpec(("退回",), "reject", (ArgSpec("post", "word"), ArgSpec("reason", "text", optional=True)), where="private",
                who="host", alive_only=False, usage="/退回 <帖号> [理由]", help="哨子：退回杀帖，作者须次日12:00前重写1200字"),
    CommandSpec(("退回报道",), "reject_report", (ArgSpec("player", "player"), ArgSpec("reason", "text", optional=True)),
                who="host", alive_only=False, usage="/退回报道 <玩家> [理由]", help="哨子：退回报道，须在第1轮结束前重报601字"),
    CommandSpec(("判出局",), "out", (ArgSpec("player", "player"), ArgSpec("reason", "text", optional=True)), who="host",
                alive_only=False, usage="/判出局 <玩家> [理由]", help="哨子：判玩家出局"),
    CommandSpec(("判复活",), "back", (ArgSpec("player", "player"), ArgSpec("reason", "text", optional=True)), who="host",
                alive_only=False, usage="/判复活 <玩家> [理由]", help="哨子：让出局玩家回到场上"),
    CommandSpec(("改进程",), "set_round",
                (ArgSpec("round", "int"), ArgSpec("votes", "int"), ArgSpec("out", "int"), ArgSpec("posts", "text", optional=True)),
                who="host", alive_only=False, usage="/改进程 <轮次> <每人票数> <票出人数> [贴杀，如 联2 独3]",
                help="哨子：调整某轮进程（§十）"),
    CommandSpec(("票记录",), "vote_log", (ArgSpec("round", "int", optional=True),), where="private", who="host",
                alive_only=False, usage="/票记录 [轮次]", help="哨子：查看投票记录（含托票和未投票名单）"),
    CommandSpec(("结束游戏",), "end", (ArgSpec("result", "word"), ArgSpec("reason", "text", optional=True)), who="host",
                alive_only=False, usage="/结束游戏 <白方|黑方|平局> [理由]", help="哨子：宣布游戏结束并公布全部身份"),
)
