"""A game saved by the plain-dict engine reads on with the typed one.

``fixtures/saved-v1.json`` is ``engine.encode(state)`` of the engine before its state was typed
(what the bot stored): eight players (甲…辛, seats 1–8) of a game with the default settings and
seed "saved-v1", stopped in the middle of night 4 (21:13 on the game's clock; the night ends
at 21:25): two players out (a closure and an attack), the witch and a werewolf alive and hurt,
a 生命启示 waiting for the morning, 丁 with two rewards to claim (通缉令), 甲 bleeding, 乙 resting,
庚 holding a 绷带 in hand, the host's plan for day 5 (排行榜 forced, 凛冬已至 forbidden).
"""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from harness import texts

from plugins.gamekit.contract import Actor, Command, Ctx, Eliminate, Outcome, Rejected, Say, SetPhase, Timer
from plugins.royale.engine import ENGINE, State
from plugins.royale.engine.state import (
    AirdropClaim,
    Broadcast,
    EventKey,
    FoundItem,
    FoundNpc,
    FoundPlayer,
    Hit,
    NpcKind,
    Phase,
    Plan,
    Slot,
    WantedClaim,
)

from royale_helpers import TZ, args_of

SAVED = Path(__file__).parent / "fixtures" / "saved-v1.json"
ALIASES = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛"]
NOW = datetime.fromisoformat("2026-12-03T13:13:06+00:00")  # when it was saved
NIGHT_ENDS = datetime.fromisoformat("2026-12-03T13:25:00+00:00")
SEQ = 170  # the arrival number of its last command


def saved() -> dict[str, Any]:
    return json.loads(SAVED.read_text(encoding="utf-8"))


def test_the_saved_json_is_what_the_plain_engine_stored():
    raw = saved()
    assert raw["version"] == 1 == ENGINE.STATE_VERSION  # the shape did not change: no upgrade needed
    assert raw["players"]["4"]["claims"][0] == {"kind": "wanted", "options": ["能量饮料", "急救包"]}


def test_it_decodes_typed_with_every_part_in_place():
    state = ENGINE.decode(saved())
    assert isinstance(state, State)
    assert (state.day, state.phase) == (4, Phase.NIGHT)
    assert sorted(state.players) == list(range(1, 9)) and [state.players[s].alias for s in range(1, 9)] == ALIASES
    assert [s for s in state.seats() if not state.players[s].alive] == [5, 8] == state.announced()
    ding = state.players[4]
    assert ding.claims == [WantedClaim(options=["能量饮料", "急救包"]), AirdropClaim(options=["自然升级器", "急救包"])]
    jia = state.players[1]
    assert (jia.hp, jia.bleed, jia.bleed_by, jia.place) == (70, 10, 4, "果园")
    assert jia.equipped(Slot.WEAPON).name == "西洋剑"
    geng = state.players[7]
    assert geng.equipped(Slot.HELD).name == "绷带" and geng.search == FoundItem(id=41, name="黑白家电", place="天上人间")
    assert state.players[3].search == FoundPlayer(seat=6, place="吠舞罗") and state.players[2].rest
    witch = state.witch()
    assert witch is not None and (witch.id, witch.kind, witch.hp, witch.place) == ("n2", NpcKind.WITCH, 985, "果园")
    assert [(b.by, b.dmg) for b in witch.damage] == [(2, 15)]
    assert state.night_log.hits == [Hit(6, "n5", 25), Hit(6, 7, 25)]  # an NPC's id or a seat
    assert state.broadcasts == [Broadcast(by=1, place="果园", target=2)] and state.published == {2: [5]}
    assert state.event_plan == Plan(force=EventKey.LEADERBOARD, forbid=[EventKey.WINTER])
    assert [t.key for t in state.today] == [EventKey.PILGRIMAGE] and state.today[0].place == state.holy == "Neverland"
    assert state.misses == {8: 2, 7: 1, 1: 1} and state.airdrops == ["金币", "红花丹"]
    assert sum(len(items) for items in state.ground.values()) == 96 and state.next_id == 190


def test_it_is_stored_again_with_the_same_keys_and_values():
    """Every key the plain engine wrote comes back as it was; the typed state adds only keys that
    hold their defaults (an NPC's ``gone``/``rewarded``, a death's ``day``, a player's ``searched``,
    ``wiped``, ``airdrops_next``, ``day_ends``)."""
    raw = saved()
    again = ENGINE.encode(ENGINE.decode(saved()))
    added = {k: again[k] for k in set(again) - set(raw)}
    assert added == {"wiped": False, "airdrops_next": [], "day_ends": None}
    for key, value in raw.items():
        if key not in ("npcs", "deaths", "players"):
            assert again[key] == value, key
    for seat, old in raw["players"].items():
        assert again["players"][seat] == {**old, "searched": ""}
    for old, new in zip(raw["deaths"], again["deaths"], strict=True):
        assert new == {**old, "day": False}
    for old, new in zip(raw["npcs"], again["npcs"], strict=True):
        assert {k: new[k] for k in old} == old and {k: new[k] for k in set(new) - set(old)} in (
            {"gone": False, "rewarded": False}, {"rewarded": False})


class Played:
    """The saved game going on, as the kernel runs it (one arrival number per call)."""

    def __init__(self) -> None:
        self.state: State = ENGINE.decode(saved())
        self.settings = ENGINE.settings_of(ENGINE.check_settings({}))
        self.seq, self.now, self.phase_end = SEQ, NOW, NIGHT_ENDS

    def ctx(self) -> Ctx:
        self.seq += 1
        return Ctx(self.now, random.Random(f"saved-v1:{self.seq}"), self.seq, TZ, self.settings,
                   phase=Timer("phase", self.phase_end))

    def cmd(self, seat: int | None, name: str, /, **args: Any) -> Outcome[State]:
        self.now += timedelta(seconds=31)
        actor = Actor(f"u{seat}" if seat else "1", seat, seat is None, True)
        out = ENGINE.apply(self.state, actor, Command(name, args_of(name, args)), self.ctx())
        self.state = out.state
        return out

    def reply(self, seat: int | None, name: str, /, **args: Any) -> str:
        return "\n".join(e.text for e in self.cmd(seat, name, **args).effects if isinstance(e, Say) and e.to == "reply")

    def refused(self, seat: int, name: str, /, **args: Any) -> str:
        with pytest.raises(Rejected) as exc:
            self.cmd(seat, name, **args)
        return str(exc.value)

    def deadline(self) -> Outcome[State]:
        self.now = max(self.now, self.phase_end)
        out = ENGINE.deadline(self.state, "phase", self.ctx())
        self.state = out.state
        self.phase_end = next((e.ends_at for e in out.effects if isinstance(e, SetPhase)), self.phase_end)
        return out


def test_the_night_goes_on_to_a_sensible_morning():
    g = Played()
    # 丁 takes the 通缉令 rewards: a 急救包, and where the 自然升级器 of night 3 landed
    assert g.reply(4, "claim", text="急救包") == "已领取【急救包】，放进了背包。"
    assert g.reply(4, "claim", text="自然升级器") == "空投「自然升级器」落在「穗波市」。"
    assert g.state.players[4].claims == [] and [i.name for i in g.state.players[4].items][-1] == "急救包"
    # 庚 uses the bandage in hand (HP capped at 100) and leaves 天上人间, which closes tonight
    assert g.reply(7, "use", item="绷带") == "你使用了「绷带」，生命 100。"
    assert g.reply(7, "move", place="果园") == "你移动到了「果园」，剩余体力 85。"
    # 己 hunts the hurt werewolf there (25 HP left: one blow of a blue weapon), then leaves too
    for _ in range(20):
        g.reply(6, "search")
        if g.state.players[6].search == FoundNpc(id="n5", place="天上人间"):
            break
    assert "你击杀了 躁动的狼人！获得：人造升级器" in g.reply(6, "attack")
    assert g.state.npc_deaths[-1].killer == 6 and g.state.npc_deaths[-1].id == "n5"
    g.reply(6, "move", place="海底落脚处")
    # refusals: 丙's target walked away; 乙 rests tonight; 戊 is out
    assert "目标已经不在「吠舞罗」了" in g.refused(3, "attack")
    assert "你今晚在静养" in g.refused(2, "search")
    assert "你已出局" in g.refused(5, "search")
    assert "明日安排：指定 排行榜；禁止 凛冬已至" in g.reply(None, "event")
    # the night ends: 甲 bleeds, nobody is caught by the closure, the morning of day 5
    out = g.deadline()
    assert Say(1, "流血 -10，剩余生命 60。使用鸟蛋、绷带、急救包或红花丹可以止血。") in out.effects
    assert not [e for e in out.effects if isinstance(e, Eliminate)]
    post = "\n".join(e.text for e in out.effects if isinstance(e, Say) and e.to == "group")
    assert post.startswith("【第5天】\n昨夜无人出局。") and "昨夜死去的NPC：躁动的狼人（攻击）" in post
    assert "【事件·排行榜】" in post and "存活 6 人" in post
    assert "【生命启示】「果园」：角色 甲、丁、庚、游荡的女巫" in post and "【生命启示】乙：生命 100" in post
    s = g.state
    assert (s.day, s.phase, s.holy, s.broadcasts) == (5, Phase.DAY, None, [])
    assert [t.key for t in s.today] == [EventKey.LEADERBOARD] and s.event_plan == Plan()
    assert s.witch_guests is not None and s.witch_guests.seats == [1, 4, 7] and s.witch_guests.delta == -30
    assert s.players[2].st == 100 and s.players[2].hp == 100  # rested: full stamina
    assert s.players[4].st == 100  # 朝圣之路 took 20 (never at the holy place), the day gave 40
    assert "天上人间" in s.closed and all(p.place != "天上人间" for p in s.alive())
    # a day command and the next night
    assert "只能出售武器和防具" in g.refused(4, "sell", item="急救包")
    out = g.deadline()
    assert g.state.phase == Phase.NIGHT and g.state.day == 5
    cards = [(e.seat, e.color) for e in out.effects if type(e).__name__ == "GiveCard"]
    assert cards == [(1, "yellow"), (2, "blue"), (3, "blue"), (4, "blue"), (6, "blue"), (7, "yellow")]


# ---- through the bot -----------------------------------------------------------------------

HOST = "1"


def qq(seat: int) -> str:
    return str(640 + seat)


async def test_the_bot_reads_a_saved_game_after_a_restart_and_plays_on(harness):
    """A game row holding the saved JSON (as the bot kept it before the engine was typed) is read by
    the typed engine once the held copy is forgotten (a restart), and chat commands go on."""
    from plugins.kernel.held import forget
    from plugins.kernel.models import Game, Player

    h = harness
    main = h.group_id
    await h.group(HOST, "/创建 大逃杀", role="owner")
    for seat, name in enumerate(ALIASES, 1):
        await h.group(qq(seat), f"/报名 {name}")
    await h.group(HOST, "/开始")
    g = await Game.get(group_id=main, status="running")
    await Game.filter(id=g.id).update(state=saved(), seed="saved-v1")
    await Player.filter(game_id=g.id, seat__in=[5, 8]).update(alive=False, out_reason="缩圈")
    forget(g.id)

    bag = texts(await h.private(qq(1), "/背包"), qq(1))
    assert "甲（1号）位置：果园" in bag and "生命 70，体力 100，货币 2，流血 10/夜" in bag
    assert "西洋剑（蓝色武器 伤害25）" in bag
    status = texts(await h.group(qq(2), "/状态"), main)
    assert "第4夜行动中" in status and "存活 6 人" in status and "今日事件：朝圣之路" in status
    roster = texts(await h.group(qq(2), "/名单"), main)
    assert "5号 戊（出局）" in roster and "8号 辛（出局）" in roster and "存活 6" in roster
    assert "已领取【急救包】" in texts(await h.private(qq(4), "/领取 急救包"), qq(4))
    assert "你使用了「绷带」，生命 100。" in texts(await h.private(qq(7), "/使用 绷带"), qq(7))
    assert "你移动到了「果园」" in texts(await h.private(qq(7), "/移动 果园"), qq(7))
    assert "你今晚在静养" in texts(await h.private(qq(2), "/搜索"), qq(2))
    morning = texts(await h.group(HOST, "/推进"), main)
    assert "【第5天】" in morning and "【事件·排行榜】" in morning and "【生命启示】「果园」" in morning
    row = await Game.get(id=g.id)
    assert row.state["day"] == 5 and row.state["version"] == 1 and row.state["players"]["7"]["place"] == "果园"
    assert row.state["players"]["4"]["claims"] == [{"kind": "airdrop", "options": ["自然升级器", "急救包"]}]
