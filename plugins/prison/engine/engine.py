"""PrisonEngine: the command table (each row names its rule), the checks every
command shares, deadlines and the kernel's hooks."""

from __future__ import annotations

from typing import Any

from plugins.kernel.contract import (
    KERNEL_BACK,
    KERNEL_OUT,
    PHASE_TIMER,
    Actor,
    Ctx,
    Effect,
    GameEngine,
    Ignored,
    Outcome,
    Rejected,
    Rule,
    Seat,
)

from . import content, rules_auction, rules_day, rules_end, rules_misc, rules_night, rules_setup
from . import model as m
from . import tables as tbl
from . import texts as t
from .commands import COMMANDS, ROOM_LINE, room_line

ANYTIME_AFTER_END = ("settle", "show_map", KERNEL_OUT, KERNEL_BACK)


class PrisonEngine(GameEngine):
    def __init__(self) -> None:
        super().__init__(COMMANDS)

    def check_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        return content.check_settings(settings)

    def start(self, roster: list[Seat], ctx: Ctx) -> Outcome:
        state, fx = rules_setup.start(roster, ctx)
        return Outcome(state, fx)

    def rule(self, name: str) -> Rule | None:
        if name == ROOM_LINE:  # a room line sent as a command (tests and replays)
            return room_line
        return super().rule(name)

    def before(self, state: m.JSON, actor: Actor, name: str, args: dict[str, Any], ctx: Ctx) -> dict[str, Any]:
        if state["phase"] == "over" and name not in ANYTIME_AFTER_END:
            if name in ("relay", "post", ROOM_LINE):
                raise Ignored()
            raise Rejected("游戏已结束，可用 /导出 查看记录。")
        if state["phase"] == "auction" and name != "bid":
            if name in (KERNEL_OUT, KERNEL_BACK):
                raise Rejected("竞拍马甲阶段不能让玩家出局或回场：请等竞拍结束、发完身份后再操作。")
            rules_auction.refuse_other(name)
        return args

    def unknown(self, name: str) -> list[Effect]:
        raise Ignored()

    def kernel_out(self, state: m.JSON, actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Effect]:
        if state["phase"] == "over":
            raise Rejected("游戏已结束。")
        return rules_misc.kernel_out(state, args, ctx)

    def kernel_back(self, state: m.JSON, actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Effect]:
        if state["phase"] == "over":
            raise Rejected("游戏已结束。")
        return rules_misc.kernel_back(state, args)

    def on_deadline(self, state: m.JSON, key: str, ctx: Ctx) -> list[Effect]:
        if key != PHASE_TIMER or state["phase"] == "over":
            return []
        phase = state["phase"]
        if phase == "auction":
            return rules_auction.close(state, ctx)
        if phase == "prep":
            return rules_setup.prep_over(state, ctx)
        if phase == "day":
            return rules_day.day_over(state, ctx)
        if phase == "verdict":
            return rules_day.verdict_over(state, ctx)
        if phase == "rooms":
            return rules_night.rooms_over(state, ctx)
        return rules_night.night_over(state, ctx)

    def may_join(self, state: m.JSON, chat: str, seat: int | None) -> bool | None:
        """Kernel hook: a join request to linked chat ``chat`` — only tonight's two occupants of
        a room group are approved (the kernel rejects the rest and tells the hosts); requests to
        other groups are left to their admins."""
        return rules_night.may_join(state, chat, seat)

    def joined(self, state: m.JSON, chat: str, seat: int) -> list[Any]:
        """Kernel hook: a player joined one of the game's groups (sets room cards)."""
        return rules_night.joined(state, chat, seat)

    def may_change_alt(self, state: m.JSON) -> str | None:
        """Kernel hook for /小号: changeable between nights, not during one."""
        if state.get("phase") == "night":
            return "审讯进行中不能更换小号，请在白天或选房时再登记。"
        return None

    def reveal(self, state: m.JSON, settings: dict[str, Any] | None = None) -> str:
        """Kernel hook: a host ended the game early with /结束 — identities, mapping, points."""
        return rules_end.early_reveal(state)

    def private_info(self, state: m.JSON, seat: int, settings: dict[str, Any] | None = None) -> str:
        if str(seat) not in state["players"]:
            return "你不是本局玩家。"
        if state["phase"] == "auction":
            return rules_auction.private_info(state, seat)
        text = t.identity(state, seat)
        won = state.get("auction", {}).get("results", {}).get(str(seat))
        if won:
            how = "抽签分得" if won["how"] == "draw" else f"{rules_auction.HOW_TEXT[won['how']]} {won['coins']} 币拍得"
            text += f"\n马甲「{won['name']}」：{how}，硬币余额 {won['balance']}。"
        night = m.current_night(state)
        if state["phase"] == "rooms":
            mine = [r for r, s in state["rooms"].items() if s == seat]
            text += f"\n今晚房间：{mine[0] if mine else '未选（/选房）'}。"
        elif state["phase"] == "night" and night is not None:
            room = [r for r, s in night["rooms"].items() if s == seat]
            pair, partner = m.pair_of(state, seat)
            extra = "，轮空" if room and partner is None else ""
            group = f"，房间群 {pair['group']}" if pair and pair.get("group") else ""
            text += f"\n今晚房间：{room[0] if room else '无'}{extra}{group}。"
        return text

    def status(self, state: m.JSON, settings: dict[str, Any] | None = None) -> str:
        if state["phase"] == "auction":
            return rules_auction.status(state)
        label = m.PHASE_LABELS[state["phase"]]
        unit = "夜" if state["phase"] in ("rooms", "night") else "天"
        head = f"第{state['day']}{unit} · {label}" if state["day"] else label
        lines = [
            head,
            f"看守（存活 {len(m.living(state, 'guard'))}）：{m.names(state, m.living(state, 'guard'))}",
            f"囚犯（存活 {len(m.living(state, 'prisoner'))}）：{m.names(state, m.living(state, 'prisoner'))}",
        ]
        released = [s for s in state["order"] if m.player(state, s)["status"] == "released"]
        gone = [s for s in state["order"] if m.player(state, s)["status"] in ("dead", "out")]
        if released:
            lines.append(f"已释放：{m.names(state, released)}")
        if gone:
            lines.append(f"死亡/出局：{m.names(state, gone)}")
        for key, title in (("chief", "看守长"), ("leader", "囚犯领袖")):
            if state[key] is not None:
                gone_txt = "" if m.in_prison(state, state[key]) else f"（{t.STATUS[m.player(state, state[key])['status']]}）"
                lines.append(f"{title}：{m.name(state, state[key])}{gone_txt}")
        if state["result"]:
            lines.append(f"结局：{t.COND[state['result']['cond']]}")
        return "\n".join(lines)

    def tables(self, state: m.JSON, settings: dict[str, Any] | None = None) -> dict[str, list[list[Any]]]:
        return tbl.tables(state)


ENGINE = PrisonEngine()
