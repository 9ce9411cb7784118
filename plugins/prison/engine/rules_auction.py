"""【游戏流程】<3、竞拍马甲>: the auction of the script's characters (马甲), the first phase
after /开始 when the host loaded a character list (``characters``).

Bids are private (/竞拍 第一志愿=角色:硬币 第二志愿=角色:硬币 随机号码=1–999) and may change
until the close. At the close: random numbers -> guard or prisoner (as without an auction),
then each character goes to the highest first-choice bid (ties: the earlier bid), then the
second choices, then the rest are drawn; a character tied to a camp only goes to that camp.
The character won becomes the player's alias (马甲) for the game (kernel ``Rename``)."""

from __future__ import annotations

import re
from random import Random

from plugins.gamekit.contract import Actor, Ctx, Effect, Ignored, Rejected, Rename, Say, Seat

from . import common as c
from . import model as m
from . import rules_setup
from . import texts as T
from .args import BidArgs
from .content import Character, Settings
from .model import CHOICES, AuctionBook, Bid, Choice, How, Kind, Lost, Phase, Player, State, Won

LABEL = dict(T.CHOICES)  # "first" -> 第一志愿
USAGE = T.BID_USAGE
CHOICE_RE = re.compile(T.CHOICE_RE)


# ---- opening ---------------------------------------------------------------------------


def open_auction(roster: list[Seat], ctx: Ctx[Settings]) -> tuple[State, list[Effect]]:
    """/开始 with a character list: the auction phase; identities are dealt at its close."""
    cfg = ctx.settings
    book = AuctionBook()
    state = State(phase=Phase.AUCTION, auction=book)
    fx: list[Effect] = []
    notes: dict[int, str] = {}
    for s in sorted(roster, key=lambda x: x.seat):
        seat = s.seat
        state.order.append(seat)
        state.players[seat] = Player(seat=seat, alias=s.alias, user_id=s.user_id, profile=dict(s.profile))
        book.balances[seat] = cfg.auction.balance(seat)
        number = s.profile.get("number")
        bid = Bid(number=number if isinstance(number, int) else None)
        # sign-up fields (/资料 第一志愿=角色:硬币) are the opening bids when they are valid ones
        skipped: list[str] = []
        for key in CHOICES:
            raw = s.profile.get(key)
            if not raw:
                continue
            try:
                _set(bid, key, _parse_choice(cfg, LABEL[key], str(raw), ctx.seq))
                _check_bid(book, cfg, seat, bid)
            except Rejected as exc:
                _set(bid, key, None)
                skipped.append(T.SIGNUP_NOT_BID.format(label=LABEL[key], raw=raw, why=exc))
        book.bids[seat] = bid
        placed = bid.first is not None or bid.second is not None
        if placed or skipped:
            notes[seat] = "\n".join(([T.SIGNUP_BIDS.format(bids=_bid_text(book, seat))] if placed else []) + skipped)
    ends = c.enter(state, Phase.AUCTION, ctx, fx)
    when = T.BY_HOST if ends is None else c.hhmm(ends, ctx)
    fx.append(Say("group", T.AUCTION_OPEN.format(
        chars=char_list(cfg), usage=USAGE, when=when,
        limit=T.LIMIT_SUM if cfg.auction.limit == "sum" else T.LIMIT_EACH)))
    for seat in state.order:
        head = T.AUCTION_COINS.format(coins=book.balances[seat], when=when)
        tail = notes.get(seat) or T.AUCTION_HOW_TO.format(usage=USAGE)
        fx.append(Say(seat, head + "\n" + tail))
    fx.append(Say("hosts", T.AUCTION_TO_HOSTS.format(chars=len(cfg.characters), n=len(roster),
                                                     close=T.CLOSE_AUTO if ends else T.CLOSE_BY_HOST)))
    return state, fx


def char_list(cfg: Settings) -> str:
    return T.SEP.join(ch.name + ("" if ch.camp == "any" else T.CHAR_ONLY.format(camp=T.CAMP_TEXT[ch.camp]))
                      for ch in cfg.characters)


# ---- bidding ---------------------------------------------------------------------------


def _set(bid: Bid, key: How, choice: Choice | None) -> None:
    if key is How.FIRST:
        bid.first = choice
    else:
        bid.second = choice


def _find(cfg: Settings, name: str) -> str:
    for ch in cfg.characters:
        if ch.name.casefold() == name.casefold():
            return ch.name
    raise Rejected(T.NO_SUCH_CHAR.format(name=name, chars=T.SEP.join(ch.name for ch in cfg.characters)))


def _parse_choice(cfg: Settings, label: str, value: str, seq: int) -> Choice:
    found = CHOICE_RE.match(value.strip())
    if not found or not found.group(1).strip() or re.search(T.COLON_RE, found.group(1)):
        raise Rejected(T.CHOICE_FORMAT.format(label=label))
    return Choice(name=_find(cfg, found.group(1).strip()), coins=int(found.group(2) or 0), seq=seq)


def _check_bid(book: AuctionBook, cfg: Settings, seat: int, bid: Bid) -> None:
    bal = book.balances[seat]
    first, second = bid.first, bid.second
    if first and second and first.name == second.name:
        raise Rejected(T.SAME_CHOICE.format(name=first.name))
    for key in CHOICES:
        ch = bid.choice(key)
        if ch and ch.coins > bal:
            raise Rejected(T.OVER_BALANCE.format(label=LABEL[key], coins=ch.coins, balance=bal))
    if cfg.auction.limit == "sum" and first and second and first.coins + second.coins > bal:
        raise Rejected(T.OVER_BALANCE_SUM.format(coins=first.coins + second.coins, balance=bal))


def _bid_text(book: AuctionBook, seat: int) -> str:
    bid = book.bids[seat]
    parts = []
    for key in CHOICES:
        ch = bid.choice(key)
        label = LABEL[key]
        parts.append(T.BID_CHOICE.format(label=label, name=ch.name, coins=ch.coins) if ch else T.BID_EMPTY.format(label=label))
    parts.append(T.BID_NUMBER.format(number=bid.number) if bid.number is not None else T.BID_NO_NUMBER)
    return T.COMMA.join(parts)


def bid(state: State, actor: Actor, args: BidArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/竞拍 — private; changes only what it names; refused whole if any part is wrong.
    A host (not playing) gets the table of bids instead."""
    book = state.auction
    if actor.is_host and (actor.seat is None or actor.seat not in state.players):
        if book is None:
            raise Rejected(T.NO_AUCTION_HOST)
        if not actor.private:
            raise Rejected(T.BIDS_SECRET)
        return [Say("reply", host_table(state, book))]
    seat = c.member(state, actor)
    if state.phase is not Phase.AUCTION or book is None:
        if book is not None:
            raise Rejected(T.AUCTION_OVER.format(alias=state.players[seat].alias))
        raise Rejected(T.NO_AUCTION)
    if not actor.private:
        raise Rejected(T.BID_PRIVATE.format(usage=USAGE))
    old = book.bids[seat]
    new = Bid(first=old.first, second=old.second, number=old.number)
    tokens = [tok for tok in re.split(T.LIST_SPLIT_RE, args.text.strip()) if tok]
    for tok in tokens:
        label, sep, value = tok.replace(T.EQUALS_FULL, "=").partition("=")
        key = T.BID_LABELS.get(label)
        if not sep or key is None or not value:
            raise Rejected(T.BID_UNREADABLE.format(token=tok, usage=USAGE))
        if key == "number":
            if not value.isdigit() or not 1 <= int(value) <= 999:
                raise Rejected(T.NUMBER_RANGE)
            new.number = int(value)
            continue
        which = How(key)
        if value == T.BID_NONE:
            _set(new, which, None)
            continue
        choice = _parse_choice(ctx.settings, label, value, ctx.seq)
        before = old.choice(which)
        same = before is not None and before.name == choice.name and before.coins == choice.coins
        _set(new, which, before if same else choice)  # the time of a choice: its last change
    _check_bid(book, ctx.settings, seat, new)
    book.bids[seat] = new
    head = T.BID_RECORDED if tokens else T.BID_CURRENT
    return [Say("reply", T.BID_REPLY.format(head=head, seq=ctx.seq, bids=_bid_text(book, seat), balance=book.balances[seat]))]


# ---- the award -------------------------------------------------------------------------


def _fits(camp: str, kind: Kind) -> bool:
    return camp == "any" or camp == kind


def _feasible(free: list[Character], waiting: list[Kind]) -> bool:
    """Can every waiting player (their camps) still get a fitting free character? (Hall's
    condition for two camps and "any" characters.)"""
    g, p = waiting.count(Kind.GUARD), waiting.count(Kind.PRISONER)
    cg = sum(1 for ch in free if ch.camp == "guard")
    cp = sum(1 for ch in free if ch.camp == "prisoner")
    ca = sum(1 for ch in free if ch.camp == "any")
    return g <= cg + ca and p <= cp + ca and g + p <= cg + cp + ca


def award(order: list[int], kinds: dict[int, Kind], chars: list[Character],
          bids: dict[int, Bid], rng: Random) -> dict[int, Won]:
    """seat -> what it won (name, how: first|second|draw, coins, lost: {choice: why}).

    Round 1 then round 2: bids sorted by coins (high first), then arrival (early first); equal
    coins at the same arrival (opening bids from the sign-up fields) are put in a drawn order.
    A bid wins if its character is free, fits the bidder's camp and still leaves every other
    player a fitting character. The players left draw, in seat order, among the fitting free
    characters (script order) that keep that true."""
    free = list(chars)
    out: dict[int, Won] = {}
    lost: dict[int, dict[How, Lost]] = {s: {} for s in order}

    def waiting(without: int) -> list[Kind]:
        return [kinds[s] for s in order if s not in out and s != without]

    for key in CHOICES:
        cands: list[tuple[int, Choice]] = []
        for s in order:
            b = bids.get(s)
            choice = b.choice(key) if b is not None else None
            if s not in out and choice is not None:
                cands.append((s, choice))
        cands.sort(key=lambda x: (-x[1].coins, x[1].seq, x[0]))
        i = 0
        while i < len(cands):  # shuffle runs of equal (coins, arrival)
            j = i
            while j < len(cands) and (cands[j][1].coins, cands[j][1].seq) == (cands[i][1].coins, cands[i][1].seq):
                j += 1
            if j - i > 1:
                run = cands[i:j]
                rng.shuffle(run)
                cands[i:j] = run
            i = j
        for s, choice in cands:
            ch = next((x for x in free if x.name == choice.name), None)
            if ch is None:
                lost[s][key] = Lost.TAKEN
            elif not _fits(ch.camp, kinds[s]):
                lost[s][key] = Lost.CAMP
            elif not _feasible([x for x in free if x is not ch], waiting(s)):
                lost[s][key] = Lost.SHORT
            else:
                free.remove(ch)
                out[s] = Won(name=ch.name, how=key, coins=choice.coins)
    for s in order:
        if s in out:
            continue
        options = [ch for ch in free if _fits(ch.camp, kinds[s])
                   and _feasible([x for x in free if x is not ch], waiting(s))]
        ch = rng.choice(options)
        free.remove(ch)
        out[s] = Won(name=ch.name, how=How.DRAW, coins=0)
    for s in order:
        out[s].lost = lost[s]
    return out


# ---- closing ---------------------------------------------------------------------------

def _result_text(book: AuctionBook, cfg: Settings, seat: int, res: Won, bal: int) -> str:
    bid_ = book.bids[seat]
    lines = []
    for key in CHOICES:
        why = res.lost.get(key)
        ch = bid_.choice(key)
        if why and ch is not None:
            camp = next(x.camp for x in cfg.characters if x.name == ch.name)
            lines.append(T.LOST_CHOICE.format(label=LABEL[key], name=ch.name,
                                              why=T.LOST_WHY[why].format(camp=T.CAMP_TEXT[camp])))
    if res.how is How.DRAW:
        lines.append(T.WON_DRAW.format(name=res.name, balance=bal))
    else:
        lines.append(T.WON_BID.format(how=T.HOW_TEXT[res.how], coins=res.coins, name=res.name, balance=bal - res.coins))
    return T.AUCTION_RESULT.format(lines="".join(lines))


def close(state: State, ctx: Ctx[Settings]) -> list[Effect]:
    """The auction closes: deal camps and roles, award the characters, rename, begin."""
    book = state.auction
    assert book is not None
    cfg = ctx.settings
    roster: list[Seat] = []
    for seat in state.order:
        p = state.players[seat]
        profile = dict(p.profile)
        b = book.bids[seat]
        if b.number is not None:
            profile["number"] = b.number
        for key in CHOICES:
            ch = b.choice(key)
            profile[key.value] = f"{ch.name}:{ch.coins}" if ch else ""
        roster.append(Seat(seat, p.alias, p.user_id, profile))
    signup = rules_setup.signup_table(roster, cfg.signed_up)
    dealt, numbers, draw_key = rules_setup.deal(roster, cfg, signup, ctx)
    kinds = {s: dealt[s][0] for s in state.order}
    won = award(state.order, kinds, cfg.characters, book.bids, ctx.rng)
    renamed = [Seat(s.seat, won[s.seat].name, s.user_id, s.profile) for s in roster]
    before = {s: _result_text(book, cfg, s, won[s], book.balances[s]) for s in state.order}
    new, fx = rules_setup.begin(renamed, signup, ctx, dealt, numbers, draw_key, before)
    for s in state.order:
        won[s].balance = book.balances[s] - won[s].coins
        new.players[s].signup_alias = state.players[s].alias
    closed = new.auction = AuctionBook(bids=book.bids, balances=book.balances, results=won, closed_seq=ctx.seq)
    head: list[Effect] = [
        Rename(tuple((s, won[s].name) for s in state.order)),
        Say("group", T.AUCTION_CLOSED),
    ]
    m.become(state, new)
    return head + [Say("hosts", host_table(state, closed))] + fx


def host_table(state: State, book: AuctionBook) -> str:
    """For hosts only: every bid, and after the close how each character went (with QQ)."""
    if state.phase is Phase.AUCTION:
        lines = [T.HOST_BIDS_HEAD.format(bidders=_bidders(state, book), n=len(state.order))]
        for s in state.order:
            p = state.players[s]
            lines.append(T.HOST_BID_LINE.format(seat=s, alias=p.alias, qq=p.user_id, balance=book.balances[s],
                                                bids=_bid_text(book, s)))
        return "\n".join(lines)
    lines = [T.HOST_RESULTS_HEAD]
    for s in state.order:
        res = book.results[s]
        p = state.players[s]
        paid = T.HOST_PAID.format(how=T.HOW_TEXT[res.how], coins=res.coins) if res.how is not How.DRAW else T.HOW_TEXT["draw"]
        lines.append(T.HOST_RESULT_LINE.format(seat=s, name=res.name, paid=paid, alias=p.signup_alias, qq=p.user_id,
                                               bids=_bid_text(book, s), kind=T.KIND[p.camp]))
    return "\n".join(lines)


def _bidders(state: State, book: AuctionBook) -> int:
    return sum(1 for s in state.order if book.bids[s].first is not None or book.bids[s].second is not None)


# ---- what the other entry points show during the auction ----------------------------------


def refuse_other(name: str) -> None:
    if name in ("relay", "post"):
        raise Ignored()
    raise Rejected(T.AUCTION_ONLY_BIDS.format(usage=USAGE))


def private_info(state: State, cfg: Settings, seat: int) -> str:
    book = state.auction
    assert book is not None
    return T.AUCTION_INFO.format(bids=_bid_text(book, seat), balance=book.balances[seat],
                                 chars=char_list(cfg), usage=USAGE)


def status(state: State, cfg: Settings) -> str:
    book = state.auction
    assert book is not None
    return T.AUCTION_STATUS.format(bidders=_bidders(state, book), n=len(state.order), chars=char_list(cfg))
