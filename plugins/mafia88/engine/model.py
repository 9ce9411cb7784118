"""Small accessors on the state and the settings, putting players out and back, and the
private role message. The state's types are in ``state.py``; the settings' in ``content.py``
(the rules read them from ``ctx.settings``, never from the state)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

import plugins.mafia88.engine.texts as T
from plugins.gamekit.clock import fmt_local
from plugins.gamekit.contract import Effect, Eliminate, Restore

from .content import Role, Settings
from .state import Cause, Death, Due, Out, Player, Round, State, Step, TableRow

FACTION_NAME = T.FACTION_NAME


def iso(at: datetime) -> str:
    return at.isoformat()


def dt(text: str) -> datetime:
    return datetime.fromisoformat(text)


def tz(state: State) -> ZoneInfo:
    return ZoneInfo(state.tz)


def when(state: State, text: str | None) -> str:
    return fmt_local(dt(text), tz(state)) if text else T.UNSET_TIME


def hhmm(state: State, text: str) -> str:
    return f"{dt(text).astimezone(tz(state)):%H:%M}"


def seats(state: State) -> list[int]:
    return sorted(state.players)


def alive(state: State) -> list[int]:
    return [s for s, p in sorted(state.players.items()) if p.alive]


def role_of(state: State, cfg: Settings, seat: int) -> Role:
    return cfg.role(state.players[seat].role)


def faction(state: State, cfg: Settings, seat: int) -> str:
    return cfg.role(state.players[seat].role).faction


def name(state: State, seat: int) -> str:
    """How a player is shown: '12号 张三'."""
    return T.PLAYER_NAME.format(seat=seat, alias=state.players[seat].alias)


def role_name(state: State, cfg: Settings, seat: int) -> str:
    return cfg.role(state.players[seat].role).name


def role_label(state: State, cfg: Settings, seat: int) -> str:
    """The role as dealt and, after a role change (§五白4/黑8), what it became: '还魂→联合杀'."""
    p = state.players[seat]
    now = cfg.role(p.role).name
    return f"{cfg.role(p.dealt).name}→{now}" if p.dealt and p.dealt != p.role else now


def code_rank(state: State, cfg: Settings, seat: int) -> tuple[int, int]:
    """Position in §十六's code-name order (role order, then code order)."""
    p = state.players[seat]
    codes = cfg.role(p.role).codes
    return cfg.role_keys.index(p.role), codes.index(p.code) if p.code in codes else seat


def row(state: State, r: int) -> TableRow:
    """The table row of round ``r``; rounds past the table repeat the last row."""
    return state.table[min(r, len(state.table)) - 1]


def is_no_white_round(state: State, r: int) -> bool:
    """§十二.8: the final round and overtime rounds take no white slips."""
    return r >= len(state.table)


def rnd(state: State, r: int | None = None) -> Round:
    return state.rounds[state.round if r is None else r]


def new_round(r: int) -> Round:
    return Round(round=r, due=Due(posts=None, publish=None, close=None, white=None), posts_done=False, published=False,
                 closed=False, white_done=False, ballots=[], next_n=1, overtime=None, marks=[], outs=[], result=None)


def mark_out(state: State, seat: int, cause: Cause, reason: str, effects: list[Effect], post: int | None = None) -> bool:
    """Put a living player out once (nobody dies twice). Returns True if applied."""
    p = state.players[seat]
    if not p.alive:
        return False
    p.alive = False
    p.out = Out(round=state.round, cause=cause, reason=reason, post=post)
    if state.step != Step.OVER and state.round in state.rounds:
        rnd(state).outs.append(Death(seat=seat, cause=cause, reason=reason))
    state.drafts.pop(seat, None)
    effects.append(Eliminate(seat, reason))
    return True


def bring_back(state: State, seat: int, reason: str, effects: list[Effect]) -> bool:
    p = state.players[seat]
    if p.alive:
        return False
    p.alive = True
    p.out = None
    effects.append(Restore(seat, reason))
    return True


@dataclass(frozen=True)
class Dealt:
    """What every role message of one moment shares: the seats holding each role (in seat
    order). Built once for /开始's 88 messages instead of per message."""

    by_role: dict[str, list[int]]

    @classmethod
    def of(cls, state: State) -> Dealt:
        by_role: dict[str, list[int]] = {}
        for s, p in sorted(state.players.items()):
            by_role.setdefault(p.role, []).append(s)
        return cls(by_role)


def role_message(state: State, cfg: Settings, seat: int, dealt: Dealt | None = None) -> str:
    """The private role message (/我的身份). A disguised role (暗蛋) is told
    its disguise, built from the disguise's data only, so it reads byte for
    byte like that role's message (§五 白方 7)."""
    dealt = dealt or Dealt.of(state)
    p: Player = state.players[seat]
    real = cfg.role(p.role)
    shown = cfg.role(real.disguise) if real.disguise else real
    lines = [T.ROLE_YOURS.format(name=shown.name, faction_name=FACTION_NAME[shown.faction])]
    if shown.brief:
        lines.append(shown.brief)
    if shown is real and p.code:
        lines.append(T.ROLE_CODE.format(code=p.code))
    for key in shown.knows:
        if shown is not real:
            break
        mates = [s for s in dealt.by_role.get(key, []) if s != seat]
        label = cfg.role(key).name
        lines.append(T.ROLE_MATES.format(label=label, mates=T.LIST_SEP.join(name(state, s) for s in mates) if mates else T.NONE))
    if shown is real and p.signal:
        lines.append(T.ROLE_SIGNAL.format(seek=p.signal.seek, reply=p.signal.reply))
        others = [pair for pair in state.signals if pair != p.signal]
        if others:  # §五黑3, §七.3: the three carriers can find each other
            lines.append(T.ROLE_OTHER_SIGNALS + T.SEMI_SEP.join(T.SIGNAL_PAIR.format(seek=o.seek, reply=o.reply) for o in others)
                         + T.ROLE_SIGNALS_HOW)
    if shown is real and real.signals and state.signals:
        pairs = T.SEMI_SEP.join(T.SIGNAL_PAIR.format(seek=o.seek, reply=o.reply) for o in state.signals)
        lines.append(T.ROLE_ALL_SIGNALS.format(pairs=pairs))
    if shown is real and p.fireworks_spent:
        lines.append(T.ROLE_FIREWORKS_SPENT)
    if shown is real and real.key in cfg.posting:
        lines.append(T.ROLE_HOW_TO_POST)
    return "\n".join(lines)
