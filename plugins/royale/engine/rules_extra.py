"""Commands beside the night actions: /事件 and /空投 (hosts), 测试赛 (/申请, /发放), /领取,
/背包, /商店, /地图, and the count of group posts for the automatic speech cards.

Each rule changes the state it is given; a refusal raises Rejected before any change.
"""

from __future__ import annotations

import random

import plugins.royale.engine.events as EV
import plugins.royale.engine.texts as T
from plugins.gamekit.args import NoArgs, TextIn
from plugins.gamekit.contract import Actor, Effect, Ignored, Picture, Rejected, Say

from .args import AirdropArgs, GrantArgs, RequestArgs, WordsArgs
from .content import Settings
from .model import RoyaleCtx, item_line, new_item
from .rules_night import living, me
from .state import GRADES, HostEntry, Item, ItemKind, Phase, Plan, Slot, State


def log_host(state: State, actor: Actor, what: str) -> None:
    state.host_log.append(HostEntry(day=state.day, by=actor.user_id, what=what))


def live(state: State) -> None:
    if state.phase == Phase.OVER:
        raise Rejected(T.OVER)


# ---- /事件 ------------------------------------------------------------------------

def event_cmd(state: State, actor: Actor, args: WordsArgs, ctx: RoyaleCtx) -> list[Effect]:
    """/事件 [<事件> | 禁止 <事件> | 随机]: force or forbid tomorrow's event."""
    settings = ctx.settings
    live(state)
    text = (args.text or "").strip()
    names = T.joined(e.name for e in settings.events.list)
    plan = state.event_plan
    tomorrow = state.day + 1
    if not text:
        today = T.joined(event_name(settings, e.key) for e in state.today) or T.NONE
        return [Say("reply", T.EVENT_SHOW.format(today=today, plan=plan_text(settings, plan), names=names))]
    words = text.split(maxsplit=1)
    if words[0] in T.EVENT_RANDOM_WORDS:
        state.event_plan = Plan()
        log_host(state, actor, T.LOG_EVENT_RANDOM)
        return [Say("hosts", T.EVENT_RANDOM.format(day=tomorrow))]
    forbid = words[0] == T.EVENT_FORBID_WORD
    target = words[1] if forbid and len(words) > 1 else ("" if forbid else text)
    e = EV.find_event(settings, target)
    if e is None:
        raise Rejected(T.EVENT_UNKNOWN.format(text=target or T.EMPTY, names=names))
    if forbid:
        if e.event not in plan.forbid:
            plan.forbid.append(e.event)
        if plan.force == e.event:
            plan.force = None
        log_host(state, actor, T.LOG_EVENT_FORBID.format(day=tomorrow, name=e.name))
        return [Say("hosts", T.EVENT_FORBID.format(day=tomorrow, name=e.name, plan=plan_text(settings, plan)))]
    why = EV.eligible(settings, tomorrow, e.key)
    if why:
        raise Rejected(T.EVENT_CANNOT.format(why=why))
    plan.force = e.event
    plan.forbid = [k for k in plan.forbid if k != e.event]
    log_host(state, actor, T.LOG_EVENT_FORCE.format(day=tomorrow, name=e.name))
    return [Say("hosts", T.EVENT_FORCED.format(day=tomorrow, name=e.name))]


def event_name(settings: Settings, key: str) -> str:
    """An event's name (its key if the settings no longer list it)."""
    e = settings.event(key)
    return e.name if e is not None else key


def plan_text(settings: Settings, plan: Plan) -> str:
    force = event_name(settings, plan.force) if plan.force else None
    return T.plan_text(force, [event_name(settings, k) for k in plan.forbid])


def airdrop(state: State, actor: Actor, args: AirdropArgs, ctx: RoyaleCtx) -> list[Effect]:
    """/空投 (公示: 空投道具名称将会在白天提前公示): by day the names are posted now and land tonight;
    at night they join the next morning's list and land the night after."""
    live(state)
    cat = ctx.settings.catalog
    names = args.items.split()
    bad = [n for n in names if n not in cat.items]
    if not names or bad:
        raise Rejected(T.AIRDROP_UNKNOWN.format(names=T.joined(bad) or T.EMPTY))
    if state.phase == Phase.NIGHT:
        state.airdrops_next.extend(names)
        return [Say("reply", T.AIRDROP_NEXT.format(names=T.joined(names)))]
    state.airdrops.extend(names)
    return [Say("reply", T.AIRDROP_TONIGHT.format(names=T.joined(names))),
            Say("group", T.AIRDROP_POST.format(names=T.joined(names)))]


# ---- 测试赛 ------------------------------------------------------------------------

def grade_words(settings: Settings, grade: str) -> dict[ItemKind, str]:
    """绿色武器 / 绿色防具 …: a random one of that grade (测试赛 /申请, /发放)."""
    label = settings.grade_label(grade)
    return {ItemKind.WEAPON: label + T.GEAR_WORD["weapon"], ItemKind.ARMOUR: label + T.GEAR_WORD["armour"]}


def item_name(settings: Settings, text: str) -> str:
    """A full item name, or a grade word such as 绿色武器 / 蓝色防具 (a random one of that grade)."""
    name = (text or "").strip()
    if name in settings.catalog.items:
        return name
    for grade in GRADES:
        if name in grade_words(settings, grade).values():
            return name
    others = T.joined(o.name for o in settings.others)
    raise Rejected(T.TEST_UNKNOWN_ITEM.format(text=name or T.EMPTY, others=others))


def make(state: State, settings: Settings, name: str, rng: random.Random) -> Item:
    cat = settings.catalog
    for grade in GRADES:
        for kind, word in grade_words(settings, grade).items():
            if name == word:
                return new_item(state, cat, rng.choice(cat.names(kind, grade)))
    return new_item(state, cat, name)


def request(state: State, actor: Actor, args: RequestArgs, ctx: RoyaleCtx) -> list[Effect]:
    """/申请 <物品>: a player of a test game asks the host for supplies."""
    settings = ctx.settings
    if not settings.test_mode:
        raise Rejected(T.NOT_TEST)
    live(state)
    p = me(state, actor)
    name = item_name(settings, args.item)
    log_host(state, actor, T.LOG_REQUEST.format(seat=p.seat, alias=p.alias, name=name))
    return [Say("reply", T.REQUEST_SENT.format(name=name)),
            Say("hosts", T.REQUEST_TO_HOST.format(seat=p.seat, alias=p.alias, name=name,
                                                  state=T.REQUEST_ALIVE if p.alive else T.REQUEST_OUT))]


def grant(state: State, actor: Actor, args: GrantArgs, ctx: RoyaleCtx) -> list[Effect]:
    """/发放 <玩家> <物品>: the host of a test game puts an item straight into a bag."""
    settings = ctx.settings
    if not settings.test_mode:
        raise Rejected(T.NOT_TEST)
    live(state)
    p = state.players.get(args.player)
    if p is None:
        raise Rejected(T.NO_SUCH_SEAT.format(seat=args.player))
    if not p.alive:
        raise Rejected(T.GRANT_DEAD.format(alias=p.alias))
    name = item_name(settings, args.item)
    cap = settings.rules.bag_size
    if len(p.items) >= cap:
        raise Rejected(T.GRANT_FULL.format(alias=p.alias, n=cap))
    item = make(state, settings, name, ctx.rng)
    p.items.append(item)
    log_host(state, actor, T.LOG_GRANT.format(name=item.name, seat=p.seat, alias=p.alias))
    return [Say("reply", T.GRANTED.format(alias=p.alias, name=item.name)),
            Say(p.seat, T.GRANTED_YOU.format(name=item.name))]


# ---- players -----------------------------------------------------------------------

def claim_cmd(state: State, actor: Actor, args: WordsArgs, ctx: RoyaleCtx) -> list[Effect]:
    """/领取 <选项>: an event's reward."""
    live(state)
    p = living(state, actor)
    return [Say("reply", EV.claim(state, ctx.settings, p, args.text))]


def map_cmd(state: State, actor: Actor, args: NoArgs, ctx: RoyaleCtx) -> list[Effect]:
    return [Picture("reply", "map", T.MAP_AGAIN.format(day=state.day))]


def bag(state: State, actor: Actor, args: NoArgs, ctx: RoyaleCtx) -> list[Effect]:
    return [Say("reply", bag_text(state, ctx.settings, me(state, actor).seat))]


def shop(state: State, actor: Actor, args: NoArgs, ctx: RoyaleCtx) -> list[Effect]:
    return [Say("reply", shop_text(state, ctx.settings))]


def speak(state: State, actor: Actor, args: TextIn, ctx: RoyaleCtx) -> list[Effect]:
    """A plain message in the game group: counts toward 白天发言 (the daily post quota)."""
    rules = ctx.settings.rules
    if not rules.speech_cards or state.phase != Phase.DAY or actor.seat is None:
        raise Ignored()
    p = state.players.get(actor.seat)
    if p is None or not p.alive:
        raise Ignored()
    if state.posts.get(p.seat, 0) >= rules.min_posts:
        raise Ignored()  # quota met: nothing to record
    state.posts[p.seat] = state.posts.get(p.seat, 0) + 1
    return []


# ---- what a player may always read -------------------------------------------------

def bag_text(state: State, settings: Settings, seat: int) -> str:
    p = state.players[seat]
    cat = settings.catalog
    w, a, h = p.equipped(Slot.WEAPON), p.equipped(Slot.ARMOUR), p.equipped(Slot.HELD)
    lines = [
        T.BAG_HEAD.format(alias=p.alias, seat=seat, out="" if p.alive else T.BAG_OUT, where=p.place or T.UNBORN),
        T.BAG_STATS.format(hp=p.hp, st=p.st, money=p.money)
        + (T.BAG_BLEED.format(bleed=p.bleed) if p.bleed else "") + (T.BAG_RESTING if p.rest else ""),
        T.BAG_HANDS.format(weapon=item_line(cat, w) if w else T.NONE, armour=item_line(cat, a) if a else T.NONE),
    ]
    if h:
        lines.append(T.BAG_HELD.format(item=item_line(cat, h)))
    rest = [item_line(cat, it) for it in p.items if it is not w and it is not a and it is not h]
    lines.append(T.BAG_ITEMS.format(n=len(p.items), items=T.names_or_none(rest)))
    if p.claims:
        lines.append(T.BAG_CLAIMS + EV.claims_text(p))
    return "\n".join(lines)


def shop_text(state: State, settings: Settings) -> str:
    rows = [T.SHOP_ROW.format(name=n, price=price, left=state.shop.get(n, 0))
            for n, price in settings.shop.prices.items()]
    return T.SHOP.format(rows=T.semicolons(rows))
