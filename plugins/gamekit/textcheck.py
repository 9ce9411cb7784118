"""Pure text figures shared by the games: Word-style character count, quoted
share, repeated sentences and Simplified-Chinese check.

Quotes: characters inside “…” 「…」 『…』 and straight "…" pairs (the marks
themselves included), and whole *quote lines*: lines whose first non-space
characters are ``>``, ``＞``, ``【引用】``, ``[引用]``, ``引用:`` or ``引用：``.
An opening mark that is never closed quotes only to the end of its line.

Repeats: the text is split into sentences on 。！？!?；;… and newlines; a
sentence of at least 4 non-space characters that equals an earlier one counts
as repeated (all its characters).

Traditional characters: the text is converted to Simplified with ``zhconv``
(phrase-aware, so 乾坤 or 著作 stay as they are); every Han character that
changes is counted as Traditional-only.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass

with warnings.catch_warnings():  # zhconv imports the deprecated pkg_resources
    warnings.simplefilter("ignore")
    import zhconv

QUOTE_LINE_MARKERS = (">", "＞", "【引用】", "[引用]", "引用:", "引用：")
_PAIRS = {"“": "”", "「": "」", "『": "』"}
_SENTENCE_SPLIT = re.compile(r"[。！？!?；;…\n]+")
_CLAUSE_SPLIT = re.compile(r"[。！？!?；;…\n，,、：:]+")  # a clause repeated with commas (甲，甲，甲) counts too
MIN_REPEAT = 4


@dataclass(frozen=True)
class TextFigures:
    chars: int
    quoted: int
    unquoted: int
    quote_ratio: float
    repeated: int
    repeat_ratio: float
    traditional: int
    simplified: bool


def _is_han(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf" or "\U00020000" <= ch <= "\U0002ffff"


def char_count(text: str) -> int:
    """Word's count: every character but spaces and line breaks (all a running draft needs)."""
    return sum(1 for ch in text if not ch.isspace())


def _quoted_in_line(line: str) -> int:
    if line.lstrip().startswith(QUOTE_LINE_MARKERS):
        return char_count(line)
    stack: list[str] = []
    straight = False
    quoted = 0
    pending = 0  # chars of an open quote, kept only if it closes
    for ch in line:
        if ch.isspace():
            continue
        if ch == '"':
            if straight:
                straight = False
                if not stack:
                    quoted += pending + 1
                    pending = 0
                else:
                    pending += 1
            else:
                if not stack:
                    pending = 1
                else:
                    pending += 1
                straight = True
            continue
        if ch in _PAIRS:
            if not stack and not straight:
                pending = 0
            stack.append(_PAIRS[ch])
            pending += 1
            continue
        if stack and ch == stack[-1]:
            stack.pop()
            pending += 1
            if not stack and not straight:
                quoted += pending
                pending = 0
            continue
        if stack or straight:
            pending += 1
    return quoted  # an unclosed span counts nothing


def _repeated(text: str) -> int:
    """Characters in sentences (or comma-separated clauses) that repeat an earlier one:
    the larger of the two counts."""
    return max(_repeats(text, _SENTENCE_SPLIT), _repeats(text, _CLAUSE_SPLIT))


def _repeats(text: str, split: re.Pattern[str]) -> int:
    seen: set[str] = set()
    repeated = 0
    for part in split.split(text):
        key = "".join(ch for ch in part if not ch.isspace())
        if len(key) < MIN_REPEAT:
            continue
        if key in seen:
            repeated += len(key)
        else:
            seen.add(key)
    return repeated


def _traditional(text: str) -> int:
    converted = zhconv.convert(text, "zh-hans")
    if len(converted) == len(text):
        return sum(1 for a, b in zip(text, converted) if a != b and _is_han(a))
    return sum(1 for ch in text if _is_han(ch) and zhconv.convert(ch, "zh-hans") != ch)


def measure(text: str) -> TextFigures:
    chars = char_count(text)
    quoted = sum(_quoted_in_line(line) for line in text.split("\n"))
    repeated = _repeated(text)
    traditional = _traditional(text)
    has_han = any(_is_han(ch) for ch in text)
    return TextFigures(
        chars=chars,
        quoted=quoted,
        unquoted=chars - quoted,
        quote_ratio=quoted / chars if chars else 0.0,
        repeated=repeated,
        repeat_ratio=repeated / chars if chars else 0.0,
        traditional=traditional,
        simplified=has_han and traditional == 0,
    )


def _pct(x: float) -> str:
    text = f"{x * 100:.1f}"
    return (text[:-2] if text.endswith(".0") else text) + "%"


def describe(f: TextFigures) -> str:
    if f.simplified:
        simp = "是"
    elif f.traditional:
        simp = f"否（繁体字 {f.traditional} 个）"
    else:
        simp = "否（没有汉字）"
    return (
        f"字数 {f.chars}（不计空格），引用 {f.quoted}（{_pct(f.quote_ratio)}），"
        f"去引用 {f.unquoted}，重复 {_pct(f.repeat_ratio)}，简体：{simp}"
    )
