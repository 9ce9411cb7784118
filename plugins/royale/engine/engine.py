"""The royale engine: its state, settings and command table, the phase deadline, the
测试赛 tag on group posts and the kernel's hooks."""

from __future__ import annotations

from typing import Any

import msgspec

import plugins.royale.engine.texts as T
from plugins.gamekit.args import Args, SeatReason
from plugins.gamekit.contract import (
    PHASE_TIMER,
    Actor,
    Command,
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
)

from .commands import COMMANDS
from .content import CONTENT
from .content import Settings as RoyaleSettings
from .model import RoyaleCtx
from .rules_cycle import close_night, open_night, start
from .rules_death import check_end, kill, ranking, wipe
from .rules_extra import bag_text, event_name
from .rules_night import ACTIONS
from .state import Phase
from .state import State as RoyaleState

OBSOLETE_KEYS = ("test", "map")
"""Copies of settings that states written before versioning kept (the settings say it now)."""


class RoyaleEngine(GameEngine[RoyaleState, RoyaleSettings]):
    State = RoyaleState
    Settings = RoyaleSettings
    CONTENT = CONTENT
    STATE_VERSION = 1
    HOST_ONLY = T.HOST_ONLY
    NOT_A_PLAYER = T.NOT_PLAYER

    def __init__(self) -> None:
        super().__init__(COMMANDS)

    def start(self, roster: list[Seat], ctx: RoyaleCtx) -> Outcome[RoyaleState]:
        if len(roster) < 2:
            raise Rejected(T.TOO_FEW)
        state, effects = start(roster, ctx)
        return Outcome(state, self.after(state, effects, ctx))

    def upgrade(self, raw: Any) -> Any:
        """A state written before versioning: its copies of the settings go (keys added since
        then take their defaults when it is typed)."""
        if isinstance(raw, dict):
            for key in OBSOLETE_KEYS:
                raw.pop(key, None)
        return raw

    def create_options(self, words: str) -> dict[str, Any]:
        """测试: 「本场开放测试赛」 — /创建 大逃杀 测试赛 opens a test game."""
        if not words:
            return {}
        if words in T.TEST_WORDS:
            return {"rules": {"test_mode": True}}
        raise Rejected(T.CREATE_OPTIONS.format(text=words[:20]))

    def unknown(self, name: str) -> list[Effect]:
        raise Ignored()

    def group_tag(self, state: RoyaleState, *, settings: RoyaleSettings) -> str:
        """测试赛: the kernel's own group posts (cards, /推进, /公告 …) are marked too."""
        return T.TEST_TAG if settings.test_mode else ""

    def after(self, state: RoyaleState, effects: list[Effect], ctx: RoyaleCtx) -> list[Effect]:
        """测试赛: every group post (and picture, and the final summary) says it is a test."""
        if not ctx.settings.test_mode:
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

    def on_deadline(self, state: RoyaleState, key: str, ctx: RoyaleCtx) -> list[Effect]:
        if key != PHASE_TIMER or state.phase == Phase.OVER:
            return []
        if state.phase == Phase.DAY:
            return open_night(state, ctx)
        return close_night(state, ctx)

    def kernel_out(self, state: RoyaleState, actor: Actor, args: SeatReason, ctx: RoyaleCtx) -> list[Effect]:
        p = state.players.get(args.seat)
        if p is None:
            raise Rejected(T.NO_SUCH_SEAT.format(seat=args.seat))
        if not p.alive:
            raise Rejected(T.ALREADY_OUT.format(alias=p.alias))
        effects = kill(state, p, T.CAUSE_HOST, batch=state.new_batch())
        if state.phase == Phase.DAY:  # the kernel says it in the group now: public at once, not last night's
            state.deaths[-1].day = True
            state.deaths_posted = len(state.deaths)
        return effects + check_end(state, ctx.settings)

    def kernel_back(self, state: RoyaleState, actor: Actor, args: SeatReason, ctx: RoyaleCtx) -> list[Effect]:
        p = state.players.get(args.seat)
        if p is None:
            raise Rejected(T.NO_SUCH_SEAT.format(seat=args.seat))
        if p.alive:
            raise Rejected(T.NOT_OUT.format(alias=p.alias))
        if state.phase == Phase.OVER:
            raise Rejected(T.OVER)
        p.alive = True
        p.hp = max(p.hp, 1)
        if p.place in state.closed:
            p.place = None
        posted = state.deaths[: state.deaths_posted]
        state.deaths_posted -= sum(1 for d in posted if d.seat == args.seat)  # the unannounced stay so
        state.deaths = [d for d in state.deaths if d.seat != args.seat]
        return [Restore(args.seat, args.reason)]

    def private_info(self, state: RoyaleState, seat: int, *, settings: RoyaleSettings) -> str:
        if seat not in state.players:
            return T.NOT_IN_GAME
        return bag_text(state, settings, seat)

    def reveal(self, state: RoyaleState, *, settings: RoyaleSettings) -> str:
        """Posted after a host's /结束: a test game says it keeps no records."""
        return T.TEST_TAG + T.TEST_NO_RECORDS if settings.test_mode else ""

    def wipe(self, state: RoyaleState, *, settings: RoyaleSettings) -> RoyaleState:
        """/结束 of a 测试赛: 「测试赛事件结束后删档」 (other games keep everything);
        ``state`` is the kernel's copy."""
        if not settings.test_mode:
            return state
        return wipe(state)

    def public_out(self, state: RoyaleState | dict[str, Any]) -> list[int] | None:
        """Night deaths stay secret until the morning post. (The kernel's /名单 hands the state
        as stored, plain JSON: it is read as typed first.)"""
        typed = self.decode(state) if isinstance(state, dict) else state
        return typed.announced()

    def status(self, state: RoyaleState, *, settings: RoyaleSettings) -> str:
        phase = T.STATUS_PHASE[state.phase].format(day=state.day)
        opened = [p for p in state.ground if p not in state.closed]
        lines = [
            T.STATUS_HEAD.format(phase=phase, n=len(state.players) - len(state.announced()), weather=state.weather),
            T.STATUS_OPEN.format(n=len(opened), places=T.joined(opened)),
            T.STATUS_CLOSING.format(places=T.names_or_none(state.closing)),
        ]
        if state.today:
            lines.append(T.STATUS_EVENTS.format(names=T.joined(event_name(settings, e.key) for e in state.today)))
        if settings.test_mode:
            lines.insert(0, T.STATUS_TEST)
        return "\n".join(lines)

    def tables(self, state: RoyaleState, *, settings: RoyaleSettings) -> dict[str, list[list[Any]]]:
        log: list[list[Any]] = [list(T.HEAD_LOG)] + [[h.day, h.by, h.what] for h in state.host_log]
        if settings.test_mode:
            note: list[list[Any]] = [list(T.HEAD_NOTE), [T.TEST_NO_RECORDS]]
            return {T.SHEET_TEST: note, T.SHEET_LOG: log}
        rank: list[list[Any]] = [list(T.HEAD_RANK)]
        for r in ranking(state, settings):
            killer = state.players[r.killer].alias if r.killer is not None else ""
            when: int | str = T.RANK_DAY.format(day=r.night) if r.day else r.night or ""
            rank.append([r.rank, r.seat, r.alias, when, r.cause, killer])
        players: list[list[Any]] = [list(T.HEAD_PLAYERS)]
        for s in state.seats():
            p = state.players[s]
            players.append([s, p.alias, T.YES if p.alive else T.NO, p.hp, p.st, p.money,
                            p.place or "", T.joined(i.name for i in p.items)])
        ground: list[list[Any]] = [list(T.HEAD_PLACES)]
        for place, items in state.ground.items():
            closing = T.PLACE_CLOSING if place in state.closing else T.PLACE_OPEN
            status = T.PLACE_CLOSED if place in state.closed else closing
            ground.append([place, status, T.joined(i.name for i in items)])
        events: list[list[Any]] = [list(T.HEAD_EVENTS)] + [[x.day, str(x.key)] for x in state.event_log]
        npcs: list[list[Any]] = [list(T.HEAD_NPCS)]
        for n in state.npcs:
            d = next((x for x in state.npc_deaths if x.id == n.id), None)
            killer = state.players[d.killer].alias if d and d.killer is not None else ""
            npcs.append([n.name, n.day, n.place, T.YES if n.alive else T.NO, max(n.hp, 0),
                         d.cause if d else (T.NPC_VANISHED if n.gone else ""), killer])
        return {T.SHEET_RANK: rank, T.SHEET_PLAYERS: players, T.SHEET_PLACES: ground, T.SHEET_EVENTS: events,
                T.SHEET_NPCS: npcs, T.SHEET_LOG: log}


ENGINE = RoyaleEngine()


def act(state: RoyaleState, seat: int, name: str, args: Args | dict[str, Any], ctx: RoyaleCtx) -> Outcome[RoyaleState]:
    """One night action by ``seat`` (``ACTIONS``) on a copy of ``state``: the same rules and
    refusals as the chat command ``name``; ``args`` as the command log keeps them, or typed."""
    spec = ENGINE.specs.get(name)
    if spec is None or name not in ACTIONS:
        raise Rejected(T.UNKNOWN_ACTION.format(name=name))
    if seat not in state.players:
        raise Rejected(T.NOT_IN_GAME)
    typed = args if isinstance(args, Args) else msgspec.convert(args, spec.args, strict=False)
    return ENGINE.apply(state, Actor("", seat, False, True), Command(name, typed), ctx)
