"""囚犯游戏's alias auction (【游戏流程】<3、竞拍马甲>) through the bot: sign-up choices
by /资料, the auction phase after /开始, private /竞拍 bids, refusals, the close by /推进, the
characters as the roster's aliases (/名单, names in commands), and the director's first sheet."""

from __future__ import annotations

import csv
import re

import pytest
from harness import export_folder, texts

from plugins.kernel.longtexts import game_with_texts
from plugins.kernel.models import Game, Player

pytestmark = pytest.mark.usefixtures("leak_scan")  # every group message checked against the game's secrets

HOST = "1"
ALIASES = ["青龙", "白虎", "基德", "玄武", "麒麟", "凤凰", "貔貅", "饕餮", "穷奇", "梼杌", "混沌", "白泽"]
CHARACTERS = (
    'characters = [{ name = "柯南" }, { name = "基德", camp = "prisoner" }, { name = "小兰" }, { name = "灰原" }, '
    '{ name = "目暮", camp = "guard" }, { name = "高木", camp = "guard" }, { name = "佐藤", camp = "guard" }, '
    '{ name = "琴酒", camp = "prisoner" }, { name = "伏特加", camp = "prisoner" }, { name = "贝尔摩德", camp = "prisoner" }, '
    '{ name = "步美" }, { name = "元太" }]'
)
DEAL = (
    'deal = { "1" = "noise", "2" = "search", "3" = "lover_g", "4" = "patrol", "5" = "listener", "6" = "keeper", '
    '"7" = "murderer", "8" = "accomplice", "9" = "lover_p", "10" = "thief", "11" = "survivor", "12" = "saboteur" }'
)


def qq(seat: int) -> str:
    return str(4000 + seat)


def private_to(sent, user: str) -> str:
    return "\n".join(t for kind, tgt, t in sent if kind == "private" and tgt == user)


def group_to(sent, group: str) -> str:
    return "\n".join(t for kind, tgt, t in sent if kind == "group" and tgt == group)


async def test_prison_alias_auction_through_the_bot(harness):
    h = harness
    seen: list = []  # everything the bot sent, to check the group never joins a QQ to a character

    async def grp(user, text, **kw):
        out = await h.group(user, text, **kw)
        seen.extend(out)
        return out

    async def pm(user, text):
        out = await h.private(user, text)
        seen.extend(out)
        return out

    await grp(HOST, "/创建 囚犯", role="owner")
    for seat in range(1, 13):
        await pm(qq(seat), f"/报名 {h.group_id} {ALIASES[seat - 1]}")  # 3 signs up as "基德", a character
    for line in (CHARACTERS, DEAL, "prep_minutes = 0", '[auction]\nbalances = { "2" = 50 }'):
        assert "配置已更新" in texts(await grp(HOST, f"/配置 {line}"))
    # before /开始 the sign-up fields take the bid; game commands wait for the start
    assert "已保存" in texts(await pm(qq(1), "/资料 第一志愿=柯南:30 随机号码=12"))
    assert "游戏还没开始" in texts(await pm(qq(7), "/竞拍 第一志愿=柯南:40"))

    out = await grp(HOST, "/开始")
    gt = group_to(out, h.group_id)
    assert "先竞拍马甲" in gt and "基德（限囚犯）" in gt and "杀人犯" not in gt
    assert "你报名时填写的志愿已记为出价：第一志愿 柯南 30 币" in private_to(out, qq(1))
    assert "你有 50 枚硬币" in private_to(out, qq(2))
    assert "你是【" not in "".join(private_to(out, qq(s)) for s in range(1, 13))
    assert "竞拍马甲" in texts(await grp(qq(5), "/状态"))

    # bids: private only; refusals change nothing
    assert "请私聊我发送 /竞拍" in texts(await grp(qq(7), "/竞拍 第一志愿=柯南:40"))
    assert "超过了你的余额 50 币" in texts(await pm(qq(2), "/竞拍 第一志愿=目暮:51"))
    assert "没有角色「工藤」" in texts(await pm(qq(2), "/竞拍 第一志愿=工藤:5"))
    assert "不能是同一个角色「柯南」" in texts(await pm(qq(7), "/竞拍 第一志愿=柯南:5 第二志愿=柯南:1"))
    assert "已记录你的出价" in texts(await pm(qq(7), "/竞拍 第一志愿=柯南:30 第二志愿=灰原:5"))  # ties 1, later
    assert "已记录你的出价" in texts(await pm(qq(8), "/竞拍 第一志愿=基德:20"))
    assert "已记录你的出价" in texts(await pm(qq(3), "/竞拍 第一志愿=基德:50 第二志愿=目暮:1"))  # a guard
    assert "已记录你的出价" in texts(await pm(qq(2), "/竞拍 第一志愿=目暮:50"))
    assert "第一志愿 目暮 50 币" in texts(await pm(qq(2), "/我的身份"))
    bids = private_to(await pm(HOST, "/竞拍"), HOST)  # the host sees every standing bid
    assert "已出价 5/12 人" in bids and f"3号 基德（QQ {qq(3)}" in bids
    roster = texts(await grp(qq(5), "/名单"))
    assert "3号 基德" in roster  # still the sign-up aliases

    out = await grp(HOST, "/推进")
    seen.extend(out)
    gt = group_to(out, h.group_id)
    assert "竞拍结束" in gt and "身份已发出！\n看守：1号柯南" in gt
    aliases = {p.seat: p.alias for p in await Player.filter(game__group_id=h.group_id)}
    assert (aliases[1], aliases[7], aliases[8], aliases[2]) == ("柯南", "灰原", "基德", "目暮")
    assert aliases[3] in ("小兰", "高木", "佐藤", "步美", "元太")  # drawn; its sign-up alias went to 8
    assert len(set(aliases.values())) == 12
    assert "你以第一志愿出价 30 币拍得马甲「柯南」，余额 70 币" in private_to(out, qq(1))
    assert "第一志愿「基德」未拍得：该角色限囚犯。第二志愿「目暮」未拍得" in private_to(out, qq(3))
    assert f"你抽签分得马甲「{aliases[3]}」" in private_to(out, qq(3))
    assert "你以第二志愿出价 5 币拍得马甲「灰原」" in private_to(out, qq(7))
    assert "你是【囚犯】杀人犯" in private_to(out, qq(7))
    table = private_to(out, HOST)
    assert f"1号 柯南 ← 第一志愿出价 30 币（报名马甲 青龙，QQ {qq(1)}" in table

    # the characters are the aliases now: /名单 and names in commands
    roster = texts(await grp(qq(5), "/名单"))
    assert "1号 柯南" in roster and "8号 基德" in roster and "青龙" not in roster
    assert "已记录：你爱 1号柯南" in texts(await pm(qq(4), "/爱 柯南"))
    assert "竞拍已经结束" in texts(await pm(qq(2), "/竞拍 第一志愿=佐藤:1"))
    assert "马甲「柯南」：第一志愿出价 30 币拍得，硬币余额 70" in texts(await pm(qq(1), "/我的身份"))

    for kind, target, text in seen:  # QQ numbers never appear in the group (beyond the
        if kind == "group":          # sender's own nickname that addresses a reply to them)
            body = re.sub(r"^u\d+：", "", text)
            assert not any(qq(s) in body for s in range(1, 13)), text

    # the director's first sheet: bids and results
    text = texts(await grp(HOST, "/导出"))
    assert "已导出" in text
    folder = export_folder(h)
    with open(folder / "玩家.csv", encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    row = dict(zip(rows[0], rows[7]))
    assert row["马甲"] == "灰原" and row["报名马甲"] == "貔貅" and row["马甲获得方式"] == "第二志愿出价"
    assert row["第一志愿"].startswith("柯南 30 币（#") and row["随机数"] != ""
    g = await Game.get(group_id=h.group_id, status="running")
    assert (await game_with_texts(g.id)).state.players[1].number == 12
