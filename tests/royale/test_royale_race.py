"""Concurrency and invariants: 按照提交时间的先后（手速）决定行动顺序 (rules: 时限)."""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings, strategies as st

from plugins.gamekit.contract import Actor, Command, Eliminate, Rejected
from plugins.royale.engine import ENGINE
from plugins.royale.engine.state import FoundItem, FoundPlayer, Slot

from royale_helpers import Game, all_item_ids, args_of, empty_world, merge

CALM = merge(empty_world(), {"places": {"closures": [0]}})
PLACE = "果园"


def duel() -> Game:
    """1 and 2 have found each other; each holds a blue weapon and has 20 HP."""
    g = Game(3, settings=CALM)
    g.born({1: PLACE, 2: PLACE, 3: "动物园"})
    for s, o in ((1, 2), (2, 1)):
        g.give(s, "双发射手", equip=True)
        g.give(s, "矿泉水")
        g.p(s).hp = 20
        g.p(s).search = FoundPlayer(seat=o, place=PLACE)
    return g


def test_mutual_attack_first_arrival_kills_second_is_refused():
    """时限: the attack that arrives first is settled first; the slower attacker is already out."""
    for first, second in ((1, 2), (2, 1)):
        g = duel()
        ids = all_item_ids(g.state)
        out = g.cmd(first, "attack")
        assert Eliminate(second, "攻击") in out.effects
        assert "你已出局" in g.reject(second, "attack")
        assert g.p(first).alive and g.p(first).hp == 20
        assert len(g.p(first).items) == 4 and all_item_ids(g.state) == ids


def pickup_race() -> Game:
    g = Game(3, settings=CALM)
    g.born({1: PLACE, 2: PLACE, 3: "动物园"})
    item = g.put(PLACE, "预言之瞳")
    for s in (1, 2):
        g.p(s).search = FoundItem(id=item.id, name=item.name, place=PLACE)
    return g


def test_same_item_picked_by_the_first_arrival_only():
    """【捡拾】 two players found the same item: the first gets it, the second is told it is gone."""
    for first, second in ((1, 2), (2, 1)):
        g = pickup_race()
        ids = all_item_ids(g.state)
        g.cmd(first, "pickup")
        assert "已经不在原地" in g.reject(second, "pickup")
        assert [i.name for i in g.p(first).items] == ["预言之瞳"] and g.p(second).items == []
        assert all_item_ids(g.state) == ids


ACTIONS = st.sampled_from(["search", "attack", "pickup", "drop", "equip", "move", "tick"])
STEP = st.tuples(st.integers(1, 4), ACTIONS, st.integers(0, 10))


def run(g: Game, steps) -> list:
    effects = []
    for seat, name, k in steps:
        if name == "tick":
            g.tick(31)
            continue
        p = g.p(seat)
        args = {}
        if name in ("drop", "equip"):
            if not p.items:
                continue
            args["item"] = p.items[k % len(p.items)].name
        if name == "move":
            args["place"] = [PLACE, "动物园"][k % 2]
        try:
            effects += g.cmd(seat, name, **args).effects
        except Rejected:
            pass
        g.tick(1 + k)
    return effects


def loaded_game(seed: int) -> Game:
    g = Game(4, seed=str(seed), settings=CALM)
    g.born({1: PLACE, 2: PLACE, 3: PLACE, 4: "动物园"})
    names = ["预言之瞳", "双发射手", "木棍", "厄运羽衣", "麻布头带", "矿泉水", "银币", "石块"]
    rng = random.Random(seed)
    for i, n in enumerate(names):
        if i % 2:
            g.put(rng.choice([PLACE, "动物园"]), n)
        else:
            g.give(1 + i % 4, n, equip=n in ("预言之瞳", "厄运羽衣"))
    for s in (1, 2, 3, 4):
        g.p(s).hp = 30
    return g


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 1000), steps=st.lists(STEP, max_size=60))
def test_items_are_conserved_by_searches_pickups_drops_and_kills(seed, steps):
    """出局 loot rules: no item is lost or duplicated (orange weapons may wear out)."""
    g = loaded_game(seed)
    before = all_item_ids(g.state)
    worn = {it.id for items in g.state.ground.values() for it in items if it.uses is not None}
    worn |= {it.id for p in g.state.players.values() for it in p.items if it.uses is not None}
    run(g, steps)
    after = all_item_ids(g.state)
    assert len(after) == len(set(after))
    broken = set(before) - set(after)
    assert set(after) <= set(before)
    assert broken <= worn  # only gear with limited uses may wear out
    for s in range(1, 5):
        p = g.p(s)
        assert len(p.items) <= 6
        if not p.alive:
            assert p.items == []
        for slot in (Slot.WEAPON, Slot.ARMOUR):
            assert p.hand(slot) is None or any(it.id == p.hand(slot) for it in p.items)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 1000), steps=st.lists(STEP, max_size=50), nights=st.integers(1, 4))
def test_nobody_dies_twice(seed, steps, nights):
    """出局: every death is recorded once and announced once, across attacks, bleed and closures."""
    g = Game(4, seed=str(seed), settings=empty_world())
    g.born({1: PLACE, 2: PLACE, 3: PLACE, 4: PLACE})
    g.give(1, "预言之瞳", equip=True)
    g.give(2, "遥控地雷")
    effects = list(g.all_effects)
    for _ in range(nights):
        effects += run(g, steps)
        if g.state.phase == "over":
            break
        effects += g.advance().effects
        if g.state.phase == "over":
            break
        effects += g.advance().effects
    dead = [d.seat for d in g.state.deaths]
    assert len(dead) == len(set(dead))
    elim = [e.seat for e in g.all_effects if isinstance(e, Eliminate)]
    assert sorted(elim) == sorted(dead)
    assert all(not g.p(s).alive for s in dead)
    assert all(g.p(s).alive for s in range(1, 5) if s not in dead)


@settings(max_examples=30, deadline=None)
@given(order=st.permutations([1, 2, 3, 4, 5]))
def test_night_end_does_not_depend_on_submission_order_of_independent_actions(order):
    """静养 / 移动 by different players commute: the morning is the same whatever the arrival order."""
    plans = {1: ("rest", {"place": "动物园"}), 2: ("move", {"place": "吠舞罗"}), 3: ("rest", {}),
             4: ("move", {"place": "动物园"}), 5: ("rest", {"place": "果园"})}

    def play(seq):
        g = Game(5, seed="order", settings=CALM)
        g.born({s: PLACE for s in range(1, 6)})
        for s in range(1, 6):
            g.p(s).hp, g.p(s).st = 50, 30
        for s in seq:
            name, args = plans[s]
            g.cmd(s, name, **args)
        out = g.advance()
        return g.state, [e for e in out.effects]

    assert play(order) == play([1, 2, 3, 4, 5])


def test_refusals_never_change_the_state():
    """Bad input leaves the state untouched (checked on a dead, a resting and a day player)."""
    g = Game(3, settings=CALM)
    g.born({1: PLACE, 2: PLACE, 3: PLACE})
    g.cmd(3, "rest")
    g.cmd(None, "kernel.out", host=True, seat=2, reason="x")
    frozen = copy.deepcopy(g.state)
    for seat, name, args in [(2, "search", {}), (3, "search", {}), (3, "use", {"item": "x"}),
                             (1, "attack", {}), (1, "pickup", {}), (1, "move", {"place": "火星"})]:
        try:
            ENGINE.apply(g.state, Actor("u", seat, False, True), Command(name, args_of(name, args)), g.ctx())
        except Rejected:
            pass
        else:
            raise AssertionError(f"{name} by {seat} was accepted")
        assert g.state == frozen
