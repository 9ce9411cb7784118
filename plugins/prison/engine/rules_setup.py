"""Dealing, the secret room mapping, love/hate (【身份与胜利条件】（二）1)."""

from __future__ import annotations

from typing import Any

from plugins.kernel.contract import Ctx, Rejected, Say, Seat

from . import common as c
from . import model as m
from . import texts as t


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
            raise Rejected("deal 表必须给每个座位各发一个身份，且用完全部身份。")
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
        raise Rejected(f"本局身份文件需要 {need} 人，现在报名 {len(roster)} 人；请调整人数或身份文件。")
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
    fx.append(Say("group", (
        f"{'身份已发出' if before else '囚犯游戏开始'}！\n看守：{m.names(state, m.living(state, 'guard'))}\n"
        f"囚犯：{m.names(state, m.living(state, 'prisoner'))}\n"
        f"请{'在导演推进' if ends is None else f'在 {c.hhmm(ends, ctx)} '}前私聊我 /爱 <玩家> 或 /恨 <玩家>（二选一，不能选自己）。"
    )))
    for s in state["order"]:
        head = (before or {}).get(s, "")
        fx.append(Say(s, head + t.identity(state, cfg, s) + "\n用 /我的身份 可再次查看。"))
    pairs = " ".join(f"{g}-{p}" for g, p in state["mapping"].items())
    fx.append(Say("hosts", f"本局房间对应（保密）：{pairs}"))
    return state, fx


def choose(state: m.JSON, actor: Any, seat_arg: Any, kind: str) -> list[Any]:
    """/爱 or /恨 — （二）1: one player, not oneself, before play starts."""
    me = c.me(state, actor)
    if state["phase"] != "prep":
        raise Rejected("爱/恨只能在开局前选择，现在已不能更改。")
    who = c.target(state, seat_arg)
    if who == me:
        raise Rejected("不能选择自己，请换一名玩家。")
    p = m.player(state, me)
    p["love"] = who if kind == "love" else None
    p["hate"] = who if kind == "hate" else None
    verb = "爱" if kind == "love" else "恨"
    return [Say("reply", f"已记录：你{verb} {m.name(state, who)}。开局前可以改选。")]


def prep_over(state: m.JSON, ctx: Ctx) -> list[Any]:
    fx: list[Any] = []
    silent = [s for s in state["order"] if m.player(state, s)["love"] is None and m.player(state, s)["hate"] is None]
    if silent:
        fx.append(Say("hosts", f"开局前没有选择爱/恨的玩家：{m.names(state, silent)}（不计（二）1 的积分）。"))
    state["day"] = 1
    ends = c.enter(state, "day", ctx, fx)
    fx.append(Say("group", (
        f"第1天开始。看守私聊我 /投票 <看守> 选看守长，囚犯私聊我 /投票 <囚犯> 选囚犯领袖，"
        f"{c.hhmm(ends, ctx)} 截止。" + _posts_hint(ctx.settings)
    )))
    return fx


def _posts_hint(cfg: m.Settings) -> str:
    n = cfg["min_posts"]
    return f"讨论日每人至少发言 {n} 条。" if n else ""
