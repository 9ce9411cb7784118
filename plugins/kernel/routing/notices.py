"""Join requests to a game's groups and members joining them (e.g. prison's
room groups): only whom the game lets in is approved; anyone else who gets in
is removed, hosts excepted."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from nonebot import on_notice, on_request
from nonebot.adapters.onebot.v11 import GroupIncreaseNoticeEvent, GroupRequestEvent

from plugins.gamekit.contract import GameEngine, Ignored

from ..commands.table import kind_of, superusers
from ..directory import directory
from ..order import utcnow
from ..origin import Handling, Origin
from ..unit import in_game
from ..work import Work


def _group_of_game(group: str) -> tuple[int | None, GameEngine | None, str]:
    """The game a QQ group belongs to (its own group or a linked chat), that
    game's engine, and the chat's label ("main" for the game's own group)."""
    game_id = directory.group_game.get(group)
    kind = kind_of(game_id)
    return game_id, kind.engine if kind else None, directory.chat_label.get(group, "main")


# after the router (priority 1): NoneBot checks every matcher of a priority for each event, in a task
# each, and a message the router handled stops there (a third of NoneBot's cost per message)
join_requests = on_request(priority=2, block=False)


@join_requests.handle()
async def _join_request(event: GroupRequestEvent) -> None:
    """Approve a join request only for whom the game lets in; others are
    rejected silently (the hosts get a note)."""
    if event.sub_type != "add":
        return
    group, uid = str(event.group_id), str(event.user_id)
    game_id, engine, chat = _group_of_game(group)
    if game_id is None or engine is None or not engine.admits("may_join"):
        return
    now = utcnow()

    async def run(work: Work) -> None:
        p = work.player_of(uid)
        if work.game.status != "running":
            return
        decision = engine.may_join(work.game.state, chat, p.seat if p else None, settings=engine.settings_of(work.game.settings))
        if decision is None:
            return  # the game leaves this request to the group's admins
        ok = bool(decision)
        params = {"flag": event.flag, "sub_type": "add", "approve": ok, "reason": "" if ok else "现在不能加入这个群"}
        work.api(group, "set_group_add_request", params)
        who = work.who(uid)
        work.audit(uid, "join_request", f"{chat}：{who} {'同意' if ok else '拒绝'}", at=now)
        if not ok:
            work.say("hosts", f"【加群】{who} 申请加入「{chat}」，已拒绝。", None)

    await served_quietly(game_id, Handling(Origin(uid, "kernel"), now), run)


member_joined = on_notice(priority=2, block=False)


@member_joined.handle()
async def _member_joined(event: GroupIncreaseNoticeEvent) -> None:
    """Someone joined a game's group. Whoever the game would not have let in
    (invited past the join check) is removed, hosts excepted; for a player the
    engine may answer with effects (e.g. set their group card, which QQ allows
    only once they are in)."""
    group, uid = str(event.group_id), str(event.user_id)
    game_id, engine, chat = _group_of_game(group)
    if game_id is None or engine is None or uid == str(event.self_id):
        return
    may_join, joined = engine.admits("may_join"), engine.admits("joined")
    if not (may_join or joined):
        return
    now = utcnow()

    async def run(work: Work) -> None:
        p = work.player_of(uid)
        if work.game.status != "running":
            return
        who = work.who(uid)
        settings = engine.settings_of(work.game.settings)
        if may_join and engine.may_join(work.game.state, chat, p.seat if p else None, settings=settings) is False \
                and not work.is_host(uid):
            work.kick(group, uid)
            work.audit(uid, "removed", f"{chat}：{who}", at=now)
            work.say("hosts", f"【加群】{who} 进入了「{chat}」，但现在不该在那里，已移出。", None)
            return
        if p is None or not joined:
            return
        work.joiner[p.seat] = uid
        effects = engine.joined(work.game.state, chat, p.seat, settings=settings)
        await work.apply_effects(list(effects), work.game.last_seq, Origin(uid, "kernel"), now)
        work.audit(uid, "joined", f"{chat}：{who}", at=now)

    await served_quietly(game_id, Handling(Origin(uid, "kernel"), now), run)


async def served_quietly(game_id: int, handling: Handling, run: Callable[[Work], Awaitable[None]]) -> None:
    """``run`` in the game's arrival order, by the process that serves it (another stays silent)."""
    try:
        await in_game(game_id, handling, superusers(), run)
    except Ignored:
        pass

