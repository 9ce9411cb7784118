"""/帮助: the commands open to this person in this place."""

from __future__ import annotations

from .commands.table import KERNEL
from .contract import CommandSpec
from .registry import GameKind, kinds


def _fits(spec: CommandSpec, in_group: bool, is_host: bool, is_player: bool) -> bool:
    if spec.where == "group" and not in_group:
        return False
    if spec.where == "private" and in_group:
        return False
    if spec.who == "host":
        return is_host
    if spec.who == "player":
        return is_player
    return True


def help_text(kind: GameKind | None, *, in_group: bool, is_host: bool, is_player: bool, is_admin: bool) -> str:
    seen: set[str] = set()
    kernel_lines = []
    for spec in (k.spec for k in KERNEL.values()):
        if spec.name in seen:
            continue
        seen.add(spec.name)
        if spec.name == "create" and not (is_admin or is_host):
            continue
        if spec.name == "signup" or _fits(spec, in_group, is_host, True):
            kernel_lines.append(f"{spec.usage} — {spec.help}")
    out = ["通用命令："] + kernel_lines
    if kind is not None:
        game_lines = [
            f"{s.usage or '/' + s.words[0]} — {s.help}"
            for s in kind.commands
            if s.words and _fits(s, in_group, is_host, is_player)
        ]
        if game_lines:
            out += [f"{kind.title}命令："] + game_lines
    else:
        out.append("可开的游戏：" + " / ".join(k.names[0] for k in kinds()))
    where = "群聊" if in_group else "私聊"
    out.append(f"（以上是你在{where}里能用的命令；{'私聊' if in_group else '群聊'}里还有其他命令。）")
    return "\n".join(out)
