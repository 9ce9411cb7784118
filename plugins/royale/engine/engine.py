"""The royale engine: dispatch to the rule modules on a copied state."""

from __future__ import annotations

from typing import Any

from plugins.kernel.contract import (
    KERNEL_BACK,
    KERNEL_OUT,
    PHASE_TIMER,
    Actor,
    Command,
    Ctx,
    Effect,
    Finish,
    Ignored,
    Outcome,
    Picture,
    Rejected,
    Restore,
    Say,
    Seat,
)

from . import content
from . import events as EV
from . import texts as T
from .content import Catalog
from .model import CAUSE_HOST, State, clone, ensure, equipped, player
from .rules_cycle import close_night, open_night, start
from .rules_death import check_end, kill, new_batch, ranking, wipe
from .rules_extra import HOST_COMMANDS, PLAYER_COMMANDS
from .rules_night import ACTIONS


def settings_of(ctx: Ctx) -> dict[str, Any]:
    return ctx.settings if ctx.settings else content.check({})


class RoyaleEngine:
    def check_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        return content.check(settings)

    def start(self, roster: list[Seat], ctx: Ctx) -> Outcome:
        if len(roster) < 2:
            raise Rejected("大逃杀至少需要 2 名玩家。")
        return marked(start(roster, ctx, settings_of(ctx)))

    def apply(self, state: State, actor: Actor, cmd: Command, ctx: Ctx) -> Outcome:
        return marked(self._apply(state, actor, cmd, ctx))

    def _apply(self, state: State, actor: Actor, cmd: Command, ctx: Ctx) -> Outcome:
        cfg = settings_of(ctx)
        if cmd.name in ACTIONS:
            if actor.seat is None or str(actor.seat) not in state["players"]:
                raise Ignored()
            return act(state, actor.seat, cmd.name, cmd.args, ctx)
        st = ensure(clone(state))
        if cmd.name in HOST_COMMANDS:
            if not actor.is_host:
                raise Rejected(T.HOST_ONLY)
            return Outcome(st, HOST_COMMANDS[cmd.name](st, actor, cmd.args, ctx, cfg))
        if cmd.name in PLAYER_COMMANDS:
            return Outcome(st, PLAYER_COMMANDS[cmd.name](st, actor, cmd.args, ctx, cfg))
        if cmd.name == KERNEL_OUT:
            return Outcome(st, self._out(st, cmd.args))
        if cmd.name == KERNEL_BACK:
            return Outcome(st, self._back(st, cmd.args))
        if cmd.name == "shop":
            return Outcome(st, [Say("reply", shop_text(st, cfg))])
        if cmd.name == "airdrop":
            if not actor.is_host:
                raise Rejected(T.HOST_ONLY)
            return Outcome(st, self._airdrop(st, cfg, cmd.args.get("items", "")))
        if cmd.name == "bag" and actor.seat is not None and str(actor.seat) in st["players"]:
            return Outcome(st, [Say("reply", bag_text(st, cfg, actor.seat))])
        raise Ignored()

    def deadline(self, state: State, key: str, ctx: Ctx) -> Outcome:
        st = ensure(clone(state))
        if key != PHASE_TIMER or st["phase"] == "over":
            return Outcome(st, [])
        cfg = settings_of(ctx)
        if st["phase"] == "day":
            return marked(open_night(st, cfg, ctx))
        return marked(close_night(st, cfg, ctx))

    def private_info(self, state: State, seat: int) -> str:
        if str(seat) not in state["players"]:
            return "你不在这局游戏中。"
        return bag_text(state, None, seat)

    def reveal(self, state: State) -> str:
        """Posted after a host's /结束: a test game says it keeps no records."""
        return T.TEST_TAG + T.TEST_NO_RECORDS if state.get("test") else ""

    def wipe(self, state: State) -> State:
        """/结束 of a 测试赛: 「测试赛事件结束后删档」 (other games keep everything)."""
        if not state.get("test"):
            return state
        return wipe(clone(state))

    def public_out(self, state: State) -> list[int]:
        """Deaths already announced: night deaths stay secret until the morning post."""
        return sorted(d["seat"] for d in state["deaths"][: state.get("deaths_posted", 0)])

    def status(self, state: State) -> str:
        day = state["day"]
        phase = {"day": f"第{day}天白天", "night": f"第{day}夜行动中", "over": "已结束"}[state["phase"]]
        names = list(state["ground"])
        opened = [p for p in names if p not in state["closed"]]
        lines = [
            f"大逃杀 {phase}，存活 {len(state['players']) - len(self.public_out(state))} 人（以公布为准），天气 {state['weather']}。",
            f"开放地点（{len(opened)}）：{'、'.join(opened)}",
            f"今晚缩圈：{T.names_or_none(state['closing'])}",
        ]
        today = [e["key"] for e in state.get("today", [])]
        if today:
            cfg = content.check({})
            names = [(EV.event_def(cfg, k) or {"name": k})["name"] for k in today]
            lines.append(f"今日事件：{'、'.join(names)}")
        if state.get("test"):
            lines.insert(0, T.TEST_TAG.strip("【】") + "：补给可 /申请，记录不计排名。")
        return "\n".join(lines)

    def tables(self, state: State) -> dict[str, list[list[Any]]]:
        log = [["天", "导演", "操作"]] + [[h["day"], h["by"], h["what"]] for h in state.get("host_log", [])]
        if state.get("test"):
            note = [["说明"], [T.TEST_NO_RECORDS]]
            return {"测试赛": note, "导演记录": log}
        rank = [["名次", "座位", "马甲", "出局夜", "死因", "凶手"]]
        for r in ranking(state):
            killer = player(state, r["killer"])["alias"] if r["killer"] is not None else ""
            rank.append([r["rank"], r["seat"], r["alias"], r["night"] or "", r["cause"], killer])
        players = [["座位", "马甲", "存活", "生命", "体力", "货币", "地点", "道具"]]
        for s in sorted(int(k) for k in state["players"]):
            p = player(state, s)
            players.append([s, p["alias"], "是" if p["alive"] else "否", p["hp"], p["st"], p["money"],
                            p["place"] or "", "、".join(i["name"] for i in p["items"])])
        ground = [["地点", "状态", "道具"]]
        for place, items in state["ground"].items():
            status = "已缩圈" if place in state["closed"] else ("今晚缩圈" if place in state["closing"] else "开放")
            ground.append([place, status, "、".join(i["name"] for i in items)])
        events = [["天", "事件"]] + [[x["day"], x["key"]] for x in state.get("event_log", [])]
        npcs = [["NPC", "出现", "地点", "存活", "生命", "死因", "击杀者"]]
        for n in state.get("npcs", []):
            d = next((x for x in state.get("npc_deaths", []) if x["id"] == n["id"]), None)
            killer = player(state, d["killer"])["alias"] if d and d["killer"] is not None else ""
            npcs.append([n["name"], n["day"], n["place"], "是" if n["alive"] else "否", max(n["hp"], 0),
                         d["cause"] if d else ("缩圈消失" if n.get("gone") else ""), killer])
        return {"排名": rank, "玩家": players, "地点": ground, "事件": events, "NPC": npcs, "导演记录": log}

    # ---- kernel and host commands ------------------------------------------------

    def _out(self, st: State, args: dict[str, Any]) -> list[Effect]:
        seat = args.get("seat")
        if str(seat) not in st["players"]:
            raise Rejected(T.NO_SUCH_SEAT.format(seat=seat))
        p = player(st, seat)
        if not p["alive"]:
            raise Rejected(T.ALREADY_OUT.format(alias=p["alias"]))
        effects = kill(st, p, CAUSE_HOST, batch=new_batch(st))
        return effects + check_end(st)

    def _back(self, st: State, args: dict[str, Any]) -> list[Effect]:
        seat = args.get("seat")
        if str(seat) not in st["players"]:
            raise Rejected(T.NO_SUCH_SEAT.format(seat=seat))
        p = player(st, seat)
        if p["alive"]:
            raise Rejected(T.NOT_OUT.format(alias=p["alias"]))
        if st["phase"] == "over":
            raise Rejected(T.OVER)
        p["alive"] = True
        p["hp"] = max(p["hp"], 1)
        if p["place"] in st["closed"]:
            p["place"] = None
        st["deaths"] = [d for d in st["deaths"] if d["seat"] != seat]
        st["deaths_posted"] = min(st["deaths_posted"], len(st["deaths"]))
        return [Restore(seat, str(args.get("reason", "")))]

    def _airdrop(self, st: State, cfg: dict[str, Any], text: str) -> list[Effect]:
        cat = Catalog(cfg)
        names = text.split()
        bad = [n for n in names if n not in cat.items]
        if not names or bad:
            raise Rejected(f"未知道具：{'、'.join(bad) or '（空）'}。请写道具全名。")
        st["airdrops"].extend(names)
        return [Say("reply", f"已加入空投：{'、'.join(names)}。名称将在早晨公示，当晚落地。")]


def marked(out: Outcome) -> Outcome:
    """测试赛: every group post (and picture, and the final summary) says it is a test."""
    if not out.state.get("test"):
        return out
    tag = T.TEST_TAG
    effects: list[Effect] = []
    for e in out.effects:
        if isinstance(e, Say) and e.to == "group" and not e.text.startswith(tag):
            e = Say(e.to, tag + e.text)
        elif isinstance(e, Picture) and e.to == "group":
            e = Picture(e.to, e.name, tag + e.caption)
        elif isinstance(e, Finish):
            e = Finish(tag + e.summary)
        effects.append(e)
    return Outcome(out.state, effects)


def act(state: State, seat: int, name: str, args: dict[str, Any], ctx: Ctx) -> Outcome:
    """One night action by ``seat`` (what a web page for night actions calls):
    same rules and refusals as the chat command ``name`` (see ``ACTIONS``)."""
    action = ACTIONS.get(name)
    if action is None:
        raise Rejected(f"没有「{name}」这个行动。")
    st = ensure(clone(state))
    if str(seat) not in st["players"]:
        raise Rejected("你不在这局游戏中。")
    return Outcome(st, action(st, seat, dict(args), ctx, settings_of(ctx)))


def bag_text(state: State, cfg: dict[str, Any] | None, seat: int) -> str:
    p = player(state, seat)
    cat = Catalog(cfg or content.check({}))
    w, a = equipped(p, "weapon"), equipped(p, "armour")
    where = p["place"] or "未出生"
    lines = [
        f"{p['alias']}（{seat}号）{'' if p['alive'] else '已出局，'}位置：{where}",
        f"生命 {p['hp']}，体力 {p['st']}，货币 {p['money']}" + (f"，流血 {p['bleed']}/夜" if p["bleed"] else "")
        + ("，今晚静养" if p["rest"] else ""),
        f"手上：武器 {T.item_line(cat, w) if w else '无'}；防具 {T.item_line(cat, a) if a else '无'}",
    ]
    h = equipped(p, "held")
    if h:
        lines.append(f"手上另拿：{T.item_line(cat, h)}")
    bag = [T.item_line(cat, it) for it in p["items"] if it is not w and it is not a and it is not h]
    lines.append(f"背包（共 {len(p['items'])} 件）：{T.names_or_none(bag)}")
    if p.get("claims"):
        from .events import claims_text

        lines.append("可领取：" + claims_text(p))
    return "\n".join(lines)


def shop_text(state: State, cfg: dict[str, Any]) -> str:
    rows = [f"{n} {price}货币（剩{state['shop'].get(n, 0)}）" for n, price in cfg["shop"]["prices"].items()]
    return "商店货架：" + "；".join(rows) + "。夜间 /购买 <物品>。"


ENGINE = RoyaleEngine()
