"""Every part of every game's state stays out of the garbage collector's passes (``gc=False``,
see ``gamekit.state``): a part declared without it would add its objects to every full pass."""

import gc

import msgspec
import pytest
from test_settings_shared import ENGINES


def struct_classes(t: msgspec.inspect.Type, seen: dict[type, None]) -> dict[type, None]:
    """The Struct classes a type holds, each once (in the order met)."""
    if isinstance(t, msgspec.inspect.StructType):
        if t.cls in seen:
            return seen
        seen[t.cls] = None
        for f in t.fields:
            struct_classes(f.type, seen)
    elif isinstance(t, msgspec.inspect.UnionType):
        for x in t.types:
            struct_classes(x, seen)
    elif isinstance(t, msgspec.inspect.DictType):
        struct_classes(t.key_type, seen)
        struct_classes(t.value_type, seen)
    elif isinstance(t, msgspec.inspect.CollectionType):  # list, set, frozenset, var-tuple
        struct_classes(t.item_type, seen)
    elif isinstance(t, msgspec.inspect.TupleType):
        for x in t.item_types:
            struct_classes(x, seen)
    return seen


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_part_of_the_state_is_left_out_of_the_collectors_passes(game):
    parts = struct_classes(msgspec.inspect.type_info(ENGINES[game].State), {})
    assert len(parts) > 5, "the walk found too few parts"
    tracked = [cls.__name__ for cls in parts if cls.__struct_config__.gc]
    assert not tracked, f"declare these with gc=False: {tracked}"


def test_a_held_mafia88_state_adds_no_tracked_parts():
    from mafia88_helpers import Game

    g = Game(seed="gc")
    engine = ENGINES["mafia88"]
    state = engine.decode(engine.encode(g.state))  # as the kernel reads a game
    assert not gc.is_tracked(state)
    assert all(not gc.is_tracked(p) for p in state.players.values())
