"""Several bot accounts: private messages go out through the
account the player (or host) last wrote to — the one they are friends with."""

from harness import Harness

from plugins.kernel.models import Outbox


async def test_private_messages_use_the_account_last_written_to(harness):
    h = harness
    other = Harness(self_id="998", group=h.group_id)
    await h.group("1", "/创建 测试局", role="owner")
    await h.group("31", "/报名 甲")
    await h.group("32", "/报名 乙")
    await h.group("1", "/开始")
    await other.private("1", "/在吗")  # the host writes to the second account
    await h.private("31", "/密 你好")  # a player's secret goes to the hosts
    row = await Outbox.filter(target_type="private", target_id="1", text__contains="密语").order_by("-id").first()
    assert row is not None and row.self_id == "998"
    await h.private("1", "/在吗")  # back to the first account
    await h.private("31", "/密 再见")
    row = await Outbox.filter(target_type="private", target_id="1", text__contains="再见").first()
    assert row is not None and row.self_id == "999"


async def test_a_restart_remembers_which_account_each_user_wrote_to(harness):
    """Start-up reads every stored contact: after a restart the bot still answers a player
    through the account they last wrote to, without looking them up again."""
    from datetime import datetime, timezone

    from plugins.kernel.directory import _contact_seen, last_account, load_contacts
    from plugins.kernel.models import Contact

    await Contact.update_or_create(defaults={"self_id": "778", "at": datetime.now(timezone.utc)}, user_id="40401")
    _contact_seen.clear()  # as after a restart
    assert last_account("40401") is None
    await load_contacts()
    assert last_account("40401") == "778"


async def test_contacts_noted_at_once_are_written_in_one_trip(nonebug_init, monkeypatch):
    """A night's first private actions: 60 players write at once and their contacts go to the
    database in one write, not 60 transactions ahead of other games' writes."""
    import asyncio
    import importlib
    from datetime import datetime, timezone

    from harness import spy

    from plugins.kernel.models import Contact

    directory = importlib.import_module("plugins.kernel.directory")  # (the package's ``directory`` is the instance)

    now = datetime.now(timezone.utc)
    from plugins.kernel.store import current

    writes = spy(monkeypatch, current(), "write")
    users = [str(40500 + i) for i in range(60)]
    await asyncio.gather(*(directory.note_contact(u, "777", now) for u in users))
    assert len(writes) == 1
    assert dict(await Contact.filter(user_id__in=users).values_list("user_id", "self_id")) == dict.fromkeys(users, "777")
    await directory.note_contact(users[0], "777", now)  # unchanged: nothing written
    assert len(writes) == 1
    await directory.note_contact(users[0], "778", now)  # the player now writes to another account
    assert await Contact.get(user_id=users[0]).values_list("self_id", flat=True) == "778"
    assert directory.last_account(users[0]) == "778"


async def test_with_a_shared_database_a_contact_another_process_noted_is_used(harness, monkeypatch):
    """Several processes on one PostgreSQL: the host wrote to the second account through the
    other process, so only the database knows it; alone on SQLite every contact is known
    from start-up and the database is not asked (one query less per game command)."""
    from datetime import datetime, timezone

    from plugins.kernel.directory import _contact_seen
    from plugins.kernel.leases import leases
    from plugins.kernel.models import Contact

    h = harness
    await h.group("1", "/创建 测试局", role="owner")
    await h.group("31", "/报名 甲")
    await h.group("32", "/报名 乙")
    await Contact.update_or_create(defaults={"self_id": "997", "at": datetime.now(timezone.utc)}, user_id="1")  # by the other process
    _contact_seen.pop("1", None)
    monkeypatch.setattr(leases, "shared", True)
    await h.group("1", "/开始")
    await h.private("31", "/密 你好")
    row = await Outbox.filter(target_type="private", target_id="1", text__contains="密语").order_by("-id").first()
    assert row is not None and row.self_id == "997"
