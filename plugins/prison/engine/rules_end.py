"""The end (【身份与胜利条件】（三）), winners and the points (（二）积分制)."""

from __future__ import annotations

from collections import Counter
from random import Random

from plugins.gamekit.contract import Ctx, Effect, Eliminate, Finish

from . import model as m
from . import texts as T
from .content import Settings
from .model import Kind, Phase, PointItem, Rank, Result, State, Status, Submission

GONE = (Status.DEAD, Status.OUT)
STILL_THERE = (Status.ALIVE, Status.RELEASED)


def condition(state: State, cfg: Settings) -> int | None:
    """（三）: 3 when the murderer was released (takes precedence), 1 when no murderer side
    remains in prison, 2 when no guard remains, else None."""
    killer = m.murderer_seat(cfg, state)
    if state.players[killer].status is Status.RELEASED:
        return 3
    if not any(m.murderer_side(cfg, state, s) for s in m.living(state)):
        return 1
    if not m.living(state, Kind.GUARD):
        return 2
    return None


def winners(state: State, cfg: Settings, cond: int) -> list[int]:
    out = []
    for s in state.order:
        status = state.players[s].status
        rule = m.role_of(cfg, state, s).win
        if rule == "alive":
            won = status in STILL_THERE
        elif rule == "released":
            won = status is Status.RELEASED
        elif rule == "with_murderer":
            won = cond == 3
        elif cond == 3:
            won = m.murderer_side(cfg, state, s)
        else:
            won = status in STILL_THERE
        if won:
            out.append(s)
    return out


def days_survived(state: State, seat: int) -> int:
    """Game days the player saw the end of alive: the last day if alive at the end, the day
    of release if released, the day before the death otherwise."""
    p = state.players[seat]
    if p.status is Status.ALIVE:
        return state.day
    assert p.out_day is not None
    if p.status is Status.RELEASED:
        return p.out_day
    return max(0, p.out_day - 1)


def _correct_map(state: State, pairs: dict[str, str]) -> bool:
    return pairs == state.mapping


def _correct_alias(state: State, sub: Submission) -> bool:
    given = sub.pairs
    for s in state.order:
        if s == sub.seat:
            continue
        p = state.players[s]
        who = given.get(p.alias)
        info = state.signup.get(s)
        ok = {p.user_id, (info.nickname if info is not None else None) or p.user_id}
        if who is None or who not in ok:
            return False
    return True


def _bonus_prisoners(state: State, cfg: Settings) -> list[int]:
    """(二)5 "看守阵营全部死亡，所有囚犯积分+3": who receives it (setting ``guards_dead_bonus``).
    "all" (default, the seed's words): every prisoner, the dead too; "living": prisoners still
    alive in prison or released when the guards' side is wholly dead — the end of the game,
    after (三)3's mass execution."""
    prisoners = [s for s in state.order if state.players[s].kind is Kind.PRISONER]
    if cfg.guards_dead_bonus == "all":
        return prisoners
    return [s for s in prisoners if state.players[s].status in STILL_THERE]


def _top(counts: Counter[int], ties: str, rng: Random) -> tuple[list[int], bool]:
    """(二)2: the most-loved / most-hated seats under the ``top_ties`` setting: "none"
    (default: a tie at the top names nobody), "all" (every tied seat), "drawn" (one of them,
    drawn with the game's generator). Returns (seats, drawn?)."""
    if not counts:
        return [], False
    best = max(counts.values())
    tied = sorted(s for s, n in counts.items() if n == best)
    if len(tied) == 1 or ties == "all":
        return tied, False
    if ties == "none":
        return [], False
    return [rng.choice(tied)], True


def points(state: State, cfg: Settings, won: list[int], rng: Random) -> dict[int, list[PointItem]]:
    """（二）积分制 for every seat; ``rng`` draws a tie for 万人迷/讨厌鬼 (``top_ties = "drawn"``)."""
    pts = cfg.points
    book: dict[int, list[PointItem]] = {s: [] for s in state.order}

    def add(seat: int, why: str, n: int) -> None:
        if n:
            book[seat].append(PointItem(why, n))

    for s in state.order:
        p = state.players[s]
        d = days_survived(state, s)
        add(s, T.PT_DAYS.format(days=d), d * pts.day)
        if p.love is not None and p.love in won:
            add(s, T.PT_LOVE_WON.format(name=m.name(state, p.love)), pts.love_win)
        if p.hate is not None and p.hate in won:
            add(s, T.PT_HATE_WON.format(name=m.name(state, p.hate)), pts.hate_win)
        if p.status is Status.RELEASED:
            add(s, T.PT_RELEASED, pts.released)
    for key, value in (("love", pts.idol), ("hate", pts.pest)):
        title = T.TOP_TITLE[key]
        chosen = [state.players[s].love if key == "love" else state.players[s].hate for s in state.order]
        counts = Counter(x for x in chosen if x is not None)
        top, drawn = _top(counts, cfg.top_ties, rng)
        for s in top:
            how = T.TOP_DRAWN if drawn else ""
            add(s, T.PT_TOP.format(title=title, n=counts[s], how=how), value)
    for sub in sorted(state.subs.map, key=lambda x: x.seq):
        if _correct_map(state, sub.pairs):
            add(sub.seat, T.PT_MAP_FIRST.format(seq=sub.seq), pts.mapping_first)
            break
    side = [s for s in state.order if m.murderer_side(cfg, state, s)]
    if all(state.players[s].status in GONE for s in side):
        for s in state.order:
            if s not in side:
                add(s, T.PT_MURDERERS_DEAD, pts.murderer_dead)
    guards = [s for s in state.order if state.players[s].kind is Kind.GUARD]
    if all(state.players[s].status in GONE for s in guards):
        for s in _bonus_prisoners(state, cfg):
            add(s, T.PT_GUARDS_DEAD, pts.guards_dead)
    last: dict[int, Submission] = {}
    for sub in sorted(state.subs.alias, key=lambda x: x.seq):
        last[sub.seat] = sub
    for s in sorted(last):
        if _correct_alias(state, last[s]):
            add(s, T.PT_ALIASES, pts.aliases)
    return book


def ranking(state: State, book: dict[int, list[PointItem]]) -> list[Rank]:
    """[rank, seat, total] sorted; equal totals share a rank."""
    totals = sorted(((sum(x.n for x in book[s]), s) for s in state.order), key=lambda x: (-x[0], x[1]))
    out: list[Rank] = []
    for i, (total, s) in enumerate(totals):
        rank = out[-1].rank if out and out[-1].total == total else i + 1
        out.append(Rank(rank, s, total))
    return out


def finish(state: State, cond: int, ctx: Ctx[Settings]) -> list[Effect]:
    fx: list[Effect] = []
    cfg = ctx.settings
    if cond == 3:
        for s in m.living(state):
            if not m.murderer_side(cfg, state, s):
                p = state.players[s]
                p.status, p.out_day, p.reason = Status.DEAD, state.day, T.REASON_MASS_EXECUTION
                fx.append(Eliminate(s, p.reason))
    won = winners(state, cfg, cond)
    book = points(state, cfg, won, ctx.rng)
    rank = ranking(state, book)
    state.phase = Phase.OVER
    state.result = Result(cond=cond, winners=won, points=book, ranking=rank)
    lines = [T.GAME_OVER.format(cond=T.COND[cond]), T.WINNERS.format(names=m.names(state, won))]
    lines += reveal_lines(state, cfg, rank)
    lines.append(T.SEE_EXPORT)
    return fx + [Finish("\n".join(lines))]


def reveal_lines(state: State, cfg: Settings, rank: list[Rank]) -> list[str]:
    """Identities, the room mapping, the points ranking and the 树洞 notes."""
    lines = [T.REVEAL_HEAD]
    for s in state.order:
        p = state.players[s]
        r = m.role_of(cfg, state, s)
        crimes = T.PAREN.format(text=T.SEP.join(r.crimes)) if r.crimes else ""
        lines.append(T.REVEAL_LINE.format(name=m.name(state, s), kind=T.KIND[p.camp], role=r.name, crimes=crimes,
                                          status=T.STATUS[p.status]))
    lines.append(T.REVEAL_MAP + " ".join(f"{g}-{p}" for g, p in state.mapping.items()))
    lines.append(T.REVEAL_RANKING)
    for row in rank:
        lines.append(T.REVEAL_RANK.format(rank=row.rank, name=m.name(state, row.seat), total=row.total))
    if state.notes:
        lines.append(T.REVEAL_NOTES)
        lines += [T.REVEAL_NOTE.format(text=n.text) for n in state.notes]
    return lines


def early_reveal(state: State, cfg: Settings) -> str:
    """A host ended the game early (/结束): the same reveal as a natural end, points counted as
    they stand with no side winning (a game cut short has no winner). Ties drawn by
    ``top_ties = "drawn"`` use a generator seeded from the state, so the reveal is the same
    every time it is computed."""
    if state.result is not None or state.phase is Phase.AUCTION or not state.mapping:
        return ""
    rank = ranking(state, points(state, cfg, [], Random(f"reveal:{state.day}")))
    return "\n".join([T.EARLY_END, *reveal_lines(state, cfg, rank), T.SEE_EXPORT])


def check(state: State, ctx: Ctx[Settings]) -> list[Effect] | None:
    cond = condition(state, ctx.settings)
    return finish(state, cond, ctx) if cond is not None else None
