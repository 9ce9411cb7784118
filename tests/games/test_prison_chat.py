"""囚犯游戏 through the bot: a full 12-player game in each room mode, driven by
OneBot events through the real router, engine, database and outbound queue.

relay mode: roles from the stored seed's random draw (read back from the game state, as the
host's sheet would show them); the murderer is released on day 2 (（三）3).
group mode: a fixed deal by /配置; room groups linked with /绑定群 <游戏群号> <群号>; join
requests, group cards, mute/unmute and kicks are checked in the bot's API calls; the murderer
side is executed on days 2 and 3 (（三）1).
"""

from __future__ import annotations

import csv
import re
from datetime import timedelta
from pathlib import Path

import pytest
from harness import export_folder, joined_payload, private_payload, request_payload, texts

from plugins.kernel.deadlines import fire_timer
from plugins.kernel.longtexts import game_with_texts
from plugins.kernel.models import Card, Game, Player, Timer
from plugins.kernel.order import utcnow
from plugins.prison.engine.model import PointItem, State

pytestmark = pytest.mark.usefixtures("leak_scan")  # every group message checked against the game's secrets

HOST = "1"
ALIASES = ["青龙", "白虎", "朱雀", "玄武", "麒麟", "凤凰", "貔貅", "饕餮", "穷奇", "梼杌", "混沌", "白泽"]
DEAL = (  # seat -> sample12 role (group mode)
    'deal = { "1" = "noise", "2" = "search", "3" = "lover_g", "4" = "patrol", "5" = "listener", "6" = "keeper", '
    '"7" = "murderer", "8" = "accomplice", "9" = "lover_p", "10" = "thief", "11" = "survivor", "12" = "saboteur" }'
)


def qq(seat: int) -> str:
    return str(3000 + seat)


def private_to(sent, user: str) -> str:
    return "\n".join(t for kind, tgt, t in sent if kind == "private" and tgt == user)


def group_to(sent, group: str) -> str:
    return "\n".join(t for kind, tgt, t in sent if kind == "group" and tgt == group)


def api_calls(h, action: str, start: int = 0) -> list[dict]:
    return [data for api, data in h.bot.calls[start:] if api == action]


async def state_of(h) -> State:
    """The game's state as its engine sees it (decoded, texts in place, see kernel/longtexts.py)."""
    g = await Game.filter(group_id=h.group_id).order_by("-id").first()
    return (await game_with_texts(g.id)).state


async def open_game(h, *settings: str) -> list:
    """/创建 囚犯, 12 private sign-ups, optional /配置 lines, /开始; returns what /开始 sent."""
    assert "私聊我发送 /报名" in texts(await h.group(HOST, "/创建 囚犯", role="owner"))
    # secret aliases: sign-up in the group is refused, by private chat it works
    assert "请私聊我发送" in texts(await h.group(qq(1), f"/报名 {ALIASES[0]}"))
    for seat in range(1, 13):
        out = await h.private(qq(seat), f"/报名 {h.group_id} {ALIASES[seat - 1]}")
        assert f"报名成功：{seat}号「{ALIASES[seat - 1]}」" in private_to(out, qq(seat))
        assert qq(seat) not in group_to(out, h.group_id)  # the group sees seat and alias only
    for line in settings:
        assert "配置已更新" in texts(await h.group(HOST, f"/配置 {line}"))
    out = await h.group(HOST, "/开始")
    group_text = group_to(out, h.group_id)
    assert "囚犯游戏开始" in group_text and "杀人犯" not in group_text
    for seat in range(1, 13):
        assert "你是【" in private_to(out, qq(seat))  # identity by private message only
        assert qq(seat) not in group_text
    assert "本局房间对应（保密）" in private_to(out, HOST)
    return out


async def love_hate(h) -> None:
    assert "请私聊我发送 /爱" in texts(await h.group(qq(1), "/爱 2"))  # secret: private only
    assert "不能选择自己" in texts(await h.private(qq(1), "/爱 1"))
    for seat in range(1, 13):
        verb = "恨" if seat == 12 else "爱"
        other = 1 if seat == 12 else (seat % 12) + 1
        assert f"已记录：你{verb}" in texts(await h.private(qq(seat), f"/{verb} {other}"))


async def host_mapping(h) -> dict[str, str]:
    text = texts(await h.private(HOST, "/房间对应"))
    pairs = dict(re.findall(r"([a-z])-([A-Z])", text))
    assert len(pairs) == 6, text
    return pairs


async def advance(h) -> list:
    out = await h.group(HOST, "/推进")
    assert "主持结束了当前阶段" in texts(out)
    return out


async def deadline(h) -> list:
    """The phase deadline passes: the armed timer row fires (as the scheduler would)."""
    g = await Game.filter(group_id=h.group_id).order_by("-id").first()
    t = await Timer.get(game_id=g.id, key="phase", status="armed")
    await Timer.filter(id=t.id).update(ends_at=utcnow() - timedelta(seconds=1))
    await fire_timer(t.id, set())
    return await h.drain()


async def day1(h, chief: int, leader: int, guards: list[int], prisoners: list[int], quiet: int | None = None) -> list:
    """Day 1: discussion posts in the main group (quiet player: only 2) and the elections."""
    for seat in range(1, 13):
        for i in range(2 if seat == quiet else 5):
            assert await h.group(qq(seat), f"第{i + 1}条发言") == []  # counted silently
    for g in guards:
        await h.private(qq(g), f"/投票 {chief}")
    for p in prisoners:
        await h.private(qq(p), f"/投票 {leader}")
    return await advance(h)


SHEETS = ("玩家", "技能使用", "审讯对应", "审讯记录", "积分")


def read_sheets(folder: Path) -> dict[str, list[list[str]]]:
    sheets = {}
    for name in SHEETS:
        with open(folder / f"{name}.csv", encoding="utf-8-sig") as f:
            sheets[name] = list(csv.reader(f))
    assert list(folder.glob("*.xlsx"))
    return sheets


async def export_by_host(h) -> dict[str, list[list[str]]]:
    """/导出 through the bot (while the game runs)."""
    text = texts(await h.group(HOST, "/导出"))
    assert "已导出" in text, text
    return read_sheets(export_folder(h))


async def export_after_end(h) -> dict[str, list[list[str]]]:
    """After the end the kernel drops the game from its directory, so /导出 in the group answers
    "本群现在没有游戏" (the kernel offers no /导出 of an ended game there); the same export function is
    called directly."""
    from plugins.kernel.export import export_game

    g = await Game.filter(group_id=h.group_id).order_by("-id").first()
    return read_sheets((await export_game(g.id, h.now)).folder)


# ---------------------------------------------------------------------------------------------


async def test_prison_relay_rooms_full_game_through_the_bot(harness):
    h = harness
    await open_game(h, "prep_minutes = 0")
    st = await state_of(h)
    kind = {s: p.kind for s, p in st.players.items()}
    role = {s: p.role for s, p in st.players.items()}
    guards = [s for s in range(1, 13) if kind[s] == "guard"]
    prisoners = [s for s in range(1, 13) if kind[s] == "prisoner"]
    assert len(guards) == 6 and len(prisoners) == 6
    seat_of = {r: s for s, r in role.items()}
    murderer, thief = seat_of["murderer"], seat_of["thief"]
    chief = next(g for g in guards if role[g] != "lover_g")
    victim = next(g for g in guards if g != chief and role[g] != "lover_g")
    quiet = next(g for g in guards if g not in (chief, victim))
    # 【游戏流程】<3>: the players sheet keeps each player's random number
    assert all(isinstance(p.number, int) for p in st.players.values())

    await love_hate(h)
    out = await advance(h)  # prep -> day 1
    assert "第1天开始" in group_to(out, h.group_id)
    # no verdict on day 1 (elections only)
    assert "处决/释放从第2天开始" in texts(await h.private(qq(prisoners[0]), "/处决 1"))
    out = await day1(h, chief, prisoners[0], guards, prisoners, quiet=quiet)
    gt = group_to(out, h.group_id)
    assert f"{quiet}号 {ALIASES[quiet - 1]} 获得黄牌" in gt and "少于 5 条" in gt  # （三）4
    assert "选房开始" in gt
    assert await Card.filter(seat=quiet, game__group_id=h.group_id).count() == 1

    # rooms: the victim guard meets the murderer; a taken room is refused; the rest are random
    mapping = await host_mapping(h)
    room = sorted(mapping)[0]
    assert "已选" in texts(await h.private(qq(victim), f"/选房 {room}"))
    assert "已被选走" in texts(await h.private(qq(chief), f"/选房 {room}"))
    assert "已选" in texts(await h.private(qq(murderer), f"/选房 {mapping[room]}"))
    out = await h.private(qq(victim), "你在吗")  # relay outside the window
    assert "现在不是审讯时间" in texts(out)
    # a prisoner submits the full correct mapping first (（二）4)
    line = " ".join(f"{g}-{p}" for g, p in mapping.items())
    assert "已收到你的房间对应" in texts(await h.private(qq(prisoners[-1]), f"/提交对应 {line}"))

    out = await deadline(h)  # the 选房 deadline passes: random rooms for the rest, the window opens
    assert "审讯开始" in private_to(out, qq(victim)) and "审讯开始" in private_to(out, qq(murderer))
    assert "审讯开始" in group_to(out, h.group_id)
    st = await state_of(h)
    pairs = st.nights[-1].pairs
    assert {(p.guard, p.prisoner) for p in pairs} >= {(victim, murderer)}

    # the relay: the partner gets the label and the text only
    out = await h.private(qq(victim), "你是谁？报上罪名")
    got = private_to(out, qq(murderer))
    assert got == "【看守】你是谁？报上罪名"
    for leak in (qq(victim), ALIASES[victim - 1], f"u{qq(victim)}", f"{victim}号"):
        assert leak not in got
    assert group_to(out, h.group_id) == ""  # nothing in the group
    out = await h.private(qq(murderer), "我是无辜的")
    assert private_to(out, qq(victim)) == "【囚犯】我是无辜的"
    assert qq(murderer) not in private_to(out, qq(victim)) and ALIASES[murderer - 1] not in private_to(out, qq(victim))
    # a picture with text and a reply segment: plain text only reaches the partner
    pic = private_payload(h.bot.self_id, qq(victim), "看这个")
    pic["message"] = [{"type": "reply", "data": {"id": "123"}}, {"type": "image", "data": {"file": "x.png", "url": "http://x"}},
                      {"type": "text", "data": {"text": "看这个"}}]
    out = await h.event(pic)
    assert private_to(out, qq(murderer)) == "【看守】看这个（图片已略去）"
    pic = private_payload(h.bot.self_id, qq(victim), "")
    pic["message"] = [{"type": "image", "data": {"file": "y.png", "url": "http://y"}}]
    out = await h.event(pic)
    assert "图片和表情无法转发" in private_to(out, qq(victim)) and private_to(out, qq(murderer)) == ""
    for p in pairs:  # everyone else speaks too (（三）1)
        if p.guard != victim:
            await h.private(qq(p.guard), "说说你的罪名")
            await h.private(qq(p.prisoner), "不告诉你")
    out = await h.private(qq(thief), "/技能 偷看 3号")
    assert "已提交「偷看」" in private_to(out, qq(thief)) and "/结算 1" in private_to(out, HOST)
    out = await h.private(HOST, "/结算 1 3号今晚在 b 号房")
    assert "你的技能「偷看」（#1）结算：3号今晚在 b 号房" in private_to(out, qq(thief))

    out = await deadline(h)  # the wall rises at the deadline: the murderer's partner dies
    gt = group_to(out, h.group_id)
    assert f"昨夜死亡：{victim}号{ALIASES[victim - 1]}" in gt and "第2天天亮了" in gt
    assert "墙壁升起了" in private_to(out, qq(victim))
    assert "获得黄牌" not in gt  # everyone spoke, the thief peeked
    assert not (await Player.get(game__group_id=h.group_id, seat=victim)).alive
    assert "你已出局" in texts(await h.private(qq(victim), "/释放 1"))

    mid = await export_by_host(h)  # the director's sheets during the game
    assert [r[3:5] for r in mid["审讯对应"][1:] if r[3].startswith(f"{victim}号")] == [
        [f"{victim}号{ALIASES[victim - 1]}", f"{murderer}号{ALIASES[murderer - 1]}"]]

    # day 2: bad input, 树洞, alias list, then the guards release the murderer (（三）3)
    assert "囚犯不能参加裁决投票" in texts(await h.private(qq(prisoners[1]), f"/处决 {murderer}"))
    assert "已存入树洞" in texts(await h.private(qq(prisoners[1]), "/树洞 看守都好凶"))
    alias_line = " ".join(f"{ALIASES[s - 1]}={qq(s)}" for s in range(1, 13) if s != prisoners[1])
    assert "已收到你的马甲对应" in texts(await h.private(qq(prisoners[1]), f"/提交马甲 {alias_line}"))
    for g in guards:
        if g != victim:
            assert "已投：释放" in texts(await h.private(qq(g), f"/释放 {murderer}"))
    out = await advance(h)
    gt = group_to(out, h.group_id)
    assert "（三）3：杀人犯被释放" in gt
    assert "积分排名" in gt and "看守都好凶" in gt  # the reveal with the 树洞
    for s in range(1, 13):
        assert qq(s) not in gt  # QQ numbers stay in the director sheets only
    g = await Game.filter(group_id=h.group_id).order_by("-id").first()
    assert g.status == "ended"
    st = await state_of(h)
    assert st.result is not None and st.result.cond == 3 and murderer in st.result.winners
    pts = {s: {x.why: x.n for x in v} for s, v in st.result.points.items()}
    assert any("释放" in why for why in pts[murderer])
    assert any("房间对应" in why for why in pts[prisoners[-1]])
    assert any("马甲" in why for why in pts[prisoners[1]])

    sheets = await export_after_end(h)
    assert sheets["玩家"][0][:3] == ["座位", "马甲", "QQ"] and len(sheets["玩家"]) == 13
    assert any(r[8] == "偷看" for r in sheets["技能使用"][1:])
    assert any(r[3] == f"{victim}号{ALIASES[victim - 1]}" and r[4] == f"{murderer}号{ALIASES[murderer - 1]}"
               for r in sheets["审讯对应"][1:])
    assert ["【看守】", "你是谁？报上罪名"] in [r[5:] for r in sheets["审讯记录"][1:]]
    assert len(sheets["积分"]) == 13


async def test_prison_group_rooms_full_game_through_the_bot(harness):
    h = harness
    rooms = [str(880100 + i) for i in range(6)]
    await h.group(HOST, "/创建 囚犯", role="owner")
    # the host links the room groups (label = the group's own number) and one social group
    for grp in rooms:
        out = await h.group(HOST, f"/绑定群 {h.group_id} {grp}", group=grp)
        assert f"标签「{grp}」" in texts(out)
    assert "已接到" in texts(await h.group(HOST, f"/绑定群 {h.group_id} 联谊", group="880199"))
    assert "已经用过了" in texts(await h.group(HOST, f"/绑定群 {h.group_id} {rooms[0]}", group="880198"))
    # (the game was created above; open_game would create it again, so sign up here)
    for seat in range(1, 13):
        await h.private(qq(seat), f"/报名 {h.group_id} {ALIASES[seat - 1]}")
    for line in ('room_mode = "group"', DEAL, "prep_minutes = 0"):
        assert "配置已更新" in texts(await h.group(HOST, f"/配置 {line}"))
    out = await h.group(HOST, "/开始")
    assert "杀人犯" in private_to(out, qq(7)) and "杀人犯" not in group_to(out, h.group_id)
    await love_hate(h)
    await advance(h)  # day 1
    guards, prisoners = [1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]
    out = await day1(h, 2, 7, guards, prisoners)
    assert "获得黄牌" not in group_to(out, h.group_id)

    # night 1: guard 1 meets the murderer 7
    mapping = await host_mapping(h)
    await h.private(qq(1), "/选房 a")
    await h.private(qq(7), f"/选房 {mapping['a']}")
    mark = len(h.bot.calls)
    out = await advance(h)
    st = await state_of(h)
    pairs = st.nights[-1].pairs
    room_of = {s: p.group for p in pairs for s in (p.guard, p.prisoner)}
    assert sorted(room_of.values()) == sorted(rooms * 2)  # "联谊" is not a room
    g17 = room_of[1]
    assert room_of[7] == g17
    assert f"今晚你的审讯群：{g17}" in private_to(out, qq(1)) and f"今晚你的审讯群：{g17}" in private_to(out, qq(7))
    assert g17 not in group_to(out, h.group_id)  # the group numbers are told privately only
    assert not api_calls(h, "set_group_card", mark)  # nobody is in a room group yet: QQ refuses cards
    unmuted = {str(c["group_id"]) for c in api_calls(h, "set_group_whole_ban", mark) if c["enable"] is False}
    assert unmuted == set(rooms)
    assert not api_calls(h, "set_group_kick", mark)
    assert "审讯开始" in group_to(out, g17)

    # join requests: tonight's two are approved; anyone else is rejected silently, hosts told
    mark = len(h.bot.calls)
    out = await h.event(request_payload(h.bot.self_id, g17, qq(1), "f1"))
    out += await h.event(request_payload(h.bot.self_id, g17, qq(7), "f7"))
    out += await h.event(request_payload(h.bot.self_id, g17, qq(2), "f2"))
    out += await h.event(request_payload(h.bot.self_id, g17, "99999", "fx"))
    # the social group (label 联谊, not a room): players are let in, strangers are not
    out += await h.event(request_payload(h.bot.self_id, "880199", qq(5), "s5"))
    out += await h.event(request_payload(h.bot.self_id, "880199", "99999", "sx"))
    answers = {c["flag"]: c["approve"] for c in api_calls(h, "set_group_add_request", mark)}
    assert answers == {"f1": True, "f7": True, "f2": False, "fx": False}  # 联谊 is left to its admins
    # once they are in, the bot sets their cards to the anonymous labels
    mark = len(h.bot.calls)
    await h.event(joined_payload(h.bot.self_id, g17, qq(1)))
    await h.event(joined_payload(h.bot.self_id, g17, qq(7)))
    await h.event(joined_payload(h.bot.self_id, "880199", qq(5)))  # the social group: no card
    cards = {(str(c["group_id"]), str(c["user_id"]), c["card"]) for c in api_calls(h, "set_group_card", mark)}
    assert cards == {(g17, qq(1), "看守"), (g17, qq(7), "囚犯")}
    mark = len(h.bot.calls)
    out = await h.event(request_payload(h.bot.self_id, g17, qq(2), "f2b"))
    assert "申请加入" in private_to(out, HOST) and "已拒绝" in private_to(out, HOST)
    assert group_to(out, g17) == "" and group_to(out, h.group_id) == ""

    # room lines: said in the room group, kept for the transcript, nothing forwarded
    assert await h.group(qq(1), "报上名来", group=g17) == []
    assert await h.group(qq(7), "我是小偷", group=g17) == []
    assert await h.group(qq(2), "串门", group=g17) == []  # not this player's room: ignored
    for p in pairs:
        if p.guard != 1:
            await h.group(qq(p.guard), "你好", group=p.group)
            await h.group(qq(p.prisoner), "你好", group=p.group)
    await h.private(qq(10), "/技能 偷看 1号")
    assert "本局审讯在房间群进行" in texts(await h.private(qq(1), "私聊转发？"))

    mark = len(h.bot.calls)
    out = await advance(h)  # the window closes
    muted = {str(c["group_id"]) for c in api_calls(h, "set_group_whole_ban", mark) if c["enable"] is True}
    assert muted == set(rooms)
    assert "墙壁升起了。" in group_to(out, g17)
    gt = group_to(out, h.group_id)
    assert "昨夜死亡：1号青龙" in gt and "获得黄牌" not in gt
    st = await state_of(h)
    lines = [(x.from_, x.text) for x in st.nights[0].pairs[[p.group for p in pairs].index(g17)].lines]
    assert lines == [("【看守】", "报上名来"), ("【囚犯】", "我是小偷")]

    # day 2: the guards execute the murderer; the accomplice keeps the game going
    for g in (2, 3, 4, 5, 6):
        await h.private(qq(g), "/处决 7")
    out = await advance(h)
    gt = group_to(out, h.group_id)
    assert "被处决" in gt and "选房开始" in gt
    mark = len(h.bot.calls)
    out = await advance(h)  # rooms drawn at random; night 2 opens
    st = await state_of(h)
    pairs2 = st.nights[-1].pairs
    kicked = {(str(c["group_id"]), str(c["user_id"])) for c in api_calls(h, "set_group_kick", mark)}
    tonight = {(p.group, qq(s)) for p in pairs2 for s in (p.guard, p.prisoner)}
    last = {(p.group, qq(s)) for p in pairs for s in (p.guard, p.prisoner)}
    assert kicked == last - tonight and (g17, qq(1)) in kicked and (g17, qq(7)) in kicked
    for p in pairs2:
        await h.group(qq(p.guard), "又见面了", group=p.group)
        await h.group(qq(p.prisoner), "是啊", group=p.group)
    await h.private(qq(10), "/技能 偷看 2号")
    out = await advance(h)  # no murderer: nobody dies
    assert "昨夜死亡：无" in group_to(out, h.group_id)

    # day 3: the accomplice is executed -> （三）1
    for g in (2, 3, 4, 5, 6):
        await h.private(qq(g), "/处决 8")
    out = await advance(h)
    gt = group_to(out, h.group_id)
    assert "（三）1" in gt and "积分排名" in gt
    g = await Game.filter(group_id=h.group_id).order_by("-id").first()
    st = await state_of(h)
    assert g.status == "ended" and st.result is not None and st.result.cond == 1
    assert PointItem("杀人犯阵营全部死亡（（二）5）", 2) in st.result.points[2]
    assert await h.group(qq(2), "结束了", group=g17) == []  # the room groups go quiet

    sheets = await export_after_end(h)
    pairs_sheet = sheets["审讯对应"]
    assert pairs_sheet[0][5] == "房间群"
    assert {r[5] for r in pairs_sheet[1:] if "轮空" not in r[3:5]} == set(rooms)  # byes have no group
    assert ["【看守】", "报上名来"] in [r[5:] for r in sheets["审讯记录"][1:]]


async def test_prison_uprising_and_guards_gone_end_through_the_bot(harness):
    """（三）2 through the bot: the murderer kills on night 1, the host puts four guards out, and
    the prisoners' 起义 executes the last guard (whose lover dies with him)."""
    h = harness
    await open_game(h, DEAL, "prep_minutes = 0")
    await advance(h)  # day 1 (nobody chose love/hate: the hosts are told)
    await day1(h, 2, 7, [1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12])
    mapping = await host_mapping(h)
    await h.private(qq(1), "/选房 a")
    await h.private(qq(7), f"/选房 {mapping['a']}")
    await advance(h)
    st = await state_of(h)
    for p in st.nights[-1].pairs:
        await h.private(qq(p.guard), "你好")
        await h.private(qq(p.prisoner), "你好")
    await h.private(qq(10), "/技能 偷看 1号")
    assert "昨夜死亡：1号青龙" in group_to(await advance(h), h.group_id)

    assert "只有囚犯领袖能发动起义" in texts(await h.private(qq(8), "/起义"))
    out = await h.private(qq(7), "/起义")
    assert "发动了起义" in group_to(out, h.group_id)
    assert "起义只能发动一次" in texts(await h.private(qq(7), "/起义"))
    for p in (7, 8, 9, 10, 11, 12):
        assert "已投" in texts(await h.private(qq(p), "/处决 3"))
    for g in (2, 4, 5, 6):
        assert "已判" in texts(await h.group(HOST, f"/出局 {g} 失联"))
    out = await advance(h)
    gt = group_to(out, h.group_id)
    assert "（三）2" in gt and "积分排名" in gt
    st = await state_of(h)
    assert st.result is not None and st.result.cond == 2
    assert st.players[9].status == "dead"  # 情侣: died with guard 3
    for p in (7, 10, 12):
        assert PointItem("看守阵营全部死亡（（二）5）", 3) in st.result.points[p]
