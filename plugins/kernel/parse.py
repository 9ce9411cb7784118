"""Turn a chat message into a command word and typed arguments."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from plugins.gamekit.args import TextIn
from plugins.gamekit.contract import CommandSpec, Rejected

from .roster import Roster

LIST_SEP = re.compile(r"[\s、，,；;]+")  # "3 4", "3、4", "3，4" all name two players


@dataclass(frozen=True)
class Parsed:
    word: str  # command word without the leading "/"
    rest: str  # the arguments as text; @mentions appear as "@<qq>"


def split_command(raw: str, starts: tuple[str, ...] = ("/", "／")) -> Parsed | None:
    """'/投票 3 小明' -> Parsed('投票', '3 小明'); plain text -> None."""
    text = raw.lstrip()
    for s in starts:
        if text.startswith(s):
            body = text[len(s):]
            m = re.match(r"(\S+)(?:\s+|$)", body, re.S)
            if not m:
                return None
            return Parsed(m.group(1), body[m.end():])
    return None


def plain_args(spec: CommandSpec, text: str, images: int = 0) -> Any:
    """What the plain-text route's rule gets for a message that is not a command."""
    return TextIn(text=text, images=images) if spec.typed else {"text": text, "images": images}


def parse_args(spec: CommandSpec, rest: str, roster_of: Callable[[], Roster] | None) -> Any:
    """Parse ``rest`` by the spec; player names by the roster ``roster_of()`` gives (built only
    for a command that names players). Raises Rejected naming the right usage."""
    args: dict[str, Any] = {}
    roster: Roster | None = None
    usage = f"用法：{spec.usage}" if spec.usage else ""
    pos = 0
    specs = list(spec.fields)
    for i, a in enumerate(specs):
        m = re.compile(r"\s*(\S+)").match(rest, pos)
        if a.kind == "text":
            text = rest[pos:].strip()
            if not text and not a.optional:
                raise Rejected(f"缺少{a.name}。{usage}")
            if text:
                args[a.name] = text
            pos = len(rest)
            continue
        if m is None:
            if a.optional:
                continue
            raise Rejected(f"参数不够。{usage}")
        if a.kind == "players":
            # take tokens until the remaining non-player args are left
            tokens = [t for t in LIST_SEP.split(rest[pos:]) if t]
            keep_after = sum(1 for b in specs[i + 1:] if not b.optional)
            take = tokens[: len(tokens) - keep_after] if keep_after else tokens
            if not take:
                raise Rejected(f"请指明玩家。{usage}")
            if a.max_count and len(take) > a.max_count:
                raise Rejected(f"最多指定 {a.max_count} 名玩家。{usage}")
            assert roster_of is not None
            roster = roster or roster_of()
            seats: list[int] = []
            for t in take:
                seat = roster.resolve(t).seat
                if seat in seats:
                    continue
                seats.append(seat)
            args[a.name] = seats
            for t in take:
                pos = rest.index(t, pos) + len(t)
            continue
        token = m.group(1)
        pos = m.end()
        if a.kind == "player":
            assert roster_of is not None
            roster = roster or roster_of()
            args[a.name] = roster.resolve(token).seat
        elif a.kind == "int":
            try:
                args[a.name] = int(token)
            except ValueError:
                raise Rejected(f"「{token}」不是数字。{usage}") from None
        else:
            args[a.name] = token
    if rest[pos:].strip() and not any(a.kind == "text" for a in specs):
        raise Rejected(f"多余的内容：「{rest[pos:].strip()[:20]}」。{usage}")
    return spec.args(**args) if spec.typed else args
