"""Declarative command tables.

A game lists its commands as :class:`CommandSpec` rows; the kernel turns each
row into a NoneBot matcher, parses the arguments (resolving player names to
seat numbers against the game's roster), checks who/where, and hands the
engine a :class:`~plugins.kernel.engine.Command` with ``name`` and ``args``.

Argument kinds:
  ``player``  one player: seat number, alias or @mention -> ``int`` seat
  ``players`` one or more players (rest of the tokens)   -> ``list[int]``
  ``int``     a whole number                             -> ``int``
  ``word``    one token                                  -> ``str``
  ``text``    the rest of the message, newlines kept     -> ``str``
Optional arguments that are absent are simply missing from ``args``.

A spec with ``words=()`` is the *plain-text* route: every message from a
player of the game that is not a command — private text for a spec with
``where="private"``, chat in the game group for ``where="group"`` — reaches
the engine as ``Command(name, {"text": ..., "images": n})``; the engine raises
``Ignored`` when it has no use for it (the kernel then stays silent).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

ArgKind = Literal["player", "players", "int", "word", "text"]
Where = Literal["any", "group", "private"]
Who = Literal["player", "host", "anyone"]


@dataclass(frozen=True)
class ArgSpec:
    name: str
    kind: ArgKind
    optional: bool = False
    max_count: int | None = None  # for "players"


@dataclass(frozen=True)
class CommandSpec:
    words: tuple[str, ...]  # Chinese command words, first is the canonical one: ("投票",)
    name: str  # engine command name: "vote"
    args: tuple[ArgSpec, ...] = ()
    where: Where = "any"
    who: Who = "player"
    alive_only: bool = True  # refuse players who are out
    usage: str = ""  # e.g. "/投票 <玩家> [<玩家>]"
    help: str = ""  # one short Chinese line for /帮助
    max_chars: int | None = None  # longest accepted text (None: the kernel's cap for the asker)
    extra: dict = field(default_factory=dict)  # {"audit": True}: the kernel writes each use to the audit log
