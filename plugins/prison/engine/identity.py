"""The identity message (/我的身份 and the deal's private message), assembled from texts.py."""

from __future__ import annotations

from . import model as m
from . import texts as T
from .content import Ability, Settings
from .model import State


def ability_line(cfg: Settings, state: State, seat: int, ab: Ability) -> str:
    left = m.uses_left(state, seat, ab)
    left_txt = T.UNLIMITED if left is None else T.USES_LEFT_SHORT.format(n=left)
    if ab.kind == "kill":
        return T.ABILITY_KILL.format(spare=T.CAN_SPARE if ab.optional else "")
    if ab.kind == "point_kill":
        return T.ABILITY_POINT_KILL.format(left=left_txt)
    if ab.kind == "noise":
        return T.ABILITY_NOISE.format(left=left_txt)
    if ab.kind == "lover":
        other = m.lover_of(cfg, state, seat)
        return T.ABILITY_LOVER.format(who=m.name(state, other) if other is not None else T.LOVER_NOT_DEALT)
    if ab.designed:
        return designed_line(state, seat, ab, left_txt)
    return T.ABILITY_GENERIC.format(name=ab.name, when=T.WHEN[ab.timing], left=left_txt,
                                    must=T.MUST_USE if ab.compulsory else "")


def designed_line(state: State, seat: int, ab: Ability, left: str) -> str:
    """The identity line of a designed ability: its command, when, whom, who learns it."""
    must = T.MUST_USE if ab.compulsory else ""
    target = T.TARGET_ONLY[ab.targets] + (T.MAY_SELF if ab.may_self else "")
    tells = T.TELLS if ab.tells else ""
    if ab.kind == "check":
        return T.ABILITY_CHECK.format(name=ab.label, when=T.WHEN_USE[ab.timing], learn=T.LEARN[ab.learns],
                                      result=T.CHECK_WHEN[ab.timing], left=left, target=target, tells=tells, must=must)
    if ab.kind == "protect":
        return T.ABILITY_PROTECT.format(name=ab.label, left=left, target=target, tells=tells, must=must)
    if ab.kind == "block":
        return T.ABILITY_BLOCK.format(name=ab.label, left=left, target=target, tells=tells, must=must)
    if ab.kind == "eavesdrop":
        return T.ABILITY_EAVESDROP.format(name=ab.label, left=left, tells=T.TELLS_ROOM if ab.tells else "", must=must)
    if ab.kind == "swap":
        return T.ABILITY_SWAP.format(name=ab.label, left=left, target=target, tells=tells, must=must)
    if ab.kind == "message":
        return T.ABILITY_MESSAGE.format(name=ab.label, when=T.WHEN_USE[ab.timing], left=left, target=target, must=must)
    vote = T.WEIGHT_VOTE[state.players[seat].kind is m.Kind.GUARD]
    if ab.passive:
        return T.ABILITY_WEIGHT_ALWAYS.format(name=ab.label, vote=vote, n=ab.votes)
    return T.ABILITY_WEIGHT.format(name=ab.label, vote=vote, n=ab.votes, left=left, must=must)


def identity(cfg: Settings, state: State, seat: int) -> str:
    p = state.players[seat]
    r = m.role_of(cfg, state, seat)
    lines = [T.IDENTITY_HEAD.format(name=m.name(state, seat), kind=T.KIND[p.camp], role=r.name)]
    if r.crimes:
        lines.append(T.IDENTITY_CRIMES.format(crimes=T.SEP.join(r.crimes)))
    if r.murderer_side:
        lines.append(T.IDENTITY_MURDERER_SIDE)
    if r.text:
        lines.append(r.text)
    for ab in r.abilities:
        lines.append(ability_line(cfg, state, seat, ab))
    if r.win in T.WIN_LINE:
        lines.append(T.WIN_LINE[r.win])
    if state.chief == seat:
        lines.append(T.IDENTITY_CHIEF)
    if state.leader == seat:
        lines.append(T.IDENTITY_LEADER.format(used=T.UPRISING_SPENT if state.uprising_used else T.UPRISING_LEFT))
    if p.love is not None:
        lines.append(T.IDENTITY_LOVE.format(name=m.name(state, p.love)))
    if p.hate is not None:
        lines.append(T.IDENTITY_HATE.format(name=m.name(state, p.hate)))
    lines.append(T.IDENTITY_STATUS.format(status=T.STATUS[p.status]))
    return "\n".join(lines)
