"""Role effects as data (content/effects.toml, the settings' ``effects``): look-ups.

A post is judged by the first ``[[effects.post]]`` rule that matches its poster's
role, its target's role and the round; a voted-out role acts by its
``[[effects.vote]]`` rule. The primitives are applied by ``resolution.py``."""

from __future__ import annotations

import plugins.mafia88.engine.texts as T

from .content import PostRule, Settings, VoteRule

EFFECT_NAME = T.EFFECT_NAME
DEFAULT_RULE = PostRule(poster=["*"], target=["*"], effect="kill", clause=T.DEFAULT_POST_CLAUSE)
MANUAL_RULE = PostRule(poster=["*"], target=["*"], effect="kill", clause=T.MANUAL_MODE_CLAUSE)
"""options.role_effects off: every post kills (the hosts rule by hand)."""


def in_rounds(rounds: list[int], r: int) -> bool:
    first, last = rounds
    return r >= first and (last == 0 or r <= last)


def _matches(keys: list[str], role_key: str) -> bool:
    return "*" in keys or role_key in keys


def post_rule(cfg: Settings, poster_role: str, target_role: str, r: int) -> PostRule:
    for rule in cfg.effects.post:
        if _matches(rule.poster, poster_role) and _matches(rule.target, target_role) and in_rounds(rule.rounds, r):
            return rule
    return DEFAULT_RULE


def vote_rule(cfg: Settings, role_key: str, r: int) -> VoteRule | None:
    for rule in cfg.effects.vote:
        if rule.role == role_key and in_rounds(rule.rounds, r):
            return rule
    return None
