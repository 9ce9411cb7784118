"""The royale engine: the command table (each row names its rule), timers,
the 测试赛 tag on group posts and the kernel's hooks."""

from __future__ import annotations

from typing import Any

from plugins.gamekit.contract import (
    PHASE_TIMER,
    Actor,
    Ctx,
    Effect,
    Finish,
    GameEngine,
    Ignored,
    Outcome,
    Picture,
    Rejected,
    Restore,
    Say,
    Seat,
    Settings,
    copy_state,
)

from . import content
from . import events as EV
from . import texts as T
from .commands import COMMANDS, bag_text
from .model import State, ensure, is_test, player
from .rules_cycle import close_night, open_night, start
from .rules_death import check_end, kill, new_batch, ranking, wipe
from .rules_night import ACTIONS


class RoyaleEngine(GameEngine):
    def __init__(self) -> None:
        super().__init__(COMMANDS)

    def check_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        return content.check(settings)

    def start(self, roster: list[Seat], ctx: Ctx) -> Outcome:
        if len(roster) < 2:
            raise Rejected(T.TOO_FEW)
        out = start(roster, ctx, ctx.settings)
        return Outcome(out.state, self.after(out.state, out.effects, ctx))

    def upgrade(self, state: State) -> State:
        """Fill keys added after a game started (older states keep working)."""
        return ensure(state)

    def unknown(self, name: str) -> list[Effect]:
        raise Ignored()

    def group_tag(self, state: State, *, settings: Settings | None = None) -> str:
        """测试赛: the kernel's own group posts (cards, /推进, /公告 …) are marked too."""
        return T.TEST_TAG if settings and is_test(settings) else ""

    def after(self, state: State, effects: list[Effect], ctx: Ctx) -> list[Effect]:
        """测试赛: every group post (and picture, and the final summary) says it is a test."""
        if not is_test(ctx.settings):
            return effects
        tag = T.TEST_TAG
        out: list[Effect] = []
        for e in effects:
            if isinstance(e, Say) and e.to == "group" and not e.text.startswith(tag):
                e = Say(e.to, tag + e.text)
            elif isinstance(e, Picture) and e.to == "group":
                e = Picture(e.to, e.name, tag + e.caption)
            elif isinstance(e, Finish):
                e = Finish(tag + e.summary)
            out.append(e)
        return out

    def on_deadline(self, state: State, key: str, ctx: Ctx) -> list[Effect]:
        if key != PHASE_TIMER or state["phase"] == "over":
            return []
        cfg = ctx.settings
        if state["phase"] == "day":
            return open_night(state, cfg, ctx).effects
        return close_night(state, cfg, ctx).effects

    def kernel_out(self, state: State, actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Effect]:
        seat = args.get("seat")
        if not isinstance(seat, int) or str(seat) not in state["players"]:
            raise Rejected(T.NO_SUCH_SEAT.format(seat=seat))
        p = player(state, seat)
        if not p["alive"]:
            raise Rejected(T.ALREADY_OUT.format(alias=p["alias"]))
        effects = kill(state, p, T.CAUSE_HOST, batch=new_batch(state))
        return effects + check_end(state, ctx.settings)

    def kernel_back(self, state: State, actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Effect]:
        seat = args.get("seat")
        if not isinstance(seat, int) or str(seat) not in state["players"]:
            raise Rejected(T.NO_SUCH_SEAT.format(seat=seat))
        p = player(state, seat)
        if p["alive"]:
            raise Rejected(T.NOT_OUT.format(alias=p["alias"]))
        if state["phase"] == "over":
            raise Rejected(T.OVER)
        p["alive"] = True
        p["hp"] = max(p["hp"], 1)
        if p["place"] in state["closed"]:
            p["place"] = None
        state["deaths"] = [d for d in state["deaths"] if d["seat"] != seat]
        state["deaths_posted"] = min(state["deaths_posted"], len(state["deaths"]))
        return [Restore(seat, str(args.get("reason", "")))]

    def private_info(self, state: State, seat: int, *, settings: Settings | None = None) -> str:
        if str(seat) not in state["players"]:
            return T.NOT_IN_GAME
        return bag_text(state, settings, seat)

    def reveal(self, state: State, *, settings: Settings | None = None) -> str:
        """Posted after a host's /结束: a test game says it keeps no records."""
        return T.TEST_TAG + T.TEST_NO_RECORDS if settings and is_test(settings) else ""

    def wipe(self, state: State, *, settings: Settings | None = None) -> State:
        """/结束 of a 测试赛: 「测试赛事件结束后删档」 (other games keep everything);
        ``state`` is the kernel's copy."""
        if not (settings and is_test(settings)):
            return state
        return wipe(state)

    def public_out(self, state: State) -> list[int] | None:
        return announced(state)

    def status(self, state: State, *, settings: Settings | None = None) -> str:
        day = state["day"]
        phase = T.STATUS_PHASE[state["phase"]].format(day=day)
        names = list(state["ground"])
        opened = [p for p in names if p not in state["closed"]]
        lines = [
            T.STATUS_HEAD.format(phase=phase, n=len(state["players"]) - len(announced(state)), weather=state["weather"]),
            T.STATUS_OPEN.format(n=len(opened), places=T.joined(opened)),
            T.STATUS_CLOSING.format(places=T.names_or_none(state["closing"])),
        ]
        today = [e["key"] for e in state.get("today", [])]
        if today:
            cfg = settings or content.defaults()  # the game's own event names
            names = [(EV.event_def(cfg, k) or {"name": k})["name"] for k in today]
            lines.append(T.STATUS_EVENTS.format(names=T.joined(names)))
        if settings and is_test(settings):
            lines.insert(0, T.STATUS_TEST)
        return "\n".join(lines)

    def tables(self, state: State, *, settings: Settings | None = None) -> dict[str, list[list[Any]]]:
        log = [list(T.HEAD_LOG)] + [[h["day"], h["by"], h["what"]] for h in state.get("host_log", [])]
        cfg = settings or content.defaults()
        if is_test(cfg):
            note = [list(T.HEAD_NOTE), [T.TEST_NO_RECORDS]]
            return {T.SHEET_TEST: note, T.SHEET_LOG: log}
        rank: list[list[Any]] = [list(T.HEAD_RANK)]
        for r in ranking(state, cfg):
            killer = player(state, r["killer"])["alias"] if r["killer"] is not None else ""
            rank.append([r["rank"], r["seat"], r["alias"], r["night"] or "", r["cause"], killer])
        players: list[list[Any]] = [list(T.HEAD_PLAYERS)]
        for s in sorted(int(k) for k in state["players"]):
            p = player(state, s)
            players.append([s, p["alias"], T.YES if p["alive"] else T.NO, p["hp"], p["st"], p["money"],
                            p["place"] or "", T.joined(i["name"] for i in p["items"])])
        ground: list[list[Any]] = [list(T.HEAD_PLACES)]
        for place, items in state["ground"].items():
            closing = T.PLACE_CLOSING if place in state["closing"] else T.PLACE_OPEN
            status = T.PLACE_CLOSED if place in state["closed"] else closing
            ground.append([place, status, T.joined(i["name"] for i in items)])
        events = [list(T.HEAD_EVENTS)] + [[x["day"], x["key"]] for x in state.get("event_log", [])]
        npcs: list[list[Any]] = [list(T.HEAD_NPCS)]
        for n in state.get("npcs", []):
            d = next((x for x in state.get("npc_deaths", []) if x["id"] == n["id"]), None)
            killer = player(state, d["killer"])["alias"] if d and d["killer"] is not None else ""
            npcs.append([n["name"], n["day"], n["place"], T.YES if n["alive"] else T.NO, max(n["hp"], 0),
                         d["cause"] if d else (T.NPC_VANISHED if n.get("gone") else ""), killer])
        return {T.SHEET_RANK: rank, T.SHEET_PLAYERS: players, T.SHEET_PLACES: ground, T.SHEET_EVENTS: events,
                T.SHEET_NPCS: npcs, T.SHEET_LOG: log}


def announced(state: State) -> list[int]:
    """Deaths already announced: night deaths stay secret until the morning post."""
    return sorted(d["seat"] for d in state["deaths"][: state.get("deaths_posted", 0)])


def act(state: State, seat: int, name: str, args: dict[str, Any], ctx: Ctx) -> Outcome:
    """One night action by ``seat`` (what a web page for night actions calls):
    same rules and refusals as the chat command ``name`` (see ``ACTIONS``), on
    the kernel's copy of ``state``."""
    action = ACTIONS.get(name)
    if action is None:
        raise Rejected(T.UNKNOWN_ACTION.format(name=name))
    st = ENGINE.load(copy_state(state))
    if str(seat) not in st["players"]:
        raise Rejected(T.NOT_IN_GAME)
    return Outcome(st, action(st, seat, dict(args), ctx, ctx.settings))


ENGINE = RoyaleEngine()
