"""Kernel commands of discipline: cards (3 blue = 1 yellow, 3 yellow = 1 red,
red = out), the card record, putting a player out and back."""

from __future__ import annotations

from plugins.gamekit.contract import KERNEL_BACK, KERNEL_OUT, Actor, Command, Rejected, kernel_args

from .. import cards as cardmath
from ..models import Card, Player
from ..roster import Roster
from ..work import Work
from .table import LIVE, Call, game_for, host_work, kernel_command, need_game


async def _card(call: Call, color: str) -> None:
    parts = call.rest.strip().split(maxsplit=1)
    word = cardmath.COLORS[color]
    if len(parts) < 2:
        raise Rejected(f"请写玩家和理由：/{word} <玩家> <理由>")

    async def run(work: Work) -> None:
        if work.game.status == "signup":
            raise Rejected("游戏还没开始，不能判罚。")
        seat = work.roster.resolve(parts[0]).seat
        if await work.give_card(seat, color, parts[1], call.origin.user_id, call.now):
            actor = Actor(call.origin.user_id, None, True, call.origin.private)
            await work.send_off(seat, parts[1], call.now, call.origin, actor)

    await host_work(call, run)


@kernel_command(("蓝牌",), "/蓝牌 <玩家> <理由>", "判蓝牌（3 蓝 = 1 黄）", who="host", phases=LIVE, example="/蓝牌 3 刷屏")
async def blue(call: Call) -> None:
    await _card(call, "blue")


@kernel_command(("黄牌",), "/黄牌 <玩家> <理由>", "判黄牌（3 黄 = 1 红）", who="host", phases=LIVE, example="/黄牌 3 刷屏")
async def yellow(call: Call) -> None:
    await _card(call, "yellow")


@kernel_command(("红牌",), "/红牌 <玩家> <理由>", "判红牌（罚下出局）", who="host", phases=LIVE, example="/红牌 3 人身攻击")
async def red(call: Call) -> None:
    await _card(call, "red")


@kernel_command(("牌",), "/牌 <玩家>", "查看玩家的判罚记录", phases=(*LIVE, "ended"), example="/牌 3")
async def card_record(call: Call) -> None:
    gid = need_game(call, game_for(call))
    if not call.rest.strip():
        raise Rejected("请写玩家：/牌 <玩家>")
    players = await Player.filter(game_id=gid).order_by("seat")
    entry = Roster.of(players).resolve(call.rest.strip().split()[0])
    cards = await Card.filter(game_id=gid, seat=entry.seat).order_by("id")
    t = cardmath.tally([c.color for c in cards])
    if not cards:
        await call.say(f"{entry.seat}号 {entry.alias}：暂无判罚。", gid)
        return
    lines = [f"{entry.seat}号 {entry.alias}：{t.describe()}"]
    lines += [f"· {cardmath.COLORS[c.color]}：{c.reason}" for c in cards]
    await call.say("\n".join(lines), gid)


async def _put(call: Call, name: str) -> None:
    parts = call.rest.strip().split(maxsplit=1)
    verb = "出局" if name == KERNEL_OUT else "回场"
    if len(parts) < 2:
        raise Rejected(f"请写玩家和理由：/{verb} <玩家> <理由>")

    async def run(work: Work) -> None:
        if work.game.status not in ("running", "paused"):
            raise Rejected("游戏不在进行中。")
        seat = work.roster.resolve(parts[0]).seat
        p = work.seat(seat)
        if name == KERNEL_OUT and not p.alive:
            raise Rejected(f"{seat}号 {p.alias} 已经出局了。")
        if name == KERNEL_BACK and p.alive:
            raise Rejected(f"{seat}号 {p.alias} 本来就在场上。")
        actor = Actor(call.origin.user_id, None, True, call.origin.private)
        await work.step("apply", origin=call.origin, now=call.now, actor=actor, cmd=Command(name, kernel_args(work.kind.engine, seat, parts[1])))
        work.audit(call.origin.user_id, name, f"{seat}号 {p.alias}：{parts[1]}", at=call.now)
        public = work.kind.engine.public_out(work.game.state) if name == KERNEL_OUT else None
        if public is not None and seat not in public and not call.origin.private:  # the game posts it later
            work.say("hosts", f"已判 {seat}号「{p.alias}」出局：{parts[1]}。本游戏稍后才公布这次出局，群里不回复；"
                              "这类判罚可以私聊我发送。", call.origin)
            return
        work.say("reply", f"已判 {seat}号「{p.alias}」{verb}：{parts[1]}。", call.origin)

    await host_work(call, run)


@kernel_command(("出局",), "/出局 <玩家> <理由>", "判玩家出局", who="host", phases=LIVE, example="/出局 3 失联")
async def put_out(call: Call) -> None:
    await _put(call, KERNEL_OUT)


@kernel_command(("回场",), "/回场 <玩家> <理由>", "让出局的玩家回到场上", who="host", phases=LIVE, example="/回场 3 误判")
async def put_back(call: Call) -> None:
    await _put(call, KERNEL_BACK)

