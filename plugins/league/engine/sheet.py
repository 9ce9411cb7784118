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
from typing import Any

SIDE_WORDS = {"好人": "good", "狼人": "wolf", "好人阵营": "good", "狼人阵营": "wolf"}
SIDE_NAMES = {"good": "好人", "wolf": "狼人"}
MVP_WORDS = ("全场最佳", "MVP", "mvp")
SVP_WORDS = ("败方最佳", "SVP", "svp")

HEADER_RE = re.compile(r"^([A-Za-z0-9]+)\s*组?(?:\s*第\s*(\d+)\s*场)?$")
WIN_RE = re.compile(r"^胜方?\s+(\S+)$")
VOTE_RE = re.compile(r"^(票|复票)\s*(\d+)\s+(\d+)\s*[:：]\s*(.*)$")
TIE_RE = re.compile(r"^平票\s*(\d+)\s+([\d\s]+?)\s*(自曝)?$")
BIND_RE = re.compile(r"^绑票\s*(\d+)$")
PLAYER_RE = re.compile(r"^(\d+)\s+(\S+)\s+(\S+)\s*(.*)$")
TOKEN_RE = re.compile(r"^(?P<name>[^×xX*@]+?)(?:[×xX*](?P<n>\d+))?(?:@(?P<t>[夜日]?)(?P<d>\d+))?$")


@dataclass
class Sheet:
    group: str
    game_no: int | None
    winner: str = ""
    players: list[dict[str, Any]] = field(default_factory=list)
    votes: list[dict[str, Any]] = field(default_factory=list)
    ties: dict[str, dict[str, Any]] = field(default_factory=dict)
    bind_day: int | None = None


def parse_header(text: str) -> tuple[str, int | None]:
    """The group and optional game number from the first non-empty line."""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = HEADER_RE.match(line)
        if not m:
            raise ValueError(f"第一行应为组名和场次，例如「A组 第1场」，收到「{line}」。")
        return m.group(1).upper(), int(m.group(2)) if m.group(2) else None
    raise ValueError("计分表是空的：第一行写组名，例如「A组 第1场」。")


def _time_key(kind: str, day: str | None) -> int | None:
    """Order of an event in the game: night N = 2N-1, day N = 2N."""
    if day is None:
        return None
    n = int(day)
    return 2 * n if kind == "日" else 2 * n - 1


def parse(text: str, cfg: dict[str, Any], board: str, lineup: list[int],
          resolve: dict[str, int], names: dict[int, str]) -> Sheet:
    """Parse and validate; raise ValueError with one Chinese line per mistake.

    ``lineup``: registration numbers allowed in this game; ``resolve``: alias or
    number text -> registration number; ``names``: registration number -> alias.
    """
    errors: list[str] = []
    roles_cfg = cfg["roles"]
    viol_cfg = cfg["violations"]
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
        where = f"第{lineno}行："
        if m := WIN_RE.match(line):
            side = SIDE_WORDS.get(m.group(1))
            if side is None:
                errors.append(f"{where}胜方只能写 好人 或 狼人。")
            elif sheet.winner:
                errors.append(f"{where}胜方写了两次。")
            else:
                sheet.winner = side
            continue
        if m := VOTE_RE.match(line):
            voters_txt = m.group(4).split()
            if not all(v.isdigit() for v in voters_txt):
                errors.append(f"{where}投票人应写座位号，用空格分开，例如「票 1 5: 1 2 3」。")
                continue
            sheet.votes.append({"day": int(m.group(2)), "target": int(m.group(3)),
                                "voters": [int(v) for v in voters_txt],
                                "round": 2 if m.group(1) == "复票" else 1, "line": lineno})
            continue
        if m := TIE_RE.match(line):
            stage = [int(s) for s in m.group(2).split()]
            if len(stage) < 2:
                errors.append(f"{where}平票至少写两个座位号，例如「平票 1 5 7」。")
                continue
            if m.group(1) in sheet.ties:
                errors.append(f"{where}第{m.group(1)}天的平票已在第{sheet.ties[m.group(1)]['line']}行写过。")
                continue
            sheet.ties[m.group(1)] = {"stage": stage, "selfboom": bool(m.group(3)), "line": lineno}
            continue
        if m := BIND_RE.match(line):
            sheet.bind_day = int(m.group(1))
            continue
        m = PLAYER_RE.match(line)
        if not m:
            errors.append(f"{where}看不懂「{line}」，选手行格式为「座位 选手 角色 [事件…]」。")
            continue
        gseat, who, role = int(m.group(1)), m.group(2), m.group(3)
        reg = resolve.get(who.lstrip("#"))
        ok = True
        if reg is None:
            errors.append(f"{where}找不到选手「{who}」，请写报名序号或马甲。")
            ok = False
        elif reg not in lineup:
            errors.append(f"{where}{names.get(reg, who)}（#{reg}）不在 {group}组 这一场的出场名单里。")
            ok = False
        elif reg in seen_players:
            errors.append(f"{where}{names.get(reg, who)} 已在第{seen_players[reg]}行出现过。")
            ok = False
        if gseat in seen_gseats:
            errors.append(f"{where}座位 {gseat} 已在第{seen_gseats[gseat]}行用过。")
            ok = False
        if role not in roles_cfg:
            errors.append(f"{where}没有「{role}」这个角色。")
            ok = False
        entry: dict[str, Any] = {"gseat": gseat, "seat": reg, "role": role, "events": [],
                                 "badge": False, "mvp": False, "svp": False, "violations": [], "line": lineno}
        for tok in m.group(4).split():
            if tok == "警徽":
                if badge_line is not None:
                    errors.append(f"{where}一局只有一个警徽，第{badge_line}行已经给过。")
                badge_line = badge_line or lineno
                entry["badge"] = True
                continue
            if tok in MVP_WORDS:
                entry["mvp"] = True
                continue
            if tok in SVP_WORDS:
                entry["svp"] = True
                continue
            if tok.startswith(("违规:", "违规：")):
                tm = TOKEN_RE.match(tok[3:])
                vname = tm.group("name") if tm else tok[3:]
                if vname not in viol_cfg:
                    errors.append(f"{where}违规类型「{vname}」不在违规表中（可用：{'、'.join(viol_cfg)}）。")
                else:
                    entry["violations"].extend([vname] * (int(tm.group("n") or 1) if tm else 1))
                continue
            tm = TOKEN_RE.match(tok)
            events = roles_cfg.get(role, {}).get("events", {})
            if not tm or tm.group("name") not in events:
                if role in roles_cfg:
                    allowed = "、".join(events) or "无"
                    errors.append(f"{where}{role} 没有「{tok}」这个事件（{role} 可记：{allowed}）。")
                continue
            entry["events"].append({"name": tm.group("name"), "count": int(tm.group("n") or 1),
                                    "time": _time_key(tm.group("t"), tm.group("d"))})
        if ok:
            assert reg is not None  # ok is cleared when the player was not found
            seen_players[reg] = lineno
            seen_gseats[gseat] = lineno
            entry["side"] = roles_cfg[role]["side"]
            entry["kind"] = roles_cfg[role]["kind"]
            sheet.players.append(entry)
    if errors:
        raise ValueError("\n".join(errors))
    _check_whole(sheet, cfg, board, errors)
    if errors:
        raise ValueError("\n".join(errors))
    return sheet


def _check_whole(sheet: Sheet, cfg: dict[str, Any], board: str, errors: list[str]) -> None:
    need = cfg["boards"][board]["roles"]
    size = sum(need.values())
    if not sheet.winner:
        errors.append("缺少胜方行，例如「胜方 好人」。")
    if len(sheet.players) != size:
        errors.append(f"版型「{board}」应有 {size} 名选手，计分表里有 {len(sheet.players)} 名。")
    got: dict[str, int] = {}
    for p in sheet.players:
        got[p["role"]] = got.get(p["role"], 0) + 1
    for role in sorted(set(need) | set(got)):
        if need.get(role, 0) != got.get(role, 0):
            errors.append(f"版型「{board}」中 {role} 应为 {need.get(role, 0)} 名，计分表里有 {got.get(role, 0)} 名。")
    gseats = {p["gseat"] for p in sheet.players}
    if gseats and gseats != set(range(1, size + 1)):
        errors.append(f"座位号应为 1~{size} 各一次。")
    by_seat = {p["gseat"]: p for p in sheet.players}
    seen: dict[tuple[int, int, int], int] = {}
    for v in sheet.votes:
        if v["target"] not in by_seat:
            errors.append(f"第{v['line']}行：被投的座位 {v['target']} 不在本局。")
        for voter in v["voters"]:
            if voter not in by_seat:
                errors.append(f"第{v['line']}行：投票人座位 {voter} 不在本局。")
            key = (v["day"], v["round"], voter)
            if key in seen:
                errors.append(f"第{v['line']}行：座位 {voter} 在第{v['day']}天同一轮投了两次（另见第{seen[key]}行）。")
            seen[key] = v["line"]
    for day, tie in sheet.ties.items():
        for s in tie["stage"]:
            if s not in by_seat:
                errors.append(f"第{tie['line']}行：第{day}天平票的座位 {s} 不在本局。")
    for v in sheet.votes:
        if v["round"] == 2 and str(v["day"]) not in sheet.ties:
            errors.append(f"第{v['line']}行：第{v['day']}天写了复票，但没有平票行；"
                          f"请先写「平票 {v['day']} 座位 座位」（§六（二）.3）。")
    mvps = [p for p in sheet.players if p["mvp"]]
    svps = [p for p in sheet.players if p["svp"]]
    if len(mvps) > 1:
        errors.append("全场最佳只能有一位。")
    if len(svps) > 1:
        errors.append("败方最佳只能有一位。")
    for p in svps:
        if sheet.winner and p["side"] == sheet.winner:
            errors.append(f"第{p['line']}行：败方最佳应来自失败方，座位 {p['gseat']} 在胜方。")
    for p in mvps + svps:
        blocked = [v for v in p["violations"] if cfg["violations"][v].get("blocks_award")]
        if blocked:
            errors.append(f"第{p['line']}行：座位 {p['gseat']} 有影响局势的违规（{blocked[0]}），不能参与评选（§七.3）。")
    bind_counts = sheet.bind_day is not None and sheet.winner == "wolf"
    policy = cfg["scoring"]["cap_policy"]
    for p in sheet.players:
        events_cfg = cfg["roles"][p["role"]].get("events", {})
        counts: dict[str, int] = {}
        for ev in p["events"]:
            counts[ev["name"]] = counts.get(ev["name"], 0) + ev["count"]
            if bind_counts and ev["time"] is None:
                errors.append(f"第{p['line']}行：座位 {p['gseat']}：绑票且狼人获胜的局，行为事件要写时间，例如「{ev['name']}@夜2」（§六（二）备注）。")
        if p["badge"] and "警徽" in events_cfg:
            counts["警徽"] = counts.get("警徽", 0) + 1
        for name, n in counts.items():
            ev_cfg = events_cfg[name]
            if "max" in ev_cfg and n > ev_cfg["max"]:
                errors.append(f"第{p['line']}行：座位 {p['gseat']}：{name} 每局最多 {ev_cfg['max']} 次，写了 {n} 次。")
        if policy == "reject":
            for grp, (total, cap) in _positive_groups(p, events_cfg).items():
                if total > cap + 1e-9:
                    errors.append(f"第{p['line']}行：座位 {p['gseat']}：{grp} 加分上限 +{_fmt(cap)}，写了 +{_fmt(total)}，请核对次数。")


def cap_notes(sheet: Sheet, cfg: dict[str, Any]) -> list[str]:
    """With ``cap_policy = "clamp"``: one note per player whose behaviour points
    exceed a cap (§六（二）.2 「上限+1」: counted up to the cap)."""
    notes = []
    for p in sheet.players:
        events_cfg = cfg["roles"][p["role"]].get("events", {})
        for grp, (total, cap) in _positive_groups(p, events_cfg).items():
            if total > cap + 1e-9:
                notes.append(f"第{p['line']}行 座位 {p['gseat']}：{grp} 写了 +{_fmt(total)}，"
                             f"按上限 +{_fmt(cap)} 计（§六（二）.2）。")
    return notes


def _positive_groups(p: dict[str, Any], events_cfg: dict[str, Any],
                     until: int | None = None) -> dict[str, tuple[float, float]]:
    groups: dict[str, tuple[float, float]] = {}
    for ev in p["events"]:
        if until is not None and ev["time"] is not None and ev["time"] >= until:
            continue
        ev_cfg = events_cfg[ev["name"]]
        if ev_cfg["points"] > 0 and "cap" in ev_cfg:
            grp = ev_cfg.get("group", ev["name"])
            total, _ = groups.get(grp, (0.0, ev_cfg["cap"]))
            groups[grp] = (total + ev_cfg["points"] * ev["count"], ev_cfg["cap"])
    return groups


def _fmt(x: float) -> str:
    return f"{x:g}"


def counted_votes(sheet: Sheet) -> dict[int, list[tuple[int, int]]]:
    """Votes that score, per voter seat: list of (day, target seat). §六（二）.3 tie rule.

    On a tie day: the players on the stage keep their first vote; if a wolf on
    the stage exploded everyone keeps their first vote; otherwise, once a
    runoff was held, everyone else is judged by the runoff vote.
    """
    days = sorted({v["day"] for v in sheet.votes})
    out: dict[int, list[tuple[int, int]]] = {}
    for day in days:
        first = {voter: v["target"] for v in sheet.votes if v["day"] == day and v["round"] == 1
                 for voter in v["voters"]}
        second = {voter: v["target"] for v in sheet.votes if v["day"] == day and v["round"] == 2
                  for voter in v["voters"]}
        tie = sheet.ties.get(str(day))
        if tie is None or tie["selfboom"] or not second:
            chosen = first
        else:
            stage = tie["stage"]
            chosen = {s: t for s, t in first.items() if s in stage}
            chosen.update({s: t for s, t in second.items() if s not in stage})
        for voter in sorted(chosen):
            out.setdefault(voter, []).append((day, chosen[voter]))
    return out


def score(sheet: Sheet, cfg: dict[str, Any], factor: int) -> dict[int, dict[str, Any]]:
    """Per registration number: the parts of this game's points and tie-break stats."""
    sc = cfg["scoring"]
    by_gseat = {p["gseat"]: p for p in sheet.players}
    bind_day = sheet.bind_day if sheet.winner == "wolf" else None
    cut_event = 2 * bind_day if bind_day is not None else None  # events from that day's vote on
    votes = counted_votes(sheet)
    out: dict[int, dict[str, Any]] = {}
    for p in sheet.players:
        events_cfg = cfg["roles"][p["role"]].get("events", {})
        won = p["side"] == sheet.winner
        # behaviour
        behaviour = behaviour_minus = 0.0
        for ev in p["events"]:
            if cut_event is not None and ev["time"] is not None and ev["time"] >= cut_event:
                continue
            ev_cfg = events_cfg[ev["name"]]
            if ev_cfg["points"] < 0 or "cap" not in ev_cfg:
                behaviour += ev_cfg["points"] * ev["count"]
                if ev_cfg["points"] < 0:
                    behaviour_minus += ev_cfg["points"] * ev["count"]
        if p["badge"] and "警徽" in events_cfg:
            ev_cfg = events_cfg["警徽"]
            behaviour += ev_cfg["points"]
        for _grp, (total, cap) in _positive_groups(p, events_cfg, cut_event).items():
            behaviour += min(total, cap)
        # votes
        vote = vote_minus = 0.0
        exempt = p["side"] == "wolf" or p["role"] in sc["vote_exempt"]
        if not exempt:
            plus = minus = 0.0
            for day, target in votes.get(p["gseat"], []):
                if bind_day is not None and day >= bind_day:
                    continue
                if by_gseat[target]["side"] == "wolf":
                    plus += sc["vote_wolf"]
                else:
                    minus += sc["vote_good"]
            vote = min(plus, sc["vote_cap"]) + minus
            vote_minus = minus
        badge = sc["wolf_badge"] if p["badge"] and p["side"] == "wolf" else 0.0
        award = (sc["mvp"] if p["mvp"] else 0.0) + (sc["svp"] if p["svp"] else 0.0)
        parts = {"win": sc["win"] if won else sc["loss"], "behaviour": behaviour, "vote": vote,
                 "badge": badge, "award": award}
        neg = (0.0 if won else sc["loss"]) + behaviour_minus + (vote_minus if not exempt else 0.0)
        out[p["seat"]] = {
            "plus": round((sum(parts.values()) - neg) * factor, 4), "minus": round(neg * factor, 4),
            "parts": {k: round(v * factor, 4) for k, v in parts.items()},
            "role": p["role"], "side": p["side"], "kind": p["kind"], "gseat": p["gseat"],
            "won": won, "mvp": p["mvp"], "svp": p["svp"],
        }
    return out


def sheet_to_json(sheet: Sheet) -> dict[str, Any]:
    """The game-level facts; per-player results live in the game's points."""
    return {"group": sheet.group, "game_no": sheet.game_no, "winner": sheet.winner,
            "votes": [{k: v[k] for k in ("day", "round", "target", "voters")} for v in sheet.votes],
            "ties": {d: {k: t[k] for k in ("stage", "selfboom")} for d, t in sheet.ties.items()},
            "bind_day": sheet.bind_day}
