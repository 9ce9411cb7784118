"""Dealing roles, code names and 暗号 at /开始 (§四, §七.3, §十六)."""

from __future__ import annotations

from plugins.gamekit.contract import Ctx, Outcome, Rejected, Say, Seat

from . import texts as T
from .model import FACTION_NAME, Dealt, new_round, role, role_message
from .rules_round import schedule_round


def start(roster: list[Seat], ctx: Ctx) -> Outcome:
    cfg = ctx.settings  # checked: /创建 stores the checked defaults, /配置 checks again
    roles = cfg["roles"]
    fill = cfg["options"]["fill_role"]
    counts = {r["key"]: r["count"] for r in roles}
    if fill:
        others = sum(n for k, n in counts.items() if k != fill)
        counts[fill] = max(0, len(roster) - others)
    total = sum(counts.values())
    if len(roster) != total:
        raise Rejected(T.COUNT_MISMATCH.format(n_roster=len(roster), total=total))
    deck = [r["key"] for r in roles for _ in range(counts[r["key"]])]
    ctx.rng.shuffle(deck)
    ordered = sorted(roster, key=lambda s: s.seat)
    players = {}
    for entry, key in zip(ordered, deck):
        players[str(entry.seat)] = {
            "seat": entry.seat,
            "alias": entry.alias,
            "role": key,
            "code": "",
            "signal": None,
            "alive": True,
            "out": None,
            "report": None,
        }
    # code names: shuffled within each role so code order says nothing about seats
    by_role: dict[str, list[int]] = {r["key"]: [] for r in roles}
    for entry, key in zip(ordered, deck):
        by_role[key].append(entry.seat)  # in seat order
    for r in roles:
        members = by_role[r["key"]]
        ctx.rng.shuffle(members)
        for seat, code in zip(members, r["codes"]):
            players[str(seat)]["code"] = code
    carriers = cfg["options"]["signal_carriers"]
    signals: list[list[str]] = []
    if carriers:
        signals = [list(p) for p in cfg["signals"]] or [list(p) for p in ctx.rng.sample(cfg["signal_pool"], carriers)]
        du = sorted(s for s, p in players.items() if p["role"] == "du_sha")
        chosen = ctx.rng.sample(du, carriers)
        for carrier, pair in zip(sorted(chosen, key=int), signals):
            players[carrier]["signal"] = pair
    state = {
        "table": [dict(row, posts=dict(row["posts"])) for row in cfg["rounds"]],
        "tz": str(ctx.tz.key),
        "players": players,
        "round": 1,
        "step": "round",
        "rounds": {"1": new_round(1)},
        "posts": [],
        "drafts": {},
        "signals": signals,
        "winner": None,
        "ended_by": "",
    }
    effects: list = []
    dealt = Dealt.of(state, cfg)
    for seat in sorted(int(s) for s in players):
        effects.append(Say(seat, role_message(state, cfg, seat, dealt)))
    whites = sum(1 for p in players.values() if dealt.roles[p["role"]]["faction"] == "white")
    host_lines = [T.DEALT_HEAD.format(total=total, whites=whites, blacks=total - whites)]
    for seat in sorted(int(s) for s in players):
        p = players[str(seat)]
        r = dealt.roles[p["role"]]
        extra = T.DEALT_CODE.format(code=p["code"]) if p["code"] else ""
        extra += T.DEALT_SIGNAL.format(seek=p["signal"][0], reply=p["signal"][1]) if p["signal"] else ""
        host_lines.append(T.DEALT_LINE.format(seat=seat, alias=p["alias"], name=r["name"], faction_name=FACTION_NAME[r["faction"]], extra=extra))
    effects.append(Say("hosts", "\n".join(host_lines)))
    schedule_round(state, cfg, 1, ctx.now, effects, first=True)
    return Outcome(state, effects)


def signal(state, actor, text: str, ctx: Ctx) -> list:
    """/接头 <寻找暗号> (§五黑3, §七.3): a 暗号 holder (the three carriers and the
    孤杀) names another carrier's seek phrase; both are told privately."""
    cfg = ctx.settings
    from .model import name

    me = state["players"][str(actor.seat)]
    if not me["signal"] and not role(cfg, me["role"])["signals"]:
        raise Rejected(T.NO_SIGNAL)
    phrase = text.strip().strip(T.SIGNAL_QUOTES)
    owner = next((int(s) for s, p in sorted(state["players"].items(), key=lambda kv: int(kv[0]))
                  if p["signal"] and phrase in p["signal"]), None)
    if owner is None:
        raise Rejected(T.NO_SUCH_SIGNAL)
    if owner == actor.seat:
        raise Rejected(T.OWN_SIGNAL)
    seek, reply = state["players"][str(owner)]["signal"]
    who = role(cfg, me["role"])["name"]
    state.setdefault("contacts", []).append({"seq": ctx.seq, "from": actor.seat, "to": owner})
    alive = "" if state["players"][str(owner)]["alive"] else T.OUT_MARK
    return [
        Say("reply", T.SIGNAL_FOUND.format(seek=seek, reply=reply, owner=name(state, owner), alive=alive)),
        Say(owner, T.SIGNAL_FOUND_YOU.format(seat=name(state, actor.seat), who=who, seek=seek, reply=reply)),
    ]
