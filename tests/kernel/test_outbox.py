"""Sending on a virtual clock: pace, order per recipient,
retry with back-off, giving up and pausing with a word to the hosts."""

from datetime import datetime, timedelta, timezone

from harness import enqueue, sqlite_only
from nonebot.adapters.onebot.v11.exception import ActionFailed

from plugins.kernel.config import KernelConfig
from plugins.kernel.models import Game, Host, Outbox
from plugins.kernel.outbox import OutboxWorker
from plugins.kernel.pieces import chunks


class Clock:
    def __init__(self):
        self.now = datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc)

    def __call__(self):
        return self.now


class Recorder:
    def __init__(self, clock, fail=None):
        self.clock = clock
        self.sent = []
        self.fail = fail or {}

    async def __call__(self, self_id, target_type, target_id, text):
        if self.fail.get(text, 0) > 0:
            self.fail[text] -= 1
            raise ActionFailed(status="failed", retcode=1200)
        self.sent.append((self.clock.now, target_type, target_id, text))


async def _run(worker, clock, ticks=500):
    for _ in range(ticks):
        if not await Outbox.exists(status="pending"):
            return
        delay = await worker.tick()
        clock.now += timedelta(seconds=delay)


async def _fresh():
    await Outbox.filter(status="pending").update(status="sent")


async def test_private_pace_with_jitter_and_group_on_its_own_pace(nonebug_init):
    await _fresh()
    clock = Clock()
    rec = Recorder(clock)
    cfg = KernelConfig(send_interval=1.5, send_jitter=0.5, group_send_interval=0.6)
    w = OutboxWorker(cfg, rec, clock=clock)
    for i in range(30):
        await enqueue("private", str(5000 + i), f"m{i}", now=clock.now)
    for i in range(5):
        await enqueue("group", "42", f"g{i}", now=clock.now)
    await _run(w, clock)
    priv = [t for t, kind, *_ in rec.sent if kind == "private"]
    gaps = [(b - a).total_seconds() for a, b in zip(priv, priv[1:])]
    assert len(priv) == 30
    assert all(1.0 - 1e-6 <= g <= 2.0 + 1e-6 for g in gaps)
    assert len(set(round(g, 3) for g in gaps)) > 1  # jittered, not a fixed beat
    grp = [t for t, kind, *_ in rec.sent if kind == "group"]
    assert (grp[-1] - grp[0]).total_seconds() < 5 * 1.5  # not held behind the private pace
    assert [x[3] for x in rec.sent if x[1] == "group"] == [f"g{i}" for i in range(5)]


async def test_order_per_recipient_and_replies_first(nonebug_init):
    await _fresh()
    clock = Clock()
    rec = Recorder(clock)
    w = OutboxWorker(KernelConfig(send_interval=1.5, send_jitter=0), rec, clock=clock)
    for i in range(5):
        await enqueue("private", "1", f"a{i}", now=clock.now)
        await enqueue("private", "2", f"b{i}", now=clock.now)
    await enqueue("private", "3", "reply", priority=0, now=clock.now)
    await _run(w, clock)
    order = [x[3] for x in rec.sent]
    assert order[0] == "reply"
    assert [x for x in order if x.startswith("a")] == [f"a{i}" for i in range(5)]
    assert [x for x in order if x.startswith("b")] == [f"b{i}" for i in range(5)]


async def test_retry_with_backoff_keeps_order(nonebug_init):
    await _fresh()
    clock = Clock()
    rec = Recorder(clock, fail={"first": 2})
    w = OutboxWorker(KernelConfig(send_interval=0.1, send_jitter=0, send_backoff=2.0), rec, clock=clock)
    start = clock.now
    await enqueue("private", "7", "first", now=clock.now)
    await enqueue("private", "7", "second", now=clock.now)
    await _run(w, clock)
    assert [x[3] for x in rec.sent] == ["first", "second"]
    # failed at t0, retried after 2 s, failed, retried after 4 s more
    assert (rec.sent[0][0] - start).total_seconds() >= 6.0


async def test_gives_up_after_max_attempts_and_tells_hosts(nonebug_init):
    await _fresh()
    g = await Game.create(group_id="1", kind="demo", seed="s", created_by="h1")
    await Host.create(game=g, user_id="h1", added_by="h1")
    clock = Clock()
    rec = Recorder(clock, fail={"lost": 99})
    w = OutboxWorker(KernelConfig(send_interval=0.1, send_jitter=0, send_max_attempts=3, send_pause_after=99), rec, clock=clock)
    await enqueue("private", "8", "lost", game_id=g.id, now=clock.now)
    await _run(w, clock)
    row = await Outbox.get(text="lost")
    assert row.status == "failed" and row.attempts == 3
    notice = [x for x in rec.sent if x[2] == "h1"]
    assert notice and "发送失败" in notice[0][3] and "/我的身份" in notice[0][3]


async def test_pauses_after_failures_in_a_row(nonebug_init):
    await _fresh()
    g = await Game.create(group_id="2", kind="demo", seed="s", created_by="h2")
    await Host.create(game=g, user_id="h2", added_by="h2")
    clock = Clock()
    rec = Recorder(clock, fail={f"x{i}": 1 for i in range(3)})
    cfg = KernelConfig(send_interval=0.1, send_jitter=0, send_pause_after=3, send_pause_seconds=120, send_backoff=1)
    w = OutboxWorker(cfg, rec, clock=clock)
    start = clock.now
    for i in range(3):
        await enqueue("private", str(900 + i), f"x{i}", game_id=g.id, now=clock.now)
    await _run(w, clock)
    assert sorted(x[3] for x in rec.sent if x[3].startswith("x")) == ["x0", "x1", "x2"]
    first_retry = min(x[0] for x in rec.sent)
    assert (first_retry - start).total_seconds() >= 120
    assert any("发送暂停" in x[3] for x in rec.sent if x[2] == "h2")


def test_long_text_is_split_at_line_ends():
    text = "\n".join("行" * 50 for _ in range(100))
    parts = chunks(text, 1000)
    assert all(len(p) <= 1000 for p in parts)
    assert "\n".join(parts) == text


async def test_replies_to_a_group_go_out_together_in_order(nonebug_init):
    """掐点: replies waiting for the same group are sent as one message, in order;
    announcements are never merged."""
    await _fresh()
    clock = Clock()
    rec = Recorder(clock)
    w = OutboxWorker(KernelConfig(send_interval=1.5, send_jitter=0, group_send_interval=0.6), rec, clock=clock)
    await enqueue("group", "77", "公告一", now=clock.now)
    for i in range(88):
        await enqueue("group", "77", f"u{i}：第 {i + 1} 号票", priority=0, now=clock.now)
    await enqueue("group", "77", "公告二", now=clock.now)
    await _run(w, clock)
    texts_sent = [x[3] for x in rec.sent]
    assert texts_sent[0] == "公告一" and texts_sent[-1] == "公告二"
    merged = "\n".join(texts_sent[1:-1]).split("\n")
    assert merged == [f"u{i}：第 {i + 1} 号票" for i in range(88)]
    assert len(texts_sent) <= 4
    assert await Outbox.filter(status="pending").count() == 0


# ---- a fair queue -------------------------------------------


class SlowRecorder(Recorder):
    """Sends to ``slow`` hang until released, then time out (OneBot's api_timeout)."""

    def __init__(self, clock):
        super().__init__(clock)
        import asyncio

        self.release = asyncio.Event()
        self.tries: list[str] = []

    async def __call__(self, self_id, target_type, target_id, text, **kw):
        from plugins.kernel.outbox import SendTimeout

        self.tries.append(target_id)
        if target_id == "slow":
            await self.release.wait()
            raise SendTimeout("WebSocket call api send_private_msg timeout")
        self.sent.append((self.clock.now, target_type, target_id, text))


async def test_a_slow_recipient_never_blocks_the_others(nonebug_init):
    await _fresh()
    game = await Game.create(group_id="9101", kind="demo", seed="s", created_by="h")
    await Host.create(game=game, user_id="h1", added_by="h")
    clock = Clock()
    rec = SlowRecorder(clock)
    cfg = KernelConfig(send_interval=1.0, send_jitter=0.0, group_send_interval=0.5, send_wait=0.05, send_backoff=2.0)
    worker = OutboxWorker(cfg, rec, clock=clock)
    await enqueue("private", "slow", "给慢的人", game_id=game.id)
    for i in range(3):
        await enqueue("private", f"p{i}", f"私聊{i}", game_id=game.id)
        await enqueue("group", "9101", f"群消息{i}", game_id=game.id)
    for _ in range(40):  # everyone else is served while the slow send hangs
        if len(rec.sent) == 6:
            break
        clock.now += timedelta(seconds=await worker.tick())
    assert sorted(t for *_, t in rec.sent) == sorted([f"私聊{i}" for i in range(3)] + [f"群消息{i}" for i in range(3)])
    assert rec.tries.count("slow") == 1  # not resent while in flight
    # it times out: maybe delivered, so it is resent once at most
    rec.release.set()
    import asyncio

    await asyncio.sleep(0.01)
    row = await Outbox.get(game_id=game.id, target_id="slow")
    assert row.status == "pending" and row.timeouts == 1
    for _ in range(40):
        row = await Outbox.get(game_id=game.id, target_id="slow")
        if row.status != "pending":
            break
        clock.now += timedelta(seconds=await worker.tick())
        await asyncio.sleep(0)
    assert row.status == "failed" and row.timeouts == 2
    assert rec.tries.count("slow") == 2
    note = await Outbox.get(game_id=game.id, target_id="h1")
    assert "可能已送达" in note.text and "不再重发" in note.text


async def test_queued_rows_are_the_rows_one_create_writes(harness):
    """A write set's queued rows go in without model objects: every column as Outbox.create stores
    it (defaults, booleans, times)."""
    from tortoise import connections

    from plugins.kernel.leases import PROCESS
    from plugins.kernel.models import Outbox

    now = datetime.now(timezone.utc)
    await Outbox.create(self_id="1", target_type="private", target_id="7770", text="一条", priority=0, scrub=True,
                        next_try_at=now, created_at=now, owner=PROCESS)
    await enqueue("private", "7770", "一条", self_id="1", priority=0, now=now, scrub=True)
    _, rows = await connections.get("default").execute_query("SELECT * FROM outbox WHERE target_id='7770' ORDER BY id")
    one, batch = ({k: v for k, v in dict(r).items() if k != "id"} for r in rows)
    assert one == batch and one["status"] == "pending" and one["text"] == "一条"


async def test_games_take_turns_so_one_games_backlog_never_holds_up_another(nonebug_init):
    """A royale night's 60 waiting replies do not stand in front of a vote's
    confirmation in another game; each game keeps its own order."""
    await _fresh()
    royale = await Game.create(group_id="9201", kind="demo", seed="s", created_by="h")
    votes = await Game.create(group_id="9202", kind="demo", seed="s", created_by="h")
    clock = Clock()
    rec = Recorder(clock)
    w = OutboxWorker(KernelConfig(send_interval=1.0, send_jitter=0), rec, clock=clock)
    for i in range(6):
        await enqueue("private", f"r{i}", f"行动{i}", game_id=royale.id, priority=0, now=clock.now)
    for i in range(2):
        await enqueue("private", f"v{i}", f"已投票{i}", game_id=votes.id, priority=0, now=clock.now)
    await enqueue("private", "host", "公告", game_id=royale.id, priority=1, now=clock.now)
    await _run(w, clock)
    order = [x[3] for x in rec.sent]
    assert order[:5] == ["行动0", "已投票0", "行动1", "已投票1", "行动2"]  # in turns, each game oldest first
    assert [x for x in order if x.startswith("行动")] == [f"行动{i}" for i in range(6)]
    assert order[-1] == "公告"  # replies of every game still come before announcements


class HeldRecorder(Recorder):
    """Sends that stay unanswered until ``release`` is set."""

    def __init__(self, clock):
        super().__init__(clock)
        import asyncio

        self.release = asyncio.Event()
        self.started: list[str] = []

    async def __call__(self, self_id, target_type, target_id, text):
        self.started.append(text)
        await self.release.wait()
        await super().__call__(self_id, target_type, target_id, text)


async def test_with_no_pace_sends_to_different_recipients_overlap_in_order_per_recipient(nonebug_init):
    import asyncio

    from plugins.kernel.outbox import UNPACED_IN_FLIGHT

    await _fresh()
    clock = Clock()
    rec = HeldRecorder(clock)
    w = OutboxWorker(KernelConfig(send_interval=0, send_jitter=0, group_send_interval=0), rec, clock=clock)
    for i in range(UNPACED_IN_FLIGHT + 2):
        await enqueue("private", f"u{i}", f"第一条{i}", priority=0, now=clock.now)
    await enqueue("private", "u0", "第二条0", priority=0, now=clock.now)
    await w.tick()
    await asyncio.sleep(0)
    assert sorted(rec.started) == sorted(f"第一条{i}" for i in range(UNPACED_IN_FLIGHT))  # at once, up to the cap
    assert "第二条0" not in rec.started  # u0's second waits for its first
    rec.release.set()
    await _run(w, clock)
    for _ in range(20):
        await asyncio.sleep(0)
    texts = [x[3] for x in rec.sent]
    assert texts.index("第一条0") < texts.index("第二条0") and len(texts) == UNPACED_IN_FLIGHT + 3
    assert not await Outbox.exists(status="pending", target_id__startswith="u")


async def test_sends_that_land_together_are_marked_sent_in_one_write(nonebug_init, monkeypatch):
    """Eight answers from NapCat in one go: one write marks them all."""
    import asyncio

    from harness import spy

    from plugins.kernel.outbox import UNPACED_IN_FLIGHT
    from plugins.kernel.store import current

    await _fresh()
    clock = Clock()
    rec = HeldRecorder(clock)
    w = OutboxWorker(KernelConfig(send_interval=0, send_jitter=0, group_send_interval=0), rec, clock=clock)
    for i in range(UNPACED_IN_FLIGHT):
        await enqueue("private", f"m{i}", f"消息{i}", priority=0, now=clock.now)
    writes = spy(monkeypatch, current(), "write")
    await w.tick()
    await asyncio.sleep(0)
    assert len(rec.started) == UNPACED_IN_FLIGHT
    rec.release.set()
    await asyncio.gather(*w.inflight.values())
    assert len(writes) == 1
    assert await Outbox.filter(target_id__startswith="m", status="sent").count() == UNPACED_IN_FLIGHT
    assert not await Outbox.exists(target_id__startswith="m", status="pending")


async def test_with_no_pace_a_send_frees_its_place_once_it_lands_not_once_it_is_marked_sent(nonebug_init, monkeypatch):
    """Marking sends as sent is a write that waits its turn at the database (behind a
    royale night's); the queue goes on sending to other recipients meanwhile, and a recipient's
    next message still waits until its last one is marked."""
    import asyncio

    import plugins.kernel.outbox as outbox
    from plugins.kernel.outbox import UNPACED_IN_FLIGHT

    await _fresh()
    gate = asyncio.Event()
    real = outbox._write_sent

    async def slow(sent):
        await gate.wait()
        await real(sent)

    monkeypatch.setattr(outbox, "_write_sent", slow)
    clock = Clock()
    rec = Recorder(clock)
    w = OutboxWorker(KernelConfig(send_interval=0, send_jitter=0, group_send_interval=0, send_wait=30), rec, clock=clock)
    for i in range(UNPACED_IN_FLIGHT + 1):
        await enqueue("private", f"s{i}", f"一{i}", priority=0, now=clock.now)
    await enqueue("private", "s0", "二0", priority=0, now=clock.now)
    await asyncio.wait_for(w.tick(), 5)  # returns once a send has landed, its mark still waiting
    await asyncio.wait_for(w.tick(), 5)
    for _ in range(5):
        await asyncio.sleep(0)
    texts = [x[3] for x in rec.sent]
    assert f"一{UNPACED_IN_FLIGHT}" in texts and "二0" not in texts  # s0's second waits for its first's mark
    gate.set()
    await _run(w, clock)
    for _ in range(20):
        await asyncio.sleep(0)
    assert [x[3] for x in rec.sent].count("二0") == 1
    assert not await Outbox.exists(status="pending", target_id__startswith="s")


async def test_an_unpaced_worker_reads_the_queue_once_a_tick(nonebug_init, monkeypatch):
    """A tick asks the database once, for the heads due now and for when the first one
    not yet due will be (a retry's back-off); when every head due was sent on its way it waits
    for a wake-up or that time, instead of asking again at once (five reads a reply before, two now)."""
    import asyncio

    from harness import spy

    from plugins.kernel.store import current

    await _fresh()
    reads = spy(monkeypatch, current(), "fetch")
    clock = Clock()
    rec = Recorder(clock)
    w = OutboxWorker(KernelConfig(send_interval=0, send_jitter=0, group_send_interval=0), rec, clock=clock)
    await enqueue("private", "q1", "现在", priority=0, now=clock.now)
    await enqueue("private", "q2", "七秒后", priority=0, now=clock.now + timedelta(seconds=7))
    assert await w.tick() == 7.0  # q1 on its way, q2 due in 7 s: one read
    assert len(reads) == 1
    await asyncio.gather(*w.inflight.values())
    assert [x[3] for x in rec.sent] == ["现在"]
    assert await w.tick() == 7.0 and len(reads) == 2  # nothing due: the same read told when
    clock.now += timedelta(seconds=7)
    await w.tick()
    await asyncio.gather(*w.inflight.values())
    assert [x[3] for x in rec.sent] == ["现在", "七秒后"]


async def test_heads_read_by_the_worker_are_the_rows_tortoise_reads(nonebug_init):
    """The worker reads its heads' times itself (``fromisoformat``: SQLite keeps them as text): the
    same values, zone included, as Tortoise's own read, with and without microseconds."""
    from plugins.kernel.outbox_heads import first_head, ranked_heads

    await _fresh()
    at = datetime(2026, 12, 2, 3, 4, 5, 678901, tzinfo=timezone.utc)
    await enqueue("private", "h1", "整秒", priority=0, now=at.replace(microsecond=0))
    await enqueue("private", "h2", "微秒", priority=0, now=at)
    mine, later = await ranked_heads(["private"], at, [], 5)
    assert later is None
    head = await first_head(["private"], None, [], "id")
    for row in [r for _, r in mine] + [head]:
        stored = await Outbox.get(id=row.id)
        assert row.next_try_at == stored.next_try_at
        assert row.next_try_at.utcoffset() == stored.next_try_at.utcoffset()
    assert sorted(r.text for _, r in mine) == ["微秒", "整秒"]
    _, later = await ranked_heads(["private"], at.replace(microsecond=0), [], 5)
    assert later == at  # the microsecond one is not yet due then: when it will be


async def test_a_recipients_next_message_goes_once_the_last_one_landed(nonebug_init):
    """The running worker, woken by a landed send, finds that recipient free: its next message goes
    at once (the wake-up came before the recipient was let go, and a tick that quick went idle for
    30 s with the message waiting)."""
    import asyncio

    await _fresh()
    clock = Clock()
    rec = Recorder(clock)
    w = OutboxWorker(KernelConfig(send_interval=0, send_jitter=0, group_send_interval=0), rec, clock=clock)
    for text in ("第一条", "第二条", "第三条"):
        await enqueue("group", "g-next", text, priority=1, now=clock.now)
    w.start()
    try:
        for _ in range(500):
            if len(rec.sent) == 3:
                break
            await asyncio.sleep(0.01)
    finally:
        await w.stop()
    assert [x[3] for x in rec.sent] == ["第一条", "第二条", "第三条"]


@sqlite_only
async def test_the_queue_is_read_at_once_without_a_trip_to_the_connections_thread(nonebug_init, monkeypatch):
    """Beside a royale night SQLite's connection thread is busy with writes half the
    time, and the queue's read of a vote's answer waited there 3-4 ms for a 0.15 ms query. The
    queue reads the committed rows on a connection of its own (WAL: a reader waits for no writer):
    a row is read as soon as its write is in, a row marked sent is no longer a head."""
    from harness import sqlite_trips

    from plugins.kernel.outbox import _write_sent
    from plugins.kernel.outbox_heads import ranked_heads

    await _fresh()
    clock = Clock()
    await enqueue("private", "rd1", "读到了", priority=0, now=clock.now)
    got: list = []

    async def read() -> None:
        got.append(await ranked_heads(["private"], clock.now, [], 5))

    assert await sqlite_trips(monkeypatch, read()) == []
    (rows, _), = got
    assert [r.text for _, r in rows] == ["读到了"]
    await _write_sent([([r for _, r in rows], clock.now)])
    assert await ranked_heads(["private"], clock.now, [], 5) == ([], None)


@sqlite_only
async def test_a_read_the_reading_connection_cannot_make_is_made_on_the_connections_thread(nonebug_init, monkeypatch):
    """SQLite may answer a reader "busy" in WAL's rare cases (a recovery): the queue is then read
    on the bot's own connection, and nothing is missed."""
    import sqlite3

    from plugins.kernel.outbox_heads import ranked_heads
    from plugins.kernel.store import current

    await _fresh()
    clock = Clock()
    await enqueue("private", "rd2", "还是读到了", priority=0, now=clock.now)
    store = current()
    reader = store._reader()
    assert reader is not None
    tried: list[str] = []

    class Busy:
        def execute(self, sql, params):
            tried.append(sql)
            raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(store, "reader", Busy())
    rows, _ = await ranked_heads(["private"], clock.now, [], 5)
    assert [r.text for _, r in rows] == ["还是读到了"] and len(tried) == 1
