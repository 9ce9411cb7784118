"""§十一.1 / §十二.2 / §十二.6 原创首发: for each post and report hosts see how much of it is found in
the game's earlier texts and in the seed's own texts (longest shared run, share of 8-character
shingles), flagged past a threshold, before they approve."""

from __future__ import annotations

import random

import pytest
from mafia88_helpers import small

from plugins.gamekit.contract import Rejected

POOL = ("的一是了我不人在他有这个上们来到时大地为子中你说生国年着就那和要她出也得里后自以会家可下而过天去能对小多然于心学"
        "么之都好看起发当没成只如事把还用第样道想作种开美总从无情己面最女但现前些所同日手又行意动方期它头经长儿回位分爱老"
        "因很给名法间斯知世什两次使身者被高已亲其进此话常与活正感")


def prose(chars: int, seed: str) -> str:
    """Distinct Simplified Chinese text: sentences of random characters (no two texts share much)."""
    rng = random.Random(seed)
    out, n = [], 0
    while n < chars:
        s = "".join(rng.choice(POOL) for _ in range(19)) + "。"
        out.append(s)
        n += len(s)
    return "".join(out)


def gu_sha_posts(g, text: str) -> int:
    gu = g.seats_of("gu_sha")[0]
    target = g.seats_of("you_xia")[0]
    g.cmd(gu, "post", code=g.p(gu).code, target=target, text=text)
    g.cmd(gu, "done")
    return len(g.state.posts)


def test_a_post_copying_a_report_is_flagged_to_hosts_and_in_show_post_section_12_6():
    g = small()
    a, b = g.seats_of("you_xia")[:2]
    g.cmd(a, "report", text=prose(330, "a"))
    g.cmd(b, "report", text=prose(330, "b"))
    copied = g.p(a).report.text[:250]
    pid = gu_sha_posts(g, copied + prose(700, "own"))
    hosts = g.says("hosts")[-1]
    assert f"新杀帖 #{pid}" in hosts and f"报道{a}" in hosts and "⚠疑似抄袭" in hosts
    assert f"报道{b}" not in hosts
    shown = g.host("show", post=str(pid))[0].text
    line = next(ln for ln in shown.splitlines() if ln.startswith("重合："))
    assert f"报道{a} " in line and "最长连续 " in line and "⚠" in line
    run = int(line.split("最长连续 ")[1].split(" 字")[0])
    assert run >= 200  # the copied run, punctuation aside
    assert "⚠" in g.host("posts")[0].text  # /贴单 marks it too


def test_an_original_post_shows_no_flag_section_12_2():
    g = small()
    g.cmd(g.seats_of("you_xia")[0], "report", text=prose(330, "a"))
    pid = gu_sha_posts(g, prose(900, "mine"))
    shown = g.host("show", post=str(pid))[0].text
    assert "⚠" not in shown and "重合：" in shown


def test_a_report_copying_an_earlier_report_is_told_to_hosts_and_shown_section_11_1():
    g = small()
    a, b = g.seats_of("you_xia")[:2]
    g.cmd(a, "report", text=prose(330, "a"))
    g.cmd(b, "report", text=g.p(a).report.text)  # 原创首发: a copy of the first
    assert any(f"报道{b}" in t and f"报道{a}" in t and "⚠" in t for t in g.says("hosts"))
    shown = g.host("show", post=f"报道{b}")[0].text
    assert shown.startswith(f"报道{b}（{b}号 ") and f"报道{a} 100.0%" in shown
    assert g.p(a).report.overlap == []  # the first one is clean
    with pytest.raises(Rejected, match="没有报道"):
        g.host("show", post="报道99")


def test_rule_text_pasted_into_a_post_is_found_in_the_seeds_sources_section_12_6():
    g = small()
    rules = next(s.text for s in g.settings.originality.sources if "杀帖一般规则" in s.title)
    pid = gu_sha_posts(g, rules[:300] + prose(700, "own"))
    shown = g.host("show", post=str(pid))[0].text
    assert "规则 十二 杀帖一般规则" in shown and "⚠" in shown


def test_the_flag_threshold_is_a_setting_section_12_6():
    g = small(originality={"flag_percent": 90, "flag_run": 0})
    a = g.seats_of("you_xia")[0]
    g.cmd(a, "report", text=prose(330, "a"))
    pid = gu_sha_posts(g, g.p(a).report.text[:250] + prose(700, "own"))
    shown = g.host("show", post=str(pid))[0].text
    assert f"报道{a}" in shown and "⚠" not in shown


def test_closest_matches_are_stored_as_arrays_and_older_games_are_brought_up_to_date_section_12_6():
    """A closest match is stored as [label, percent, run, flag] (state version 4); a game saved before
    (version 3, each an object) is read with its matches and its reports' texts intact."""
    from plugins.mafia88.engine import ENGINE

    g = small()
    a, b = g.seats_of("you_xia")[:2]
    g.cmd(a, "report", text=prose(330, "a"))
    g.cmd(b, "report", text=g.p(a).report.text)
    pid = gu_sha_posts(g, g.p(a).report.text + prose(700, "own"))
    now = ENGINE.encode(g.state)
    assert now["version"] == 4
    assert now["players"][str(b)]["report"]["overlap"] == [[f"报道{a}", 100.0, g.p(b).report.overlap[0].run, True]]
    older = ENGINE.encode(g.state) | {"version": 3}
    for found in [older["players"][str(b)]["report"]["overlap"], older["posts"][pid - 1]["overlap"]]:
        found[:] = [{"label": x[0], "percent": x[1], "run": x[2], "flag": x[3]} for x in found]
    state = ENGINE.decode(older)
    assert state.players[b].report.text == g.p(a).report.text
    assert state.posts[pid - 1].overlap == g.state.posts[pid - 1].overlap and state.posts[pid - 1].overlap
    assert ENGINE.encode(state) == now
