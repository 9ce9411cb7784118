"""How much of a text is found in earlier texts of the game and in the seed's sources
(§十一.1, §十二.2, §十二.6 原创首发): for hosts, before they approve. Pure and cheap: run once
when a post or report is handed in; each text's shingles are computed once per process."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import plugins.mafia88.engine.texts as T

from .content import Originality, Settings
from .state import Overlap, State

CACHE = 1024


@functools.lru_cache(maxsize=CACHE)
def normalize(text: str) -> str:
    """Letters, digits and CJK characters only: spaces, punctuation and line breaks do not hide a copy."""
    return "".join(ch for ch in text if ch.isalnum())


@functools.lru_cache(maxsize=CACHE)
def shingles(norm: str, k: int) -> frozenset[str]:
    return frozenset(norm[i:i + k] for i in range(len(norm) - k + 1))


@functools.lru_cache(maxsize=CACHE)
def shingle_list(norm: str, k: int) -> tuple[str, ...]:
    return tuple(norm[i:i + k] for i in range(len(norm) - k + 1))


def longest_run(mine: tuple[str, ...], other: frozenset[str], k: int) -> int:
    """The longest run of characters of a text found in another: the longest chain of the text's
    consecutive shingles that are all in the other text, plus the shingle's length less one (0:
    nothing shared). Linear in the text; exact for a copied passage."""
    best = cur = 0
    for sh in mine:
        if sh in other:
            cur += 1
            if cur > best:
                best = cur
        else:
            cur = 0
    return best + k - 1 if best else 0


@dataclass(frozen=True)
class Match:
    label: str  # how hosts know the other text: "#3", "报道12", "规则 十二 …"
    percent: float  # share of this text's shingles found in the other, 0–100
    run: int  # longest shared run of characters
    flag: bool


def compare(text: str, others: list[tuple[str, str]], cfg: Originality) -> list[Match]:
    """The closest of ``others`` (label, text), most shared first, at most ``cfg.top``; a match is
    flagged at ``flag_percent`` or a run of ``flag_run`` characters. Shares are set sizes for every
    text; runs are measured only for the closest and for those sharing enough to hold a flagged run."""
    k = cfg.shingle
    mine = normalize(text)
    own = shingles(mine, k)
    if not own:
        return []
    shared: list[tuple[int, int, str, frozenset[str]]] = []  # (-shared shingles, index, label, its shingles)
    for i, (label, other) in enumerate(others):
        theirs = shingles(normalize(other), k)
        n = len(own & theirs)
        if n:
            shared.append((-n, i, label, theirs))
    shared.sort(key=lambda x: x[:2])
    enough = cfg.flag_run - k + 1 if cfg.flag_run > 0 else len(own) + 1
    picked = [x for j, x in enumerate(shared) if j < cfg.top or -x[0] >= enough]
    found: list[tuple[float, int, int, Match]] = []
    seq = shingle_list(mine, k)
    for neg, i, label, theirs in picked:
        percent = round(100 * -neg / len(own), 1)
        run = longest_run(seq, theirs, k)
        flag = percent >= cfg.flag_percent or (cfg.flag_run > 0 and run >= cfg.flag_run)
        found.append((-percent, -run, i, Match(label, percent, run, flag)))
    found.sort(key=lambda m: m[:3])
    return [m for *_, m in found[:cfg.top]]


# ---- the texts of a game -------------------------------------------------------------------------

def earlier_texts(state: State, cfg: Settings, skip_post: int | None = None, skip_seat: int | None = None) -> list[tuple[str, str]]:
    """(label, text) of every text the game holds now, but the one being measured, then the sources."""
    out: list[tuple[str, str]] = []
    for s, p in sorted(state.players.items()):
        if s != skip_seat and p.report is not None and p.report.text:
            out.append((T.OV_REPORT.format(seat=s), p.report.text))
    out += [(T.OV_POST.format(id=p.id), p.text) for p in state.posts if p.id != skip_post and p.text]
    out += [(T.OV_LETTER.format(id=x.id), x.text) for x in state.letters if x.text]
    for r, souls in sorted(state.souls.items()):
        if souls.move is not None:
            out.append((T.OV_SOUL_MOVE.format(r=r), souls.move.text))
        if souls.back is not None:
            out.append((T.OV_SOUL_BACK.format(r=r), souls.back.text))
    ori = cfg.originality
    out += [(src.title, src.text) for src in [*ori.sources, *ori.extra_sources]]
    return out


def overlap_of(text: str, others: list[tuple[str, str]], cfg: Settings) -> list[Overlap]:
    return [Overlap(label=m.label, percent=m.percent, run=m.run, flag=m.flag) for m in compare(text, others, cfg.originality)]


def overlap_line(found: list[Overlap]) -> str:
    """'重合：#2 32.0%（最长 85 字）⚠；报道3 4.1%（最长 9 字）' for hosts."""
    if not found:
        return T.OV_NONE
    items = [T.OV_ITEM.format(label=o.label, percent=o.percent, run=o.run, flag=T.OV_FLAG if o.flag else "") for o in found]
    return T.OV_HEAD + T.SEMI_SEP.join(items)


def flagged(found: list[Overlap]) -> bool:
    return any(o.flag for o in found)
