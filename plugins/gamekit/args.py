"""A command's arguments as a typed class: each field says how the kernel reads it from chat.

    class VoteArgs(Args):
        targets: Annotated[list[int], players(2)]   # one or two players: seat numbers
        reason: Annotated[str, TEXT] = ""           # the rest of the message; a default makes it optional

The kernel's parser reads the fields in order (``fields_of``): ``PLAYER`` one player (seat number,
alias or @mention) -> its seat, ``players(n)`` one or more -> their seats, ``INT`` a whole number,
``WORD`` one token, ``TEXT`` the rest of the message with its newlines. A rule gets the class
itself; tests build it directly (``VoteArgs(targets=[3])``).
"""

from __future__ import annotations

import functools
import typing
from dataclasses import dataclass
from typing import Annotated, Literal

import msgspec

ArgKind = Literal["player", "players", "int", "word", "text"]


class Args(msgspec.Struct, frozen=True, kw_only=True):
    """Base of every command's arguments."""


class NoArgs(Args, frozen=True, kw_only=True):
    """A command that takes no arguments."""


@dataclass(frozen=True)
class Arg:
    """How one argument is read from chat."""

    kind: ArgKind
    max_count: int | None = None  # "players": at most this many


PLAYER = Arg("player")
INT = Arg("int")
WORD = Arg("word")
TEXT = Arg("text")


def players(max_count: int | None = None) -> Arg:
    return Arg("players", max_count)


PLAYERS = players()

PlayerArg = Annotated[int, PLAYER]
PlayersArg = Annotated[list[int], PLAYERS]
IntArg = Annotated[int, INT]
WordArg = Annotated[str, WORD]
TextArg = Annotated[str, TEXT]


class TextIn(Args, frozen=True, kw_only=True):
    """What the plain-text route (a spec with no words) gets: the message and its pictures."""

    text: str
    images: int = 0


class SeatReason(Args, frozen=True, kw_only=True):
    """The kernel's own commands to an engine (``kernel.out`` / ``kernel.back``): a seat and why."""

    seat: int
    reason: str = ""


@dataclass(frozen=True)
class ArgField:
    name: str
    kind: ArgKind
    optional: bool
    max_count: int | None = None


@functools.cache
def fields_of(cls: type[Args]) -> tuple[ArgField, ...]:
    """The chat-readable fields of ``cls``, in order (cached per class)."""
    hints = typing.get_type_hints(cls, include_extras=True)
    out: list[ArgField] = []
    for f in msgspec.structs.fields(cls):
        hint = hints[f.name]
        marks = [m for m in getattr(hint, "__metadata__", ()) if isinstance(m, Arg)]
        if not marks:
            raise TypeError(f"{cls.__name__}.{f.name}: say how chat gives it (Annotated[..., PLAYER/INT/WORD/TEXT/players()])")
        optional = f.default is not msgspec.NODEFAULT or f.default_factory is not msgspec.NODEFAULT
        out.append(ArgField(f.name, marks[0].kind, optional, marks[0].max_count))
    return tuple(out)


def as_dict(args: Args) -> dict:
    """The arguments as the command log keeps them (JSON)."""
    out = msgspec.to_builtins(args)
    assert isinstance(out, dict)
    return out


def from_dict(cls: type[Args], data: dict) -> Args:
    """Arguments read back from the command log (a replay)."""
    return msgspec.convert(data, cls, strict=False)
