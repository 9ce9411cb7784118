"""§十 游戏进程: a whole 88-player game with plain effects (everyone votes,
every quota post is sent and approved) yields 84, 70, 56, 42, 29, 19, 11, 5, 1.
Plain effects = options.role_effects off (the hosts rule by hand); the game with
every role acting is tests/mafia88/test_roles_game.py."""

from __future__ import annotations

from mafia88_helpers import Game

from plugins.gamekit.contract import Finish, Say
from plugins.mafia88.engine.model import row

PLAIN = {"options": {"role_effects": False}}

# Who dies first: non-posting whites (keeping two 游侠 for the end), black
# non-posters, the swords once their posts are done, then the killers.
ORDER = ["you_xia*", "an_dan", "du_dan", "lianhe_dan", "yi_hun", "fu_huo", "mo_jing", "gong_bing", "huan_hun",
         "di_lei", "hei_dan", "lianhe_jian", "yin_jian", "du_sha", "lianhe_sha", "gu_sha", "you_xia"]


def victim_order(g: Game) -> list[int]:
    yx = g.seats_of("you_xia")
    order: list[int] = []
    for key in ORDER:
        if key == "you_xia*":
            order += yx[:-2]
        elif key == "you_xia":
            order += yx[-2:]
        else:
            order += g.seats_of(key)
    return order


def play_round(g: Game, order: list[int]) -> None:
    r = g.state.round
    quota = row(g.state, r).posts
    posters: list[tuple[int, int]] = []
    taken: set[int] = set()
    victims = [s for s in order if g.p(s).alive]
    for gkey, n in quota.items():
        roles = next(x for x in g.settings.groups if x.key == gkey).roles
        authors = [s for s in sorted(g.alive()) if g.p(s).role in roles and s not in taken]
        for author in authors[:n]:
            taken.add(author)
            target = victims.pop(0)
            posters.append((author, target))
    for author, target in posters:
        pid = g.submit_post(author, target)
        g.host("approve", post=pid)
    g.fire_due()  # posts due, publication (and last round's white-slip due)
    for author, target in posters:
        assert not g.p(target).alive
    k = row(g.state, r).out
    vote_victims = [s for s in order if g.p(s).alive][:k]
    g.vote_all(vote_victims, row(g.state, r).votes)
    g.fire("phase")


def test_full_game_survivor_counts_section_10():
    g = Game(88, seed="full-88", settings=PLAIN)
    g.report_all()
    order = victim_order(g)
    counts = []
    for _ in range(9):
        play_round(g, order)
        counts.append(len(g.alive()))
    assert counts == [84, 70, 56, 42, 29, 19, 11, 5, 1]
    # one side is gone: the game is over and the reveal lists every role, post and round's votes
    assert g.state.step == "over"
    finish = [e for e in g.log[-1] if isinstance(e, Finish)]
    assert len(finish) == 1
    text = finish[0].summary
    assert "暗蛋" in text and "孤杀" in text
    assert all(f"#{p.id} 第{p.round}轮" in text for p in g.state.posts)
    assert all(f"第{r}轮（" in text for r in range(1, 10))
    assert len(g.state.posts) == 1 + 7 + 7 + 7 + 6 + 5 + 4 + 3 + 2
    # nobody died twice: every player is out at most once in the round records
    outs = [o.seat for rd in g.state.rounds.values() for o in rd.outs]
    assert len(outs) == len(set(outs)) == 87


def test_group_never_hears_a_living_players_role_or_the_signals():
    g = Game(88, seed="privacy", settings=PLAIN)
    g.report_all()
    order = victim_order(g)
    role_names = [r.name for r in g.settings.roles]
    pairs = [x for pair in g.state.signals for x in (pair.seek, pair.reply)]
    for _ in range(4):
        play_round(g, order)
    for batch in g.log:
        for e in batch:
            if isinstance(e, Say) and e.to in ("group", "reply"):
                assert not any(x in e.text for x in pairs)
                for line in e.text.splitlines():
                    if any(n + "（" in line for n in role_names):
                        assert line.startswith(("第", "你的身份")), line
                        if line.startswith("第") and "出局者身份" in line:
                            for part in line.split("：", 1)[1].split("；"):
                                seat = int(part.split("号")[0])
                                assert not g.p(seat).alive
