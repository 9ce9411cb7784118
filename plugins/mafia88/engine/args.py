"""Each command's arguments, as chat gives them (``plugins.gamekit.args``). The field names are
the command log's keys: a logged command is read back into the same class."""

from __future__ import annotations

from typing import Annotated

from plugins.gamekit.args import INT, PLAYER, PLAYERS, TEXT, WORD, Args


class TextArgs(Args, frozen=True, kw_only=True):
    """/报道, /追魂, /感谢信, /接头."""

    text: Annotated[str, TEXT]


class Targets(Args, frozen=True, kw_only=True):
    """/投票, /托票, /带人, /照出, /指定追魂: one or more players."""

    targets: Annotated[list[int], PLAYERS]


class Target(Args, frozen=True, kw_only=True):
    """/复活, /查身份."""

    target: Annotated[int, PLAYER]


class PostArgs(Args, frozen=True, kw_only=True):
    """/出贴 <代号> <目标> [正文…]."""

    code: Annotated[str, WORD]
    target: Annotated[int, PLAYER]
    text: Annotated[str, TEXT] = ""


class WhiteArgs(Args, frozen=True, kw_only=True):
    """/白条 <代号> <目标>."""

    code: Annotated[str, WORD]
    target: Annotated[int, PLAYER]


class RewriteArgs(Args, frozen=True, kw_only=True):
    """/重写 <帖号> [正文…]: the post number as written ("3", "#3")."""

    post: Annotated[str, WORD]
    text: Annotated[str, TEXT] = ""


class HandInArgs(Args, frozen=True, kw_only=True):
    """/交贴 [正文] (the post desk): the whole text, replacing the open draft's."""

    text: Annotated[str, TEXT] = ""


class PostRef(Args, frozen=True, kw_only=True):
    """/看贴, /通过 <帖号>."""

    post: Annotated[str, WORD]


class RejectArgs(Args, frozen=True, kw_only=True):
    """/退回 <帖号> [理由]."""

    post: Annotated[str, WORD]
    reason: Annotated[str, TEXT] = ""


class ComplainArgs(Args, frozen=True, kw_only=True):
    """/投诉 <贴号|报道号> <理由>: "3" / "#3" / "贴3" a post, "报道12" the report of seat 12."""

    ref: Annotated[str, WORD]
    reason: Annotated[str, TEXT] = ""


class RulingArgs(Args, frozen=True, kw_only=True):
    """/裁决 <投诉号> <结果> [理由]."""

    complaint: Annotated[int, INT]
    result: Annotated[str, WORD]
    reason: Annotated[str, TEXT] = ""


class RoundArgs(Args, frozen=True, kw_only=True):
    """/贴单, /票记录 [轮次] (the current round when left out)."""

    round: Annotated[int | None, INT] = None


class PlayerReason(Args, frozen=True, kw_only=True):
    """/退回报道, /判出局, /判复活 <玩家> [理由]."""

    player: Annotated[int, PLAYER]
    reason: Annotated[str, TEXT] = ""


class SoulMoveArgs(Args, frozen=True, kw_only=True):
    """/移魂 <被贴杀者> <移到谁> <正文>."""

    src: Annotated[int, PLAYER]
    dst: Annotated[int, PLAYER]
    text: Annotated[str, TEXT]


class SoulBackArgs(Args, frozen=True, kw_only=True):
    """/还魂 <玩家> <正文>."""

    target: Annotated[int, PLAYER]
    text: Annotated[str, TEXT]


class SetRoundArgs(Args, frozen=True, kw_only=True):
    """/改进程 <轮次> <每人票数> <票出人数> [贴杀] (left out: the row's posts stay)."""

    round: Annotated[int, INT]
    votes: Annotated[int, INT]
    out: Annotated[int, INT]
    posts: Annotated[str | None, TEXT] = None


class OverrideArgs(Args, frozen=True, kw_only=True):
    """/改判 <步骤> <结果> <理由>: a post step ("2") or a vote result step ("结果2"); logs of
    older versions hold the post step as a number."""

    step: Annotated[int | str, WORD]
    result: Annotated[str, WORD]
    reason: Annotated[str, TEXT] = ""


class MessageArgs(Args, frozen=True, kw_only=True):
    """/私信 <玩家> <内容>."""

    player: Annotated[int, PLAYER]
    text: Annotated[str, TEXT]


class HighArgs(Args, frozen=True, kw_only=True):
    """/高贴指定 <被指定者> [指定者]."""

    player: Annotated[int, PLAYER]
    by: Annotated[str, TEXT] = ""


class EndArgs(Args, frozen=True, kw_only=True):
    """/结束游戏 [白方|黑方|平局] [理由] (no winner word: the whole text is the reason)."""

    result: Annotated[str, WORD] = ""
    reason: Annotated[str, TEXT] = ""
