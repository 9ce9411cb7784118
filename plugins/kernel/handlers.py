"""Chat routing: one router reads every message, finds the command word in the
kernel's table or in the game's table, checks who and where, and runs it in
the game's order and transaction."""

from __future__ import annotations

import re
import secrets
import tomllib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from nonebot import get_driver, get_plugin_config, on_message, on_notice, on_request
from nonebot.matcher import Matcher
from nonebot.adapters.onebot.v11 import (
    Bot,
    GroupMessageEvent,
    GroupIncreaseNoticeEvent,
    GroupRequestEvent,
    MessageEvent,
)
from nonebot.log import logger
from nonebot.message import event_preprocessor
from nonebot.exception import IgnoredException
from nonebot.typing import T_State
from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from . import cards as cardmath
from .clean import clean_text, fold_alias
from .clock import fmt_local
from .commands import CommandSpec
from .config import Config
from .engine import KERNEL_BACK, KERNEL_OUT, PHASE_TIMER, Actor, Command, Ignored, Rejected
from .export import export_game
from .models import Audit, Card, Chat, CommandLog, Focus, Game, Host, Player, Timer
from .outbox import enqueue, enqueue_api
from .parse import parse_args, split_command
from .registry import GameKind, find_kind, get_kind, kinds
from .roster import check_alias
from .settings import KERNEL_SETTINGS, deep_merge
from .leases import leases
from .runtime import (
    NotOwner,
    alt_of,
    Origin,
    Txn,
    claim_delivery,
    delivery_committed,
    directory,
    game_tz,
    handling,
    in_game,
    note_contact,
    ordered,
    reply,
    stamp,
    utcnow,
    wake_outbox,
)

# ---- duplicate events --------------------------------------------------------

_SEEN: dict[str, None] = {}
_SEEN_MAX = 20000


def _event_key(event: MessageEvent) -> str:
    peer = f"g{event.group_id}" if isinstance(event, GroupMessageEvent) else f"p{event.user_id}"
    return f"{event.self_id}:{peer}:{event.message_id}"


@event_preprocessor
async def _stamp(event: MessageEvent, state: T_State) -> None:
    """Runs first for every message, in arrival order: drop a repeat delivery,
    take an arrival ticket and a fine receive time."""
    key = _event_key(event)
    if key in _SEEN:
        raise IgnoredException("duplicate event")
    _SEEN[key] = None
    if len(_SEEN) > _SEEN_MAX:
        for k in list(_SEEN)[: _SEEN_MAX // 2]:
            del _SEEN[k]
    state["kernel_ticket"], state["kernel_recv"] = stamp()


def _superusers() -> set[str]:
    return set(get_driver().config.superusers)


# ---- the call a handler gets --------------------------------------------------


@dataclass
class Call:
    bot: Bot
    event: MessageEvent
    origin: Origin
    ticket: int
    now: datetime
    word: str
    rest: str

    @property
    def in_group(self) -> bool:
        return isinstance(self.event, GroupMessageEvent)

    async def say(self, text: str, game_id: int | None = None) -> None:
        await reply(self.origin, text, game_id=game_id)


Handler = Callable[[Call], Awaitable[None]]


@dataclass(frozen=True)
class KernelCmd:
    spec: CommandSpec
    fn: Handler


KERNEL: dict[str, KernelCmd] = {}


def kernel_command(words: tuple[str, ...], usage: str, help: str, who: str = "anyone", where: str = "any"):
    def deco(fn: Handler) -> Handler:
        spec = CommandSpec(words=words, name=fn.__name__, who=who, where=where, usage=usage, help=help)  # type: ignore[arg-type]
        for w in words:
            KERNEL[w] = KernelCmd(spec, fn)
        return fn

    return deco


def _text_of(event: MessageEvent) -> tuple[str, int]:
    """Message as text with @mentions as '@<qq>'; and the number of pictures."""
    parts: list[str] = []
    images = 0
    for seg in event.message:
        if seg.type == "text":
            parts.append(seg.data.get("text", ""))
        elif seg.type == "at":
            parts.append(f" @{seg.data.get('qq')} ")
        elif seg.type in ("image", "mface"):
            images += 1
    return clean_text("".join(parts)), images


def _origin(event: MessageEvent) -> Origin:
    name = ""
    if isinstance(event, GroupMessageEvent):
        name = fold_alias(clean_text(event.sender.card or event.sender.nickname or ""))[:32]
        return Origin(str(event.user_id), "group", str(event.group_id), str(event.self_id), str(event.message_id), name)
    return Origin(str(event.user_id), "private", None, str(event.self_id), str(event.message_id))


# ---- routing -----------------------------------------------------------------

router = on_message(priority=1, block=False)


@router.handle()
async def _route(bot: Bot, event: MessageEvent, state: T_State, matcher: Matcher) -> None:
    raw, images = _text_of(event)
    parsed = split_command(raw)
    origin = _origin(event)
    ticket, now = state.get("kernel_ticket") or stamp()[0], state.get("kernel_recv") or utcnow()
    async with ordered(ticket):
        handling(origin)  # what this message causes records its delivery key (exactly once)
        if origin.source == "group":
            await directory.ensure_group(origin.group_id or "")
        else:
            await directory.ensure_user(origin.user_id)
            await note_contact(origin.user_id, origin.self_id, now)
        if parsed is None:
            route = _plain_route(origin)
            if route is not None:
                await _plain_text(origin, now, raw, images, *route)
            return
        call = Call(bot, event, origin, ticket, now, parsed.word, parsed.rest)
        handled = await _dispatch(call, parsed.word)
    if handled:
        matcher.stop_propagation()


def _cap(spec: CommandSpec | None) -> int:
    cfg = get_plugin_config(Config)
    if spec is not None and spec.max_chars:
        return spec.max_chars
    return cfg.max_host_text_chars if spec is not None and spec.who == "host" else cfg.max_text_chars


def check_length(text: str, spec: CommandSpec | None) -> None:
    cap = _cap(spec)
    if len(text) > cap:
        raise Rejected(f"太长了：这条 {len(text)} 字，最多 {cap} 字。请删短，或分几条发送。")


async def _dispatch(call: Call, word: str) -> bool:
    """Run the command; False when the word is not ours."""
    game_id = _game_for(call)
    kind = _kind_of(game_id)
    spec = _game_spec(kind, word, call.in_group) if kind else None
    if isinstance(game_id, int) and not await leases.ensure(game_id):
        return True  # another process serves this game and answers
    try:
        if spec is not None or word in KERNEL:
            check_length(call.rest, spec if spec is not None else KERNEL[word].spec)
            if call.in_group and isinstance(game_id, int) and kind is not None and kind.private_signup:
                _guard_secret(call, game_id, spec)
        if spec is not None and isinstance(game_id, int):
            await _run_game_command(call, game_id, spec)
        elif word in KERNEL:
            await KERNEL[word].fn(call)
        elif kind and _game_spec(kind, word, not call.in_group):
            other = _game_spec(kind, word, not call.in_group)
            assert other is not None
            await call.say(_place_hint(other, call))
        elif not call.in_group and _any_game_word(word):
            _need_game(call, game_id)  # a game's command from someone in no game (or several): say so
            return False
        else:
            return False  # not ours: stay silent
    except Rejected as exc:
        await refused(call.origin, exc, game_id if isinstance(game_id, int) else None)
        await _flush_recalls(call.now)
    except Ignored:
        pass
    except Exception as exc:  # noqa: BLE001 - a bug must still get an answer; nothing was applied
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
    _recall(call, game_id)
    if mention:
        raise Rejected("本游戏马甲保密，在群里 @ 玩家会暴露马甲。请私聊我发送这条命令，用座位号或马甲指名。（已尝试撤回原消息）")
    usage = spec.usage if spec is not None and spec.usage else "/" + call.word
    raise Rejected(f"本游戏马甲保密，请私聊我发送 {usage}（在群里发会暴露你的马甲，这次没有生效）。（已尝试撤回原消息）")


def _recall(call: Call, game_id: int) -> None:
    """Queue a one-shot delete_msg of the leaking message (no retries, no notice)."""
    if call.origin.message_id is None:
        return
    _pending_recalls.append((call.origin.group_id or "", int(call.origin.message_id), game_id, call.origin.self_id))


_pending_recalls: list[tuple[str, int, int, str]] = []


async def _flush_recalls(now: datetime) -> None:
    while _pending_recalls:
        group, mid, game_id, self_id = _pending_recalls.pop()
        await enqueue_api(group, "delete_msg", {"message_id": mid}, game_id=game_id, self_id=self_id, now=now, once=True)


def _any_game_word(word: str) -> bool:
    return any(word in spec.words for k in kinds() for spec in k.commands)


async def refused(origin: Origin, exc: Rejected, game_id: int | None) -> None:
    """A command was refused: nothing of it was applied; say why."""
    await reply(origin, str(exc), game_id=game_id)


def _game_for(call: Call) -> int | None | list[int]:
    if call.origin.source == "group":
        return directory.group_game.get(call.origin.group_id or "")
    return directory.private_game(call.origin.user_id)


def _kind_of(game_id: int | None | list[int]) -> GameKind | None:
    if not isinstance(game_id, int) or game_id not in directory.kind:
        return None
    return get_kind(directory.kind[game_id])


def _game_spec(kind: GameKind, word: str, in_group: bool) -> CommandSpec | None:
    for spec in kind.commands:
        if word in spec.words and (spec.where == "any" or (spec.where == "group") == in_group):
            return spec
    return None


def _place_hint(spec: CommandSpec, call: Call) -> str:
    if spec.where == "private":
        return f"请私聊我发送 {spec.usage or '/' + spec.words[0]}（这条命令只在私聊里用）。"
    return f"请在游戏群里发送 {spec.usage or '/' + spec.words[0]}。"


def _need_game(call: Call, game_id: int | None | list[int]) -> int:
    if isinstance(game_id, int):
        return game_id
    if call.in_group:
        raise Rejected("本群现在没有游戏。管理员可以发送 /创建 <游戏> 开一局（88人场 / 囚犯 / 大逃杀 / 联赛）。")
    if game_id is None:
        raise Rejected("你现在没有参加任何游戏。请在游戏群里报名，或私聊发送 /报名 <群号> <马甲>。")
    raise Rejected(
        "你同时在多个游戏中（群 " + "、".join(_group_of(g) for g in game_id) + "），请先发送 /切换 <群号> 选定一个。"
    )


def _group_of(game_id: int) -> str:
    return directory.main_group.get(game_id, str(game_id))


# ---- game commands (from the game's CommandSpec table) ------------------------


def _check_who_where(spec: CommandSpec, txn: Txn, call: Call) -> Actor:
    uid = call.origin.user_id
    player = txn.player_of(uid)
    is_host = txn.is_host(uid)
    if spec.where == "private" and call.in_group:
        raise Rejected(_place_hint(spec, call))
    if spec.where == "group" and not call.in_group:
        raise Rejected(_place_hint(spec, call))
    if spec.who == "host" and not is_host:
        raise Rejected("只有主持可以这样做。")
    if spec.who == "player":
        if player is None:
            raise Rejected("你不是本局玩家，不能这样做。")
        if spec.alive_only and not player.alive:
            raise Rejected("你已出局，不能再这样做。")
    if txn.game.status == "paused" and not is_host:
        raise Rejected("游戏已暂停，请等待主持发送 /继续。")
    if txn.game.status == "signup":
        raise Rejected("游戏还没开始（报名中），请等主持发送 /开始。")
    if txn.game.status == "ended":
        raise Rejected("这局游戏已经结束了。")
    return Actor(uid, player.seat if player else None, is_host, call.origin.private, call.origin.chat)


async def _run_game_command(call: Call, game_id: int, spec: CommandSpec) -> None:
    async def work(txn: Txn) -> None:
        actor = _check_who_where(spec, txn, call)
        args = parse_args(spec, call.rest, txn.roster)
        await txn.step("apply", origin=call.origin, now=call.now, actor=actor, cmd=Command(spec.name, args))
        if spec.extra.get("audit"):  # a game's command that belongs in the audit log (/日志)
            await txn.audit(call.origin.user_id, spec.name, f"/{spec.words[0]} {call.rest.strip()}"[:200], at=call.now)

    await in_game(game_id, _superusers(), work)


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
        cmd = Command(spec.name, {"text": text, "images": images})
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
    except Exception as exc:  # noqa: BLE001 - a bug must still get an answer; nothing was applied
        logger.opt(exception=exc).error("plain text failed")
        if origin.private:
            await reply(origin, "机器人出错了，这段文字没有记下（已记录）。请稍后再试，或联系主持。", game_id=game_id)


# ---- join requests to linked chats (e.g. prison rooms) -------------------------


def _group_of_game(group: str) -> tuple[int | None, object | None, str]:
    """The game a QQ group belongs to (its own group or a linked chat), that
    game's engine, and the chat's label ("main" for the game's own group)."""
    game_id = directory.group_game.get(group)
    kind = _kind_of(game_id)
    return game_id, kind.engine if kind else None, directory.chat_label.get(group, "main")

join_requests = on_request(priority=1, block=False)


@join_requests.handle()
async def _join_request(event: GroupRequestEvent) -> None:
    """Approve a join request only for whom the game lets in; others are
    rejected silently (the hosts get a note)."""
    if event.sub_type != "add":
        return
    group, uid = str(event.group_id), str(event.user_id)
    game_id, engine, chat = _group_of_game(group)
    may_join = getattr(engine, "may_join", None)
    if game_id is None or may_join is None:
        return
    ticket, now = stamp()

    async def work(txn: Txn) -> None:
        p = txn.player_of(uid)
        if txn.game.status != "running":
            return
        decision = may_join(txn.game.state, chat, p.seat if p else None)
        if decision is None:
            return  # the game leaves this request to the group's admins
        ok = bool(decision)
        params = {"flag": event.flag, "sub_type": "add", "approve": ok, "reason": "" if ok else "现在不能加入这个群"}
        await enqueue_api(group, "set_group_add_request", params, game_id=txn.game.id, self_id=txn.game.self_id, now=now)
        who = txn.who(uid)
        await txn.audit(uid, "join_request", f"{chat}：{who} {'同意' if ok else '拒绝'}", at=now)
        if not ok:
            await txn.say("hosts", f"【加群】{who} 申请加入「{chat}」，已拒绝。", None)

    async with ordered(ticket):
        await in_game(game_id, _superusers(), work)


member_joined = on_notice(priority=1, block=False)


@member_joined.handle()
async def _member_joined(event: GroupIncreaseNoticeEvent) -> None:
    """Someone joined a game's group. Whoever the game would not have let in
    (invited past the join check) is removed, hosts excepted; for a player the
    engine may answer with effects (e.g. set their group card, which QQ allows
    only once they are in)."""
    group, uid = str(event.group_id), str(event.user_id)
    game_id, engine, chat = _group_of_game(group)
    may_join = getattr(engine, "may_join", None)
    joined = getattr(engine, "joined", None)
    if game_id is None or (joined is None and may_join is None) or uid == str(event.self_id):
        return
    ticket, now = stamp()

    async def work(txn: Txn) -> None:
        p = txn.player_of(uid)
        if txn.game.status != "running":
            return
        who = txn.who(uid)
        if may_join and may_join(txn.game.state, chat, p.seat if p else None) is False and not txn.is_host(uid):
            await txn.kick(group, uid, now)
            await txn.audit(uid, "removed", f"{chat}：{who}", at=now)
            await txn.say("hosts", f"【加群】{who} 进入了「{chat}」，但现在不该在那里，已移出。", None)
            return
        if p is None or joined is None:
            return
        txn.joiner[p.seat] = uid
        effects = joined(txn.game.state, chat, p.seat)
        await txn.apply_effects(list(effects), txn.game.last_seq, Origin(uid, "kernel"), now)
        await txn.audit(uid, "joined", f"{chat}：{who}", at=now)

    async with ordered(ticket):
        await in_game(game_id, _superusers(), work)


# ---- kernel commands -----------------------------------------------------------


def _is_group_admin(call: Call) -> bool:
    ev = call.event
    return isinstance(ev, GroupMessageEvent) and ev.sender.role in ("owner", "admin")


async def _host_txn(call: Call, work: Callable[[Txn], Awaitable[None]], *, game_id: int | None = None) -> None:
    gid = game_id if game_id is not None else _need_game(call, _game_for(call))

    async def guarded(txn: Txn) -> None:
        if not txn.is_host(call.origin.user_id):
            raise Rejected("只有主持可以这样做。")
        await work(txn)

    await in_game(gid, _superusers(), guarded)


@kernel_command(("创建",), "/创建 <游戏>", "开一局游戏（88人场 / 囚犯 / 大逃杀 / 联赛），发起人成为主持", where="group")
async def create(call: Call) -> None:
    if not call.in_group:
        raise Rejected("请在要开游戏的群里发送 /创建 <游戏>。")
    uid = call.origin.user_id
    if uid not in _superusers() and not _is_group_admin(call):
        raise Rejected("只有群主、群管理员或机器人管理员可以开游戏。")
    word = call.rest.strip()
    kind = find_kind(word) if word else None
    if kind is None:
        names = " / ".join(k.names[0] for k in kinds())
        raise Rejected(f"请写明游戏：/创建 <游戏>，可选：{names}。")
    group = call.origin.group_id or ""
    if group in directory.group_game:
        raise Rejected("本群已有一局游戏在进行或报名中，一个群同时只能有一局。主持可先 /结束。")
    try:
        settings = kind.engine.check_settings({})
    except Rejected as exc:
        raise Rejected(f"默认配置有误：{exc}") from None
    try:
        game = await _create_game(call, kind, settings, group, uid)
    except IntegrityError:  # another process opened a game here at the same moment
        await directory.ensure_group(group)
        raise Ignored() from None
    await directory.refresh(game.id)
    await leases.ensure(game.id)
    wake_outbox()


async def _create_game(call: Call, kind: GameKind, settings: dict, group: str, uid: str) -> Game:
    async with in_transaction():
        await claim_delivery(call.now)
        game = await Game.create(
            group_id=group,
            live_group=group,
            self_id=call.origin.self_id,
            kind=kind.key,
            seed=secrets.token_hex(16),
            settings={**settings, "timezone": settings.get("timezone", _default_tz())},
            created_by=uid,
        )
        await Host.create(game=game, user_id=uid, added_by=uid)
        await Audit.create(game=game, actor=uid, action="create", detail=kind.key, at=call.now)
        signup = (
            f"私聊我发送 /报名 {group} <马甲> 报名（马甲保密）"
            if kind.private_signup
            else "发送 /报名 [马甲] 报名"
        )
        await enqueue(
            "group",
            group,
            f"【{kind.title}】开局了，主持：{call.origin.name or uid}。{kind.intro}\n{signup}，/名单 查看名单，/帮助 查看命令。",
            game_id=game.id,
            self_id=call.origin.self_id,
        )
    delivery_committed()
    return game


def _default_tz() -> str:
    from nonebot import get_plugin_config

    from .config import Config

    return get_plugin_config(Config).game_timezone


@kernel_command(("报名",), "/报名 [马甲]（私聊：/报名 <群号> <马甲>）", "报名参加本群的游戏")
async def signup(call: Call) -> None:
    rest = call.rest.strip()
    if call.in_group:
        gid = directory.group_game.get(call.origin.group_id or "")
        alias = rest or call.origin.name
    else:
        parts = rest.split(maxsplit=1)
        if not parts or not parts[0].isdigit():
            raise Rejected("私聊报名请写群号和马甲：/报名 <群号> <马甲>")
        await directory.ensure_group(parts[0])
        gid = directory.group_game.get(parts[0])
        alias = parts[1] if len(parts) > 1 else ""
    if gid is None:
        raise Rejected("这个群现在没有报名中的游戏。")
    if not await leases.ensure(gid):
        raise NotOwner()
    kind = _kind_of(gid)
    assert kind is not None
    if call.in_group and kind.private_signup:
        tip = "（刚才写在群里的马甲已经公开了，建议换一个）" if rest else ""
        raise Rejected(f"本游戏马甲保密，请私聊我发送：/报名 {call.origin.group_id} <马甲>{tip}")
    if not call.in_group and not rest.split(maxsplit=1)[1:]:
        raise Rejected(f"请写上马甲：/报名 {rest} <马甲>")

    async def work(txn: Txn) -> None:
        g = txn.game
        if g.status != "signup":
            raise Rejected("游戏已经开始，不能再报名。")
        uid = call.origin.user_id
        if txn.player_of(uid):
            p = txn.player_of(uid)
            raise Rejected(f"你已经报名了（{p.seat}号 {p.alias}）。")  # type: ignore[union-attr]
        if len(txn.players) >= kind.max_players:
            raise Rejected(f"人数已满（{kind.max_players} 人）。")
        name = check_alias(alias, [p.alias for p in txn.players])
        seat = len(txn.players) + 1
        p = await Player.create(game_id=g.id, user_id=uid, seat=seat, alias=name)
        txn.players.append(p)
        await txn.audit(uid, "signup", f"{seat}号 {name}", at=call.now)
        await txn.say("reply", f"报名成功：{seat}号「{name}」。发送 /退出报名 可退出。", call.origin)
        txn.refresh_directory = True

    await in_game(gid, _superusers(), work)


@kernel_command(("退出报名",), "/退出报名", "开始前退出报名")
async def leave(call: Call) -> None:
    gid = _need_game(call, _game_for(call))

    async def work(txn: Txn) -> None:
        if txn.game.status != "signup":
            raise Rejected("游戏已经开始，不能退出报名。有特殊情况请联系主持。")
        p = txn.player_of(call.origin.user_id)
        if p is None:
            raise Rejected("你还没有报名。")
        seat = p.seat
        await p.delete()
        for q in txn.players:
            if q.seat > seat:
                q.seat -= 1
                await q.save()
        txn.players = [q for q in txn.players if q.id != p.id]
        await txn.audit(call.origin.user_id, "leave", f"{seat}号 {p.alias}", at=call.now)
        await txn.say("reply", f"已退出报名。后面的玩家座位号依次前移，现有 {len(txn.players)} 人。", call.origin)
        txn.refresh_directory = True

    await in_game(gid, _superusers(), work)


@kernel_command(("资料",), "/资料 [项目=内容 …]", "私聊：开始前填写报名资料（如 随机号码=123 第一志愿=某角色）", where="private")
async def profile(call: Call) -> None:
    if call.in_group:
        raise Rejected("报名资料请私聊我填写：/资料 项目=内容")
    gid = _need_game(call, _game_for(call))
    kind = _kind_of(gid)
    assert kind is not None
    fields_ = {f.label: f for f in kind.profile_fields}
    if not fields_:
        raise Rejected(f"{kind.title}不需要填写报名资料。")
    pairs = [part for part in call.rest.replace("＝", "=").split() if part]

    async def work(txn: Txn) -> None:
        p = txn.player_of(call.origin.user_id)
        if p is None:
            raise Rejected("请先报名，再填写资料。")
        data = dict(p.profile or {})
        if pairs:
            if txn.game.status != "signup":
                raise Rejected("游戏已经开始，资料不能再改。")
            for part in pairs:
                label, sep, value = part.partition("=")
                f = fields_.get(label)
                if not sep or f is None:
                    raise Rejected(f"看不懂「{part}」。可填：{'、'.join(fields_)}，写成 项目=内容。")
                if f.kind == "int":
                    if not value.isdigit() or not f.low <= int(value) <= f.high:
                        raise Rejected(f"{label} 应为 {f.low}–{f.high} 的整数。")
                    data[f.key] = int(value)
                else:
                    if not value or len(value) > 32:
                        raise Rejected(f"{label} 请写 1–32 个字。")
                    data[f.key] = value
            p.profile = data
            await p.save()
            await txn.audit(call.origin.user_id, "profile", f"{p.seat}号：{'、'.join(pairs)}", at=call.now)
        shown = "，".join(f"{f.label}：{data.get(f.key, '未填')}" for f in kind.profile_fields)
        head = "已保存。" if pairs else ""
        await txn.say("reply", f"{head}你的报名资料（{p.seat}号「{p.alias}」）：{shown}。", call.origin)

    await in_game(gid, _superusers(), work)


@kernel_command(("小号",), "/小号 <QQ号>（/小号 无 取消）", "私聊：登记一个小号，用它进审讯房间群（只有主持看得到）", where="private")
async def alt_account(call: Call) -> None:
    if call.in_group:
        raise Rejected("小号请私聊我登记：/小号 <QQ号>（写在群里会暴露，建议换一个小号）。")
    gid = _need_game(call, _game_for(call))
    kind = _kind_of(gid)
    if kind is None or not kind.extra.get("alt_accounts"):
        raise Rejected(f"{kind.title if kind else '这个游戏'}不需要小号。")
    qq = call.rest.strip()
    if qq == call.origin.self_id:
        raise Rejected("那是机器人自己的 QQ 号，请写你的小号。")
    if qq != "无" and not (qq.isdigit() and len(qq) <= 12):
        raise Rejected("请写小号的 QQ 号（数字）：/小号 123456789；取消写 /小号 无。")

    async def work(txn: Txn) -> None:
        p = next((q for q in txn.players if q.user_id == call.origin.user_id), None)
        if p is None:
            raise Rejected("请先用报名时的 QQ 报名，再登记小号。")
        if qq == p.user_id:
            raise Rejected("这就是你报名用的 QQ，请写另一个号。")
        if qq != "无" and (txn.is_host(qq) or any(qq in (q.user_id, alt_of(q)) for q in txn.players if q.id != p.id)):
            raise Rejected("这个 QQ 号已被本局其他人使用，请换一个。")
        hook = getattr(txn.kind.engine, "may_change_alt", None)
        why = hook(txn.game.state) if hook and txn.game.state is not None else None
        if why:
            raise Rejected(why)
        data = dict(p.profile or {})
        if qq == "无":
            data.pop("alt", None)
        else:
            data["alt"] = qq
        p.profile = data
        await p.save()
        txn.refresh_directory = True
        await txn.audit(p.user_id, "alt", f"{p.seat}号 {p.alias}：{qq}", at=call.now)
        await txn.say("hosts", f"【小号】{p.seat}号「{p.alias}」" + ("取消了小号。" if qq == "无" else f"登记小号 {qq}。"), None)
        tail = "已取消小号。" if qq == "无" else f"已登记小号 {qq}：审讯房间群认你的报名 QQ 和这个小号，名片只显示看守或囚犯。只有主持知道。"
        await txn.say("reply", tail, call.origin)

    await in_game(gid, _superusers(), work)


@kernel_command(("名单",), "/名单", "查看座位、马甲和存活情况")
async def roster(call: Call) -> None:
    gid = _need_game(call, _game_for(call))
    players = await Player.filter(game_id=gid).order_by("seat")
    if not players:
        raise Rejected("还没有人报名。")
    g = await Game.get(id=gid)
    view = _signup_view(g, players)
    if view is not None:
        head, marks = view
        lines = [f"名单（{head}）："]
        lines += [f"{p.seat}号 {p.alias}" + (f"（{marks[p.seat]}）" if marks.get(p.seat) else "") for p in players]
        await call.say("\n".join(lines), gid)
        return
    out = _public_out(g, players)
    lines = [f"名单（{len(players)} 人，存活 {len(players) - len(out)}）："]
    lines += [f"{p.seat}号 {p.alias}{'（出局）' if p.seat in out else ''}" for p in players]
    await call.say("\n".join(lines), gid)


def _signup_view(g: Game, players: list[Player]) -> tuple[str, dict[int, str]] | None:
    """Before the start, an engine's own summary and per-seat marks (e.g. main draw / substitute)."""
    kind = get_kind(g.kind)
    hook = getattr(kind.engine, "signup_view", None) if kind else None
    if hook is None or g.state is not None:
        return None
    return hook(g.settings, [p.seat for p in players])


def _public_out(g: Game, players: list[Player]) -> set[int]:
    """Seats publicly known to be out (the engine may keep some deaths secret)."""
    kind = get_kind(g.kind)
    hook = getattr(kind.engine, "public_out", None) if kind else None
    if hook is not None and g.state is not None:
        return set(hook(g.state))
    return {p.seat for p in players if not p.alive}


@kernel_command(("开始",), "/开始", "主持：开始游戏（发身份等）", who="host", where="group")
async def start(call: Call) -> None:
    async def work(txn: Txn) -> None:
        g, kind = txn.game, txn.kind
        if g.status != "signup":
            raise Rejected("游戏已经开始了。")
        if len(txn.players) < kind.min_players:
            raise Rejected(f"人数不足：{kind.title}至少需要 {kind.min_players} 人，现在 {len(txn.players)} 人。")
        await txn.step("start", origin=call.origin, now=call.now)
        if g.status == "signup":
            g.status = "running"
        g.started_at = call.now
        await g.save()
        await txn.audit(call.origin.user_id, "start", f"{len(txn.players)} 人", at=call.now)

    await _host_txn(call, work)


@kernel_command(("加主持",), "/加主持 @某人", "主持：添加副主持", who="host")
async def add_host(call: Call) -> None:
    target = call.rest.strip()
    if not (target.startswith("@") and target[1:].isdigit()):
        raise Rejected("请 @ 要添加的人：/加主持 @某人")
    uid = target[1:]

    async def work(txn: Txn) -> None:
        if uid in txn.hosts:
            raise Rejected("对方已经是主持了。")
        if txn.player_of(uid):
            raise Rejected("对方是本局玩家，不能同时当主持。")
        await Host.create(game_id=txn.game.id, user_id=uid, added_by=call.origin.user_id)
        await txn.audit(call.origin.user_id, "add_host", uid, at=call.now)
        await txn.say("reply", "已添加副主持。", call.origin)
        txn.refresh_directory = True

    await _host_txn(call, work)


@kernel_command(("推进",), "/推进", "主持：立即结束当前阶段", who="host")
async def advance(call: Call) -> None:
    async def work(txn: Txn) -> None:
        if txn.game.status != "running":
            raise Rejected("游戏不在进行中（暂停时请先 /继续）。")
        await txn.cancel_timer(PHASE_TIMER)
        await txn.audit(call.origin.user_id, "advance", txn.game.phase_label or "", at=call.now)
        await txn.say("group", f"主持结束了当前阶段：{txn.game.phase_label or ''}。", None)
        await txn.step("deadline", origin=call.origin, now=call.now, key=PHASE_TIMER)

    await _host_txn(call, work)


@kernel_command(("延时",), "/延时 <分钟>", "主持：当前阶段延后 N 分钟（负数为提前）", who="host")
async def extend(call: Call) -> None:
    try:
        minutes = int(call.rest.strip())
    except ValueError:
        raise Rejected("请写分钟数：/延时 10") from None

    async def work(txn: Txn) -> None:
        stuck = list(await Timer.filter(game_id=txn.game.id, status="stuck"))
        if stuck:  # a deadline whose work failed: try it again in N minutes
            if minutes <= 0:
                raise Rejected("出错停下的截止要往后延：/延时 <正数分钟>，或用 /推进 立即重试。")
            for t in stuck:
                t.status, t.attempts, t.ends_at = "armed", 0, call.now + timedelta(minutes=minutes)
                await t.save()
                txn.changed_timers.append(t)
            await txn.audit(call.origin.user_id, "extend", f"出错的截止 {minutes} 分钟后重试", at=call.now)
            await txn.say("reply", f"好的，{minutes} 分钟后（{fmt_local(stuck[0].ends_at, txn.tz)}）重新处理这一步。", call.origin)
            return
        timers = [t for t in await txn.timers() if t.key == PHASE_TIMER]
        if not timers:
            raise Rejected("当前阶段没有截止时间，无需延时。")
        t = timers[0]
        new = t.ends_at + timedelta(minutes=minutes)
        if txn.game.status != "paused" and new <= call.now:
            raise Rejected("调整后的截止时间已过，如要立即结束请用 /推进。")
        if t.status == "paused":
            t.remaining = max(0.0, (t.remaining or 0) + minutes * 60)
            t.ends_at = new
            await t.save()
            txn.changed_timers.append(t)
        else:
            await txn.set_timer(PHASE_TIMER, new, call.now)
        await txn.audit(call.origin.user_id, "extend", f"{minutes} 分钟", at=call.now)
        await txn.say("group", f"主持将「{txn.game.phase_label}」的截止时间调整为 {fmt_local(new, txn.tz)}。", None)

    await _host_txn(call, work)


@kernel_command(("暂停",), "/暂停", "主持：暂停游戏（计时停止）", who="host")
async def pause(call: Call) -> None:
    async def work(txn: Txn) -> None:
        if txn.game.status != "running":
            raise Rejected("游戏不在进行中，无法暂停。")
        for t in await txn.timers():
            t.status, t.remaining = "paused", max(0.0, (t.ends_at - call.now).total_seconds())
            await t.save()
            txn.changed_timers.append(t)
        txn.game.status = "paused"
        await txn.game.save()
        await txn.audit(call.origin.user_id, "pause", "", at=call.now)
        await txn.say("group", "游戏已暂停，计时停止。主持发送 /继续 后恢复。", None)

    await _host_txn(call, work)


@kernel_command(("继续",), "/继续", "主持：恢复暂停的游戏", who="host")
async def resume(call: Call) -> None:
    async def work(txn: Txn) -> None:
        if txn.game.status != "paused":
            raise Rejected("游戏没有暂停。")
        txn.game.status = "running"
        await txn.game.save()
        phase_end = None
        for t in await txn.timers():
            t.status = "armed"
            t.ends_at = call.now + timedelta(seconds=t.remaining or 0)
            t.remaining = None
            await t.save()
            txn.changed_timers.append(t)
            if t.key == PHASE_TIMER:
                phase_end = t.ends_at
        await txn.audit(call.origin.user_id, "resume", "", at=call.now)
        tail = f"，本阶段截止 {fmt_local(phase_end, txn.tz)}" if phase_end else ""
        await txn.say("group", f"游戏继续{tail}。", None)

    await _host_txn(call, work)


@kernel_command(("结束",), "/结束 [理由]", "主持：结束游戏", who="host")
async def end(call: Call) -> None:
    reason = call.rest.strip() or "主持结束了游戏"

    async def work(txn: Txn) -> None:
        if txn.game.status == "ended":
            raise Rejected("这局游戏已经结束了。")
        txn.game.end_reason = reason
        reveal = getattr(txn.kind.engine, "reveal", None)
        tail = reveal(txn.game.state) if reveal and txn.game.state is not None else ""
        wipe = getattr(txn.kind.engine, "wipe", None)
        if wipe and txn.game.state is not None:
            txn.game.state = wipe(txn.game.state)
        await txn.finish(f"【{txn.kind.title}】游戏结束：{reason}。", call.now)
        if tail:
            await txn.say("group", tail, None)

    await _host_txn(call, work)


@kernel_command(("状态",), "/状态", "查看阶段、截止时间和人数")
async def status(call: Call) -> None:
    gid = _need_game(call, _game_for(call))
    g = await Game.get(id=gid)
    kind = get_kind(g.kind)
    players = await Player.filter(game_id=gid)
    names = {"signup": "报名中", "running": "进行中", "paused": "已暂停", "ended": "已结束"}
    out = _public_out(g, players)
    view = _signup_view(g, players)
    counts = view[0] if view is not None else f"玩家 {len(players)} 人，存活 {len(players) - len(out)} 人"
    lines = [f"【{kind.title if kind else g.kind}】{names.get(g.status, g.status)}，{counts}"]
    if g.phase_label:
        lines.append(f"当前阶段：{g.phase_label}")
    t = await Timer.filter(game_id=gid, key=PHASE_TIMER, status__in=("armed", "paused")).first()
    if t:
        lines.append(f"截止：{fmt_local(t.ends_at, game_tz(g))}" + ("（暂停中）" if t.status == "paused" else ""))
    if kind and g.state is not None:
        extra = kind.engine.status(g.state)
        if extra:
            lines.append(extra)
    await call.say("\n".join(lines), gid)


@kernel_command(("我的身份",), "/我的身份", "私聊：重新获取自己的私密信息", where="private")
async def whoami(call: Call) -> None:
    if call.in_group:
        raise Rejected("请私聊我发送 /我的身份，身份信息只在私聊里发。")
    gid = _need_game(call, _game_for(call))
    g = await Game.get(id=gid)
    p = await Player.get_or_none(game_id=gid, user_id=call.origin.user_id)
    if p is None:
        raise Rejected("你不是这局的玩家。")
    if g.state is None:
        raise Rejected(f"游戏还没开始。你是 {p.seat}号「{p.alias}」。")
    kind = get_kind(g.kind)
    assert kind is not None
    await call.say(kind.engine.private_info(g.state, p.seat), gid)


@kernel_command(("切换",), "/切换 <群号>", "私聊：同时在多个游戏中时，选定私聊命令发往哪一局", where="private")
async def switch(call: Call) -> None:
    group = call.rest.strip()
    gid = directory.group_game.get(group)
    if gid is None or call.origin.user_id not in directory.members.get(gid, set()):
        raise Rejected("你不在这个群的游戏里。请写你参加的游戏所在的群号。")
    await Focus.update_or_create(defaults={"game_id": gid}, user_id=call.origin.user_id)
    directory.focus[call.origin.user_id] = gid
    await call.say(f"之后的私聊命令发往群 {group} 的游戏。", gid)


async def _card(call: Call, color: str) -> None:
    parts = call.rest.strip().split(maxsplit=1)
    word = cardmath.COLORS[color]
    if len(parts) < 2:
        raise Rejected(f"请写玩家和理由：/{word} <玩家> <理由>")

    async def work(txn: Txn) -> None:
        if txn.game.status == "signup":
            raise Rejected("游戏还没开始，不能判罚。")
        seat = txn.roster.resolve(parts[0]).seat
        if await txn.give_card(seat, color, parts[1], call.origin.user_id, call.now):
            actor = Actor(call.origin.user_id, None, True, call.origin.private)
            await txn.send_off(seat, parts[1], call.origin, actor, call.now)

    await _host_txn(call, work)


@kernel_command(("蓝牌",), "/蓝牌 <玩家> <理由>", "主持：判蓝牌（3 蓝 = 1 黄）", who="host")
async def blue(call: Call) -> None:
    await _card(call, "blue")


@kernel_command(("黄牌",), "/黄牌 <玩家> <理由>", "主持：判黄牌（3 黄 = 1 红）", who="host")
async def yellow(call: Call) -> None:
    await _card(call, "yellow")


@kernel_command(("红牌",), "/红牌 <玩家> <理由>", "主持：判红牌（罚下）", who="host")
async def red(call: Call) -> None:
    await _card(call, "red")


@kernel_command(("牌",), "/牌 <玩家>", "查看玩家的判罚记录")
async def card_record(call: Call) -> None:
    gid = _need_game(call, _game_for(call))
    if not call.rest.strip():
        raise Rejected("请写玩家：/牌 <玩家>")
    from .roster import Entry, Roster

    players = await Player.filter(game_id=gid).order_by("seat")
    entry = Roster([Entry(p.seat, p.alias, p.user_id, p.alive) for p in players]).resolve(call.rest.strip().split()[0])
    cards = await Card.filter(game_id=gid, seat=entry.seat).order_by("id")
    t = cardmath.tally([c.color for c in cards])
    lines = [f"{entry.seat}号 {entry.alias}：{t.describe()}"]
    lines += [f"· {cardmath.COLORS[c.color]}：{c.reason}" for c in cards]
    await call.say("\n".join(lines), gid)


async def _put(call: Call, name: str) -> None:
    parts = call.rest.strip().split(maxsplit=1)
    verb = "出局" if name == KERNEL_OUT else "回场"
    if len(parts) < 2:
        raise Rejected(f"请写玩家和理由：/{verb} <玩家> <理由>")

    async def work(txn: Txn) -> None:
        if txn.game.status not in ("running", "paused"):
            raise Rejected("游戏不在进行中。")
        seat = txn.roster.resolve(parts[0]).seat
        p = txn.seat(seat)
        if name == KERNEL_OUT and not p.alive:
            raise Rejected(f"{seat}号 {p.alias} 已经出局了。")
        if name == KERNEL_BACK and p.alive:
            raise Rejected(f"{seat}号 {p.alias} 本来就在场上。")
        actor = Actor(call.origin.user_id, None, True, call.origin.private)
        await txn.step("apply", origin=call.origin, now=call.now, actor=actor, cmd=Command(name, {"seat": seat, "reason": parts[1]}))
        await txn.audit(call.origin.user_id, name, f"{seat}号 {p.alias}：{parts[1]}", at=call.now)
        await txn.say("reply", f"已判 {seat}号「{p.alias}」{verb}：{parts[1]}。", call.origin)

    await _host_txn(call, work)


@kernel_command(("出局",), "/出局 <玩家> <理由>", "主持：判玩家出局", who="host")
async def put_out(call: Call) -> None:
    await _put(call, KERNEL_OUT)


@kernel_command(("回场",), "/回场 <玩家> <理由>", "主持：让出局的玩家回到场上", who="host")
async def put_back(call: Call) -> None:
    await _put(call, KERNEL_BACK)


@kernel_command(("配置",), "/配置 [TOML 文本]", "主持：查看或修改本局配置（开始前）", who="host")
async def configure(call: Call) -> None:
    text = call.rest.strip()

    async def work(txn: Txn) -> None:
        g = txn.game
        if not text:
            if call.in_group:
                raise Rejected("配置里可能有私密设置（如暗号），请私聊我发送 /配置 查看。")
            import json

            shown = json.dumps(g.settings, ensure_ascii=False, indent=1)
            await txn.say("reply", f"本局配置：\n{shown}\n修改：/配置 后接 TOML 文本，只写要改的项。", call.origin)
            return
        try:
            overrides = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise Rejected(f"配置格式有误（TOML）：{exc}") from None
        live_ok = set(overrides) <= {"anon_speech", "anon_plain", "anon_pictures"}  # switches hosts may flip any time
        if g.status == "ended" or (g.status != "signup" and not live_ok):
            raise Rejected("游戏已开始，配置不能再改（匿名发言开关除外；游戏内的调整请用该游戏的主持命令）。")
        kernel_keys = {k: overrides.pop(k, g.settings.get(k, default)) for k, default in KERNEL_SETTINGS.items()}
        tz = kernel_keys.pop("timezone")
        for k, v in kernel_keys.items():
            if not isinstance(v, bool):
                raise Rejected(f"{k} 只能是 true 或 false。")
        merged = deep_merge({k: v for k, v in g.settings.items() if k not in KERNEL_SETTINGS}, overrides)
        checked = txn.kind.engine.check_settings(merged)
        try:
            from zoneinfo import ZoneInfo

            ZoneInfo(tz)
        except Exception:  # noqa: BLE001
            raise Rejected(f"时区「{tz}」无效，例如 Asia/Shanghai。") from None
        g.settings = {**checked, **kernel_keys, "timezone": tz}
        await g.save()
        await txn.audit(call.origin.user_id, "configure", text[:500], at=call.now)
        await txn.say("reply", "配置已更新。", call.origin)

    await _host_txn(call, work)


async def _hosted_game(call: Call) -> int:
    """The game a host's /日志 or /导出 is about: the live one, else the most
    recent one of this group (in a group) or that this host ran (in private) —
    the tables are complete only after the end."""
    found = _game_for(call)
    uid = call.origin.user_id
    if isinstance(found, int):
        gid = found
    elif call.in_group:
        last = await Game.filter(group_id=call.origin.group_id).order_by("-id").first()
        if last is None:
            raise Rejected("本群还没有开过游戏。")
        gid = last.id
    elif isinstance(found, list):
        gid = _need_game(call, found)
    else:
        hosted = await Host.filter(user_id=uid).order_by("-game_id").first()
        if hosted is None:
            raise Rejected("你没有主持过游戏。")
        gid = hosted.game_id  # type: ignore[attr-defined]
    if uid not in _superusers() and not await Host.exists(game_id=gid, user_id=uid):
        raise Rejected("只有主持可以这样做。")
    return gid


@kernel_command(("日志",), "/日志 [条数]", "主持，私聊：查看操作日志", who="host", where="private")
async def audit_log(call: Call) -> None:
    if call.in_group:
        raise Rejected("日志可能含私密信息，请私聊我发送 /日志。")
    n = int(call.rest.strip()) if call.rest.strip().isdigit() else 20
    gid = await _hosted_game(call)
    g = await Game.get(id=gid)
    tz = game_tz(g)
    rows = list(reversed(await Audit.filter(game_id=gid).order_by("-id").limit(min(n, 200))))
    lines = [f"最近 {len(rows)} 条日志："] + [
        f"{r.at.astimezone(tz):%m-%d %H:%M:%S} {r.actor or '-'} {r.action} {r.detail}" for r in rows
    ]
    await call.say("\n".join(lines), gid)


@kernel_command(("导出",), "/导出", "主持：把本局的表导出为 CSV 和 XLSX", who="host")
async def export(call: Call) -> None:
    gid = await _hosted_game(call)
    folder = await export_game(gid, call.now)
    await call.say(f"已导出到机器人所在电脑的 {folder}（每张表一个 CSV，另有一个合并的 XLSX）。", gid)


@kernel_command(("公告",), "/公告 [@全体] <内容>", "主持：在游戏群发公告（写 @全体 才会提醒全体成员）", who="host")
async def announce(call: Call) -> None:
    text = call.rest.strip()
    at_all = text.startswith("@全体")
    if at_all:
        text = text.removeprefix("@全体成员").removeprefix("@全体").strip()
    if not text:
        raise Rejected("请写公告内容：/公告 [@全体] <内容>")

    async def work(txn: Txn) -> None:
        g = txn.game
        await enqueue("group", g.group_id, f"【公告】{text}", game_id=g.id, self_id=g.self_id, at_all=at_all)
        await txn.audit(call.origin.user_id, "announce", ("@全体 " if at_all else "") + text[:200], at=call.now)

    await _host_txn(call, work)


@kernel_command(("绑定群",), "/绑定群 <游戏群号> <标签>", "主持：在另一个群里发送，把这个群接到游戏上（联赛分组群、审讯房间）", who="host", where="group")
async def link_chat(call: Call) -> None:
    parts = call.rest.split()
    if not call.in_group or len(parts) != 2 or not parts[0].isdigit():
        raise Rejected("请在要接入的群里发送：/绑定群 <游戏群号> <标签>，例如 /绑定群 123456 A")
    main, label = parts
    here = call.origin.group_id or ""
    await directory.ensure_group(main)
    gid = directory.group_game.get(main)
    if gid is None or main in directory.chat_label:
        raise Rejected(f"群 {main} 现在没有游戏。")
    if here in directory.group_game:
        raise Rejected("这个群已经有游戏或已接到别的游戏上，不能再绑定。")
    if len(label) > 16 or any(ch.isspace() for ch in label):
        raise Rejected("标签最长 16 个字，不能有空格。")

    async def work(txn: Txn) -> None:
        if await Chat.exists(game_id=txn.game.id, label=label):
            raise Rejected(f"标签「{label}」已经用过了，请换一个。")
        await Chat.create(game_id=txn.game.id, group_id=here, label=label, linked_by=call.origin.user_id)
        await txn.audit(call.origin.user_id, "link_chat", f"{here} = {label}", at=call.now)
        await txn.say("reply", f"本群已接到群 {main} 的{txn.kind.title}，标签「{label}」。", call.origin)
        txn.refresh_directory = True

    await _host_txn(call, work, game_id=gid)


@kernel_command(("解绑群",), "/解绑群", "主持：在接入的群里发送，解除绑定", who="host", where="group")
async def unlink_chat(call: Call) -> None:
    here = call.origin.group_id or ""
    if here not in directory.chat_label:
        raise Rejected("这个群没有绑定到游戏上。")

    async def work(txn: Txn) -> None:
        await Chat.filter(game_id=txn.game.id, group_id=here).delete()
        await txn.audit(call.origin.user_id, "unlink_chat", here, at=call.now)
        await txn.say("reply", "已解除绑定。", call.origin)
        txn.refresh_directory = True

    await _host_txn(call, work, game_id=directory.group_game[here])


async def _speak(txn: Txn, player: Player, text: str, images: int, now: datetime) -> None:
    """Post a player's words in the game group under the alias, as plain text."""
    g = txn.game
    if not g.settings.get("anon_speech", True):
        raise Rejected("主持关闭了匿名发言。")
    if not player.alive:
        raise Rejected("你已出局，不能再在群里发言。")
    body = text.strip()
    if images:
        body = (body + " " if body else "") + "（图片）" * min(images, 3)
    if not body:
        raise Rejected("请写发言内容：/发言 <内容>")
    await enqueue("group", g.group_id, f"【{player.alias}】{body}", game_id=g.id, self_id=g.self_id, priority=0, now=now)
    await txn.audit(player.user_id, "speak", f"{player.seat}号 {player.alias}：{body[:200]}", at=now)
    said = next((s for s in txn.kind.commands if not s.words and s.where in ("group", "any")), None)
    if said is not None and g.status == "running":  # it counts as said in the group (e.g. prison's discussion)
        actor = Actor(player.user_id, player.seat, False, False, "main")
        try:
            await txn.step("apply", origin=Origin(player.user_id, "kernel"), now=now, actor=actor,
                           cmd=Command(said.name, {"text": text, "images": images}))
        except Ignored:
            pass


@kernel_command(("发言",), "/发言 <内容>", "私聊：以马甲在游戏群发言（马甲保密的游戏）", who="player", where="private")
async def speak(call: Call) -> None:
    if call.in_group:
        raise Rejected("请私聊我发送 /发言 <内容>，我会以你的马甲发到游戏群。")
    gid = _need_game(call, _game_for(call))
    kind = _kind_of(gid)
    if kind is None or not kind.private_signup:
        raise Rejected("本游戏马甲公开，直接在群里发言即可。")
    _, images = _text_of(call.event)

    async def work(txn: Txn) -> None:
        p = txn.player_of(call.origin.user_id)
        if p is None:
            raise Rejected("你不是本局玩家，不能以马甲发言。")
        if txn.game.status == "ended":
            raise Rejected("这局游戏已经结束了。")
        await _speak(txn, p, call.rest, images, call.now)

    await in_game(gid, _superusers(), work)


@kernel_command(("在吗", "ping"), "/在吗", "看看机器人在不在（立即回复）")
async def ping(call: Call) -> None:
    await call.say("在。")


@kernel_command(("帮助",), "/帮助", "查看你在这里能用的命令")
async def help_(call: Call) -> None:
    from .helptext import help_text

    game_id = _game_for(call)
    uid = call.origin.user_id
    is_host = uid in _superusers()
    is_player = False
    kind = _kind_of(game_id)
    if isinstance(game_id, int):
        is_host = is_host or await Host.exists(game_id=game_id, user_id=uid)
        is_player = await Player.exists(game_id=game_id, user_id=uid)
    await call.say(help_text(kind, in_group=call.in_group, is_host=is_host, is_player=is_player, is_admin=_is_group_admin(call)))
