"""Designed abilities through the bot (the sample identity file, the fixed deal of test_prison_chat):
/换房, /封锁, /保护, /查验, /窃听, /传话 and /加权 by private chat, resolved by the bot when the window
opens and closes and at the day's tally; a use written in the group is refused and recalled; the
group never learns whose ability did what (secret aliases, 【身份与胜利条件】（一）1(3)、2(5)); the
director's sheet 技能使用 (【导演职责】A导 9) has every use with its result."""

from __future__ import annotations

import pytest
from harness import texts
from test_prison_chat import (
    DEAL,
    HOST,
    advance,
    day1,
    export_by_host,
    group_to,
    host_mapping,
    open_game,
    private_to,
    qq,
    state_of,
)

pytestmark = pytest.mark.usefixtures("leak_scan")  # every group message checked against the game's secrets

MURDERER = 7


async def test_a_night_and_a_day_of_designed_abilities_through_the_bot(harness):
    h = harness
    await open_game(h, DEAL, "prep_minutes = 0")
    await advance(h)  # day 1
    # a use written in the group is refused (private only) and changes nothing
    assert "请私聊我" in texts(await h.group(qq(8), "/传话 1 你好"))
    assert "【匿名传话】你好" in private_to(await h.private(qq(8), "/传话 1 你好"), qq(1))
    await day1(h, 1, MURDERER, [1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12])
    mapping = await host_mapping(h)
    rooms = list(mapping)
    # 1 meets 12 and 2 meets 7 as chosen; 调包 swaps 7 and 12, so 1 meets the murderer
    for guard, prisoner, room in ((1, 12, rooms[0]), (2, MURDERER, rooms[1])):
        await h.private(qq(guard), f"/选房 {room}")
        await h.private(qq(prisoner), f"/选房 {mapping[room]}")
    assert "已记下「调包」" in texts(await h.private(qq(11), "/换房 7 12"))
    assert "已记下「守护」" in texts(await h.private(qq(6), "/保护 1"))
    assert "已记下「搜身」" in texts(await h.private(qq(2), "/查验 7"))
    assert "已记下「监听」" in texts(await h.private(qq(5), f"/窃听 {rooms[0]}"))
    assert "已记下「断电」" in texts(await h.private(qq(12), "/封锁 2"))
    out = await advance(h)  # the window opens
    assert "「调包」已生效" in private_to(out, qq(11))
    assert "换房结算（保密）" in private_to(out, HOST)
    st = await state_of(h)
    assert any(p.guard == 1 and p.prisoner == MURDERER for p in st.nights[-1].pairs)
    await h.private(qq(1), "你是谁")
    await h.private(qq(MURDERER), "我是冤枉的")
    for p in st.nights[-1].pairs:
        for seat in (p.guard, p.prisoner):
            await h.private(qq(seat), "……")
    await h.private(qq(10), "/技能 偷看 1号")
    out = await advance(h)  # the window closes
    assert "昨夜死亡：无" in group_to(out, h.group_id)  # 1 was protected
    assert "被你保护下来了" in private_to(out, qq(6))
    assert "「搜身」没有生效：你被封锁了。" in private_to(out, qq(2))
    heard = private_to(out, qq(5))
    assert "【看守】你是谁" in heard and "【囚犯】我是冤枉的" in heard
    summary = private_to(out, HOST)
    assert "第1夜技能结算（保密）" in summary and "未遂（目标被保护）" in summary
    # day 2: 威望 makes 6's vote count twice
    assert "算 2 票" in texts(await h.private(qq(6), "/加权"))
    await h.private(qq(6), "/处决 10")
    await h.private(qq(1), "/释放 11")
    out = await advance(h)
    assert "10号" in group_to(out, h.group_id) and "处决" in group_to(out, h.group_id)
    assert "加权计票（保密）" in private_to(out, HOST) and "加权" not in group_to(out, h.group_id)
    st = await state_of(h)
    assert st.players[10].status == "dead" and st.players[11].status == "alive"
    sheet = (await export_by_host(h))["技能使用"]
    used = {(row[8], row[10]) for row in sheet[1:]}
    assert {("守护", "挡下了杀人"), ("搜身", "失效（被封锁）"), ("断电", "已生效"), ("杀人", "未遂（目标被保护）"),
            ("威望", "今天 2 票"), ("递纸条", "你好")} <= used
    assert any(row[8] == "调包" and "↔" in row[10] for row in sheet[1:])
