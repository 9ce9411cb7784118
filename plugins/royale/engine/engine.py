"""The royale engine: the command table (each row names its rule), timers,
the 测试赛 tag on group posts and the kernel's hooks."""

from __future__ import annotations

from typing import Any

from plugins.kernel.contract import (
    PHASE_TIMER,
    Actor,
    Ctx,
    Effect,
    Finish,
    GameEngine,
    Ignored,
    Outcome,
    Picture,
    Rejected,
    Restore,
    Say,
    Seat,
    copy_state,
)

from . import content
from . import events as EV
from . import texts as T
from .commands import COMMANDS, bag_text, settings_of
from .model import CAUSE_HOST, State, ensure, player
from .rules_cycle import close_night, open_night, start
from .rules_death import check_end, kill, new_batch, ranking, wipe
from .rules_night import ACTIONS


class RoyaleEngine(GameEngine):
    def __init__(self) -> None:
        super().__init__(COMMANDS)

    def check_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        return content.check(settings)

    def start(self, roster: list[Seat], ctx: Ctx) -> Outcome:
        if len(roster) < 2:
            raise Rejected("大逃杀至少需要 2 名玩家。")
        out = start(roster, ctx, settings_of(ctx))
        return Outcome(out.state, self.after(out.state, out.effects))

    def upgrade(self, state: State) -> State:
        """Fill keys added after a game started (older states keep working)."""
        return ensure(state)

    def unknown(self, name: str) -> list[Effect]:
        raise Ignored()

    def group_tag(self, state: State) -> str:
        """测试赛: the kernel's own group posts (cards, /推进, /公告 …) are marked too."""
        return T.TEST_TAG if isinstance(state, dict) and state.get("test") else ""

    def after(self, state: State, effects: list[Effect]) -> list[Effect]:
        """测试赛: every group post (and picture, and the final summary) says it is a test."""
        if not state.get("test"):
            return effects
        tag = T.TEST_TAG
        out: list[Effect] = []
        for e in effects:
            if isinstance(e, Say) and e.to == "group" and not e.text.startswith(tag):
                e = Say(e.to, tag + e.text)
            elif isinstance(e, Picture) and e.to == "group":
                e = Picture(e.to, e.name, tag + e.caption)
            elif isinstance(e, Finish):
                e = Finish(tag + e.summary)
            out.append(e)
        return out

    def on_deadline(self, state: State, key: str, ctx: Ctx) -> list[Effect]:
        if key != PHASE_TIMER or state["phase"] == "over":
            return []
        cfg = settings_of(ctx)
        if state["phase"] == "day":
            return open_night(state, cfg, ctx).effects
        return close_night(state, cfg, ctx).effects

    def kernel_out(self, state: State, actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Effect]:
        seat = args.get("seat")
        if not isinstance(seat, int) or str(seat) not in state["players"]:
            raise Rejected(T.NO_SUCH_SEAT.format(seat=seat))
        p = player(state, seat)
        if not p["alive"]:
            raise Rejected(T.ALREADY_OUT.format(alias=p["alias"]))
        effects = kill(state, p, CAUSE_HOST, batch=new_batch(state))
        return effects + check_end(state)

    def kernel_back(self, state: State, actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Effect]:
        seat = args.get("seat")
        if not isinstance(seat, int) or str(seat) not in state["players"]:
            raise Rejected(T.NO_SUCH_SEAT.format(seat=seat))
        p = player(state, seat)
        if p["alive"]:
            raise Rejected(T.NOT_OUT.format(alias=p["alias"]))
        if state["phase"] == "over":
            raise Rejected(T.OVER)
        p["alive"] = True
        p["hp"] = max(p["hp"], 1)
        if p["place"] in state["closed"]:
            p["place"] = None
        state["deaths"] = [d for d in state["deaths"] if d["seat"] != seat]
        state["deaths_posted"] = min(state["deaths_posted"], len(state["deaths"]))
        return [Restore(seat, str(args.get("reason", "")))]

    def private_info(self, state: State, seat: int, settings: dict[str, Any] | None = None) -> str:
        if str(seat) not in state["players"]:
            return "你不在这局游戏中。"
        return bag_text(state, None, seat)

    def reveal(self, state: State, settings: dict[str, Any] | None = None) -> str:
        """Posted after a host's /结束: a test game says it keeps no records."""
        return T.TEST_TAG + T.TEST_NO_RECORDS if state.get("test") else ""

    def wipe(self, state: State) -> State:
        """/结束 of a 测试赛: 「测试赛事件结束后删档」 (other games keep everything);
        ``state`` is the kernel's copy."""
        if not state.get("test"):
            return state
        return wipe(state)

    def public_out(self, state: State) -> list[int] | None:
        return announced(state)

    def status(self, state: State, settings: dict[str, Any] | None = None) -> str:
        day = state["day"]
        phase = {"day": f"第{day}天白天", "night": f"第{day}夜行动中", "over": "已结束"}[state["phase"]]
        names = list(state["ground"])
        opened = [p for p in names if p not in state["closed"]]
        lines = [
            f"大逃杀 {phase}，存活 {len(state['players']) - len(announced(state))} 人（以公布为准），天气 {state['weather']}。",
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

    def tables(self, state: State, settings: dict[str, Any] | None = None) -> dict[str, list[list[Any]]]:
        log = [["天", "导演", "操作"]] + [[h["day"], h["by"], h["what"]] for h in state.get("host_log", [])]
        if state.get("test"):
            note = [["说明"], [T.TEST_NO_RECORDS]]
            return {"测试赛": note, "导演记录": log}
        rank: list[list[Any]] = [["名次", "座位", "马甲", "出局夜", "死因", "凶手"]]
        for r in ranking(state):
            killer = player(state, r["killer"])["alias"] if r["killer"] is not None else ""
            rank.append([r["rank"], r["seat"], r["alias"], r["night"] or "", r["cause"], killer])
        players: list[list[Any]] = [["座位", "马甲", "存活", "生命", "体力", "货币", "地点", "道具"]]
        for s in sorted(int(k) for k in state["players"]):
            p = player(state, s)
            players.append([s, p["alias"], "是" if p["alive"] else "否", p["hp"], p["st"], p["money"],
                            p["place"] or "", "、".join(i["name"] for i in p["items"])])
        ground: list[list[Any]] = [["地点", "状态", "道具"]]
        for place, items in state["ground"].items():
            status = "已缩圈" if place in state["closed"] else ("今晚缩圈" if place in state["closing"] else "开放")
            ground.append([place, status, "、".join(i["name"] for i in items)])
        events = [["天", "事件"]] + [[x["day"], x["key"]] for x in state.get("event_log", [])]
        npcs: list[list[Any]] = [["NPC", "出现", "地点", "存活", "生命", "死因", "击杀者"]]
        for n in state.get("npcs", []):
            d = next((x for x in state.get("npc_deaths", []) if x["id"] == n["id"]), None)
            killer = player(state, d["killer"])["alias"] if d and d["killer"] is not None else ""
            npcs.append([n["name"], n["day"], n["place"], "是" if n["alive"] else "否", max(n["hp"], 0),
                         d["cause"] if d else ("缩圈消失" if n.get("gone") else ""), killer])
        return {"排名": rank, "玩家": players, "地点": ground, "事件": events, "NPC": npcs, "导演记录": log}


def announced(state: State) -> list[int]:
    """Deaths already announced: night deaths stay secret until the morning post."""
    return sorted(d["seat"] for d in state["deaths"][: state.get("deaths_posted", 0)])


def act(state: State, seat: int, name: str, args: dict[str, Any], ctx: Ctx) -> Outcome:
    """One night action by ``seat`` (what a web page for night actions calls):
    same rules and refusals as the chat command ``name`` (see ``ACTIONS``), on
    the kernel's copy of ``state``."""
    action = ACTIONS.get(name)
    if action is None:
        raise Rejected(f"没有「{name}」这个行动。")
    st = ENGINE.load(copy_state(state))
    if str(seat) not in st["players"]:
        raise Rejected("你不在这局游戏中。")
    return Outcome(st, action(st, seat, dict(args), ctx, settings_of(ctx)))


ENGINE = RoyaleEngine()
