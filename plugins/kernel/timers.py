"""Deadlines in the scheduler: timer rows are the truth, scheduler jobs mirror
them (armed at start-up and whenever a row changes). A job names its function
by reference, so this module needs nothing of what fires it."""

from __future__ import annotations

from datetime import datetime, timedelta

from apscheduler.jobstores.base import JobLookupError
from nonebot.log import logger
from nonebot_plugin_apscheduler import scheduler

from .models import Timer
from .order import utcnow

DEADLINE_BACKOFF = (5.0, 30.0, 120.0)
"""Seconds before each retry of a deadline whose work failed; then it is parked."""

FIRE = "plugins.kernel.deadlines:fire_job"


def arm(t: Timer, at: datetime | None = None) -> None:
    """Mirror one timer row in the scheduler; ``at`` overrides the run time (a retry)."""
    job_id = f"timer-{t.id}"
    if t.status == "armed":
        scheduler.add_job(FIRE, "date", run_date=at or t.ends_at, args=[t.id], id=job_id,
                          replace_existing=True, misfire_grace_time=None)
    else:
        try:
            scheduler.remove_job(job_id)
        except JobLookupError:
            pass


def retry(timer_id: int, at: datetime) -> None:
    scheduler.add_job(FIRE, "date", run_date=at, args=[timer_id], id=f"timer-{timer_id}",
                      replace_existing=True, misfire_grace_time=None)


async def rearm_all(game_id: int | None = None) -> int:
    """Arm a job for every armed timer row (of one game, or all); overdue ones
    fire now, a failed one after its back-off."""
    rows = Timer.filter(status="armed") if game_id is None else Timer.filter(status="armed", game_id=game_id)
    armed = await rows.order_by("ends_at")
    now = utcnow()
    for t in armed:
        if t.attempts and t.ends_at <= now:
            arm(t, now + timedelta(seconds=DEADLINE_BACKOFF[min(t.attempts, len(DEADLINE_BACKOFF)) - 1]))
        else:
            arm(t)
    overdue = sum(1 for t in armed if t.ends_at <= now)
    logger.info(f"kernel: {len(armed)} deadlines armed ({overdue} overdue, firing now)")
    return len(armed)
