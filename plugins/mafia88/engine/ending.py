"""The end of the game (§十二.8, §十二.10, §十五.12) and the reveal posted with it."""

from __future__ import annotations

import plugins.mafia88.engine.texts as T
from plugins.gamekit.contract import CancelTimer, Effect, Finish

from .content import Settings
from .model import FACTION_NAME, alive, name, role_label
from .rules_souls import tell_unions
from .state import PostKind, State, Step, Winner


def sides_left(state: State, cfg: Settings) -> int:
    return len({cfg.role(state.players[s].role).faction for s in alive(state)})


def check_end(state: State, cfg: Settings, effects: list[Effect]) -> bool:
    """§十二.8/§十二.10: the game ends when one side has no living player
    with a full vote (post-killed players only keep a half vote)."""
    if state.step == Step.OVER:
        return True
    if sides_left(state, cfg) == 2:
        tell_unions(state, cfg, effects)
        return False
    sides = {cfg.role(state.players[s].role).faction for s in alive(state)}
    winner = Winner.WHITE if sides == {"white"} else Winner.BLACK if sides == {"black"} else Winner.NONE
    finish(state, cfg, winner, T.ONE_SIDE_GONE, effects)
    return True


def finish(state: State, cfg: Settings, winner: Winner, why: str, effects: list[Effect]) -> None:
    state.step = Step.OVER
    state.winner = winner
    state.ended_by = why
    for key in ("posts_due", "publish"):
        effects.append(CancelTimer(f"{key}:{state.round}"))
    effects.append(Finish(reveal(state, cfg)))


def result_text(winner: Winner | None) -> str:
    return FACTION_NAME[winner] + T.WIN_SUFFIX if winner else T.NO_WINNER


def reveal(state: State, cfg: Settings, ended_by: str | None = None) -> str:
    """Every role, every post and every round's votes (``ended_by``: why, if not the state's)."""
    head = T.REVEAL_HEAD.format(result=result_text(state.winner), ended_by=state.ended_by if ended_by is None else ended_by)
    lines = [head, "", T.REVEAL_ROLES]
    for s, p in sorted(state.players.items()):
        rl = cfg.role(p.role)
        code = T.REVEAL_CODE.format(code=p.code) if p.code else ""
        fate = T.REVEAL_OUT.format(round=p.out.round, reason=p.out.reason) if p.out else T.ALIVE
        lines.append(T.REVEAL_PLAYER.format(player=name(state, s), role=role_label(state, cfg, s), faction_name=FACTION_NAME[rl.faction], code=code, fate=fate))
    lines += ["", T.REVEAL_POSTS]
    for post in state.posts:
        chars = post.figures.chars if post.figures else 0
        lines.append(T.REVEAL_POST.format(id=post.id, round=post.round, code=post.code, author=name(state, post.author), target=name(state, post.target), kind=T.WHITE_SLIP if post.kind == PostKind.WHITE else T.KILL_POST, status_name=T.STATUS_NAME[post.status], chars=chars))
    if not state.posts:
        lines.append(T.NONE)
    lines += ["", T.REVEAL_VOTES]
    for key, rd in sorted(state.rounds.items()):
        # one ballot per line: a long round splits cleanly into several QQ messages
        lines.append(T.REVEAL_ROUND_VOTES.format(key=key, n_ballots=len(rd.ballots)) + ("" if rd.ballots else T.NONE))
        lines += [
            T.REVEAL_BALLOT.format(n=b.n, voter=name(state, b.voter), proxy=T.PROXY_SHORT if b.proxy else "", items=T.LIST_SEP.join(name(state, t) for t in b.targets))
            for b in rd.ballots
        ]
        if rd.overtime:
            ot = rd.overtime.ballots
            lines.append(T.REVEAL_OVERTIME_VOTES.format(key=key, n_ot=len(ot)) + ("" if ot else T.NONE))
            lines += [f"#{b.n} {name(state, b.voter)}→{name(state, b.target)}" for b in ot]
    return "\n".join(lines)
