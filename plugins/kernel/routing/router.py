"""The one router: reads every message, finds the command word in the
kernel's table or in the game's, checks who and where, and runs it in the
game's arrival order and transaction. Non-command text goes to the game's
plain-text route."""

from __future__ import annotations

import re
from datetime import datetime

from nonebot import on_message
from nonebot.adapters.onebot.v11 import Bot, MessageEvent
from nonebot.log import logger
from nonebot.matcher import current_bot, current_event, current_matcher

from plugins.gamekit.contract import Actor, Command, CommandSpec, Ignored, Rejected, check_who

from ..commands.info import asker_of
from ..commands.speech import _speak
from ..commands.table import KERNEL, Call, _game_for, _kind_of, _need_game, _superusers
from ..config import kernel_config
from ..delivery import commit_at_once, handling
from ..directory import directory, note_contact
from ..helptext import unknown_text
from ..leases import leases
from ..metrics import command_done
from ..order import game_lock, game_turn, hand_over, ordered
from ..origin import Origin, reply
from ..outbox import collected, enqueue_api
from ..parse import parse_args, plain_args, split_command
from ..registry import GameKind, kinds
from ..sending import wake_outbox
from ..txn import Txn, in_game
from .events import NAMES_ITS_GAME, ROUTING_WORDS, _origin, _text_of, arrival_of, command_starts

router = on_message(priority=1, block=False)
BARE_HELP = ("帮助", "菜单")  # the only plain words answered: other plain text may be a game's (drafts, relays)


@router.handle()
async def _route() -> None:
    """Takes no parameters: NoneBot solves and checks each parameter of a handler in a task of
    its own (eight tasks a message for four); the bot, event and matcher are NoneBot's own
    context variables of the running matcher instead."""
    bot, event, matcher = current_bot.get(), current_event.get(), current_matcher.get()
    if not isinstance(bot, Bot) or not isinstance(event, MessageEvent):
        return  # another adapter's message
    arrival = arrival_of(event)
    if arrival is None:
        return  # delivered before, or another process's game
    ticket, now = arrival
    raw, images = _text_of(event)
    parsed = split_command(raw, command_starts())
    origin = _origin(event)
    if parsed is None and raw.strip() in BARE_HELP and (origin.private or directory.group_game.get(origin.group_id or "")):
        parsed = split_command("/帮助")  # 帮助 / 菜单 without the slash: answered where commands are
    call = Call(bot, event, origin, ticket, now, parsed.word, parsed.rest) if parsed else None
    route: tuple[int, CommandSpec | None] | None = None
    target: int | list[int] | None = None
    async with ordered(ticket):  # the routing step, in arrival order
        handling(origin)  # what this message causes records its delivery key (exactly once)
        if origin.source == "group":
            await directory.ensure_group(origin.group_id or "")
        else:
            await directory.ensure_user(origin.user_id)
        if call is None:
            route = _plain_route(origin)
            if route is None:
                if origin.private:
                    await note_contact(origin.user_id, origin.self_id, now)
                return
            reserved = game_lock(route[0]).reserve(ticket)
        else:
            target = _game_for(call)
            if call.word in ROUTING_WORDS or not isinstance(target, int):
                if origin.private:
                    await note_contact(origin.user_id, origin.self_id, now)
                if await _dispatch(call, call.word, target):  # changes routing: done inside the step
                    matcher.stop_propagation()
                    command_done(_kind_of(target), call.word, now, KERNEL)
                return
            reserved = game_lock(target).reserve(ticket)
    # then in the game's own arrival order: games never wait for each other
    if origin.private:
        await note_contact(origin.user_id, origin.self_id, now)  # a write: outside the routing step
    if route is not None:
        async with game_turn(route[0], reserved):
            await _plain_text(origin, now, raw, images, *route)
        return
    assert call is not None and isinstance(target, int)
    async with game_turn(target, reserved):
        handled = await _dispatch(call, call.word, target)
    if handled:
        matcher.stop_propagation()
        command_done(_kind_of(target), call.word, now, KERNEL)


def _cap(spec: CommandSpec | None) -> int:
    cfg = kernel_config()
    if spec is not None and spec.max_chars:
        return spec.max_chars
    return cfg.max_host_text_chars if spec is not None and spec.who == "host" else cfg.max_text_chars


def check_length(text: str, spec: CommandSpec | None) -> None:
    cap = _cap(spec)
    if len(text) > cap:
        raise Rejected(f"太长了：这条 {len(text)} 字，最多 {cap} 字。请删短，或分几条发送。")


async def _dispatch(call: Call, word: str, game_id: int | list[int] | None) -> bool:
    """Run the command for the game routing chose; False when the word is not ours."""
    kind = _kind_of(game_id)
    spec = _game_spec(kind, word, call.in_group) if kind else None
    names_its_game = word in NAMES_ITS_GAME and not call.in_group  # its handler checks that game's lease
    if isinstance(game_id, int) and not names_its_game and not await leases.ensure(game_id):
        if word in ROUTING_WORDS:
            directory.reread_soon(game_id)  # it may change the game's routes: know them soon
        return True  # another process serves this game and answers
    try:
        if spec is not None or word in KERNEL:
            check_length(call.rest, spec if spec is not None else KERNEL[word].spec)
            if call.in_group and isinstance(game_id, int) and kind is not None and kind.private_signup:
                _guard_secret(call, game_id, spec)
        if spec is not None and isinstance(game_id, int):
            try:
                await _run_game_command(call, game_id, spec)
            except _KernelWord:  # a game's alias of a kernel word, before the start: the kernel's command
                await KERNEL[word].fn(call)
        elif word in KERNEL:
            await KERNEL[word].fn(call)
        elif kind and _game_spec(kind, word, not call.in_group):
            other = _game_spec(kind, word, not call.in_group)
            assert other is not None and isinstance(game_id, int)
            if call.in_group and kind.private_signup:  # a private command written in the group can hint at a role
                raise Unmasking(_place_hint(other, call) + "（在群里发会暴露身份，已尝试撤回原消息）")
            raise Rejected(_place_hint(other, call))
        elif not call.in_group and _any_game_word(word):
            _need_game(call, game_id)  # a game's command from someone in no game (or several): say so
            return False
        elif call.in_group and game_id is None:
            return False  # a group without a game: stay silent (the bot only sits there)
        else:
            _, asker = await asker_of(call)
            await call.say(unknown_text(word, kind, asker), game_id if isinstance(game_id, int) else None)
    except Rejected as exc:
        await refused(call.origin, exc, game_id if isinstance(game_id, int) else None)
        if isinstance(exc, Unmasking) and isinstance(game_id, int):
            await _recall(call, game_id)
    except Ignored:
        pass
    except Exception as exc:
        logger.opt(exception=exc).error(f"command /{word} failed")
        await call.say("机器人出错了，这条命令没有生效（已记录）。请稍后再试，或联系主持。")
    return True


MENTION = re.compile(r"@\d+")


def _guard_secret(call: Call, game_id: int, spec: CommandSpec | None) -> None:
    """A game with secret aliases: refuse, in the group, a command that would
    join the sender's or a mentioned QQ account to a seat or alias (a player's
    own command, a mention); it changes nothing, and the leaking message is
    recalled where the bot may (it tries; QQ allows it to group admins)."""
    mention = MENTION.search(call.rest)
    if not mention and not (spec is not None and spec.who == "player"):
        return
    if mention:
        raise Unmasking("本游戏马甲保密，在群里 @ 玩家会暴露马甲。请私聊我发送这条命令，用座位号或马甲指名。（已尝试撤回原消息）")
    usage = spec.usage if spec is not None and spec.usage else "/" + call.word
    raise Unmasking(f"本游戏马甲保密，请私聊我发送 {usage}（在群里发会暴露你的马甲，这次没有生效）。（已尝试撤回原消息）")


class Unmasking(Rejected):
    """Refused because the message itself would unmask its sender: it is recalled too."""


async def _recall(call: Call, game_id: int) -> None:
    """Queue a one-shot delete_msg of the leaking message (no retries, no notice)."""
    if call.origin.message_id is None:
        return
    await enqueue_api(call.origin.group_id or "", "delete_msg", {"message_id": int(call.origin.message_id)},
                      game_id=game_id, self_id=call.origin.self_id, now=call.now, once=True)
    wake_outbox()


def _any_game_word(word: str) -> bool:
    return any(word in spec.words for k in kinds() for spec in k.commands)


async def refused(origin: Origin, exc: Rejected, game_id: int | None) -> None:
    """A command was refused: nothing of it was applied; say why."""
    await reply(origin, str(exc), game_id=game_id)


def _game_spec(kind: GameKind, word: str, in_group: bool) -> CommandSpec | None:
    for spec in kind.commands:
        if word in spec.words and (spec.where == "any" or (spec.where == "group") == in_group):
            return spec
    return None


def _place_hint(spec: CommandSpec, call: Call) -> str:
    if spec.where == "private":
        return f"请私聊我发送 {spec.usage or '/' + spec.words[0]}（这条命令只在私聊里用）。"
    return f"请在游戏群里发送 {spec.usage or '/' + spec.words[0]}。"


def _check_who_where(spec: CommandSpec, txn: Txn, call: Call) -> Actor:
    if spec.where == "private" and call.in_group:
        raise Rejected(_place_hint(spec, call))
    if spec.where == "group" and not call.in_group:
        raise Rejected(_place_hint(spec, call))
    return check_actor(spec, txn, call.origin.user_id, private=call.origin.private, chat=call.origin.chat)


def check_actor(spec: CommandSpec, txn: Txn, uid: str, *, private: bool, chat: str | None,
                ended: str = "这局游戏已经结束了。") -> Actor:
    """Who may run ``spec`` in this game now (a chat command or a web page action)."""
    player = txn.player_of(uid)
    is_host = txn.is_host(uid)
    actor = Actor(uid, player.seat if player else None, is_host, private, chat)
    check_who(spec, actor, txn.kind.engine)  # the table's permission, in the game's words
    if spec.who == "player" and spec.alive_only and player is not None and not player.alive:
        raise Rejected("你已出局，不能再这样做。")
    if txn.game.status == "paused" and not is_host:
        raise Rejected("游戏已暂停，请等待主持发送 /继续。")
    if txn.game.status == "signup":
        raise Rejected("游戏还没开始（报名中），请等主持发送 /开始。")
    if txn.game.status == "ended":
        raise Rejected(ended)
    return actor


class _KernelWord(Exception):
    """A kernel word a game takes over only once it runs (/结束 in 88人场)."""


async def _run_game_command(call: Call, game_id: int, spec: CommandSpec) -> None:
    if spec.query:
        await _run_query(call, game_id, spec)
        return

    async def work(txn: Txn) -> None:
        if txn.game.status == "signup" and call.word in KERNEL and call.word != spec.words[0]:
            raise _KernelWord()
        actor = _check_who_where(spec, txn, call)
        args = parse_args(spec, call.rest, lambda: txn.roster)
        await txn.step("apply", origin=call.origin, now=call.now, actor=actor, cmd=Command(spec.name, args))
        if audited:  # a game's command that belongs in the audit log (/日志)
            await txn.audit(call.origin.user_id, spec.name, f"/{spec.words[0]} {call.rest.strip()}"[:200], at=call.now)

    audited = spec.audit or bool(spec.extra.get("audit"))
    await in_game(game_id, _superusers(), work, quick=not audited)  # quick: the step writes everything, at its end


async def _run_query(call: Call, game_id: int, spec: CommandSpec) -> None:
    """A read-only command: the game is read outside any write transaction, the
    rule runs on a copy, nothing is logged and the game row is never written;
    only the answers are queued (with the message's delivery key, so a repeated
    delivery is not answered twice)."""
    txn = await Txn.open(game_id, _superusers())
    actor = _check_who_where(spec, txn, call)
    args = parse_args(spec, call.rest, lambda: txn.roster)
    with collected() as queued:
        await txn.query(actor, Command(spec.name, args), call.origin, call.now)
    # written once what it read is; the game's next command need not wait for that
    await commit_at_once(call.now, [], queued, game_id=game_id, changes=False, go_on=lambda: hand_over(game_id))
    wake_outbox()


def _plain_route(origin: Origin) -> tuple[int, CommandSpec | None] | None:
    """The game and plain-text spec a non-command message goes to, if any:
    private text from a player, or group chat from a player in the game group.
    In a secret-alias game private text may also be speech under the alias
    (spec None: speech only)."""
    if origin.source == "group":
        game_id = directory.group_game.get(origin.group_id or "")
        if game_id is None or origin.user_id not in directory.members.get(game_id, set()):
            return None
        places = ("group", "any")
    else:
        found = directory.private_game(origin.user_id)
        if not isinstance(found, int):
            return None
        game_id, places = found, ("private", "any")
    kind = _kind_of(game_id)
    spec = next((s for s in kind.commands if not s.words and s.where in places), None) if kind else None
    if spec is None and origin.private and kind is not None and kind.private_signup:
        return game_id, None  # maybe speech under the alias (if the host turned plain speech on)
    return (game_id, spec) if spec else None


async def _plain_text(origin: Origin, now: datetime, text: str, images: int, game_id: int, spec: CommandSpec | None) -> None:
    """Non-command text goes to the game's plain-text route; private text the
    game has no use for is speech under the alias where the host allows it."""

    async def work(txn: Txn) -> None:
        player = txn.player_of(origin.user_id)
        if player is None or txn.game.status not in ("running", "paused"):
            raise Ignored()  # while paused, text still reaches the game (a draft must not lose it)
        check_length(text, spec)
        plain_speech = origin.private and txn.kind.private_signup and txn.game.settings.get("anon_plain", False)
        if spec is None:
            if not plain_speech:
                raise Ignored()
            await _speak(txn, player, text, images, now)
            return
        actor = Actor(origin.user_id, player.seat, txn.is_host(origin.user_id), origin.private, origin.chat)
        cmd = Command(spec.name, plain_args(spec, text, images))
        try:
            await txn.step("apply", origin=origin, now=now, actor=actor, cmd=cmd)
        except Ignored:
            if not plain_speech:
                raise
            await _speak(txn, player, text, images, now)

    try:
        await in_game(game_id, _superusers(), work)
    except Rejected as exc:
        await refused(origin, exc, game_id)
    except Ignored:
        pass
    except Exception as exc:
        logger.opt(exception=exc).error("plain text failed")
        if origin.private:
            await reply(origin, "机器人出错了，这段文字没有记下（已记录）。请稍后再试，或联系主持。", game_id=game_id)

