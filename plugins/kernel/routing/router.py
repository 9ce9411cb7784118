"""The one router: reads every message, finds the command word in the kernel's table or in the
game's, checks who and where, and runs it in the game's arrival order as one unit of work
(``unit.py``). Non-command text goes to the game's plain-text route."""

from __future__ import annotations

import asyncio
import re

from nonebot import get_bots, on_message
from nonebot.adapters.onebot.v11 import Bot, MessageEvent
from nonebot.log import logger
from nonebot.matcher import current_bot, current_event, current_matcher

from plugins.gamekit.contract import Actor, Command, CommandSpec, Ignored, Rejected, check_who

from ..commands.info import asker_of
from ..commands.speech import speak_as
from ..commands.table import KERNEL, Call, game_for, kind_of, need_game, superusers
from ..config import kernel_config
from ..directory import directory, note_contact
from ..helptext import unknown_text
from ..leases import leases
from ..messages import api_row
from ..metrics import command_done
from ..models import Delivery
from ..order import Turn, game_lock, ordered
from ..origin import Handling, Origin
from ..parse import parse_args, plain_args, split_command
from ..registry import GameKind, kinds
from ..unit import in_game, reply, run_query, write
from ..work import Work
from ..writeset import WriteSet
from .admission import parse_event
from .events import ARRIVAL_FIELD, NAMES_ITS_GAME, ROUTING_WORDS, arrival_of, command_starts, origin_of, text_of
from .kept import Arrival, keep, take

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
        return  # delivered before, or another process's game (kept)
    if await route(bot, event, arrival):
        matcher.stop_propagation()


class _Message:
    """A message being routed: its text, command and how it is being handled."""

    def __init__(self, bot: Bot, event: MessageEvent, arrival: Arrival) -> None:
        self.bot, self.event, self.arrival = bot, event, arrival
        ticket, now = arrival
        self.raw, self.images = text_of(event)
        parsed = split_command(self.raw, command_starts())
        self.origin = origin = origin_of(event)
        if parsed is None and self.raw.strip() in BARE_HELP and (
                origin.private or directory.group_game.get(origin.group_id or "")):
            parsed = split_command("/帮助")  # 帮助 / 菜单 without the slash: answered where commands are
        self.handling = Handling.of(origin, now)  # what this message causes records its delivery key (exactly once)
        self.call = Call(bot, event, self.handling, ticket, parsed.word, parsed.rest) if parsed else None

    def place(self) -> tuple[int | None, tuple[int, CommandSpec | None] | None]:
        """(game, plain-text route) it goes to in a game's arrival order by the routes known now;
        game None: nowhere (plain text), or a command run inside the routing step (``_dispatch``)."""
        if self.call is None:
            plain = _plain_route(self.origin)
            return (None, None) if plain is None else (plain[0], plain)
        target = game_for(self.call)
        return (target, None) if self.call.word not in ROUTING_WORDS and isinstance(target, int) else (None, None)


async def route(bot: Bot, event: MessageEvent, arrival: Arrival) -> bool:
    """Route one message and run it; True when it was handled (no later matcher needs it)."""
    m = _Message(bot, event, arrival)
    origin, ticket = m.origin, arrival[0]
    async with ordered(ticket):  # the routing step, in arrival order
        if origin.source == "group":
            await directory.ensure_group(origin.group_id or "")
        else:
            await directory.ensure_user(origin.user_id)
        game, plain = m.place()
        if game is None:
            if origin.private:
                await note_contact(origin.user_id, origin.self_id, m.arrival[1])
            return m.call is not None and await _command(m.call, game_for(m.call))  # changes routing: done here
        if not await leases.ensure(game):  # another process serves it: kept (a takeover runs it)
            if leases.shared:
                keep(game, arrival, origin.self_id, event)
            return True
        m.handling.turn = Turn(game, game_lock(game).reserve(ticket))
    return await _run(m, game, plain)


async def _run(m: _Message, game: int, plain: tuple[int, CommandSpec | None] | None, replayed: bool = False) -> bool:
    """Then in the game's own arrival order (its turn reserved): games never wait for each other."""
    origin, turn = m.origin, m.handling.turn
    assert turn is not None
    if origin.private:
        await note_contact(origin.user_id, origin.self_id, m.arrival[1])  # a write: outside the routing step
    await turn.take()
    try:
        if replayed and m.handling.key and await Delivery.exists(key=m.handling.key):
            return True  # the process that served the game before applied it
        if plain is not None:
            await _plain_text(m.handling, m.raw, m.images, *plain)
            return True
        assert m.call is not None
        return await _command(m.call, game)
    finally:
        turn.release()


def replay(game_id: int) -> int:
    """This process now serves the game: the messages it kept of it (``kept.py``) take their places
    in the game's arrival order now, ahead of any that arrived after them, and run; one the
    process before applied is skipped (its delivery key is written). How many were kept."""
    bots = get_bots()
    items = take(game_id)
    for item in items:
        bot = bots.get(item.self_id)
        event = item.event if isinstance(item.event, MessageEvent) else parse_event(
            {**item.event, ARRIVAL_FIELD: item.arrival})
        if not isinstance(bot, Bot) or not isinstance(event, MessageEvent):
            logger.warning(f"kernel: a kept message of game {game_id} has no account to answer through")
            continue
        m = _Message(bot, event, item.arrival)
        game, plain = m.place()
        task: asyncio.Task
        if game != game_id:
            task = asyncio.create_task(_replay_routing(m))
        else:
            m.handling.turn = Turn(game_id, game_lock(game_id).reserve(item.ticket))
            task = asyncio.create_task(_run(m, game_id, plain, replayed=True))
        _replaying.add(task)
        task.add_done_callback(_replaying.discard)
    if items:
        logger.info(f"kernel: game {game_id} taken over: {len(items)} kept messages run in arrival order")
    return len(items)


_replaying: set[asyncio.Task] = set()


async def _replay_routing(m: _Message) -> None:
    """A kept message that changes routing: in its place among the routing steps."""
    async with ordered(m.arrival[0]):
        if m.handling.key and await Delivery.exists(key=m.handling.key):
            return
        if m.call is not None:
            await _command(m.call, game_for(m.call))


async def _command(call: Call, game_id: int | list[int] | None) -> bool:
    """``_dispatch``, counted in the metrics when handled."""
    if not await _dispatch(call, game_id):
        return False
    command_done(kind_of(game_id), call.word, call.now, KERNEL)
    return True


def _cap(spec: CommandSpec | None) -> int:
    cfg = kernel_config()
    if spec is not None and spec.max_chars:
        return spec.max_chars
    return cfg.max_host_text_chars if spec is not None and spec.who == "host" else cfg.max_text_chars


def check_length(text: str, spec: CommandSpec | None) -> None:
    cap = _cap(spec)
    if len(text) > cap:
        raise Rejected(f"太长了：这条 {len(text)} 字，最多 {cap} 字。请删短，或分几条发送。")


async def _dispatch(call: Call, game_id: int | list[int] | None) -> bool:
    """Run the command for the game routing chose; False when the word is not ours."""
    word = call.word
    kind = kind_of(game_id)
    spec = game_spec(kind, word, call.in_group) if kind else None
    names_its_game = word in NAMES_ITS_GAME and not call.in_group  # its handler checks that game's lease
    if isinstance(game_id, int) and not names_its_game and not await leases.ensure(game_id):
        if word in ROUTING_WORDS:
            directory.reread_soon(game_id)  # it may change the game's routes: know them soon
        if leases.shared:
            keep(game_id, (call.ticket, call.now), call.origin.self_id, call.event)
        return True  # another process serves this game and answers (kept meanwhile)
    gid = game_id if isinstance(game_id, int) else None
    try:
        if spec is not None or word in KERNEL:
            check_length(call.rest, spec if spec is not None else KERNEL[word].spec)
            if call.in_group and gid is not None and kind is not None and kind.private_signup:
                _guard_secret(call, spec)
        if spec is not None and gid is not None:
            try:
                await _game_command(call, gid, spec)
            except _KernelWord:  # a game's alias of a kernel word, before the start: the kernel's command
                await KERNEL[word].fn(call)
        elif word in KERNEL:
            await KERNEL[word].fn(call)
        elif kind and game_spec(kind, word, not call.in_group):
            other = game_spec(kind, word, not call.in_group)
            assert other is not None
            if call.in_group and kind.private_signup:  # a private command written in the group can hint at a role
                raise Unmasking(place_hint(other) + "（在群里发会暴露身份，已尝试撤回原消息）")
            raise Rejected(place_hint(other))
        elif not call.in_group and _any_game_word(word):
            need_game(call, game_id)  # a game's command from someone in no game (or several): say so
            return False
        elif call.in_group and game_id is None:
            return False  # a group without a game: stay silent (the bot only sits there)
        else:
            _, asker = await asker_of(call)
            await call.say(unknown_text(word, kind, asker), gid)
    except Rejected as exc:
        await refused(call.handling, exc, gid)
        if isinstance(exc, Unmasking) and gid is not None:
            await _recall(call, gid)
    except Ignored:
        pass
    except Exception as exc:
        logger.opt(exception=exc).error(f"command /{word} failed")
        await call.say("机器人出错了，这条命令没有生效（已记录）。请稍后再试，或联系主持。")
    return True


MENTION = re.compile(r"@\d+")


def _guard_secret(call: Call, spec: CommandSpec | None) -> None:
    """A game with secret aliases: refuse, in the group, a command that would join the sender's or
    a mentioned QQ account to a seat or alias (a player's own command, a mention); it changes
    nothing, and the leaking message is recalled where the bot may (QQ allows it to group admins)."""
    mention = MENTION.search(call.rest)
    if not mention and not (spec is not None and spec.who == "player"):
        return
    if mention:
        raise Unmasking("本游戏马甲保密，在群里 @ 玩家会暴露马甲。请私聊我发送这条命令，用座位号或马甲指名。（已尝试撤回原消息）")
    usage = spec.usage if spec is not None and spec.usage else "/" + call.word
    raise Unmasking(f"本游戏马甲保密，请私聊我发送 {usage}（在群里发会暴露你的马甲，这次没有生效）。（已尝试撤回原消息）")


async def refused(handling: Handling, exc: Rejected, game_id: int | None) -> None:
    """A command was refused: nothing of it was applied; say why."""
    await reply(handling, str(exc), game_id=game_id)


class Unmasking(Rejected):
    """Refused because the message itself would unmask its sender: it is recalled too."""


async def _recall(call: Call, game_id: int) -> None:
    """Queue a one-shot delete_msg of the leaking message (no retries, no notice)."""
    origin = call.origin
    if origin.message_id is None:
        return
    ws = WriteSet(outbox=[api_row(origin.group_id or "", "delete_msg", {"message_id": int(origin.message_id)},
                                  game_id=game_id, self_id=origin.self_id, now=call.now, once=True)])
    await write(Handling(origin, call.now), ws)


def _any_game_word(word: str) -> bool:
    return any(word in spec.words for k in kinds() for spec in k.commands)


def game_spec(kind: GameKind, word: str, in_group: bool) -> CommandSpec | None:
    for spec in kind.commands:
        if word in spec.words and (spec.where == "any" or (spec.where == "group") == in_group):
            return spec
    return None


def place_hint(spec: CommandSpec) -> str:
    if spec.where == "private":
        return f"请私聊我发送 {spec.usage or '/' + spec.words[0]}（这条命令只在私聊里用）。"
    return f"请在游戏群里发送 {spec.usage or '/' + spec.words[0]}。"


def _check_who_where(spec: CommandSpec, work: Work, call: Call) -> Actor:
    if spec.where == "private" and call.in_group:
        raise Rejected(place_hint(spec))
    if spec.where == "group" and not call.in_group:
        raise Rejected(place_hint(spec))
    return check_actor(spec, work, call.origin.user_id, private=call.origin.private, chat=call.origin.chat)


def check_actor(spec: CommandSpec, work: Work, uid: str, *, private: bool, chat: str | None,
                ended: str = "这局游戏已经结束了。") -> Actor:
    """Who may run ``spec`` in this game now (a chat command or a web page action)."""
    player = work.player_of(uid)
    is_host = work.is_host(uid)
    actor = Actor(uid, player.seat if player else None, is_host, private, chat)
    check_who(spec, actor, work.kind.engine)  # the table's permission, in the game's words
    if spec.who == "player" and spec.alive_only and player is not None and not player.alive:
        raise Rejected("你已出局，不能再这样做。")
    if work.game.status == "paused" and not is_host:
        raise Rejected("游戏已暂停，请等待主持发送 /继续。")
    if work.game.status == "signup":
        raise Rejected("游戏还没开始（报名中），请等主持发送 /开始。")
    if work.game.status == "ended":
        raise Rejected(ended)
    return actor


class _KernelWord(Exception):
    """A kernel word a game takes over only once it runs (/结束 in 88人场)."""


async def _game_command(call: Call, game_id: int, spec: CommandSpec) -> None:
    if spec.query:
        def check(work: Work) -> tuple[Actor, Command]:
            actor = _check_who_where(spec, work, call)
            return actor, Command(spec.name, parse_args(spec, call.rest, lambda: work.roster))

        await run_query(game_id, call.handling, superusers(), check)
        return

    audited = spec.audit or bool(spec.extra.get("audit"))

    async def run(work: Work) -> None:
        if work.game.status == "signup" and call.word in KERNEL and call.word != spec.words[0]:
            raise _KernelWord()
        actor = _check_who_where(spec, work, call)
        args = parse_args(spec, call.rest, lambda: work.roster)
        await work.step("apply", origin=call.origin, now=call.now, actor=actor, cmd=Command(spec.name, args))
        if audited:  # a game's command that belongs in the audit log (/日志)
            work.audit(call.origin.user_id, spec.name, f"/{spec.words[0]} {call.rest.strip()}"[:200], at=call.now)

    await in_game(game_id, call.handling, superusers(), run, quick=True)


def _plain_route(origin: Origin) -> tuple[int, CommandSpec | None] | None:
    """The game and plain-text spec a non-command message goes to, if any: private text from a
    player, or group chat from a player in the game group. In a secret-alias game private text
    may also be speech under the alias (spec None: speech only)."""
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
    kind = kind_of(game_id)
    spec = next((s for s in kind.commands if not s.words and s.where in places), None) if kind else None
    if spec is None and origin.private and kind is not None and kind.private_signup:
        return game_id, None  # maybe speech under the alias (if the host turned plain speech on)
    return (game_id, spec) if spec else None


async def _plain_text(handling: Handling, text: str, images: int, game_id: int, spec: CommandSpec | None) -> None:
    """Non-command text goes to the game's plain-text route; private text the game has no use for
    is speech under the alias where the host allows it."""
    origin, now = handling.origin, handling.now

    async def run(work: Work) -> None:
        player = work.player_of(origin.user_id)
        if player is None or work.game.status not in ("running", "paused"):
            raise Ignored()  # while paused, text still reaches the game (a draft must not lose it)
        check_length(text, spec)
        plain_speech = origin.private and work.kind.private_signup and work.game.settings.get("anon_plain", False)
        if spec is None:
            if not plain_speech:
                raise Ignored()
            await speak_as(work, player, text, images)
            return
        actor = Actor(origin.user_id, player.seat, work.is_host(origin.user_id), origin.private, origin.chat)
        try:
            await work.step("apply", origin=origin, now=now, actor=actor, cmd=Command(spec.name, plain_args(spec, text, images)))
        except Ignored:
            if not plain_speech:
                raise
            await speak_as(work, player, text, images)

    try:
        await in_game(game_id, handling, superusers(), run)
    except Rejected as exc:
        await refused(handling, exc, game_id)
    except Ignored:
        pass
    except Exception as exc:
        logger.opt(exception=exc).error("plain text failed")
        if origin.private:
            await reply(handling, "机器人出错了，这段文字没有记下（已记录）。请稍后再试，或联系主持。", game_id=game_id)
