"""The doors: who may post events to the bot.

NoneBot's OneBot adapter checks ``ONEBOT_ACCESS_TOKEN`` on its WebSocket routes
only (its HTTP routes check ``ONEBOT_SECRET``, a different setting). This ASGI
middleware, in front of the whole server, makes the token guard every door:

- HTTP event posts (``/onebot/v11/``, ``/onebot/v11/http``) are refused unless
  ``ONEBOT_HTTP_EVENTS=true``; then, with a token set, they need it too.
- The WebSocket accepts the token as an ``Authorization`` header (what the
  adapter reads) or as an ``access_token`` query parameter (some OneBot
  implementations send it that way): the middleware moves it into the header.

- The operator's doors, ``/healthz`` and ``/metrics`` (health.py), answer a client on loopback
  (a reverse proxy on the same machine that forwards them passes ``X-Forwarded-For``, which the
  server trusts from loopback, so its clients are not loopback) or one that gives the token as
  ``Authorization: Bearer …``; anyone else gets 403.

Every other path (the players' web pages under ``/web/``) is the application's own business.
Without a token the bot refuses to listen on anything but loopback.
"""

from __future__ import annotations

import hmac
import ipaddress
from typing import Any
from urllib.parse import parse_qs

ONEBOT_PREFIX = "/onebot/"
WATCH_PATHS = ("/healthz", "/metrics")


def is_loopback(host: str) -> bool:
    if host in ("localhost", ""):
        return host == "localhost"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)  # ::ffff:127.0.0.1
    return ip.is_loopback or (mapped is not None and mapped.is_loopback)


def check_bind(host: str, token: str | None) -> None:
    """Refuse to start on a reachable address without a token."""
    if not token and not is_loopback(str(host)):
        raise SystemExit(
            f"拒绝启动：HOST={host} 不是本机回环地址，但没有设置 ONEBOT_ACCESS_TOKEN。"
            "请在 .env 里设置 ONEBOT_ACCESS_TOKEN（与 NapCat 里填的一致），或把 HOST 改为 127.0.0.1。"
        )


def _bearer(value: str | None) -> str | None:
    if not value:
        return None
    scheme, _, param = value.partition(" ")
    return param if scheme.lower() in ("bearer", "token") else None


def _same(a: str | None, b: str) -> bool:
    return a is not None and hmac.compare_digest(a.encode(), b.encode())


class Gate:
    """ASGI middleware guarding the OneBot routes."""

    def __init__(self, app: Any, token: str | None = None, http_events: bool = False):
        self.app = app
        self.token = token or None
        self.http_events = http_events

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        path = scope.get("path", "")
        if scope["type"] == "http" and path.rstrip("/") in WATCH_PATHS:
            if self.may_watch(scope):
                await self.app(scope, receive, send)
            else:
                await _refuse(send, 403, "只允许本机访问，或带上 Authorization: Bearer <ONEBOT_ACCESS_TOKEN>。\n"
                                         "Loopback only, or Authorization: Bearer <ONEBOT_ACCESS_TOKEN>.")
            return
        if scope["type"] not in ("http", "websocket") or not path.startswith(ONEBOT_PREFIX):
            await self.app(scope, receive, send)
            return
        headers = list(scope.get("headers") or [])
        header_token = _bearer(next((v.decode("latin-1") for k, v in headers if k == b"authorization"), None))
        query = parse_qs((scope.get("query_string") or b"").decode("latin-1"))
        query_token = (query.get("access_token") or [None])[0]
        if scope["type"] == "websocket":
            if header_token is None and query_token is not None:
                headers = [(k, v) for k, v in headers if k != b"authorization"]
                headers.append((b"authorization", f"Bearer {query_token}".encode("latin-1")))
                scope = {**scope, "headers": headers}
            await self.app(scope, receive, send)
            return
        if not self.http_events:
            await _refuse(send, 403, "HTTP event posts are disabled (set ONEBOT_HTTP_EVENTS=true to allow them)")
            return
        if self.token and not (_same(header_token, self.token) or _same(query_token, self.token)):
            await _refuse(send, 403, "missing or wrong access token")
            return
        await self.app(scope, receive, send)


    def may_watch(self, scope: dict) -> bool:
        """/healthz and /metrics: a loopback client, or the token as a bearer header (not in the URL:
        it would end up in logs)."""
        client = scope.get("client")
        if client and is_loopback(str(client[0])):
            return True
        header = next((v.decode("latin-1") for k, v in scope.get("headers") or [] if k == b"authorization"), None)
        return self.token is not None and _same(_bearer(header), self.token)


async def _refuse(send: Any, status: int, text: str) -> None:
    body = text.encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
