"""PrisonEngine: the typed state and settings, the checks every command shares (by phase),
deadlines and the kernel's hooks. The commands and their rules are the table in commands.py."""

from __future__ import annotations

from typing import Any

from plugins.gamekit.args import Args, SeatReason
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
    Seat,
)

from . import model as m
from . import rules_abilities, rules_auction, rules_day, rules_end, rules_misc, rules_night, rules_setup
from . import tables as tbl
from . import texts as T
from .commands import COMMANDS
from .content import CONTENT
from .content import Settings as PrisonSettings
from .identity import identity
from .model import Kind, Phase, Status
from .model import State as PrisonState

ANYTIME_AFTER_END = ("settle", "show_map", KERNEL_OUT, KERNEL_BACK)
PLAIN_TEXT = ("relay", "post")  # the plain-text routes: ignored, not refused, when they do not apply


class PrisonEngine(GameEngine[PrisonState, PrisonSettings]):
    State = PrisonState
    Settings = PrisonSettings
    CONTENT = CONTENT
    STATE_VERSION = 2  # 2: the settings are no longer copied into the state ("cfg"); "signup" holds the sign-up
    TEXTS = (("nights", "*", "pairs", "*", "lines", "*", "text"), ("notes", "*", "text"))  # rows of their own
    HOST_ONLY = T.HOST_ONLY
    NOT_A_PLAYER = T.NOT_PLAYER

    def __init__(self) -> None:
        super().__init__(COMMANDS)

    def check_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        """gamekit's one loader (``CONTENT``), in the game's words for an unknown identity file;
        stored as hosts write them (no empty keys, a lover's ``with``)."""
        name = settings.get("variant")
        if name is not None and name not in CONTENT.variants():
            raise Rejected(T.NO_VARIANT.format(name=name))
        return CONTENT.settings(PrisonSettings, settings).model_dump(mode="json", exclude_none=True)

    def start(self, roster: list[Seat], ctx: Ctx[PrisonSettings]) -> Outcome[PrisonState]:
        need = ctx.settings.n_players
        if len(roster) != need:
            raise Rejected(T.WRONG_COUNT.format(need=need, n=len(roster)))
        if ctx.settings.characters:
            state, fx = rules_auction.open_auction(roster, ctx)
        else:
            state, fx = rules_setup.start(roster, ctx)
        return Outcome(state, fx)

    def upgrade(self, raw: dict[str, Any]) -> dict[str, Any]:
        """Version 1 kept the settings under "cfg" (with the sign-up merged in as "signup"):
        the game's settings are the same (fixed at the start), so only the sign-up stays."""
        raw = dict(raw)
        cfg = raw.pop("cfg", None)
        if cfg is not None and raw.get("phase") != Phase.AUCTION:
            raw["signup"] = cfg.get("signup", {})
        return raw

    def before(self, state: PrisonState, actor: Actor, name: str, args: Args, ctx: Ctx[PrisonSettings]) -> Args:
        if state.phase is Phase.OVER and name not in ANYTIME_AFTER_END:
            if name in PLAIN_TEXT:
                raise Ignored()
            raise Rejected(T.OVER_EXPORT)
        if state.phase is Phase.AUCTION and name != "bid":
            if name in (KERNEL_OUT, KERNEL_BACK):
                raise Rejected(T.AUCTION_NO_OUT)
            rules_auction.refuse_other(name)
        return args

    def unknown(self, name: str) -> list[Effect]:
        raise Ignored()

    def kernel_out(self, state: PrisonState, actor: Actor, args: SeatReason, ctx: Ctx[PrisonSettings]) -> list[Effect]:
        if state.phase is Phase.OVER:
            raise Rejected(T.OVER)
        return rules_misc.kernel_out(state, actor, args, ctx)

    def kernel_back(self, state: PrisonState, actor: Actor, args: SeatReason, ctx: Ctx[PrisonSettings]) -> list[Effect]:
        if state.phase is Phase.OVER:
            raise Rejected(T.OVER)
        return rules_misc.kernel_back(state, actor, args, ctx)

    def on_deadline(self, state: PrisonState, key: str, ctx: Ctx[PrisonSettings]) -> list[Effect]:
        if key != PHASE_TIMER or state.phase is Phase.OVER:
            return []
        phase = state.phase
        if phase is Phase.AUCTION:
            return rules_auction.close(state, ctx)
        if phase is Phase.PREP:
            return rules_setup.prep_over(state, ctx)
        if phase is Phase.DAY:
            return rules_day.day_over(state, ctx)
        if phase is Phase.VERDICT:
            return rules_day.verdict_over(state, ctx)
        if phase is Phase.ROOMS:
            return rules_night.rooms_over(state, ctx)
        return rules_night.night_over(state, ctx)

    def may_join(self, state: PrisonState, chat: str, seat: int | None, *, settings: PrisonSettings) -> bool | None:
        """Kernel hook: a join request to linked chat ``chat`` — only tonight's two occupants of
        a room group are approved (the kernel rejects the rest and tells the hosts); requests to
        other groups are left to their admins."""
        return rules_night.may_join(state, settings, chat, seat)

    def joined(self, state: PrisonState, chat: str, seat: int, *, settings: PrisonSettings) -> list[Effect]:
        """Kernel hook: a player joined one of the game's groups (sets room cards)."""
        return rules_night.joined(state, settings, chat, seat)

    def may_change_alt(self, state: PrisonState) -> str | None:
        """Kernel hook for /小号: changeable between nights, not during one."""
        return T.NO_ALT_AT_NIGHT if state.phase is Phase.NIGHT else None

    def reveal(self, state: PrisonState, *, settings: PrisonSettings) -> str:
        """Kernel hook: a host ended the game early with /结束 — identities, mapping, points."""
        return rules_end.early_reveal(state, settings)

    def private_info(self, state: PrisonState, seat: int, *, settings: PrisonSettings) -> str:
        if seat not in state.players:
            return T.NOT_PLAYER
        if state.phase is Phase.AUCTION:
            return rules_auction.private_info(state, settings, seat)
        text = identity(settings, state, seat)
        won = state.auction.results.get(seat) if state.auction is not None else None
        if won is not None:
            how = T.WON_BY_DRAW if won.how is m.How.DRAW else T.WON_BY_BID.format(how=T.HOW_TEXT[won.how], coins=won.coins)
            text += T.WON_LINE.format(name=won.name, how=how, balance=won.balance)
        text += rules_abilities.pending_line(state, settings, seat)
        night = m.current_night(state)
        if state.phase is Phase.ROOMS:
            mine = [r for r, s in state.rooms.items() if s == seat]
            text += T.TONIGHT_ROOM.format(room=mine[0] if mine else T.ROOM_NOT_PICKED, bye="", group="")
        elif state.phase is Phase.NIGHT and night is not None:
            room = [r for r, s in night.rooms.items() if s == seat]
            pair, partner = m.pair_of(state, seat)
            bye = T.BYE_SUFFIX if room and partner is None else ""
            group = T.ROOM_GROUP_SUFFIX.format(group=pair.group) if pair and pair.group else ""
            text += T.TONIGHT_ROOM.format(room=room[0] if room else T.NONE, bye=bye, group=group)
        return text

    def status(self, state: PrisonState, *, settings: PrisonSettings) -> str:
        if state.phase is Phase.AUCTION:
            return rules_auction.status(state, settings)
        guards, prisoners = m.living(state, Kind.GUARD), m.living(state, Kind.PRISONER)
        lines = [
            T.day_label(state.phase, state.day) if state.day else T.PHASE_LABELS[state.phase],
            T.STATUS_GUARDS.format(n=len(guards), names=m.names(state, guards)),
            T.STATUS_PRISONERS.format(n=len(prisoners), names=m.names(state, prisoners)),
        ]
        released = [s for s in state.order if state.players[s].status is Status.RELEASED]
        gone = [s for s in state.order if state.players[s].status in (Status.DEAD, Status.OUT)]
        if released:
            lines.append(T.STATUS_RELEASED.format(names=m.names(state, released)))
        if gone:
            lines.append(T.STATUS_GONE.format(names=m.names(state, gone)))
        for key, seat in (("chief", state.chief), ("leader", state.leader)):
            if seat is not None:
                gone_txt = "" if m.in_prison(state, seat) else T.PAREN.format(text=T.STATUS[state.players[seat].status])
                lines.append(T.STATUS_LEADER.format(title=T.TITLE[key], name=m.name(state, seat), gone=gone_txt))
        if state.result is not None:
            lines.append(T.STATUS_RESULT.format(cond=T.COND[state.result.cond]))
        return "\n".join(lines)

    def tables(self, state: PrisonState, *, settings: PrisonSettings) -> dict[str, tbl.Sheet]:
        return tbl.tables(state, settings)


ENGINE = PrisonEngine()
