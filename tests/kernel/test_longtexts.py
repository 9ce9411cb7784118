"""Texts out of the stored state: what an engine names in TEXTS is
written once to a row of its own and the stored state holds a ref in its place; the
engine, its hooks, /导出 and pages always see the texts themselves, also after a
restart and after a refused rule."""

import copy
from dataclasses import replace

import pytest
from demo_game.engine import DemoEngine, Target
from harness import demo_running, texts
from hypothesis import given, settings
from hypothesis import strategies as st

from plugins.gamekit.contract import Actor, Command, Rejected
from plugins.kernel.export import game_tables
from plugins.kernel.longtexts import MARK, REF, Texts, inflate, stored
from plugins.kernel.models import Game, GameText
from plugins.kernel.order import utcnow
from plugins.kernel.origin import Handling, Origin
from plugins.kernel.registry import get_kind
from plugins.kernel.held import forget
from plugins.kernel.unit import in_game

# ---- the pure part ------------------------------------------------------------------

PATHS = (("posts", "*", "text"), ("drafts", "*", "parts", "*"), ("souls", "*", "move", "text"))


def _state() -> dict:
    return {
        "round": 2,
        "posts": [{"id": 1, "text": "第一帖"}, {"id": 2, "text": ""}, {"id": 3, "text": "第一帖"}],
        "drafts": {"7": {"parts": ["甲", "乙"]}, "8": {"parts": []}},
        "souls": {"1": {"words": ["x"], "move": {"text": "魂"}}, "2": {"words": []}},
        "players": {"1": {"text": "not on a path"}},
    }


def test_stored_form_holds_refs_and_leaves_the_held_state_alone():
    state, texts_ = _state(), Texts()
    before = copy.deepcopy(state)
    out = stored(state, PATHS, texts_)
    assert state == before  # the held state keeps its texts
    assert out["posts"] == [{"id": 1, "text": {REF: 1}}, {"id": 2, "text": ""}, {"id": 3, "text": {REF: 1}}]  # one row per text
    assert out["drafts"]["7"]["parts"] == [{REF: 2}, {REF: 3}] and out["souls"]["1"]["move"] == {"text": {REF: 4}}
    assert out["players"] is state["players"] and out["souls"]["1"]["words"] is state["souls"]["1"]["words"]  # off the paths: shared
    assert texts_.new == [(1, "第一帖"), (2, "甲"), (3, "乙"), (4, "魂")]
    assert inflate(copy.deepcopy(out), PATHS, Texts(texts_.new)) == state


def test_a_text_stored_inline_by_older_code_is_read_as_it_is():
    state = _state()
    assert inflate(copy.deepcopy(state), PATHS, Texts()) == state


texts_strategy = st.text(max_size=6)
state_strategy = st.fixed_dictionaries({
    "posts": st.lists(st.fixed_dictionaries({"id": st.integers(), "text": texts_strategy}), max_size=5),
    "drafts": st.dictionaries(st.sampled_from(["1", "2", "3"]), st.fixed_dictionaries({"parts": st.lists(texts_strategy, max_size=4)})),
})


@settings(max_examples=60, deadline=None)
@given(state_strategy, state_strategy)
def test_property_written_then_read_back_is_the_same_state(first, second):
    """Two saves in a row (the second adds texts): every stored form reads back as its state."""
    kept = Texts()
    rows: list[tuple[int, str]] = []
    for state in (first, second):
        out = stored(state, PATHS, kept)
        rows += kept.new
        kept.new = []
        assert inflate(copy.deepcopy(out), PATHS, Texts(rows)) == state
        on_paths = [p["text"] for p in out["posts"]] + [x for d in out["drafts"].values() for x in d["parts"]]
        assert all(x == "" or set(x) == {REF} for x in on_paths)  # every text on a path is a ref


# ---- through the bot ------------------------------------------------------------------


async def _stored_notes(game_id: int) -> list:
    return (await Game.filter(id=game_id).values("state"))[0]["state"]["notes"]


async def test_notes_are_rows_of_their_own_and_read_back_everywhere(harness):
    assert DemoEngine.TEXTS == (("notes", "*"),)
    h = harness
    g = await demo_running(h)
    long = "记" + "长" * 3000
    assert texts(await h.private("31", long)) == "已记下。"
    assert texts(await h.private("32", "记第二条")) == "已记下。"
    assert await _stored_notes(g.id) == [f"{MARK}1", f"{MARK}2"]  # (a typed state's texts: marks)
    assert sorted(await GameText.filter(game_id=g.id).values_list("ref", "text")) == [(1, long), (2, "记第二条")]
    await h.group("31", "/票 2")  # a command that adds no text writes no text
    assert await GameText.filter(game_id=g.id).count() == 2
    forget(g.id)  # as after a restart
    assert texts(await h.private("32", long)) == "已记下。"  # the same text again: the same row
    assert await _stored_notes(g.id) == [f"{MARK}1", f"{MARK}2", f"{MARK}1"]
    assert (await game_tables(g.id))["笔记"] == [["内容"], [long], ["记第二条"], [long]]
    assert len(str((await Game.filter(id=g.id).values("state"))[0]["state"])) < 400  # the 6000 characters are not in it


async def test_a_refused_rule_is_undone_with_the_texts_read_back(harness, monkeypatch):
    """A rule works on the held state; when it refuses after changing it, the stored state
    is read back for the rest of the transaction, texts in place of their refs."""
    h = harness
    g = await demo_running(h)
    assert texts(await h.private("31", "记一条")) == "已记下。"

    def refuse(s, actor, args, ctx):
        s.notes.clear()
        raise Rejected("不行。")

    engine = get_kind(g.kind).engine
    monkeypatch.setitem(engine.specs, "vote", replace(engine.specs["vote"], rule=refuse))

    async def run(work):
        with pytest.raises(Rejected):
            await work.step("apply", origin=Origin("31", "private"), now=utcnow(),
                            actor=Actor("31", 1, False, True), cmd=Command("vote", Target(target=2)))
        return work.game.state.notes

    assert await in_game(g.id, Handling(Origin("31", "private"), utcnow()), set(), run) == ["记一条"]


def _game_reads(monkeypatch) -> list[dict]:
    """Every read of a game row from now on (``Game.get``), by its arguments."""
    reads: list[dict] = []
    real_get = Game.get

    def counted(*args, **kwargs):
        reads.append(kwargs)
        return real_get(*args, **kwargs)

    monkeypatch.setattr(Game, "get", counted)
    return reads


async def test_a_refused_rule_is_undone_from_its_last_write_and_the_game_stays_held(harness, monkeypatch):
    """A refusal after the rule changed the held state is undone from the state the game's last
    write handed in: the game is not read again, for the refusal nor for the command after it (a
    night's sixty players acting after the night ended each cost two reads of the game before);
    a command refused before its rule ran leaves the held game as it was."""
    h = harness
    g = await demo_running(h)
    assert "投给 2号" in texts(await h.group("31", "/票 2"))  # a command written in one trip: its state is kept
    engine = get_kind(g.kind).engine

    def refuse(s, actor, args, ctx):
        s.votes.clear()
        raise Rejected("不行。")

    reads = _game_reads(monkeypatch)
    with monkeypatch.context() as m:
        m.setitem(engine.specs, "vote", replace(engine.specs["vote"], rule=refuse))
        assert "不行。" in texts(await h.group("31", "/票 2"))
    refused = texts(await h.group("32", "/票 99"))  # refused before any rule ran: nothing to undo
    assert "99" in refused and "投给" not in refused
    assert "投给 1号" in texts(await h.group("32", "/票 1"))
    assert reads == []
    assert [row[1:3] for row in (await game_tables(g.id))["票"][1:]] == [[1, 2], [2, 1]]  # (voter seat, target)
    forget(g.id)  # as after a restart: the game is read for the first refusal, then held through the others
    reads.clear()
    with monkeypatch.context() as m:
        m.setitem(engine.specs, "vote", replace(engine.specs["vote"], rule=refuse))
        for _ in range(3):
            assert "不行。" in texts(await h.group("31", "/票 2"))
    assert len(reads) == 2  # the first one's load and its undo
    assert [row[1:3] for row in (await game_tables(g.id))["票"][1:]] == [[1, 2], [2, 1]]


async def test_queries_keep_their_game_held(harness, monkeypatch):
    """A read-only command keeps the game it read held: after a restart, players asking /状态 or
    /背包 before anyone acts read the game once, not once each."""
    h = harness
    g = await demo_running(h)
    forget(g.id)  # as after a restart
    reads = _game_reads(monkeypatch)
    for user in ("31", "32", "31"):
        assert texts(await h.group(user, "/查票")).endswith("已投 0 票。")
    assert len(reads) == 1


async def test_a_start_the_engine_refuses_leaves_the_game_signing_up(harness, monkeypatch):
    """/开始 marks the game running before the deal; when the deal refuses, the game held in
    memory is not kept as running (a refusal keeps its game only when nothing was left changed)."""
    h = harness
    await h.group("1", "/创建 测试局", role="owner")
    await h.group("31", "/报名 甲")
    await h.group("32", "/报名 乙")
    g = await Game.get(group_id=h.group_id, status="signup")

    def refuse(roster, ctx):
        raise Rejected("发身份失败。")

    with monkeypatch.context() as m:
        m.setattr(get_kind(g.kind).engine, "start", refuse)
        assert "发身份失败。" in texts(await h.group("1", "/开始"))
    assert "3号「丙」" in texts(await h.group("33", "/报名 丙"))  # still signing up
    assert (await Game.get(id=g.id)).status == "signup"



async def test_a_state_stored_with_the_older_refs_reads_back(harness):
    """A state stored before the marks (a text's place as {"$text": ref}) reads back with its texts."""
    h = harness
    g = await demo_running(h)
    assert texts(await h.private("31", "记一条")) == "已记下。"
    await Game.filter(id=g.id).update(state={**(await Game.get(id=g.id)).state, "notes": [{REF: 1}]})
    forget(g.id)
    assert (await game_tables(g.id))["笔记"] == [["内容"], ["记一条"]]
    assert texts(await h.private("31", "记第二条")) == "已记下。"
    assert (await game_tables(g.id))["笔记"] == [["内容"], ["记一条"], ["记第二条"]]
