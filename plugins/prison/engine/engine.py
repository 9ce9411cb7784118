"""PrisonEngine: dispatch of commands and deadlines to the rule modules."""

from __future__ import annotations

import copy
from typing import Any

from plugins.kernel.contract import (
    KERNEL_BACK,
    KERNEL_OUT,
    PHASE_TIMER,
    Actor,
    Command,
    Ctx,
    Ignored,
    Outcome,
    Rejected,
    Say,
    Seat,
)

from . import content, rules_auction, rules_day, rules_end, rules_misc, rules_night, rules_setup
from . import model as m
from . import tables as tbl
from . import texts as t

ROOM_LINE = "room.line"  # a line said in a room group (also what linked-chat group text becomes)


def _in_linked_chat(actor: Actor) -> bool:
    """Group text from a linked chat (a room group), not the game group."""
    return not actor.private and getattr(actor, "chat", None) not in (None, "main")
ANYTIME_AFTER_END = ("settle", "show_map", KERNEL_OUT, KERNEL_BACK)


class PrisonEngine:
    def check_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        return content.check_settings(settings)

    def start(self, roster: list[Seat], ctx: Ctx) -> Outcome:
        state, fx = rules_setup.start(roster, ctx)
        return Outcome(state, fx)

    def apply(self, state: m.JSON, actor: Actor, cmd: Command, ctx: Ctx) -> Outcome:
        st = copy.deepcopy(state)
        a = cmd.args
        name = cmd.name
        if st["phase"] == "over" and name not in ANYTIME_AFTER_END:
            if name in ("relay", "post", ROOM_LINE):
                raise Ignored()
            raise Rejected("游戏已结束，可用 /导出 查看记录。")
        if st["phase"] == "auction":
            if name == "bid":
                return Outcome(st, rules_auction.bid(st, actor, str(a.get("text", "")), ctx))
            if name in (KERNEL_OUT, KERNEL_BACK):
                raise Rejected("竞拍马甲阶段不能让玩家出局或回场：请等竞拍结束、发完身份后再操作。")
            rules_auction.refuse_other(name)
        if name == "bid":
            fx = rules_auction.bid(st, actor, str(a.get("text", "")), ctx)
        elif name == KERNEL_OUT:
            if st["phase"] == "over":
                raise Rejected("游戏已结束。")
            fx = rules_misc.kernel_out(st, a, ctx)
        elif name == KERNEL_BACK:
            if st["phase"] == "over":
                raise Rejected("游戏已结束。")
            fx = rules_misc.kernel_back(st, a)
        elif name in ("love", "hate"):
            fx = rules_setup.choose(st, actor, a.get("seat"), name)
        elif name == "elect":
            fx = rules_day.elect(st, actor, a.get("seat"))
        elif name in ("execute", "release", "abstain"):
            verb = {"execute": "exec", "release": "free", "abstain": "skip"}[name]
            fx = rules_day.vote(st, actor, verb, a.get("seat"))
        elif name == "decide":
            fx = rules_day.pick(st, actor, str(a.get("choice", "")), a.get("seat"), ctx)
        elif name == "uprising":
            fx = rules_day.uprising(st, actor, ctx)
        elif name == "room":
            fx = rules_night.choose_room(st, actor, str(a.get("room", "")))
        elif name == "noise":
            fx = rules_night.noise(st, actor, ctx)
        elif name == "point_kill":
            fx = rules_night.point_kill(st, actor, a.get("seat"))
        elif name == "spare":
            fx = rules_night.spare(st, actor)
        elif name == "ability":
            fx = rules_misc.use_generic(st, actor, str(a.get("ability", "")), str(a.get("text", "")), ctx)
        elif name == "submit_map":
            fx = rules_misc.submit_map(st, actor, str(a.get("text", "")), ctx)
        elif name == "submit_alias":
            fx = rules_misc.submit_alias(st, actor, str(a.get("text", "")), ctx)
        elif name == "note":
            fx = rules_misc.note(st, actor, str(a.get("text", "")), ctx)
        elif name == "settle":
            fx = rules_misc.settle(st, actor, a.get("id"), str(a.get("text", "")), ctx)
        elif name == "show_map":
            if not actor.is_host:
                raise Rejected("只有导演可以查看房间对应。")
            fx = [Say("reply", "本局房间对应（保密）：" + " ".join(f"{g}-{p}" for g, p in st["mapping"].items()))]
        elif name == "relay":
            if not actor.private:
                fx = self._group_text(st, actor, a, ctx)
            else:
                fx = rules_night.relay(st, actor, str(a.get("text", "")), int(a.get("images", 0) or 0), ctx)
        elif name == ROOM_LINE:
            fx = rules_night.room_line(st, actor, str(a.get("text", "")), int(a.get("images", 0) or 0), ctx)
        elif name == "post":
            fx = self._group_text(st, actor, a, ctx)
        else:
            raise Ignored()
        return Outcome(st, fx)

    def deadline(self, state: m.JSON, key: str, ctx: Ctx) -> Outcome:
        st = copy.deepcopy(state)
        if key != PHASE_TIMER or st["phase"] == "over":
            return Outcome(st, [])
        phase = st["phase"]
        if phase == "auction":
            fx = rules_auction.close(st, ctx)
        elif phase == "prep":
            fx = rules_setup.prep_over(st, ctx)
        elif phase == "day":
            fx = rules_day.day_over(st, ctx)
        elif phase == "verdict":
            fx = rules_day.verdict_over(st, ctx)
        elif phase == "rooms":
            fx = rules_night.rooms_over(st, ctx)
        else:
            fx = rules_night.night_over(st, ctx)
        return Outcome(st, fx)

    @staticmethod
    def _group_text(st: m.JSON, actor: Actor, a: dict[str, Any], ctx: Ctx) -> list[Any]:
        """Plain group text: in the game group it counts a discussion post (（三）4); in a linked
        room group it is a room line (transcript, （三）1)."""
        if _in_linked_chat(actor):
            if st["cfg"]["room_mode"] != "group":
                raise Ignored()
            return rules_night.room_line(st, actor, str(a.get("text", "")), int(a.get("images", 0) or 0), ctx)
        return rules_misc.post(st, actor)

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

    def reveal(self, state: m.JSON) -> str:
        """Kernel hook: a host ended the game early with /结束 — identities, mapping, points."""
        return rules_end.early_reveal(state)

    def private_info(self, state: m.JSON, seat: int) -> str:
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

    def status(self, state: m.JSON) -> str:
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

    def tables(self, state: m.JSON) -> dict[str, list[list[Any]]]:
        return tbl.tables(state)


ENGINE = PrisonEngine()
