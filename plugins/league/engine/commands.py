"""The league's chat commands: each row names its rule (a rule changes the
state it is given, the kernel's copy, and returns the effects)."""

from __future__ import annotations

from typing import Any

from plugins.gamekit.contract import Actor, ArgSpec, CommandSpec, Ctx, Effect, Picture, Rejected, Say

from . import rules_admin, rules_day, rules_games
from . import texts as T
from .model import current_day
from .standings import rows
from .texts import breakdown_text, catalogue_text, fmt_total, groups_text, name, standings_text

A = dict[str, Any]
S = dict[str, Any]


# ---- views ----------------------------------------------------------------------

def standings_view(st: S, cfg: S, page: int) -> str:
    r = st["round"]
    return standings_text(st, cfg, r, rows(st, cfg, r), page)


def picture_caption(st: S, cfg: S) -> str:
    r = st["round"]
    table = rows(st, cfg, r)
    advance = cfg["rounds"][r].get("advance", 0)
    lines = [T.CAPTION_HEAD.format(round=st["rounds"][r]["name"], n=len(table))
             + (T.CAPTION_ADVANCE.format(n=advance) if advance else T.CAPTION_CLOSE)]
    lines += [T.CAPTION_LINE.format(rank=row["rank"], alias=row["alias"], seat=row["seat"], total=fmt_total(row["total"]))
              for row in table[:3] if row["rank"]]
    lines.append(T.CAPTION_TAIL)
    return "\n".join(lines)


def breakdown(st: S, cfg: S, seat: int) -> str:
    r = st["round"]
    row = next((x for x in rows(st, cfg, r) if x["seat"] == seat), None)
    if row is None:
        return T.BREAKDOWN_NOT_IN_ROUND.format(who=name(st, seat), round=st["rounds"][r]["name"])
    games = rules_games.player_games(st, r, seat)
    viols = [v for v in st["violations"] if v["seat"] == seat and v["round"] == r]
    return breakdown_text(st, cfg, r, row, games, viols)


def groups_view(st: S) -> list[str]:
    day = current_day(st)
    return groups_text(st, st["round"], day["lineups"] if day else None)


# ---- rules ----------------------------------------------------------------------

def _standings(st: S, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return [Say("reply", standings_view(st, ctx.settings, a.get("page", 1)))]


def _standings_picture(st: S, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return [Picture("reply", "standings", picture_caption(st, ctx.settings))]


def _my_points(st: S, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    seat = a.get("player", actor.seat)
    if seat is None:
        raise Rejected(T.MY_POINTS_NOT_PLAYER)
    return [Say("reply", breakdown(st, ctx.settings, seat))]


def _groups(st: S, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return [Say("reply", "\n\n".join(groups_view(st)))]


def _appeals(st: S, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_admin.appeals_list(st)


def _catalogue(st: S, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return [Say("reply", catalogue_text(ctx.settings))]


def _checkin(st: S, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_day.checkin(st, actor, ctx)


def _appeal(st: S, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    game = rules_admin.find_game(st, a["game"])
    deadline = rules_day.appeal_deadline(st, game, ctx)
    return rules_admin.appeal(st, actor, a, ctx, deadline)


def _template(st: S, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_games.template(st, a, ctx)


def _next_round(st: S, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return rules_admin.next_round(st, actor, ctx)


# read-only views that still answer after the league has finished
VIEWS = ("standings", "standings_picture", "my_points", "groups", "appeals", "catalogue")


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(("签到",), "checkin", where="group", who="player",
                usage="/签到", help="比赛日 18:00-18:35 在分组群签到（18:30 后记迟到扣 1 分）", rule=_checkin),
    CommandSpec(("积分榜",), "standings", (ArgSpec("page", "int", optional=True),), who="anyone",
                alive_only=False, usage="/积分榜 [页码]", help="查看本轮积分榜和晋级线", rule=_standings, query=True),
    CommandSpec(("积分榜图",), "standings_picture", who="anyone", alive_only=False,
                usage="/积分榜图", help="把本轮积分榜画成图片发出来", rule=_standings_picture, query=True),
    CommandSpec(("我的积分",), "my_points", (ArgSpec("player", "player", optional=True),), who="anyone",
                alive_only=False, usage="/我的积分 [<玩家>]", help="逐项查看本轮积分明细", rule=_my_points, query=True),
    CommandSpec(("分组",), "groups", who="anyone", alive_only=False,
                usage="/分组", help="查看本轮分组和今天的出场名单", rule=_groups, query=True),
    CommandSpec(("申诉",), "appeal", (ArgSpec("game", "int"), ArgSpec("text", "text")), where="private",
                who="player", alive_only=False, usage="/申诉 <局号> <理由>",
                help="比赛日次日 12:00 前私聊提交申诉", rule=_appeal),
    CommandSpec(("开赛日",), "open_day", (ArgSpec("date", "word", optional=True),), who="host",
                usage="/开赛日 [月-日]", help="裁判：开启下一个比赛日并设好签到时间", rule=rules_day.open_day),
    CommandSpec(("未到",), "absent", (ArgSpec("players", "players"),), who="host",
                usage="/未到 <玩家> [<玩家>…]", help="裁判：记下未进房间的选手，18:50 视为弃权", rule=rules_day.absent),
    CommandSpec(("录分",), "score", (ArgSpec("text", "text"),), who="host",
                usage="/录分 <计分表>", help="裁判：粘贴一局的计分表（首行「A组 第1场」）", rule=rules_games.score),
    CommandSpec(("改分",), "rescore", (ArgSpec("game", "int"), ArgSpec("text", "text")), who="host",
                usage="/改分 <局号> <计分表>", help="裁判：用新的计分表更正一局（留审计记录）", rule=rules_games.rescore),
    CommandSpec(("流局",), "void", (ArgSpec("game", "int"), ArgSpec("reason", "text", optional=True)),
                who="host", usage="/流局 <局号> [原因]", help="裁判：判流局，只保留违规扣分", rule=rules_games.void),
    CommandSpec(("违规",), "violation", (ArgSpec("player", "player"), ArgSpec("type", "word"),
                                          ArgSpec("game", "int", optional=True)),
                who="host", alive_only=False, usage="/违规 <玩家> <类型> [局号]",
                help="裁判：记一次违规扣分（类型见违规表）", rule=rules_admin.violation_cmd),
    CommandSpec(("撤销",), "undo", (ArgSpec("id", "int"), ArgSpec("reason", "text", optional=True)),
                who="host", alive_only=False, usage="/撤销 <编号> <理由>",
                help="裁判：撤回一条扣分（违规、迟到），编号见 /我的积分", rule=rules_admin.undo_cmd),
    CommandSpec(("评选",), "award", (ArgSpec("game", "int"), ArgSpec("award", "word"), ArgSpec("who", "text")),
                who="host", alive_only=False, usage="/评选 <局号> <全场最佳|败方最佳> <玩家|无>",
                help="裁判：改评一局的全场最佳/败方最佳（§七）", rule=rules_admin.award_cmd),
    CommandSpec(("录分模板",), "template", (ArgSpec("game", "text"),), who="host", alive_only=False,
                usage="/录分模板 <组> [第N场] 或 /录分模板 <局号>",
                help="裁判：取一局的计分表模板（已填好入座名单和版型角色）；写局号取已录的表来改", rule=_template),
    CommandSpec(("违规表",), "catalogue", who="anyone", alive_only=False,
                usage="/违规表", help="查看违规类型、等级和处罚（§十三）", rule=_catalogue, query=True),
    CommandSpec(("申诉列表",), "appeals", who="host", alive_only=False,
                usage="/申诉列表", help="裁判：查看待复核的申诉", rule=_appeals, query=True),
    CommandSpec(("裁决",), "verdict", (ArgSpec("id", "int"), ArgSpec("verdict", "word"),
                                       ArgSpec("note", "text", optional=True)),
                who="host", alive_only=False, usage="/裁决 <编号> <维持|改判> [说明]",
                help="裁判：答复一件申诉", rule=rules_admin.verdict),
    CommandSpec(("下一轮",), "next_round", who="host", alive_only=False,
                usage="/下一轮", help="裁判：结束本轮，按排名晋级并公布新分组", rule=_next_round),
)
