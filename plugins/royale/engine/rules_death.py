"""Deaths, loot, the end of the game and the final ranking (rules: 出局, 步骤)."""

from __future__ import annotations

import random
from typing import Any

from plugins.gamekit.contract import Effect, Eliminate, Finish, Say

from . import texts as T
from .model import Item, Player, State, alive, drop_all, is_test, player, seats


def new_batch(state: State) -> int:
    """Deaths of one batch happen at the same moment (same rank)."""
    state["batch"] += 1
    return state["batch"]


def kill(state: State, p: Player, cause: str, *, batch: int, killer: int | None = None,
         vanish: bool = False) -> list[Effect]:
    """Put ``p`` out; their items drop where they stand (or vanish)."""
    p["alive"] = False
    p["rest"] = False
    p["search"] = None
    state["deaths"].append({"seat": p["seat"], "night": state["day"], "cause": cause,
                            "killer": killer, "batch": batch, "place": p["place"]})
    if vanish:
        p["items"], p["weapon"], p["armour"], p["held"] = [], None, None, None
    else:
        drop_all(state, p)
    return [Eliminate(p["seat"], cause), Say(p["seat"], T.YOU_DIED.format(cause=cause))]


def kill_by_attack(state: State, cap: int, victim: Player, killer: Player, batch: int,
                   rng: random.Random) -> tuple[list[Effect], list[Item], list[Item]]:
    """The killer takes the corpse's items while the bag has room (a random part
    if not all fit); the rest drop in the place. Returns effects, taken, dropped."""
    taken, dropped = loot(state, cap, victim, killer, rng)
    if victim.get("npc"):
        return kill_npc(state, victim, T.CAUSE_ATTACK, killer=killer["seat"]), taken, dropped
    effects = kill(state, victim, T.CAUSE_ATTACK, batch=batch, killer=killer["seat"])
    return effects, taken, dropped


def loot(state: State, cap: int, victim: dict[str, Any], killer: Player,
         rng: random.Random) -> tuple[list[Item], list[Item]]:
    """出局: the killer takes what fits in a bag of ``cap`` (a random part if not all
    fit); the rest drops where the victim stood."""
    items = list(victim["items"])
    victim["items"], victim["weapon"], victim["armour"], victim["held"] = [], None, None, None
    room = max(0, cap - len(killer["items"]))
    if len(items) <= room:
        taken = items
    else:
        picked = set(it["id"] for it in rng.sample(items, room))
        taken = [it for it in items if it["id"] in picked]
    taken_ids = [it["id"] for it in taken]
    dropped = [it for it in items if it["id"] not in taken_ids]
    killer["items"].extend(taken)
    state["ground"][victim["place"]].extend(dropped)
    return taken, dropped


def kill_npc(state: State, n: dict[str, Any], cause: str, *, killer: int | None = None,
             vanish: bool = False) -> list[Effect]:
    """An NPC dies (credited once, to ``killer``) or vanishes in a closure."""
    if not n["alive"]:
        return []
    n["alive"] = False
    n["bleed"] = 0
    if vanish:
        n["items"], n["gone"] = [], True
        return []
    state["ground"][n["place"]].extend(n["items"])
    n["items"] = []
    state["npc_deaths"].append({"id": n["id"], "name": n["name"], "kind": n["kind"], "night": state["day"],
                                "cause": cause, "killer": killer, "place": n["place"]})
    return []


def check_end(state: State, cfg: dict[str, Any]) -> list[Effect]:
    """Last survivor wins; nobody left (died together) means the host wins."""
    if state["phase"] == "over":
        return []
    left = alive(state)
    if len(left) > 1:
        return []
    state["phase"] = "over"
    winner = left[0]["seat"] if left else None
    state["result"] = {"winner": winner}
    head = T.WIN.format(alias=left[0]["alias"]) if left else T.HOST_WIN
    lines = [head]
    if is_test(cfg):
        wipe(state)
        return [Finish(head + "\n" + T.TEST_NO_RECORDS)]
    for row in ranking(state, cfg)[:10]:
        lines.append(T.RANK_LINE.format(rank=row["rank"], alias=row["alias"],
                                        extra=T.RANK_EXTRA.format(night=row["night"], cause=row["cause"]) if row["cause"] else ""))
    return [Finish("\n".join(lines))]


def ranking(state: State, cfg: dict[str, Any]) -> list[dict[str, Any]]:
    """Reverse order of death; deaths of the same batch share a rank (a test game has none)."""
    if is_test(cfg):
        return []
    deaths = {d["seat"]: d for d in state["deaths"]}
    survivors = [s for s in seats(state) if s not in deaths]
    rows: list[dict[str, Any]] = []
    for s in survivors:
        p = player(state, s)
        rows.append({"rank": 1, "seat": s, "alias": p["alias"], "night": None, "cause": "",
                     "killer": None})
    ordered = sorted(deaths.values(), key=lambda d: (-d["batch"], d["seat"]))
    for d in ordered:
        later = sum(1 for e in deaths.values() if e["batch"] > d["batch"])
        rank = len(survivors) + later + 1
        rows.append({"rank": rank, "seat": d["seat"], "alias": player(state, d["seat"])["alias"],
                     "night": d["night"], "cause": d["cause"], "killer": d["killer"]})
    return rows


def wipe(state: State) -> State:
    """测试赛事件结束后删档: the records (deaths, kills, items, NPC deaths) are cleared;
    the host log and the kernel's audit log keep that the game happened."""
    state["deaths"], state["npc_deaths"], state["landed"] = [], [], []
    for p in state["players"].values():
        p["items"], p["weapon"], p["armour"], p["held"], p["claims"] = [], None, None, None, []
    for place in state["ground"]:
        state["ground"][place] = []
    state["wiped"] = True
    return state
