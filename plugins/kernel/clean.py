"""Clean text at the door: every incoming text is normalised once, so no later
step (JSON, the database, a send) can fail on it, and no bidi control in it can
turn the text after it around; aliases are compared by their UTS #39 skeleton
(ICU's, from Unicode's confusables data), so look-alikes collide."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import icu

# lone surrogates, noncharacters and C0/C1 controls other than tab and newline
_BAD = re.compile(r"[\ud800-\udfff\ufffe\uffff\x00-\x08\x0b-\x1f\x7f-\x9f]")
# characters that render as nothing or reorder text (beyond the Cf category)
_BLANKS = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u034f", "\u180e"}

# bidi embeddings and overrides (closed by PDF), isolates (closed by PDI)
_EMBED, _ISOLATE, _PDF, _PDI = "\u202a\u202b\u202d\u202e", "\u2066\u2067\u2068", "\u202c", "\u2069"
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")

# UTS #39 "highly restrictive": one script, or Latin with Han and kana, Bopomofo or Hangul
_SPOOF = icu.SpoofChecker()
_SPOOF.setChecks(icu.USpoofChecks.RESTRICTION_LEVEL)
_SPOOF.setRestrictionLevel(icu.URestrictionLevel.HIGHLY_RESTRICTIVE)


def clean_text(text: str) -> str:
    """Replace what cannot be stored or sent (lone surrogates, controls), normalise
    to NFC and close every bidi control by the end of its line."""
    if text.isascii() and text.isprintable():
        return text
    text = _BAD.sub(lambda m: "\n" if m.group() == "\r" else "\ufffd", text.replace("\r\n", "\n"))
    return balance_bidi(unicodedata.normalize("NFC", text))


def balance_bidi(text: str) -> str:
    """Every bidi embedding, override or isolate closed by the end of its line (as UAX #9
    pairs them: a PDI also closes the embeddings opened inside its isolate); a closer with
    nothing to close is removed. Such a text cannot reverse what is put after it (an alias,
    the next message merged with it)."""
    if not _BIDI.search(text):
        return text
    out: list[str] = []
    opened: list[str] = []

    def close(until_isolate: bool) -> None:
        while opened:
            ch = opened.pop()
            out.append(_PDI if ch in _ISOLATE else _PDF)
            if until_isolate and ch in _ISOLATE:
                return

    for ch in text:
        if ch in _EMBED or ch in _ISOLATE:
            opened.append(ch)
        elif ch == _PDF:
            if not opened or opened[-1] in _ISOLATE:
                continue
            opened.pop()
        elif ch == _PDI:
            if any(o in _ISOLATE for o in opened):
                close(until_isolate=True)
            continue
        elif ch == "\n":
            close(until_isolate=False)
        out.append(ch)
    close(until_isolate=False)
    return "".join(out)


def unprintable(text: str) -> bool:
    """Holds a control character, a lone surrogate or a noncharacter, or the U+FFFD the door
    put in the place of one."""
    return "\ufffd" in text or _BAD.search(text) is not None


def _invisible(ch: str) -> bool:
    cat = unicodedata.category(ch)
    return cat in ("Cf", "Cc", "Cs", "Co", "Cn") or ch in _BLANKS or 0xFE00 <= ord(ch) <= 0xFE0F


def fold_alias(alias: str) -> str:
    """An alias as shown: NFKC (fullwidth digits, compatibility forms), without
    invisible or bidirectional control characters, surrounding space trimmed."""
    alias = unicodedata.normalize("NFKC", alias)
    return "".join(ch for ch in alias if not _invisible(ch)).strip()


def skeleton(text: str) -> str:
    """UTS #39's confusable skeleton: two texts that look alike have the same one (Cyrillic а,
    Greek α, Latin a; l, I and 1; rn and m). Only for comparing, never shown."""
    return str(_SPOOF.getSkeleton(0, text))


@lru_cache(maxsize=4096)
def alias_key(alias: str) -> str:
    """What two aliases are compared by: the skeleton of the folded, case-folded alias."""
    return skeleton(fold_alias(alias).casefold())


@lru_cache(maxsize=4096)
def alias_keys(alias: str) -> tuple[str, str]:
    """``alias_key`` and the skeleton before case folding (capital I looks like l, but
    folds to i): two aliases collide when either of their keys is the same."""
    return alias_key(alias), skeleton(fold_alias(alias))


def mixed_scripts(alias: str) -> bool:
    """Mixes scripts beyond UTS #39's "highly restrictive" level: one script (digits, symbols
    and punctuation go with any), or Latin with Han and Hiragana/Katakana, with Han and
    Bopomofo, or with Han and Hangul. Refused: Latin with Cyrillic or Greek, Han with
    Cyrillic or Greek, and any other mix."""
    return bool(_SPOOF.check(alias) & icu.USpoofChecks.RESTRICTION_LEVEL)
