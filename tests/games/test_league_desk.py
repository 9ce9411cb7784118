"""The league's referees' desk through the kernel's web routes, in process (ASGI, on this run's
database, so on PostgreSQL too): after the 18:50 step the desk holds each group's seated lineup
(a substitute who came in at 18:35 included); its check answers as /录分 would, nothing stored;
sending is the ordinary /录分 (command log source web, the group summary in the group's chat);
the day's last sheet posts the standings picture to the main group; a player's page has no desk
and cannot use it."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from urllib.parse import urlencode

import pytest
from fastapi import FastAPI
from harness import texts

from plugins.kernel.commands import web as web_cmd
from plugins.kernel.deadlines import fire_timer
from plugins.kernel.longtexts import game_with_texts
from plugins.kernel.models import CommandLog, Game, Outbox, Timer
from plugins.kernel.order import utcnow
from plugins.kernel.web.routes import install

HOST = "1"
ROLES = ["预言家", "女巫", "猎人", "白痴", "平民", "平民", "平民", "平民", "狼人", "狼人", "狼人", "狼人"]


def _zone_at_noon() -> str:
    """A fixed-offset zone where it is now about 12:00, so the day's check-in window is open."""
    h = (12 - utcnow().hour) % 24
    h = h - 24 if h > 12 else h
    return "Etc/GMT" if h == 0 else (f"Etc/GMT-{h}" if h > 0 else f"Etc/GMT+{-h}")


VARIANT = """timezone = "{tz}"
[times]
checkin_open = "06:00"
late = "20:00"
demote = "20:05"
seat = "20:20"
[options]
main_draw = 24
[[rounds]]
key = "r1"
name = "第一轮"
players = 24
groups = 2
advance = 0
double_games = []
days = [{{ label = "第1天", board = "标准场", games = 1 }}]
"""


def qq(seat: int) -> str:
    return str(2000 + seat)


@pytest.fixture
def web_on(monkeypatch):
    monkeypatch.setitem(web_cmd.SITE, "url", "https://games.example.com")


async def asgi(app, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None):
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
        "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "", "client": ("127.0.0.1", 5000),
        "server": ("games.example.com", 80),
        "headers": [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()],
    }
    messages = [{"type": "http.request", "body": body, "more_body": False}]
    got: dict = {"status": 0, "headers": [], "body": b""}

    async def receive():
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message):
        if message["type"] == "http.response.start":
            got["status"], got["headers"] = message["status"], message.get("headers", [])
        elif message["type"] == "http.response.body":
            got["body"] += message.get("body", b"")

    await app(scope, receive, send)
    return got["status"], got["headers"], got["body"].decode("utf-8", "replace")


class Page:
    """One logged-in browser on a personal link."""

    def __init__(self, app: FastAPI, link: str):
        self.app, self.path = app, f"/web/g/{link}/"
        self.cookie = self.csrf = ""

    async def login(self, password: str) -> None:
        _, _, body = await asgi(self.app, "GET", self.path)
        token = re.search(r'name="token" value="([^"]+)"', body).group(1)
        form = urlencode({"token": token, "password": password}).encode()
        status, headers, _ = await asgi(self.app, "POST", self.path + "login", form, {
            "content-type": "application/x-www-form-urlencoded", "content-length": str(len(form)), "cookie": f"wl={token}"})
        assert status == 303
        self.cookie = next(v.split(b";")[0].decode() for k, v in headers if k == b"set-cookie" and v.startswith(b"ws="))
        _, _, page = await asgi(self.app, "GET", self.path, headers={"cookie": self.cookie})
        self.csrf = re.search(r'name="csrf" content="([^"]+)"', page).group(1)

    async def get(self, what: str) -> dict:
        status, _, text = await asgi(self.app, "GET", self.path + what, headers={"cookie": self.cookie})
        return json.loads(text)

    async def post(self, what: str, body: dict) -> tuple[int, dict]:
        raw = json.dumps(body).encode()
        status, _, text = await asgi(self.app, "POST", self.path + what, raw, {
            "content-type": "application/json", "content-length": str(len(raw)), "cookie": self.cookie,
            "x-csrf-token": self.csrf})
        return status, json.loads(text)


async def _game() -> Game:
    g = await Game.filter(status="running").order_by("-id").first()
    return await game_with_texts(g.id)


async def _fire(h, key: str):
    g = await _game()
    t = await Timer.get(game_id=g.id, key=key, status="armed")
    await Timer.filter(id=t.id).update(ends_at=utcnow() - timedelta(seconds=5))
    await fire_timer(t.id, set())
    return await h.drain()


async def page_of(h, app: FastAPI, user: str) -> Page:
    msg = texts(await h.private(user, "/网页"), user)
    link = re.search(r"/web/g/([A-Za-z0-9_-]+)/", msg).group(1)
    page = Page(app, link)
    await page.login(re.search(r"密码：(\w+)", msg).group(1))
    return page


def filled(draft: dict, winner: str) -> dict:
    d = dict(draft, winner=winner)
    d["seats"] = [dict(s, role=role) for s, role in zip(draft["seats"], ROLES, strict=True)]
    return d


async def test_the_desk_scores_the_seated_lineup_as_the_chat_command_would_6_2(harness, web_on):
    """§六（二） through the bot: the desk's lineup is the day's seated one (§十.3: the substitute who
    replaced a player demoted at 18:35); the check is /录分's own answer; sending is /录分 itself;
    §五（一）: the day's last sheet posts the standings picture to the main group."""
    h = harness
    main = h.group_id
    chat_a = str(int(main) + 1_000_000)
    await h.group(HOST, "/创建 联赛", role="owner")
    assert "配置已更新" in texts(await h.group(HOST, "/配置 " + VARIANT.format(tz=_zone_at_noon())))
    for seat in range(1, 26):
        await h.group(qq(seat), f"/报名 选手{seat}")
    await h.group(HOST, "/开始")
    assert "标签「A」" in texts(await h.group(HOST, f"/绑定群 {main} A", group=chat_a))
    await h.group(HOST, "/开赛日")
    lineups = (await _game()).state.days[-1].lineups
    gone = lineups["A"][3]
    for g, members in lineups.items():
        for seat in members:
            if seat != gone:
                await h.group(qq(seat), "/签到", group=chat_a if g == "A" else main)
    await _fire(h, "checkin.late")
    await _fire(h, "checkin.demote")
    await h.group(qq(25), "/签到", group=chat_a)
    await _fire(h, "checkin.seat")

    app = FastAPI()
    install(app, "https://games.example.com")
    desk_page = await page_of(h, app, HOST)
    view = await desk_page.get("api/view")
    desk = view["page"]["desk"]
    assert desk["day"]["seated"] and desk["note"] == ""
    a = desk["slots"][0]
    assert a["label"] == "A组 第1场" and a["game"] is None
    seated = (await _game()).state.days[-1].lineups["A"]
    assert [s["seat"] for s in a["draft"]["seats"]] == seated and seated[3] == 25 and gone not in seated

    gid = (await _game()).id
    logged = await CommandLog.filter(game_id=gid).count()
    status, out = await desk_page.post("api/x/check", {"draft": a["draft"]})
    assert status == 200 and not out["ok"] and out["errors"][0] == "第2行：没有「角色」这个角色。"
    draft = filled(a["draft"], "好人")
    draft["seats"][0]["mvp"] = True
    status, out = await desk_page.post("api/x/check", {"draft": draft})
    assert out["ok"] and out["points"][0]["line"] == "+5 -0 = +5" and out["points"][0]["after"] == "105"
    assert not out["picture"]
    assert await CommandLog.filter(game_id=gid).count() == logged  # a check stores nothing
    chat_says = texts(await h.group(HOST, "/录分模板 A", group=chat_a), chat_a)
    assert "A组 第1场\n" in chat_says and f"1 #{seated[0]} 角色" in chat_says  # the same lineup as the chat template

    status, done = await desk_page.post("api/act", {"word": out["word"], "rest": out["rest"], "host": True})
    assert status == 200 and done["replies"] == ["已录入局号#1。"]
    assert await CommandLog.filter(game_id=gid, name="score").values_list("source", flat=True) == ["web"]
    sent = await h.drain()
    assert "局号#1 第一轮 A组 第1场：好人胜" in texts(sent, chat_a)
    assert done["view"]["page"]["desk"]["slots"][0]["status"] == "已录 局号#1"

    b = done["view"]["page"]["desk"]["slots"][1]
    status, out = await desk_page.post("api/x/check", {"draft": filled(b["draft"], "狼人")})
    assert out["ok"] and out["picture"]
    status, done = await desk_page.post("api/act", {"word": out["word"], "rest": out["rest"], "host": True})
    assert done["replies"] == ["已录入局号#2。\n本比赛日各组都已录完，积分榜图已发到主群。"]
    sent = await h.drain()
    assert "第一轮 第1比赛日（第1天）全部 2 局已录分。" in texts(sent, main)
    picture = await Outbox.filter(game_id=gid, image__isnull=False, target_id=main).order_by("-id").first()
    assert picture is not None and picture.text.startswith("第一轮 第1比赛日（第1天）全部 2 局已录分。")

    status, opened = await desk_page.post("api/x/open", {"game": 1})
    assert opened["ok"] and opened["draft"]["game"] == 1 and opened["draft"]["seats"][0]["mvp"] is True
    assert opened["board"]["name"] == "标准场" and opened["label"].startswith("局号#1 A组 第1场")

    # a player: no desk in the view, neither its check nor its commands
    player_page = await page_of(h, app, qq(seated[0]))
    view = await player_page.get("api/view")
    assert view["page"]["desk"] is None and "A组" in view["page"]["me"]["info"]
    status, out = await player_page.post("api/x/check", {"draft": draft})
    assert out == {"ok": False, "errors": ["只有裁判可以使用录分台。"]}
    status, out = await player_page.post("api/x/open", {"game": 1})
    assert out == {"ok": False, "error": "只有裁判可以使用录分台。"}
    status, out = await player_page.post("api/act", {"word": "改分", "rest": "1 A组", "host": True})
    assert status == 409 and out["replies"] == ["只有裁判可以这样做。"]
    assert await CommandLog.filter(game_id=gid, source="web").count() == 2
