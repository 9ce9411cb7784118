"""Kernel commands for hosts: start, co-hosts, phases and deadlines, end,
settings, announcements and linked groups."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import tomllib

from plugins.gamekit.clock import fmt_local
from plugins.gamekit.contract import PHASE_TIMER, Rejected
from plugins.gamekit.settings import KERNEL_SETTINGS, deep_merge

from .. import tomlout
from ..clean import balance_bidi
from ..directory import directory
from ..models import Chat, Host
from ..work import Work
from .table import LIVE, Call, host_work, kernel_command


@kernel_command(("开始",), "/开始", "开始游戏（发身份等）", who="host", where="group", phases=("signup",))
async def start(call: Call) -> None:
    async def run(work: Work) -> None:
        g, kind = work.game, work.kind
        if g.status != "signup":
            raise Rejected("游戏已经开始了。")
        if len(work.players) < kind.min_players:
            raise Rejected(f"人数不足：{kind.title}至少需要 {kind.min_players} 人，现在 {len(work.players)} 人。")
        g.status, g.started_at = "running", call.now  # saved with the dealt state by the step
        work.audit(call.origin.user_id, "start", f"{len(work.players)} 人", at=call.now)  # written with it
        await work.step("start", origin=call.origin, now=call.now)

    await host_work(call, run, quick=True)  # the deal, its timers and 88 role messages: one write


@kernel_command(("加主持",), "/加主持 @某人", "添加副主持", who="host", phases=("signup", *LIVE))
async def add_host(call: Call) -> None:
    target = call.rest.strip()
    if not (target.startswith("@") and target[1:].isdigit()):
        raise Rejected("请 @ 要添加的人：/加主持 @某人")
    uid = target[1:]

    async def run(work: Work) -> None:
        if uid in work.hosts:
            raise Rejected("对方已经是主持了。")
        if work.player_of(uid):
            raise Rejected("对方是本局玩家，不能同时当主持。")
        work.insert(Host, {"game_id": work.game.id, "user_id": uid, "added_by": call.origin.user_id, "added_at": call.now})
        work.audit(call.origin.user_id, "add_host", uid, at=call.now)
        work.say("reply", "已添加副主持。", call.origin)
        work.refresh_directory = True

    await host_work(call, run)


@kernel_command(("推进",), "/推进", "立即结束当前阶段", who="host", phases=LIVE)
async def advance(call: Call) -> None:
    async def run(work: Work) -> None:
        if work.game.status != "running":
            raise Rejected("游戏不在进行中（暂停时请先 /继续）。")
        await work.cancel_timer(PHASE_TIMER)
        work.audit(call.origin.user_id, "advance", work.game.phase_label or "", at=call.now)
        work.say("group", f"主持结束了当前阶段：{work.game.phase_label or ''}。", None)
        await work.step("deadline", origin=call.origin, now=call.now, key=PHASE_TIMER)

    await host_work(call, run)


EXTEND_MINUTES = (-1440, 10080)  # a day back to a week on: a deadline is never moved by years


@kernel_command(("延时",), "/延时 <分钟>", "当前阶段延后 N 分钟（负数为提前，-1440 到 10080）", who="host", phases=LIVE,
                example="/延时 30")
async def extend(call: Call) -> None:
    low, high = EXTEND_MINUTES
    try:
        minutes = int(call.rest.strip())
    except ValueError:
        raise Rejected("请写分钟数：/延时 10") from None
    if not low <= minutes <= high:
        raise Rejected(f"延时只能在 {low} 到 {high} 分钟之间（最多提前一天、延后一周），例如 /延时 30。")

    async def run(work: Work) -> None:
        stuck = [t for t in await work.open_timers() if t.status == "stuck"]
        if stuck:  # a deadline whose work failed: try it again in N minutes
            if minutes <= 0:
                raise Rejected("出错停下的截止要往后延：/延时 <正数分钟>，或用 /推进 立即重试。")
            for t in stuck:
                t.status, t.attempts, t.ends_at = "armed", 0, call.now + timedelta(minutes=minutes)
                work.timer_changed(t, "status", "attempts", "ends_at")
            work.audit(call.origin.user_id, "extend", f"出错的截止 {minutes} 分钟后重试", at=call.now)
            work.say("reply", f"好的，{minutes} 分钟后（{fmt_local(stuck[0].ends_at, work.tz)}）重新处理这一步。", call.origin)
            return
        timers = [t for t in await work.timers() if t.key == PHASE_TIMER]
        if not timers:
            raise Rejected("当前阶段没有截止时间，无需延时。")
        t = timers[0]
        new = t.ends_at + timedelta(minutes=minutes)
        if work.game.status != "paused" and new <= call.now:
            raise Rejected("调整后的截止时间已过，如要立即结束请用 /推进。")
        if t.status == "paused":
            t.remaining = max(0.0, (t.remaining or 0) + minutes * 60)
            t.ends_at = new
            work.timer_changed(t, "remaining", "ends_at")
        else:
            await work.set_timer(PHASE_TIMER, new, call.now)
        work.audit(call.origin.user_id, "extend", f"{minutes} 分钟", at=call.now)
        work.say("group", f"主持将「{work.game.phase_label}」的截止时间调整为 {fmt_local(new, work.tz)}。", None)

    await host_work(call, run)


@kernel_command(("暂停",), "/暂停", "暂停游戏（计时停止）", who="host", phases=("running",))
async def pause(call: Call) -> None:
    async def run(work: Work) -> None:
        if work.game.status != "running":
            raise Rejected("游戏不在进行中，无法暂停。")
        for t in await work.timers():
            t.status, t.remaining = "paused", max(0.0, (t.ends_at - call.now).total_seconds())
            work.timer_changed(t, "status", "remaining")
        work.game.status = "paused"
        work.save(work.game)
        work.audit(call.origin.user_id, "pause", "", at=call.now)
        work.say("group", "游戏已暂停，计时停止。主持发送 /继续 后恢复。", None)

    await host_work(call, run)


@kernel_command(("继续",), "/继续", "恢复暂停的游戏", who="host", phases=("paused",))
async def resume(call: Call) -> None:
    async def run(work: Work) -> None:
        if work.game.status != "paused":
            raise Rejected("游戏没有暂停。")
        work.game.status = "running"
        work.save(work.game)
        phase_end = None
        for t in await work.timers():
            t.status = "armed"
            t.ends_at = call.now + timedelta(seconds=t.remaining or 0)
            t.remaining = None
            work.timer_changed(t, "status", "ends_at", "remaining")
            if t.key == PHASE_TIMER:
                phase_end = t.ends_at
        work.audit(call.origin.user_id, "resume", "", at=call.now)
        tail = f"，本阶段截止 {fmt_local(phase_end, work.tz)}" if phase_end else ""
        work.say("group", f"游戏继续{tail}。", None)

    await host_work(call, run)


@kernel_command(("结束",), "/结束 [理由]", "结束游戏并公布结果", who="host", phases=("signup", *LIVE), example="/结束 人数不够")
async def end(call: Call) -> None:
    reason = call.rest.strip() or "主持结束了游戏"

    async def run(work: Work) -> None:
        if work.game.status == "ended":
            raise Rejected("这局游戏已经结束了。")
        work.game.end_reason = reason
        engine = work.kind.engine
        tail = engine.reveal(work.game.state, settings=engine.settings_of(work.game.settings)) if work.game.state is not None else ""
        if work.game.state is not None:
            work.game.state = engine.wipe(engine.copy(work.game.state), settings=engine.settings_of(work.game.settings))
        await work.finish(f"【{work.kind.title}】游戏结束：{reason}。", call.now)
        if tail:
            work.say("group", tail, None)

    await host_work(call, run)


@kernel_command(("配置",), "/配置 [节 | TOML 文本]", "查看本局配置（TOML），写节名只看一节；开始前可修改，只写要改的项", who="host",
                phases=("signup", *LIVE), example='/配置 timezone = "Asia/Shanghai"')
async def configure(call: Call) -> None:
    text = call.rest.strip()

    async def run(work: Work) -> None:
        g = work.game
        if not text or ("=" not in text and "[" not in text and len(text.split()) == 1):
            if call.in_group:
                raise Rejected("配置里可能有私密设置（如暗号），请私聊我发送 /配置 查看。")
            work.say("reply", settings_view(g.settings, text), call.origin)
            return
        try:
            overrides = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise Rejected(f"配置格式有误（TOML）：{exc}") from None
        live_ok = set(overrides) <= {"anon_speech", "anon_plain", "anon_pictures"}  # switches hosts may flip any time
        if g.status == "ended" or (g.status != "signup" and not live_ok):
            raise Rejected("游戏已开始，配置不能再改（匿名发言开关除外；游戏内的调整请用该游戏的主持命令）。")
        kernel_keys = {k: overrides.pop(k, g.settings.get(k, default)) for k, default in KERNEL_SETTINGS.items()}
        tz = kernel_keys.pop("timezone")
        for k, v in kernel_keys.items():
            if not isinstance(v, bool):
                raise Rejected(f"{k} 只能是 true 或 false。")
        merged = deep_merge({k: v for k, v in g.settings.items() if k not in KERNEL_SETTINGS}, overrides)
        checked = work.kind.engine.check_settings(merged)
        try:
            ZoneInfo(tz)
        except Exception:
            raise Rejected(f"时区「{tz}」无效，例如 Asia/Shanghai。") from None
        g.settings = {**checked, **kernel_keys, "timezone": tz}
        work.save(g)
        work.audit(call.origin.user_id, "configure", text[:500], at=call.now)
        work.say("reply", "配置已更新。", call.origin)

    await host_work(call, run)


SHOW_WHOLE = 1500  # longer settings are shown as an overview of their sections


def settings_view(settings: dict, section: str) -> str:
    """/配置 [节]: the settings as TOML (what the host edits), or one section of them."""
    tail = "修改：/配置 后接 TOML 文本，只写要改的项（开始前）。"
    if section:
        path = section.split(".")
        node: object = settings
        for part in path:
            if not isinstance(node, dict) or part not in node:
                sections = "、".join(k for k, v in settings.items() if isinstance(v, (dict, list)))
                raise Rejected(f"配置里没有「{section}」。可看的节：{sections}。")
            node = node[part]
        nested: object = node
        for part in reversed(path):
            nested = {part: nested}
        return f"本局配置的「{section}」：\n{tomlout.dumps(nested)}\n{tail}"  # type: ignore[arg-type]
    whole = tomlout.dumps(settings)
    if len(whole) <= SHOW_WHOLE:
        return f"本局配置：\n{whole}\n{tail}"
    top = tomlout.dumps({k: v for k, v in settings.items() if not isinstance(v, (dict, list)) or v == []})
    parts = []
    for k, v in settings.items():
        if isinstance(v, (dict, list)) and v != []:
            parts.append(f"{k}（{len(v)} {'项' if isinstance(v, dict) else '条'}）")
    first = next((k for k, v in settings.items() if isinstance(v, (dict, list)) and v != []), "")
    return (f"本局配置（共 {len(whole)} 字，分节看）：\n{top}\n节：{'、'.join(parts)}\n"
            f"看一节：/配置 <节>，如 /配置 {first}。\n{tail}")


@kernel_command(("公告",), "/公告 [@全体] <内容>", "在游戏群发公告（写 @全体 才会提醒全体成员）", who="host",
                phases=("signup", *LIVE), example="/公告 今晚 21:00 开始第一轮")
async def announce(call: Call) -> None:
    text = balance_bidi(call.rest.strip())  # a bidi override closes before anything after it
    at_all = text.startswith("@全体")
    if at_all:
        text = text.removeprefix("@全体成员").removeprefix("@全体").strip()
    if not text:
        raise Rejected("请写公告内容：/公告 [@全体] <内容>")

    async def run(work: Work) -> None:
        work.post(f"【公告】{text}", at_all=at_all)
        work.audit(call.origin.user_id, "announce", ("@全体 " if at_all else "") + text[:200], at=call.now)

    await host_work(call, run)


@kernel_command(("绑定群",), "/绑定群 <游戏群号> <标签>", "在另一个群里发送，把这个群接到游戏上（联赛分组群、审讯房间）", who="host",
                where="group", phases=("signup", *LIVE), example="/绑定群 123456789 A组")
async def link_chat(call: Call) -> None:
    parts = call.rest.split()
    if not call.in_group or len(parts) != 2 or not parts[0].isdigit():
        raise Rejected("请在要接入的群里发送：/绑定群 <游戏群号> <标签>，例如 /绑定群 123456 A")
    main, label = parts
    here = call.origin.group_id or ""
    await directory.ensure_group(main)
    gid = directory.group_game.get(main)
    if gid is None or main in directory.chat_label:
        raise Rejected(f"群 {main} 现在没有游戏。")
    if here in directory.group_game:
        raise Rejected("这个群已经有游戏或已接到别的游戏上，不能再绑定。")
    if len(label) > 16 or any(ch.isspace() for ch in label):
        raise Rejected("标签最长 16 个字，不能有空格。")

    async def run(work: Work) -> None:
        if await Chat.exists(game_id=work.game.id, label=label):
            raise Rejected(f"标签「{label}」已经用过了，请换一个。")
        work.insert(Chat, {"game_id": work.game.id, "group_id": here, "label": label, "linked_by": call.origin.user_id,
                           "linked_at": call.now})
        work.audit(call.origin.user_id, "link_chat", f"{here} = {label}", at=call.now)
        work.say("reply", f"本群已接到群 {main} 的{work.kind.title}，标签「{label}」。", call.origin)
        work.refresh_directory = True

    await host_work(call, run, game_id=gid)


@kernel_command(("解绑群",), "/解绑群", "在接入的群里发送，解除绑定", who="host", where="group", phases=("signup", *LIVE))
async def unlink_chat(call: Call) -> None:
    here = call.origin.group_id or ""
    if here not in directory.chat_label:
        raise Rejected("这个群没有绑定到游戏上。")

    async def run(work: Work) -> None:
        for c in [c for c in work.chats if c.group_id == here]:
            work.delete(c)
        work.audit(call.origin.user_id, "unlink_chat", here, at=call.now)
        work.say("reply", "已解除绑定。", call.origin)
        work.refresh_directory = True

    await host_work(call, run, game_id=directory.group_game[here])

