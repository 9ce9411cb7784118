"""Longer messages and tables assembled from the texts: groups, standings, a player's
breakdown, a game's summary, the violations catalogue, the standings rows of the
export and the picture."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import plugins.league.engine.texts as T
from plugins.gamekit.clock import fmt_local
from plugins.gamekit.contract import Effect, Say

from .content import Settings
from .standings import DEMOTED, PREVIOUS, Row, award_blocked, game_line, rows
from .state import Game, GameStatus, Kind, Level, State, Status, Violation
from .texts import fmt, fmt_total


def name(state: State, seat: int) -> str:
    """'张三（#5）': a registrant as every message names them."""
    return T.PLAYER_NAME.format(alias=state.players[seat].alias, seat=seat)


def num(x: float) -> int | float:
    """A number for a table cell (/导出): a whole number without a trailing ".0"."""
    return int(x) if float(x).is_integer() else x


def chat_to(group: str, chats: tuple[str, ...]) -> str:
    """The Say target for something that concerns one league group: its linked
    QQ group chat (``/绑定群 <主群号> <组名>``) if there is one, else the main group."""
    return f"chat:{group}" if group in chats else "group"


def per_group(head: str, by_group: dict[str, list[str]], chats: tuple[str, ...], sep: str = "\n") -> list[Effect]:
    """One announcement per linked group chat with that group's lines; the lines
    of groups without a linked chat go together in one message to the main group."""
    out: list[Effect] = []
    main: list[str] = []
    for g in sorted(by_group):
        lines = by_group[g]
        if not lines:
            continue
        if g in chats:
            out.append(Say(f"chat:{g}", head + sep.join(lines)))
        else:
            main += lines
    if main:
        out.insert(0, Say("group", head + sep.join(main)))
    return out


def group_texts(state: State, r: int, lineups: dict[str, list[int]] | None = None) -> dict[str, str]:
    """One message per group, by group name: '第一轮 A组：1号位 张三（#5）…'."""
    rnd = state.rounds[r]
    lineups = lineups or rnd.groups
    out = {}
    for g in sorted(lineups):
        lines = [T.GROUP_HEAD.format(round=rnd.name, group=g, seed=rnd.seed)]
        lines += [T.POSITION_LINE.format(pos=i, who=name(state, s)) for i, s in enumerate(lineups[g], 1)]
        out[g] = "\n".join(lines)
    return out


def tiebreak_note(row: Row, r: int) -> str:
    """Which §九 rule separated an equal total ("" when none did or the total was not equal)."""
    if not row.tiebreak:
        return ""
    what = T.TIEBREAK_NAMES[row.tiebreak] if row.tiebreak < PREVIOUS else (
        T.TIEBREAK_NAMES[-1] if r else T.TIEBREAK_SIGNUP_ORDER)
    return T.TIEBREAK_BY.format(what=what)


def standings_text(state: State, settings: Settings, r: int, table: list[Row], page: int) -> str:
    rnd = state.rounds[r]
    size = settings.options.standings_lines
    pages = max(1, (len(table) + size - 1) // size)
    page = min(max(page, 1), pages)
    advance = settings.rounds[r].advance
    lines = [T.STANDINGS_HEAD.format(round=rnd.name, page=page, pages=pages, n=len(table))]
    for row in table[(page - 1) * size: page * size]:
        rank = T.STANDINGS_RANK.format(rank=row.rank) if row.rank else T.STANDINGS_UNRANKED
        tail = ""
        if row.status != Status.ACTIVE:
            tail = T.STANDINGS_STATUS.format(status=T.STATUS_NAMES[row.status])
        elif row.tie:
            tail = T.STANDINGS_TIE
        lines.append(T.STANDINGS_LINE.format(rank=rank, alias=row.alias, seat=row.seat, total=fmt_total(row.total),
                                             tail=tail))
        if advance and row.rank == advance:
            lines.append(T.STANDINGS_ADVANCE_LINE.format(n=advance))
    if pages > page:
        lines.append(T.STANDINGS_NEXT.format(page=page + 1))
    return "\n".join(lines)


def game_points_line(plus: float, minus: float) -> str:
    """'+4 -2 = +2': a player's plus points, minus points and total of one game."""
    return T.GAME_LINE.format(plus=fmt_total(abs(plus)), minus=fmt_total(abs(minus)), total=fmt(plus + minus))


def breakdown_text(state: State, settings: Settings, r: int, row: Row, games: list[Game],
                   violations: list[Violation], tz: ZoneInfo) -> str:
    rnd = state.rounds[r]
    rank = T.BREAKDOWN_RANK.format(rank=row.rank) if row.rank else T.STATUS_NAMES[row.status]
    lines = [T.BREAKDOWN_HEAD.format(who=name(state, row.seat), round=rnd.name, total=fmt_total(row.total), rank=rank),
             T.BREAKDOWN_BASE.format(base=fmt_total(settings.scoring.base))]
    lines += [T.BREAKDOWN_PART.format(label=label, points=fmt(x)) for label, x in zip(T.PART_NAMES, row.parts.values(), strict=True)]
    if row.status == DEMOTED:
        lines.append(T.BREAKDOWN_DEMOTED)
    for g in games:
        pts = g.points[row.seat]
        plus, minus = game_line(state, settings, g, row.seat)
        lines.append(T.BREAKDOWN_GAME.format(
            no=g.no, group=g.group, game=g.id, role=pts.role, result=T.CELL_WON if pts.won else T.CELL_LOST,
            line=game_points_line(plus, minus), double=T.BREAKDOWN_DOUBLE if g.double else "",
            void=T.BREAKDOWN_VOID if g.status is GameStatus.VOID else ""))
        blocked = award_blocked(state, settings, row.seat, g.id)
        if blocked and (pts.mvp or pts.svp) and g.status is GameStatus.OK:
            lines.append(T.BREAKDOWN_AWARD_CUT.format(what=T.MVP if pts.mvp else T.SVP, points=fmt(pts.parts.award),
                                                      id=blocked.id))
    for v in violations:
        where = T.IN_GAME.format(game=v.game) if v.game else T.OFF_GAME
        text = T.BREAKDOWN_VIOLATION.format(id=v.id, type=v.type, where=where, points=fmt_total(v.points))
        if v.reversed is not None:
            text += T.BREAKDOWN_REVERSED.format(at=fmt_local(datetime.fromisoformat(v.reversed.at), tz),
                                                reason=v.reversed.reason)
        lines.append(text)
    wins = T.SEP.join(T.BREAKDOWN_WINS.format(kind=T.KIND_NAMES[k], n=row.wins[k]) for k in (Kind.WOLF, Kind.GOD, Kind.VILLAGER))
    lines.append(T.BREAKDOWN_AWARDS.format(mvp=row.mvp, svp=row.svp, wins=wins))
    return "\n".join(lines)


def game_summary(state: State, settings: Settings, game: Game, notes: list[str] | None = None) -> str:
    lines = [T.SUMMARY_HEAD.format(game=game.id, round=state.rounds[game.round].name, group=game.group, no=game.no,
                                   double=T.SUMMARY_DOUBLE if game.double else "",
                                   winner=T.SIDE_NAMES[game.parsed.winner]),
             T.SUMMARY_COLUMNS]
    for seat, pts in sorted(game.points.items(), key=lambda kv: kv[1].gseat):
        mark = T.SUMMARY_MVP if pts.mvp else T.SUMMARY_SVP if pts.svp else ""
        plus, minus = game_line(state, settings, game, seat)
        lines.append(T.SUMMARY_LINE.format(gseat=pts.gseat, who=name(state, seat), role=pts.role,
                                           line=game_points_line(plus, minus), mark=mark))
    lines += notes or []
    lines.append(T.SUMMARY_APPEAL)
    return "\n".join(lines)


def catalogue_text(settings: Settings) -> str:
    """/违规表: every violation type with its level, deduction and penalty ladder (§十三)."""
    lines = [T.CATALOGUE_HEAD]
    for vname, v in settings.violations.items():
        extra = []
        if v.blocks_award:
            extra.append(T.CATALOGUE_BLOCKS_AWARD)
        if v.cancel_win:
            extra.append(T.CATALOGUE_CANCEL_WIN)
        if v.level == Level.HEAVY:
            extra.append(T.CATALOGUE_HEAVY)
        lines.append(T.CATALOGUE_LINE.format(
            type=vname, level=T.LEVEL_NAMES[Level(v.level)], points=fmt_total(v.points),
            extra=T.CATALOGUE_EXTRA.format(extra=T.CATALOGUE_EXTRA_SEP.join(extra)) if extra else "",
            clause=T.CATALOGUE_CLAUSE.format(clause=v.clause) if v.clause else "",
            ladder=T.CATALOGUE_LADDER.format(ladder=v.ladder) if v.ladder else ""))
    lines.append(T.CATALOGUE_TAIL.format(light=settings.options.dq_light, medium=settings.options.dq_medium))
    return "\n".join(lines)


def standings_rows(state: State, settings: Settings, r: int) -> list[list[Any]]:
    """The standings of round ``r`` as rows (header first), e.g. for a picture."""
    multi = len(state.rounds[r].groups) > 1
    header: list[Any] = [*T.STANDINGS_HEADER_HEAD, *([T.STANDINGS_HEADER_GROUP] if multi else []), *T.STANDINGS_HEADER_TAIL]
    out: list[list[Any]] = [header]
    for row in rows(state, settings, r):
        p = row.parts
        if row.status != Status.ACTIVE:
            note = T.STATUS_NAMES[row.status]
        else:
            note = T.CELL_TIE if row.tie else tiebreak_note(row, r)
        out.append([row.rank or "", row.seat, row.alias] + ([row.group] if multi else []) + [
            num(row.total), num(p.win), num(p.behaviour), num(p.vote), num(p.badge), num(p.award), num(p.violation),
            row.mvp, row.svp, row.wins[Kind.WOLF], row.wins[Kind.GOD], row.wins[Kind.VILLAGER],
            row.games, T.CELL_YES if row.advance else "", note])
    return out


def picture_caption(state: State, settings: Settings) -> str:
    """The caption of the standings picture: the round, its size, the advancement line and the top three."""
    r = state.round
    table = rows(state, settings, r)
    advance = settings.rounds[r].advance
    lines = [T.CAPTION_HEAD.format(round=state.rounds[r].name, n=len(table))
             + (T.CAPTION_ADVANCE.format(n=advance) if advance else T.CAPTION_CLOSE)]
    lines += [T.CAPTION_LINE.format(rank=row.rank, alias=row.alias, seat=row.seat, total=fmt_total(row.total))
              for row in table[:3] if row.rank]
    lines.append(T.CAPTION_TAIL)
    return "\n".join(lines)
