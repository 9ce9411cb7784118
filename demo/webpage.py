"""Opening a player's web page from the room: the bot's answer to /网页 read for its link and
password, and the login done as that player would do it (the page's login form), so the room can
hand the browser the page's session cookie. The room and the bot share the loopback host, and a
cookie is the host's, whatever the port (RFC 6265 §8.5): the cookie the room sets is sent to the
bot's page."""

from __future__ import annotations

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any

LINK_RE = re.compile(r"(https?://[^\s/]+/web/g/[A-Za-z0-9_-]+/)")
PASSWORD_RE = re.compile(r"密码：(\w+)")
TOKEN_RE = re.compile(r'name="token" value="([^"]+)"')


def access_of(text: str) -> tuple[str, str] | None:
    """(link, password) from the bot's answer to /网页; None when it refused."""
    link, password = LINK_RE.search(text), PASSWORD_RE.search(text)
    return (link.group(1), password.group(1)) if link and password else None


@dataclass(frozen=True)
class PageCookie:
    name: str
    value: str
    path: str
    max_age: int | None


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kw: Any) -> None:
        return None


class LoginFailed(Exception):
    pass


def log_in(link: str, password: str, now: float) -> list[PageCookie]:
    """The page's login form filled in with ``password``; the session cookies it set (blocking:
    run it in a thread)."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), _NoRedirect)

    def send(req: urllib.request.Request) -> tuple[int, str]:
        try:
            with opener.open(req, timeout=30) as r:
                return r.status, r.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode("utf-8", "replace")

    status, page = send(urllib.request.Request(link))
    token = TOKEN_RE.search(page)
    if status != 200 or token is None:
        raise LoginFailed(f"网页没有打开（HTTP {status}）。")
    body = urllib.parse.urlencode({"token": token.group(1), "password": password}).encode()
    status, page = send(urllib.request.Request(link + "login", data=body, method="POST",
                                               headers={"Content-Type": "application/x-www-form-urlencoded"}))
    if status != 303:
        raise LoginFailed(f"登录没有成功（HTTP {status}）。")
    return [PageCookie(c.name, c.value or "", c.path, int(c.expires - now) if c.expires else None) for c in jar]


def for_host(link: str, host: str) -> str | None:
    """The link as the browser must open it for the room's cookies to go along: on the host name
    the room was opened with (the bot listens on 127.0.0.1, which ``localhost`` also reaches); None
    when that host does not reach the bot (the room opened on ``::1``)."""
    parts = urllib.parse.urlsplit(link)
    if host == parts.hostname:
        return link
    if host == "localhost":
        return parts._replace(netloc=f"localhost:{parts.port}").geturl()
    return None
