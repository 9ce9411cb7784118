"""Each command's arguments, as chat gives them (the command log keeps these field names)."""

from __future__ import annotations

from typing import Annotated

from plugins.gamekit.args import PLAYER, TEXT, WORD, Args


class PlaceArgs(Args, frozen=True, kw_only=True):
    """/出生 <地点>, /移动 <地点> (places may hold spaces: Atelier of Tales)."""

    place: Annotated[str, TEXT]


class RestArgs(Args, frozen=True, kw_only=True):
    """/静养 [地点]: one move first, or none."""

    place: Annotated[str, TEXT] = ""


class ItemArgs(Args, frozen=True, kw_only=True):
    """/丢弃, /购买, /出售 <物品>."""

    item: Annotated[str, WORD]


class EquipArgs(Args, frozen=True, kw_only=True):
    """/装备 <物品> [<换下的物品>]."""

    item: Annotated[str, WORD]
    swap: Annotated[str, WORD] = ""


class UseArgs(Args, frozen=True, kw_only=True):
    """/使用 <物品> [<目标>]: an upgrade's gear, a scout's item or players, a place [and a player]."""

    item: Annotated[str, WORD]
    target: Annotated[str, TEXT] = ""


class WordsArgs(Args, frozen=True, kw_only=True):
    """/领取 [<选项>], /事件 [<事件名> | 禁止 <事件名> | 随机]."""

    text: Annotated[str, TEXT] = ""


class RequestArgs(Args, frozen=True, kw_only=True):
    """/申请 <物品> (测试赛)."""

    item: Annotated[str, TEXT]


class GrantArgs(Args, frozen=True, kw_only=True):
    """/发放 <玩家> <物品> (测试赛)."""

    player: Annotated[int, PLAYER]
    item: Annotated[str, TEXT]


class AirdropArgs(Args, frozen=True, kw_only=True):
    """/空投 <物品> [<物品>…]."""

    items: Annotated[str, TEXT]
