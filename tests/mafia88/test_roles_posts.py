"""§五 posts: every poster kind against every kind of target, before and after
round 4, with the expected outcome written from the clause text."""

from __future__ import annotations

import pytest
from mafia88_helpers import essay
from roles_helpers import at_round, post_in_round

from plugins.gamekit.contract import Rejected, Say

EGGS = ("lianhe_dan", "du_dan", "an_dan", "hei_dan")
POSTERS = ("yin_jian", "lianhe_jian", "gu_sha", "lianhe_sha", "du_sha", "gong_bing")
TARGETS = EGGS + ("di_lei", "mo_jing", "gu_sha", "yin_jian", "lianhe_sha", "du_sha", "you_xia", "fu_huo")


def expected(poster: str, target: str, r: int) -> tuple[bool, bool, bool]:
    """(target out, poster out, poster revealed) from the clauses of §五."""
    if poster == "gong_bing":  # 黑7: eggs out, 地雷 同归, anything else: nothing
        if target in EGGS:
            return True, False, False
        if target == "di_lei":
            return True, True, False
        return False, False, False
    if target == "di_lei":  # 黑5: before round 4 the poster dies; after, 同归 (until round 5)
        return (False, True, False) if r <= 3 else (True, True, False) if r <= 5 else (True, False, False)
    if target == "mo_jing":  # 黑6
        if poster in ("yin_jian", "gu_sha") and r <= 5:
            return True, False, True  # mirror out, poster revealed and counting down (白1, 黑1)
        if r <= 4:
            return False, False, True  # 白2/黑2: revealed, the mirror stays
        if r == 5:
            return True, False, True
        return True, False, False
    if target in EGGS:  # 白3/白5/白7/黑4: 同归 until the round-4 posts
        return (True, True, False) if r <= 4 else (True, False, False)
    if target == "gu_sha":  # 黑1 and every poster's clause: 同归
        return True, True, False
    if target == "yin_jian" and poster == "gu_sha":  # 白1: 接孤杀贴同归
        return True, True, False
    return True, False, False  # 黑2/黑3: 联合杀 on 独立杀, 独立杀 on 联合杀/独立杀: only the target


def clause(poster: str, target: str, r: int) -> str:
    """The clause each case checks (shown in the test id)."""
    if poster == "gong_bing":
        return "§五黑7"
    if target == "di_lei":
        return "§五黑5"
    if target == "mo_jing":
        return "§五黑6"
    if target in EGGS:
        return {"lianhe_dan": "§五白3", "du_dan": "§五白5", "an_dan": "§五白7", "hei_dan": "§五黑4"}[target]
    if target == "gu_sha":
        return "§五黑1"
    if target == "yin_jian" and poster == "gu_sha":
        return "§五白1"
    return "§五黑2、黑3"


def ascii_clause(c: str) -> str:
    return c.replace("§五白", "s5white").replace("§五黑", "s5black").replace("、黑", "+black")


CASES = [(p, t, r) for r in (3, 4, 5, 6) for p in POSTERS for t in TARGETS
         if p != t and not (p == "gong_bing" and r > 4)]


@pytest.mark.parametrize("poster_role,target_role,r", CASES, ids=[f"{p}-{t}-r{r}-{ascii_clause(clause(p, t, r))}" for p, t, r in CASES])
def test_post_matrix_section_5(poster_role, target_role, r):
    g = at_round(r)
    poster = g.seats_of(poster_role)[0]
    target = next(s for s in g.seats_of(target_role) if s != poster)
    post_in_round(g, poster, target)
    g.fire_due(g.timers[f"publish:{r}"])
    t_out, p_out, revealed = expected(poster_role, target_role, r)
    assert (not g.p(target).alive, not g.p(poster).alive) == (t_out, p_out)
    reveals = [rv.seat for rv in g.state.rounds[r].reveals]
    assert (poster in reveals) == revealed
    # the explanation reached the hosts as numbered steps naming the target's role
    hosts = g.says("hosts")
    assert any(line.startswith("1. ") and f"{target}号是" in line for h in hosts for line in h.splitlines())


def test_gong_bing_posts_only_in_rounds_2_to_4_section_5_black_7():
    g = at_round(1)
    gb = g.seats_of("gong_bing")[0]
    with pytest.raises(Rejected, match="第2至4轮出贴（§五黑7）"):
        g.cmd(gb, "post", code=g.p(gb).code, target=g.seats_of("du_dan")[0])
    g = at_round(5)
    with pytest.raises(Rejected, match="§五黑7"):
        g.cmd(gb, "post", code=g.p(gb).code, target=g.seats_of("du_dan")[0])
    g = at_round(2)  # never forced: no post from the 工兵 puts nobody out (§十二.9)
    g.host("set_round", round=2, votes=1, out=0, posts="无")
    g.fire_due(g.timers["publish:2"])
    assert g.p(gb).alive


def test_mirror_hit_by_yin_jian_lives_two_rounds_then_out_section_5_white_1():
    g = at_round(3)
    yj, mj = g.seats_of("yin_jian")[0], g.seats_of("mo_jing")[0]
    post_in_round(g, yj, mj)
    g.fire_due(g.timers["publish:3"])
    assert not g.p(mj).alive and g.p(yj).alive
    from roles_helpers import quiet_round

    quiet_round(g)  # round 3 result: 隐剑 revealed with it, still alive
    res3 = [t for t in g.says("group") if t.startswith("【第3轮结果】")][0]
    assert f"照出真身：{yj}号 {g.p(yj).alias} 是隐剑" in res3
    assert g.p(yj).alive
    quiet_round(g)  # round 4 result: the second round is over, out
    assert not g.p(yj).alive and g.p(yj).out.cause == "countdown" and g.p(yj).out.round == 4
    res4 = [t for t in g.says("group") if t.startswith("【第4轮结果】")][0]
    assert "只能活两轮" in res4


def test_two_posts_on_one_egg_both_posters_die_and_the_egg_once_section_5_white_5():
    g = at_round(3)
    lh, du, egg = g.seats_of("lianhe_sha")[0], g.seats_of("du_sha")[0], g.seats_of("du_dan")[0]
    g.host("set_round", round=3, votes=1, out=0, posts="联1 独1")
    g.host("approve", post=g.submit_post(lh, egg))
    g.host("approve", post=g.submit_post(du, egg))
    g.fire_due(g.timers["publish:3"])
    assert not any(g.p(s).alive for s in (lh, du, egg))
    outs = [o.seat for o in g.state.rounds[3].outs]
    assert sorted(outs) == sorted({lh, du, egg})


def test_di_lei_mutual_after_round_4_may_check_one_identity_section_5_black_5():
    g = at_round(4)
    du, dl = g.seats_of("du_sha")[0], g.seats_of("di_lei")[0]
    post_in_round(g, du, dl)
    effects = g.fire_due(g.timers["publish:4"]) or []
    assert not g.p(dl).alive and not g.p(du).alive
    assert any("/查身份" in t for t in g.says(dl))
    other = g.seats_of("gu_sha")[0]
    with pytest.raises(Rejected, match="不能查看自己"):
        g.cmd(dl, "check", target=dl)
    out = g.cmd(dl, "check", target=other)
    assert out[0].to == "reply" and "孤杀（黑方）" in out[0].text
    with pytest.raises(Rejected, match="已经查看过一次"):
        g.cmd(dl, "check", target=g.seats_of("you_xia")[0])
    with pytest.raises(Rejected, match="§五黑5"):
        g.cmd(g.seats_of("you_xia")[0], "check", target=other)
    assert effects is None or all(not isinstance(e, Say) or "孤杀（黑方）" not in e.text or e.to != "group" for e in effects)


def test_first_gu_sha_post_names_exactly_8_aliases_with_a_lianhe_sha_section_6_1():
    g = at_round(1)
    gu = g.seats_of("gu_sha")[0]
    lh = g.seats_of("lianhe_sha")
    yx = g.seats_of("you_xia")
    alias = lambda s: g.p(s).alias  # noqa: E731
    g.host("set_round", round=1, votes=1, out=0, posts="孤杀1")

    def attempt(names):
        g.cmd(gu, "post", code=g.p(gu).code, target=yx[0], text="、".join(alias(s) for s in names) + essay(900))
        try:
            g.cmd(gu, "done")
        finally:
            g.state.drafts.pop(gu, None)

    with pytest.raises(Rejected, match="有且只有 8 个游戏马甲（§六.1），现有 7 个"):
        attempt([lh[0]] + yx[:6])
    others = [s for s in range(1, 27) if g.p(s).role not in ("lianhe_sha", "gu_sha")]
    with pytest.raises(Rejected, match="至少要有一个联合杀马甲"):
        attempt(others[:8])
    with pytest.raises(Rejected, match="现有 7 个"):  # its own alias does not count (§六.1 不包括孤杀自己)
        attempt([gu, lh[0]] + yx[:6])
    assert g.state.posts == []
    attempt([lh[0]] + others[:7])
    assert len(g.state.posts) == 1


def test_host_overrides_a_step_before_publication_and_it_is_recorded():
    g = at_round(3)
    du, egg = g.seats_of("du_sha")[0], g.seats_of("hei_dan")[0]
    post_in_round(g, du, egg)
    with pytest.raises(Rejected, match="交贴还没截止"):
        g.host("override", step=1, result="出局", reason="测试")
    with pytest.raises(Rejected, match="交贴还没截止"):
        g.host("steps")
    g.fire("posts_due:3")
    preview = g.says("hosts")[-1]
    assert g.host("steps")[0].text == preview
    assert "第3轮杀帖结算预览" in preview and f"1. {g.p(du).code}（独立杀，{du}号" in preview
    assert "同归" in preview and "/改判" in preview
    with pytest.raises(Rejected, match="看不懂结果"):
        g.host("override", step=1, result="随便", reason="测试")
    with pytest.raises(Rejected, match="没有第 2 步"):
        g.host("override", step=2, result="出局", reason="测试")
    with pytest.raises(Rejected, match="理由"):
        g.host("override", step=1, result="出局")
    out = g.host("override", step=1, result="出局", reason="黑蛋已失效，哨群裁定")
    assert "已改判第 1 步" in out[0].text
    assert "哨子改判：host，黑蛋已失效" in out[1].text
    g.host("publish_now")
    assert not g.p(egg).alive and g.p(du).alive
    assert g.state.audit[-1].by == "host" and "黑蛋已失效" in g.state.audit[-1].what
    with pytest.raises(Rejected, match="已公布"):
        g.host("override", step=1, result="同归", reason="晚了")
    assert "publish:3" not in g.timers


def test_export_keeps_overrides_private_messages_and_role_changes():
    from plugins.mafia88.engine import ENGINE

    g = at_round(4)
    g.host("dm", player=g.seats_of("you_xia")[0], text="提醒")
    du, egg = g.seats_of("du_sha")[0], g.seats_of("hei_dan")[0]
    post_in_round(g, du, egg)
    g.fire("posts_due:4")
    g.host("override", step=1, result="出局", reason="测试改判")
    t = ENGINE.tables(g.state, settings=g.settings)
    assert any("改判第4轮第1步" in str(row[3]) and row[2] == "host" for row in t["记录"])
    assert any("私信" in str(row[3]) for row in t["记录"])
    assert any(row[2] == "还魂→联合杀" for row in t["身份"])


def test_substitutes_post_as_their_own_role_section_9_1():
    """§九.1: with the 联合杀 out the 孤杀 posts for 联; on the 魔镜 it is still a 孤杀 (§五黑6 countdown)."""
    g = at_round(3)
    for s in g.seats_of("lianhe_sha"):
        g.host("out", player=s, reason="测试")
    gu, mj = g.seats_of("gu_sha")[0], g.seats_of("mo_jing")[0]
    g.host("set_round", round=3, votes=1, out=0, posts="联1")
    g.host("approve", post=g.submit_post(gu, mj))
    assert g.state.posts[-1].group == "联"
    g.fire_due(g.timers["publish:3"])
    assert not g.p(mj).alive and g.p(gu).alive
    assert g.state.countdowns[-1].seat == gu


def test_hei_dan_substitute_posting_an_egg_dies_with_it_section_9_1_and_5_white_5():
    g = at_round(3)
    for s in g.seats_of("lianhe_sha") + g.seats_of("gu_sha"):
        g.host("out", player=s, reason="测试")
    hd, egg = g.seats_of("hei_dan")[0], g.seats_of("du_dan")[0]
    g.host("set_round", round=3, votes=1, out=0, posts="联1")
    g.host("approve", post=g.submit_post(hd, egg))
    g.fire_due(g.timers["publish:3"])
    assert not g.p(egg).alive and not g.p(hd).alive


def test_a_host_variant_of_the_effects_is_validated_in_chinese():
    from plugins.mafia88.engine import ENGINE

    bad = {"effects": {"post": [{"poster": ["du_sha"], "target": ["*"], "rounds": [3, 1], "effect": "explode"}],
                       "vote": [{"role": "du_sha", "take": -1}]}}
    with pytest.raises(Rejected) as exc:
        ENGINE.check_settings(bad)
    assert str(exc.value).splitlines() == [
        "effects.post[1].rounds：应为 [起始轮, 结束轮]（结束轮 0 表示不结束）。",
        "effects.post[1].effect 只能是 kill、mutual、poster_dies、reveal、reveal_kill、countdown 或 none。",
        "effects.vote[1].take 应为不小于 0 的整数。",
    ]
    with pytest.raises(Rejected) as exc:  # a rule naming a role that does not exist
        ENGINE.check_settings({"effects": {"post": [{"poster": ["nobody"], "target": ["*"], "effect": "none"}]}})
    assert str(exc.value) == "effects.post[1].poster 里的身份「nobody」不存在。"
    # a valid variant: the 工兵 probes nothing, everything else as default
    cfg = ENGINE.check_settings({"effects": {"post": [{"poster": ["gong_bing"], "target": ["*"], "effect": "none"}]}})
    assert cfg["effects"]["post"][0]["rounds"] == [1, 0] and cfg["effects"]["vote"]
