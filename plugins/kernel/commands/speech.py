"""Speech under the alias (games with secret aliases): /发言 posts a
player's words in the game group as 【马甲】内容, plain text only."""

from __future__ import annotations

from plugins.gamekit.contract import Actor, Command, Ignored, Rejected

from ..clean import balance_bidi
from ..messages import text_rows
from ..models import Player
from ..origin import Origin
from ..parse import plain_args
from ..routing.events import text_of
from ..unit import in_game
from ..work import Work
from .table import LIVE, Call, game_for, kernel_command, kind_of, need_game, superusers


async def speak_as(work: Work, player: Player, text: str, images: int) -> None:
    """Post a player's words in the game group under the alias, as plain text."""
    g, now = work.game, work.now
    if not g.settings.get("anon_speech", True):
        raise Rejected("主持关闭了匿名发言。")
    if not player.alive:
        raise Rejected("你已出局，不能再在群里发言。")
    body = balance_bidi(text.strip())  # a bidi override closes before anything after it
    if images:
        body = (body + " " if body else "") + "（图片）" * min(images, 3)
    if not body:
        raise Rejected("请写发言内容：/发言 <内容>")
    work.ws.outbox += text_rows("group", g.group_id, f"【{player.alias}】{body}", game_id=g.id, self_id=g.self_id,
                               priority=0, now=now)
    work.audit(player.user_id, "speak", f"{player.seat}号 {player.alias}：{body[:200]}", at=now)
    said = next((s for s in work.kind.commands if not s.words and s.where in ("group", "any")), None)
    if said is not None and g.status == "running":  # it counts as said in the group (e.g. prison's discussion)
        actor = Actor(player.user_id, player.seat, False, False, "main")
        try:
            await work.step("apply", origin=Origin(player.user_id, "kernel"), now=now, actor=actor,
                           cmd=Command(said.name, plain_args(said, text, images)))
        except Ignored:
            pass


@kernel_command(("发言",), "/发言 <内容>", "以马甲在游戏群发言（主持开启后可用）", who="player", where="private",
                phases=LIVE, needs="secret", example="/发言 大家好")
async def speak(call: Call) -> None:
    if call.in_group:
        raise Rejected("请私聊我发送 /发言 <内容>，我会以你的马甲发到游戏群。")
    gid = need_game(call, game_for(call))
    kind = kind_of(gid)
    if kind is None or not kind.private_signup:
        raise Rejected("本游戏马甲公开，直接在群里发言即可。")
    _, images = text_of(call.event)

    async def run(work: Work) -> None:
        p = work.player_of(call.origin.user_id)
        if p is None:
            raise Rejected("你不是本局玩家，不能以马甲发言。")
        if work.game.status == "ended":
            raise Rejected("这局游戏已经结束了。")
        await speak_as(work, p, call.rest, images)

    await in_game(gid, call.handling, superusers(), run)

