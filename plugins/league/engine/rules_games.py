"""Score entry by referees (§六（二）), corrections and void games (§十一)."""

from __future__ import annotations

from typing import Annotated

import plugins.league.engine.sheet as sheetmod
import plugins.league.engine.texts as T
from plugins.gamekit.args import INT, TEXT, Args
from plugins.gamekit.contract import Actor, Ctx, Effect, Picture, Rejected, Say

from .content import Settings
from .rules_admin import add_violation, audit, find_game
from .standings import award_blocked
from .state import Correction, Day, Game, GameStatus, Reversal, Source, State, Step
from .texts import fmt_total
from .views import chat_to, game_summary, name, picture_caption

League = Ctx[Settings]


class ScoreArgs(Args, frozen=True, kw_only=True):
    text: Annotated[str, TEXT]  # the whole sheet


class RescoreArgs(Args, frozen=True, kw_only=True):
    game: Annotated[int, INT]
    text: Annotated[str, TEXT]


class VoidArgs(Args, frozen=True, kw_only=True):
    game: Annotated[int, INT]
    reason: Annotated[str, TEXT] = ""


class TemplateArgs(Args, frozen=True, kw_only=True):
    game: Annotated[str, TEXT]  # "<组> [第N场]", or a game number


def _day_of_no(state: State, r: int, no: int) -> Day | None:
    for d in state.days:
        if d.round == r and d.first_no <= no < d.first_no + d.games:
            return d
    return None


def day_of_game(state: State, game: Game) -> Day:
    return next(d for d in state.days if d.round == game.round and d.index == game.day)


def day_scored(state: State, day: Day) -> bool:
    """Every game of the match day has a valid sheet in every group."""
    done = {(g.group, g.no) for g in state.games if g.round == day.round and g.status is GameStatus.OK}
    return all((grp, no) in done for grp in day.lineups for no in range(day.first_no, day.first_no + day.games))


def parse_sheet(state: State, settings: Settings, text: str, day: Day, group: str) -> sheetmod.Sheet:
    """A sheet read against that day's board and the group's lineup; Rejected with every mistake."""
    names = {k: p.alias for k, p in state.players.items()}
    try:
        return sheetmod.parse(text, settings, day.board, day.lineups[group], state.resolver(), names)
    except ValueError as exc:
        raise Rejected(T.SHEET_WRONG.format(errors=exc)) from None


def _violations_of(state: State, game: Game, parsed: sheetmod.Sheet, ctx: League, by: str) -> list[Effect]:
    """Record the sheet's violations; each penalised player is told privately."""
    effects: list[Effect] = []
    factor = 2 if game.double else 1
    for p in parsed.players:
        ids = []
        for vtype in p.violations:
            v, more = add_violation(state, p.seat, vtype, game.round, game.id, factor, Source.SHEET, ctx, by)
            effects += more
            ids.append(T.SHEET_VIOLATION.format(level=T.LEVEL_NAMES[v.level], type=vtype, id=v.id,
                                                points=fmt_total(v.points)))
        if ids:
            effects.insert(0, Say(p.seat, T.SHEET_VIOLATIONS_YOURS.format(game=game.id, group=game.group, no=game.no,
                                                                          violations=T.SHEET_VIOLATIONS_SEP.join(ids))))
    return effects


def _check_awards(state: State, settings: Settings, game_id: int, parsed: sheetmod.Sheet) -> None:
    """§七.3: a /违规 already recorded in this game (not on the sheet) also bars the award."""
    for p in parsed.players:
        blocked = award_blocked(state, settings, p.seat, game_id)
        if (p.mvp or p.svp) and blocked and blocked.source is not Source.SHEET:
            raise Rejected(T.SHEET_AWARD_BLOCKED.format(line=p.line, gseat=p.gseat, type=blocked.type, id=blocked.id))


def sheet_notes(settings: Settings, parsed: sheetmod.Sheet) -> list[str]:
    """What the cap policy "clamp" counted up to a cap (§六（二）2), one note per line."""
    if settings.scoring.cap_policy != "clamp":
        return []
    return sheetmod.cap_notes(parsed, settings)


def _taken(state: State, r: int, group: str) -> set[int]:
    """The numbers of the group's games entered (not void) this round."""
    return {g.no for g in state.games if g.round == r and g.group == group and g.status is GameStatus.OK}


def _opened(state: State, r: int) -> list[int]:
    """The numbers of the round's games whose match day is open."""
    return [n for d in state.days if d.round == r for n in range(d.first_no, d.first_no + d.games)]


def score(state: State, actor: Actor, a: ScoreArgs, ctx: League) -> list[Effect]:
    """/录分 <计分表>: a referee enters one game's sheet (§六（二））."""
    text = a.text
    try:
        group, no = sheetmod.parse_header(text)
    except ValueError as exc:
        raise Rejected(str(exc)) from None
    r = state.round
    rnd = state.rounds[r]
    if group not in rnd.groups:
        raise Rejected(T.GROUP_UNKNOWN.format(group=group, known=T.SEP.join(sorted(rnd.groups))))
    taken = _taken(state, r, group)
    if no is None:
        free = [n for n in _opened(state, r) if n not in taken]
        if not free:
            raise Rejected(T.SCORE_ALL_ENTERED.format(group=group))
        no = free[0]
    day = _day_of_no(state, r, no)
    if day is None:
        raise Rejected(T.SCORE_DAY_NOT_OPEN.format(no=no))
    if no in taken:
        gid = next(g.id for g in state.games if g.round == r and g.group == group
                   and g.no == no and g.status is GameStatus.OK)
        raise Rejected(T.SCORE_TWICE.format(group=group, no=no, game=gid))
    parsed = parse_sheet(state, ctx.settings, text, day, group)
    double = no in ctx.settings.rounds[r].double_games
    gid = len(state.games) + 1
    game = Game(id=gid, round=r, day=day.index, group=group, no=no, double=double, date=day.date, sheet=text,
                parsed=sheetmod.parsed(parsed), points=sheetmod.score(parsed, ctx.settings, 2 if double else 1))
    state.games.append(game)
    effects = _violations_of(state, game, parsed, ctx, actor.user_id)
    audit(state, ctx, actor.user_id, T.AUDIT_SCORE, T.AUDIT_SCORE_DETAIL.format(game=gid, group=group, no=no))
    notes = sheet_notes(ctx.settings, parsed)
    reply = T.SCORE_DONE.format(game=gid) + ("\n" + "\n".join(notes) if notes else "")
    out: list[Effect] = [Say(chat_to(group, ctx.chats), game_summary(state, ctx.settings, game, notes))]
    if ctx.settings.options.picture_after_day and day_scored(state, day):  # §五（一） the day's results, published
        n = day.games * len(day.lineups)
        label = T.DAY_SCORED.format(round=rnd.name, no=day.index + 1, date=day.label or day.date, n=n)
        out.append(Picture("group", "standings", label + "\n" + picture_caption(state, ctx.settings)))
        reply += "\n" + T.DAY_SCORED_REPLY
    return [Say("reply", reply), *out, *effects]


def rescore(state: State, actor: Actor, a: RescoreArgs, ctx: League) -> list[Effect]:
    """/改分 <局号> <计分表>: a corrected sheet replaces a game's (the old one is kept)."""
    game = find_game(state, a.game)
    text = a.text
    try:
        group, no = sheetmod.parse_header(text)
    except ValueError as exc:
        raise Rejected(str(exc)) from None
    if group != game.group or (no is not None and no != game.no):
        raise Rejected(T.RESCORE_WRONG_GROUP.format(game=game.id, group=game.group, no=game.no))
    day = day_of_game(state, game)
    parsed = parse_sheet(state, ctx.settings, text, day, group)
    _check_awards(state, ctx.settings, game.id, parsed)
    game.history.append(Correction(at=ctx.now.isoformat(), by=actor.user_id, sheet=game.sheet))
    game.sheet = text
    game.parsed = sheetmod.parsed(parsed)
    game.points = sheetmod.score(parsed, ctx.settings, 2 if game.double else 1)
    for v in state.violations:  # the old sheet's violations give way to the new sheet's (kept for the audit)
        if v.game == game.id and v.source is Source.SHEET and v.reversed is None:
            v.reversed = Reversal(at=ctx.now.isoformat(), by=actor.user_id, reason=T.RESCORE_UNDO_REASON)
    effects = _violations_of(state, game, parsed, ctx, actor.user_id)
    audit(state, ctx, actor.user_id, T.AUDIT_RESCORE, T.AUDIT_RESCORE_DETAIL.format(game=game.id, n=len(game.history)))
    notes = sheet_notes(ctx.settings, parsed)
    return [Say("reply", T.RESCORE_DONE.format(game=game.id) + ("\n" + "\n".join(notes) if notes else "")),
            Say(chat_to(game.group, ctx.chats), T.RESCORE_GROUP + game_summary(state, ctx.settings, game, notes)),
            Say("hosts", T.RESCORE_HOSTS.format(by=actor.user_id, game=game.id, group=game.group, no=game.no))] + effects


def void(state: State, actor: Actor, a: VoidArgs, ctx: League) -> list[Effect]:
    """/流局 <局号> [原因]: only the game's violations count (§十一.3)."""
    game = find_game(state, a.game)
    if game.status is GameStatus.VOID:
        raise Rejected(T.VOID_TWICE.format(game=game.id))
    reason = a.reason.strip() or T.VOID_DEFAULT_REASON
    game.status = GameStatus.VOID
    game.void_reason = reason
    audit(state, ctx, actor.user_id, T.AUDIT_VOID, T.AUDIT_VOID_DETAIL.format(game=game.id, reason=reason))
    return [Say("reply", T.VOID_DONE.format(game=game.id, group=game.group, no=game.no)),
            Say(chat_to(game.group, ctx.chats), T.VOID_GROUP.format(game=game.id, group=game.group, no=game.no,
                                                                    reason=reason))]


def player_games(state: State, r: int, seat: int) -> list[Game]:
    return [g for g in state.games if g.round == r and seat in g.points]


def template(state: State, actor: Actor, a: TemplateArgs, ctx: League) -> list[Effect]:
    """/录分模板 <组> [第N场]: the sheet with the seated lineup (game seat = position) and a
    placeholder for each role; the board's roles and their event words in comments.
    /录分模板 <局号>: that game's sheet as entered, to correct with /改分."""
    text = a.game.strip()
    if text.lstrip("#").isdigit():
        game = find_game(state, int(text.lstrip("#")))
        return [Say("reply", T.TEMPLATE_ENTERED.format(game=game.id) + game.sheet)]
    try:
        group, no = sheetmod.parse_header(text)
    except ValueError:
        raise Rejected(T.TEMPLATE_USAGE) from None
    r = state.round
    rnd = state.rounds[r]
    if group not in rnd.groups:
        raise Rejected(T.GROUP_UNKNOWN.format(group=group, known=T.SEP.join(sorted(rnd.groups))))
    if no is None:
        taken = _taken(state, r, group)
        opened = _opened(state, r)
        no = next((n for n in opened if n not in taken), opened[-1] if opened else 1)
    day = _day_of_no(state, r, no)
    if day is None:
        raise Rejected(T.TEMPLATE_DAY_NOT_OPEN.format(group=group, no=no))
    if Step.SEAT not in day.done:
        raise Rejected(T.TEMPLATE_NOT_SEATED.format(group=group, no=no, seat=ctx.settings.times.seat))
    board = ctx.settings.boards[day.board].roles
    roles = ctx.settings.roles
    lines = [T.TEMPLATE_HEADER.format(group=group, no=no),
             T.TEMPLATE_BOARD.format(board=day.board,
                                     roles=T.SEP.join(T.ROLE_COUNT.format(role=k, n=v) for k, v in board.items())),
             T.TEMPLATE_EVENTS.format(events=T.TEMPLATE_EVENTS_SEP.join(
                 T.TEMPLATE_ROLE_EVENTS.format(role=k, events=" ".join(roles[k].events))
                 for k in board if roles[k].events)),
             T.TEMPLATE_OTHER,
             T.TEMPLATE_WINNER]
    for i, seat in enumerate(day.lineups[group], 1):
        lines.append(T.TEMPLATE_POSITION.format(pos=i, who=name(state, seat)))
        lines.append(T.TEMPLATE_PLAYER.format(pos=i, seat=seat))
    return [Say("reply", "\n".join(lines))]
