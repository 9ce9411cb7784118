"""Leases (issue 19 item 5): every event reaches every process, so a game another
process serves must cost the others no database query per event — they ask again
after a second, and take the game over once its lease is gone."""

import sys
from datetime import datetime, timedelta, timezone

from plugins.kernel.leases import PROCESS, THEIRS_RECHECK, Leases, game_key
from plugins.kernel.models import Game, Lease

leases_mod = sys.modules["plugins.kernel.leases"]  # the package exports the Leases object under the same name


async def test_a_game_served_elsewhere_is_asked_about_once_a_second(nonebug_init, monkeypatch):
    game = await Game.create(group_id="9301", kind="demo", seed="s", created_by="h", status="running")
    now = datetime.now(timezone.utc)
    await Lease.create(key=game_key(game.id), owner="other-process", expires_at=now + timedelta(seconds=30))
    mine = Leases()
    mine.configure(ttl=30, shared=True, on_acquire=None)  # type: ignore[arg-type]
    asked = []
    real_take = mine._take

    async def take(game_id, at):
        asked.append(at)
        return await real_take(game_id, at)

    monkeypatch.setattr(mine, "_take", take)
    clock = [now]
    monkeypatch.setattr(leases_mod, "utcnow", lambda: clock[0])
    assert not await mine.ensure(game.id)
    for _ in range(50):  # a royale night's events in the other process's game
        assert not await mine.ensure(game.id)
    assert len(asked) == 1
    clock[0] = now + timedelta(seconds=THEIRS_RECHECK + 0.01)
    assert not await mine.ensure(game.id) and len(asked) == 2  # still theirs: asked again after a second
    await Lease.filter(key=game_key(game.id)).delete()  # the owner stopped cleanly
    clock[0] += timedelta(seconds=THEIRS_RECHECK + 0.01)
    assert await mine.ensure(game.id)  # taken over at the next event after the recheck
    assert await Lease.get(key=game_key(game.id)).values_list("owner", flat=True) == PROCESS
    await Lease.filter(key=game_key(game.id)).delete()
