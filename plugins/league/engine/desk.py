"""The referees' desk (the league's web page, hosts only): the current match day's games
with each group's lineup, the board's roles and their events, and a draft sheet filled in
by taps. A draft becomes the ordinary /录分 (or /改分) text; it is checked by running that
command's own rule on a copy of the state (nothing is stored), which also gives the
standing points it would leave. Pure: the page (``plugins/league/web.py``) passes the clock."""

from __future__ import annotations

from datetime import date
from typing import Any

import plugins.league.engine.texts as T
from plugins.gamekit.contract import Actor, Command, Ctx, Picture, Rejected

from .content import Settings
from .engine import ENGINE
from .rules_games import RescoreArgs, ScoreArgs, day_of_game, day_scored, parse_sheet, sheet_notes
from .standings import game_line, rows
from .state import Day, Game, GameStatus, Side, State, Step
from .texts import fmt, fmt_total
from .views import game_points_line, name

DESK = Actor("desk", None, True, True)  # who the check runs as: a referee in private (the page's own sender)
MAX_SEATS, MAX_EVENTS, MAX_LINES, MAX_DAY = 30, 30, 80, 30


# ---- what the desk shows ------------------------------------------------------------------


def board_view(settings: Settings, board: str) -> dict[str, Any]:
    """A board's roles with their counts, camps and events, as the role picker and the taps show them."""
    roles = []
    for role, n in settings.boards[board].roles.items():
        cfg = settings.roles[role]
        events = []
        for ev, e in cfg.events.items():
            if ev == T.BADGE:  # the 警徽 token is offered to every seat
                continue
            label = fmt(e.points) + (T.DESK_EVENT_CAP.format(cap=fmt(e.cap)) if e.cap is not None else "")
            label += T.DESK_EVENT_WON_ONLY if e.won_only else ""
            events.append({"name": ev, "label": label})
        roles.append({"role": role, "n": n, "side": T.SIDE_NAMES[Side(cfg.side)], "events": events})
    return {"name": board, "size": settings.boards[board].size, "roles": roles}


def _label(state: State, day: Day) -> str:
    when = date.fromisoformat(day.date)
    return T.DAY_LABEL.format(round=state.rounds[day.round].name, no=day.index + 1, month=when.month, day=when.day,
                              board=day.board)


def _entered(state: State, r: int, group: str, no: int) -> Game | None:
    return next((g for g in state.games if g.round == r and g.group == group and g.no == no
                 and g.status is GameStatus.OK), None)


def desk_view(state: State, settings: Settings) -> dict[str, Any]:
    """The current round's desk: the open match day's games (group by group, each with its
    draft: the lineup, or the sheet as entered), the games entered this round (to correct one),
    the round's boards and the words the taps write."""
    r = state.round
    boards = sorted({d.board for d in settings.rounds[r].days})
    out: dict[str, Any] = {
        "round": state.rounds[r].name, "day": None, "slots": [],
        "entered": [{"game": g.id, "label": T.DESK_GAME_LABEL.format(game=g.id, group=g.group, no=g.no, date=g.date)}
                    for g in state.games if g.round == r and g.status is GameStatus.OK],
        "boards": {b: board_view(settings, b) for b in boards},
        "sides": [T.SIDE_NAMES[Side.GOOD], T.SIDE_NAMES[Side.WOLF]],
        "violations": list(settings.violations),
        "labels": T.DESK_LABELS,
    }
    day = state.current_day()
    if day is None or state.finished:
        out["note"] = T.DESK_FINISHED if state.finished else T.DESK_NO_DAY
        return out
    seated = Step.SEAT in day.done
    out["day"] = {"label": _label(state, day), "board": day.board, "seated": seated, "complete": day_scored(state, day)}
    out["note"] = "" if seated else T.DESK_NOT_SEATED.format(seat=settings.times.seat)
    for no in range(day.first_no, day.first_no + day.games):
        for g in sorted(day.lineups):
            game = _entered(state, r, g, no)
            out["slots"].append({
                "key": f"{g}-{no}", "label": T.DESK_SLOT.format(group=g, no=no), "group": g, "no": no,
                "game": game.id if game else None,
                "status": T.DESK_ENTERED.format(game=game.id) if game else T.DESK_OPEN,
                "draft": draft_of_game(state, settings, game) if game else draft_for_slot(state, day, g, no)})
    return out


def draft_for_slot(state: State, day: Day, group: str, no: int) -> dict[str, Any]:
    """An empty sheet for one game: the group's lineup of the day (game seat = position)."""
    seats = [{"gseat": i, "seat": s, "name": name(state, s), "role": "", "events": [], "badge": False, "mvp": False,
              "svp": False, "violations": []} for i, s in enumerate(day.lineups[group], 1)]
    return {"group": group, "no": no, "game": None, "board": day.board, "winner": "", "seats": seats,
            "votes": [], "ties": [], "bind": None, "note": ""}


def _time_word(t: int | None) -> str:
    """The sheet's time key (night N = 2N-1, day N = 2N) as the desk shows it: 夜2, 日1, or ""."""
    if t is None:
        return ""
    return f"{T.SHEET_NIGHT_WORD}{(t + 1) // 2}" if t % 2 else f"{T.SHEET_DAY_WORD}{t // 2}"


def draft_of_game(state: State, settings: Settings, game: Game) -> dict[str, Any]:
    """An entered game's sheet as a draft, to correct with /改分."""
    day = day_of_game(state, game)
    draft: dict[str, Any] = {"group": game.group, "no": game.no, "game": game.id, "board": day.board,
                             "winner": T.SIDE_NAMES[game.parsed.winner], "seats": [], "votes": [], "ties": [],
                             "bind": game.parsed.bind_day, "note": ""}
    try:
        parsed = parse_sheet(state, settings, game.sheet, day, game.group)
    except Rejected:  # (a sheet entered before a change of the catalogue): the roles and results as stored
        draft["note"] = T.DESK_SHEET_UNREAD.format(game=game.id)
        draft["seats"] = [{"gseat": p.gseat, "seat": s, "name": name(state, s), "role": p.role, "events": [],
                           "badge": False, "mvp": p.mvp, "svp": p.svp, "violations": []}
                          for s, p in sorted(game.points.items(), key=lambda kv: kv[1].gseat)]
        return draft
    draft["seats"] = [{"gseat": p.gseat, "seat": p.seat, "name": name(state, p.seat), "role": p.role,
                       "events": [{"name": e.name, "time": _time_word(e.time)} for e in p.events for _ in range(e.count)],
                       "badge": p.badge, "mvp": p.mvp, "svp": p.svp, "violations": list(p.violations)}
                      for p in sorted(parsed.players, key=lambda p: p.gseat)]
    draft["votes"] = [{"day": v.day, "runoff": v.round == 2, "target": v.target, "voters": list(v.voters)}
                      for v in parsed.votes]
    draft["ties"] = [{"day": d, "stage": list(t.stage), "selfboom": t.selfboom} for d, t in sorted(parsed.ties.items())]
    return draft


# ---- a draft as the sheet text --------------------------------------------------------------


def _word(x: Any) -> str:
    """A name the draft carries (a role, an event, a violation type): one word, as a sheet has it."""
    if not isinstance(x, str) or not 0 < len(x) <= 20 or any(c.isspace() for c in x):
        raise ValueError(T.DESK_BAD_DRAFT)
    return x


def _int(x: Any, hi: int) -> int:
    if isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= hi:
        raise ValueError(T.DESK_BAD_DRAFT)
    return x


def _list(x: Any, most: int) -> list[Any]:
    if not isinstance(x, list) or len(x) > most:
        raise ValueError(T.DESK_BAD_DRAFT)
    return x


def _dict(x: Any) -> dict[str, Any]:
    if not isinstance(x, dict):
        raise ValueError(T.DESK_BAD_DRAFT)
    return x


def _time(x: Any) -> str:
    """"" (no time), 夜N or 日N."""
    if x in ("", None):
        return ""
    if not isinstance(x, str) or x[:1] not in (T.SHEET_NIGHT_WORD, T.SHEET_DAY_WORD) or not x[1:].isdigit():
        raise ValueError(T.DESK_BAD_DRAFT)
    _int(int(x[1:]), MAX_DAY)
    return x


def compose(draft: Any) -> tuple[str, dict[int, dict[str, int]]]:
    """The /录分 text of a draft, and which draft item each of its lines came from (the sheet's
    mistakes name lines: the desk marks the seat, vote or tie). ValueError for a malformed draft."""
    d = _dict(draft)
    group, no = d.get("group"), _int(d.get("no"), 99)
    if not isinstance(group, str) or not group.isalnum() or not group.isascii() or len(group) > 4:
        raise ValueError(T.DESK_BAD_DRAFT)
    lines = [T.TEMPLATE_HEADER.format(group=group, no=no)]
    where: dict[int, dict[str, int]] = {}
    winner = d.get("winner") or ""
    if winner:
        lines.append(T.SHEET_WIN_LINE.format(side=_word(winner)))
    for seat in _list(d.get("seats"), MAX_SEATS):
        s = _dict(seat)
        gseat, reg = _int(s.get("gseat"), MAX_SEATS), _int(s.get("seat"), 10**6)
        tokens = []
        for ev in _list(s.get("events", []), MAX_EVENTS):
            e = _dict(ev)
            time = _time(e.get("time"))
            tokens.append(_word(e.get("name")) + (T.SHEET_TIME_TOKEN.format(time=time) if time else ""))
        if s.get("badge") is True:
            tokens.append(T.BADGE)
        if s.get("mvp") is True:
            tokens.append(T.MVP_WORDS[0])
        if s.get("svp") is True:
            tokens.append(T.SVP_WORDS[0])
        tokens += [T.VIOLATION_PREFIXES[0] + _word(v) for v in _list(s.get("violations", []), MAX_EVENTS)]
        role = _word(s["role"]) if s.get("role") else T.ROLE_PLACEHOLDER
        lines.append(T.SHEET_PLAYER_LINE.format(gseat=gseat, seat=reg, role=role) + "".join(" " + t for t in tokens))
        where[len(lines)] = {"seat": gseat}
    for i, tie in enumerate(_list(d.get("ties", []), MAX_LINES)):
        t = _dict(tie)
        stage = [_int(x, MAX_SEATS) for x in _list(t.get("stage"), MAX_SEATS)]
        lines.append(T.SHEET_TIE_LINE.format(day=_int(t.get("day"), MAX_DAY), stage=" ".join(map(str, stage)),
                                             boom=T.SHEET_SELFBOOM if t.get("selfboom") is True else ""))
        where[len(lines)] = {"tie": i}
    for i, vote in enumerate(_list(d.get("votes", []), MAX_LINES)):
        v = _dict(vote)
        voters = [_int(x, MAX_SEATS) for x in _list(v.get("voters"), MAX_SEATS)]
        word = T.SHEET_RUNOFF_WORD if v.get("runoff") is True else T.SHEET_VOTE_WORD
        lines.append(T.SHEET_VOTE_LINE.format(word=word, day=_int(v.get("day"), MAX_DAY),
                                              target=_int(v.get("target"), MAX_SEATS), voters=" ".join(map(str, voters))))
        where[len(lines)] = {"vote": i}
    if d.get("bind") is not None:
        lines.append(T.SHEET_BIND_LINE.format(day=_int(d.get("bind"), MAX_DAY)))
    return "\n".join(lines), where


# ---- the check: the command's own rule on a copy ----------------------------------------------


def preview(state: State, settings: Settings, draft: Any, ctx: Ctx[Settings]) -> dict[str, Any]:
    """What /录分 (or /改分 for a draft of an entered game) would answer now: its mistakes, or the
    game's points and every player's standing total before and after. Nothing is stored."""
    try:
        text, where = compose(draft)
        game_id = None if draft.get("game") is None else _int(draft.get("game"), 10**6)
    except ValueError as exc:
        return {"ok": False, "errors": [str(exc)], "text": "", "where": {}}
    cmd = Command("rescore", RescoreArgs(game=game_id, text=text)) if game_id is not None else \
        Command("score", ScoreArgs(text=text))
    word = ENGINE.specs[cmd.name].words[0]  # the page sends the very command it checked
    base = {"text": text, "where": where, "word": word, "rest": text if game_id is None else f"{game_id} {text}"}
    try:
        out = ENGINE.apply(state, DESK, cmd, ctx)
    except Rejected as exc:
        errors = str(exc).splitlines()
        if len(errors) > 1 and errors[0] == T.SHEET_WRONG.format(errors="").strip():
            errors = errors[1:]  # the head 「计分表有误…」: the desk shows the mistakes themselves
        return base | {"ok": False, "errors": errors}
    new = out.state
    game = next(g for g in new.games if g.id == game_id) if game_id is not None else new.games[-1]
    parsed = parse_sheet(new, settings, game.sheet, day_of_game(new, game), game.group)
    before = {row.seat: row for row in rows(state, settings, game.round)}
    after = {row.seat: row for row in rows(new, settings, game.round)}
    points = []
    for seat, pts in sorted(game.points.items(), key=lambda kv: kv[1].gseat):
        plus, minus = game_line(new, settings, game, seat)
        old, now = before.get(seat), after.get(seat)
        points.append({"gseat": pts.gseat, "name": name(new, seat), "role": pts.role,
                       "result": T.CELL_WON if pts.won else T.CELL_LOST, "line": game_points_line(plus, minus),
                       "award": T.MVP if pts.mvp else T.SVP if pts.svp else "",
                       "before": fmt_total(old.total) if old else "", "after": fmt_total(now.total) if now else "",
                       "rank": now.rank if now else None})
    return base | {"ok": True, "errors": [], "notes": sheet_notes(settings, parsed), "points": points,
                   "title": T.DESK_PREVIEW_TITLE.format(group=game.group, no=game.no, winner=T.SIDE_NAMES[game.parsed.winner]),
                   "picture": any(isinstance(e, Picture) for e in out.effects)}


def open_game(state: State, settings: Settings, game_id: Any) -> dict[str, Any]:
    """An entered game of the round as a draft (to correct with /改分), with its board."""
    game = next((g for g in state.games if isinstance(game_id, int) and g.id == game_id
                 and g.status is GameStatus.OK), None)
    if game is None:
        return {"ok": False, "error": T.GAME_UNKNOWN.format(game=game_id)}
    draft = draft_of_game(state, settings, game)
    return {"ok": True, "draft": draft, "board": board_view(settings, draft["board"]),
            "label": T.DESK_GAME_LABEL.format(game=game.id, group=game.group, no=game.no, date=game.date)}
