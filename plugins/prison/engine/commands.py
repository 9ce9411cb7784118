"""The prison command table: each row names its rule (a rule changes the
state it is given, the kernel's copy, and returns the effects)."""

from __future__ import annotations

from typing import Any

from plugins.gamekit.contract import Actor, ArgSpec, CommandSpec, Ctx, Effect, Ignored, Rejected, Say

from . import model as m
from . import rules_auction, rules_day, rules_misc, rules_night, rules_setup
from . import texts as T

A = dict[str, Any]
ROOM_LINE = "room.line"  # a line said in a room group (also what linked-chat group text becomes)


def _in_linked_chat(actor: Actor) -> bool:
    """Group text from a linked chat (a room group), not the game group."""
    return not actor.private and actor.chat not in (None, "main")


def _text(a: A) -> str:
    return str(a.get("text", ""))


def _images(a: A) -> int:
    return int(a.get("images", 0) or 0)


def _bid(st: m.JSON, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_auction.bid(st, actor, _text(a), ctx)


def _pair(kind: str) -> Any:
    def rule(st: m.JSON, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
        return rules_setup.choose(st, actor, a.get("seat"), kind)

    return rule


def _elect(st: m.JSON, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_day.elect(st, actor, a.get("seat"))


def _vote(verb: str) -> Any:
    def rule(st: m.JSON, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
        return rules_day.vote(st, actor, verb, a.get("seat"))

    return rule


def _decide(st: m.JSON, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_day.pick(st, actor, str(a.get("choice", "")), a.get("seat"), ctx)


def _uprising(st: m.JSON, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_day.uprising(st, actor, ctx)


def _room(st: m.JSON, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_night.choose_room(st, actor, str(a.get("room", "")))


def _noise(st: m.JSON, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_night.noise(st, actor, ctx)


def _point_kill(st: m.JSON, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_night.point_kill(st, actor, a.get("seat"), ctx)


def _spare(st: m.JSON, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_night.spare(st, actor, ctx)


def _ability(st: m.JSON, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_misc.use_generic(st, actor, str(a.get("ability", "")), _text(a), ctx)


def _submit_map(st: m.JSON, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_misc.submit_map(st, actor, _text(a), ctx)


def _submit_alias(st: m.JSON, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_misc.submit_alias(st, actor, _text(a), ctx)


def _note(st: m.JSON, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_misc.note(st, actor, _text(a), ctx)


def _settle(st: m.JSON, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_misc.settle(st, actor, a.get("id"), _text(a), ctx)


def _show_map(st: m.JSON, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    if not actor.is_host:
        raise Rejected(T.HOST_ONLY_MAP)
    return [Say("reply", T.SECRET_MAP.format(pairs=" ".join(f"{g}-{p}" for g, p in st["mapping"].items())))]


def room_line(st: m.JSON, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_night.room_line(st, actor, _text(a), _images(a), ctx)


def _group_text(st: m.JSON, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    """Plain group text: in the game group it counts a discussion post (（三）4); in a linked
    room group it is a room line (transcript, （三）1)."""
    if _in_linked_chat(actor):
        if ctx.settings["room_mode"] != "group":
            raise Ignored()
        return room_line(st, actor, a, ctx)
    return rules_misc.post(st, actor)


def _relay(st: m.JSON, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    if not actor.private:
        return _group_text(st, actor, a, ctx)
    return rules_night.relay(st, actor, _text(a), _images(a), ctx)


P = ArgSpec("seat", "player")

COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(("竞拍",), "bid", (ArgSpec("text", "text", optional=True),), where="private", who="anyone",
                usage="/竞拍 第一志愿=角色:硬币 第二志愿=角色:硬币 随机号码=1–999",
                help="竞拍马甲阶段匿名出价（截止前可改，只写要改的项）；不带内容查看自己的出价（导演：全部出价）", rule=_bid),
    CommandSpec(("爱",), "love", (P,), where="private", usage="/爱 <玩家>", help="开局前选择爱的人（与恨二选一，不能选自己）", rule=_pair("love")),
    CommandSpec(("恨",), "hate", (P,), where="private", usage="/恨 <玩家>", help="开局前选择恨的人（与爱二选一，不能选自己）", rule=_pair("hate")),
    CommandSpec(("投票",), "elect", (P,), where="private", usage="/投票 <玩家>", help="第1天：看守选看守长，囚犯选囚犯领袖", rule=_elect),
    CommandSpec(("处决",), "execute", (P,), where="private", usage="/处决 <玩家>", help="看守投票处决囚犯；起义时囚犯投票处决看守", rule=_vote("exec")),
    CommandSpec(("释放",), "release", (P,), where="private", usage="/释放 <玩家>", help="看守投票释放囚犯", rule=_vote("free")),
    CommandSpec(("弃票",), "abstain", (), where="private", usage="/弃票", help="本轮投弃票", rule=_vote("skip")),
    CommandSpec(("裁定",), "decide", (ArgSpec("choice", "word"), ArgSpec("seat", "player", optional=True)),
                where="private", usage="/裁定 处决|释放 <玩家> 或 /裁定 弃票", help="看守长/囚犯领袖从平票的最高票中选一个", rule=_decide),
    CommandSpec(("起义",), "uprising", (), where="any", usage="/起义", help="囚犯领袖在讨论日发动起义（一次）", rule=_uprising),
    CommandSpec(("选房",), "room", (ArgSpec("room", "word"),), where="private", usage="/选房 <房间>", help="选择今晚的审讯房间，先到先得", rule=_room),
    CommandSpec(("噪音",), "noise", (), where="private", usage="/噪音", help="看守在审讯中对同房囚犯播放噪音", rule=_noise),
    CommandSpec(("点杀", "指杀"), "point_kill", (P,), where="private", usage="/点杀 <看守>", help="杀人犯今晚改杀指定看守", rule=_point_kill),
    CommandSpec(("不杀",), "spare", (), where="private", usage="/不杀", help="杀人犯今晚不杀人（若身份允许）", rule=_spare),
    CommandSpec(("技能",), "ability", (ArgSpec("ability", "word"), ArgSpec("text", "text", optional=True)),
                where="private", usage="/技能 <技能名> [<内容>]", help="发动身份文件里的技能，由导演结算", rule=_ability),
    CommandSpec(("提交对应",), "submit_map", (ArgSpec("text", "text"),), where="private", alive_only=False,
                usage="/提交对应 a-E b-C …", help="向监狱长提交全部房间对应，按到达顺序计", rule=_submit_map),
    CommandSpec(("提交马甲",), "submit_alias", (ArgSpec("text", "text"),), where="private", alive_only=False,
                usage="/提交马甲 <马甲>=<玩家> …", help="提交全场马甲-玩家对应", rule=_submit_alias),
    CommandSpec(("树洞",), "note", (ArgSpec("text", "text"),), where="private", alive_only=False,
                usage="/树洞 <内容>", help="匿名吐槽，游戏结束后公开", rule=_note),
    CommandSpec(("结算",), "settle", (ArgSpec("id", "int"), ArgSpec("text", "text")), where="any", who="host",
                usage="/结算 <编号> <结果>", help="导演结算玩家的技能，结果私聊给该玩家", rule=_settle),
    CommandSpec(("房间对应",), "show_map", (), where="private", who="host", usage="/房间对应", help="导演查看本局秘密房间对应", rule=_show_map, query=True),
    CommandSpec((), "relay", (), where="private", alive_only=False, usage="（审讯时直接私聊发文字）",
                help="审讯时私聊的文字只带「看守/囚犯」标签转给同房的人", rule=_relay),
    CommandSpec((), "post", (), where="group", alive_only=False, usage="（讨论日在游戏群发言）",
                help="统计讨论日发言条数（少于规定条数记黄牌）", rule=_group_text),
)
