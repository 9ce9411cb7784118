"""88人场 through the bot: a 26-player variant with every role,
where the bot resolves the roles itself. Hosts see the numbered steps, override
one and publish; a voted-out 独立杀 takes a voter within the decision window;
a host writes to a player privately. No group message carries a QQ number."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from harness import texts
from mafia88_helpers import essay

from plugins.kernel.deadlines import fire_timer
from plugins.kernel.models import Game, Player, Timer
from plugins.kernel.order import utcnow

pytestmark = pytest.mark.usefixtures("leak_scan")  # every group message checked against the game's secrets

HOST = "1"
COUNTS = {"yin_jian": 1, "lianhe_jian": 2, "lianhe_dan": 2, "yi_hun": 1, "du_dan": 1, "fu_huo": 1, "an_dan": 1,
          "you_xia": 6, "gu_sha": 1, "lianhe_sha": 2, "du_sha": 3, "di_lei": 1, "hei_dan": 1, "mo_jing": 1,
          "gong_bing": 1, "huan_hun": 1}
NAMES = {"隐剑": "yin_jian", "联合剑": "lianhe_jian", "联合蛋": "lianhe_dan", "移魂": "yi_hun", "独立蛋": "du_dan",
         "复活": "fu_huo", "暗蛋": "an_dan", "游侠": "you_xia", "孤杀": "gu_sha", "联合杀": "lianhe_sha",
         "独立杀": "du_sha", "地雷": "di_lei", "黑蛋": "hei_dan", "魔镜": "mo_jing", "工兵": "gong_bing", "还魂": "huan_hun"}
CONFIG = ("/配置 [options]\nreport_required = false\n\n[counts]\n" + "\n".join(f"{k} = {v}" for k, v in COUNTS.items())
          + '\n\n[[rounds]]\nvotes = 1\nout = 1\nposts = { "孤杀" = 1 }\n'
          + '\n[[rounds]]\nvotes = 1\nout = 1\nposts = { "剑" = 1 }\n'
          + '\n[[rounds]]\nvotes = 1\nout = 1\nposts = { "联" = 1 }\n')


def qq(seat: int) -> str:
    return str(880000 + seat)


def alias(seat: int) -> str:
    return f"客{seat:02d}"


class Bot:
    def __init__(self, h):
        self.h = h
        self.gid = 0
        self.log: list = []

    def _check(self, sent):
        self.log += sent
        for kind, _, text in sent:
            if kind != "group":
                continue
            m = re.match(r"u8800(\d\d)：", text)  # a reply in the group names its sender (their QQ nickname)
            if m:
                text = text[m.end():]
                assert alias(int(m.group(1))) not in text, text  # ... and never the sender's alias
            assert not re.search(r"8800\d\d", text), text  # aliases are secret: no QQ number in the group
        return sent

    async def group(self, user, text, **kw):
        return self._check(await self.h.group(user, text, **kw))

    async def private(self, user, text):
        return self._check(await self.h.private(user, text))

    async def fire(self, key):
        t = await Timer.get(game_id=self.gid, key=key, status="armed")
        await Timer.filter(id=t.id).update(ends_at=utcnow() - timedelta(seconds=2))
        await fire_timer(t.id, set())
        return self._check(await self.h.drain())

    async def alive(self):
        return {p.seat for p in await Player.filter(game_id=self.gid, alive=True)}


def only(sent, target):
    return texts([m for m in sent if m[1] == target])


async def test_mafia88_roles_resolved_by_the_bot(harness):
    h = harness
    b = Bot(h)
    await b.group(HOST, "/创建 88人场", role="owner")
    b.gid = (await Game.get(group_id=h.group_id, status="signup")).id
    await Game.filter(id=b.gid).update(seed="roles-chat-1")  # a fixed deal: the script below relies on who is where
    assert "配置已更新" in texts(await b.private(HOST, CONFIG))
    for s in range(1, 27):
        await b.private(qq(s), f"/报名 {h.group_id} {alias(s)}")
    out = await b.group(HOST, "/开始")
    roles: dict[str, list[int]] = {}
    codes: dict[int, str] = {}
    for m in re.finditer(r"(\d+)号 客\d+：(\S+?)（\S+?）(?:｜代号 (\S+?))?(?:｜|$)", only(out, HOST), re.MULTILINE):
        roles.setdefault(NAMES[m.group(2)], []).append(int(m.group(1)))
        if m.group(3):
            codes[int(m.group(1))] = m.group(3)
    assert sum(len(v) for v in roles.values()) == 26
    (gu,), lh, du, yx = roles["gu_sha"], roles["lianhe_sha"], roles["du_sha"], roles["you_xia"]

    # round 1: the 孤杀's first post names 8 aliases with a 联合杀 (§六.1)
    named = [lh[0]] + [s for s in range(1, 27) if s not in (gu, lh[0])][:7]
    await b.private(qq(gu), f"/出贴 {codes[gu]} {yx[0]}\n" + "、".join(alias(s) for s in named) + essay(900, "孤"))
    out = await b.private(qq(gu), "/完成")
    assert "杀帖已交（#1）" in only(out, qq(gu))
    out = await b.fire("posts_due:1")
    steps = only(out, HOST)
    assert "第1轮杀帖结算预览" in steps and f"1. {codes[gu]}（孤杀，{gu}号 {alias(gu)}）贴 {yx[0]}号 {alias(yx[0])} → " in steps
    out = await b.fire("publish:1")
    assert f"贴杀：{yx[0]}号 {alias(yx[0])}" in only(out, h.group_id)

    # votes: a 独立杀 is top-voted; it takes one of its voters in the decision window (§五黑3)
    target = du[0]
    voters = [s for s in sorted(await b.alive()) if s not in (target, yx[1])]
    for s in voters:
        await b.private(qq(s), f"/投票 {target}")
    await b.private(qq(target), f"/投票 {yx[1]}")
    await b.private(qq(yx[1]), f"/投票 {yx[2]}")
    ph = await Timer.get(game_id=b.gid, key="phase", status="armed")
    await Timer.filter(id=ph.id).update(ends_at=utcnow() - timedelta(seconds=1))
    await fire_timer(ph.id, set())
    out = b._check(await h.drain())
    assert "结果贴将于" in only(out, h.group_id) and "【第1轮结果】" not in only(out, h.group_id)
    prompt = only(out, qq(target))
    assert "/带人" in prompt and "/指定追魂" in prompt  # §五黑3 and §七.1 (the top-voted of round 1)
    assert "可从票你的线上选 1 人" in prompt
    out = await b.private(qq(target), f"/带人 {yx[1]}")  # voted for someone else: not on the line
    assert "不在票你的线上（§五黑3" in texts(out)
    assert "投票已截止" in texts(await b.private(qq(voters[0]), f"/投票 {target}"))
    await b.private(qq(target), f"/指定追魂 {voters[-1]}")
    out = await b.private(qq(target), f"/带人 {alias(voters[2])}")
    res = only(out, h.group_id)
    assert "【第1轮结果】" in res and f"{target}号 {alias(target)} 带走：{voters[2]}号 {alias(voters[2])}" in res, res
    assert f"指定 {voters[-1]}号 {alias(voters[-1])} 写 500 字追魂" in res
    assert voters[2] not in await b.alive()

    # round 2: a sword posts the 地雷 (before round 4: the poster dies, §五黑5); the host overrides, then publishes
    living = await b.alive()
    lj = next(s for s in roles["lianhe_jian"] if s in living)
    dl = roles["di_lei"][0]
    first = await b.private(qq(lj), f"/出贴 {codes[lj]} {dl}\n" + essay(900, "剑"))
    done = texts(await b.private(qq(lj), "/完成"))
    assert "杀帖已交" in done, (texts(first), lj, dl, living)
    lj_post = int(re.search(r"杀帖已交（#(\d+)）", done).group(1))
    gb = roles["gong_bing"][0]
    an = roles["an_dan"][0]
    first = await b.private(qq(gb), f"/出贴 {codes[gb]} {an}\n" + essay(900, "工"))  # 工兵 摸蛋 (§五黑7)
    assert "杀帖已交" in texts(await b.private(qq(gb), "/完成")), (texts(first), gb, an, living)
    out = await b.fire("posts_due:2")
    steps = only(out, HOST)
    assert f"{dl}号是地雷，第2轮 → 出贴者出局，地雷不出局" in steps, steps
    assert f"{an}号是暗蛋，第2轮 → 暗蛋出局" in steps
    assert "只有哨子" in texts(await b.private(qq(yx[2]), "/改判 1 出局 我想改"))  # the table's permission, in the game's words
    n = next(int(m.group(1)) for m in re.finditer(r"^(\d+)\. (\S+)（", steps, re.MULTILINE) if m.group(2) == codes[lj])
    out = await b.private(HOST, f"/改判 {n} 出局 哨群裁定地雷本轮失效")
    assert f"已改判第 {n} 步" in only(out, HOST) and "哨子改判" in only(out, HOST)
    out = await b.private(HOST, "/发布")
    pub = only(out, h.group_id)
    assert "【第2轮杀帖公布】贴杀：" in pub and f"{dl}号 {alias(dl)}" in pub and f"{an}号 {alias(an)}" in pub
    alive = await b.alive()
    assert lj in alive and gb in alive and dl not in alive and an not in alive

    # §十四: an out alias complains about the sword's post; it is posted under the alias; the host rules it
    # not original (§十二.6): the author is out, the 地雷 it killed is back, published under aliases
    assert "请私聊" in texts(await b.group(qq(an), f"/投诉 {lj_post} 抄袭"))
    out = await b.private(qq(an), f"/投诉 {lj_post} 整段抄自旧作")
    group = only(out, h.group_id)
    assert group.startswith("【投诉 #1】") and f"{an}号 {alias(an)} 投诉 #{lj_post}" in group and alias(lj) not in group
    assert "投诉 #1 已在群里公开发出" in only(out, qq(an)) and f"作者 {lj}号 {alias(lj)}" in only(out, HOST)
    assert "没有参加任何游戏" in texts(await b.private("1234567", f"/投诉 {lj_post} 路过"))  # §十四.4: no outsiders
    listing = only(await b.private(HOST, "/投诉列表"), HOST)
    assert "#1 " in listing and "投诉期至" in listing and "待裁决" in listing
    out = await b.private(HOST, "/裁决 1 非原创 与旧作雷同")
    ruling = only(out, h.group_id)
    assert ruling.startswith("【投诉 #1 裁决】") and f"出贴者 {lj}号 {alias(lj)} 出局" in ruling and f"{dl}号 {alias(dl)} 复活" in ruling
    alive = await b.alive()
    assert lj not in alive and dl in alive

    # a host writes to one player through the bot
    out = await b.private(HOST, f"/私信 {yx[3]} 请按时投票")
    assert "哨子私信：请按时投票" in only(out, qq(yx[3])) and "已记录" in only(out, HOST)
    assert not [m for m in out if m[0] == "group"]
