"""Deaths, loot, the end of the game and the final ranking (rules: 出局, 步骤)."""

from __future__ import annotations

import random
from dataclasses import dataclass

import plugins.royale.engine.texts as T
from plugins.gamekit.contract import Effect, Eliminate, Finish, Say

from .content import Settings
from .model import drop_all
from .state import Death, Item, Npc, NpcDeath, Phase, Player, Result, State


def kill(state: State, p: Player, cause: str, *, batch: int, killer: int | None = None,
         vanish: bool = False) -> list[Effect]:
    """Put ``p`` out; their items drop where they stand (or vanish)."""
    p.alive = False
    p.rest = False
    p.search = None
    state.deaths.append(Death(seat=p.seat, night=state.day, cause=cause, killer=killer, batch=batch, place=p.place))
    if vanish:
        p.empty_hands()
    else:
        drop_all(state, p)
    return [Eliminate(p.seat, cause), Say(p.seat, T.YOU_DIED.format(cause=cause))]


def kill_by_attack(state: State, cap: int, victim: Player | Npc, killer: Player, batch: int,
                   rng: random.Random) -> tuple[list[Effect], list[Item], list[Item]]:
    """The killer takes the corpse's items while the bag has room (a random part
    if not all fit); the rest drop in the place. Returns effects, taken, dropped."""
    taken, dropped = loot(state, cap, victim, killer, rng)
    if isinstance(victim, Npc):
        return kill_npc(state, victim, T.CAUSE_ATTACK, killer=killer.seat), taken, dropped
    effects = kill(state, victim, T.CAUSE_ATTACK, batch=batch, killer=killer.seat)
    return effects, taken, dropped


def loot(state: State, cap: int, victim: Player | Npc, killer: Player,
         rng: random.Random) -> tuple[list[Item], list[Item]]:
    """出局: the killer takes what fits in a bag of ``cap`` (a random part if not all
    fit); the rest drops where the victim stood."""
    items = victim.empty_hands()
    room = max(0, cap - len(killer.items))
    if len(items) <= room:
        taken = items
    else:
        picked = {it.id for it in rng.sample(items, room)}
        taken = [it for it in items if it.id in picked]
    taken_ids = [it.id for it in taken]
    dropped = [it for it in items if it.id not in taken_ids]
    killer.items.extend(taken)
    assert victim.place is not None  # killed where they were found
    state.ground[victim.place].extend(dropped)
    return taken, dropped


def kill_npc(state: State, n: Npc, cause: str, *, killer: int | None = None, vanish: bool = False) -> list[Effect]:
    """An NPC dies (credited once, to ``killer``) or vanishes in a closure."""
    if not n.alive:
        return []
    n.alive = False
    n.bleed = 0
    if vanish:
        n.items, n.gone = [], True
        return []
    state.ground[n.place].extend(n.items)
    n.items = []
    state.npc_deaths.append(NpcDeath(id=n.id, name=n.name, kind=n.kind, night=state.day, cause=cause, killer=killer,
                                     place=n.place))
    return []


def check_end(state: State, settings: Settings) -> list[Effect]:
    """Last survivor wins; nobody left (died together) means the host wins."""
    if state.phase == Phase.OVER:
        return []
    left = state.alive()
    if len(left) > 1:
        return []
    state.phase = Phase.OVER
    state.result = Result(winner=left[0].seat if left else None)
    head = T.WIN.format(alias=left[0].alias) if left else T.HOST_WIN
    lines = [head]
    if settings.test_mode:
        wipe(state)
        return [Finish(head + "\n" + T.TEST_NO_RECORDS)]
    for row in ranking(state, settings)[:10]:
        extra = ""
        if row.cause:
            extra = (T.RANK_EXTRA_DAY if row.day else T.RANK_EXTRA).format(night=row.night, cause=row.cause)
        lines.append(T.RANK_LINE.format(rank=row.rank, alias=row.alias, extra=extra))
    return [Finish("\n".join(lines))]


@dataclass(frozen=True)
class Rank:
    rank: int
    seat: int
    alias: str
    night: int | None  # None: alive
    cause: str
    killer: int | None
    day: bool = False  # out by day (a host's /出局), not at night


def ranking(state: State, settings: Settings) -> list[Rank]:
    """Reverse order of death; deaths of the same batch share a rank (a test game has none)."""
    if settings.test_mode:
        return []
    deaths = {d.seat: d for d in state.deaths}
    survivors = [s for s in state.seats() if s not in deaths]
    rows = [Rank(1, s, state.players[s].alias, None, "", None) for s in survivors]
    for d in sorted(deaths.values(), key=lambda d: (-d.batch, d.seat)):
        later = sum(1 for e in deaths.values() if e.batch > d.batch)
        rows.append(Rank(len(survivors) + later + 1, d.seat, state.players[d.seat].alias, d.night, d.cause, d.killer,
                         d.day))
    return rows


def wipe(state: State) -> State:
    """测试赛事件结束后删档: the records (deaths, kills, items, NPC deaths) are cleared;
    the host log and the kernel's audit log keep that the game happened."""
    state.deaths, state.npc_deaths, state.landed = [], [], []
    for p in state.players.values():
        p.empty_hands()
        p.claims = []
    for place in state.ground:
        state.ground[place] = []
    state.wiped = True
    return state
