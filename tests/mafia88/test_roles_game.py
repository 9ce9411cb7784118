"""A whole seeded 30-player game with every role acting (§五–§八), checked
against a hand-computed table of who goes out when, and why."""

from __future__ import annotations

from mafia88_helpers import essay
from roles_helpers import roles_game

from plugins.gamekit.contract import Finish

ROUNDS = [
    {"votes": 1, "out": 1, "posts": {"孤杀": 1}},
    {"votes": 1, "out": 2, "posts": {"隐剑": 1, "剑": 1, "联": 1, "独": 1}},
    {"votes": 1, "out": 1, "posts": {"剑": 1, "孤杀": 1, "联": 1, "独": 1}},
    {"votes": 1, "out": 1, "posts": {"联": 1}},
    {"votes": 1, "out": 2, "posts": {"联": 1}},
    {"votes": 1, "out": 1, "posts": {}},
]

# Hand-computed from the clauses: round -> {player: cause}
EXPECTED = {
    1: {"yx0": "post", "yx1": "vote"},
    2: {"mo_jing0": "post",       # 隐剑 贴中魔镜: 魔镜出局, 隐剑照出 (§五黑6)
        "lianhe_jian0": "mine",   # 剑贴中地雷, 第2轮: 出贴者出局, 地雷不出局 (§五黑5)
        "yx3": "soul",            # 联合杀贴 yx2, 移魂把 yx2 移到 yx3 (§五白4); 还魂 yx4 无效 (§五黑8)
        "du_dan0": "post", "du_sha0": "mutual",  # 独立杀贴独立蛋同归 (§五白5)
        "an_dan0": "post",        # 工兵摸中暗蛋: 蛋出局, 工兵不出局 (§五黑7)
        "du_sha1": "vote", "yx6": "take"},       # 独立杀高票带走票线上一人 (§五黑3); 复活救回 yx5 (§五白6)
    3: {"gu_sha0": "post", "lianhe_jian1": "mutual",  # 剑贴孤杀同归 (§五白2)
        "lianhe_dan0": "post",    # 孤杀贴联合蛋: 同归 (孤杀已出局, 只算一次)
        "du_sha2": "post",        # 联合杀贴独立杀: 独立杀出局, 联合杀不出局 (§五黑2)
        "hei_dan0": "post",       # 独立杀贴黑蛋同归 (独立杀已出局, 只算一次)
        "lianhe_dan1": "vote", "yx7": "take", "yx8": "take",  # 另一蛋被贴杀, 本蛋仍可带两人 (§五白3)
        "yin_jian0": "countdown"},  # 贴中魔镜后只能活两轮 (§五白1)
    4: {"di_lei0": "post", "gong_bing0": "mutual",  # 工兵摸中地雷同归 (§五黑7); 地雷查看一人 (§五黑5)
        "fu_huo0": "post", "lianhe_sha1": "vote"},
    5: {"yx2": "post", "lianhe_sha0": "vote", "huan_hun0": "vote"},  # 还魂第4轮起为联合杀 (§五黑8)
}


class Script:
    def __init__(self, json_state: bool = False):
        self.g = roles_game("whole-game", rounds=ROUNDS, players=30, json_state=json_state)
        g = self.g
        self.S = {}
        for key in sorted({p.role for p in g.state.players.values()}):
            for i, s in enumerate(g.seats_of(key, living=False)):
                self.S[("yx" if key == "you_xia" else key) + str(i)] = s

    def post(self, author: str, target: str) -> None:
        self.g.host("approve", post=self.g.submit_post(self.S[author], self.S[target]))

    def votes(self, targets: list[str], first: list[tuple[str, str]] = (), sink: str = "yx4") -> None:
        g, S = self.g, self.S
        g.fire_due()  # posts due and publication
        done = set()
        for voter, target in first:
            g.cmd(S[voter], "vote", targets=[S[target]])
            done.add(S[voter])
        tseats = [S[t] for t in targets]
        i = 0
        for s in sorted(g.alive()):
            if s in done:
                continue
            if s in tseats:
                g.cmd(s, "vote", targets=[S[sink]])
            else:
                g.cmd(s, "vote", targets=[tseats[i % len(tseats)]])
                i += 1
        g.fire("phase")

    def outs(self, r: int) -> dict[str, str]:
        inv = {s: k for k, s in self.S.items()}
        return {inv[o.seat]: o.cause for o in self.g.state.rounds[r].outs}


def play(json_state: bool = False) -> Script:
    sc = Script(json_state)
    g, S = sc.g, sc.S
    # round 1: the 孤杀's first post (8 aliases, one a 联合杀, §六.1); yx1 top-voted names yx9 (§七.1)
    sc.post("gu_sha0", "yx0")
    sc.votes(["yx1"], first=[("yx9", "yx1")])
    g.cmd(S["yx1"], "soul", targets=[S["yx9"]])  # yx9 never writes: half votes in rounds 2-3
    # round 2
    sc.post("yin_jian0", "mo_jing0")
    sc.post("lianhe_jian0", "di_lei0")
    sc.post("lianhe_sha0", "yx2")
    sc.post("du_sha0", "du_dan0")
    sc.post("gong_bing0", "an_dan0")
    g.cmd(S["yi_hun0"], "soul_move", src=S["yx2"], dst=S["yx3"], text=essay(520, "移"))
    g.cmd(S["huan_hun0"], "soul_back", target=S["yx4"], text=essay(820, "还"))
    sc.votes(["du_sha1", "yx5"], first=[("yx6", "du_sha1")])
    g.cmd(S["du_sha1"], "take", targets=[S["yx6"]])
    g.cmd(S["fu_huo0"], "revive", target=S["yx5"])
    g.cmd(S["yx5"], "letter_thanks", text=essay(520, "谢"))
    # round 3
    sc.post("lianhe_jian1", "gu_sha0")
    sc.post("gu_sha0", "lianhe_dan0")
    sc.post("lianhe_sha1", "du_sha2")
    sc.post("du_sha2", "hei_dan0")
    sc.votes(["lianhe_dan1"], first=[("yx7", "lianhe_dan1"), ("yx8", "lianhe_dan1")])
    g.cmd(S["lianhe_dan1"], "take", targets=[S["yx7"], S["yx8"]])
    # round 4
    sc.post("gong_bing0", "di_lei0")
    sc.post("lianhe_sha0", "fu_huo0")
    sc.votes(["lianhe_sha1"])
    if g.state.step == "deciding":  # the 复活 is out: nothing to wait for
        g.fire("phase")
    g.cmd(S["di_lei0"], "check", target=S["huan_hun0"])
    # round 5
    sc.post("lianhe_sha0", "yx2")
    sc.votes(["lianhe_sha0", "huan_hun0"], first=[("lianhe_sha0", "yx4"), ("huan_hun0", "yx5")])
    return sc


def test_whole_seeded_game_with_every_role_matches_the_hand_computed_table():
    sc = play()
    g = sc.g
    for r, expected in EXPECTED.items():
        assert sc.outs(r) == expected, r
    assert g.state.step == "over" and g.state.winner == "white"
    # nobody went out twice; yx5 (revived) and yx4 (还魂 on the wrong player) survived
    outs = [o.seat for rd in g.state.rounds.values() for o in rd.outs]
    assert len(outs) == len(set(outs))
    assert g.p(sc.S["yx5"]).alive and g.p(sc.S["yx4"]).alive
    assert g.p(sc.S["yx9"]).half == [2, 3]
    assert g.p(sc.S["huan_hun0"]).role == "lianhe_sha" and g.p(sc.S["yi_hun0"]).role == "you_xia"
    # the 地雷's identity check (§五黑5) saw the 还魂 as what it had become
    assert any(t.endswith("联合杀（黑方）。") for t in g.says("reply"))
    reveal = next(e.summary for batch in g.log for e in batch if isinstance(e, Finish))
    assert f"{sc.S['huan_hun0']}号 {g.p(sc.S['huan_hun0']).alias}：还魂→联合杀（黑方）" in reveal
    assert f"{sc.S['yi_hun0']}号 {g.p(sc.S['yi_hun0']).alias}：移魂→游侠（白方）" in reveal


def test_replay_of_the_whole_game_is_identical_also_through_json_storage():
    a, b = play(), play(json_state=True)
    assert a.g.state == b.g.state
    assert a.g.log == b.g.log


def test_default_88_game_with_every_role_resolved_runs_to_its_end():
    """The default configuration (§四, §十) with the bot resolving every role:
    the game ends, nobody goes out twice, and the extra deaths of §五 (同归,
    带人) are on top of the §十 counts."""
    from mafia88_helpers import Game
    from test_full_game import victim_order

    from plugins.gamekit.contract import Eliminate, Restore
    from plugins.mafia88.engine.model import row

    g = Game(88, seed="default-roles", check_pure=False)
    g.report_all()
    first = [s for k in ("an_dan", "du_dan", "hei_dan", "mo_jing", "di_lei") for s in g.seats_of(k)]
    order = first + [s for s in victim_order(g) if s not in first]  # posts reach eggs, 魔镜 and 地雷 early
    for _ in range(12):
        if g.state.step == "over":
            break
        r = g.state.round
        quota = row(g.state, r).posts
        taken: set[int] = set()
        victims = [s for s in order if g.p(s).alive]
        for gkey, n in quota.items():
            roles = next(x for x in g.settings.groups if x.key == gkey).roles
            for author in [s for s in sorted(g.alive()) if g.p(s).role in roles and s not in taken][:n]:
                taken.add(author)
                g.host("approve", post=g.submit_post(author, victims.pop(0)))
        g.fire_due()
        if g.state.step == "over":
            break
        k = row(g.state, r).out
        g.vote_all([s for s in order if g.p(s).alive][:k], row(g.state, r).votes)
        g.close_round()
    assert g.state.step == "over"
    status = {s: True for s in range(1, 89)}
    for batch in g.log:
        for e in batch:
            if isinstance(e, Eliminate):
                assert status[e.seat]
                status[e.seat] = False
            elif isinstance(e, Restore):
                status[e.seat] = True
    causes = {o.cause for rd in g.state.rounds.values() for o in rd.outs}
    assert {"post", "vote", "mutual", "mine", "take"} <= causes, causes
