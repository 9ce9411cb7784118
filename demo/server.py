"""The rehearsal room (``make demo``): ``bot.py`` as a process on loopback with a
throw-away SQLite database, and beside it a fake QQ in the browser, built on the
tests' fake OneBot v11 implementation (tests/fixtures/fake_onebot.py). Not for
production: it listens on loopback only and has no password.

    python -m demo [--port 8765] [--players 14] [--data-dir DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import json
import re
import secrets
import shutil
import signal
import socket
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
STATIC = Path(__file__).resolve().parent / "static"
sys.path.insert(0, str(ROOT / "tests" / "fixtures"))

import websockets  # noqa: E402
from fake_onebot import BotProcess, FakeOneBot  # noqa: E402

from .openings import (  # noqa: E402
    GROUP,
    HOST_ID,
    Users,
    answered,
    checks_of,
    clip,
    describe,
    expand,
    load_openings,
    said,
    unmet,
)
from .webpage import LoginFailed, access_of, for_host, log_in  # noqa: E402

__all__ = ["Users", "describe_call", "load_openings", "loopback_refusal", "main"]

STOPPED = "机器人已经停止，请看终端里的日志路径，重新运行 make demo。"
CHAT_RE = re.compile(r"^(group|private):(\d{1,12})$")
IGNORED_CALLS = ("get_", "can_", "_", ".")  # queries: nothing a QQ user would see
ANSWER_WAIT = 60.0  # seconds a step waits for the bot's answers before it is reported as unanswered
QUIET_FAIL = 5.0  # … or, once it answered everywhere but not as expected, how long it must then stay quiet


def loopback_refusal(host: str) -> str | None:
    """Why the room must not listen on ``host``; None for a loopback address."""
    if host == "localhost":
        return None
    try:
        if ipaddress.ip_address(host.strip("[]")).is_loopback:
            return None
    except ValueError:
        pass
    return (f"演练室只能监听本机回环地址（127.0.0.1、::1 或 localhost），拒绝监听「{host}」："
            "它用假的 QQ 账号、没有口令，只供本机试玩，不能用于生产。")


def zone_at_noon(now: datetime) -> str:
    """A fixed-offset zone where it is about 12:00 now (league check-in is open)."""
    h = (12 - now.astimezone(timezone.utc).hour) % 24
    h = h - 24 if h > 12 else h
    return "Etc/GMT" if h == 0 else (f"Etc/GMT-{h}" if h > 0 else f"Etc/GMT+{-h}")


class _Feed(list):
    """The fake implementation's record of API calls, told to the room as they come."""

    def __init__(self, on_call):
        super().__init__()
        self._on_call = on_call

    def append(self, item):
        super().append(item)
        self._on_call(*item)


class DemoOneBot(FakeOneBot):
    """The tests' fake OneBot v11 implementation, with the virtual players' nicknames."""

    def __init__(self, url: str, users: Users, on_call):
        super().__init__(url)
        self.users = users
        self.calls = _Feed(on_call)

    async def group_message(self, group: str, user: str, text: str, *, role: str = "member",
                            message_id: int | None = None) -> int:
        ev = self._base(user, text, message_id) | {
            "message_type": "group", "sub_type": "normal", "group_id": int(group),
            "sender": {"user_id": int(user), "nickname": self.users.name(user), "card": "", "role": role},
        }
        await self._ws.send(json.dumps(ev))
        return ev["message_id"]

    async def private_message(self, user: str, text: str, *, message_id: int | None = None) -> int:
        ev = self._base(user, text, message_id) | {
            "message_type": "private", "sub_type": "friend",
            "sender": {"user_id": int(user), "nickname": self.users.name(user)},
        }
        await self._ws.send(json.dumps(ev))
        return ev["message_id"]


def message_parts(message: Any, users: Users) -> list[dict[str, str]]:
    """OneBot message segments -> what the page draws (text, @name, picture)."""
    if isinstance(message, str):
        return [{"t": "text", "v": message}]
    parts = []
    for seg in message or []:
        kind, data = seg.get("type"), seg.get("data", {})
        if kind == "text":
            parts.append({"t": "text", "v": data.get("text", "")})
        elif kind == "at":
            qq = str(data.get("qq", ""))
            parts.append({"t": "at", "v": "@全体成员" if qq == "all" else "@" + users.name(qq)})
        elif kind == "image" and str(data.get("file", "")).startswith("base64://"):
            parts.append({"t": "image", "v": "data:image/png;base64," + data["file"][len("base64://"):]})
        else:
            parts.append({"t": "text", "v": {"image": "[图片]", "face": "[表情]", "file": "[文件]"}.get(kind, f"[{kind}]")})
    return parts


def _duration(seconds: int) -> str:
    if seconds % 86400 == 0:
        return f"{seconds // 86400} 天"
    if seconds % 3600 == 0:
        return f"{seconds // 3600} 小时"
    return f"{seconds // 60} 分钟" if seconds % 60 == 0 else f"{seconds} 秒"


def describe_call(action: str, p: dict[str, Any], users: Users,
                  sent: dict[int, tuple[str, str]] | None = None) -> tuple[str, str, list[dict[str, str]]] | None:
    """A bot API call -> (chat, kind, parts) as QQ would show it; None when QQ shows nothing.
    ``sent``: message id -> (chat, sender) of what the room's people said (for a recall)."""
    if action.startswith(IGNORED_CALLS):
        return None
    group, user = p.get("group_id"), p.get("user_id")
    if action == "delete_msg":
        chat, sender = (sent or {}).get(int(p.get("message_id", 0)), (f"group:{GROUP}", ""))
        whose = f" {users.name(sender)} 的" if sender else ""
        return chat, "system", [{"t": "text", "v": f"机器人撤回了{whose}一条消息"}]
    if action in ("send_group_msg", "send_private_msg", "send_msg"):
        private = group is None or p.get("message_type") == "private"
        chat = f"private:{user}" if private else f"group:{group}"
        return chat, "bot", message_parts(p.get("message"), users)
    who = users.name(user) if user is not None else ""
    if action == "set_group_card":
        line = f"机器人把 {who} 的群名片改为「{p['card']}」" if p.get("card") else f"机器人清除了 {who} 的群名片"
    elif action == "set_group_kick":
        line = f"机器人把 {who} 移出了本群"
    elif action == "set_group_ban":
        d = int(p.get("duration", 0))
        line = f"机器人禁言了 {who} {_duration(d)}" if d else f"机器人解除了 {who} 的禁言"
    elif action == "set_group_whole_ban":
        line = "机器人开启了全员禁言" if p.get("enable", True) else "机器人关闭了全员禁言"
    elif action == "set_group_add_request":
        line = "机器人同意了一条加群申请" if p.get("approve", True) else f"机器人拒绝了一条加群申请：{p.get('reason', '')}"
    elif action == "set_group_name":
        line = f"机器人把群名改为「{p.get('group_name', '')}」"
    elif action in ("upload_group_file", "upload_private_file"):
        line = f"机器人发来文件「{p.get('name') or Path(str(p.get('file', ''))).name}」"
    else:
        line = f"机器人调用了 {action}"
    if group is not None:
        chat = f"group:{group}"
    elif user is not None:
        chat = f"private:{user}"
    else:
        chat = f"group:{GROUP}"
    return chat, "system", [{"t": "text", "v": line}]


class Room:
    """The log of everything said in the fake QQ, and the scripted openings."""

    def __init__(self, users: Users, openings: dict[str, dict[str, Any]], pace: float = 0.08):
        self.users = users
        self.openings = openings
        self.pace = pace
        self.entries: list[dict[str, Any]] = []
        self._event = asyncio.Event()
        self.ob: DemoOneBot | None = None
        self.last_call = time.monotonic()
        self.script: dict[str, Any] | None = None
        self._task: asyncio.Task | None = None
        self.run = secrets.token_hex(4)  # a page left open from an earlier run reloads
        self.bot_alive = True
        self.sent: dict[int, tuple[str, str]] = {}  # message id -> (chat, sender): what a recall names

    # ---- the log -------------------------------------------------------------
    def add(self, chat: str, kind: str, sender: str, parts: list[dict[str, str]]) -> None:
        self.entries.append({"n": len(self.entries), "chat": chat, "kind": kind, "sender": sender,
                             "name": "机器人" if sender == "bot" else self.users.name(sender) if sender else "",
                             "parts": parts, "text": "".join(x["v"] for x in parts if x["t"] != "image"),
                             "time": datetime.now().strftime("%H:%M:%S")})
        self._event.set()
        self._event = asyncio.Event()

    def note(self, text: str) -> None:
        self.add(f"group:{GROUP}", "note", "", [{"t": "text", "v": text}])

    def clear(self) -> None:
        """Every chat starts empty from here (the page drops what came before)."""
        self.add(f"group:{GROUP}", "clear", "", [])

    def on_call(self, action: str, params: dict[str, Any]) -> None:
        self.last_call = time.monotonic()
        shown = describe_call(action, params, self.users, self.sent)
        if shown:
            chat, kind, parts = shown
            self.add(chat, kind, "bot" if kind == "bot" else "", parts)

    async def since(self, n: int, wait: float) -> list[dict[str, Any]]:
        if n >= len(self.entries) and wait > 0:
            event = self._event
            try:
                await asyncio.wait_for(event.wait(), wait)
            except asyncio.TimeoutError:
                pass
        return self.entries[n:]

    # ---- speaking --------------------------------------------------------------
    async def connect(self, url: str, timeout: float = 60) -> None:
        self.ob = DemoOneBot(url, self.users, self.on_call)
        await self.ob.connect(timeout)

    async def say(self, user: str, chat: str, text: str) -> None:
        assert self.ob is not None
        kind, target = CHAT_RE.match(chat).groups()  # type: ignore[union-attr]
        self.add(chat, "user", user, [{"t": "text", "v": text}])
        if kind == "private":
            self.sent[await self.ob.private_message(user, text)] = (chat, user)
            return
        self.sent[await self.ob.group_message(target, user, text, role="owner" if user == HOST_ID else "member")] = (chat, user)

    async def settle(self, quiet: float = 0.4, limit: float = 6.0) -> None:
        """Wait until the bot has been quiet for a moment (only for the eye: the bot
        handles messages in arrival order whatever the pace)."""
        start = time.monotonic()
        await asyncio.sleep(quiet)
        while time.monotonic() - self.last_call < quiet and time.monotonic() - start < limit:
            await asyncio.sleep(0.1)

    async def answer(self, user: str, chat: str, text: str, wait: float = ANSWER_WAIT) -> str:
        """Say ``text`` and return the bot's first answer in that chat ("" when none came)."""
        start = len(self.entries)
        await self.say(user, chat, text)
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            got = said(self.entries[start:], chat)
            if got:
                return got[0]
            await asyncio.sleep(0.1)
        return ""

    # ---- scripted openings -------------------------------------------------------
    def play(self, key: str) -> None:
        if self._task and not self._task.done():
            raise RuntimeError(f"上一段演示（{self.script['title']}）还在进行，请稍等。")  # type: ignore[index]
        game = self.openings[key]
        self.script = {"game": key, "title": game["title"], "status": "running", "missing": [], "step": 0}
        self._task = asyncio.create_task(self._play(key, game))

    async def _play(self, key: str, game: dict[str, Any]) -> None:
        script = self.script
        assert script is not None
        try:
            extra = {"group": GROUP, "tz_noon": zone_at_noon(datetime.now(timezone.utc))}
            steps = [(step, expand(game, step, self.users, extra)) for step in game["steps"]]
            # whatever runs in the group (also one kept in --data-dir from an earlier run) ends first
            await self.say(HOST_ID, f"group:{GROUP}", "/结束 换一局演示")
            await self.settle()
            self.clear()
            self.note(f"【演练】{game['title']}：{game['summary']}")
            for i, (step, lines) in enumerate(steps, 1):
                script["step"] = i
                failure = await self._step(step, lines)
                if failure:
                    script["status"], script["missing"] = "failed", [failure]
                    self.note(f"【演练】{game['title']} 开场没有按预期走完：第 {i} 步，{describe(step, lines, self.users)}，"
                              f"{failure}后面的步骤没有执行。")
                    return
            script["status"] = "done"
            self.note(f"【演练】{game['title']} 开场演示完毕：每一步机器人都按预期回答了。现在可以用下方的说话人继续玩。")
        except Exception as exc:  # the page must hear of it
            script["status"] = "failed"
            script["missing"] = [str(exc)]
            self.note(f"【演练】演示出错：{exc}")

    async def _step(self, step: dict[str, Any], lines: list[tuple[str, str, str]]) -> str | None:
        """Say one step; None when the bot answered as expected, else what went wrong."""
        start = len(self.entries)
        for user, chat, text in lines:
            await self.say(user, chat, text)
            await asyncio.sleep(self.pace)
        if step.get("silent"):
            await self.settle()
            chats = {chat for _, chat, _ in lines}
            spoke = [t for chat in sorted(chats) for t in said(self.entries[start:], chat)]
            return f"机器人本不该回答，却说：「{clip(spoke[0])}」。" if spoke else None
        checks = checks_of(step, lines, self.users)
        deadline = time.monotonic() + ANSWER_WAIT
        while unmet(self.entries[start:], checks):
            if time.monotonic() > deadline or (answered(self.entries[start:], checks)
                                               and time.monotonic() - self.last_call > QUIET_FAIL):
                break  # answered otherwise and then quiet, or no answer at all
            await asyncio.sleep(0.1)
        await self.settle()
        missing = unmet(self.entries[start:], checks)
        if not missing:
            return None
        first = missing[0]
        got = said(self.entries[start:], first.chat)
        where = "群里" if first.chat.startswith("group:") else f"{self.users.name(first.chat.split(':')[1])} 的私聊"
        heard = f"机器人在{where}说：「{clip(got[-1])}」" if got else f"机器人在{where}没有回答"
        return f"预期{where}出现「{first.needle}」，{heard}。"

    # ---- a player's web page ---------------------------------------------------------
    async def web_access(self, user: str) -> tuple[str, str]:
        """/网页 said in ``user``'s private chat; the link and password of the answer."""
        text = await self.answer(user, f"private:{user}", "/网页")
        access = access_of(text)
        if access is None:
            raise LoginFailed(f"机器人说：{clip(text)}" if text else "机器人没有回答 /网页。")
        return access


# ---- the web page -------------------------------------------------------------------

def make_app(room: Room, bot_log: Path):
    from fastapi import FastAPI, HTTPException, Request
    from fastapi.responses import FileResponse, JSONResponse, Response

    app = FastAPI(title="QQ 演练室", docs_url=None, redoc_url=None, openapi_url=None)
    csp = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'"

    @app.middleware("http")
    async def headers(request: Request, call_next):
        resp = await call_next(request)
        resp.headers["Content-Security-Policy"] = csp
        resp.headers["Cache-Control"] = "no-store"
        return resp

    @app.get("/")
    async def index():
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")

    @app.get("/app.js")
    async def script():
        return FileResponse(STATIC / "app.js", media_type="text/javascript; charset=utf-8")

    @app.get("/open/{user}")
    async def open_page(user: str):
        """A new tab that opens ``user``'s web page, logged in (open.js asks /api/web)."""
        return FileResponse(STATIC / "open.html", media_type="text/html; charset=utf-8")

    @app.get("/open.js")
    async def open_script():
        return FileResponse(STATIC / "open.js", media_type="text/javascript; charset=utf-8")

    @app.get("/font.otf")
    async def font():
        try:
            import pylopdf_fonts_zh_cn  # Noto Sans SC (SIL OFL), already a dependency of the bot
        except ImportError:
            return Response(status_code=404)
        return FileResponse(Path(pylopdf_fonts_zh_cn.__file__).with_name("NotoSansSC-Regular.otf"),
                            media_type="font/otf")

    @app.get("/api/state")
    async def state():
        return {"run": room.run, "group": GROUP, "users": room.users.list, "script": room.script, "bot_log": str(bot_log),
                "games": [{"key": k, "title": g["title"], "summary": g["summary"]} for k, g in room.openings.items()]}

    @app.get("/api/log")
    async def log(since: int = 0, wait: float = 0):
        since = min(max(since, 0), len(room.entries))
        entries = await room.since(since, min(max(wait, 0), 20))
        return {"entries": entries, "next": since + len(entries), "script": room.script, "run": room.run}

    @app.post("/api/say")
    async def say(body: dict[str, Any]):
        user, chat, text = str(body.get("user", "")), str(body.get("chat", "")), str(body.get("text", "")).strip()
        m = CHAT_RE.match(chat)
        if user not in room.users.names:
            raise HTTPException(400, "没有这个说话人。")
        if not m:
            raise HTTPException(400, "没有这个聊天。")
        if m.group(1) == "private" and m.group(2) != user:
            raise HTTPException(400, "私聊只能由这个私聊的主人发言。")
        if not text:
            raise HTTPException(400, "请先输入要说的话。")
        if not room.bot_alive:
            raise HTTPException(503, STOPPED)
        try:
            await room.say(user, chat, text)
        except (OSError, ConnectionError, websockets.exceptions.ConnectionClosed):
            raise HTTPException(503, STOPPED) from None
        return {"ok": True}

    @app.post("/api/web/{user}")
    async def web(user: str, host: str = ""):
        """Send /网页 as ``user``, log in with the password the bot answered, and give the browser
        (which opened the room on ``host``) the page's session cookie and where to go."""
        if user not in room.users.names:
            raise HTTPException(400, "没有这个说话人。")
        if not room.bot_alive:
            raise HTTPException(503, STOPPED)
        try:
            link, password = await room.web_access(user)
            url = for_host(link, host)
            if url is None:  # the browser's host name does not reach the bot: log in by hand
                return {"url": link, "password": password, "name": room.users.name(user)}
            cookies = await asyncio.to_thread(log_in, link, password, time.time())
        except LoginFailed as exc:
            return JSONResponse({"detail": str(exc)}, status_code=409)
        except (OSError, ConnectionError, websockets.exceptions.ConnectionClosed):
            raise HTTPException(503, STOPPED) from None
        resp = JSONResponse({"url": url, "name": room.users.name(user)})
        for c in cookies:
            resp.set_cookie(c.name, c.value, max_age=c.max_age, path=c.path, httponly=True, samesite="strict")
        return resp

    @app.post("/api/play/{key}")
    async def play(key: str):
        if key not in room.openings:
            raise HTTPException(404, "没有这个游戏的演示。")
        try:
            room.play(key)
        except RuntimeError as exc:
            return JSONResponse({"detail": str(exc)}, status_code=409)
        return {"ok": True}

    return app


# ---- running ---------------------------------------------------------------------------

def bot_env(data_dir: Path, web_url: str) -> dict[str, str]:
    """The demo bot's settings through the environment, in the namespaced names that win over
    .env's (``make install`` writes one naming the real database): loopback, the room's own
    database and folder, no backups, fast sending, and its players' web pages at its own
    loopback address."""
    return {
        "HOST": "127.0.0.1",
        "GAMEHOST__DATABASE_URL": f"sqlite://{data_dir / 'demo.sqlite3'}",
        "GAMEHOST__DATA_DIR": str(data_dir),
        "GAMEHOST__BACKUP_EVERY": "",
        "GAMEHOST__WEB_PUBLIC_URL": web_url,
        "DATA_DIR": str(data_dir),
        "SUPERUSERS": json.dumps([HOST_ID]),
        "ONEBOT_ACCESS_TOKEN": "",
        "GAMEHOST__SEND_INTERVAL": "0.1",
        "GAMEHOST__SEND_JITTER": "0.02",
        "GAMEHOST__GROUP_SEND_INTERVAL": "0.1",
        "EXTRA_PLUGINS": "",
        "ENVIRONMENT": "demo",
        "LOG_LEVEL": "INFO",
    }


def _port_taken(host: str, port: int) -> bool:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as s:
        try:
            s.bind((host.strip("[]"), port))
        except OSError:
            return True
    return False


async def watch_bot(bot: BotProcess, room: Room) -> None:
    """Tell the page when the bot process stops (a crash): the log says why."""
    while bot.proc is not None and bot.proc.poll() is None:
        await asyncio.sleep(1)
    room.bot_alive = False
    room.note(f"【演练】机器人进程已退出（退出码 {bot.proc.returncode if bot.proc else '?'}），"
              f"原因请看日志 {bot.log}。请结束后重新运行 make demo。")


async def serve(args: argparse.Namespace) -> int:
    import uvicorn

    openings = load_openings()
    users = Users(args.players)
    temp = args.data_dir is None
    data_dir = Path(tempfile.mkdtemp(prefix="qq-demo-")) if temp else Path(args.data_dir).resolve()
    data_dir.mkdir(parents=True, exist_ok=True)
    bot = BotProcess(data_dir / "demo.sqlite3", log=data_dir / "bot.log")
    bot.env.update(bot_env(data_dir, web_url=f"http://127.0.0.1:{bot.port}"))
    room = Room(users, openings)

    class Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self):  # signals are handled below, so the bot is always stopped
            yield

    server = Server(uvicorn.Config(make_app(room, bot.log), host=args.host.strip("[]"), port=args.port,
                                   log_level="warning", lifespan="off",
                                   timeout_graceful_shutdown=1))
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, lambda: setattr(server, "should_exit", True))
    print(f"正在启动机器人（数据目录 {data_dir}）…", flush=True)
    bot.start()
    try:
        connect = asyncio.create_task(room.connect(bot.url))
        while not connect.done():
            if bot.proc.poll() is not None or server.should_exit:  # type: ignore[union-attr]
                connect.cancel()
                if server.should_exit:
                    return 130
                print(f"机器人没有启动成功，请看日志 {bot.log}", file=sys.stderr)
                print(bot.log.read_text(errors="replace")[-2000:], file=sys.stderr)
                return 1
            await asyncio.sleep(0.1)
        connect.result()
        watch = asyncio.create_task(watch_bot(bot, room))
        shown = f"[{args.host}]" if ":" in args.host else args.host
        print(f"演练室已就绪：http://{shown}:{args.port}/ （仅本机可访问，不是生产环境；Ctrl+C 结束）", flush=True)
        await server.serve()
        watch.cancel()
        return 0
    finally:
        if room.ob is not None:
            await room.ob.close()
        bot.stop()
        if temp:
            shutil.rmtree(data_dir, ignore_errors=True)
        print("演练室已结束，机器人已停止。", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m demo", description="QQ 演练室：本机试玩四个游戏（不是生产环境）")
    ap.add_argument("--host", default="127.0.0.1", help="只能是本机回环地址（默认 127.0.0.1）")
    ap.add_argument("--port", type=int, default=8765, help="网页端口（默认 8765）")
    ap.add_argument("--players", type=int, default=14, help="虚拟玩家人数（默认 14，至少 14 才能演示全部游戏）")
    ap.add_argument("--data-dir", default=None, help="数据目录（默认用临时目录，结束后删除）")
    args = ap.parse_args(argv)
    refusal = loopback_refusal(args.host)
    if refusal:
        print(refusal, file=sys.stderr)
        return 2
    if not 1 <= args.players <= 200:
        print("虚拟玩家人数应在 1–200 之间。", file=sys.stderr)
        return 2
    if not 1 <= args.port <= 65535:
        print(f"端口应在 1–65535 之间，例如 make demo DEMO_PORT=8766（或 --port 8766），不能是 {args.port}。", file=sys.stderr)
        return 2
    if _port_taken(args.host, args.port):
        print(f"端口 {args.port} 已被占用，请换一个：make demo DEMO_PORT=8766（或 --port 8766）。", file=sys.stderr)
        return 2
    try:
        return asyncio.run(serve(args))
    except KeyboardInterrupt:
        return 130
