"""The bot's Prometheus metrics (served at ``GET /metrics`` by health.py).

Counters and the answer histogram are fed by one-line calls: ``command_done`` where a command
finishes (routing/router.py), ``send_given_up`` where the outbound queue gives a message up
(outbox.py). The gauges (queue depth and oldest wait, games active, deadlines parked, accounts
connected) are read from the database and NoneBot when /metrics is scraped (``refresh``).
Labels are game kinds, command words the bot knows and target types: never a player's QQ
number or alias (an unknown command word is counted as "?")."""

from __future__ import annotations

from collections.abc import Container
from datetime import datetime

import nonebot
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, ProcessCollector, generate_latest

from .models import Game, Outbox, Timer
from .order import utcnow
from .registry import GameKind

REGISTRY = CollectorRegistry()
ProcessCollector(registry=REGISTRY)  # the bot's CPU time, memory, open files

COMMANDS = Counter("gamehost_commands", "Commands handled, by game kind and command word", ("game", "command"),
                   registry=REGISTRY)
ANSWER = Histogram("gamehost_answer_seconds", "From a command's arrival to its answer's outbox row written", ("game",),
                   buckets=(0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0), registry=REGISTRY)
GIVEN_UP = Counter("gamehost_sends_given_up", "Outbound messages given up after their retries, by target type", ("target",),
                   registry=REGISTRY)
QUEUE = Gauge("gamehost_outbox_pending", "Outbound messages waiting to be sent", registry=REGISTRY)
OLDEST = Gauge("gamehost_outbox_oldest_wait_seconds", "Age of the oldest outbound message waiting (0: none)", registry=REGISTRY)
GAMES = Gauge("gamehost_games_active", "Games not ended, by status", ("status",), registry=REGISTRY)
PARKED = Gauge("gamehost_deadlines_parked", "Deadlines parked after failing (timer rows with status stuck)", registry=REGISTRY)
ACCOUNTS = Gauge("gamehost_accounts_connected", "QQ accounts connected over OneBot", registry=REGISTRY)

ACTIVE = ("signup", "running", "paused")
NO_GAME = "-"
_words: dict[str, frozenset[str]] = {}


def command_done(kind: GameKind | None, word: str, arrival: datetime, kernel_words: Container[str]) -> None:
    """A command was handled: count it and observe its arrival → answer written time."""
    game = kind.key if kind is not None else NO_GAME
    known = word in kernel_words or (kind is not None and word in _game_words(kind))
    COMMANDS.labels(game, word if known else "?").inc()
    ANSWER.labels(game).observe(max(0.0, (utcnow() - arrival).total_seconds()))


def _game_words(kind: GameKind) -> frozenset[str]:
    words = _words.get(kind.key)
    if words is None:
        words = _words[kind.key] = frozenset(w for spec in kind.commands for w in spec.words)
    return words


def send_given_up(target_type: str) -> None:
    GIVEN_UP.labels(target_type).inc()


def accounts() -> list[str]:
    """The bot's own QQ accounts connected now (NoneBot's bots)."""
    return sorted(nonebot.get_bots())


async def queue_state() -> tuple[int, float]:
    """(messages waiting, seconds the oldest has waited; 0 when none)."""
    waiting = Outbox.filter(status="pending")
    depth = await waiting.count()
    oldest = await waiting.order_by("created_at").limit(1).values_list("created_at", flat=True)
    age = (utcnow() - oldest[0]).total_seconds() if oldest and isinstance(oldest[0], datetime) else 0.0
    return depth, max(0.0, age)


async def refresh() -> None:
    """Read the gauges afresh (at each scrape)."""
    depth, age = await queue_state()
    QUEUE.set(depth)
    OLDEST.set(age)
    for status in ACTIVE:
        GAMES.labels(status).set(await Game.filter(status=status).count())
    PARKED.set(await Timer.filter(status="stuck").count())
    ACCOUNTS.set(len(accounts()))


def exposition() -> bytes:
    return generate_latest(REGISTRY)
