"""Clean text at the door: every incoming text is normalised once, so no later
step (JSON, the database, a send) can fail on it; aliases are folded so that
look-alikes collide."""

from __future__ import annotations

import re
import unicodedata

# lone surrogates, noncharacters and C0/C1 controls other than tab and newline
_BAD = re.compile(r"[\ud800-\udfff\ufffe\uffff\x00-\x08\x0b-\x1f\x7f-\x9f]")
# characters that render as nothing or reorder text (beyond the Cf category)
_BLANKS = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u034f", "\u180e"}


def clean_text(text: str) -> str:
    """Replace what cannot be stored or sent (lone surrogates, controls) and
    normalise to NFC."""
    if text.isascii() and text.isprintable():
        return text
    text = _BAD.sub(lambda m: "\n" if m.group() == "\r" else "\ufffd", text.replace("\r\n", "\n"))
    return unicodedata.normalize("NFC", text)


def _invisible(ch: str) -> bool:
    cat = unicodedata.category(ch)
    return cat in ("Cf", "Cc", "Cs", "Co", "Cn") or ch in _BLANKS or 0xFE00 <= ord(ch) <= 0xFE0F


def fold_alias(alias: str) -> str:
    """An alias as shown: NFKC (fullwidth digits, compatibility forms), without
    invisible or bidirectional control characters, surrounding space trimmed."""
    alias = unicodedata.normalize("NFKC", alias)
    return "".join(ch for ch in alias if not _invisible(ch)).strip()


def alias_key(alias: str) -> str:
    """What two aliases are compared by: folded and case-folded."""
    return fold_alias(alias).casefold()
