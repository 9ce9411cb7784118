"""Games whose stored settings are equal share one typed settings object, validated once (most
games play the defaults). Sharing is safe only while rules leave settings as they are: each
game's short game is played and every shared object must still equal a fresh validation."""

import copy
import importlib.util
import sys

import orjson
import pytest
from test_engines_alone import SHORT_GAMES

from plugins.league.engine import ENGINE as LEAGUE
from plugins.mafia88.engine import ENGINE as MAFIA88
from plugins.prison.engine.engine import ENGINE as PRISON
from plugins.royale.engine import ENGINE as ROYALE

ENGINES = {"mafia88": MAFIA88, "prison": PRISON, "royale": ROYALE, "league": LEAGUE}


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_games_with_equal_settings_share_one_typed_settings_object(game):
    engine = ENGINES[game]
    stored = engine.check_settings({})
    one, other = engine.settings_of(stored), engine.settings_of(copy.deepcopy(stored))
    assert one is other
    assert one == engine.Settings.model_validate(orjson.loads(orjson.dumps(one.model_dump(mode="json"))))


def test_a_game_with_other_settings_gets_its_own_object():
    stored = MAFIA88.check_settings({})
    changed = MAFIA88.check_settings({"limits": {"quote_max_percent": 7}})
    assert MAFIA88.settings_of(changed) is not MAFIA88.settings_of(stored)
    assert MAFIA88.settings_of(changed).limits.quote_max_percent == 7


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_a_short_game_leaves_the_shared_settings_as_they_were(game):
    folder, module = SHORT_GAMES[game]
    spec = importlib.util.spec_from_file_location(f"shared_settings_{game}", folder / f"{module}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(folder))
    try:
        spec.loader.exec_module(mod)
        assert mod.play()
    finally:
        sys.path.remove(str(folder))
    engine = ENGINES[game]
    assert engine._shared, "the short game read no typed settings"
    for key, value in engine._shared.items():
        assert value == engine.Settings.model_validate(orjson.loads(key), strict=False), "a rule changed its settings"
