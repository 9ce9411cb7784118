"""Leases: every event reaches every process, so a game another
process serves must cost the others no database query per event — they ask again
after a second, and take the game over once its lease is gone."""

import sys
from datetime import datetime, timedelta, timezone

from harness import spy, sqlite_only

from plugins.kernel.leases import PROCESS, THEIRS_RECHECK, Leases, game_key
from plugins.kernel.models import Game, Lease

leases_mod = sys.modules["plugins.kernel.leases"]  # the package exports the Leases object under the same name


async def test_a_game_served_elsewhere_is_asked_about_once_a_second(nonebug_init, monkeypatch):
    game = await Game.create(group_id="9301", kind="demo", seed="s", created_by="h", status="running")
    now = datetime.now(timezone.utc)
    await Lease.create(key=game_key(game.id), owner="other-process", expires_at=now + timedelta(seconds=30))
    mine = Leases()
    mine.configure(ttl=30, shared=True, on_acquire=None)  # type: ignore[arg-type]
    asked = spy(monkeypatch, mine, "_take")
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


async def test_users_of_a_game_served_elsewhere_are_routed_without_reading_it_again(nonebug_init, monkeypatch):
    """The royale night's 60 players and the 88 voters, seen by the process that does not
    serve their game: one read of the game, not one per event (nor per first-seen user)."""
    from plugins.kernel.directory import Directory
    from plugins.kernel.leases import leases
    from plugins.kernel.models import Player

    game = await Game.create(group_id="9302", kind="demo", seed="s", created_by="h", status="running")
    for seat in (1, 2, 3):
        await Player.create(game=game, seat=seat, user_id=f"93020{seat}", alias=f"甲{seat}")
    await Lease.create(key=game_key(game.id), owner="other-process",
                       expires_at=datetime.now(timezone.utc) + timedelta(seconds=30))
    monkeypatch.setattr(leases, "shared", True)
    d = Directory()
    reads = spy(monkeypatch, d, "refresh")
    for _ in range(20):
        for seat in (1, 2, 3):
            await d.ensure_user(f"93020{seat}")
        await d.ensure_group("9302")
    assert reads == [(game.id,)]
    assert d.games_of("930202") == [game.id] and d.group_game["9302"] == game.id  # routed: its owner answers
    await Lease.filter(key=game_key(game.id)).delete()


async def test_a_player_of_a_game_served_elsewhere_signs_up_privately_for_ours(harness, monkeypatch):
    """Two processes: a player of a game the other process serves privately signs up
    (/报名 <群号> <马甲>) for a secret-alias game this process serves: this process answers
    (the sign-up names its game), the other stays silent (it does not serve that game)."""
    from harness import demo_running, texts

    from plugins.kernel.leases import leases

    h = harness
    theirs = await demo_running(h)  # players 31, 32 in the other process's game
    ours = str(int(h.group_id) + 500)
    out = await h.group("1", "/创建 88人场", role="owner", group=ours)
    assert "88人场" in texts(out)
    monkeypatch.setattr(leases, "shared", True)
    monkeypatch.setitem(leases.valid_until, theirs.id, leases.valid_until[theirs.id])
    del leases.valid_until[theirs.id]  # the other process serves it now
    await Lease.filter(key=game_key(theirs.id)).update(owner="other-process")
    out = await h.private("31", f"/报名 {ours} 远方来客")
    assert "报名成功" in texts(out) and "远方来客" in texts(out)
    assert not texts(await h.private("32", "/我的身份"))  # the other game's own commands: its process answers
    await Lease.filter(key=game_key(theirs.id)).delete()


async def test_events_of_a_game_served_elsewhere_are_dropped_before_the_matchers(harness, monkeypatch):
    """Every event reaches every process: once this one knows another serves the game, that game's
    messages go no further than the arrival stamp here (its owner answers them); they are kept,
    in case this process has to take the game over."""
    from harness import demo_running, texts

    import plugins.kernel.routing.router as router
    from plugins.kernel.leases import leases
    from plugins.kernel.routing import kept

    h = harness
    theirs = await demo_running(h)
    monkeypatch.setattr(leases, "shared", True)
    monkeypatch.setitem(leases.valid_until, theirs.id, leases.valid_until[theirs.id])
    del leases.valid_until[theirs.id]
    await Lease.filter(key=game_key(theirs.id)).update(owner="other-process")
    routed = spy(monkeypatch, router, "_dispatch")
    asked = spy(monkeypatch, leases, "_take")
    assert not texts(await h.private("31", "/密 一"))  # asks once: the game is theirs
    assert not texts(await h.private("31", "/密 二"))
    assert not texts(await h.group("32", "/票 1"))
    assert not texts(await h.private("32", "随便说说"))
    assert routed == [] and len(asked) == 1
    assert kept.count(theirs.id) == 4
    kept.answered(theirs.id, float("inf"))
    await Lease.filter(key=game_key(theirs.id)).delete()


@sqlite_only
async def test_alone_a_renewal_between_full_passes_is_one_statement(nonebug_init, monkeypatch):
    """Alone on its database (SQLite) nobody else takes, leaves or dies: between the full
    passes (every ALONE_FULL_EVERY seconds) a renewal only moves our leases' expiry, in one
    statement instead of seven every ten seconds (they could land inside a vote burst)."""
    from harness import sqlite_trips

    game = await Game.create(group_id="9303", kind="demo", seed="s", created_by="h", status="running")
    mine = Leases()
    mine.configure(ttl=30, shared=False, on_acquire=None)  # type: ignore[arg-type]
    now = datetime.now(timezone.utc)
    clock = [now]
    monkeypatch.setattr(leases_mod, "utcnow", lambda: clock[0])
    assert await mine.ensure(game.id)
    clock[0] = now + timedelta(seconds=25)  # past two thirds of the lease: no longer ours unless renewed
    assert not mine.owns(game.id)
    trips = await sqlite_trips(monkeypatch, mine.renew(full=False))
    assert len(trips) == 1
    assert mine.owns(game.id)
    row = await Lease.get(key=game_key(game.id))
    assert row.owner == PROCESS and row.expires_at == clock[0] + timedelta(seconds=30)
    await Lease.filter(key=game_key(game.id)).delete()
    await Game.filter(id=game.id).update(status="ended")


async def test_a_sign_up_for_a_game_served_elsewhere_has_its_roster_read_again_soon(harness, monkeypatch):
    """Every event reaches every process. A sign-up in a game another process serves is that
    process's to answer; this one reads the game's routes again a moment later, so the new
    player's first private message (a night's sixty at once) is dropped unread here."""
    import asyncio
    import importlib

    from harness import texts

    import plugins.kernel.routing.router as router
    from plugins.kernel.directory import directory
    from plugins.kernel.leases import leases
    from plugins.kernel.models import Player

    h = harness
    await h.group("1", "/创建 测试局", role="owner")
    game = await Game.get(group_id=h.group_id, status="signup")
    monkeypatch.setattr(leases, "shared", True)
    monkeypatch.setitem(leases.valid_until, game.id, leases.valid_until[game.id])
    del leases.valid_until[game.id]
    await Lease.filter(key=game_key(game.id)).update(owner="other-process")
    directory_mod = importlib.import_module("plugins.kernel.directory")  # (the package's ``directory`` is the instance)
    monkeypatch.setattr(directory_mod, "REREAD_AFTER", 0.05)
    assert not texts(await h.group("40001", "/报名 新人"))  # the other process answers
    await Player.create(game_id=game.id, user_id="40001", seat=1, alias="新人")  # … and writes the player
    for _ in range(100):  # the re-read, REREAD_AFTER later (however loaded the machine)
        if "40001" in directory.members[game.id]:
            break
        await asyncio.sleep(0.05)
    assert "40001" in directory.members[game.id]
    routed = spy(monkeypatch, router, "_dispatch")
    assert not texts(await h.private("40001", "/密 你好"))
    assert routed == []  # known as the other process's player: dropped before the matchers
    await Lease.filter(key=game_key(game.id)).delete()


async def test_a_re_read_still_due_at_shutdown_is_dropped(nonebug_init, monkeypatch):
    import asyncio
    import importlib

    from plugins.kernel.directory import Directory

    directory_mod = importlib.import_module("plugins.kernel.directory")
    monkeypatch.setattr(directory_mod, "REREAD_AFTER", 0.05)
    d = Directory()
    reads = spy(monkeypatch, d, "refresh")
    d.reread_soon(424242)
    d.reread_soon(424242)  # one re-read per game at a time
    for _ in range(100):
        if reads:
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.1)
    assert reads == [(424242,)]
    d.reread_soon(424242)
    await d.stop()  # the bot shuts down: the database is about to close
    await asyncio.sleep(0.1)
    assert reads == [(424242,)]


async def _theirs(h, monkeypatch):
    """The harness's running demo game, now served by another process (as far as this one knows)."""
    from harness import demo_running

    from plugins.kernel.leases import leases

    game = await demo_running(h)
    monkeypatch.setattr(leases, "shared", True)
    monkeypatch.setitem(leases.valid_until, game.id, leases.valid_until[game.id])
    del leases.valid_until[game.id]
    await Lease.filter(key=game_key(game.id)).update(owner="other-process",
                                                     expires_at=datetime.now(timezone.utc) + timedelta(seconds=30))
    return game


async def test_a_takeover_runs_the_kept_messages_in_arrival_order_before_newer_ones(harness, monkeypatch):
    """The owner died: the messages this process kept of its game meanwhile run once it takes the
    game over, in arrival order and before the message that found the lease gone; the one the dead
    owner applied (its delivery key written) is not applied again."""
    from harness import texts

    from plugins.kernel.leases import leases
    from plugins.kernel.models import CommandLog, Delivery
    from plugins.kernel.routing import kept

    h = harness
    game = await _theirs(h, monkeypatch)
    applied = 880001
    assert not texts(await h.group("31", "/票 2", message_id=applied))  # the owner answers these
    assert not texts(await h.group("32", "/票 1"))
    assert not texts(await h.private("31", "/密 还在"))
    assert kept.count(game.id) == 3
    await Delivery.create(key=f"{h.bot.self_id}:g{h.group_id}:{applied}", at=datetime.now(timezone.utc))
    await Lease.filter(key=game_key(game.id)).update(expires_at=datetime.now(timezone.utc) - timedelta(seconds=1))
    leases.theirs_until.pop(game.id, None)  # the next message asks again: the owner is gone
    out = await h.group("31", "/查票")
    said = texts(out)
    assert "投给 2号" not in said  # applied by the dead owner: not twice
    assert "投给 1号" in said and "密语：还在" in said
    assert "已投 1 票" in said  # the newer message counted the kept vote: it ran after it
    log = await CommandLog.filter(game_id=game.id, name__in=("vote", "secret")).order_by("seq").values_list("name", "user_id")
    assert log == [("vote", "32"), ("secret", "31")]
    assert kept.count(game.id) == 0 and leases.owns(game.id)


async def test_kept_messages_go_once_the_owner_is_seen_renewing_its_lease(harness, monkeypatch):
    """The owner renewed its lease a while after the messages came: it was alive and answered
    them; a later takeover does not run them again."""
    from harness import texts

    from plugins.kernel.leases import leases
    from plugins.kernel.routing import kept

    h = harness
    game = await _theirs(h, monkeypatch)
    assert not texts(await h.group("32", "/票 1"))
    assert kept.count(game.id) == 1
    clock = [leases.clock()]
    monkeypatch.setattr(leases, "clock", lambda: clock[0])
    await leases.renew()  # reads the owner's lease
    assert kept.count(game.id) == 1
    clock[0] += leases.ttl  # a while later
    await leases.renew()  # the same expiry: nothing known
    assert kept.count(game.id) == 1
    await Lease.filter(key=game_key(game.id)).update(expires_at=datetime.now(timezone.utc) + timedelta(seconds=40))
    await leases.renew()  # the expiry moved on: the owner was alive
    assert kept.count(game.id) == 0
    await Lease.filter(key=game_key(game.id)).update(expires_at=datetime.now(timezone.utc) - timedelta(seconds=1))
    leases.theirs_until.pop(game.id, None)
    assert "投给 1号" not in texts(await h.group("31", "/查票"))


def test_kept_messages_are_bounded_in_number_and_age(monkeypatch):
    """A game another process serves keeps at most KEEP_MAX messages, none older than a takeover can
    need (two leases and a little)."""
    from plugins.kernel.leases import leases
    from plugins.kernel.routing import kept

    clock = [1000.0]
    monkeypatch.setattr(leases, "clock", lambda: clock[0])
    game = 10**9
    now = datetime.now(timezone.utc)
    for n in range(kept.KEEP_MAX + 10):
        kept.keep(game, (n, now), "999", {"message_id": n})
    assert kept.count(game) == kept.KEEP_MAX
    clock[0] += kept.max_age() / 2
    kept.keep(game, (10**6, now), "999", {"message_id": 10**6})
    clock[0] += kept.max_age() / 2 + 1
    assert [k.ticket for k in kept.take(game)] == [10**6]  # the older ones are past any takeover
