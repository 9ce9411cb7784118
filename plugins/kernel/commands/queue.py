"""/队列: the hosts see what waits in the outbound queue for their game (QQ's pace makes 88 role
messages take minutes), how far along it is, and what was given up and why."""

from __future__ import annotations

from plugins.gamekit.contract import Rejected

from ..models import Host
from ..queueview import queue_text
from .table import Call, game_for, kernel_command, need_game, superusers


@kernel_command(("队列",), "/队列", "查看本局待发的消息、发送进度和发送失败的原因", who="host", where="private",
                phases=("signup", "running", "paused", "ended"))
async def queue(call: Call) -> None:
    if call.in_group:
        raise Rejected("发送队列里有私信的去向，请私聊我发送 /队列。")
    gid = need_game(call, game_for(call))
    if call.origin.user_id not in superusers() and not await Host.exists(game_id=gid, user_id=call.origin.user_id):
        raise Rejected("只有主持可以这样做。")
    await call.say(await queue_text(gid, call.now), gid)
