"""Prison 小号: a player registers one extra QQ privately;
room join requests are approved for the sign-up QQ or that 小号, cards and
room lines show only 看守 / 囚犯, and only hosts learn the number."""

import pytest
from harness import joined_payload, request_payload, texts
from test_prison_chat import (
    ALIASES,
    DEAL,
    HOST,
    advance,
    api_calls,
    day1,
    group_to,
    host_mapping,
    love_hate,
    private_to,
    qq,
    state_of,
)

pytestmark = pytest.mark.usefixtures("leak_scan")  # every group message checked against the game's secrets

ALT = "77777"


async def test_alt_account_joins_the_room_in_the_players_place(harness):
    h = harness
    rooms = [str(881100 + i) for i in range(6)]
    await h.group(HOST, "/创建 囚犯", role="owner")
    for grp in rooms:
        await h.group(HOST, f"/绑定群 {h.group_id} {grp}", group=grp)
    for seat in range(1, 13):
        await h.private(qq(seat), f"/报名 {h.group_id} {ALIASES[seat - 1]}")
    # bad input first: nothing is registered
    assert "请私聊我登记" in texts(await h.group(qq(7), f"/小号 {ALT}"))
    assert "QQ 号（数字）" in texts(await h.private(qq(7), "/小号 abc"))
    assert "机器人自己的 QQ" in texts(await h.private(qq(7), f"/小号 {h.bot.self_id}"))
    assert "就是你报名用的 QQ" in texts(await h.private(qq(7), f"/小号 {qq(7)}"))
    assert "已被本局其他人使用" in texts(await h.private(qq(7), f"/小号 {qq(1)}"))
    out = await h.private(qq(7), f"/小号 {ALT}")  # before the start
    assert f"已登记小号 {ALT}" in private_to(out, qq(7)) and ALT in private_to(out, HOST)
    assert ALT not in group_to(out, h.group_id)
    assert "已被本局其他人使用" in texts(await h.private(qq(8), f"/小号 {ALT}"))
    for line in ('room_mode = "group"', DEAL, "prep_minutes = 0"):
        assert "配置已更新" in texts(await h.group(HOST, f"/配置 {line}"))
    await h.group(HOST, "/开始")
    await love_hate(h)
    await advance(h)
    await day1(h, 2, 7, [1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12])
    mapping = await host_mapping(h)
    await h.private(qq(1), "/选房 a")
    await h.private(qq(7), f"/选房 {mapping['a']}")
    out = await advance(h)
    assert "/小号" in private_to(out, qq(7))  # the night message offers the 小号 (【游戏流程】<6>)
    st = await state_of(h)
    g17 = next(p.group for p in st.nights[-1].pairs if p.guard == 1)
    assert "审讯进行中不能更换小号" in texts(await h.private(qq(7), "/小号 88888"))
    mark = len(h.bot.calls)
    await h.event(request_payload(h.bot.self_id, g17, ALT, "alt"))
    await h.event(request_payload(h.bot.self_id, g17, "66666", "stranger"))
    answers = {c["flag"]: c["approve"] for c in api_calls(h, "set_group_add_request", mark)}
    assert answers == {"alt": True, "stranger": False}
    mark = len(h.bot.calls)
    await h.event(joined_payload(h.bot.self_id, g17, ALT))
    cards = {(str(c["user_id"]), c["card"]) for c in api_calls(h, "set_group_card", mark)}
    assert cards == {(ALT, "囚犯")}
    # the 小号's room lines count for the player (kept for the transcript)
    assert await h.group(ALT, "我是小偷", group=g17) == []
    st = await state_of(h)
    lines = [x.text for pair in st.nights[-1].pairs if pair.guard == 1 for x in pair.lines]
    assert "我是小偷" in lines
    everything = "".join(t for *_, t in (await h.drain()))
    assert ALT not in everything
