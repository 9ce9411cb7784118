"""Pure clock helpers: game settings name wall-clock times ("21:00") in the
game's zone; engines turn them into aware datetimes from ``ctx.now``."""

from __future__ import annotations

from datetime import datetime, time, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

DEFAULT_TZ = "Asia/Shanghai"


def parse_hhmm(text: str) -> time:
    """'21:00' -> time(21, 0). Raises ValueError with a Chinese message."""
    try:
        hh, mm = text.strip().replace("：", ":").split(":")
        return time(int(hh), int(mm))
    except (ValueError, TypeError) as exc:
        raise ValueError(f"时间格式应为 时:分，例如 21:00，收到「{text}」") from exc


def next_at(now: datetime, hhmm: str, tz: ZoneInfo, *, strictly_after: bool = True) -> datetime:
    """The next moment the wall clock in ``tz`` shows ``hhmm`` (as UTC)."""
    t = parse_hhmm(hhmm)
    local = now.astimezone(tz)
    candidate = datetime.combine(local.date(), t, tzinfo=tz)
    if candidate < local or (strictly_after and candidate == local):
        candidate = datetime.combine(local.date() + timedelta(days=1), t, tzinfo=tz)
    return candidate.astimezone(timezone.utc)


def on_day(now: datetime, hhmm: str, tz: ZoneInfo, days_ahead: int = 0) -> datetime:
    """``hhmm`` on the local date of ``now`` plus ``days_ahead`` days (as UTC)."""
    t = parse_hhmm(hhmm)
    local = now.astimezone(tz)
    return datetime.combine(local.date() + timedelta(days=days_ahead), t, tzinfo=tz).astimezone(timezone.utc)


def fmt_local(at: datetime, tz: ZoneInfo) -> str:
    """'11月30日 21:00' in the game's zone."""
    local = at.astimezone(tz)
    return f"{local.month}月{local.day}日 {local:%H:%M}"


def game_tz(game: Any) -> ZoneInfo:
    """The game's clock zone (set at /创建, changed with /配置)."""
    return ZoneInfo(game.settings.get("timezone", "Asia/Shanghai"))
