"""Role effects as data (content/effects.toml): validation and look-ups.

A post is judged by the first ``[[post]]`` rule that matches its poster's
role, its target's role and the round; a voted-out role acts by its
``[[vote]]`` rule. The primitives are applied by ``resolution.py``."""

from __future__ import annotations

from typing import Any

from . import texts as T
from .model import Settings

POST_EFFECTS = ("kill", "mutual", "poster_dies", "reveal", "reveal_kill", "countdown", "none")
EFFECT_NAME = T.EFFECT_NAME
DEFAULT_RULE = {"effect": "kill", "clause": T.DEFAULT_POST_CLAUSE, "check": False}


def in_rounds(rounds: list[int], r: int) -> bool:
    first, last = rounds
    return r >= first and (last == 0 or r <= last)


def _matches(keys: list[str], role_key: str) -> bool:
    return "*" in keys or role_key in keys


def post_rule(cfg: Settings, poster_role: str, target_role: str, r: int) -> dict[str, Any]:
    for rule in cfg["effects"]["post"]:
        if _matches(rule["poster"], poster_role) and _matches(rule["target"], target_role) and in_rounds(rule["rounds"], r):
            return rule
    return DEFAULT_RULE


def vote_rule(cfg: Settings, role_key: str, r: int) -> dict[str, Any] | None:
    for rule in cfg["effects"]["vote"]:
        if rule["role"] == role_key and in_rounds(rule["rounds"], r):
            return rule
    return None


def ability(cfg: Settings, name: str) -> dict[str, Any]:
    """The [revive] / [soul_move] / [soul_back] table."""
    return cfg["effects"][name]
