from datetime import datetime, timezone
from zoneinfo import ZoneInfo

from plugins.gamekit.clock import next_at, on_day

SH = ZoneInfo("Asia/Shanghai")


def test_next_at_today_and_tomorrow():
    now = datetime(2026, 11, 30, 10, 0, tzinfo=timezone.utc)  # 18:00 in Shanghai
    assert next_at(now, "21:00", SH) == datetime(2026, 11, 30, 13, 0, tzinfo=timezone.utc)
    late = datetime(2026, 11, 30, 14, 0, tzinfo=timezone.utc)  # 22:00 in Shanghai
    assert next_at(late, "21:00", SH) == datetime(2026, 12, 1, 13, 0, tzinfo=timezone.utc)


def test_on_day_next_noon():
    now = datetime(2026, 11, 30, 14, 0, tzinfo=timezone.utc)  # 22:00 local
    assert on_day(now, "12:00", SH, 1) == datetime(2026, 12, 1, 4, 0, tzinfo=timezone.utc)
