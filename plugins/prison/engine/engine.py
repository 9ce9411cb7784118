"""PrisonEngine: the command table (each row names its rule), the checks every
command shares, deadlines and the kernel's hooks."""

from __future__ import annotations

from functools import partial
from typing import Any

from plugins.gamekit.contract import (
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
    Settings,
)
from plugins.gamekit.settings import given

from . import content, rules_auction, rules_day, rules_end, rules_misc, rules_night, rules_setup
from . import model as m
from . import tables as tbl
from . import texts as T
from .commands import COMMANDS, ROOM_LINE, room_line

ANYTIME_AFTER_END = ("settle", "show_map", KERNEL_OUT, KERNEL_BACK)


_given = partial(given, game="prison")  # the settings a hook without Ctx gets


class PrisonEngine(GameEngine):
    STATE_VERSION = 2  # 2: the settings are no longer copied into the state ("cfg"); "signup" holds the sign-up
    TEXTS = (("nights", "*", "pairs", "*", "lines", "*", "text"), ("notes", "*", "text"))  # rows of their own (issue 19)

    def __init__(self) -> None:
        super().__init__(COMMANDS)

    def check_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        return content.check_settings(settings)

    def start(self, roster: list[Seat], ctx: Ctx) -> Outcome:
        state, fx = rules_setup.start(roster, ctx)
        return Outcome(state, fx)

    def upgrade(self, state: m.JSON) -> m.JSON:
        """Version 1 kept the settings under "cfg" (with the sign-up merged in as "signup"):
        the game's settings are the same (fixed at the start), so only the sign-up stays.
        Changes top-level keys only (the read-only hooks upgrade a shallow copy)."""
        cfg = state.pop("cfg", None)
        if cfg is not None and state.get("phase") != "auction":
            state["signup"] = cfg.get("signup", {})
        return state

    def _read(self, state: m.JSON) -> m.JSON:
        """A stored state as a read-only hook sees it: upgraded on a shallow copy when older."""
        return self.load(dict(state))

    def rule(self, name: str) -> Rule | None:
        if name == ROOM_LINE:  # a room line sent as a command (tests and replays)
            return room_line
        return super().rule(name)

    def before(self, state: m.JSON, actor: Actor, name: str, args: dict[str, Any], ctx: Ctx) -> dict[str, Any]:
        if state["phase"] == "over" and name not in ANYTIME_AFTER_END:
            if name in ("relay", "post", ROOM_LINE):
                raise Ignored()
            raise Rejected(T.OVER_EXPORT)
        if state["phase"] == "auction" and name != "bid":
            if name in (KERNEL_OUT, KERNEL_BACK):
                raise Rejected(T.AUCTION_NO_OUT)
            rules_auction.refuse_other(name)
        return args

    def unknown(self, name: str) -> list[Effect]:
        raise Ignored()

    def kernel_out(self, state: m.JSON, actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Effect]:
        if state["phase"] == "over":
            raise Rejected(T.OVER)
        return rules_misc.kernel_out(state, args, ctx)

    def kernel_back(self, state: m.JSON, actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Effect]:
        if state["phase"] == "over":
            raise Rejected(T.OVER)
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

    def may_join(self, state: m.JSON, chat: str, seat: int | None, *, settings: Settings | None = None) -> bool | None:
        """Kernel hook: a join request to linked chat ``chat`` — only tonight's two occupants of
        a room group are approved (the kernel rejects the rest and tells the hosts); requests to
        other groups are left to their admins."""
        return rules_night.may_join(self._read(state), _given(settings), chat, seat)

    def joined(self, state: m.JSON, chat: str, seat: int, *, settings: Settings | None = None) -> list[Any]:
        """Kernel hook: a player joined one of the game's groups (sets room cards)."""
        return rules_night.joined(self._read(state), _given(settings), chat, seat)

    def may_change_alt(self, state: m.JSON) -> str | None:
        """Kernel hook for /小号: changeable between nights, not during one."""
        if state.get("phase") == "night":
            return T.NO_ALT_AT_NIGHT
        return None

    def reveal(self, state: m.JSON, *, settings: Settings | None = None) -> str:
        """Kernel hook: a host ended the game early with /结束 — identities, mapping, points."""
        return rules_end.early_reveal(self._read(state), _given(settings))

    def private_info(self, state: m.JSON, seat: int, *, settings: Settings | None = None) -> str:
        cfg = _given(settings)
        state = self._read(state)
        if str(seat) not in state["players"]:
            return T.NOT_PLAYER
        if state["phase"] == "auction":
            return rules_auction.private_info(state, cfg, seat)
        text = T.identity(state, cfg, seat)
        won = state.get("auction", {}).get("results", {}).get(str(seat))
        if won:
            how = T.WON_BY_DRAW if won["how"] == "draw" else T.WON_BY_BID.format(how=T.HOW_TEXT[won["how"]], coins=won["coins"])
            text += T.WON_LINE.format(name=won["name"], how=how, balance=won["balance"])
        night = m.current_night(state)
        if state["phase"] == "rooms":
            mine = [r for r, s in state["rooms"].items() if s == seat]
            text += T.TONIGHT_ROOM.format(room=mine[0] if mine else T.ROOM_NOT_PICKED, bye="", group="")
        elif state["phase"] == "night" and night is not None:
            room = [r for r, s in night["rooms"].items() if s == seat]
            pair, partner = m.pair_of(state, seat)
            bye = T.BYE_SUFFIX if room and partner is None else ""
            group = T.ROOM_GROUP_SUFFIX.format(group=pair["group"]) if pair and pair.get("group") else ""
            text += T.TONIGHT_ROOM.format(room=room[0] if room else T.NONE, bye=bye, group=group)
        return text

    def status(self, state: m.JSON, *, settings: Settings | None = None) -> str:
        cfg = _given(settings)
        state = self._read(state)
        if state["phase"] == "auction":
            return rules_auction.status(state, cfg)
        guards, prisoners = m.living(state, "guard"), m.living(state, "prisoner")
        lines = [
            T.day_label(state["phase"], state["day"]) if state["day"] else T.PHASE_LABELS[state["phase"]],
            T.STATUS_GUARDS.format(n=len(guards), names=m.names(state, guards)),
            T.STATUS_PRISONERS.format(n=len(prisoners), names=m.names(state, prisoners)),
        ]
        released = [s for s in state["order"] if m.player(state, s)["status"] == "released"]
        gone = [s for s in state["order"] if m.player(state, s)["status"] in ("dead", "out")]
        if released:
            lines.append(T.STATUS_RELEASED.format(names=m.names(state, released)))
        if gone:
            lines.append(T.STATUS_GONE.format(names=m.names(state, gone)))
        for key, title in T.TITLE.items():
            if state[key] is not None:
                gone_txt = "" if m.in_prison(state, state[key]) else T.PAREN.format(text=T.STATUS[m.player(state, state[key])["status"]])
                lines.append(T.STATUS_LEADER.format(title=title, name=m.name(state, state[key]), gone=gone_txt))
        if state["result"]:
            lines.append(T.STATUS_RESULT.format(cond=T.COND[state["result"]["cond"]]))
        return "\n".join(lines)

    def tables(self, state: m.JSON, *, settings: Settings | None = None) -> dict[str, list[list[Any]]]:
        return tbl.tables(self._read(state), _given(settings))


ENGINE = PrisonEngine()
