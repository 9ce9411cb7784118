"""Personal links, short passwords (only a scrypt hash is stored), wrong-password
rate limiting and sessions (a row per logged-in browser; the cookie holds a
random token whose hash is the row's key)."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
from datetime import datetime, timedelta

from ..models import WebAccess, WebSession
from ..order import utcnow

ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"  # no 0/o, 1/l/i: easy to type on a phone
PASSWORD_LEN = 6
FREE_TRIES = 5  # wrong passwords in a row before waiting
BLOCK_SECONDS = 60  # the first wait; doubles with every further wrong one, at most an hour
SESSION_DAYS = 14


def new_password() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(PASSWORD_LEN))


def _scrypt(password: str, salt: bytes) -> bytes:
    return hashlib.scrypt(password.encode(), salt=salt, n=2**14, r=8, p=1, dklen=32)


async def hash_password(password: str) -> str:
    salt = secrets.token_bytes(16)
    digest = await asyncio.to_thread(_scrypt, password, salt)
    return f"scrypt${salt.hex()}${digest.hex()}"


async def password_ok(stored: str, password: str) -> bool:
    try:
        scheme, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        got = await asyncio.to_thread(_scrypt, password, bytes.fromhex(salt))
    except ValueError:
        return False
    return hmac.compare_digest(got.hex(), digest)


async def issue(game_id: int, user_id: str, *, reset: bool = False) -> tuple[WebAccess, str]:
    """A new short password for the player's page of this game (the link stays). It comes
    by QQ, an authenticated channel, so it also lifts a wait; ``reset`` (by a host) also
    logs out every browser."""
    password = new_password()
    pw_hash = await hash_password(password)
    access = await WebAccess.get_or_none(game_id=game_id, user_id=user_id)
    if access is None:
        access = await WebAccess.create(game_id=game_id, user_id=user_id, link=secrets.token_urlsafe(18),
                                        pw_hash=pw_hash, created_at=utcnow())
    else:
        access.pw_hash, access.failures, access.blocked_until = pw_hash, 0, None
        await WebAccess.filter(id=access.id).update(pw_hash=pw_hash, failures=0, blocked_until=None)
        if reset:
            await WebSession.filter(access_id=access.id).delete()
    return access, password


def wait_left(access: WebAccess, now: datetime) -> int:
    """Seconds before another password may be tried (0: now)."""
    if access.blocked_until is None or access.blocked_until <= now:
        return 0
    return int((access.blocked_until - now).total_seconds()) + 1


def _wait_after(failures: int) -> int:
    """Seconds to wait after this many wrong passwords in a row (0: none yet)."""
    return 0 if failures < FREE_TRIES else min(3600, BLOCK_SECONDS * 2 ** (failures - FREE_TRIES))


async def take_try(access: WebAccess, now: datetime) -> int:
    """Count a password try before it is checked: 0 to go on and check it, else the seconds
    to wait. The count is one conditional UPDATE on the count just read (it fails when
    another try counted first, and then is read again), so tries sent at once, from one
    process or several, cannot all read the same count: at most FREE_TRIES are checked
    before the wait. A right password resets the count (``open_session``)."""
    while True:
        row = await WebAccess.get(id=access.id)
        wait = wait_left(row, now)
        if wait:
            return wait
        failures = row.failures + 1
        wait = _wait_after(failures)
        blocked = now + timedelta(seconds=wait) if wait else None
        if await WebAccess.filter(id=access.id, failures=row.failures).update(failures=failures, blocked_until=blocked):
            access.failures, access.blocked_until = failures, blocked
            return 0


def _key(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


async def open_session(access: WebAccess, now: datetime) -> str:
    """After a right password: a fresh session; the cookie's token is returned."""
    access.failures, access.blocked_until = 0, None
    await WebAccess.filter(id=access.id).update(failures=0, blocked_until=None)
    await WebSession.filter(access_id=access.id, expires_at__lt=now).delete()
    token = secrets.token_urlsafe(32)
    await WebSession.create(key=_key(token), access=access, csrf=secrets.token_urlsafe(24),
                            expires_at=now + timedelta(days=SESSION_DAYS))
    return token


async def session_for(access: WebAccess, token: str | None, now: datetime) -> WebSession | None:
    """The live session of this cookie for this very link (another player's cookie does not fit)."""
    if not token or len(token) > 100:
        return None
    s = await WebSession.get_or_none(key=_key(token))
    if s is None or s.access_id != access.id or s.expires_at <= now:
        return None
    return s


async def close_session(token: str | None) -> None:
    if token and len(token) <= 100:
        await WebSession.filter(key=_key(token)).delete()


def same(a: str | None, b: str) -> bool:
    return a is not None and hmac.compare_digest(a.encode(), b.encode())
