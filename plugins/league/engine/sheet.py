"""Referee scoresheets: parse a pasted text, validate it, compute each player's points.

Format (one item per line, blank lines and lines starting with # ignored)::

    A组 第1场                 header: group, optional game number of the round
    胜方 好人                 winning side: 好人 | 狼人
    1 张三 预言家 警徽 首日狼出   <game seat> <player> <role> [tokens...]
    2 #17 女巫 毒狼人@夜2 违规:擦边
    3 王五 狼人 全场最佳
    票 1 5: 1 2 3 4           day-1 exile vote: target seat 5, voters 1 2 3 4
    平票 1 5 7 [自曝]          day-1 tie between 5 and 7 (自曝: a wolf on the stage exploded)
    复票 1 5: 1 2 3           day-1 runoff vote
    绑票 3                    wolves bound the day-3 vote (counts only when wolves win)

Player tokens: a behaviour event of the role (``名称``, ``名称×2``, optional time
``@夜N`` / ``@日N``), ``警徽``, ``全场最佳``/``MVP``, ``败方最佳``/``SVP``,
``违规:类型`` (``×n`` allowed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import plugins.league.engine.texts as T

from .content import Event, Settings
from .state import Kind, Parsed, Parts, Points, Side, Tie, VoteLine

HEADER_RE = re.compile(T.SHEET_HEADER_PATTERN)
WIN_RE = re.compile(T.SHEET_WIN_PATTERN)
VOTE_RE = re.compile(T.SHEET_VOTE_PATTERN)
TIE_RE = re.compile(T.SHEET_TIE_PATTERN)
BIND_RE = re.compile(T.SHEET_BIND_PATTERN)
PLAYER_RE = re.compile(r"^(\d+)\s+(\S+)\s+(\S+)\s*(.*)$")
TOKEN_RE = re.compile(T.SHEET_TOKEN_PATTERN)


@dataclass
class SheetEvent:
    name: str
    count: int
    time: int | None  # night N = 2N-1, day N = 2N; None: not written


@dataclass
class SheetPlayer:
    gseat: int
    seat: int  # registration number
    role: str
    line: int
    events: list[SheetEvent] = field(default_factory=list)
    badge: bool = False
    mvp: bool = False
    svp: bool = False
    violations: list[str] = field(default_factory=list)
    side: Side = Side.GOOD
    kind: Kind = Kind.VILLAGER


@dataclass
class SheetVote:
    day: int
    target: int
    voters: list[int]
    round: int  # 1: the vote, 2: the runoff
    line: int


@dataclass
class SheetTie:
    stage: list[int]
    selfboom: bool
    line: int


@dataclass
class Sheet:
    group: str
    game_no: int | None
    winner: Side | None = None
    players: list[SheetPlayer] = field(default_factory=list)
    votes: list[SheetVote] = field(default_factory=list)
    ties: dict[int, SheetTie] = field(default_factory=dict)  # by day
    bind_day: int | None = None


def parse_header(text: str) -> tuple[str, int | None]:
    """The group and optional game number from the first non-empty line."""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = HEADER_RE.match(line)
        if not m:
            raise ValueError(T.SHEET_BAD_HEADER.format(line=line))
        return m.group(1).upper(), int(m.group(2)) if m.group(2) else None
    raise ValueError(T.SHEET_EMPTY)


def _time_key(kind: str, day: str | None) -> int | None:
    """Order of an event in the game: night N = 2N-1, day N = 2N."""
    if day is None:
        return None
    n = int(day)
    return 2 * n if kind == T.SHEET_DAY_WORD else 2 * n - 1


def parse(text: str, settings: Settings, board: str, lineup: list[int],
          resolve: dict[str, int], names: dict[int, str]) -> Sheet:
    """Parse and validate; raise ValueError with one Chinese line per mistake.

    ``lineup``: registration numbers allowed in this game; ``resolve``: alias or
    number text -> registration number; ``names``: registration number -> alias.
    """
    errors: list[str] = []
    roles_cfg = settings.roles
    viol_cfg = settings.violations
    group, game_no = parse_header(text)
    sheet = Sheet(group=group, game_no=game_no)
    header_seen = False
    seen_gseats: dict[int, int] = {}
    seen_players: dict[int, int] = {}
    badge_line: int | None = None
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if not header_seen:
            header_seen = True
            continue
        where = T.SHEET_WHERE.format(line=lineno)
        if m := WIN_RE.match(line):
            side = T.SIDE_WORDS.get(m.group(1))
            if side is None:
                errors.append(where + T.SHEET_WIN_WHICH)
            elif sheet.winner:
                errors.append(where + T.SHEET_WIN_TWICE)
            else:
                sheet.winner = side
            continue
        if m := VOTE_RE.match(line):
            voters_txt = m.group(4).split()
            if not all(v.isdigit() for v in voters_txt):
                errors.append(where + T.SHEET_VOTERS)
                continue
            sheet.votes.append(SheetVote(day=int(m.group(2)), target=int(m.group(3)), voters=[int(v) for v in voters_txt],
                                         round=2 if m.group(1) == T.SHEET_RUNOFF_WORD else 1, line=lineno))
            continue
        if m := TIE_RE.match(line):
            stage = [int(s) for s in m.group(2).split()]
            if len(stage) < 2:
                errors.append(where + T.SHEET_TIE_SHORT)
                continue
            day = int(m.group(1))
            if day in sheet.ties:
                errors.append(where + T.SHEET_TIE_TWICE.format(day=day, line=sheet.ties[day].line))
                continue
            sheet.ties[day] = SheetTie(stage=stage, selfboom=bool(m.group(3)), line=lineno)
            continue
        if m := BIND_RE.match(line):
            sheet.bind_day = int(m.group(1))
            continue
        m = PLAYER_RE.match(line)
        if not m:
            errors.append(where + T.SHEET_UNREADABLE.format(line=line))
            continue
        gseat, who, role = int(m.group(1)), m.group(2), m.group(3)
        reg = resolve.get(who.lstrip("#"))
        ok = True
        if reg is None:
            errors.append(where + T.SHEET_WHO_UNKNOWN.format(who=who))
            ok = False
        elif reg not in lineup:
            errors.append(where + T.SHEET_NOT_IN_LINEUP.format(alias=names.get(reg, who), seat=reg, group=group))
            ok = False
        elif reg in seen_players:
            errors.append(where + T.SHEET_PLAYER_TWICE.format(alias=names.get(reg, who), line=seen_players[reg]))
            ok = False
        if gseat in seen_gseats:
            errors.append(where + T.SHEET_GSEAT_TWICE.format(gseat=gseat, line=seen_gseats[gseat]))
            ok = False
        role_cfg = roles_cfg.get(role)
        if role_cfg is None:
            errors.append(where + T.SHEET_ROLE_UNKNOWN.format(role=role))
            ok = False
        entry = SheetPlayer(gseat=gseat, seat=reg or 0, role=role, line=lineno)
        for tok in m.group(4).split():
            if tok == T.BADGE:
                if badge_line is not None:
                    errors.append(where + T.SHEET_BADGE_TWICE.format(line=badge_line))
                badge_line = badge_line or lineno
                entry.badge = True
                continue
            if tok in T.MVP_WORDS:
                entry.mvp = True
                continue
            if tok in T.SVP_WORDS:
                entry.svp = True
                continue
            if tok.startswith(T.VIOLATION_PREFIXES):
                tm = TOKEN_RE.match(tok[3:])
                vname = tm.group("name") if tm else tok[3:]
                if vname not in viol_cfg:
                    errors.append(where + T.SHEET_VIOLATION_UNKNOWN.format(type=vname, known=T.SEP.join(viol_cfg)))
                else:
                    entry.violations.extend([vname] * (int(tm.group("n") or 1) if tm else 1))
                continue
            tm = TOKEN_RE.match(tok)
            events = role_cfg.events if role_cfg is not None else {}
            if not tm or tm.group("name") not in events:
                if role_cfg is not None:
                    allowed = T.SEP.join(events) or T.NOBODY
                    errors.append(where + T.SHEET_EVENT_UNKNOWN.format(role=role, token=tok, allowed=allowed))
                continue
            entry.events.append(SheetEvent(name=tm.group("name"), count=int(tm.group("n") or 1),
                                           time=_time_key(tm.group("t"), tm.group("d"))))
        if ok and reg is not None and role_cfg is not None:  # ok is cleared when the player or role was not found
            seen_players[reg] = lineno
            seen_gseats[gseat] = lineno
            entry.side = Side(role_cfg.side)
            entry.kind = Kind(role_cfg.kind)
            sheet.players.append(entry)
    if errors:
        raise ValueError("\n".join(errors))
    _check_whole(sheet, settings, board, errors)
    if errors:
        raise ValueError("\n".join(errors))
    return sheet


def _check_whole(sheet: Sheet, settings: Settings, board: str, errors: list[str]) -> None:
    need = settings.boards[board].roles
    size = sum(need.values())
    if not sheet.winner:
        errors.append(T.SHEET_NO_WINNER)
    if len(sheet.players) != size:
        errors.append(T.SHEET_SIZE.format(board=board, size=size, n=len(sheet.players)))
    got: dict[str, int] = {}
    for p in sheet.players:
        got[p.role] = got.get(p.role, 0) + 1
    for role in sorted(set(need) | set(got)):
        if need.get(role, 0) != got.get(role, 0):
            errors.append(T.SHEET_ROLE_COUNT.format(board=board, role=role, need=need.get(role, 0), n=got.get(role, 0)))
    gseats = {p.gseat for p in sheet.players}
    if gseats and gseats != set(range(1, size + 1)):
        errors.append(T.SHEET_GSEATS.format(size=size))
    by_seat = {p.gseat: p for p in sheet.players}
    seen: dict[tuple[int, int, int], int] = {}
    for v in sheet.votes:
        if v.target not in by_seat:
            errors.append(T.SHEET_TARGET_UNKNOWN.format(line=v.line, gseat=v.target))
        for voter in v.voters:
            if voter not in by_seat:
                errors.append(T.SHEET_VOTER_UNKNOWN.format(line=v.line, gseat=voter))
            key = (v.day, v.round, voter)
            if key in seen:
                errors.append(T.SHEET_VOTED_TWICE.format(line=v.line, gseat=voter, day=v.day, other=seen[key]))
            seen[key] = v.line
    for day, tie in sheet.ties.items():
        for s in tie.stage:
            if s not in by_seat:
                errors.append(T.SHEET_TIE_UNKNOWN.format(line=tie.line, day=day, gseat=s))
    for v in sheet.votes:
        if v.round == 2 and v.day not in sheet.ties:
            errors.append(T.SHEET_RUNOFF_NO_TIE.format(line=v.line, day=v.day))
    mvps = [p for p in sheet.players if p.mvp]
    svps = [p for p in sheet.players if p.svp]
    if len(mvps) > 1:
        errors.append(T.SHEET_MVP_ONE)
    if len(svps) > 1:
        errors.append(T.SHEET_SVP_ONE)
    for p in svps:
        if sheet.winner and p.side == sheet.winner:
            errors.append(T.SHEET_SVP_WINNER.format(line=p.line, gseat=p.gseat))
    for p in mvps + svps:
        blocked = [v for v in p.violations if settings.violations[v].blocks_award]
        if blocked:
            errors.append(T.SHEET_AWARD_VIOLATION.format(line=p.line, gseat=p.gseat, type=blocked[0]))
    bind_counts = sheet.bind_day is not None and sheet.winner == Side.WOLF
    policy = settings.scoring.cap_policy
    for p in sheet.players:
        events_cfg = settings.roles[p.role].events
        counts: dict[str, int] = {}
        for ev in p.events:
            counts[ev.name] = counts.get(ev.name, 0) + ev.count
            if bind_counts and ev.time is None:
                errors.append(T.SHEET_BIND_TIME.format(line=p.line, gseat=p.gseat, event=ev.name))
        if p.badge and T.BADGE in events_cfg:
            counts[T.BADGE] = counts.get(T.BADGE, 0) + 1
        if sheet.winner is not None and p.side != sheet.winner:
            for name in dict.fromkeys(ev.name for ev in p.events if events_cfg[ev.name].won_only):
                errors.append(T.SHEET_EVENT_WON_ONLY.format(line=p.line, gseat=p.gseat, role=p.role, event=name,
                                                            side=T.SIDE_NAMES[p.side],
                                                            winner=T.SIDE_NAMES[sheet.winner]))
        for name, n in counts.items():
            most = events_cfg[name].max
            if most is not None and n > most:
                errors.append(T.SHEET_EVENT_MAX.format(line=p.line, gseat=p.gseat, event=name, max=most, n=n))
        if policy == "reject":
            for grp, (total, cap) in _positive_groups(p, events_cfg).items():
                if total > cap + 1e-9:
                    errors.append(T.SHEET_CAP.format(line=p.line, gseat=p.gseat, group=grp, cap=_fmt(cap), total=_fmt(total)))


def cap_notes(sheet: Sheet, settings: Settings) -> list[str]:
    """With ``cap_policy = "clamp"``: one note per player whose behaviour points
    exceed a cap (§六（二）.2 「上限+1」: counted up to the cap)."""
    notes = []
    for p in sheet.players:
        events_cfg = settings.roles[p.role].events
        for grp, (total, cap) in _positive_groups(p, events_cfg).items():
            if total > cap + 1e-9:
                notes.append(T.SHEET_CAP_NOTE.format(line=p.line, gseat=p.gseat, group=grp, cap=_fmt(cap), total=_fmt(total)))
    return notes


def _positive_groups(p: SheetPlayer, events_cfg: dict[str, Event],
                     until: int | None = None) -> dict[str, tuple[float, float]]:
    groups: dict[str, tuple[float, float]] = {}
    for ev in p.events:
        if until is not None and ev.time is not None and ev.time >= until:
            continue
        ev_cfg = events_cfg[ev.name]
        if ev_cfg.points > 0 and ev_cfg.cap is not None:
            grp = ev_cfg.group if ev_cfg.group is not None else ev.name
            total, _ = groups.get(grp, (0.0, ev_cfg.cap))
            groups[grp] = (total + ev_cfg.points * ev.count, ev_cfg.cap)
    return groups


def _fmt(x: float) -> str:
    return f"{x:g}"


def counted_votes(sheet: Sheet) -> dict[int, list[tuple[int, int]]]:
    """Votes that score, per voter seat: list of (day, target seat). §六（二）.3 tie rule.

    On a tie day: the players on the stage keep their first vote; if a wolf on
    the stage exploded everyone keeps their first vote; otherwise, once a
    runoff was held, everyone else is judged by the runoff vote.
    """
    days = sorted({v.day for v in sheet.votes})
    out: dict[int, list[tuple[int, int]]] = {}
    for day in days:
        first = {voter: v.target for v in sheet.votes if v.day == day and v.round == 1 for voter in v.voters}
        second = {voter: v.target for v in sheet.votes if v.day == day and v.round == 2 for voter in v.voters}
        tie = sheet.ties.get(day)
        if tie is None or tie.selfboom or not second:
            chosen = first
        else:
            stage = tie.stage
            chosen = {s: t for s, t in first.items() if s in stage}
            chosen.update({s: t for s, t in second.items() if s not in stage})
        for voter in sorted(chosen):
            out.setdefault(voter, []).append((day, chosen[voter]))
    return out


def score(sheet: Sheet, settings: Settings, factor: int) -> dict[int, Points]:
    """Per registration number: the parts of this game's points and tie-break stats."""
    sc = settings.scoring
    by_gseat = {p.gseat: p for p in sheet.players}
    bind_day = sheet.bind_day if sheet.winner == Side.WOLF else None
    cut_event = 2 * bind_day if bind_day is not None else None  # events from that day's vote on
    votes = counted_votes(sheet)
    out: dict[int, Points] = {}
    for p in sheet.players:
        events_cfg = settings.roles[p.role].events
        won = p.side == sheet.winner
        # behaviour
        behaviour = behaviour_minus = 0.0
        for ev in p.events:
            if cut_event is not None and ev.time is not None and ev.time >= cut_event:
                continue
            ev_cfg = events_cfg[ev.name]
            if ev_cfg.points < 0 or ev_cfg.cap is None:
                behaviour += ev_cfg.points * ev.count
                if ev_cfg.points < 0:
                    behaviour_minus += ev_cfg.points * ev.count
        if p.badge and T.BADGE in events_cfg:
            behaviour += events_cfg[T.BADGE].points
        for _grp, (total, cap) in _positive_groups(p, events_cfg, cut_event).items():
            behaviour += min(total, cap)
        # votes
        vote = vote_minus = 0.0
        exempt = p.side == Side.WOLF or p.role in sc.vote_exempt
        if not exempt:
            plus = minus = 0.0
            for day, target in votes.get(p.gseat, []):
                if bind_day is not None and day >= bind_day:
                    continue
                if by_gseat[target].side == Side.WOLF:
                    plus += sc.vote_wolf
                else:
                    minus += sc.vote_good
            vote = min(plus, sc.vote_cap) + minus
            vote_minus = minus
        badge = sc.wolf_badge if p.badge and p.side == Side.WOLF else 0.0
        award = (sc.mvp if p.mvp else 0.0) + (sc.svp if p.svp else 0.0)
        parts = (sc.win if won else sc.loss, behaviour, vote, badge, award)
        neg = (0.0 if won else sc.loss) + behaviour_minus + (vote_minus if not exempt else 0.0)
        win, behaviour, vote, badge, award = (round(x * factor, 4) for x in parts)
        out[p.seat] = Points(
            plus=round((sum(parts) - neg) * factor, 4), minus=round(neg * factor, 4),
            parts=Parts(win=win, behaviour=behaviour, vote=vote, badge=badge, award=award),
            role=p.role, side=p.side, kind=p.kind, gseat=p.gseat, won=won, mvp=p.mvp, svp=p.svp)
    return out


def parsed(sheet: Sheet) -> Parsed:
    """The game-level facts; per-player results live in the game's points."""
    assert sheet.winner is not None  # parse refuses a sheet without one
    return Parsed(group=sheet.group, game_no=sheet.game_no, winner=sheet.winner,
                  votes=[VoteLine(day=v.day, round=v.round, target=v.target, voters=v.voters) for v in sheet.votes],
                  ties={d: Tie(stage=t.stage, selfboom=t.selfboom) for d, t in sheet.ties.items()},
                  bind_day=sheet.bind_day)
