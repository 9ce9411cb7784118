"""A page action is a command with ``source = "web"``: the same arrival order,
transaction, command table, engine call and log as a chat command. The
engine's answers to the sender come back to the page; everything else (group
posts, messages to other players, hosts) goes through the outbound queue."""

from __future__ import annotations

from datetime import datetime

from nonebot import get_driver

from plugins.gamekit.contract import Actor, Command, CommandSpec, Ignored, Rejected

from ..models import Game, WebAccess
from ..order import utcnow
from ..origin import Handling, Origin
from ..parse import parse_args, plain_args
from ..registry import get_kind
from ..routing.router import check_actor, check_length
from ..unit import NotOwner, in_game
from ..work import Work
from .page import PAGES


def superusers() -> set[str]:
    return set(get_driver().config.superusers)


def _spec(kind_key: str, word: str, host: bool) -> CommandSpec:
    kind = get_kind(kind_key)
    page = PAGES.get(kind_key)
    allowed = (page.words + (page.host_words if host else ())) if page else ()
    if kind is None or word not in allowed:
        raise Rejected("网页上没有这个操作。请刷新页面后再试。")
    if word == "":  # the game's plain-text route (e.g. prison's room lines), as plain private text
        spec = next((s for s in kind.commands if not s.words and s.where in ("private", "any")), None)
    else:
        spec = next((s for s in kind.commands if word in s.words and s.where in ("private", "any")), None)
    if spec is None:
        raise Rejected("网页上没有这个操作。请刷新页面后再试。")
    return spec


def _check(spec: CommandSpec, work: Work, user_id: str) -> Actor:
    """Who may do it (as the router checks a private command)."""
    return check_actor(spec, work, user_id, private=True, chat=None, ended="这局游戏已经结束了，网页只能查看。")


async def run(access: WebAccess, kind_key: str, word: str, rest: str, host: bool) -> list[str]:
    """Run one page action; the answers for the page. Rejected: nothing applied, say why."""
    spec = _spec(kind_key, word, host)
    check_length(rest, spec)
    if (await Game.get(id=access.game_id)).status == "ended":  # no process serves an ended game
        raise Rejected("这局游戏已经结束了，网页只能查看。")
    captured: list[str] = []
    origin = Origin(access.user_id, "web", captured=captured)
    now = utcnow()

    async def run(work: Work) -> None:
        actor = _check(spec, work, access.user_id)
        args = parse_args(spec, rest, lambda: work.roster) if spec.words else plain_args(spec, rest)
        await work.step("apply", origin=origin, now=now, actor=actor, cmd=Command(spec.name, args))
        if spec.audit or spec.extra.get("audit"):
            work.audit(access.user_id, spec.name, f"/{spec.words[0]} {rest.strip()}（网页）"[:200], at=now)

    try:  # no delivery key (a page action is not a QQ message); in the game's arrival order, like a chat command
        await in_game(access.game_id, Handling(origin, now), superusers(), run)
    except NotOwner:
        raise Rejected("这局游戏由另一个机器人进程负责，请稍后再试。") from None
    except Ignored:
        raise Rejected("这个操作现在没有效果。") from None
    return captured or ["已完成。"]


def when(now: datetime) -> str:
    return now.isoformat()
