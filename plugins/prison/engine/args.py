"""The arguments of the prison commands (commands.py), as the kernel reads them from chat. Field
names are the keys the command log keeps (old logs replay)."""

from __future__ import annotations

from typing import Annotated

from plugins.gamekit.args import INT, PLAYER, TEXT, WORD, Args


class SeatArgs(Args, frozen=True, kw_only=True):
    """/爱 /恨 /投票 /处决 /释放 /点杀: one player."""

    seat: Annotated[int, PLAYER]


class BidArgs(Args, frozen=True, kw_only=True):
    """/竞拍 [第一志愿=角色:硬币 第二志愿=… 随机号码=…]: nothing shows the standing bid."""

    text: Annotated[str, TEXT] = ""


class DecideArgs(Args, frozen=True, kw_only=True):
    """/裁定 处决|释放 <玩家> or /裁定 弃票."""

    choice: Annotated[str, WORD]
    seat: Annotated[int | None, PLAYER] = None


class RoomArgs(Args, frozen=True, kw_only=True):
    room: Annotated[str, WORD]


class AbilityArgs(Args, frozen=True, kw_only=True):
    """/技能 <技能名> [<内容>]."""

    ability: Annotated[str, WORD]
    text: Annotated[str, TEXT] = ""


class SwapArgs(Args, frozen=True, kw_only=True):
    """/换房 <玩家> <玩家>."""

    a: Annotated[int, PLAYER]
    b: Annotated[int, PLAYER]


class MessageArgs(Args, frozen=True, kw_only=True):
    """/传话 <玩家> <内容> (an empty line is refused by the rule, in the game's words)."""

    seat: Annotated[int, PLAYER]
    text: Annotated[str, TEXT] = ""


class TextArgs(Args, frozen=True, kw_only=True):
    """/提交对应 /提交马甲 /树洞: the rest of the message."""

    text: Annotated[str, TEXT]


class SettleArgs(Args, frozen=True, kw_only=True):
    """/结算 <编号> <结果>."""

    id: Annotated[int, INT]
    text: Annotated[str, TEXT]
