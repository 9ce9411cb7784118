"""The kernel's command table: the call a handler gets, the registry of kernel
commands, and the helpers they share (which game, host checks)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from nonebot import get_driver
from nonebot.adapters.onebot.v11 import Bot, GroupMessageEvent, MessageEvent

from plugins.gamekit.contract import CommandSpec, Rejected

from ..directory import directory
from ..origin import Handled, Handling
from ..registry import GameKind, get_kind
from ..unit import in_game, reply
from ..work import Work


def superusers() -> set[str]:
    return set(get_driver().config.superusers)


@dataclass
class Call(Handled):
    """A command as a handler gets it: the message, how it is being handled, the word and the rest."""

    bot: Bot
    event: MessageEvent
    handling: Handling
    ticket: int
    word: str
    rest: str

    @property
    def in_group(self) -> bool:
        return isinstance(self.event, GroupMessageEvent)

    async def say(self, text: str, game_id: int | None = None) -> None:
        await reply(self.handling, text, game_id=game_id)


Handler = Callable[[Call], Awaitable[None]]


@dataclass(frozen=True)
class KernelCmd:
    spec: CommandSpec
    fn: Handler


KERNEL: dict[str, KernelCmd] = {}
LIVE = ("running", "paused")  # the game statuses in which a game is under way


def kernel_command(words: tuple[str, ...], usage: str, help: str, who: str = "anyone", where: str = "any", *,
                   phases: tuple[str, ...] = (), needs: str = "", example: str = ""):
    """``phases``: the game statuses in which /帮助 lists it (none: always; "none":
    where there is no game); ``needs``: a condition /帮助 checks ("profile",
    "alt", "secret", "several"); ``example``: shown by /帮助 <命令>."""

    def deco(fn: Handler) -> Handler:
        extra = {"phases": phases, "needs": needs, "example": example}
        spec = CommandSpec(words=words, name=fn.__name__, who=who, where=where, usage=usage, help=help, extra=extra)  # type: ignore[arg-type]
        for w in words:
            KERNEL[w] = KernelCmd(spec, fn)
        return fn

    return deco


def game_for(call: Call) -> int | list[int] | None:
    if call.origin.source == "group":
        return directory.group_game.get(call.origin.group_id or "")
    return directory.private_game(call.origin.user_id)


def kind_of(game_id: int | list[int] | None) -> GameKind | None:
    if not isinstance(game_id, int) or game_id not in directory.kind:
        return None
    return get_kind(directory.kind[game_id])


def need_game(call: Call, game_id: int | list[int] | None) -> int:
    if isinstance(game_id, int):
        return game_id
    if call.in_group:
        raise Rejected("本群现在没有游戏。管理员可以发送 /创建 <游戏> 开一局（88人场 / 囚犯 / 大逃杀 / 联赛）。")
    if game_id is None:
        raise Rejected("你现在没有参加任何游戏。请在游戏群里报名，或私聊发送 /报名 <群号> <马甲>。")
    raise Rejected(
        "你同时在多个游戏中（群 " + "、".join(group_of(g) for g in game_id) + "），请先发送 /切换 <群号> 选定一个。"
    )


def group_of(game_id: int) -> str:
    return directory.main_group.get(game_id, str(game_id))


def is_group_admin(call: Call) -> bool:
    ev = call.event
    return isinstance(ev, GroupMessageEvent) and ev.sender.role in ("owner", "admin")


async def host_work(call: Call, fn: Callable[[Work], Awaitable[None]], *, game_id: int | None = None,
                    quick: bool = False) -> None:
    """``fn`` as one unit of work on the game of a host's command (``quick``: see ``in_game``)."""
    gid = game_id if game_id is not None else need_game(call, game_for(call))

    async def guarded(work: Work) -> None:
        if not work.is_host(call.origin.user_id):
            raise Rejected("只有主持可以这样做。")
        await fn(work)

    await in_game(gid, call.handling, superusers(), guarded, quick=quick)


async def player_work(call: Call, fn: Callable[[Work], Awaitable[None]], game_id: int | None = None) -> None:
    """``fn`` as one unit of work on the game of a player's (or anyone's) command."""
    gid = game_id if game_id is not None else need_game(call, game_for(call))
    await in_game(gid, call.handling, superusers(), fn)

