"""【游戏流程】<3、竞拍马甲>: the auction of the script's characters (马甲), the first phase
after /开始 when the host loaded a character list (``characters``).

Bids are private (/竞拍 第一志愿=角色:硬币 第二志愿=角色:硬币 随机号码=1–999) and may change
until the close. At the close: random numbers -> guard or prisoner (as without an auction),
then each character goes to the highest first-choice bid (ties: the earlier bid), then the
second choices, then the rest are drawn; a character tied to a camp only goes to that camp.
The character won becomes the player's alias (马甲) for the game (kernel ``Rename``)."""

from __future__ import annotations

import re
from typing import Any

from plugins.gamekit.contract import Ctx, Ignored, Rejected, Rename, Say, Seat

from . import common as c
from . import model as m
from . import rules_setup
from . import texts as T

CHOICES = T.CHOICES
USAGE = T.BID_USAGE
CHOICE_RE = re.compile(T.CHOICE_RE)


# ---- opening ---------------------------------------------------------------------------


def open_auction(roster: list[Seat], cfg: m.Settings, ctx: Ctx) -> tuple[m.JSON, list[Any]]:
    """/开始 with a character list: the auction phase; identities are dealt at its close."""
    chars = cfg["characters"]
    state: m.JSON = {
        "phase": "auction", "day": 0, "order": [], "players": {}, "nights": [], "result": None,
        "auction": {"bids": {}, "balances": {}, "results": {}},
    }
    fx: list[Any] = []
    notes: dict[int, str] = {}
    for s in sorted(roster, key=lambda x: x.seat):
        seat = s.seat
        state["order"].append(seat)
        state["players"][str(seat)] = {"seat": seat, "alias": s.alias, "user_id": s.user_id, "profile": dict(s.profile)}
        bal = int(cfg["auction"].get("balances", {}).get(str(seat), cfg["auction"]["coins"]))
        state["auction"]["balances"][str(seat)] = bal
        bid: dict[str, Any] = {"first": None, "second": None, "number": s.profile.get("number")}
        # sign-up fields (/资料 第一志愿=角色:硬币) are the opening bids when they are valid ones
        skipped: list[str] = []
        for key, label in CHOICES:
            raw = s.profile.get(key)
            if not raw:
                continue
            try:
                bid[key] = {**_parse_choice(cfg, label, str(raw)), "seq": ctx.seq}
                _check_bid(state, cfg, seat, bid)
            except Rejected as exc:
                bid[key] = None
                skipped.append(T.SIGNUP_NOT_BID.format(label=label, raw=raw, why=exc))
        state["auction"]["bids"][str(seat)] = bid
        if any(bid[k] for k, _ in CHOICES) or skipped:
            notes[seat] = "\n".join(([T.SIGNUP_BIDS.format(bids=_bid_text(state, seat))] if any(bid[k] for k, _ in CHOICES) else [])
                                    + skipped)
    ends = c.enter(state, "auction", ctx, fx)
    when = T.BY_HOST if ends is None else c.hhmm(ends, ctx)
    fx.append(Say("group", T.AUCTION_OPEN.format(
        chars=char_list(cfg), usage=USAGE, when=when,
        limit=T.LIMIT_SUM if cfg["auction"]["limit"] == "sum" else T.LIMIT_EACH)))
    for seat in state["order"]:
        head = T.AUCTION_COINS.format(coins=state["auction"]["balances"][str(seat)], when=when)
        tail = notes.get(seat) or T.AUCTION_HOW_TO.format(usage=USAGE)
        fx.append(Say(seat, head + "\n" + tail))
    fx.append(Say("hosts", T.AUCTION_TO_HOSTS.format(chars=len(chars), n=len(roster),
                                                     close=T.CLOSE_AUTO if ends else T.CLOSE_BY_HOST)))
    return state, fx


def char_list(cfg: m.Settings) -> str:
    return T.SEP.join(f"{ch['name']}" + ("" if ch["camp"] == "any" else T.CHAR_ONLY.format(camp=T.CAMP_TEXT[ch["camp"]]))
                      for ch in cfg["characters"])


# ---- bidding ---------------------------------------------------------------------------


def _find(cfg: m.Settings, name: str) -> str:
    for ch in cfg["characters"]:
        if ch["name"].casefold() == name.casefold():
            return str(ch["name"])
    raise Rejected(T.NO_SUCH_CHAR.format(name=name, chars=T.SEP.join(ch["name"] for ch in cfg["characters"])))


def _parse_choice(cfg: m.Settings, label: str, value: str) -> dict[str, Any]:
    found = CHOICE_RE.match(value.strip())
    if not found or not found.group(1).strip() or re.search(T.COLON_RE, found.group(1)):
        raise Rejected(T.CHOICE_FORMAT.format(label=label))
    return {"name": _find(cfg, found.group(1).strip()), "coins": int(found.group(2) or 0)}


def _check_bid(state: m.JSON, cfg: m.Settings, seat: int, bid: dict[str, Any]) -> None:
    bal = state["auction"]["balances"][str(seat)]
    first, second = bid["first"], bid["second"]
    if first and second and first["name"] == second["name"]:
        raise Rejected(T.SAME_CHOICE.format(name=first["name"]))
    for key, label in CHOICES:
        if bid[key] and bid[key]["coins"] > bal:
            raise Rejected(T.OVER_BALANCE.format(label=label, coins=bid[key]["coins"], balance=bal))
    if cfg["auction"]["limit"] == "sum" and first and second and first["coins"] + second["coins"] > bal:
        raise Rejected(T.OVER_BALANCE_SUM.format(coins=first["coins"] + second["coins"], balance=bal))


def _bid_text(state: m.JSON, seat: int) -> str:
    bid = state["auction"]["bids"][str(seat)]
    parts = []
    for key, label in CHOICES:
        ch = bid[key]
        parts.append(T.BID_CHOICE.format(label=label, name=ch["name"], coins=ch["coins"]) if ch else T.BID_EMPTY.format(label=label))
    parts.append(T.BID_NUMBER.format(number=bid["number"]) if bid["number"] is not None else T.BID_NO_NUMBER)
    return T.COMMA.join(parts)


def bid(state: m.JSON, actor: Any, text: str, ctx: Ctx) -> list[Any]:
    """/竞拍 — private; changes only what it names; refused whole if any part is wrong.
    A host (not playing) gets the table of bids instead."""
    if actor.is_host and (actor.seat is None or str(actor.seat) not in state["players"]):
        if "auction" not in state:
            raise Rejected(T.NO_AUCTION_HOST)
        if not actor.private:
            raise Rejected(T.BIDS_SECRET)
        return [Say("reply", host_table(state))]
    seat = c.member(state, actor)
    if state["phase"] != "auction":
        if "auction" in state:
            raise Rejected(T.AUCTION_OVER.format(alias=m.player(state, seat)["alias"]))
        raise Rejected(T.NO_AUCTION)
    if not actor.private:
        raise Rejected(T.BID_PRIVATE.format(usage=USAGE))
    old = state["auction"]["bids"][str(seat)]
    new = {k: (dict(v) if isinstance(v, dict) else v) for k, v in old.items()}
    tokens = [tok for tok in re.split(T.LIST_SPLIT_RE, (text or "").strip()) if tok]
    for tok in tokens:
        label, sep, value = tok.replace(T.EQUALS_FULL, "=").partition("=")
        key = T.BID_LABELS.get(label)
        if not sep or key is None or not value:
            raise Rejected(T.BID_UNREADABLE.format(token=tok, usage=USAGE))
        if key == "number":
            if not value.isdigit() or not 1 <= int(value) <= 999:
                raise Rejected(T.NUMBER_RANGE)
            new["number"] = int(value)
        elif value == T.BID_NONE:
            new[key] = None
        else:
            choice = _parse_choice(ctx.settings, label, value)
            same = old[key] and old[key]["name"] == choice["name"] and old[key]["coins"] == choice["coins"]
            new[key] = old[key] if same else {**choice, "seq": ctx.seq}  # the time of a choice: its last change
    _check_bid(state, ctx.settings, seat, new)
    state["auction"]["bids"][str(seat)] = new
    head = T.BID_RECORDED if tokens else T.BID_CURRENT
    bal = state["auction"]["balances"][str(seat)]
    return [Say("reply", T.BID_REPLY.format(head=head, seq=ctx.seq, bids=_bid_text(state, seat), balance=bal))]


# ---- the award -------------------------------------------------------------------------


def _fits(camp: str, kind: str) -> bool:
    return camp == "any" or camp == kind


def _feasible(free: list[dict[str, Any]], waiting: list[str]) -> bool:
    """Can every waiting player (their camps) still get a fitting free character? (Hall's
    condition for two camps and "any" characters.)"""
    g, p = waiting.count("guard"), waiting.count("prisoner")
    cg = sum(1 for ch in free if ch["camp"] == "guard")
    cp = sum(1 for ch in free if ch["camp"] == "prisoner")
    ca = sum(1 for ch in free if ch["camp"] == "any")
    return g <= cg + ca and p <= cp + ca and g + p <= cg + cp + ca


def award(order: list[int], kinds: dict[int, str], chars: list[dict[str, Any]],
          bids: dict[int, dict[str, Any]], rng: Any) -> dict[int, dict[str, Any]]:
    """seat -> {name, how (first|second|draw), coins, lost: {choice: why}}.

    Round 1 then round 2: bids sorted by coins (high first), then arrival (early first); equal
    coins at the same arrival (opening bids from the sign-up fields) are put in a drawn order.
    A bid wins if its character is free, fits the bidder's camp and still leaves every other
    player a fitting character. The players left draw, in seat order, among the fitting free
    characters (script order) that keep that true."""
    free = [dict(ch) for ch in chars]
    out: dict[int, dict[str, Any]] = {}
    lost: dict[int, dict[str, str]] = {s: {} for s in order}

    def waiting(without: int) -> list[str]:
        return [kinds[s] for s in order if s not in out and s != without]

    for key in ("first", "second"):
        cands = [(s, bids[s][key]) for s in order if s not in out and bids.get(s, {}).get(key)]
        cands.sort(key=lambda x: (-x[1]["coins"], x[1]["seq"], x[0]))
        i = 0
        while i < len(cands):  # shuffle runs of equal (coins, arrival)
            j = i
            while j < len(cands) and (cands[j][1]["coins"], cands[j][1]["seq"]) == (cands[i][1]["coins"], cands[i][1]["seq"]):
                j += 1
            if j - i > 1:
                run = cands[i:j]
                rng.shuffle(run)
                cands[i:j] = run
            i = j
        for s, choice in cands:
            ch = next((x for x in free if x["name"] == choice["name"]), None)
            if ch is None:
                lost[s][key] = "taken"
            elif not _fits(ch["camp"], kinds[s]):
                lost[s][key] = "camp"
            elif not _feasible([x for x in free if x is not ch], waiting(s)):
                lost[s][key] = "short"
            else:
                free.remove(ch)
                out[s] = {"name": ch["name"], "how": key, "coins": int(choice["coins"])}
    for s in order:
        if s in out:
            continue
        options = [ch for ch in free if _fits(ch["camp"], kinds[s])
                   and _feasible([x for x in free if x is not ch], waiting(s))]
        ch = rng.choice(options)
        free.remove(ch)
        out[s] = {"name": ch["name"], "how": "draw", "coins": 0}
    for s in order:
        out[s]["lost"] = lost[s]
    return out


# ---- closing ---------------------------------------------------------------------------

def _result_text(state: m.JSON, cfg: m.Settings, seat: int, res: dict[str, Any], bal: int) -> str:
    bid_ = state["auction"]["bids"][str(seat)]
    lines = []
    for key, label in CHOICES:
        why = res["lost"].get(key)
        if why:
            camp = next(ch["camp"] for ch in cfg["characters"] if ch["name"] == bid_[key]["name"])
            lines.append(T.LOST_CHOICE.format(label=label, name=bid_[key]["name"],
                                              why=T.LOST_WHY[why].format(camp=T.CAMP_TEXT[camp])))
    if res["how"] == "draw":
        lines.append(T.WON_DRAW.format(name=res["name"], balance=bal))
    else:
        lines.append(T.WON_BID.format(how=T.HOW_TEXT[res["how"]], coins=res["coins"], name=res["name"], balance=bal - res["coins"]))
    return T.AUCTION_RESULT.format(lines="".join(lines))


def close(state: m.JSON, ctx: Ctx) -> list[Any]:
    """The auction closes: deal camps and roles, award the characters, rename, begin."""
    a = state["auction"]
    host = ctx.settings.get("signup", {})
    roster: list[Seat] = []
    for seat in state["order"]:
        p = m.player(state, seat)
        profile = dict(p["profile"])
        b = a["bids"][str(seat)]
        if b["number"] is not None:
            profile["number"] = b["number"]
        for key, _ in CHOICES:
            profile[key] = f"{b[key]['name']}:{b[key]['coins']}" if b[key] else ""
        roster.append(Seat(seat, p["alias"], p["user_id"], profile))
    cfg = ctx.settings
    signup = rules_setup.signup_table(roster, host)
    dealt, numbers, draw_key = rules_setup.deal(roster, cfg, signup, ctx)
    kinds = {s: dealt[s][0] for s in state["order"]}
    bids = {s: a["bids"][str(s)] for s in state["order"]}
    won = award(state["order"], kinds, cfg["characters"], bids, ctx.rng)
    renamed = [Seat(s.seat, won[s.seat]["name"], s.user_id, s.profile) for s in roster]
    before = {s: _result_text(state, cfg, s, won[s], a["balances"][str(s)]) for s in state["order"]}
    new, fx = rules_setup.begin(renamed, signup, ctx, dealt, numbers, draw_key, before)
    results = {}
    for s in state["order"]:
        res = won[s]
        results[str(s)] = {**res, "balance": a["balances"][str(s)] - res["coins"]}
        new["players"][str(s)]["signup_alias"] = m.player(state, s)["alias"]
    new["auction"] = {"bids": a["bids"], "balances": a["balances"], "results": results, "closed_seq": ctx.seq}
    head: list[Any] = [
        Rename(tuple((s, won[s]["name"]) for s in state["order"])),
        Say("group", T.AUCTION_CLOSED),
    ]
    state.clear()
    state.update(new)
    return head + [Say("hosts", host_table(state))] + fx


def host_table(state: m.JSON) -> str:
    """For hosts only: every bid, and after the close how each character went (with QQ)."""
    a = state["auction"]
    if state["phase"] == "auction":
        lines = [T.HOST_BIDS_HEAD.format(bidders=_bidders(state), n=len(state["order"]))]
        for s in state["order"]:
            p = m.player(state, s)
            lines.append(T.HOST_BID_LINE.format(seat=s, alias=p["alias"], qq=p["user_id"], balance=a["balances"][str(s)],
                                                bids=_bid_text(state, s)))
        return "\n".join(lines)
    lines = [T.HOST_RESULTS_HEAD]
    for s in state["order"]:
        res = a["results"][str(s)]
        p = m.player(state, s)
        paid = T.HOST_PAID.format(how=T.HOW_TEXT[res["how"]], coins=res["coins"]) if res["how"] != "draw" else T.HOW_TEXT["draw"]
        lines.append(T.HOST_RESULT_LINE.format(seat=s, name=res["name"], paid=paid, alias=p["signup_alias"], qq=p["user_id"],
                                               bids=_bid_text(state, s), kind=T.KIND[p["kind"]]))
    return "\n".join(lines)


def _bidders(state: m.JSON) -> int:
    return sum(1 for s in state["order"] if any(state["auction"]["bids"][str(s)][k] for k, _ in CHOICES))


# ---- what the other entry points show during the auction ----------------------------------


def refuse_other(name: str) -> None:
    if name in ("relay", "post", "room.line"):
        raise Ignored()
    raise Rejected(T.AUCTION_ONLY_BIDS.format(usage=USAGE))


def private_info(state: m.JSON, cfg: m.Settings, seat: int) -> str:
    return T.AUCTION_INFO.format(bids=_bid_text(state, seat), balance=state["auction"]["balances"][str(seat)],
                                 chars=char_list(cfg), usage=USAGE)


def status(state: m.JSON, cfg: m.Settings) -> str:
    return T.AUCTION_STATUS.format(bidders=_bidders(state), n=len(state["order"]), chars=char_list(cfg))
