"""A 26-player game with one or more of every role, for the role effects of §五.
Rounds before the scenario round vote nobody out and take no posts, so every
role is still alive when the scenario starts."""

from __future__ import annotations

import copy

from mafia88_helpers import Game

ALL_ROLES = {
    "yin_jian": 1, "lianhe_jian": 2, "lianhe_dan": 2, "yi_hun": 1, "du_dan": 1, "fu_huo": 1, "an_dan": 1,
    "you_xia": 6, "gu_sha": 1, "lianhe_sha": 2, "du_sha": 3, "di_lei": 1, "hei_dan": 1, "mo_jing": 1,
    "gong_bing": 1, "huan_hun": 1,
}
N = sum(ALL_ROLES.values())  # 26
QUIET = {"votes": 1, "out": 0, "posts": {}}


def roles_game(seed: str = "roles", rounds: list | None = None, players: int = N, json_state: bool = False,
               **overrides) -> Game:
    settings = {
        "counts": {**ALL_ROLES, "you_xia": ALL_ROLES["you_xia"] + players - N},
        "options": {"report_required": False},
        "rounds": rounds or [dict(QUIET) for _ in range(8)],
        **overrides,
    }
    return Game(players, seed=seed, settings=settings, check_pure=False, json_state=json_state)


def quiet_round(g: Game, votes_for: int | None = None) -> None:
    """Posts due, publication, everyone votes (nobody goes out: out = 0), result."""
    g.fire_due()
    target = votes_for or g.seats_of("you_xia")[0]
    voted = {b.voter for b in g.state.rounds[g.state.round].ballots}
    for s in sorted(g.alive()):
        if s not in voted:
            g.cmd(s, "vote", targets=[target if s != target else g.seats_of("you_xia")[1]])
    g.fire("phase")
    g.fire_due(g.now)  # a decision window, if one opened, is left to the test


_SNAPSHOTS: dict[tuple[str, int], Game] = {}


def at_round(r: int, seed: str = "roles") -> Game:
    """A fresh copy of the 26-player game at the start of round r (cached)."""
    key = (seed, r)
    if key not in _SNAPSHOTS:
        g = roles_game(seed)
        while g.state.round < r:
            quiet_round(g)
        _SNAPSHOTS[key] = g
    return copy.deepcopy(_SNAPSHOTS[key])


GROUP_OF = {"yin_jian": "隐剑", "lianhe_jian": "剑", "gu_sha": "孤杀", "lianhe_sha": "联", "du_sha": "独"}


def post_in_round(g: Game, poster: int, target: int, approve: bool = True) -> int:
    """Give the poster's group one post this round (/改进程) and send it."""
    r = g.state.round
    role = g.p(poster).role
    if role in GROUP_OF:
        g.host("set_round", round=r, votes=1, out=0, posts=f"{GROUP_OF[role]}1")
    else:
        g.host("set_round", round=r, votes=1, out=0, posts="无")
    pid = g.submit_post(poster, target)
    if approve:
        g.host("approve", post=pid)
    return pid


def vote_out(g: Game, targets: list[int]) -> dict[int, list[int]]:
    """Posts due and publication, then everyone votes so that exactly ``targets``
    go out; the vote closes. Returns each target's voter line (arrival order)."""
    r = g.state.round
    g.host("set_round", round=r, votes=1, out=len(targets))
    g.fire_due()
    living = sorted(g.alive())
    others = [s for s in living if s not in targets]
    sink = others[-1]
    lines: dict[int, list[int]] = {t: [] for t in targets}
    g.cmd(sink, "vote", targets=[others[0]])  # the sink is on nobody's voter line
    for i, s in enumerate(others[:-1]):
        t = targets[i % len(targets)]
        g.cmd(s, "vote", targets=[t])
        lines[t].append(s)
    for s in targets:
        g.cmd(s, "vote", targets=[sink])
    g.fire("phase")
    return lines
