"""The chat commands of the 88-player game: each row names its rule, the
kernel's router dispatches them. A rule changes the state it is given (the
kernel's copy) and returns the effects."""

from __future__ import annotations

from typing import Any

from plugins.gamekit.contract import Actor, ArgSpec, CommandSpec, Ctx, Effect, Say

from . import rules_decide, rules_host, rules_posts, rules_reports, rules_souls, rules_start, rules_votes, rules_window
from .model import name
from .state import ChoiceKind, State

A = dict[str, Any]


def _report(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_reports.report(st, actor, a.get("text", ""), ctx)


def _vote(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_votes.vote(st, actor, list(a.get("targets", [])), ctx)


def _proxy(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_votes.proxy(st, actor, list(a.get("targets", [])), ctx)


def _tally(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return [Say("reply", rules_votes.tally_text(st))]


def _table(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return [Say("reply", rules_host.table_text(st))]


def _post(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_posts.open_post(st, actor, a["code"], a["target"], a.get("text", ""), ctx)


def _white(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_posts.declare_white(st, actor, a["code"], a["target"], ctx)


def _rewrite(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_posts.open_rewrite(st, actor, a["post"], a.get("text", ""), ctx)


def _done(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_posts.finish_draft(st, actor, ctx)


def _drop(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_posts.drop_draft(st, actor)


def _mine(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_posts.my_posts(st, actor)


def _text(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    cfg = ctx.settings
    return rules_posts.append_text(st, cfg, actor, a.get("text", ""), int(a.get("images", 0) or 0))


def _posts(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_posts.list_posts(st, a.get("round"))


def _show(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_posts.show_post(st, a["post"])


def _approve(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_posts.approve(st, a["post"], ctx)


def _reject(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_posts.reject(st, a["post"], a.get("reason", ""), ctx)


def _reject_report(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_reports.reject_report(st, a["player"], a.get("reason", ""), ctx)


def _out(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    cfg = ctx.settings
    effects: list[Effect] = []
    rules_host.put_out(st, cfg, a["player"], a.get("reason", ""), True, effects)
    if actor.private:  # in the group the announcement is the answer
        effects.insert(0, Say("reply", f"已判 {name(st, a['player'])} 出局，已在群里公布。"))
    return effects


def _back(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    effects: list[Effect] = []
    rules_host.put_back(st, a["player"], a.get("reason", ""), True, effects)
    if actor.private:
        effects.insert(0, Say("reply", f"已让 {name(st, a['player'])} 回到场上，已在群里公布。"))
    return effects


def _set_round(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_host.set_round(st, a["round"], a["votes"], a["out"], a.get("posts"), ctx)


def _vote_log(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_host.vote_log(st, a.get("round"))


def _override(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_posts.override(st, actor, a["step"], a["result"], a.get("reason", ""), ctx)


def _steps(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_posts.show_steps(st, ctx.settings)


def _publish_now(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_posts.publish_now(st, ctx)


def _choose(kind: ChoiceKind) -> Any:
    def rule(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
        return rules_window.choose(st, actor, kind, list(a.get("targets", [])), ctx)

    return rule


def _revive(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_window.revive(st, actor, a["target"], ctx)


def _letter(kind: str) -> Any:
    def rule(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
        return rules_decide.write_letter(st, actor, kind, a.get("text", ""), ctx)

    return rule


def _soul_move(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_souls.move(st, actor, a["src"], a["dst"], a.get("text", ""), ctx)


def _soul_back(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_souls.back(st, actor, a["target"], a.get("text", ""), ctx)


def _signal(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_start.signal(st, actor, a.get("text", ""), ctx)


def _check(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_posts.check_identity(st, actor, a["target"], ctx)


def _high_posts(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_decide.designate_high(st, actor, a["player"], a.get("by", ""), ctx)


def _dm(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_host.private_message(st, actor, a["player"], a["text"], ctx)


def _end(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    cfg = ctx.settings
    effects: list[Effect] = []
    result, reason = a.get("result", "平局"), a.get("reason", "")
    if result not in rules_host.WINNER_WORDS:  # /结束 <理由>: no winner declared
        result, reason = "平局", f"{result} {reason}".strip()
    rules_host.end_game(st, cfg, result, reason, effects)
    return effects


COMMANDS: tuple[CommandSpec, ...] = (
    # players
    CommandSpec(("报道",), "report", (ArgSpec("text", "text"),), usage="/报道 <正文>",
                help="第1轮结束前提交报道（301字以上，引用不超过10%），机器人当场统计字数", rule=_report),
    CommandSpec(("投票",), "vote", (ArgSpec("targets", "players"),), alive_only=False,
                usage="/投票 <玩家> [<玩家>]", help="投本轮的票（票数见进程），投出不能改；加时只投一票", rule=_vote),
    CommandSpec(("托票",), "proxy", (ArgSpec("targets", "players"),), where="private", alive_only=False,
                usage="/托票 <玩家> [<玩家>]", help="私聊托票给哨子，截止前20分钟停止；托票后不能自己投", rule=_proxy),
    CommandSpec(("票型",), "tally", who="anyone", alive_only=False, usage="/票型",
                help="查看本轮票型和每人的票线", rule=_tally, query=True),
    CommandSpec(("进程",), "table", who="anyone", alive_only=False, usage="/进程",
                help="查看进程表：每轮票数、出局数和贴杀数", rule=_table, query=True),
    CommandSpec(("出贴",), "post", (ArgSpec("code", "word"), ArgSpec("target", "player"), ArgSpec("text", "text", optional=True)),
                where="private", usage="/出贴 <代号> <目标> [正文…]",
                help="私聊起草杀帖，正文可分多条发送，写完发 /完成", rule=_post),
    CommandSpec(("白条",), "white", (ArgSpec("code", "word"), ArgSpec("target", "player")), where="private",
                usage="/白条 <代号> <目标>", help="来不及交贴时打白条，次日12:00前补1200字", rule=_white),
    CommandSpec(("重写",), "rewrite", (ArgSpec("post", "word"), ArgSpec("text", "text", optional=True)), where="private",
                alive_only=False, usage="/重写 <帖号> [正文…]", help="补交白条或重写被退回的杀帖（1200字以上）", rule=_rewrite),
    CommandSpec(("完成",), "done", where="private", alive_only=False, usage="/完成", help="交出正在起草的杀帖", rule=_done),
    CommandSpec(("撤稿",), "drop", where="private", alive_only=False, usage="/撤稿", help="放弃正在起草的杀帖", rule=_drop),
    CommandSpec(("我的贴",), "mine", where="private", alive_only=False, usage="/我的贴", help="查看自己交过的杀帖和状态", rule=_mine, query=True),
    CommandSpec((), "text", (ArgSpec("text", "text"),), where="private", alive_only=False,
                help="起草杀帖时私聊发送的正文", rule=_text),
    CommandSpec(("带人",), "take", (ArgSpec("targets", "players"),), where="private",
                usage="/带人 <玩家> [<玩家>…]", help="高票出局后从票自己的线上选人陪同出局（联合蛋、独立杀、地雷，§五）", rule=_choose(ChoiceKind.TAKE)),
    CommandSpec(("照出",), "reveal", (ArgSpec("targets", "players"),), where="private",
                usage="/照出 <玩家>", help="魔镜高票出局后照出票自己的线上一人（§五黑6）", rule=_choose(ChoiceKind.REVEAL)),
    CommandSpec(("指定追魂",), "soul", (ArgSpec("targets", "players"),), where="private",
                usage="/指定追魂 <玩家>", help="地雷高票出局或第1轮高票出局者指定一人写追魂（§五黑5、§七.1）", rule=_choose(ChoiceKind.SOUL)),
    CommandSpec(("复活",), "revive", (ArgSpec("target", "player"),), where="private",
                usage="/复活 <玩家>", help="复活：第二、四轮结果贴前复活一名高票者（§五白6）", rule=_revive),
    CommandSpec(("追魂",), "letter_soul", (ArgSpec("text", "text"),), where="private", alive_only=False,
                usage="/追魂 <正文>", help="交被指定的500字追魂", rule=_letter("追魂")),
    CommandSpec(("感谢信",), "letter_thanks", (ArgSpec("text", "text"),), where="private",
                usage="/感谢信 <正文>", help="被复活者次日12:00前交500字感谢信（§五白6）", rule=_letter("感谢信")),
    CommandSpec(("移魂",), "soul_move", (ArgSpec("src", "player"), ArgSpec("dst", "player"), ArgSpec("text", "text")),
                where="private", usage="/移魂 <被贴杀者> <移到谁> <500字正文>",
                help="移魂：第二、三轮交贴截止前，把当轮被贴杀者移魂到另一人身上（§五白4）", rule=_soul_move),
    CommandSpec(("还魂",), "soul_back", (ArgSpec("target", "player"), ArgSpec("text", "text")), where="private",
                usage="/还魂 <玩家> <800字正文>", help="还魂：第二、三轮交贴截止前还魂一人（§五黑8）", rule=_soul_back),
    CommandSpec(("接头",), "signal", (ArgSpec("text", "text"),), where="private",
                usage="/接头 <寻找暗号>", help="知道暗号的独立杀和孤杀：用寻找暗号找到对方（§五黑3、§七.3）", rule=_signal),
    # hosts
    CommandSpec(("贴单",), "posts", (ArgSpec("round", "int", optional=True),), where="private", who="host",
                alive_only=False, usage="/贴单 [轮次]", help="哨子：查看某轮杀帖、字数和状态", rule=_posts, query=True),
    CommandSpec(("看贴",), "show", (ArgSpec("post", "word"),), where="private", who="host", alive_only=False,
                usage="/看贴 <帖号>", help="哨子：查看杀帖全文", rule=_show, query=True),
    CommandSpec(("通过",), "approve", (ArgSpec("post", "word"),), where="private", who="host", alive_only=False,
                usage="/通过 <帖号>", help="哨子：通过杀帖", rule=_approve),
    CommandSpec(("退回",), "reject", (ArgSpec("post", "word"), ArgSpec("reason", "text", optional=True)), where="private",
                who="host", alive_only=False, usage="/退回 <帖号> [理由]", help="哨子：退回杀帖，作者须次日12:00前重写1200字", rule=_reject),
    CommandSpec(("退回报道",), "reject_report", (ArgSpec("player", "player"), ArgSpec("reason", "text", optional=True)),
                who="host", alive_only=False, usage="/退回报道 <玩家> [理由]", help="哨子：退回报道，须在第1轮结束前重报601字", rule=_reject_report),
    # /出局 and /回场 (the kernel's words) are aliases here: the same action, announced by the rules
    CommandSpec(("判出局", "出局"), "out", (ArgSpec("player", "player"), ArgSpec("reason", "text", optional=True)),
                who="host", alive_only=False, usage="/判出局 <玩家> [理由]", help="哨子：判玩家出局（§十四.6）",
                extra={"audit": True}, rule=_out),
    CommandSpec(("判复活", "回场"), "back", (ArgSpec("player", "player"), ArgSpec("reason", "text", optional=True)),
                who="host", alive_only=False, usage="/判复活 <玩家> [理由]", help="哨子：让出局玩家回到场上",
                extra={"audit": True}, rule=_back),
    CommandSpec(("改进程",), "set_round",
                (ArgSpec("round", "int"), ArgSpec("votes", "int"), ArgSpec("out", "int"), ArgSpec("posts", "text", optional=True)),
                who="host", alive_only=False, usage="/改进程 <轮次> <每人票数> <票出人数> [贴杀，如 联2 独3]",
                help="哨子：调整某轮进程（§十）", rule=_set_round),
    CommandSpec(("票记录",), "vote_log", (ArgSpec("round", "int", optional=True),), where="private", who="host",
                alive_only=False, usage="/票记录 [轮次]", help="哨子：查看投票记录（含托票和未投票名单）", rule=_vote_log, query=True),
    CommandSpec(("改判",), "override", (ArgSpec("step", "int"), ArgSpec("result", "word"), ArgSpec("reason", "text", optional=True)),
                where="private", who="host", alive_only=False, usage="/改判 <步骤> <结果> <理由>",
                help="哨子：杀帖公布前改判结算预览中的一步（出局/同归/出贴者出局/照出/照出并出局/倒计时/无人出局）", rule=_override),
    CommandSpec(("结算",), "steps", where="private", who="host", alive_only=False, usage="/结算",
                help="哨子：查看本轮杀帖结算步骤（交贴截止后）", rule=_steps),
    CommandSpec(("发布",), "publish_now", who="host", alive_only=False, usage="/发布",
                help="哨子：交贴截止后立即公布本轮杀帖和结算", rule=_publish_now),
    CommandSpec(("私信",), "dm", (ArgSpec("player", "player"), ArgSpec("text", "text")), where="private", who="host",
                alive_only=False, usage="/私信 <玩家> <内容>", help="哨子：通过机器人私聊一名玩家（记录在案）", rule=_dm),
    CommandSpec(("高贴指定",), "high_posts", (ArgSpec("player", "player"), ArgSpec("by", "text", optional=True)), who="host",
                alive_only=False, usage="/高贴指定 <被指定者> [指定者]",
                help="哨子：第五轮结束后记录高贴数特权的指定，被指定者须交 500 字（§七.2）", rule=_high_posts),
    CommandSpec(("查身份",), "check", (ArgSpec("target", "player"),), where="private", alive_only=False,
                usage="/查身份 <玩家>", help="地雷同归后查看一名玩家的身份（§五黑5）", rule=_check),
    # the kernel's /结束 is an alias here; without 白方/黑方/平局 the game ends with no winner
    CommandSpec(("结束游戏", "结束"), "end", (ArgSpec("result", "word", optional=True), ArgSpec("reason", "text", optional=True)),
                who="host", alive_only=False, usage="/结束游戏 [白方|黑方|平局] [理由]",
                help="哨子：宣布游戏结束（写明胜方，不写则不分胜负）并公布全部身份",
                extra={"example": "/结束游戏 白方 黑方全部出局"}, rule=_end),
)
