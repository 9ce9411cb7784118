"""Messages as outbound queue rows (``outbox``): a text cut into QQ-sized pieces, or a OneBot API
call (group administration, file uploads). Pure: a unit of work puts the rows in its write set,
and they are written with what caused them."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from .leases import PROCESS
from .pieces import chunks


def text_rows(target_type: str, target_id: str, text: str, *, game_id: int | None, self_id: str, priority: int,
              now: datetime, at_all: bool = False, image: str | None = None, scrub: bool = False) -> list[dict[str, Any]]:
    """``text`` to a "private" or "group" target. ``at_all`` (@全体成员) only for a host's explicit
    announcement; ``image``: a picture sent with the last piece; ``scrub``: a secret (a web
    password), cleared from the row once sent."""
    pieces = chunks(text) if text else [""]
    last = len(pieces) - 1
    return [{"at_all": at_all and i == 0, "image": image if i == last else None, "game_id": game_id,
             "self_id": self_id, "target_type": target_type, "target_id": str(target_id), "text": piece,
             "priority": priority, "next_try_at": now, "created_at": now, "owner": PROCESS, "scrub": scrub}
            for i, piece in enumerate(pieces)]


def api_row(group_id: str, action: str, params: dict[str, Any], *, game_id: int | None, self_id: str,
            now: datetime, once: bool = False, fallback: tuple[str, str, str] | None = None) -> dict[str, Any]:
    """A OneBot API call, paced and retried like a message; ``once``: a best effort, not retried and
    not reported (e.g. a recall); ``fallback``: (target type, target, text) sent instead of the hosts'
    note when the call is given up (e.g. where the file is, when an upload fails)."""
    call: dict[str, Any] = {"action": action, "params": params} | ({"once": True} if once else {})
    if fallback is not None:
        call["fallback"] = list(fallback)
    return {"game_id": game_id, "self_id": self_id, "target_type": "api", "target_id": str(group_id),
            "text": json.dumps(call, ensure_ascii=False), "priority": 1, "next_try_at": now, "created_at": now,
            "owner": PROCESS}
