"""Kernel tables. The database is the truth: games, rosters, timers, the
command log, the outbound queue, cards and the audit log all live here."""

from __future__ import annotations

from typing import Any

from tortoise import fields
from tortoise.models import Model


class Game(Model):
    id = fields.IntField(primary_key=True)
    group_id = fields.CharField(max_length=32, db_index=True)
    self_id = fields.CharField(max_length=32, default="")
    kind = fields.CharField(max_length=32)
    status = fields.CharField(max_length=16, default="signup")  # signup|running|paused|ended
    seed = fields.CharField(max_length=64)
    settings: dict[str, Any] = fields.JSONField(default=dict)
    state: Any = fields.JSONField(null=True)
    last_seq = fields.IntField(default=0)
    phase_key = fields.CharField(max_length=64, null=True)
    phase_label = fields.CharField(max_length=128, null=True)
    created_by = fields.CharField(max_length=32)
    created_at = fields.DatetimeField(auto_now_add=True)
    started_at = fields.DatetimeField(null=True)
    ended_at = fields.DatetimeField(null=True)
    end_reason = fields.TextField(null=True)
    # the group while the game is live, NULL after: one live game per group, even across processes
    live_group = fields.CharField(max_length=32, null=True, unique=True)

    class Meta:
        table = "game"


class Host(Model):
    id = fields.IntField(primary_key=True)
    game: fields.ForeignKeyRelation[Game] = fields.ForeignKeyField("kernel.Game", related_name="hosts")
    game_id: int
    user_id = fields.CharField(max_length=32)
    added_by = fields.CharField(max_length=32)
    added_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "host"
        unique_together = (("game", "user_id"),)


class Player(Model):
    id = fields.IntField(primary_key=True)
    game: fields.ForeignKeyRelation[Game] = fields.ForeignKeyField("kernel.Game", related_name="players")
    game_id: int
    user_id = fields.CharField(max_length=32)
    seat = fields.IntField()
    alias = fields.CharField(max_length=32)
    alive = fields.BooleanField(default=True)
    out_reason: str | None = fields.TextField(null=True)
    profile: dict[str, Any] = fields.JSONField(default=dict)  # sign-up fields (/资料)
    joined_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "player"
        unique_together = (("game", "user_id"), ("game", "seat"), ("game", "alias"))


class Timer(Model):
    """A deadline. Armed rows are re-armed in the scheduler at start-up."""

    id = fields.IntField(primary_key=True)
    game: fields.ForeignKeyRelation[Game] = fields.ForeignKeyField("kernel.Game", related_name="timers")
    game_id: int
    key = fields.CharField(max_length=64)
    ends_at = fields.DatetimeField()
    status = fields.CharField(max_length=16, default="armed")  # armed|paused|fired|cancelled
    remaining = fields.FloatField(null=True)  # seconds left, while paused
    fired_at = fields.DatetimeField(null=True)
    attempts = fields.IntField(default=0)  # failed firings so far (then retried with back-off, then parked)
    last_error: str | None = fields.TextField(null=True)

    class Meta:
        table = "timer"


class CommandLog(Model):
    """Every accepted command, timer firing and kernel action, in game order."""

    id = fields.IntField(primary_key=True)
    game: fields.ForeignKeyRelation[Game] = fields.ForeignKeyField("kernel.Game", related_name="commands")
    game_id: int
    seq = fields.IntField()
    user_id = fields.CharField(max_length=32, default="")
    name = fields.CharField(max_length=64)
    args: dict[str, Any] = fields.JSONField(default=dict)
    received_at = fields.DatetimeField()
    source = fields.CharField(max_length=16)  # group|private|timer|kernel
    dedup_key = fields.CharField(max_length=128, null=True, unique=True)

    class Meta:
        table = "command_log"
        unique_together = (("game", "seq"),)


class GameText(Model):
    """A text of a game's state (a post, a draft's part, a transcript line, a note):
    written once, referenced from the stored state as ``{"$text": ref}`` (see longtexts.py)."""

    id = fields.IntField(primary_key=True)
    game: fields.ForeignKeyRelation[Game] = fields.ForeignKeyField("kernel.Game", related_name="texts")
    game_id: int
    ref = fields.IntField()
    text = fields.TextField()

    class Meta:
        table = "game_text"
        unique_together = (("game", "ref"),)


class Audit(Model):
    id = fields.IntField(primary_key=True)
    game: fields.ForeignKeyRelation[Game] | None = fields.ForeignKeyField("kernel.Game", related_name="audit", null=True)
    game_id: int | None
    seq = fields.IntField(null=True)
    actor = fields.CharField(max_length=32, default="")
    action = fields.CharField(max_length=64)
    detail = fields.TextField(default="")
    at = fields.DatetimeField()

    class Meta:
        table = "audit"


class Card(Model):
    id = fields.IntField(primary_key=True)
    game: fields.ForeignKeyRelation[Game] = fields.ForeignKeyField("kernel.Game", related_name="cards")
    game_id: int
    seat = fields.IntField()
    user_id = fields.CharField(max_length=32)
    color = fields.CharField(max_length=8)  # blue|yellow|red
    reason = fields.TextField()  # public: what the group and /牌 show
    private_reason = fields.TextField(null=True)  # the full reason, when it differs (player and hosts only)
    given_by = fields.CharField(max_length=32)
    at = fields.DatetimeField()

    class Meta:
        table = "card"


class Outbox(Model):
    """The outbound queue. Rows are written in the same transaction as the
    state change that caused them, so nothing acknowledged is lost."""

    id = fields.IntField(primary_key=True)
    game: fields.ForeignKeyRelation[Game] | None = fields.ForeignKeyField("kernel.Game", related_name="outbox", null=True)
    game_id: int | None
    self_id = fields.CharField(max_length=32, default="")
    target_type = fields.CharField(max_length=8)  # private|group|api (text = JSON {action, params})
    target_id = fields.CharField(max_length=32)
    text = fields.TextField()
    priority = fields.IntField(default=1)  # 0: replies, 1: announcements
    at_all = fields.BooleanField(default=False)  # @全体成员 first (only when a host asks)
    image = fields.CharField(max_length=255, null=True)  # path of a PNG sent after the text
    status = fields.CharField(max_length=8, default="pending", db_index=True)  # pending|sent|failed
    attempts = fields.IntField(default=0)
    next_try_at = fields.DatetimeField()
    created_at = fields.DatetimeField()
    sent_at = fields.DatetimeField(null=True)
    last_error = fields.TextField(null=True)
    owner = fields.CharField(max_length=64, default="", db_index=True)  # the process that sends it
    timeouts = fields.IntField(default=0)  # sends that timed out: maybe delivered, resent once at most
    scrub = fields.BooleanField(default=False)  # the text holds a secret (a web password): cleared once sent

    class Meta:
        table = "outbox"


class Chat(Model):
    """An extra QQ group linked to a game (a league group's chat, a prison
    interrogation room). Commands there go to the game; ``label`` names it."""

    id = fields.IntField(primary_key=True)
    game: fields.ForeignKeyRelation[Game] = fields.ForeignKeyField("kernel.Game", related_name="chats")
    game_id: int
    group_id = fields.CharField(max_length=32, db_index=True)
    label = fields.CharField(max_length=32)
    linked_by = fields.CharField(max_length=32)
    linked_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "chat"
        unique_together = (("game", "label"),)


class Focus(Model):
    """Which game a user's private commands go to when they are in several."""

    user_id = fields.CharField(max_length=32, primary_key=True)
    game: fields.ForeignKeyRelation[Game] = fields.ForeignKeyField("kernel.Game", related_name="focused_by")
    game_id: int

    class Meta:
        table = "focus"


class Delivery(Model):
    """A message already acted on (its duplicate-detection key), written in the
    same transaction as what it caused: a repeated delivery is applied once,
    also after a restart and across processes."""

    key = fields.CharField(max_length=128, primary_key=True)
    at = fields.DatetimeField()

    class Meta:
        table = "delivery"


class Lease(Model):
    """Who serves what: ``game:<id>`` (one process per game) and ``node:<process>``
    (a process's heartbeat). Renewed while alive; an expired lease may be taken."""

    key = fields.CharField(max_length=64, primary_key=True)
    owner = fields.CharField(max_length=64)
    expires_at = fields.DatetimeField()

    class Meta:
        table = "lease"


class Contact(Model):
    """The bot account a user last wrote to privately: private messages go out
    through it (the account the player is friends with)."""

    user_id = fields.CharField(max_length=32, primary_key=True)
    self_id = fields.CharField(max_length=32)
    at = fields.DatetimeField()

    class Meta:
        table = "contact"


class WebAccess(Model):
    """A player's (or host's) personal web page of one game: the link's secret
    part and a hash of the short password (never the password itself)."""

    id = fields.IntField(primary_key=True)
    game: fields.ForeignKeyRelation[Game] = fields.ForeignKeyField("kernel.Game", related_name="web_access")
    game_id: int
    user_id = fields.CharField(max_length=32)
    link = fields.CharField(max_length=64, unique=True)  # the random path part of the personal link
    pw_hash = fields.CharField(max_length=255)  # scrypt$<salt hex>$<hash hex>
    failures = fields.IntField(default=0)  # wrong passwords in a row
    blocked_until = fields.DatetimeField(null=True)  # rate limit after too many wrong passwords
    created_at = fields.DatetimeField()

    class Meta:
        table = "web_access"
        unique_together = (("game", "user_id"),)


class WebSession(Model):
    """A logged-in browser of one access (player and game). The key is a hash of the cookie's token."""

    key = fields.CharField(max_length=64, primary_key=True)
    access: fields.ForeignKeyRelation[WebAccess] = fields.ForeignKeyField("kernel.WebAccess", related_name="sessions")
    access_id: int
    csrf = fields.CharField(max_length=64)
    expires_at = fields.DatetimeField()

    class Meta:
        table = "web_session"
