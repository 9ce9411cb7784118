"""Join requests to a game's groups and members joining them (e.g. prison's
room groups): only whom the game lets in is approved; anyone else who gets in
is removed, hosts excepted."""

from __future__ import annotations

from nonebot import on_notice, on_request
from nonebot.adapters.onebot.v11 import GroupIncreaseNoticeEvent, GroupRequestEvent

from plugins.gamekit.contract import GameEngine

from ..commands.table import _kind_of, _superusers
from ..directory import directory
from ..order import utcnow
from ..origin import Origin
from ..outbox import enqueue_api
from ..txn import Txn, in_game


def _group_of_game(group: str) -> tuple[int | None, GameEngine | None, str]:
    """The game a QQ group belongs to (its own group or a linked chat), that
    game's engine, and the chat's label ("main" for the game's own group)."""
    game_id = directory.group_game.get(group)
    kind = _kind_of(game_id)
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

    async def work(txn: Txn) -> None:
        p = txn.player_of(uid)
        if txn.game.status != "running":
            return
        decision = engine.may_join(txn.game.state, chat, p.seat if p else None, settings=engine.settings_of(txn.game.settings))
        if decision is None:
            return  # the game leaves this request to the group's admins
        ok = bool(decision)
        params = {"flag": event.flag, "sub_type": "add", "approve": ok, "reason": "" if ok else "现在不能加入这个群"}
        await enqueue_api(group, "set_group_add_request", params, game_id=txn.game.id, self_id=txn.game.self_id, now=now)
        who = txn.who(uid)
        await txn.audit(uid, "join_request", f"{chat}：{who} {'同意' if ok else '拒绝'}", at=now)
        if not ok:
            await txn.say("hosts", f"【加群】{who} 申请加入「{chat}」，已拒绝。", None)

    await in_game(game_id, _superusers(), work)  # in the game's arrival order


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

    async def work(txn: Txn) -> None:
        p = txn.player_of(uid)
        if txn.game.status != "running":
            return
        who = txn.who(uid)
        settings = engine.settings_of(txn.game.settings)
        if may_join and engine.may_join(txn.game.state, chat, p.seat if p else None, settings=settings) is False \
                and not txn.is_host(uid):
            await txn.kick(group, uid, now)
            await txn.audit(uid, "removed", f"{chat}：{who}", at=now)
            await txn.say("hosts", f"【加群】{who} 进入了「{chat}」，但现在不该在那里，已移出。", None)
            return
        if p is None or not joined:
            return
        txn.joiner[p.seat] = uid
        effects = engine.joined(txn.game.state, chat, p.seat, settings=settings)
        await txn.apply_effects(list(effects), txn.game.last_seq, Origin(uid, "kernel"), now)
        await txn.audit(uid, "joined", f"{chat}：{who}", at=now)

    await in_game(game_id, _superusers(), work)  # in the game's arrival order

