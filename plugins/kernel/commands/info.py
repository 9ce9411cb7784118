"""Kernel commands that answer questions: the roster, the status, one's own
private information, liveness and help."""

from __future__ import annotations

from plugins.gamekit.clock import fmt_local, game_tz
from plugins.gamekit.contract import PHASE_TIMER, Rejected

from ..helptext import Asker, help_reply
from ..longtexts import game_with_texts
from ..models import Game, Host, Player, Timer
from ..registry import GameKind, get_kind
from .table import Call, game_for, is_group_admin, kernel_command, kind_of, need_game, superusers


@kernel_command(("名单",), "/名单", "查看座位、马甲和存活情况", phases=("signup", "running", "paused", "ended"))
async def roster(call: Call) -> None:
    gid = need_game(call, game_for(call))
    players = await Player.filter(game_id=gid).order_by("seat")
    if not players:
        raise Rejected("还没有人报名。")
    g = await game_with_texts(gid)  # (its state as the engine's: public_out reads it)
    view = _signup_view(g, players)
    if view is not None:
        head, marks = view
        lines = [f"名单（{head}）："]
        lines += [f"{p.seat}号 {p.alias}" + (f"（{marks[p.seat]}）" if marks.get(p.seat) else "") for p in players]
        await call.say("\n".join(lines), gid)
        return
    out = _public_out(g, players)
    lines = [f"名单（{len(players)} 人，存活 {len(players) - len(out)}）："]
    lines += [f"{p.seat}号 {p.alias}{'（出局）' if p.seat in out else ''}" for p in players]
    await call.say("\n".join(lines), gid)


def _signup_view(g: Game, players: list[Player]) -> tuple[str, dict[int, str]] | None:
    """Before the start, an engine's own summary and per-seat marks (e.g. main draw / substitute)."""
    kind = get_kind(g.kind)
    if kind is None or g.state is not None:
        return None
    return kind.engine.signup_view(kind.engine.settings_of(g.settings), [p.seat for p in players])


def _public_out(g: Game, players: list[Player]) -> set[int]:
    """Seats publicly known to be out (the engine may keep some deaths secret)."""
    kind = get_kind(g.kind)
    out = kind.engine.public_out(g.state) if kind and g.state is not None else None
    return set(out) if out is not None else {p.seat for p in players if not p.alive}


@kernel_command(("状态",), "/状态", "查看阶段、截止时间和人数", phases=("signup", "running", "paused", "ended"))
async def status(call: Call) -> None:
    gid = need_game(call, game_for(call))
    g = await game_with_texts(gid)
    kind = get_kind(g.kind)
    players = await Player.filter(game_id=gid)
    names = {"signup": "报名中", "running": "进行中", "paused": "已暂停", "ended": "已结束"}
    out = _public_out(g, players)
    view = _signup_view(g, players)
    if view is not None:
        counts = view[0]
    elif g.status == "signup":
        counts = f"已报名 {len(players)} 人"
    else:
        counts = f"玩家 {len(players)} 人，存活 {len(players) - len(out)} 人"
    lines = [f"【{kind.title if kind else g.kind}】{names.get(g.status, g.status)}，{counts}"]
    if g.phase_label:
        lines.append(f"当前阶段：{g.phase_label}")
    t = await Timer.filter(game_id=gid, key=PHASE_TIMER, status__in=("armed", "paused")).first()
    if t:
        lines.append(f"截止：{fmt_local(t.ends_at, game_tz(g))}" + ("（暂停中）" if t.status == "paused" else ""))
    if kind and g.state is not None:
        extra = kind.engine.status(g.state, settings=kind.engine.settings_of(g.settings))
        if extra:
            lines.append(extra)
    await call.say("\n".join(lines), gid)


@kernel_command(("我的身份",), "/我的身份", "重新获取自己的私密信息（身份等）", who="player", where="private",
                phases=("running", "paused", "ended"))
async def whoami(call: Call) -> None:
    if call.in_group:
        raise Rejected("请私聊我发送 /我的身份，身份信息只在私聊里发。")
    gid = need_game(call, game_for(call))
    g = await game_with_texts(gid)
    p = await Player.get_or_none(game_id=gid, user_id=call.origin.user_id)
    if p is None:
        raise Rejected("你不是这局的玩家。")
    if g.state is None:
        raise Rejected(f"游戏还没开始。你是 {p.seat}号「{p.alias}」。")
    kind = get_kind(g.kind)
    assert kind is not None
    await call.say(kind.engine.private_info(g.state, p.seat, settings=kind.engine.settings_of(g.settings)), gid)


@kernel_command(("在吗", "ping"), "/在吗", "看看机器人在不在（立即回复）", needs="rare")
async def ping(call: Call) -> None:
    await call.say("在。")


@kernel_command(("帮助", "菜单"), "/帮助 [命令 | 全部]", "查看你在这里能用的命令；写命令名看用法和例子", needs="rare",
                example="/帮助 报名")
async def help_(call: Call) -> None:
    await call.say(await help_answer(call, call.rest))


async def help_answer(call: Call, rest: str) -> str:
    """/帮助 [命令 | 全部] for this asker here and now."""
    return help_reply(*await asker_of(call), rest)


async def asker_of(call: Call) -> tuple[GameKind | None, Asker]:
    game_id = game_for(call)
    uid = call.origin.user_id
    is_host = uid in superusers()
    is_player, status = False, "none"
    kind = kind_of(game_id)
    if isinstance(game_id, int):
        g = await Game.get_or_none(id=game_id)
        status = g.status if g is not None else "none"
        is_host = is_host or await Host.exists(game_id=game_id, user_id=uid)
        is_player = await Player.exists(game_id=game_id, user_id=uid)
    admin = is_group_admin(call) or (call.in_group and uid in superusers())
    return kind, Asker(status, call.in_group, is_host, is_player, admin, isinstance(game_id, list))
