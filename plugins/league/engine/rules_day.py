"""Match days: opening, check-in (§五), the 18:30/18:35/18:50 steps, substitutes (§十)."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone
from typing import Any

from plugins.kernel.clock import fmt_local, parse_hhmm
from plugins.kernel.contract import Actor, Ctx, Eliminate, Rejected, Say, SetPhase, SetTimer

from .model import ACTIVE, current_day, lineup_group, name, per_group, round_cfg
from .rules_admin import add_violation, audit
from .standings import UNRANKED, rows

STEPS = ("late", "demote", "seat")
TIMER_KEYS = {f"checkin.{s}": s for s in STEPS}
DATE_RE = re.compile(r"^(?:(\d{4})[-/.年])?(\d{1,2})[-/.月](\d{1,2})日?$")


def _at(day: dict[str, Any], key: str) -> datetime:
    return datetime.fromisoformat(day["times"][key])


def _hhmm(cfg: dict[str, Any], key: str) -> str:
    return cfg["times"][key]


def _parse_date(text: str | None, ctx: Ctx) -> date:
    today = ctx.now.astimezone(ctx.tz).date()
    if not text:
        return today
    m = DATE_RE.match(text.strip())
    if not m:
        raise Rejected(f"日期格式应为 月-日，例如 1-2，收到「{text}」。")
    try:
        return date(int(m.group(1) or today.year), int(m.group(2)), int(m.group(3)))
    except ValueError:
        raise Rejected(f"没有这一天：「{text}」。") from None


def open_day(state: dict[str, Any], actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Any]:
    if state["finished"]:
        raise Rejected("联赛已结束。")
    pending = catch_up(state, ctx)  # a previous day whose timers never fired is finished first
    r = state["round"]
    rc = round_cfg(ctx.settings, r)
    done = [d for d in state["days"] if d["round"] == r]
    if len(done) >= len(rc["days"]):
        raise Rejected(f"{rc['name']}的 {len(rc['days'])} 个比赛日都已开过，录完分后请用 /下一轮。")
    prev = current_day(state)
    if prev is not None and "seat" not in prev["done"] and _at(prev, "seat") > ctx.now:
        raise Rejected("上一个比赛日的签到还没结束，请等 18:50 之后再开新的比赛日。")
    when = _parse_date(args.get("date"), ctx)
    if when < ctx.now.astimezone(ctx.tz).date():
        raise Rejected(f"{when.month}月{when.day}日 已经过去了，请写今天或以后的日期。")
    times = {}
    for key in ("checkin_open", "late", "demote", "seat"):
        local = datetime.combine(when, parse_hhmm(_hhmm(ctx.settings, key)), tzinfo=ctx.tz)
        times[key] = local.astimezone(timezone.utc).isoformat()
    twice = next((d for d in state["days"] if d["date"] == when.isoformat()), None)
    if twice is not None:
        raise Rejected(f"{when.month}月{when.day}日 已经开过比赛日（{state['rounds'][twice['round']]['name']} "
                       f"第{twice['index'] + 1}比赛日），不能重复开；/分组 查看今天的出场名单。")
    index = len(done)
    dcfg = rc["days"][index]
    first_no = sum(d["games"] for d in rc["days"][:index]) + 1
    day = {"round": r, "index": index, "date": when.isoformat(), "board": dcfg["board"],
           "label": dcfg.get("label", ""), "games": dcfg["games"], "first_no": first_no,
           "times": times, "lineups": {g: list(m) for g, m in state["rounds"][r]["groups"].items()},
           "checked": {}, "late": [], "absent": [], "promoted": {}, "done": [], "forfeit": [],
           "demoted": []}
    state["days"].append(day)
    gap_effects = _fill_gaps(state, day, ctx)
    roles = "、".join(f"{k}×{v}" for k, v in ctx.settings["boards"][dcfg["board"]]["roles"].items())
    nos = "、".join(f"第{n}场" for n in range(first_no, first_no + dcfg["games"]))
    label = f"{rc['name']} 第{index + 1}比赛日 {when.month}月{when.day}日（{dcfg['board']}）"
    text = (f"{label}\n版型：{roles}\n本日：{nos}\n"
            f"{_hhmm(ctx.settings, 'checkin_open')}-{_hhmm(ctx.settings, 'late')} 请在分组群发送 /签到；"
            f"{_hhmm(ctx.settings, 'late')} 后签到记迟到扣 1 分，{_hhmm(ctx.settings, 'demote')} 仍未签到降为替补，"
            f"{_hhmm(ctx.settings, 'seat')} 未入座视为弃权。")
    unlinked = [g for g in sorted(day["lineups"]) if g not in ctx.chats]
    if unlinked and len(unlinked) < len(day["lineups"]):
        text += f"\n还没有绑定分组群的组（{'、'.join(g + '组' for g in unlinked)}）请在本群（主群）签到。"
    elif unlinked:
        text += "\n各组还没有绑定分组群，请在本群（主群）签到。"
    early = state.get("early", {}).pop(when.isoformat(), {})
    for key, at_iso in sorted(early.items(), key=lambda kv: kv[1]):
        if lineup_group(day, int(key)) is not None:
            day["checked"][key] = at_iso
    state.get("early", {}).clear()  # check-ins kept for another date are of no use now
    past = [step for step in STEPS if _at(day, step) <= ctx.now]
    lineups = []
    for g in sorted(day["lineups"]):
        if g in ctx.chats:
            lines = [f"{label} {g}组 出场名单："]
            lines += [f"{i}号位 {name(state, s)}" for i, s in enumerate(day["lineups"][g], 1)]
            lines.append(f"{_hhmm(ctx.settings, 'checkin_open')}-{_hhmm(ctx.settings, 'late')} 请在本群发送 /签到。")
            lineups.append(Say(f"chat:{g}", "\n".join(lines)))
    timers = [SetTimer(f"checkin.{step}", datetime.fromisoformat(times[step])) for step in STEPS if step not in past]
    effects = pending + [SetPhase(key=f"r{r + 1}d{index + 1}", label=label + " 签到"), *timers,
                         Say("group", text)] + lineups + gap_effects
    detail = f"{label}"
    if past:  # opened late: the steps whose time has passed run now, in order (§五)
        effects += catch_up(state, ctx)
        report = _late_open_report(state, day, past, ctx)
        effects.append(Say("reply", report))
        detail += "；" + report.splitlines()[0]
    audit(state, ctx, actor.user_id, "开赛日", detail)
    return effects


STEP_NAMES = {"late": "迟到扣分", "demote": "降为替补", "seat": "未入座弃权"}


def _late_open_report(state: dict[str, Any], day: dict[str, Any], past: list[str], ctx: Ctx) -> str:
    """What a late /开赛日 applied at once, with the real time of each step."""
    now = fmt_local(ctx.now, ctx.tz)
    counts = {"late": len(day["late"]), "demote": len(day["demoted"]), "seat": len(day["forfeit"])}
    done = "；".join(f"{_hhmm(ctx.settings, step)} {STEP_NAMES[step]}（{counts[step]} 人）" for step in past)
    lines = [f"开赛日开得晚：{done}，已按顺序立即执行，实际时间 {now}（已记入日志）。",
             f"开赛前已签到 {len(day['checked'])} 人（开赛前发送的 /签到 按发送时间计）。"]
    if counts["late"]:
        lines.append("如因开赛晚不应扣分，请用 /撤销 编号 理由 撤回，编号见 /我的积分 或 /导出。")
    rest = [s for s in STEPS if s not in past]
    if rest:
        lines.append("接下来：" + "、".join(f"{_hhmm(ctx.settings, s)} {STEP_NAMES[s]}" for s in rest) + "。")
    return "\n".join(lines)


def catch_up(state: dict[str, Any], ctx: Ctx, upto: str | None = None) -> list[Any]:
    """Run every check-in step whose time has come and that has not run yet.
    ``upto``: the step whose kernel timer fired — it and the steps before it run
    even if ``ctx.now`` is a little short of the stored time (the kernel's timer
    row is the authority; it may fire up to a second early)."""
    day = current_day(state)
    effects: list[Any] = []
    if day is None:
        return effects
    forced = STEPS[: STEPS.index(upto) + 1] if upto in STEPS else ()
    for step in STEPS:
        if step in day["done"] or (_at(day, step) > ctx.now and step not in forced):
            continue
        day["done"].append(step)
        day.setdefault("ran", {})[step] = ctx.now.isoformat()  # the real time the step ran
        effects += {"late": _late, "demote": _demote, "seat": _seat}[step](state, day, ctx)
    return effects


def _late(state: dict[str, Any], day: dict[str, Any], ctx: Ctx) -> list[Any]:
    effects: list[Any] = []
    late: dict[str, list[str]] = {}
    for g in sorted(day["lineups"]):
        for seat in day["lineups"][g]:
            if _checked_by(day, seat, "late") or str(seat) in day["promoted"]:
                continue
            late.setdefault(g, []).append(name(state, seat))
            day["late"].append(seat)
            tail = (f"请在 {_hhmm(ctx.settings, 'demote')} 前发送 /签到，否则降为替补。" if _at(day, "demote") > ctx.now
                    else "")
            effects.append(Say(seat, f"{_hhmm(ctx.settings, 'late')} 仍未签到，记迟到扣 1 分（§五）。{tail}"))
            effects += add_violation(state, seat, "迟到", day["round"], None, 1, "auto", ctx, "system")
    effects += per_group(f"{_hhmm(ctx.settings, 'late')} 未签到，记迟到（各扣 1 分）：", late, ctx.chats, "、")
    return effects


def _checked_by(day: dict[str, Any], seat: int, step: str) -> bool:
    """Checked in no later than the step's time (a check-in sent before a late
    /开赛日 keeps the time it was sent)."""
    at_iso = day["checked"].get(str(seat))
    return at_iso is not None and datetime.fromisoformat(at_iso) <= _at(day, step)


def substitutes(state: dict[str, Any], cfg: dict[str, Any], r: int, day: dict[str, Any] | None) -> list[int]:
    """§十.2/§十.3 order: never-demoted substitutes first (registration order in
    round 1, previous round ranking after), then this round's demoted players by
    current ranking."""
    used: set[int] = {s for m in state["rounds"][r]["groups"].values() for s in m}
    if day is not None:
        used |= {s for m in day["lineups"].values() for s in m} | set(day["demoted"])
    cands = sorted(int(k) for k, p in state["players"].items() if p["status"] == ACTIVE and int(k) not in used)
    demoted = state["rounds"][r]["demoted"]
    if r == 0:
        prev = {s: s for s in cands}
    else:
        ranking = state["rounds"][r - 1].get("ranking") or []
        prev = {s: (ranking.index(s) if s in ranking else UNRANKED) for s in cands}
    primary = sorted((s for s in cands if s not in demoted), key=lambda s: (prev[s], s))
    current = {row["seat"]: i for i, row in enumerate(rows(state, cfg, r))}
    secondary = sorted((s for s in cands if s in demoted), key=lambda s: (current.get(s, UNRANKED), s))
    return primary + secondary


def replace(state: dict[str, Any], day: dict[str, Any], seat: int, presumed_seated: bool,
            ctx: Ctx) -> tuple[int | None, str]:
    """Take ``seat`` out of today's lineup and the round's groups; the next
    substitute takes the same position. Returns (substitute or None, group)."""
    r = day["round"]
    g = lineup_group(day, seat) or ""
    queue = substitutes(state, ctx.settings, r, day)
    sub = queue[0] if queue else None
    for lineup in (day["lineups"][g], state["rounds"][r]["groups"].get(g, [])):
        if seat in lineup:
            i = lineup.index(seat)
            if sub is None:
                lineup.pop(i)
            else:
                lineup[i] = sub
    ref = state["rounds"][r].setdefault("order", {}).setdefault(g, [])
    if sub is not None and sub not in ref:  # the group's positions in order, for a reinstated player
        ref.insert(ref.index(seat) + 1 if seat in ref else len(ref), sub)
    if sub is not None:
        put_in(state, r, sub)
        day["promoted"][str(sub)] = g
        if presumed_seated:
            day["checked"][str(sub)] = ctx.now.isoformat()
    return sub, g


def put_in(state: dict[str, Any], r: int, sub: int) -> None:
    """A substitute takes a place: a member of the round, ranked on what they play
    (a player demoted earlier this round is ranked again, §五/§十.2 reading in RULES.md)."""
    rnd = state["rounds"][r]
    if sub not in rnd["members"]:
        rnd["members"].append(sub)
    if sub in rnd.get("benched", []):
        rnd["benched"].remove(sub)


def drop_from_round(state: dict[str, Any], seat: int, ctx: Ctx) -> list[Any]:
    """A player who left the league (disqualified, red card): before 18:50 the
    next substitute takes the place today; later, today's lineup stays as played
    and the place is refilled when the next match day opens."""
    day = current_day(state)
    before_seat = day is not None and "seat" not in day["done"] and ctx.now < _at(day, "seat")
    if day is not None and before_seat and lineup_group(day, seat) is not None:  # day repeated: a type checker narrows only here
        sub, g = replace(state, day, seat, False, ctx)
        if sub is None:
            return [Say("hosts", f"{g}组 空出一个位置，已没有可用替补，请裁判处理。")]
        pos = day["lineups"][g].index(sub) + 1
        return [Say(sub, f"你已递补进入 {g}组 {pos}号位，请在 {_hhmm(ctx.settings, 'seat')} 前发送 /签到 并按裁判指示入座。")]
    for members in state["rounds"][state["round"]]["groups"].values():
        if seat in members:
            members.remove(seat)
    return []


def _fill_gaps(state: dict[str, Any], day: dict[str, Any], ctx: Ctx) -> list[Any]:
    """At opening: groups short of players (someone left the league) take substitutes."""
    effects: list[Any] = []
    size = sum(ctx.settings["boards"][day["board"]]["roles"].values())
    for g in sorted(day["lineups"]):
        while len(day["lineups"][g]) < size:
            queue = substitutes(state, ctx.settings, day["round"], day)
            if not queue:
                effects.append(Say("hosts", f"{g}组 缺 {size - len(day['lineups'][g])} 人且没有可用替补，请裁判处理。"))
                break
            sub = queue[0]
            day["lineups"][g].append(sub)
            state["rounds"][day["round"]]["groups"][g].append(sub)
            state["rounds"][day["round"]].setdefault("order", {}).setdefault(g, []).append(sub)
            put_in(state, day["round"], sub)
            effects.append(Say(sub, f"你已递补进入 {g}组 {len(day['lineups'][g])}号位，比赛日请按时 /签到。"))
    return effects


def _demote(state: dict[str, Any], day: dict[str, Any], ctx: Ctx) -> list[Any]:
    effects: list[Any] = []
    lines: dict[str, list[str]] = {}
    for g in sorted(day["lineups"]):
        for seat in list(day["lineups"][g]):
            if _checked_by(day, seat, "demote") or str(seat) in day["promoted"]:
                continue
            rnd = state["rounds"][day["round"]]
            rnd["demoted"].append(seat)
            rnd.setdefault("benched", []).append(seat)
            day["demoted"].append(seat)
            sub, _ = replace(state, day, seat, False, ctx)
            effects.append(Say(seat, f"{_hhmm(ctx.settings, 'demote')} 仍未签到，你已降为替补（§十.3），"
                                     "退出本轮排名；之后按替补顺序等待通知，再次上场后按实际成绩排名。"))
            if sub is None:
                lines.setdefault(g, []).append(f"{g}组：{name(state, seat)} 降为替补，没有可用替补")
                effects.append(Say("hosts", f"{g}组 {name(state, seat)} 降为替补，但已没有可用替补，请裁判处理。"))
            else:
                pos = day["lineups"][g].index(sub) + 1
                lines.setdefault(g, []).append(f"{g}组：{name(state, seat)} 降为替补，{name(state, sub)} 递补 {pos}号位")
                effects.append(Say(sub, f"你已递补进入 {g}组 {pos}号位，请在 {_hhmm(ctx.settings, 'seat')} 前"
                                        "发送 /签到 并按裁判指示进入房间就座，否则视为弃权。"))
    effects += per_group(f"{_hhmm(ctx.settings, 'demote')} 替补调整：\n", lines, ctx.chats)
    return effects


def _seat(state: dict[str, Any], day: dict[str, Any], ctx: Ctx) -> list[Any]:
    effects: list[Any] = []
    lines: dict[str, list[str]] = {}
    refill = ctx.settings["options"]["refill_on_forfeit"]
    for g in sorted(day["lineups"]):
        for seat in list(day["lineups"][g]):
            if str(seat) in day["checked"] and seat not in day["absent"]:
                continue
            state["players"][str(seat)]["status"] = "forfeit"
            day["forfeit"].append(seat)
            effects.append(Eliminate(seat, f"{_hhmm(ctx.settings, 'seat')} 未入座，视为弃权（§十二.5）"))
            if refill:
                sub, _ = replace(state, day, seat, True, ctx)
            else:
                sub = None
                for lineup in (day["lineups"][g], state["rounds"][day["round"]]["groups"][g]):
                    if seat in lineup:
                        lineup.remove(seat)
            if sub is None:
                lines.setdefault(g, []).append(f"{g}组：{name(state, seat)} 弃权")
                effects.append(Say("hosts", f"{g}组 {name(state, seat)} 弃权，没有替补顶上，请裁判处理。"))
            else:
                lines.setdefault(g, []).append(f"{g}组：{name(state, seat)} 弃权，{name(state, sub)} 顶上")
                effects.append(Say(sub, f"{g}组 有选手弃权，你已顶上，请立即进入 {g}组 房间就座。"))
    effects += per_group(f"{_hhmm(ctx.settings, 'seat')} 未入座视为弃权（§十二.5）：\n", lines, ctx.chats)
    return effects


def checkin(state: dict[str, Any], actor: Actor, ctx: Ctx) -> list[Any]:
    day = current_day(state)
    today = ctx.now.astimezone(ctx.tz).date()
    if day is None or day["date"] != today.isoformat():
        early = _early_checkin(state, actor, ctx, today)
        if early is not None:
            return early
    if day is None:
        raise Rejected("现在没有进行中的比赛日，请等裁判开赛后再 /签到。")
    effects = catch_up(state, ctx)
    seat = actor.seat
    if seat is None:
        raise Rejected("你不是本届联赛的报名选手，不能签到。")
    if ctx.now < _at(day, "checkin_open"):
        opens = fmt_local(_at(day, "checkin_open"), ctx.tz)
        raise Rejected(f"签到 {opens} 开始，请到时再发 /签到。")
    g = lineup_group(day, seat)
    if g is None:
        if seat in day["demoted"]:
            raise Rejected(f"已过 {_hhmm(ctx.settings, 'demote')}，你已降为替补（§十.3），请等待替补通知。")
        if seat in day["forfeit"]:
            raise Rejected(f"已过 {_hhmm(ctx.settings, 'seat')}，你已视为弃权（§十二.5）。")
        raise Rejected("你不在今天的出场名单里；替补请等待递补通知。")
    wrong = wrong_chat(g, actor.chat, ctx.chats)
    if wrong:
        raise Rejected(wrong)
    if str(seat) in day["checked"]:
        raise Rejected(f"你已经签到过了：{g}组 {day['lineups'][g].index(seat) + 1}号位。")
    day["checked"][str(seat)] = ctx.now.isoformat()
    pos = day["lineups"][g].index(seat) + 1
    if seat in day["late"]:
        text = (f"签到成功：{g}组 {pos}号位（迟到，已扣 1 分）。{_hhmm(ctx.settings, 'seat')} 前按裁判指示进入房间就座。")
    else:
        text = f"签到成功：{g}组 {pos}号位。{_hhmm(ctx.settings, 'seat')} 前按裁判指示进入房间就座。"
    return effects + [Say("reply", text)]


def _early_checkin(state: dict[str, Any], actor: Actor, ctx: Ctx, today: date) -> list[Any] | None:
    """Today's check-in window is open but the referee has not opened today's match
    day yet: the check-in is kept with its time and applied when the day opens.
    None when this is not such a moment (the caller answers as usual)."""
    r = state["round"]
    if len([d for d in state["days"] if d["round"] == r]) >= len(round_cfg(ctx.settings, r)["days"]):
        return None
    if any(d["date"] == today.isoformat() for d in state["days"]):
        return None

    def local(key: str) -> datetime:
        return datetime.combine(today, parse_hhmm(_hhmm(ctx.settings, key)), tzinfo=ctx.tz)

    if not local("checkin_open") <= ctx.now < local("demote"):
        return None
    seat = actor.seat
    if seat is None:
        raise Rejected("你不是本届联赛的报名选手，不能签到。")
    groups = state["rounds"][r]["groups"]
    g = next((k for k, m in groups.items() if seat in m), None)
    if g is None:
        raise Rejected("你不在本轮的分组名单里；替补请等待递补通知。")
    wrong = wrong_chat(g, actor.chat, ctx.chats)
    if wrong:
        raise Rejected(wrong)
    kept = state.setdefault("early", {}).setdefault(today.isoformat(), {})
    pos = groups[g].index(seat) + 1
    if str(seat) in kept:
        raise Rejected(f"你已经签到过了：{g}组 {pos}号位（裁判开赛后生效）。")
    kept[str(seat)] = ctx.now.isoformat()
    late = ctx.now > local("late")
    return [Say("reply", f"签到已记下（{fmt_local(ctx.now, ctx.tz)}）：{g}组 {pos}号位。裁判还没开今天的比赛日，"
                         "开赛后按这个时间生效" + (f"；已过 {_hhmm(ctx.settings, 'late')}，将记迟到扣 1 分。" if late else "。"))]


def wrong_chat(group: str, chat: str | None, chats: tuple[str, ...]) -> str | None:
    """Why a check-in sent from ``chat`` ("main", a linked chat's label; None when
    unknown, taken as the main group) is in the wrong place, or None when it is right:
    a group with a linked chat checks in there; a group without one in the main group."""
    here = chat or "main"
    if group in chats:
        if here != group:
            return f"你是 {group}组，请到 {group}组 的分组群（标签「{group}」）发送 /签到，不要在这个群签到。"
        return None
    if here != "main":
        return f"你是 {group}组，{group}组 还没有绑定分组群，请在联赛主群发送 /签到。"
    return None


def absent(state: dict[str, Any], actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Any]:
    day = current_day(state)
    if day is None or "seat" in day["done"] or _at(day, "seat") <= ctx.now:
        raise Rejected("现在不在入座阶段（开赛日到 18:50 之间），不能记未到。")
    effects = catch_up(state, ctx)
    marked = []
    for seat in args["players"]:
        if lineup_group(day, seat) is None:
            raise Rejected(f"{name(state, seat)} 不在今天的出场名单里。")
        if seat not in day["absent"]:
            day["absent"].append(seat)
        marked.append(name(state, seat))
    return effects + [Say("reply", f"已记未到：{'、'.join(marked)}。{_hhmm(ctx.settings, 'seat')} 仍未入座将视为弃权。")]


def timer(state: dict[str, Any], key: str, ctx: Ctx) -> list[Any]:
    if key not in TIMER_KEYS:
        return []
    return catch_up(state, ctx, TIMER_KEYS[key])


def appeal_deadline(state: dict[str, Any], game: dict[str, Any], ctx: Ctx) -> datetime:
    """§八: 12:00 (settings) on the day after the match day."""
    when = date.fromisoformat(game["date"]) + timedelta(days=1)
    local = datetime.combine(when, parse_hhmm(_hhmm(ctx.settings, "appeal_until")), tzinfo=ctx.tz)
    return local.astimezone(timezone.utc)
