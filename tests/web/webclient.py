"""A tiny HTTP client for the web pages (stdlib only): cookies per client, like one browser."""

from __future__ import annotations

import http.cookiejar
import json
import re
import urllib.error
import urllib.parse
import urllib.request
from typing import Any


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kw: Any) -> None:
        return None


class Client:
    def __init__(self) -> None:
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), NoRedirect)
        self.csrf = ""

    def request(self, method: str, url: str, body: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, str]:
        req = urllib.request.Request(url, data=body, method=method, headers=headers or {})
        try:
            with self.opener.open(req, timeout=30) as r:
                return r.status, r.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode("utf-8", "replace")

    def login(self, link: str, password: str) -> tuple[int, str]:
        status, page = self.request("GET", link)
        m = re.search(r'name="token" value="([^"]+)"', page)
        token = m.group(1) if m else ""
        body = urllib.parse.urlencode({"token": token, "password": password}).encode()
        status, text = self.request("POST", link + "login", body, {"Content-Type": "application/x-www-form-urlencoded"})
        if status == 303:
            status, text = self.request("GET", link)
            m = re.search(r'name="csrf" content="([^"]+)"', text)
            self.csrf = m.group(1) if m else ""
        return status, text

    def view(self, link: str) -> tuple[int, dict[str, Any]]:
        status, text = self.request("GET", link + "api/view")
        return status, json.loads(text)

    def act(self, link: str, word: str, rest: str = "", *, csrf: str | None = None, raw: bytes | None = None) -> tuple[int, dict[str, Any]]:
        body = raw if raw is not None else json.dumps({"word": word, "rest": rest}).encode()
        headers = {"Content-Type": "application/json", "X-CSRF-Token": self.csrf if csrf is None else csrf}
        status, text = self.request("POST", link + "api/act", body, headers)
        return status, json.loads(text)
