"""【游戏流程】<3、竞拍马甲>: the auction of the script's characters (马甲), the first phase
after /开始 when the host loaded a character list (``characters``).

Bids are private (/竞拍 第一志愿=角色:硬币 第二志愿=角色:硬币 随机号码=1–999) and may change
until the close. At the close: random numbers -> guard or prisoner (as without an auction),
then each character goes to the highest first-choice bid (ties: the earlier bid), then the
second choices, then the rest are drawn; a character tied to a camp only goes to that camp.
The character won becomes the player's alias (马甲) for the game (kernel ``Rename``)."""

from __future__ import annotations

import re
from typing import Any

from plugins.kernel.contract import Ctx, Ignored, Rejected, Rename, Say, Seat

from . import common as c
from . import model as m
from . import rules_setup

CHOICES = (("first", "第一志愿"), ("second", "第二志愿"))
LABELS = {"第一志愿": "first", "第二志愿": "second", "随机号码": "number", "随机数": "number"}
CAMP_TEXT = {"guard": "看守", "prisoner": "囚犯", "any": "任意"}
HOW_TEXT = {"first": "第一志愿出价", "second": "第二志愿出价", "draw": "抽签"}
USAGE = "/竞拍 第一志愿=角色:硬币 第二志愿=角色:硬币 随机号码=1–999"
CHOICE_RE = re.compile(r"^(.+?)(?:[:：](\d+)\s*(?:币|枚)?)?$")


# ---- opening ---------------------------------------------------------------------------


def open_auction(roster: list[Seat], cfg: m.Settings, ctx: Ctx) -> tuple[m.JSON, list[Any]]:
    """/开始 with a character list: the auction phase; identities are dealt at its close."""
    chars = cfg["characters"]
    state: m.JSON = {
        "phase": "auction", "day": 0, "order": [], "players": {}, "nights": [], "result": None,
        "auction": {"bids": {}, "balances": {}, "results": {}},
    }
    fx: list[Any] = []
    notes: dict[int, str] = {}
    for s in sorted(roster, key=lambda x: x.seat):
        seat = s.seat
        state["order"].append(seat)
        state["players"][str(seat)] = {"seat": seat, "alias": s.alias, "user_id": s.user_id, "profile": dict(s.profile)}
        bal = int(cfg["auction"].get("balances", {}).get(str(seat), cfg["auction"]["coins"]))
        state["auction"]["balances"][str(seat)] = bal
        bid: dict[str, Any] = {"first": None, "second": None, "number": s.profile.get("number")}
        # sign-up fields (/资料 第一志愿=角色:硬币) are the opening bids when they are valid ones
        skipped: list[str] = []
        for key, label in CHOICES:
            raw = s.profile.get(key)
            if not raw:
                continue
            try:
                bid[key] = {**_parse_choice(cfg, label, str(raw)), "seq": ctx.seq}
                _check_bid(state, cfg, seat, bid)
            except Rejected as exc:
                bid[key] = None
                skipped.append(f"{label}「{raw}」没有记为出价：{exc}")
        state["auction"]["bids"][str(seat)] = bid
        if any(bid[k] for k, _ in CHOICES) or skipped:
            notes[seat] = "\n".join(([f"你报名时填写的志愿已记为出价：{_bid_text(state, seat)}。"] if any(bid[k] for k, _ in CHOICES) else [])
                                    + skipped)
    ends = c.enter(state, "auction", ctx, fx)
    when = "导演推进时" if ends is None else c.hhmm(ends, ctx)
    fx.append(Say("group", (
        "囚犯游戏开始，先竞拍马甲（【游戏流程】<3>）。本局剧本角色：\n" + char_list(cfg) + "\n"
        f"请私聊我 {USAGE}（随机号码决定你是看守还是囚犯）。出价匿名，截止（{when}）前可以改；"
        f"{'两个志愿合计' if cfg['auction']['limit'] == 'sum' else '每个志愿的出价各'}不超过你的硬币余额，"
        "只为拍得的角色付硬币。限看守/囚犯的角色只给该阵营。竞拍结束后发身份。"
    )))
    for seat in state["order"]:
        head = f"竞拍马甲：你有 {state['auction']['balances'][str(seat)]} 枚硬币，{when}截止。"
        tail = notes.get(seat) or f"请私聊 {USAGE}。"
        fx.append(Say(seat, head + "\n" + tail))
    fx.append(Say("hosts", f"竞拍马甲开始：{len(chars)} 个角色，{len(roster)} 人。"
                           f"{'到时自动' if ends else '发送 /推进 '}结束竞拍并发身份；结果表私聊给主持。"))
    return state, fx


def char_list(cfg: m.Settings) -> str:
    return "、".join(f"{ch['name']}" + ("" if ch["camp"] == "any" else f"（限{CAMP_TEXT[ch['camp']]}）")
                    for ch in cfg["characters"])


# ---- bidding ---------------------------------------------------------------------------


def _find(cfg: m.Settings, name: str) -> str:
    for ch in cfg["characters"]:
        if ch["name"].casefold() == name.casefold():
            return str(ch["name"])
    raise Rejected(f"没有角色「{name}」。本局角色：{'、'.join(ch['name'] for ch in cfg['characters'])}。")


def _parse_choice(cfg: m.Settings, label: str, value: str) -> dict[str, Any]:
    found = CHOICE_RE.match(value.strip())
    if not found or not found.group(1).strip() or re.search("[:：]", found.group(1)):
        raise Rejected(f"{label}请写成 角色:硬币（硬币为不小于 0 的整数），例如 {label}=柯南:10。")
    return {"name": _find(cfg, found.group(1).strip()), "coins": int(found.group(2) or 0)}


def _check_bid(state: m.JSON, cfg: m.Settings, seat: int, bid: dict[str, Any]) -> None:
    bal = state["auction"]["balances"][str(seat)]
    first, second = bid["first"], bid["second"]
    if first and second and first["name"] == second["name"]:
        raise Rejected(f"第一志愿和第二志愿不能是同一个角色「{first['name']}」，请换一个。")
    for key, label in CHOICES:
        if bid[key] and bid[key]["coins"] > bal:
            raise Rejected(f"{label}出价 {bid[key]['coins']} 币超过了你的余额 {bal} 币。")
    if cfg["auction"]["limit"] == "sum" and first and second and first["coins"] + second["coins"] > bal:
        raise Rejected(f"两个志愿合计 {first['coins'] + second['coins']} 币超过了你的余额 {bal} 币（本局两个志愿合计计算）。")


def _bid_text(state: m.JSON, seat: int) -> str:
    bid = state["auction"]["bids"][str(seat)]
    parts = []
    for key, label in CHOICES:
        ch = bid[key]
        parts.append(f"{label} {ch['name']} {ch['coins']} 币" if ch else f"{label} 未填")
    parts.append(f"随机号码 {bid['number']}" if bid["number"] is not None else "随机号码 未填（将随机抽取）")
    return "，".join(parts)


def bid(state: m.JSON, actor: Any, text: str, ctx: Ctx) -> list[Any]:
    """/竞拍 — private; changes only what it names; refused whole if any part is wrong.
    A host (not playing) gets the table of bids instead."""
    if actor.is_host and (actor.seat is None or str(actor.seat) not in state["players"]):
        if "auction" not in state:
            raise Rejected("本局没有竞拍马甲（没有载入剧本角色表 characters）。")
        if not actor.private:
            raise Rejected("出价表保密，请私聊我发送 /竞拍 查看。")
        return [Say("reply", host_table(state))]
    seat = c.member(state, actor)
    if state["phase"] != "auction":
        if "auction" in state:
            raise Rejected(f"竞拍已经结束，不能再出价。你的马甲是「{m.player(state, seat)['alias']}」（/我的身份 可查看）。")
        raise Rejected("本局没有竞拍马甲（导演没有载入剧本角色表），报名时的马甲就是你的马甲。")
    if not actor.private:
        raise Rejected(f"出价是匿名的，请私聊我发送 {USAGE}。")
    old = state["auction"]["bids"][str(seat)]
    new = {k: (dict(v) if isinstance(v, dict) else v) for k, v in old.items()}
    tokens = [tok for tok in re.split(r"[\s,，;；]+", (text or "").strip()) if tok]
    for tok in tokens:
        label, sep, value = tok.replace("＝", "=").partition("=")
        key = LABELS.get(label)
        if not sep or key is None or not value:
            raise Rejected(f"看不懂「{tok}」。请写成：{USAGE}（可只写要改的项，写 第二志愿=无 可清除）。")
        if key == "number":
            if not value.isdigit() or not 1 <= int(value) <= 999:
                raise Rejected("随机号码应为 1–999 的整数。")
            new["number"] = int(value)
        elif value == "无":
            new[key] = None
        else:
            choice = _parse_choice(ctx.settings, label, value)
            same = old[key] and old[key]["name"] == choice["name"] and old[key]["coins"] == choice["coins"]
            new[key] = old[key] if same else {**choice, "seq": ctx.seq}  # the time of a choice: its last change
    _check_bid(state, ctx.settings, seat, new)
    state["auction"]["bids"][str(seat)] = new
    head = "已记录你的出价" if tokens else "你现在的出价"
    bal = state["auction"]["balances"][str(seat)]
    return [Say("reply", f"{head}（到达 #{ctx.seq}）：{_bid_text(state, seat)}；余额 {bal} 币。竞拍截止前可以改。")]


# ---- the award -------------------------------------------------------------------------


def _fits(camp: str, kind: str) -> bool:
    return camp == "any" or camp == kind


def _feasible(free: list[dict[str, Any]], waiting: list[str]) -> bool:
    """Can every waiting player (their camps) still get a fitting free character? (Hall's
    condition for two camps and "any" characters.)"""
    g, p = waiting.count("guard"), waiting.count("prisoner")
    cg = sum(1 for ch in free if ch["camp"] == "guard")
    cp = sum(1 for ch in free if ch["camp"] == "prisoner")
    ca = sum(1 for ch in free if ch["camp"] == "any")
    return g <= cg + ca and p <= cp + ca and g + p <= cg + cp + ca


def award(order: list[int], kinds: dict[int, str], chars: list[dict[str, Any]],
          bids: dict[int, dict[str, Any]], rng: Any) -> dict[int, dict[str, Any]]:
    """seat -> {name, how (first|second|draw), coins, lost: {choice: why}}.

    Round 1 then round 2: bids sorted by coins (high first), then arrival (early first); equal
    coins at the same arrival (opening bids from the sign-up fields) are put in a drawn order.
    A bid wins if its character is free, fits the bidder's camp and still leaves every other
    player a fitting character. The players left draw, in seat order, among the fitting free
    characters (script order) that keep that true."""
    free = [dict(ch) for ch in chars]
    out: dict[int, dict[str, Any]] = {}
    lost: dict[int, dict[str, str]] = {s: {} for s in order}

    def waiting(without: int) -> list[str]:
        return [kinds[s] for s in order if s not in out and s != without]

    for key in ("first", "second"):
        cands = [(s, bids[s][key]) for s in order if s not in out and bids.get(s, {}).get(key)]
        cands.sort(key=lambda x: (-x[1]["coins"], x[1]["seq"], x[0]))
        i = 0
        while i < len(cands):  # shuffle runs of equal (coins, arrival)
            j = i
            while j < len(cands) and (cands[j][1]["coins"], cands[j][1]["seq"]) == (cands[i][1]["coins"], cands[i][1]["seq"]):
                j += 1
            if j - i > 1:
                run = cands[i:j]
                rng.shuffle(run)
                cands[i:j] = run
            i = j
        for s, choice in cands:
            ch = next((x for x in free if x["name"] == choice["name"]), None)
            if ch is None:
                lost[s][key] = "taken"
            elif not _fits(ch["camp"], kinds[s]):
                lost[s][key] = "camp"
            elif not _feasible([x for x in free if x is not ch], waiting(s)):
                lost[s][key] = "short"
            else:
                free.remove(ch)
                out[s] = {"name": ch["name"], "how": key, "coins": int(choice["coins"])}
    for s in order:
        if s in out:
            continue
        options = [ch for ch in free if _fits(ch["camp"], kinds[s])
                   and _feasible([x for x in free if x is not ch], waiting(s))]
        ch = rng.choice(options)
        free.remove(ch)
        out[s] = {"name": ch["name"], "how": "draw", "coins": 0}
    for s in order:
        out[s]["lost"] = lost[s]
    return out


# ---- closing ---------------------------------------------------------------------------

WHY = {"taken": "已被出价更高或更早的玩家拍得", "camp": "该角色限{camp}", "short": "要留给另一阵营（否则角色不够分）"}


def _result_text(state: m.JSON, cfg: m.Settings, seat: int, res: dict[str, Any], bal: int) -> str:
    bid_ = state["auction"]["bids"][str(seat)]
    lines = []
    for key, label in CHOICES:
        why = res["lost"].get(key)
        if why:
            camp = next(ch["camp"] for ch in cfg["characters"] if ch["name"] == bid_[key]["name"])
            lines.append(f"{label}「{bid_[key]['name']}」未拍得：{WHY[why].format(camp=CAMP_TEXT[camp])}。")
    if res["how"] == "draw":
        lines.append(f"你抽签分得马甲「{res['name']}」，不花硬币，余额 {bal} 币。")
    else:
        lines.append(f"你以{HOW_TEXT[res['how']]} {res['coins']} 币拍得马甲「{res['name']}」，余额 {bal - res['coins']} 币。")
    return "竞拍结果：" + "".join(lines) + "\n"


def close(state: m.JSON, ctx: Ctx) -> list[Any]:
    """The auction closes: deal camps and roles, award the characters, rename, begin."""
    a = state["auction"]
    host = ctx.settings.get("signup", {})
    roster: list[Seat] = []
    for seat in state["order"]:
        p = m.player(state, seat)
        profile = dict(p["profile"])
        b = a["bids"][str(seat)]
        if b["number"] is not None:
            profile["number"] = b["number"]
        for key, _ in CHOICES:
            profile[key] = f"{b[key]['name']}:{b[key]['coins']}" if b[key] else ""
        roster.append(Seat(seat, p["alias"], p["user_id"], profile))
    cfg = ctx.settings
    signup = rules_setup.signup_table(roster, host)
    dealt, numbers, draw_key = rules_setup.deal(roster, cfg, signup, ctx)
    kinds = {s: dealt[s][0] for s in state["order"]}
    bids = {s: a["bids"][str(s)] for s in state["order"]}
    won = award(state["order"], kinds, cfg["characters"], bids, ctx.rng)
    renamed = [Seat(s.seat, won[s.seat]["name"], s.user_id, s.profile) for s in roster]
    before = {s: _result_text(state, cfg, s, won[s], a["balances"][str(s)]) for s in state["order"]}
    new, fx = rules_setup.begin(renamed, signup, ctx, dealt, numbers, draw_key, before)
    results = {}
    for s in state["order"]:
        res = won[s]
        results[str(s)] = {**res, "balance": a["balances"][str(s)] - res["coins"]}
        new["players"][str(s)]["signup_alias"] = m.player(state, s)["alias"]
    new["auction"] = {"bids": a["bids"], "balances": a["balances"], "results": results, "closed_seq": ctx.seq}
    head: list[Any] = [
        Rename(tuple((s, won[s]["name"]) for s in state["order"])),
        Say("group", "竞拍结束，每人的马甲已换成拍得的角色（座位号不变，/名单 可查看）。"),
    ]
    state.clear()
    state.update(new)
    return head + [Say("hosts", host_table(state))] + fx


def host_table(state: m.JSON) -> str:
    """For hosts only: every bid, and after the close how each character went (with QQ)."""
    a = state["auction"]
    if state["phase"] == "auction":
        lines = [f"竞拍进行中（保密），已出价 {_bidders(state)}/{len(state['order'])} 人："]
        for s in state["order"]:
            p = m.player(state, s)
            lines.append(f"{s}号 {p['alias']}（QQ {p['user_id']}，余额 {a['balances'][str(s)]}）：{_bid_text(state, s)}")
        return "\n".join(lines)
    lines = ["竞拍结果（保密）："]
    for s in state["order"]:
        res = a["results"][str(s)]
        p = m.player(state, s)
        paid = f"{HOW_TEXT[res['how']]} {res['coins']} 币" if res["how"] != "draw" else "抽签"
        lines.append(f"{s}号 {res['name']} ← {paid}（报名马甲 {p['signup_alias']}，QQ {p['user_id']}；"
                     f"{_bid_text(state, s)}；分到{'看守' if p['kind'] == 'guard' else '囚犯'}）")
    return "\n".join(lines)


def _bidders(state: m.JSON) -> int:
    return sum(1 for s in state["order"] if any(state["auction"]["bids"][str(s)][k] for k, _ in CHOICES))


# ---- what the other entry points show during the auction ----------------------------------


def refuse_other(name: str) -> None:
    if name in ("relay", "post", "room.line"):
        raise Ignored()
    raise Rejected(f"现在是竞拍马甲阶段，身份还没有发。请私聊 {USAGE} 出价；竞拍结束后再用这个命令。")


def private_info(state: m.JSON, cfg: m.Settings, seat: int) -> str:
    return (f"竞拍马甲中：{_bid_text(state, seat)}；余额 {state['auction']['balances'][str(seat)]} 币。\n"
            f"本局角色：{char_list(cfg)}\n改出价：{USAGE}")


def status(state: m.JSON, cfg: m.Settings) -> str:
    return f"竞拍马甲：已出价 {_bidders(state)}/{len(state['order'])} 人。\n角色：{char_list(cfg)}"
