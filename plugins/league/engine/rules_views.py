"""The read-only commands: standings (text and picture), a player's breakdown, the
groups and the violations catalogue. They still answer after the league has finished."""

from __future__ import annotations

from typing import Annotated
from zoneinfo import ZoneInfo

import plugins.league.engine.texts as T
from plugins.gamekit.args import INT, PLAYER, Args, NoArgs
from plugins.gamekit.contract import Actor, Ctx, Effect, Picture, Rejected, Say

from .content import Settings
from .rules_games import player_games
from .standings import rows
from .state import State
from .views import breakdown_text, catalogue_text, group_texts, name, picture_caption, standings_text

League = Ctx[Settings]


class StandingsArgs(Args, frozen=True, kw_only=True):
    page: Annotated[int, INT] = 1


class MyPointsArgs(Args, frozen=True, kw_only=True):
    player: Annotated[int | None, PLAYER] = None  # someone else's; the sender's own when left out


def standings(state: State, actor: Actor, a: StandingsArgs, ctx: League) -> list[Effect]:
    """/积分榜 [页码]: the current round's standings and advancement line."""
    r = state.round
    return [Say("reply", standings_text(state, ctx.settings, r, rows(state, ctx.settings, r), a.page))]


def standings_picture(state: State, actor: Actor, a: NoArgs, ctx: League) -> list[Effect]:
    """/积分榜图: the plugin draws the standings (renderer "standings") under this caption."""
    return [Picture("reply", "standings", picture_caption(state, ctx.settings))]


def my_points(state: State, actor: Actor, a: MyPointsArgs, ctx: League) -> list[Effect]:
    """/我的积分 [玩家]: every part of a player's points this round."""
    seat = a.player if a.player is not None else actor.seat
    if seat is None:
        raise Rejected(T.MY_POINTS_NOT_PLAYER)
    return [Say("reply", points_text(state, ctx.settings, seat, ctx.tz))]


def points_text(state: State, settings: Settings, seat: int, tz: ZoneInfo) -> str:
    """A player's points of the current round, part by part and game by game."""
    r = state.round
    row = next((x for x in rows(state, settings, r) if x.seat == seat), None)
    if row is None:
        return T.BREAKDOWN_NOT_IN_ROUND.format(who=name(state, seat), round=state.rounds[r].name)
    viols = [v for v in state.violations if v.seat == seat and v.round == r]
    return breakdown_text(state, settings, r, row, player_games(state, r, seat), viols, tz)


def groups(state: State, actor: Actor, a: NoArgs, ctx: League) -> list[Effect]:
    """/分组: the round's groups, with today's lineups once a match day is open."""
    day = state.current_day()
    return [Say("reply", "\n\n".join(group_texts(state, state.round, day.lineups if day else None).values()))]


def catalogue(state: State, actor: Actor, a: NoArgs, ctx: League) -> list[Effect]:
    """/违规表: the violation types, levels and penalties (§十三)."""
    return [Say("reply", catalogue_text(ctx.settings))]
