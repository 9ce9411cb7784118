"""The league engine: the kernel's commands, the clock and the read-only hooks
(the command table, each row naming its rule, is ``commands.py``)."""

from __future__ import annotations

from typing import Any

import plugins.league.engine.texts as T
from plugins.gamekit.args import SeatReason
from plugins.gamekit.contract import (
    KERNEL_BACK,
    KERNEL_OUT,
    Actor,
    Ctx,
    Effect,
    Eliminate,
    GameEngine,
    Outcome,
    Rejected,
    Restore,
    Say,
    Seat,
)

from .commands import COMMANDS
from .content import CONTENT
from .content import Settings as LeagueSettings
from .lineup import drop_from_round
from .rules_admin import audit, new_round
from .rules_day import timer
from .standings import award_blocked, rows
from .state import Game, GameStatus, Player, Status
from .state import State as LeagueState
from .views import name, num, standings_rows

League = Ctx[LeagueSettings]


class LeagueEngine(GameEngine[LeagueState, LeagueSettings]):
    """The 狼人杀城市联赛 online stage."""

    State = LeagueState
    Settings = LeagueSettings
    CONTENT = CONTENT
    STATE_VERSION = 2  # 2: the settings are no longer copied into the state ("cfg"), rules read ctx.settings
    TEXTS = (("appeals", "*", "text"), ("appeals", "*", "answer"))  # the appeals' texts, in rows of their own
    HOST_ONLY = T.HOST_ONLY
    NOT_A_PLAYER = T.NOT_A_PLAYER

    def __init__(self) -> None:
        super().__init__(COMMANDS)

    def start(self, roster: list[Seat], ctx: League) -> Outcome[LeagueState]:
        need = ctx.settings.rounds[0].players
        seats = sorted(roster, key=lambda s: s.seat)
        if len(seats) < need:
            raise Rejected(T.START_TOO_FEW.format(n=len(seats), need=need))
        state = LeagueState(players={s.seat: Player(alias=s.alias, user_id=s.user_id, status=Status.ACTIVE) for s in seats})
        effects = new_round(state, 0, [s.seat for s in seats[:need]], ctx)
        intro = T.START_INTRO.format(n=len(seats), need=need, subs=len(seats) - need)
        return Outcome(state, [Say("group", intro), *effects])

    def before(self, state: LeagueState, actor: Actor, name: str, args: Any, ctx: League) -> Any:
        """After the end only the read-only commands (and the kernel's) still answer."""
        spec = self.specs.get(name)
        if state.finished and not (spec is not None and spec.query) and name not in (KERNEL_OUT, KERNEL_BACK):
            raise Rejected(T.FINISHED_VIEWS_ONLY)
        return args

    def unknown(self, name: str) -> list[Effect]:
        raise Rejected(T.UNKNOWN_COMMAND)

    def on_deadline(self, state: LeagueState, key: str, ctx: League) -> list[Effect]:
        return timer(state, key, ctx)

    def upgrade(self, raw: dict[str, Any]) -> dict[str, Any]:
        """Version 1 kept a copy of the settings under "cfg"; nothing wrote to it
        during play (hosts cannot change settings after the start), so the copy
        equals the game's settings and is dropped."""
        raw.pop("cfg", None)
        return raw

    # ---- kernel commands -------------------------------------------------

    def kernel_out(self, state: LeagueState, actor: Actor, a: SeatReason, ctx: League) -> list[Effect]:
        p = state.players[a.seat]
        if p.status is not Status.ACTIVE:
            raise Rejected(T.OUT_ALREADY.format(who=name(state, a.seat), status=T.STATUS_NAMES[p.status]))
        p.status = Status.OUT
        effects: list[Effect] = [Eliminate(a.seat, a.reason or T.OUT_DEFAULT_REASON)]
        effects += drop_from_round(state, a.seat, ctx)
        audit(state, ctx, "kernel", T.AUDIT_OUT, T.AUDIT_OUT_DETAIL.format(who=name(state, a.seat), reason=a.reason))
        return effects

    def kernel_back(self, state: LeagueState, actor: Actor, a: SeatReason, ctx: League) -> list[Effect]:
        p = state.players[a.seat]
        if p.status is Status.ACTIVE:
            raise Rejected(T.BACK_ALREADY.format(who=name(state, a.seat)))
        p.status = Status.ACTIVE
        return [Restore(a.seat, a.reason or T.BACK_DEFAULT_REASON), Say("hosts", T.BACK_DONE.format(who=name(state, a.seat)))]

    # ---- read-only hooks -------------------------------------------------

    def private_info(self, state: LeagueState, seat: int, *, settings: LeagueSettings) -> str:
        p = state.players.get(seat)
        if p is None:
            return T.INFO_NOT_PLAYER
        r = state.round
        rnd = state.rounds[r]
        lines = [T.INFO_HEAD.format(who=name(state, seat), status=T.STATUS_NAMES[p.status])]
        g = state.group_of(r, seat)
        if g is not None:
            lines.append(T.INFO_GROUP.format(round=rnd.name, group=g, pos=rnd.groups[g].index(seat) + 1))
        elif p.status is Status.ACTIVE:
            lines.append(T.INFO_SUBSTITUTE.format(round=rnd.name))
        day = state.current_day()
        if day is not None and day.group_of(seat) is not None:
            lines.append(T.INFO_TODAY_CHECKED if seat in day.checked else T.INFO_TODAY_UNCHECKED)
        row = next((x for x in rows(state, settings, r) if x.seat == seat), None)
        if row is not None:
            lines.append(T.INFO_POINTS.format(total=T.fmt_total(row.total))
                         + (T.INFO_RANK.format(rank=row.rank) if row.rank else ""))
        return "\n".join(lines)

    def signup_view(self, settings: LeagueSettings | dict[str, Any], seats: list[int]) -> tuple[str, dict[int, str]]:
        """Before the start (§十.1): the first main-draw sign-ups in order are 正赛, the rest 替补.
        (The kernel hands this hook the stored settings dict, the other hooks the typed model.)"""
        typed = self.settings_of(settings) if isinstance(settings, dict) else settings
        need = typed.rounds[0].players
        order = sorted(seats)
        main = order[:need]
        marks = {s: (T.MARK_MAIN if i < need else T.MARK_SUBSTITUTE) for i, s in enumerate(order)}
        summary = T.SIGNUP_SUMMARY.format(n=len(order), main=len(main), subs=len(order) - len(main))
        if len(main) < need:
            summary += T.SIGNUP_SHORT.format(n=need - len(main))
        return summary, marks

    def status(self, state: LeagueState, *, settings: LeagueSettings) -> str:
        r = state.round
        rnd = state.rounds[r]
        if state.finished:
            return T.STATUS_FINISHED.format(round=rnd.name)
        entered = sum(1 for g in state.games if g.round == r)
        total = sum(d.games for d in settings.rounds[r].days) * len(rnd.groups)
        day = state.current_day()
        head = T.STATUS_HEAD.format(round=rnd.name, entered=entered, total=total)
        if day is None:
            return head + T.STATUS_NO_DAY
        size = sum(len(m) for m in day.lineups.values())
        checked = sum(1 for m in day.lineups.values() for s in m if s in day.checked)
        return head + T.STATUS_DAY.format(no=day.index + 1, date=day.date, board=day.board, checked=checked, size=size)

    def tables(self, state: LeagueState, *, settings: LeagueSettings) -> dict[str, list[list[Any]]]:
        out: dict[str, list[list[Any]]] = {}
        out[T.SHEET_SIGNUP] = [list(T.SIGNUP_HEADER)] + [
            [k, p.alias, p.user_id, T.STATUS_NAMES[p.status]] for k, p in sorted(state.players.items())]
        for r, rnd in enumerate(state.rounds):
            out[T.SHEET_STANDINGS.format(round=rnd.name)] = standings_rows(state, settings, r)
        sheet: list[list[Any]] = [list(T.SCORES_HEADER)]
        for g in state.games:
            for seat, pts in sorted(g.points.items(), key=lambda kv: kv[1].gseat):
                pr = pts.parts
                sheet.append([g.id, state.rounds[g.round].name, g.group, g.no, g.date,
                              T.CELL_VOID if g.status is GameStatus.VOID else T.CELL_VALID, T.CELL_YES if g.double else T.CELL_NO,
                              pts.gseat, seat, state.players[seat].alias, pts.role,
                              T.SIDE_NAMES[pts.side], T.CELL_WON if pts.won else T.CELL_LOST, num(pr.win), num(pr.behaviour),
                              num(pr.vote), num(pr.badge), num(pr.award), int(pts.mvp), int(pts.svp),
                              _award_cut(state, settings, g, seat)])
        out[T.SHEET_SCORES] = sheet
        out[T.SHEET_VIOLATIONS] = [list(T.VIOLATIONS_HEADER)] + [
            [v.id, v.seat, state.players[v.seat].alias, state.rounds[v.round].name,
             v.game or "", v.type, T.LEVEL_NAMES[v.level], num(v.points), v.source.value, v.at,
             *((v.reversed.at, v.reversed.by, v.reversed.reason) if v.reversed is not None else ("", "", ""))]
            for v in state.violations]
        out[T.SHEET_APPEALS] = [list(T.APPEALS_HEADER)] + [
            [a.id, a.seat, a.game, a.at, a.text, T.VERDICT_NAMES[a.status], a.answer] for a in state.appeals]
        out[T.SHEET_AUDIT] = [list(T.AUDIT_HEADER)] + [[a.at, a.by, a.action, a.detail] for a in state.audit]
        return out


def _award_cut(state: LeagueState, settings: LeagueSettings, game: Game, seat: int) -> str:
    """§七.3 in the export: the violation that took this game's award, if any."""
    pts = game.points[seat]
    v = award_blocked(state, settings, seat, game.id) if (pts.mvp or pts.svp) else None
    return T.CELL_AWARD_CUT.format(id=v.id) if v else ""


ENGINE = LeagueEngine()
