"""The measurable checks of a text (§十一.1, §十二.2): reports, kill posts, rewrites,
letters and the 移魂/还魂 texts all use them."""

from __future__ import annotations

import plugins.mafia88.engine.texts as T
from plugins.gamekit.textcheck import TextFigures, measure

from .content import Limits


def measure_text(text: str) -> TextFigures:
    """The kernel's figures (its repeat count also catches a clause repeated with
    commas, 甲，甲，甲, §十二.2)."""
    return measure(text)


def problems(fig: TextFigures, minimum: int, limits: Limits) -> list[str]:
    out = []
    if fig.chars < minimum:
        out.append(T.PROBLEM_CHARS.format(chars=fig.chars, minimum=minimum))
    if fig.quote_ratio * 100 > limits.quote_max_percent:
        out.append(T.PROBLEM_QUOTES.format(quote_ratio=fig.quote_ratio * 100, quote_max_percent=limits.quote_max_percent))
    if fig.unquoted < minimum:
        out.append(T.PROBLEM_UNQUOTED.format(unquoted=fig.unquoted, minimum=minimum))
    return out


def post_problems(fig: TextFigures, minimum: int, limits: Limits) -> list[str]:
    out = problems(fig, minimum, limits)
    if fig.repeat_ratio * 100 > limits.repeat_max_percent:
        out.append(T.PROBLEM_REPEATS.format(repeat_ratio=fig.repeat_ratio * 100, repeat_max_percent=limits.repeat_max_percent))
    if not fig.simplified:
        out.append(T.PROBLEM_TRADITIONAL.format(traditional=fig.traditional) if fig.traditional else T.PROBLEM_NO_HANZI)
    return out
