"""Dealing, the secret room mapping, love/hate (【身份与胜利条件】（二）1)."""

from __future__ import annotations

from typing import Any

from plugins.gamekit.contract import Ctx, Rejected, Say, Seat

from . import common as c
from . import model as m
from . import texts as T


def deal(roster: list[Seat], cfg: m.Settings, signup: dict[str, Any], ctx: Ctx,
         ) -> tuple[dict[int, tuple[str, str]], dict[int, int], int]:
    """seat -> (kind, role id), the random numbers used, and the draw key. ``signup``: the
    players' sign-up fields (:func:`signup_table`).

    Guard/prisoner follows the players' random numbers (【游戏流程】<3、竞拍马甲>): a key K in
    1..999 is drawn with ctx.rng; players are ordered by (number - K) mod 999, then seat; the
    first len(guards) become guards. Missing numbers are drawn with ctx.rng. Roles are then
    shuffled within each camp. A host's explicit ``deal`` table overrides all of this.
    """
    guards = [r["id"] for r in cfg["guards"]]
    prisoners = [r["id"] for r in cfg["prisoners"]]
    seat_list = sorted(s.seat for s in roster)
    numbers: dict[int, int] = {}
    for s in seat_list:
        num = signup.get(str(s), {}).get("number")
        numbers[s] = int(num) if num is not None else ctx.rng.randint(1, 999)
    fixed = cfg.get("deal", {})
    if fixed:
        if sorted(int(k) for k in fixed) != seat_list or sorted(fixed.values()) != sorted(guards + prisoners):
            raise Rejected(T.DEAL_INCOMPLETE)
        return ({s: ("guard" if fixed[str(s)] in guards else "prisoner", fixed[str(s)]) for s in seat_list},
                numbers, 0)
    key = ctx.rng.randint(1, 999)
    order = sorted(seat_list, key=lambda s: ((numbers[s] - key) % 999, s))
    ctx.rng.shuffle(guards)
    ctx.rng.shuffle(prisoners)
    out: dict[int, tuple[str, str]] = {}
    for s, rid in zip(order[: len(guards)], guards):
        out[s] = ("guard", rid)
    for s, rid in zip(order[len(guards):], prisoners):
        out[s] = ("prisoner", rid)
    return out, numbers, key


def signup_table(roster: list[Seat], host: dict[str, Any]) -> dict[str, Any]:
    """Players' own sign-up fields (the kernel's /资料) under a host's ``signup`` table entries."""
    return {str(s.seat): {**s.profile, **host.get(str(s.seat), {})} for s in roster if s.profile or str(s.seat) in host}


def start(roster: list[Seat], ctx: Ctx) -> tuple[m.JSON, list[Any]]:
    cfg = ctx.settings
    need = len(cfg["guards"]) + len(cfg["prisoners"])
    if len(roster) != need:
        raise Rejected(T.WRONG_COUNT.format(need=need, n=len(roster)))
    if cfg.get("characters"):
        from . import rules_auction

        return rules_auction.open_auction(roster, cfg, ctx)
    signup = signup_table(roster, cfg.get("signup", {}))
    dealt, numbers, key = deal(roster, cfg, signup, ctx)
    return begin(roster, signup, ctx, dealt, numbers, key)


def begin(roster: list[Seat], signup: dict[str, Any], ctx: Ctx, dealt: dict[int, tuple[str, str]],
          numbers: dict[int, int], key: int, before: dict[int, str] | None = None) -> tuple[m.JSON, list[Any]]:
    """The game proper: identities dealt, the secret room mapping drawn, love/hate opens.
    ``signup``: the players' sign-up fields, kept in the state (the export and （二）6 read them).
    ``before``: text put at the head of a player's identity message (the auction result)."""
    cfg = ctx.settings
    n_rooms = max(len(cfg["guards"]), len(cfg["prisoners"]))
    lower, upper = m.room_letters(n_rooms)
    perm = list(upper)
    ctx.rng.shuffle(perm)
    state: m.JSON = {
        "phase": "prep", "day": 0, "players": {}, "order": [],
        "mapping": dict(zip(lower, perm)), "draw_key": key, "chief": None, "leader": None,
        "uprising_used": False, "elect": {}, "votes": {}, "uprising": None, "picks": [],
        "pending": {}, "rooms": {}, "nights": [], "tonight": {"point_kill": None, "spare": False},
        "log": [], "subs": {"map": [], "alias": []}, "notes": [], "result": None, "signup": signup,
    }
    for s in sorted(roster, key=lambda x: x.seat):
        kind, rid = dealt[s.seat]
        state["order"].append(s.seat)
        state["players"][str(s.seat)] = {
            "seat": s.seat, "alias": s.alias, "user_id": s.user_id, "kind": kind, "role": rid,
            "status": "alive", "out_day": None, "reason": "", "number": numbers[s.seat],
            "love": None, "hate": None, "posts": {}, "uses": {}, "used_phase": {},
        }
    fx: list[Any] = []
    ends = c.enter(state, "prep", ctx, fx)
    fx.append(Say("group", T.BEGIN_POST.format(
        head=T.BEGIN_AFTER_AUCTION if before else T.BEGIN, guards=m.names(state, m.living(state, "guard")),
        prisoners=m.names(state, m.living(state, "prisoner")),
        until=T.BEGIN_UNTIL_HOST if ends is None else T.BEGIN_UNTIL.format(time=c.hhmm(ends, ctx)),
    )))
    for s in state["order"]:
        head = (before or {}).get(s, "")
        fx.append(Say(s, head + T.identity(state, cfg, s) + T.IDENTITY_TAIL))
    pairs = " ".join(f"{g}-{p}" for g, p in state["mapping"].items())
    fx.append(Say("hosts", T.SECRET_MAP.format(pairs=pairs)))
    return state, fx


def choose(state: m.JSON, actor: Any, seat_arg: Any, kind: str) -> list[Any]:
    """/爱 or /恨 — （二）1: one player, not oneself, before play starts."""
    me = c.me(state, actor)
    if state["phase"] != "prep":
        raise Rejected(T.LOVE_TOO_LATE)
    who = c.target(state, seat_arg)
    if who == me:
        raise Rejected(T.NOT_SELF)
    p = m.player(state, me)
    p["love"] = who if kind == "love" else None
    p["hate"] = who if kind == "hate" else None
    return [Say("reply", T.LOVE_RECORDED.format(verb=T.LOVE_VERB[kind], name=m.name(state, who)))]


def prep_over(state: m.JSON, ctx: Ctx) -> list[Any]:
    fx: list[Any] = []
    silent = [s for s in state["order"] if m.player(state, s)["love"] is None and m.player(state, s)["hate"] is None]
    if silent:
        fx.append(Say("hosts", T.SILENT_LOVE.format(names=m.names(state, silent))))
    state["day"] = 1
    ends = c.enter(state, "day", ctx, fx)
    fx.append(Say("group", T.DAY1_OPEN.format(time=c.hhmm(ends, ctx)) + _posts_hint(ctx.settings)))
    return fx


def _posts_hint(cfg: m.Settings) -> str:
    n = cfg["min_posts"]
    return T.POSTS_HINT.format(n=n) if n else ""
