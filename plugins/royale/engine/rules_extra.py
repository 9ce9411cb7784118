"""Commands beside the night actions: /事件 (host), 测试赛 (/申请, /发放), /领取,
/地图, and the count of group posts for the automatic speech cards.

Each is ``fn(state, actor, args, ctx, cfg) -> effects`` on a copied state; a
refusal raises Rejected before any change.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from plugins.gamekit.contract import Actor, Ctx, Effect, Ignored, Picture, Rejected, Say

from . import events as EV
from . import texts as T
from .content import GRADES, catalog
from .model import State, is_test, new_item, player

Cfg = dict[str, Any]
Handler = Callable[[State, Actor, dict[str, Any], Ctx, Cfg], list[Effect]]


def _log(state: State, actor: Actor, what: str) -> None:
    state["host_log"].append({"day": state["day"], "by": actor.user_id, "what": what})


def _live(state: State) -> None:
    if state["phase"] == "over":
        raise Rejected(T.OVER)


# ---- /事件 ------------------------------------------------------------------------

def event_cmd(state: State, actor: Actor, args: dict[str, Any], ctx: Ctx, cfg: Cfg) -> list[Effect]:
    """/事件 [<事件> | 禁止 <事件> | 随机]: force or forbid tomorrow's event."""
    _live(state)
    text = (args.get("text") or "").strip()
    names = T.joined(e["name"] for e in EV.defs(cfg))
    plan = state["event_plan"]
    tomorrow = state["day"] + 1
    if not text:
        today = T.joined(_name(cfg, e["key"]) for e in state["today"]) or T.NONE
        return [Say("reply", T.EVENT_SHOW.format(today=today, plan=_plan_text(cfg, plan), names=names))]
    words = text.split(maxsplit=1)
    if words[0] in T.EVENT_RANDOM_WORDS:
        state["event_plan"] = {"force": None, "forbid": []}
        _log(state, actor, T.LOG_EVENT_RANDOM)
        return [Say("hosts", T.EVENT_RANDOM.format(day=tomorrow))]
    forbid = words[0] == T.EVENT_FORBID_WORD
    target = words[1] if forbid and len(words) > 1 else ("" if forbid else text)
    e = EV.find_event(cfg, target)
    if e is None:
        raise Rejected(T.EVENT_UNKNOWN.format(text=target or T.EMPTY, names=names))
    if forbid:
        if e["key"] not in plan["forbid"]:
            plan["forbid"].append(e["key"])
        if plan["force"] == e["key"]:
            plan["force"] = None
        _log(state, actor, T.LOG_EVENT_FORBID.format(day=tomorrow, name=e["name"]))
        return [Say("hosts", T.EVENT_FORBID.format(day=tomorrow, name=e["name"], plan=_plan_text(cfg, plan)))]
    why = EV.eligible(state, cfg, tomorrow, e["key"])
    if why:
        raise Rejected(T.EVENT_CANNOT.format(why=why))
    plan["force"] = e["key"]
    plan["forbid"] = [k for k in plan["forbid"] if k != e["key"]]
    _log(state, actor, T.LOG_EVENT_FORCE.format(day=tomorrow, name=e["name"]))
    return [Say("hosts", T.EVENT_FORCED.format(day=tomorrow, name=e["name"]))]


def _name(cfg: Cfg, key: str) -> str:
    """An event's name (its key if the settings no longer list it)."""
    return str((EV.event_def(cfg, key) or {"name": key})["name"])


def _plan_text(cfg: Cfg, plan: dict[str, Any]) -> str:
    force = _name(cfg, plan["force"]) if plan.get("force") else None
    return T.plan_text(force, [_name(cfg, k) for k in plan.get("forbid") or []])


# ---- 测试赛 ------------------------------------------------------------------------

def _item_name(cfg: Cfg, text: str) -> str:
    """A full item name, or a grade word such as 绿色武器 / 蓝色防具 (a random one of that grade)."""
    name = (text or "").strip()
    cat = catalog(cfg)
    if name in cat.items:
        return name
    labels = cfg["grades"]["labels"]
    for grade in GRADES:
        if name in (labels.get(grade, grade) + T.GEAR_WORD["weapon"], labels.get(grade, grade) + T.GEAR_WORD["armour"]):
            return name
    others = T.joined(o["name"] for o in cfg["others"])
    raise Rejected(T.TEST_UNKNOWN_ITEM.format(text=name or T.EMPTY, others=others))


def _make(state: State, cfg: Cfg, name: str, rng: Any) -> dict[str, Any]:
    cat = catalog(cfg)
    labels = cfg["grades"]["labels"]
    for grade in GRADES:
        for kind, word in T.GEAR_WORD.items():
            if name == labels.get(grade, grade) + word:
                return new_item(state, cat, rng.choice(cat.names(kind, grade)))
    return new_item(state, cat, name)


def request(state: State, actor: Actor, args: dict[str, Any], ctx: Ctx, cfg: Cfg) -> list[Effect]:
    """/申请 <物品>: a player of a test game asks the host for supplies."""
    if not is_test(cfg):
        raise Rejected(T.NOT_TEST)
    _live(state)
    if actor.seat is None or str(actor.seat) not in state["players"]:
        raise Rejected(T.NOT_PLAYER)
    name = _item_name(cfg, args.get("item", ""))
    p = player(state, actor.seat)
    _log(state, actor, T.LOG_REQUEST.format(seat=p["seat"], alias=p["alias"], name=name))
    return [Say("reply", T.REQUEST_SENT.format(name=name)),
            Say("hosts", T.REQUEST_TO_HOST.format(seat=p["seat"], alias=p["alias"], name=name,
                                                  state=T.REQUEST_ALIVE if p["alive"] else T.REQUEST_OUT))]


def grant(state: State, actor: Actor, args: dict[str, Any], ctx: Ctx, cfg: Cfg) -> list[Effect]:
    """/发放 <玩家> <物品>: the host of a test game puts an item straight into a bag."""
    if not is_test(cfg):
        raise Rejected(T.NOT_TEST)
    _live(state)
    seat = args.get("player")
    if not isinstance(seat, int) or str(seat) not in state["players"]:
        raise Rejected(T.NO_SUCH_SEAT.format(seat=seat))
    p = player(state, seat)
    if not p["alive"]:
        raise Rejected(T.GRANT_DEAD.format(alias=p["alias"]))
    name = _item_name(cfg, args.get("item", ""))
    cap = cfg["rules"]["bag_size"]
    if len(p["items"]) >= cap:
        raise Rejected(T.GRANT_FULL.format(alias=p["alias"], n=cap))
    item = _make(state, cfg, name, ctx.rng)
    p["items"].append(item)
    _log(state, actor, T.LOG_GRANT.format(name=item["name"], seat=p["seat"], alias=p["alias"]))
    return [Say("reply", T.GRANTED.format(alias=p["alias"], name=item["name"])),
            Say(p["seat"], T.GRANTED_YOU.format(name=item["name"]))]


# ---- players -----------------------------------------------------------------------

def claim_cmd(state: State, actor: Actor, args: dict[str, Any], ctx: Ctx, cfg: Cfg) -> list[Effect]:
    _live(state)
    if actor.seat is None or str(actor.seat) not in state["players"]:
        raise Rejected(T.NOT_PLAYER)
    p = player(state, actor.seat)
    if not p["alive"]:
        raise Rejected(T.DEAD)
    return [Say("reply", EV.claim(state, cfg, p, args.get("text", "")))]


def map_cmd(state: State, actor: Actor, args: dict[str, Any], ctx: Ctx, cfg: Cfg) -> list[Effect]:
    return [Picture("reply", "map", T.MAP_AGAIN.format(day=state["day"]))]


def speak(state: State, actor: Actor, args: dict[str, Any], ctx: Ctx, cfg: Cfg) -> list[Effect]:
    """A plain message in the game group: counts toward 白天发言 (the daily post quota)."""
    if not cfg["rules"]["speech_cards"] or state["phase"] != "day" or actor.seat is None:
        raise Ignored()
    key = str(actor.seat)
    if key not in state["players"] or not state["players"][key]["alive"]:
        raise Ignored()
    if state["posts"].get(key, 0) >= cfg["rules"]["min_posts"]:
        raise Ignored()  # quota met: nothing to record
    state["posts"][key] = state["posts"].get(key, 0) + 1
    return []


HOST_COMMANDS: dict[str, Handler] = {"event": event_cmd, "grant": grant}
PLAYER_COMMANDS: dict[str, Handler] = {"request": request, "claim": claim_cmd, "map": map_cmd, "speak": speak}
