"""What happens to a game's groups and its players' messages besides commands: a player leaving
or kicked from a game's group, the bot itself removed (and back), a recalled command, friend and
group requests. The hosts and the player are told privately: nothing the bot says in a group
joins a QQ account to a seat or alias."""

from __future__ import annotations

from nonebot import on_notice, on_request
from nonebot.adapters.onebot.v11 import (
    FriendRecallNoticeEvent,
    FriendRequestEvent,
    GroupDecreaseNoticeEvent,
    GroupIncreaseNoticeEvent,
    GroupRecallNoticeEvent,
    GroupRequestEvent,
    NoticeEvent,
    RequestEvent,
)
from nonebot.log import logger

from plugins.gamekit.contract import CommandSpec, Ignored

from ..commands.table import KERNEL, LIVE
from ..directory import directory
from ..messages import text_rows
from ..models import CommandLog
from ..order import utcnow
from ..origin import Handling, Origin
from ..outbox import park, unpark
from ..registry import GameKind
from ..sending import wake_outbox
from ..work import Work
from .notices import served_quietly

WITHDRAWALS = ("withdraw", "unvote", "retract")
"""The names a game's table gives a command that takes back a player's earlier one."""


def _place(group: str) -> str:
    label = directory.chat_label.get(group)
    return f"游戏群（{group}）" if label in (None, "main") else f"「{label}」群（{group}）"


members = on_notice(priority=2, block=False)


@members.handle()
async def _members(event: NoticeEvent) -> None:
    """Someone left a game's group, or the bot was removed from it or is back."""
    if not isinstance(event, GroupDecreaseNoticeEvent | GroupIncreaseNoticeEvent):
        return
    group, uid, me = str(event.group_id), str(event.user_id), str(event.self_id)
    game_id = directory.group_game.get(group)
    if isinstance(event, GroupIncreaseNoticeEvent):
        if uid == me and await unpark(group):  # back in the group: what waited goes out
            wake_outbox()
        return
    if game_id is None:
        return
    removed = event.sub_type == "kick_me" or uid == me
    if removed:
        await park(group)  # every process: none sends there now
    now = utcnow()

    async def run(work: Work) -> None:
        if removed:
            work.say("hosts", f"【机器人被移出群】机器人被移出了{_place(group)}，发往该群的消息先存着，不会丢失。"
                              "请把机器人拉回群，存着的消息会自动补发。", None)
            return
        if work.game.status not in LIVE or work.player_of(uid) is None:
            return
        how = "被移出了" if event.sub_type == "kick" else "自己退出了"
        work.say("hosts", f"【退群】{work.who(uid)}（QQ {uid}）{how}{_place(group)}。游戏照常进行；"
                          "如需处理，请联系该玩家，或发送 /出局 判其出局。", None)

    await served_quietly(game_id, Handling(Origin(uid, "kernel"), now), run)


recalls = on_notice(priority=2, block=False)


@recalls.handle()
async def _recalled(event: NoticeEvent) -> None:
    """A player recalled a message the bot acted on: what it caused stands; they are told privately
    how to take it back (the game's withdrawal command), or to ask the hosts."""
    if isinstance(event, GroupRecallNoticeEvent):
        if str(event.operator_id) == str(event.self_id):
            return  # the bot's own recall (a message that would unmask its sender)
        key = f"{event.self_id}:g{event.group_id}:{event.message_id}"
    elif isinstance(event, FriendRecallNoticeEvent):
        key = f"{event.self_id}:p{event.user_id}:{event.message_id}"
    else:
        return
    row = await CommandLog.filter(dedup_key=key).first().values("game_id", "name", "user_id")
    if row is None:
        return  # nothing was acted on
    uid, now = str(row["user_id"]), utcnow()

    async def run(work: Work) -> None:
        if work.game.status not in ("signup", *LIVE):
            raise Ignored()
        spec = _spec(work.kind, str(row["name"]))
        said = f"「/{spec.words[0]}」" if spec is not None and spec.words else "这条命令"
        undo = next((s for s in work.kind.commands if s.name in WITHDRAWALS and s.words), None)
        then = (f"要撤销，请私聊我发送 {undo.usage or '/' + undo.words[0]}。" if undo is not None
                else "本游戏没有撤销的命令；如需更改，请联系主持。")
        work.ws.outbox += text_rows("private", uid, f"你撤回了{said}，但它仍然有效：撤回消息不会取消它。{then}",
                                    game_id=work.game.id, self_id=str(event.self_id), priority=0, now=now)

    await served_quietly(int(row["game_id"]), Handling(Origin(uid, "kernel"), now, key=f"recall:{key}"), run)  # told once


def _spec(kind: GameKind, name: str) -> CommandSpec | None:
    hit = next((s for s in kind.commands if s.name == name), None)
    return hit or next((k.spec for k in KERNEL.values() if k.spec.name == name), None)


requests = on_request(priority=3, block=False)


@requests.handle()
async def _request(event: RequestEvent) -> None:
    """Friend requests, group invitations and join requests are the account owner's and the groups'
    admins' to accept: logged, not answered (except a join request a game decides, ``notices.py``)."""
    if isinstance(event, FriendRequestEvent):
        logger.info(f"kernel: friend request from QQ {event.user_id} ({event.comment!r}): left to the account's owner")
    elif isinstance(event, GroupRequestEvent):
        logger.info(f"kernel: group {event.sub_type} request, group {event.group_id}, QQ {event.user_id}: "
                    "left to the account's owner")
