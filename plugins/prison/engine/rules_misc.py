"""Generic abilities and the host's settlement, submissions (（二）4、6), 树洞, post counts,
and the kernel's out/back commands."""

from __future__ import annotations

import re
from typing import Any

from plugins.gamekit.contract import Ctx, Eliminate, Ignored, Rejected, Restore, Say

from . import common as c
from . import model as m
from . import rules_end
from . import texts as T

MAP_TOKEN = re.compile(T.MAP_PAIR_RE)
PHASES_FOR = {"day": ("day",), "night": ("rooms", "night"), "any": ("day", "verdict", "rooms", "night")}


def use_generic(state: m.JSON, actor: Any, ability_name: str, text: str, ctx: Ctx) -> list[Any]:
    me = c.me(state, actor)
    ab = m.ability(state, ctx.settings, me, "generic", ability_name)
    if ab is None:
        mine = [a["name"] for a in m.abilities(state, ctx.settings, me) if a["kind"] == "generic"]
        raise Rejected(T.NO_SUCH_ABILITY.format(name=ability_name)
                       + (T.YOUR_ABILITIES.format(names=T.SEP.join(mine)) if mine else ""))
    when = ab.get("when", "any")
    if state["phase"] not in PHASES_FOR[when]:
        raise Rejected(T.ABILITY_ONLY_WHEN.format(name=ability_name, when=T.ABILITY_WHEN[when]))
    c.need_uses(state, me, ab, T.QUOTED.format(name=ability_name))
    c.spend(state, me, ab)
    entry = c.log_use(state, ctx, me, ability_name, text or "", None)
    return [
        Say("hosts", T.ABILITY_TO_HOSTS.format(id=entry["id"], who=m.name(state, me), role=m.role(state, ctx.settings, me)["name"],
                                               name=ability_name, text=text or T.NO_CONTENT)),
        Say("reply", T.ABILITY_SENT.format(name=ability_name, id=entry["id"])),
    ]


def settle(state: m.JSON, actor: Any, use_id: Any, text: str, ctx: Ctx) -> list[Any]:
    if not actor.is_host:
        raise Rejected(T.HOST_ONLY_SETTLE)
    if not isinstance(use_id, int) or not 1 <= use_id <= len(state["log"]):
        raise Rejected(T.NO_SUCH_USE)
    entry = state["log"][use_id - 1]
    if entry["result"] is not None:
        raise Rejected(T.ALREADY_SETTLED.format(id=use_id, result=entry["result"]))
    if not text.strip():
        raise Rejected(T.SETTLE_WHAT)
    entry["result"] = text.strip()
    entry["settled_seq"] = ctx.seq
    return [
        Say(entry["seat"], T.SETTLED_TO_PLAYER.format(ability=entry["ability"], id=use_id, result=entry["result"])),
        Say("reply", T.SETTLED.format(id=use_id)),
    ]


def _limit(state: m.JSON, cfg: m.Settings, kind: str, seat: int) -> None:
    """``max_submissions`` per kind and player; 0 (default) = no limit (the seed sets none)."""
    n = sum(1 for s in state["subs"][kind] if s["seat"] == seat)
    cap = cfg["max_submissions"]
    if cap and n >= cap:
        raise Rejected(T.SUBMIT_LIMIT.format(n=n))


def submit_map(state: m.JSON, actor: Any, text: str, ctx: Ctx) -> list[Any]:
    """（二）4: /提交对应 a-E b-C …, timestamped by arrival number."""
    me = c.member(state, actor)
    if state["phase"] == "over":
        raise Rejected(T.SUBMIT_OVER)
    lower = list(state["mapping"].keys())
    upper = sorted(state["mapping"].values())
    pairs: dict[str, str] = {}
    for g, p in MAP_TOKEN.findall(text or ""):
        g, p = g.lower(), p.upper()
        if g not in lower or p not in upper:
            raise Rejected(T.NO_SUCH_ROOM_PAIR.format(g=g, p=p, lower="".join(lower), upper="".join(upper)))
        if g in pairs or p in pairs.values():
            raise Rejected(T.ROOM_TWICE.format(g=g, p=p))
        pairs[g] = p
    if len(pairs) != len(lower):
        raise Rejected(T.MAP_INCOMPLETE.format(n=len(lower), example=" ".join(f"{g}-{p}" for g, p in zip(lower, upper))))
    _limit(state, ctx.settings, "map", me)
    state["subs"]["map"].append({"seq": ctx.seq, "at": ctx.now.isoformat(), "seat": me, "pairs": dict(sorted(pairs.items()))})
    shown = " ".join(f"{g}-{p}" for g, p in sorted(pairs.items()))
    return [
        Say("hosts", T.MAP_TO_HOSTS.format(who=m.name(state, me), seq=ctx.seq, pairs=shown)),
        Say("reply", T.MAP_RECEIVED.format(seq=ctx.seq)),
    ]


def submit_alias(state: m.JSON, actor: Any, text: str, ctx: Ctx) -> list[Any]:
    """（二）6: /提交马甲 马甲=玩家 …, one entry per line or separated by spaces."""
    me = c.member(state, actor)
    if state["phase"] == "over":
        raise Rejected(T.SUBMIT_OVER)
    aliases = [m.player(state, s)["alias"] for s in state["order"]]
    pairs: dict[str, str] = {}
    for token in re.split(T.LIST_SPLIT_RE, text or ""):
        if not token:
            continue
        parts = re.split(T.ALIAS_EQ_RE, token, maxsplit=1)
        if len(parts) != 2 or not parts[0] or not parts[1]:
            raise Rejected(T.ALIAS_FORMAT.format(token=token))
        if parts[0] not in aliases:
            raise Rejected(T.NO_SUCH_ALIAS.format(alias=parts[0]))
        pairs[parts[0]] = parts[1]
    if not pairs:
        raise Rejected(T.ALIAS_EXAMPLE)
    _limit(state, ctx.settings, "alias", me)
    state["subs"]["alias"].append({"seq": ctx.seq, "at": ctx.now.isoformat(), "seat": me, "pairs": pairs})
    return [
        Say("hosts", T.ALIAS_TO_HOSTS.format(who=m.name(state, me), seq=ctx.seq, n=len(pairs))),
        Say("reply", T.ALIAS_RECEIVED.format(n=len(pairs), seq=ctx.seq)),
    ]


def note(state: m.JSON, actor: Any, text: str, ctx: Ctx) -> list[Any]:
    c.member(state, actor)
    if state["phase"] == "over":
        raise Rejected(T.NOTES_OPEN)
    body = (text or "").strip()
    if not body:
        raise Rejected(T.NOTE_EMPTY)
    state["notes"].append({"seq": ctx.seq, "text": body})
    return [Say("reply", T.NOTE_KEPT)]


def post(state: m.JSON, actor: Any) -> list[Any]:
    """A group message from a player during a discussion day (（三）4 counts)."""
    if state["phase"] not in ("day", "verdict") or actor.seat is None or str(actor.seat) not in state["players"]:
        raise Ignored()
    p = m.player(state, actor.seat)
    if p["status"] != "alive":
        raise Ignored()
    day = str(state["day"])
    p["posts"][day] = p["posts"].get(day, 0) + 1
    return []


def kernel_out(state: m.JSON, args: dict[str, Any], ctx: Ctx) -> list[Any]:
    seat = c.target(state, args.get("seat"))
    p = m.player(state, seat)
    if p["status"] != "alive":
        raise Rejected(T.NOT_IN_PRISON.format(name=m.name(state, seat)))
    p.update(status="out", out_day=state["day"], reason=str(args.get("reason") or T.REASON_OUT))
    fx: list[Any] = [Eliminate(seat, p["reason"])]
    if state["phase"] != "over":
        end = rules_end.check(state, ctx)
        if end is not None:
            fx += end
    return fx


def kernel_back(state: m.JSON, args: dict[str, Any]) -> list[Any]:
    seat = c.target(state, args.get("seat"))
    p = m.player(state, seat)
    if p["status"] == "alive":
        raise Rejected(T.ALREADY_IN.format(name=m.name(state, seat)))
    if p["status"] == "released":
        raise Rejected(T.RELEASED_NO_BACK.format(name=m.name(state, seat)))
    p.update(status="alive", out_day=None, reason="")
    return [Restore(seat, str(args.get("reason") or T.REASON_BACK))]
