"""Game kinds register here; the kernel routes commands to them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from plugins.gamekit.contract import CommandSpec, GameEngine


@dataclass(frozen=True)
class GameKind:
    key: str  # "mafia88"
    title: str  # "88人场"
    names: tuple[str, ...]  # words accepted by /创建: ("88人场", "88", "风云")
    engine: GameEngine
    commands: tuple[CommandSpec, ...] = ()
    min_players: int = 1
    max_players: int = 200
    private_signup: bool = False  # aliases are secret: sign-up answers privately
    intro: str = ""  # one line shown at /创建
    # Picture name -> render(state, settings) -> PNG bytes (settings as in ctx.settings)
    renderers: dict[str, Callable[[Any, Any], bytes]] = field(default_factory=dict)  # (state, settings)
    profile_fields: tuple[ProfileField, ...] = ()
    extra: dict = field(default_factory=dict)


_KINDS: dict[str, GameKind] = {}


@dataclass(frozen=True)
class ProfileField:
    """A sign-up field a player fills in with /资料 before the start (e.g. prison's
    随机号码 and 志愿); engines get them in ``Seat.profile`` under ``key``."""

    key: str  # "number"
    label: str  # "随机号码" — what players type
    kind: str = "text"  # "text" | "int"
    low: int = 1
    high: int = 999
    secret: bool = True  # shown only to the player and the hosts


def register_game(kind: GameKind) -> GameKind:
    _KINDS[kind.key] = kind
    return kind


def kinds() -> list[GameKind]:
    return list(_KINDS.values())


def get_kind(key: str) -> GameKind | None:
    return _KINDS.get(key)


def find_kind(word: str) -> GameKind | None:
    w = word.strip().casefold()
    for k in _KINDS.values():
        if w == k.key.casefold() or w in (n.casefold() for n in k.names):
            return k
    return None
