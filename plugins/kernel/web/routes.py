"""The web layer's routes on NoneBot's FastAPI server (installed only when
``WEB_PUBLIC_URL`` is set). Every answer is a short Chinese page or JSON: a
wrong password, another player's link, an ended game, a tampered field, a huge
or binary body are refused with a message; nothing leaks, no stack trace."""

from __future__ import annotations

import asyncio
import functools
import html
import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import orjson
from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse, Response, StreamingResponse
from nonebot import get_driver
from nonebot.log import logger

from plugins.gamekit.clock import game_tz
from plugins.gamekit.contract import PHASE_TIMER, Rejected

from ..clean import clean_text
from ..longtexts import game_with_texts
from ..models import Game, Host, Outbox, Player, Timer, WebAccess
from ..order import utcnow
from ..registry import get_kind
from . import actions, auth
from .font import fonts
from .page import PAGES, View, WebPage

STATIC = Path(__file__).with_name("static")
LINK = re.compile(r"[A-Za-z0-9_-]{16,64}")
ASSET = re.compile(r"[a-z0-9_-]{1,40}\.(js|css|html)")
MAX_BODY = 64 * 1024  # the longest request body (a mafia88 post is far shorter)
MAX_DEPTH = 8  # JSON nesting a page sends (its bodies are flat objects)
UNREADABLE = "提交的内容无法识别。请刷新页面后再试。"
SESSION_COOKIE, LOGIN_COOKIE = "ws", "wl"
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
       "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
STATUS = {"signup": "报名中", "running": "进行中", "paused": "已暂停", "ended": "已结束"}
MEDIA = {"js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8", "html": "text/html; charset=utf-8"}


class Refusal(Exception):
    def __init__(self, status: int, text: str):
        super().__init__(text)
        self.status, self.text = status, text


def _headers(resp: Response) -> Response:
    resp.headers["Content-Security-Policy"] = CSP
    resp.headers["X-Content-Type-Options"] = "nosniff"
    resp.headers["Referrer-Policy"] = "no-referrer"  # the link is a secret: never sent on
    resp.headers["X-Frame-Options"] = "DENY"
    resp.headers["Cache-Control"] = "no-store"
    return resp


def _json(obj: Any, status: int = 200) -> Response:
    return _headers(Response(json.dumps(obj, ensure_ascii=False), status, media_type="application/json; charset=utf-8"))


def _page(body: str, status: int = 200, title: str = "游戏网页") -> Response:
    text = (STATIC / "shell.html").read_text(encoding="utf-8")
    text = text.replace("__TITLE__", html.escape(title)).replace("__BODY__", body)
    return _headers(Response(text, status, media_type="text/html; charset=utf-8"))


def _message_page(text: str, status: int) -> Response:
    return _page(f'<main class="box"><p class="notice" id="notice">{html.escape(text)}</p></main>', status)


async def _body(request: Request) -> bytes:
    """The body, refused when huge (before reading it all when the size is announced)."""
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > MAX_BODY):
        raise Refusal(413, "提交的内容太大了。请删短后再试。")
    chunks, total = [], 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > MAX_BODY:
            raise Refusal(413, "提交的内容太大了。请删短后再试。")
        chunks.append(chunk)
    return b"".join(chunks)


def _text(raw: bytes) -> str:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Refusal(400, "提交的内容无法识别（不是文字）。请刷新页面后再试。") from None
    if "\x00" in text:
        raise Refusal(400, "提交的内容无法识别（不是文字）。请刷新页面后再试。")
    return text


def _json_body(raw: bytes) -> Any:
    """A request's JSON, read as the chat door reads text: orjson stops a deep body at its own
    nesting limit (the standard parser would recurse until it fails), a body nested deeper
    than a page's is refused, and so is a NUL in a string (a lone surrogate is not JSON to
    orjson); every other string is cleaned (``clean.clean_text``)."""
    try:
        body = orjson.loads(_text(raw))
    except orjson.JSONDecodeError:
        raise Refusal(400, UNREADABLE) from None
    return _cleaned(body, 0)


def _cleaned(value: Any, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise Refusal(400, "提交的内容无法识别（层次太多）。请刷新页面后再试。")
    if isinstance(value, str):
        if "\x00" in value:
            raise Refusal(400, "提交的内容无法识别（含有控制字符）。请删掉特殊字符后再试。")
        return clean_text(value)
    if isinstance(value, list):
        return [_cleaned(v, depth + 1) for v in value]
    if isinstance(value, dict):
        return {_cleaned(k, depth + 1): _cleaned(v, depth + 1) for k, v in value.items()}
    return value


async def _access(link: str) -> WebAccess:
    access = await WebAccess.get_or_none(link=link) if LINK.fullmatch(link) else None
    if access is None:
        raise Refusal(404, "这个链接无效。请私聊机器人发送 /网页 获取你的链接。")
    return access


class Site:
    def __init__(self, public_url: str):
        self.public_url = public_url.rstrip("/")
        self.secure = self.public_url.startswith("https://")

    def link(self, access: WebAccess) -> str:
        return f"{self.public_url}/web/g/{access.link}/"

    def _cookie(self, resp: Response, name: str, value: str, link: str, max_age: int) -> None:
        resp.set_cookie(name, value, max_age=max_age, path=f"/web/g/{link}/", httponly=True, samesite="strict",
                        secure=self.secure)

    # ---- pages ----------------------------------------------------------------

    def login_page(self, link: str, message: str = "", status: int = 200) -> Response:
        token = auth.secrets.token_urlsafe(24)
        note = f'<p class="error" id="error">{html.escape(message)}</p>' if message else ""
        body = (STATIC / "login.html").read_text(encoding="utf-8")
        body = body.replace("__TOKEN__", token).replace("__ERROR__", note)
        resp = _page(body, status, "登录")
        self._cookie(resp, LOGIN_COOKIE, token, link, 1800)
        return resp

    async def index(self, request: Request, link: str) -> Response:
        access = await _access(link)
        session = await auth.session_for(access, request.cookies.get(SESSION_COOKIE), utcnow())
        if session is None:
            return self.login_page(link)
        g = await Game.get(id=access.game_id)
        page = PAGES.get(g.kind)
        if page is None or not page.enabled(g.settings):
            raise Refusal(404, "这局游戏没有网页。")
        text = (page.static / "index.html").read_text(encoding="utf-8")
        text = text.replace("__CSRF__", session.csrf).replace("__KIND__", g.kind)
        return _headers(Response(text, 200, media_type="text/html; charset=utf-8"))

    async def login(self, request: Request, link: str) -> Response:
        access = await _access(link)
        try:
            form = parse_qs(_text(await _body(request)), max_num_fields=5)
        except ValueError:
            raise Refusal(400, "提交的内容无法识别。请刷新页面后再试。") from None
        token = (form.get("token") or [""])[0]
        if not auth.same(request.cookies.get(LOGIN_COOKIE), token) or not token:
            return self.login_page(link, "页面已过期，请重新输入密码。", 403)
        now = utcnow()
        wait = await auth.take_try(access, now)  # counted before it is checked: tries sent at once wait too
        if wait:
            return self.login_page(link, f"密码错误次数太多，请 {wait} 秒后再试；或私聊机器人发送 /网页 获取新密码，新密码可以立即登录。", 429)
        password = (form.get("password") or [""])[0].strip().lower()
        if not (0 < len(password) <= 32) or not await auth.password_ok(access.pw_hash, password):
            return self.login_page(link, "密码不对，或已经失效。请检查后重试；私聊机器人发送 /网页 可以获取新密码。", 401)
        cookie = await auth.open_session(access, now)
        resp = _headers(Response(status_code=303, headers={"Location": "./"}))
        self._cookie(resp, SESSION_COOKIE, cookie, link, auth.SESSION_DAYS * 86400)
        resp.delete_cookie(LOGIN_COOKIE, path=f"/web/g/{link}/")
        return resp

    async def _session(self, request: Request, link: str, *, csrf: bool) -> WebAccess:
        access = await _access(link)
        session = await auth.session_for(access, request.cookies.get(SESSION_COOKIE), utcnow())
        if session is None:
            raise Refusal(401, "登录已过期，请刷新页面重新输入密码。")
        if csrf and not auth.same(request.headers.get("x-csrf-token"), session.csrf):
            raise Refusal(403, "页面已过期（校验失败），请刷新页面后再试。")
        return access

    async def logout(self, request: Request, link: str) -> Response:
        await self._session(request, link, csrf=True)
        await auth.close_session(request.cookies.get(SESSION_COOKIE))
        resp = _json({"ok": True})
        resp.delete_cookie(SESSION_COOKIE, path=f"/web/g/{link}/")
        return resp

    # ---- data -------------------------------------------------------------------

    async def view_of(self, access: WebAccess) -> tuple[dict[str, Any], View, WebPage, Game]:
        g = await game_with_texts(access.game_id)
        page = PAGES.get(g.kind)
        kind = get_kind(g.kind)
        if page is None or kind is None or not page.enabled(g.settings):
            raise Refusal(404, "这局游戏没有网页。")
        player = await Player.get_or_none(game_id=g.id, user_id=access.user_id)
        hosts = {h.user_id for h in await Host.filter(game_id=g.id)}
        is_host = access.user_id in hosts or access.user_id in set(get_driver().config.superusers)
        if player is None and not is_host:
            raise Refusal(403, "你已不在这局游戏中，这个页面不再可用。")
        timer = await Timer.filter(game_id=g.id, key=PHASE_TIMER, status="armed").first()
        now = utcnow()
        v = View(g.id, g.status, g.state, kind.engine.settings_of(g.settings), dict(g.settings), player.seat if player else None,
                 player.alias if player else "", is_host, now, game_tz(g), g.phase_label or "",
                 timer.ends_at if timer else None)
        recent = await Outbox.filter(game_id=g.id, target_type="private", target_id=access.user_id, scrub=False) \
            .order_by("-id").limit(12).values_list("text", flat=True)  # never a password message, sent or not
        recent = [t for t in recent if "/web/g/" not in t][:8]
        data = {
            "game": kind.title, "status": g.status, "status_label": STATUS.get(g.status, g.status),
            "phase": g.phase_label or "", "deadline": v.deadline.isoformat() if v.deadline else None,
            "now": now.isoformat(), "seat": v.seat, "alias": v.alias, "is_host": is_host,
            "notice": _notice(g.status), "recent": list(recent),
            "page": page.view(v) if g.state is not None else None,
        }
        return data, v, page, g

    async def view(self, request: Request, link: str) -> Response:
        access = await self._session(request, link, csrf=False)
        data, *_ = await self.view_of(access)
        return _json(data)

    async def act(self, request: Request, link: str) -> Response:
        access = await self._session(request, link, csrf=True)
        body = _json_body(await _body(request))
        if not isinstance(body, dict) or not isinstance(body.get("word"), str) or not isinstance(body.get("rest", ""), str):
            raise Refusal(400, UNREADABLE)
        g = await Game.get(id=access.game_id)
        try:
            replies = await actions.run(access, g.kind, body["word"], body.get("rest", ""), bool(body.get("host")))
            ok = True
        except Rejected as exc:
            replies, ok = [str(exc)], False
        data, *_ = await self.view_of(access)
        return _json({"ok": ok, "replies": replies, "view": data}, 200 if ok else 409)

    async def live(self, request: Request, link: str) -> Response:
        """Server-sent events: the page's live lines (prison's room), pushed as they come."""
        access = await self._session(request, link, csrf=False)
        _, _, page, _ = await self.view_of(access)
        if page.live is None:
            raise Refusal(404, "这个页面没有实时消息。")

        async def stream():
            sent: tuple = ()
            ticks = 0
            while True:
                try:
                    _, v, page, _ = await self.view_of(access)
                except Refusal:
                    return
                assert page.live is not None
                lines = page.live(v)
                key = (len(lines), v.status, v.phase_label)
                if key != sent:
                    sent = key
                    data = {"lines": lines, "status": v.status, "phase": v.phase_label}
                    yield f"data: {json.dumps(data, ensure_ascii=False)}\n\n"
                elif ticks % 30 == 0:
                    yield ": keep-alive\n\n"
                ticks += 1
                if await request.is_disconnected():
                    return
                await asyncio.sleep(0.5)

        resp = StreamingResponse(stream(), media_type="text/event-stream")
        resp.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
        return _headers(resp)

    async def api(self, request: Request, link: str, name: str) -> Response:
        """A page's own small JSON endpoint (e.g. mafia88's live post figures)."""
        access = await self._session(request, link, csrf=True)
        _, v, page, _ = await self.view_of(access)
        fn = page.extra.get("api", {}).get(name)
        if fn is None:
            raise Refusal(404, "没有这个操作。")
        body = _json_body(await _body(request))
        if not isinstance(body, dict):
            raise Refusal(400, UNREADABLE)
        return _json(fn(v, body))


def _notice(status: str) -> str:
    if status == "ended":
        return "这局游戏已经结束了，网页只能查看。"
    if status == "signup":
        return "游戏还没开始（报名中），请等主持发送 /开始。"
    if status == "paused":
        return "游戏已暂停，请等待主持发送 /继续。"
    return ""


def _guard(fn, *, as_json: bool):
    @functools.wraps(fn)
    async def wrapped(request: Request, **kw: Any) -> Response:
        try:
            return await fn(request, **kw)
        except Refusal as exc:
            return _json({"ok": False, "error": exc.text}, exc.status) if as_json else _message_page(exc.text, exc.status)
        except Exception as exc:  # never a stack trace on the page
            logger.opt(exception=exc).error(f"web page failed: {request.url.path[:40]}")
            text = "机器人出错了，这次操作没有生效（已记录）。请稍后再试，或联系主持。"
            return _json({"ok": False, "error": text}, 500) if as_json else _message_page(text, 500)

    return wrapped


def install(app: FastAPI, public_url: str) -> Site:
    site = Site(public_url)
    r = APIRouter()

    async def index(request: Request, link: str) -> Response:
        return await site.index(request, link)

    async def bare(request: Request, link: str) -> Response:
        return _headers(Response(status_code=307, headers={"Location": f"{link}/"}))

    async def login(request: Request, link: str) -> Response:
        return await site.login(request, link)

    async def static(request: Request, kind: str, name: str) -> Response:
        folder = STATIC if kind == "kernel" else (PAGES[kind].static if kind in PAGES else None)
        if folder is None or not ASSET.fullmatch(name) or not (folder / name).is_file():
            raise Refusal(404, "没有这个文件。")
        return _headers(FileResponse(folder / name, media_type=MEDIA[name.rsplit(".", 1)[1]]))

    async def font(request: Request) -> Response:
        path = await fonts.get()  # cut down to the pages' characters on the first request
        if path is None:
            raise Refusal(404, "没有字体文件。")
        resp = FileResponse(path, media_type="font/woff2")
        resp.headers["Cache-Control"] = "public, max-age=86400"
        resp.headers["X-Content-Type-Options"] = "nosniff"
        return resp

    r.add_api_route("/web/g/{link}/", _guard(index, as_json=False), methods=["GET"])
    r.add_api_route("/web/g/{link}", _guard(bare, as_json=False), methods=["GET"])
    r.add_api_route("/web/g/{link}/login", _guard(login, as_json=False), methods=["POST"])
    r.add_api_route("/web/g/{link}/logout", _guard(site.logout, as_json=True), methods=["POST"])
    r.add_api_route("/web/g/{link}/api/view", _guard(site.view, as_json=True), methods=["GET"])
    r.add_api_route("/web/g/{link}/api/act", _guard(site.act, as_json=True), methods=["POST"])
    r.add_api_route("/web/g/{link}/api/live", _guard(site.live, as_json=True), methods=["GET"])
    r.add_api_route("/web/g/{link}/api/x/{name}", _guard(site.api, as_json=True), methods=["POST"])
    r.add_api_route("/web/s/{kind}/{name}", _guard(static, as_json=False), methods=["GET"])
    r.add_api_route("/web/font.woff2", _guard(font, as_json=False), methods=["GET"])
    app.include_router(r)
    return site
