"""Night actions, each settled at once in arrival order (rules: 夜间行动, 角色行动, 游戏道具).

Every action is a command's rule ``rule(state, actor, args, ctx) -> effects`` working on the
state it is given; a refusal raises Rejected before any change. ``ACTIONS`` names them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import plugins.royale.engine.texts as T
from plugins.gamekit.args import NoArgs
from plugins.gamekit.clock import fmt_local
from plugins.gamekit.contract import Actor, Effect, Ignored, Rejected, Say

from .args import EquipArgs, ItemArgs, PlaceArgs, RestArgs, UseArgs
from .content import Settings
from .model import RoyaleCtx, find_own, heal, item_line, new_item, refresh
from .rules_death import check_end, kill, kill_by_attack, kill_npc
from .state import (
    GEAR,
    GRADES,
    SLOTS,
    Blow,
    Broadcast,
    FoundItem,
    FoundNpc,
    FoundPlayer,
    Grade,
    Hit,
    Item,
    ItemKind,
    Npc,
    Phase,
    Player,
    Searched,
    Slot,
    State,
)


def reply(text: str) -> Say:
    return Say("reply", text)


# ---- guards ------------------------------------------------------------------

def me(state: State, actor: Actor) -> Player:
    """The sender's player (the table lets only players send a player's command)."""
    p = state.players.get(actor.seat) if actor.seat is not None else None
    if p is None:
        raise Ignored()
    return p


def living(state: State, actor: Actor) -> Player:
    if state.phase == Phase.OVER:
        raise Rejected(T.OVER)
    p = me(state, actor)
    if not p.alive:
        raise Rejected(T.DEAD)
    return p


def at_night(state: State, actor: Actor, ctx: RoyaleCtx, *, born: bool = True, resting_ok: bool = False) -> Player:
    p = living(state, actor)
    if state.phase != Phase.NIGHT:
        r = ctx.settings.rules
        if ctx.phase is None:  # no deadline (paused): the usual window
            raise Rejected(T.NOT_NIGHT.format(start=r.night_start, end=r.night_end))
        raise Rejected(T.NOT_NIGHT_AT.format(start=local_time(ctx.phase.ends_at, ctx.now, ctx.tz)))
    if born and p.place is None:
        raise Rejected(T.NOT_BORN)
    if p.rest and not resting_ok:
        raise Rejected(T.RESTING)
    return p


def local_time(at: datetime, now: datetime, tz: ZoneInfo) -> str:
    """'21:37' on the game's clock; '12月5日 21:37' when not today."""
    local = at.astimezone(tz)
    return f"{local:%H:%M}" if local.date() == now.astimezone(tz).date() else fmt_local(at, tz)


def where(p: Player) -> str:
    """The place of a born player (the night guards refuse the unborn)."""
    assert p.place is not None
    return p.place


def open_place(state: State, settings: Settings, text: str) -> str:
    place = settings.find_place(text)
    if place is None:
        raise Rejected(T.UNKNOWN_PLACE.format(text=(text or "").strip()))
    if place in state.closed:
        raise Rejected(T.CLOSED_PLACE.format(place=place))
    return place


def pay(p: Player, cost: int, what: str) -> None:
    if p.st < cost:
        raise Rejected(T.NO_STAMINA.format(what=what, need=cost, have=p.st))
    p.st -= cost


# ---- actions -----------------------------------------------------------------

def birth(state: State, actor: Actor, args: PlaceArgs, ctx: RoyaleCtx) -> list[Effect]:
    p = at_night(state, actor, ctx, born=False)
    if p.place is not None:
        raise Rejected(T.ALREADY_BORN.format(place=p.place))
    limit = ctx.settings.rules.birth_deadline_night
    if state.day > limit:
        raise Rejected(T.BIRTH_TOO_LATE.format(n=limit))
    p.place = place = open_place(state, ctx.settings, args.place)
    arrived(state, p)
    return [reply(T.BORN.format(place=place))]


def arrived(state: State, p: Player) -> None:
    """朝圣之路: remember who reached tonight's holy place."""
    holy = state.holy
    log = state.night_log.holy
    if holy and p.place == holy and p.seat not in log:
        log.append(p.seat)


def move(state: State, actor: Actor, args: PlaceArgs, ctx: RoyaleCtx) -> list[Effect]:
    p = at_night(state, actor, ctx)
    place = open_place(state, ctx.settings, args.place)
    if place == p.place:
        raise Rejected(T.SAME_PLACE.format(place=place))
    pay(p, ctx.settings.rules.move_cost, T.WHAT_MOVE)
    p.place, p.search, p.acted = place, None, True
    arrived(state, p)
    return [reply(T.MOVED.format(place=place, st=p.st))]


def search(state: State, actor: Actor, args: NoArgs, ctx: RoyaleCtx) -> list[Effect]:
    p = at_night(state, actor, ctx)
    rules = ctx.settings.rules
    interval = rules.search_interval_s
    if p.search_at is not None:
        waited = (ctx.now - datetime.fromisoformat(p.search_at)).total_seconds()
        if waited < interval:
            raise Rejected(T.SEARCH_TOO_SOON.format(interval=interval, wait=math.ceil(interval - waited)))
    pay(p, rules.search_cost, T.WHAT_SEARCH)
    place = where(p)
    found: list[Item | Player | Npc] = [*state.ground[place], *state.people_at(place, exclude=p.seat),
                                        *state.npcs_at(place)]
    p.search_at, p.acted = ctx.now.isoformat(), True
    p.searched = Searched.FOUND if found else Searched.EMPTY
    if not found:
        p.search = None
        return [reply(T.FOUND_NOTHING.format(place=place, st=p.st))]
    what = ctx.rng.choice(found)
    if isinstance(what, Item):
        p.search = FoundItem(id=what.id, name=what.name, place=place)
        return [reply(T.FOUND_ITEM.format(name=what.name, st=p.st))]
    if isinstance(what, Npc):
        p.search = FoundNpc(id=what.id, place=place)
        who = what.name
    else:
        p.search = FoundPlayer(seat=what.seat, place=place)
        who = what.alias
    if ctx.rng.randrange(100) < state.see:
        return [reply(T.FOUND_PERSON.format(who=who, st=p.st))]
    return [reply(T.FOUND_SHADOW.format(st=p.st))]


def hit(victim: Player | Npc, dmg: int, bleed: int, by: int) -> list[Effect]:
    victim.hp -= dmg
    if bleed:
        victim.bleed = max(victim.bleed, bleed)
        victim.bleed_by = by
    if isinstance(victim, Npc):
        if dmg > 0:
            victim.damage.append(Blow(by, dmg))
        return []
    if bleed:
        return [Say(victim.seat, T.HURT_BLEED.format(dmg=dmg, bleed=bleed, hp=max(victim.hp, 0)))]
    return [Say(victim.seat, T.HURT.format(dmg=dmg, hp=max(victim.hp, 0)))]


def attack(state: State, actor: Actor, args: NoArgs, ctx: RoyaleCtx) -> list[Effect]:
    settings = ctx.settings
    p = at_night(state, actor, ctx)
    place = where(p)
    s = p.search
    if isinstance(s, FoundNpc):
        q: Player | Npc = state.npc(s.id)
    elif isinstance(s, FoundPlayer):
        q = state.players[s.seat]
    else:
        raise Rejected(T.NO_SEARCH_PERSON)
    if not q.alive or q.place != place or s.place != place:
        raise Rejected(T.TARGET_GONE.format(place=place))
    if place == settings.places.safe_zone:
        raise Rejected(T.SAFE_ZONE.format(place=place))
    cat = settings.catalog
    weapon = p.equipped(Slot.WEAPON)
    wdef = cat.get(weapon.name) if weapon else None
    dmg = wdef.damage if wdef else settings.rules.fist_damage
    bleed = wdef.bleed if wdef else 0
    splash = wdef.splash if wdef else 0
    effects: list[Effect] = []
    armour = q.equipped(Slot.ARMOUR)
    if armour:
        dmg = max(0, dmg - cat.get(armour.name).reduce)
        if armour.uses is not None:
            armour.uses -= 1
            if armour.uses <= 0:
                q.remove(armour)
                if isinstance(q, Player):
                    effects.append(Say(q.seat, T.ARMOUR_BROKEN.format(name=armour.name)))
    splashed: list[Player | Npc] = [*state.people_at(place, exclude=p.seat), *state.npcs_at(place)]
    splashed = [r for r in splashed if r is not q] if splash else []
    effects += hit(q, dmg, bleed, p.seat)
    log = state.night_log
    if p.seat not in log.attackers:
        log.attackers.append(p.seat)
    if dmg > 0:  # a direct effective hit (通缉令, 战争与和平)
        log.hits.append(Hit(p.seat, q.id if isinstance(q, Npc) else q.seat, dmg))
    for r in splashed:
        effects += hit(r, splash, bleed, p.seat)
    if weapon and weapon.uses is not None:
        weapon.uses -= 1
        if weapon.uses <= 0:
            p.remove(weapon)
            effects.append(reply(T.WEAPON_BROKEN.format(name=weapon.name)))
    p.search, p.acted = None, True
    batch = state.new_batch()
    kills: list[str] = []
    for v in [q, *splashed]:
        if v.hp <= 0:
            eff, taken, dropped = kill_by_attack(state, settings.rules.bag_size, v, p, batch, ctx.rng)
            effects += eff
            rest = T.ATTACK_DROPPED.format(place=place, items=T.joined(i.name for i in dropped)) if dropped else ""
            who = v.name if isinstance(v, Npc) else v.alias
            kills.append(T.ATTACK_KILL.format(alias=who, got=T.names_or_none([i.name for i in taken]), dropped=rest))
    effects.insert(0, reply("\n".join(kills) if kills else T.ATTACK_DONE))
    return effects + check_end(state, settings)


def pickup(state: State, actor: Actor, args: NoArgs, ctx: RoyaleCtx) -> list[Effect]:
    p = at_night(state, actor, ctx)
    place = where(p)
    s = p.search
    if not isinstance(s, FoundItem):
        raise Rejected(T.NO_SEARCH_ITEM)
    ground = state.ground[place]
    hits = [it for it in ground if it.id == s.id] if s.place == place else []
    if not hits:
        raise Rejected(T.ITEM_GONE.format(name=s.name))
    cap = ctx.settings.rules.bag_size
    if len(p.items) >= cap:
        raise Rejected(T.BAG_FULL.format(n=cap))
    item = hits[0]
    state.ground[place] = [it for it in ground if it.id != item.id]
    p.items.append(item)
    p.search, p.acted = None, True
    return [reply(T.PICKED.format(name=item.name, n=len(p.items), cap=cap))]


def equip(state: State, actor: Actor, args: EquipArgs, ctx: RoyaleCtx) -> list[Effect]:
    """【更换】: take an item in hand (two hands: at most one weapon and one armour;
    with rules.use_from = "hand" any other item can be held in a hand to be used)."""
    p = at_night(state, actor, ctx)
    words = (args.item or "").split()[:1] + ([args.swap] if args.swap else [])
    item = find_own(p, words[0] if words else "", prefer_unequipped=True)
    if item.kind == ItemKind.WEAPON:
        slot = Slot.WEAPON
    elif item.kind == ItemKind.ARMOUR:
        slot = Slot.ARMOUR
    elif ctx.settings.rules.use_from != "hand":
        raise Rejected(T.NOT_EQUIPPABLE.format(name=item.name))
    else:
        slot = Slot.HELD
    if p.hand(slot) == item.id:
        raise Rejected(T.ALREADY_EQUIPPED.format(name=item.name))
    old = p.equipped(slot)
    if old is None and p.hands_used() >= 2:
        # both hands busy with the other two slots: put one back in the bag
        others = {s: it for s in SLOTS if s != slot and (it := p.equipped(s)) is not None}
        if len(words) > 1:
            named = [s for s, it in others.items() if it.name == words[1]]
            if not named:
                raise Rejected(T.HANDS_FULL.format(name=item.name, hands=T.joined(it.name for it in others.values())))
            free = named[0]
        else:
            free = Slot.HELD if Slot.HELD in others else Slot.ARMOUR
        old = p.equipped(free)
        p.set_hand(free, None)
    p.set_hand(slot, item.id)
    p.acted = True
    if old:
        return [reply(T.EQUIPPED_SWAP.format(name=item.name, old=old.name))]
    return [reply(T.EQUIPPED.format(name=item.name))]


def drop(state: State, actor: Actor, args: ItemArgs, ctx: RoyaleCtx) -> list[Effect]:
    p = at_night(state, actor, ctx)
    place = where(p)
    item = find_own(p, args.item, prefer_unequipped=True)
    p.remove(item)
    state.ground[place].append(item)
    p.acted = True
    return [reply(T.DROPPED.format(name=item.name, place=place))]


def rest(state: State, actor: Actor, args: RestArgs, ctx: RoyaleCtx) -> list[Effect]:
    p = at_night(state, actor, ctx)
    if p.acted:
        raise Rejected(T.ALREADY_ACTED)
    text = (args.place or "").strip()
    if text:
        place = open_place(state, ctx.settings, text)
        if place != p.place:
            pay(p, ctx.settings.rules.rest_move_cost, T.WHAT_MOVE)
            p.place = place
            arrived(state, p)
    p.rest, p.search = True, None
    return [reply(T.RESTING_OK.format(place=p.place, hp=ctx.settings.rules.rest_hp))]


# ---- items -------------------------------------------------------------------

def find_seat(state: State, token: str) -> int:
    token = token.strip().lstrip("@")
    for s in state.seats():
        if token == str(s) or token == state.players[s].alias:
            return s
    raise Rejected(T.RADAR_UNKNOWN.format(text=token))


def use(state: State, actor: Actor, args: UseArgs, ctx: RoyaleCtx) -> list[Effect]:
    settings = ctx.settings
    p = at_night(state, actor, ctx)
    place = where(p)
    rules = settings.rules
    in_hand = rules.use_from == "hand"
    item = find_own(p, args.item, prefer_unequipped=not in_hand, prefer_equipped=in_hand)
    target = (args.target or "").strip()
    cat = settings.catalog
    d = cat.get(item.name)
    kind = item.kind
    night = state.day
    if kind in GEAR:
        raise Rejected(T.CANNOT_USE.format(name=item.name))
    if in_hand and not p.is_equipped(item):
        raise Rejected(T.NOT_IN_HAND.format(name=item.name))
    if kind in (ItemKind.GPS, ItemKind.RADAR) and item.used_night == night:
        raise Rejected(T.USED_TONIGHT.format(name=item.name))
    effects: list[Effect] = []
    if kind == ItemKind.UPGRADER:
        if not target:
            raise Rejected(T.UPGRADE_WHICH.format(name=item.name))
        gear = find_own(p, target)
        if gear.kind not in GEAR or gear.grade is None:
            raise Rejected(T.UPGRADE_TARGET.format(name=gear.name))
        idx = GRADES.index(gear.grade)
        if idx + 1 >= len(GRADES):
            raise Rejected(T.UPGRADE_TOP.format(name=gear.name))
        if idx + 1 > GRADES.index(d.max_grade):
            raise Rejected(T.UPGRADE_MAX.format(up=item.name, grade=cat.grade_label(d.max_grade), name=gear.name))
        up: Grade = GRADES[idx + 1]
        new_name = ctx.rng.choice(cat.names(gear.kind, up))
        old = gear.name
        gear.name, gear.grade, gear.uses = new_name, up, cat.get(new_name).uses
        p.remove(item)
        effects.append(reply(T.UPGRADED.format(old=old, new=item_line(cat, gear))))
    elif kind == ItemKind.GPS:
        if not target:
            raise Rejected(T.GPS_WHICH.format(name=item.name))
        item.used_night = night
        effects.append(reply(locate(state, settings, target, p.seat, equipped_only=rules.gps_finds == "equipped")))
    elif kind == ItemKind.RADAR:
        tokens = target.split()
        if not 1 <= len(tokens) <= 2:
            raise Rejected(T.RADAR_WHICH.format(name=item.name))
        lines = []
        for tok in tokens:
            t = state.players[find_seat(state, tok)]
            lines.append(T.RADAR_LINE.format(alias=t.alias,
                                             items=T.names_or_none([item_line(cat, i) for i in t.items])))
        item.used_night = night
        effects.append(reply("\n".join(lines)))
    elif kind == ItemKind.BROADCAST:
        spot, who = broadcast_args(state, settings, target, item.name)
        if who is not None:
            days = state.published.get(who, [])
            if len(days) >= 3 or any(night + 1 - day < 3 for day in days):
                raise Rejected(T.BROADCAST_LIMIT.format(alias=state.players[who].alias))
            state.published[who] = [*days, night + 1]
        state.broadcasts.append(Broadcast(by=p.seat, place=spot, target=who))
        p.remove(item)
        extra = T.BROADCAST_EXTRA.format(alias=state.players[who].alias) if who is not None else ""
        effects.append(reply(T.BROADCAST_OK.format(place=spot, extra=extra)))
    elif kind == ItemKind.BOMB:
        p.remove(item)
        batch = state.new_batch()
        victims = state.people_at(place, exclude=p.seat)
        beasts = state.npcs_at(place)
        dead: list[str] = []
        for v in victims:
            v.hp -= d.damage
            effects.append(Say(v.seat, T.HURT.format(dmg=d.damage, hp=max(v.hp, 0))))
        for n in beasts:
            n.hp -= d.damage
            n.damage.append(Blow(p.seat, d.damage))
        if p.seat not in state.night_log.attackers:
            state.night_log.attackers.append(p.seat)
        for v in victims:
            if v.hp <= 0:
                effects += kill(state, v, T.CAUSE_BOMB, batch=batch, killer=p.seat)
                dead.append(v.alias)
        for n in beasts:
            if n.hp <= 0:
                effects += kill_npc(state, n, T.CAUSE_BOMB, killer=p.seat)
                dead.append(n.name)
        text = T.BOMBED + (T.BOMB_KILLS.format(names=T.joined(dead)) if dead else "")
        effects.insert(0, reply(text))
        effects += check_end(state, settings)
    elif kind == ItemKind.SUPPLY:
        p.remove(item)
        if d.stamina:
            refresh(p, d.stamina, rules.max_stamina)
            effects.append(reply(T.USED_ST.format(name=item.name, st=p.st)))
        if d.hp:
            if p.bleed and d.cure in ("instead", "also"):
                p.bleed, p.bleed_by = 0, None
                if d.cure == "also":
                    heal(p, d.hp, rules.max_hp)
                effects.append(reply(T.USED_CURE.format(name=item.name, hp=p.hp)))
            else:
                heal(p, d.hp, rules.max_hp)
                effects.append(reply(T.USED_HP.format(name=item.name, hp=p.hp)))
    elif kind == ItemKind.MONEY:
        p.remove(item)
        p.money += d.money
        effects.append(reply(T.USED_MONEY.format(name=item.name, money=p.money)))
    p.acted = True
    return effects


def locate(state: State, settings: Settings, name: str, seat: int, *, equipped_only: bool) -> str:
    """心跳探测仪: 可获知1件道具所在区域，如果被角色装备，则反馈角色所在区域."""
    for place in settings.places.names:
        if any(it.name == name for it in state.ground.get(place, [])):
            return T.GPS_GROUND.format(target=name, place=place)
    holders: list[Player | Npc] = [q for q in (state.players[s] for s in state.seats())
                                   if q.seat != seat and q.alive and q.place]
    holders += [n for n in state.npcs if n.alive]
    for q in holders:
        if any(it.name == name and (q.is_equipped(it) or not equipped_only) for it in q.items):
            return T.GPS_HELD.format(target=name, place=q.place)
    return T.GPS_NONE.format(target=name)


def broadcast_args(state: State, settings: Settings, text: str, name: str) -> tuple[str, int | None]:
    tokens = text.split()
    for i in range(len(tokens), 0, -1):
        place = settings.find_place(" ".join(tokens[:i]))
        if place is not None:
            if place in state.closed:
                raise Rejected(T.CLOSED_PLACE.format(place=place))
            rest = tokens[i:]
            if len(rest) > 1:
                break
            return place, (find_seat(state, rest[0]) if rest else None)
    raise Rejected(T.BROADCAST_WHICH.format(name=name))


# ---- shop --------------------------------------------------------------------

def buy(state: State, actor: Actor, args: ItemArgs, ctx: RoyaleCtx) -> list[Effect]:
    settings = ctx.settings
    p = at_night(state, actor, ctx)
    name = (args.item or "").strip()
    price = settings.shop.prices.get(name)
    if price is None:
        raise Rejected(T.NOT_FOR_SALE.format(name=name))
    if state.shop.get(name, 0) <= 0:
        raise Rejected(T.SOLD_OUT.format(name=name))
    if p.money < price:
        raise Rejected(T.NO_MONEY.format(name=name, price=price, money=p.money))
    cap = settings.rules.bag_size
    if len(p.items) >= cap:
        raise Rejected(T.BAG_FULL.format(n=cap))
    cat = settings.catalog
    real = name
    if name in (T.GREEN_WEAPON, T.GREEN_ARMOUR):
        real = ctx.rng.choice(cat.names(ItemKind.WEAPON if name == T.GREEN_WEAPON else ItemKind.ARMOUR, Grade.GREEN))
    p.money -= price
    state.shop[name] -= 1
    p.items.append(new_item(state, cat, real))
    p.acted = True
    return [reply(T.BOUGHT.format(name=real, money=p.money))]


def sell(state: State, actor: Actor, args: ItemArgs, ctx: RoyaleCtx) -> list[Effect]:
    settings = ctx.settings
    p = living(state, actor)
    when = settings.rules.sell_phase
    if when == "day" and state.phase != Phase.DAY:
        raise Rejected(T.NOT_DAY)
    if when == "night" and state.phase != Phase.NIGHT:
        raise Rejected(T.NOT_NIGHT_SELL)
    which = settings.rules.sell_which
    item = find_own(p, args.item, prefer_unequipped=which == "unequipped", prefer_equipped=which == "equipped")
    if item.kind not in GEAR:
        raise Rejected(T.SELL_ONLY_GEAR)
    if which == "unequipped" and p.is_equipped(item):
        raise Rejected(T.SELL_EQUIPPED.format(name=item.name))
    if which == "equipped" and not p.is_equipped(item):
        raise Rejected(T.SELL_UNEQUIPPED.format(name=item.name))
    p.remove(item)
    prices = settings.shop.sell
    if item.grade == Grade.GREEN:
        p.green_sold += 1
        per = prices.green_per_coin
        shown = p.green_sold
        if p.green_sold >= per:
            p.green_sold = 0
            p.money += 1
        return [reply(T.SOLD_GREEN.format(name=item.name, n=shown, per=per, money=p.money))]
    p.money += prices.better_price
    return [reply(T.SOLD.format(name=item.name, money=p.money))]


Action = Callable[[State, Actor, Any, RoyaleCtx], list[Effect]]

# the night actions (and selling) by command name
ACTIONS: dict[str, Action] = {
    "birth": birth, "move": move, "search": search, "attack": attack, "pickup": pickup,
    "equip": equip, "drop": drop, "rest": rest, "use": use, "buy": buy, "sell": sell,
}
