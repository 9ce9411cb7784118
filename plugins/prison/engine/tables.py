"""The three sheets of 【导演职责】 plus transcripts, points and submissions (/导出)."""

from __future__ import annotations

from . import model as m
from . import texts as T
from .content import Settings
from .model import CHOICES, AuctionBook, Kind, Phase, SignupInfo, State

Cell = str | int
Sheet = list[list[Cell]]


def _choices(state: State, seat: int, info: SignupInfo | None) -> list[Cell]:
    """第一志愿, 第二志愿: the auction's bids (character, coins, arrival) or the sign-up text."""
    book = state.auction
    if book is None or seat not in book.bids:
        return [(info.first or "") if info else "", (info.second or "") if info else ""]
    bid = book.bids[seat]
    out: list[Cell] = []
    for key in CHOICES:
        ch = bid.choice(key)
        out.append(T.BID_CELL.format(name=ch.name, coins=ch.coins, seq=ch.seq) if ch else "")
    return out


def _auction_cells(state: State, seat: int) -> list[Cell]:
    book = state.auction
    if book is None:
        return ["", "", "", ""]
    res = book.results.get(seat)
    p = state.players[seat]
    if res is None:  # still bidding
        return [p.alias, T.BIDDING, "", book.balances[seat]]
    return [p.signup_alias, T.HOW_TEXT[res.how], res.coins, res.balance]


def _auction_players(state: State, book: AuctionBook) -> Sheet:
    rows: Sheet = [list(T.PLAYERS_HEAD)]
    for s in state.order:
        p = state.players[s]
        nickname, contact = p.profile.get("nickname", ""), p.profile.get("contact", "")
        number = book.bids[s].number
        rows.append([s, p.alias, p.user_id, nickname, contact, *_choices(state, s, None),
                     number if number is not None else "", "", "", "", "", "",
                     T.BIDDING, "", "", "", *_auction_cells(state, s)])
    return rows


def tables(state: State, cfg: Settings) -> dict[str, Sheet]:
    if state.phase is Phase.AUCTION and state.auction is not None:
        return {T.SHEET["players"]: _auction_players(state, state.auction)}
    result = state.result
    totals = {row.seat: row.total for row in result.ranking} if result else {}
    players: Sheet = [list(T.PLAYERS_HEAD)]
    for s in state.order:
        p = state.players[s]
        r = m.role_of(cfg, state, s)
        info = state.signup.get(s)
        players.append([
            s, p.alias, p.user_id, (info.nickname or "") if info else "", (info.contact or "") if info else "",
            *_choices(state, s, info), p.number if p.number is not None else "", T.KIND[p.camp], r.name,
            T.SEP.join(r.crimes or []), p.love or "", p.hate or "", T.STATUS[p.status], p.out_day or "", p.reason,
            totals.get(s, ""), *_auction_cells(state, s),
        ])
    uses: Sheet = [list(T.USES_HEAD)]
    for e in state.log:
        uses.append([
            e.id, e.seq, e.at, e.day, T.PHASE_LABELS.get(e.phase, e.phase), e.seat,
            state.players[e.seat].alias, m.role_of(cfg, state, e.seat).name, e.ability, e.target,
            e.result if e.result is not None else T.UNSETTLED,
        ])
    pairs: Sheet = [list(T.PAIRS_HEAD)]
    lines: Sheet = [list(T.LINES_HEAD)]
    for night in state.nights:
        dead = m.names(state, night.deaths)
        for pr in night.pairs:
            pairs.append([
                night.night, pr.g_room, pr.p_room, m.name(state, pr.guard), m.name(state, pr.prisoner),
                pr.group or "", sum(1 for x in pr.lines if x.seat == pr.guard),
                sum(1 for x in pr.lines if x.seat == pr.prisoner), dead,
            ])
            for x in pr.lines:
                lines.append([night.night, pr.g_room, pr.p_room, x.seq, x.at, x.from_, x.text])
        room_of = {v: k for k, v in night.rooms.items()}
        for b in night.byes:
            guard = state.players[b].kind is Kind.GUARD
            g = room_of[b] if guard else ""
            p_room = "" if guard else room_of[b]
            pairs.append([night.night, g, p_room, m.name(state, b) if g else T.BYE, m.name(state, b) if p_room else T.BYE,
                          "", 0, 0, dead])
    score: Sheet = [list(T.SCORE_HEAD)]
    if result is not None:
        for row in result.ranking:
            detail = T.SEMI.join(T.POINT_ITEM.format(why=x.why, n=x.n) for x in result.points[row.seat])
            score.append([row.rank, row.seat, state.players[row.seat].alias, row.total, detail])
    subs: Sheet = [list(T.SUBS_HEAD)]
    for kind, label in T.SUB_KIND.items():
        for sub in state.subs.map if kind == "map" else state.subs.alias:
            body = " ".join(f"{a}-{b}" if kind == "map" else f"{a}={b}" for a, b in sub.pairs.items())
            subs.append([sub.seq, sub.at, sub.seat, label, body])
    subs[1:] = sorted(subs[1:], key=lambda r: r[0])
    return {T.SHEET["players"]: players, T.SHEET["uses"]: uses, T.SHEET["pairs"]: pairs, T.SHEET["lines"]: lines,
            T.SHEET["points"]: score, T.SHEET["subs"]: subs}
