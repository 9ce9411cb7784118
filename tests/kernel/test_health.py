"""The operator's doors (plugins/kernel/health.py, metrics.py, gate.py): ``GET /healthz`` says
whether the database answers and which of the bot's own accounts are connected, 503 when either
fails; ``GET /metrics`` counts commands, answers, sends given up and reads the gauges from the
database; both answer loopback or the bearer token only, and neither names a player."""

import asyncio
import json
import time
import urllib.error
import urllib.request
from datetime import datetime, timedelta, timezone

import nonebot
import pytest
from fake_onebot import BotProcess, FakeOneBot
from harness import Harness, enqueue
from nonebot.adapters.onebot.v11.exception import ActionFailed
from prometheus_client.parser import text_string_to_metric_families

from plugins.kernel import health, metrics
from plugins.kernel.config import KernelConfig
from plugins.kernel.gate import Gate
from plugins.kernel.models import Game, Outbox, Timer
from plugins.kernel.outbox import OutboxWorker

TOKEN = "watch-token"
REMOTE = ("203.0.113.9", 40000)  # a documentation address: only ever a value in a scope here


async def _call(app, path: str, client=("127.0.0.1", 40000), headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    """One GET through an ASGI app, as uvicorn would hand it in."""
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "", "client": client,
             "server": ("127.0.0.1", 8080), "headers": [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]}
    out: list[dict] = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        out.append(message)

    await app(scope, receive, send)
    return out[0]["status"], b"".join(m.get("body", b"") for m in out[1:])


async def _get(path: str, **kw) -> tuple[int, bytes]:
    return await _call(nonebot.get_driver().server_app, path, **kw)


async def _inner(scope, receive, send):
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"inside"})


@pytest.mark.parametrize("path", ["/healthz", "/metrics", "/metrics/"])
async def test_the_gate_lets_loopback_or_the_bearer_token_through(path):
    guarded = Gate(_inner, token=TOKEN)
    for host in ("127.0.0.1", "127.0.0.2", "::1", "::ffff:127.0.0.1"):
        assert (await _call(guarded, path, client=(host, 1)))[0] == 200, host
    status, body = await _call(guarded, path, client=REMOTE)
    assert status == 403 and "只允许本机访问" in body.decode()
    assert (await _call(guarded, path, client=REMOTE, headers={"Authorization": "Bearer wrong"}))[0] == 403
    assert (await _call(guarded, path, client=REMOTE, headers={"Authorization": f"Bearer {TOKEN}"}))[0] == 200
    assert (await _call(guarded, path, client=None))[0] == 403  # no address known: not loopback
    # without a token configured, only loopback
    assert (await _call(Gate(_inner), path, client=REMOTE, headers={"Authorization": "Bearer "}))[0] == 403
    # other paths are not the gate's business (the web pages guard themselves)
    assert (await _call(guarded, "/web/x", client=REMOTE))[0] == 200


async def test_healthz_reports_database_accounts_and_queue(nonebug_init):
    Harness()  # the bot's account 999 connected
    status, body = await _get("/healthz")
    data = json.loads(body)
    assert status == 200, data
    assert data["status"] == "ok" and data["database"] == {"ok": True} and "999" in data["accounts"]
    assert isinstance(data["outbox"]["pending"], int) and data["outbox"]["oldest_wait_seconds"] >= 0
    assert (await _get("/healthz", client=REMOTE))[0] == 403


async def test_healthz_is_503_when_the_database_is_unreachable(nonebug_init, monkeypatch):
    class Down:
        async def execute_query(self, sql):
            raise ConnectionRefusedError("down")

    class Connections:
        def get(self, name):
            return Down()

    monkeypatch.setattr(health, "connections", Connections())  # health's view only: the bot's own work goes on
    status, body = await _get("/healthz")
    data = json.loads(body)
    assert status == 503 and data["status"] == "unhealthy"
    assert data["database"] == {"ok": False, "error": "ConnectionRefusedError"}
    assert any("数据库无法连接" in p for p in data["problems"])


async def test_healthz_is_503_when_no_account_is_connected(nonebug_init, monkeypatch):
    monkeypatch.setattr(metrics.nonebot, "get_bots", lambda: {})
    status, body = await _get("/healthz")
    data = json.loads(body)
    assert status == 503 and data["accounts"] == []
    assert any("NapCat" in p for p in data["problems"])


def _samples(text: str) -> dict[tuple[str, tuple], float]:
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for fam in text_string_to_metric_families(text) for s in fam.samples}


async def test_metrics_count_commands_and_read_the_gauges_without_naming_players(harness):
    players = {"31415926": "秘密马甲", "27182818": "隐身乙"}
    await harness.group("1", "/创建 测试局", role="owner")
    for qq, alias in players.items():
        await harness.group(qq, f"/报名 {alias}")
    await harness.group("1", "/开始")
    await harness.private("31415926", "/票 2")
    await harness.private("27182818", "/查票")
    await harness.private("27182818", "/完全不认识的词")
    g = await Game.get(group_id=harness.group_id, status="running")
    stuck = await Timer.create(game=g, key="parked", ends_at=datetime.now(timezone.utc), status="stuck")
    await Outbox.filter(status="pending").update(status="sent")
    await enqueue("private", "31415926", "等着发", game_id=g.id, now=datetime.now(timezone.utc) - timedelta(seconds=30))
    try:
        status, body = await _get("/metrics")
        text = body.decode()
        assert status == 200
        s = _samples(text)
        assert s[("gamehost_commands_total", (("command", "票"), ("game", "demo")))] >= 1
        assert s[("gamehost_commands_total", (("command", "报名"), ("game", "demo")))] >= 2
        assert s[("gamehost_commands_total", (("command", "?"), ("game", "demo")))] >= 1  # an unknown word is not a label
        assert s[("gamehost_answer_seconds_count", (("game", "demo"),))] >= 4
        assert s[("gamehost_games_active", (("status", "running"),))] >= 1
        assert s[("gamehost_deadlines_parked", ())] >= 1
        assert s[("gamehost_outbox_pending", ())] == 1
        assert s[("gamehost_outbox_oldest_wait_seconds", ())] >= 30
        assert s[("gamehost_accounts_connected", ())] >= 1
        _, health_body = await _get("/healthz")
        for secret in [*players, *players.values(), "完全不认识的词", "等着发"]:
            assert secret not in text and secret not in health_body.decode()
    finally:
        await stuck.delete()
        await Outbox.filter(status="pending").update(status="sent")


async def test_a_send_given_up_is_counted(nonebug_init):
    await Outbox.filter(status="pending").update(status="sent")
    before = metrics.REGISTRY.get_sample_value("gamehost_sends_given_up_total", {"target": "private"}) or 0
    now = [datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc)]

    async def failing(self_id, target_type, target_id, text):
        raise ActionFailed(status="failed", retcode=1200)

    w = OutboxWorker(KernelConfig(send_interval=0.1, send_jitter=0, send_max_attempts=2, send_pause_after=99), failing,
                     clock=lambda: now[0])
    await enqueue("private", "8", "never delivered (metrics)", now=now[0])
    for _ in range(50):
        if not await Outbox.exists(status="pending"):
            break
        now[0] += timedelta(seconds=await w.tick())
    assert metrics.REGISTRY.get_sample_value("gamehost_sends_given_up_total", {"target": "private"}) == before + 1
    await Outbox.filter(text="never delivered (metrics)").delete()


def _http(url: str, headers: dict[str, str] | None = None) -> tuple[int, bytes, str]:
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read(), r.headers.get("Content-Type", "")
    except urllib.error.HTTPError as e:
        return e.code, e.read(), e.headers.get("Content-Type", "")


async def test_the_doors_of_the_running_bot(tmp_path):
    """Bot.py with a token: loopback is answered; a client behind a proxy on this machine (its
    X-Forwarded-For, which the server trusts from loopback) needs the token."""
    bp = BotProcess(tmp_path / "bot.sqlite3", env={"ONEBOT_ACCESS_TOKEN": TOKEN})
    bp.start()
    ob = FakeOneBot(bp.url, self_id="4242", token=TOKEN)
    try:
        await ob.connect(timeout=60)
        await ob.group_message("885001", "1", "/在吗")
        await ob.wait_for("在")
        base = f"http://127.0.0.1:{bp.port}"
        deadline = time.monotonic() + 20
        while True:  # the connection is registered a moment after the handshake
            status, body, _ = await asyncio.to_thread(_http, base + "/healthz")
            if status == 200 or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.1)
        assert status == 200 and json.loads(body)["accounts"] == ["4242"]
        status, body, kind = await asyncio.to_thread(_http, base + "/metrics")
        assert status == 200 and kind.startswith("text/plain")
        assert 'gamehost_commands_total{command="在吗",game="-"}' in body.decode() or \
            'gamehost_commands_total{game="-",command="在吗"}' in body.decode()
        proxied = {"X-Forwarded-For": "198.51.100.4"}
        for path in ("/healthz", "/metrics"):
            assert (await asyncio.to_thread(_http, base + path, proxied))[0] == 403
            assert (await asyncio.to_thread(_http, base + path, {**proxied, "Authorization": "Bearer nope"}))[0] == 403
            assert (await asyncio.to_thread(_http, base + path, {**proxied, "Authorization": f"Bearer {TOKEN}"}))[0] == 200
    finally:
        await ob.close()
        bp.stop()
