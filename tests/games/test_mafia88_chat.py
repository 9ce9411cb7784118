"""88人场 through the bot: all 88 players on the default configuration,
from /创建 and private sign-ups to the reveal, through the real router and
outbound queue. Privacy is checked on every group message as it is sent:
roles, codes and post texts never reach the group before the rules publish
them (posts at publication, identities of the dead the round after)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from harness import texts
from mafia88_helpers import essay

from plugins.kernel.deadlines import fire_timer
from plugins.kernel.models import Game, Player, Timer
from plugins.kernel.order import utcnow
from plugins.kernel.held import forget

pytestmark = pytest.mark.usefixtures("leak_scan")  # every group message checked against the game's secrets

HOST = "1"
SURVIVORS = [84, 70, 56, 42, 29, 19, 11, 5, 1]  # §十
ROLE_NAMES = ["隐剑", "联合剑", "联合蛋", "移魂", "独立蛋", "复活", "暗蛋", "游侠",
              "孤杀", "联合杀", "独立杀", "地雷", "黑蛋", "魔镜", "工兵", "还魂"]
GROUP_ROLES = {"孤杀": ["孤杀"], "隐剑": ["隐剑"], "剑": ["联合剑"], "联": ["联合杀"], "独": ["独立杀"],
               "杀": ["孤杀", "联合杀", "独立杀"]}
# who dies first (as in tests/mafia88/test_full_game.py): non-posting whites
# (two 游侠 kept for the end), black non-posters, swords, then the killers
ORDER = ["游侠*", "暗蛋", "独立蛋", "联合蛋", "移魂", "复活", "魔镜", "工兵", "还魂",
         "地雷", "黑蛋", "联合剑", "隐剑", "独立杀", "联合杀", "孤杀", "游侠"]

def qq(seat: int) -> str:
    return str(2000 + seat)


def alias(seat: int) -> str:
    return f"侠客{seat:02d}"


def only(sent, target):
    return [m for m in sent if m[1] == target]


class Table:
    """Drives the game and checks every group message for leaks as it is sent."""

    def __init__(self, h):
        self.h = h
        self.log: list[tuple[str, str, str]] = []
        self.roles: dict[int, str] = {}
        self.codes: dict[int, str] = {}
        self.signals: list[str] = []
        self.post_salts: dict[str, int] = {}  # unique text marker -> post id
        self.published: set[int] = set()  # post ids whose text the group may see
        self.public_codes: set[str] = set()
        self.revealed = False
        self.gid = 0

    async def _check(self, sent):
        self.log += sent
        for kind, tgt, text in sent:
            if kind != "group" or self.revealed:
                continue
            if text.startswith("【游戏结束】"):
                self.revealed = True
                continue
            assert tgt == self.h.group_id
            for s in self.signals:
                assert s not in text, text
            for m in re.finditer(r"【第\d+轮(?:杀帖|补发)｜代号 (\S+)】", text):
                self.public_codes.add(m.group(1))
            if re.match(r"【第\d+轮杀帖公布】", text):  # a kill whose text is still due is signed too
                self.public_codes |= set(re.findall(r"代号 (\S+) 的杀帖", text))
            for seat, code in self.codes.items():
                if code in text:
                    assert code in self.public_codes, f"code {code} in the group before its post: {text[:200]}"
            for salt, pid in self.post_salts.items():
                if salt in text:
                    assert pid in self.published and re.search(r"【第\d+轮(?:杀帖|补发)｜代号", text), text[:200]
            for line in text.splitlines():
                if any(n + "（" in line or n + "）" in line for n in ROLE_NAMES):
                    assert "出局者身份：" in line, line
                    dead = {p.seat for p in await Player.filter(game_id=self.gid, alive=False)}
                    for part in line.split("：", 1)[1].split("；"):
                        seat = int(part.split("号")[0])
                        assert seat in dead, f"identity of living {seat} published: {line}"
        return sent

    async def group(self, user, text, **kw):
        return await self._check(await self.h.group(user, text, **kw))

    async def private(self, user, text, **kw):
        return await self._check(await self.h.private(user, text, **kw))

    async def fire(self, key: str, past: bool = True):
        t = await Timer.get(game_id=self.gid, key=key, status="armed")
        if past:
            await Timer.filter(id=t.id).update(ends_at=utcnow() - timedelta(seconds=2))
        await fire_timer(t.id, set())
        assert (await Timer.get(id=t.id)).status == "fired"
        return await self._check(await self.h.drain())

    async def set_phase_end(self, at):
        t = await Timer.get(game_id=self.gid, key="phase", status="armed")
        await Timer.filter(id=t.id).update(ends_at=at)
        forget(self.gid)  # changed behind the bot's back: the held game's timers are read afresh

    def seats(self, role: str) -> list[int]:
        return sorted(s for s, r in self.roles.items() if r == role)

    async def alive(self) -> set[int]:
        return {p.seat for p in await Player.filter(game_id=self.gid, alive=True)}

    async def post(self, author: int, target: int, pid_expected: int, chars: int = 900):
        """Compose a post over three private messages and hand it in."""
        salt = f"贴{pid_expected}号"
        self.post_salts[salt] = pid_expected
        code = self.codes[author]
        body = essay(chars, salt)
        half = len(body) // 2
        out = await self.private(qq(author), f"/出贴 {code} {alias(target)}\n{body[:half]}")
        assert "开始起草" in texts(out) and f"目标 {target}号 {alias(target)}" in texts(out)
        out = await self.private(qq(author), body[half:])
        assert "累计" in texts(out)
        out = await self.private(qq(author), "/完成")
        mine = texts(only(out, qq(author)))
        assert f"杀帖已交（#{pid_expected}）" in mine and "字数 " in mine and "去引用" in mine, mine
        assert f"新杀帖 #{pid_expected}" in texts(only(out, HOST))
        assert not [o for o in out if o[0] == "group"]
        return pid_expected


def victim_order(t: Table) -> list[int]:
    yx = t.seats("游侠")
    order: list[int] = []
    for key in ORDER:
        if key == "游侠*":
            order += yx[:-2]
        elif key == "游侠":
            order += yx[-2:]
        else:
            order += t.seats(key)
    return order


def parse_table(text: str) -> list[tuple[int, int, dict[str, int]]]:
    rows = []
    for m in re.finditer(r"第(\d+)轮：每人 (\d+) 票，票出 (\d+)，贴杀 (\S+)", text):
        posts = {} if m.group(4) == "无" else {g: int(n) for g, n in re.findall(r"(\D+?)(\d+)", m.group(4).replace("、", ""))}
        rows.append((int(m.group(2)), int(m.group(3)), posts))
    return rows


async def test_mafia88_whole_game_through_the_bot(harness):
    h = harness
    t = Table(h)
    # ---- create and sign up (aliases are secret: private sign-up only) ------------
    out = await t.group(HOST, "/创建 88人场", role="owner")
    assert "88人场" in texts(out) and f"/报名 {h.group_id} <马甲>" in texts(out)
    t.gid = (await Game.get(group_id=h.group_id, status="signup")).id
    # the §十 survivor counts hold when the hosts rule special roles by hand (the bot's
    # role effects are played through the bot in test_mafia88_roles_chat.py)
    assert "配置已更新" in texts(await t.private(HOST, "/配置 [options]\nrole_effects = false"))
    out = await t.group(qq(1), f"/报名 {alias(1)}")
    assert f"请私聊我发送：/报名 {h.group_id} <马甲>" in texts(out)
    for s in range(1, 89):
        out = await t.private(qq(s), f"/报名 {h.group_id} {alias(s)}")
        assert f"报名成功：{s}号「{alias(s)}」" in texts(only(out, qq(s)))

    # ---- start: exactly one private role message each ----------------------------
    out = await t.group(HOST, "/开始")
    for s in range(1, 89):
        assert len(only(out, qq(s))) == 1, s
    host_list = texts(only(out, HOST))
    for m in re.finditer(r"(\d+)号 侠客\d+：(\S+?)（(白方|黑方)）(?:｜代号 (\S+?))?(?:｜暗号 (\S+)/(\S+))?$", host_list, re.MULTILINE):
        seat = int(m.group(1))
        t.roles[seat] = m.group(2)
        if m.group(4):
            t.codes[seat] = m.group(4)
        if m.group(5):
            t.signals += [m.group(5), m.group(6)]
    assert len(t.roles) == 88 and len(t.signals) == 6
    counts = {r: len(t.seats(r)) for r in ROLE_NAMES}
    assert counts == {"隐剑": 1, "联合剑": 2, "联合蛋": 2, "移魂": 1, "独立蛋": 2, "复活": 1, "暗蛋": 1, "游侠": 56,
                      "孤杀": 1, "联合杀": 6, "独立杀": 10, "地雷": 1, "黑蛋": 1, "魔镜": 1, "工兵": 1, "还魂": 1}
    role_msg = {s: only(out, qq(s))[0][2] for s in range(1, 89)}
    (an_dan,) = t.seats("暗蛋")
    youxia = t.seats("游侠")
    keeper = youxia[-1]  # the last to go: asks /进程, /状态, /名单 …
    assert all(role_msg[s] == role_msg[youxia[0]] for s in youxia)
    assert role_msg[an_dan] == role_msg[youxia[0]]  # 暗蛋 reads exactly like a 游侠 (§五 白方7)
    assert role_msg[an_dan].startswith("你的身份：游侠（白方）") and "代号" not in role_msg[an_dan]
    (gu,) = t.seats("孤杀")
    lianhe = t.seats("联合杀")
    assert f"你的代号：{t.codes[gu]}" in role_msg[gu]
    assert all(alias(s) in role_msg[gu] for s in lianhe) and all(x in role_msg[gu] for x in t.signals)
    for s in lianhe:
        assert all(alias(o) in role_msg[s] for o in lianhe if o != s) and t.signals[0] not in role_msg[s]
    for a, b in zip(t.seats("联合剑"), reversed(t.seats("联合剑"))):
        assert f"联合剑：{b}号 {alias(b)}" in role_msg[a]
    for s in t.seats("独立杀"):
        assert ("你的暗号" in role_msg[s]) == any(x in role_msg[s] for x in t.signals)
    assert sum("你的暗号" in role_msg[s] for s in t.seats("独立杀")) == 3
    group_start = texts(only(out, h.group_id))
    assert "【第1轮】每人 2 票，票出 3 人；贴杀：孤杀1" in group_start
    # /我的身份 resends the same text; never in the group
    assert texts(await t.private(qq(an_dan), "/我的身份")) == role_msg[an_dan]
    assert "私聊" in texts(await t.group(qq(an_dan), "/我的身份"))

    rows = parse_table(texts(await t.group(qq(keeper), "/进程")))
    assert len(rows) == 9 and rows[0] == (2, 3, {"孤杀": 1})
    order = victim_order(t)

    # ---- reports (§十一) -------------------------------------------------------
    short_one, redo_one = youxia[0], youxia[1]
    for s in range(1, 89):
        if s == short_one:
            out = await t.private(qq(s), "/报道 " + essay(120, f"{s}报"))
            txt = texts(out)
            assert "报道已统计：字数 1" in txt and "不合格" in txt and "不足 301" in txt, txt
            continue
        out = await t.private(qq(s), "/报道 " + essay(320, f"{s}报"))
        assert "报道已统计：字数 3" in texts(only(out, qq(s))) and texts(only(out, qq(s))).endswith("。合格。"), texts(out)
        assert f"【{s}号 {alias(s)} 报道】" in texts(only(out, h.group_id))  # §十一 跟帖报道, under the alias
    out = await t.private(qq(short_one), "/报道 " + essay(330, f"{short_one}补"))  # fixed later
    assert "合格" in texts(out) and "不合格" not in texts(out)
    out = await t.private(HOST, f"/退回报道 {redo_one} 体裁是菜谱（§十一.4）")
    assert "须在第1轮结束前重报 601 字以上" in texts(only(out, HOST))
    assert "被哨子退回：体裁是菜谱" in texts(only(out, qq(redo_one)))
    out = await t.private(qq(redo_one), "/报道 " + essay(330, f"{redo_one}再"))
    assert "不足 601" in texts(out)
    out = await t.private(qq(redo_one), "/报道 " + essay(620, f"{redo_one}重"))
    assert "合格" in texts(out) and "不合格" not in texts(out)
    assert "只有哨子" in texts(await t.private(qq(keeper), f"/退回报道 {redo_one}"))

    # ---- round 1 posts: a refused short post, then composed over several messages --
    victims = [s for s in order]
    target1 = victims[0]
    pid = 1
    t.post_salts[f"贴{pid}号"] = pid
    out = await t.private(qq(gu), f"/出贴 {t.codes[gu]} {target1}\n" + essay(300, f"贴{pid}号"))
    assert "已收 3" in texts(out)
    out = await t.private(qq(gu), "/完成")
    txt = texts(out)
    assert "杀帖未通过" in txt and "不足 801" in txt and "字数 3" in txt, txt
    out = await t.private(qq(gu), essay(600, f"贴{pid}号续"))
    assert "累计 9" in texts(out)
    out = await t.private(qq(gu), "/完成")
    assert "孤杀第一贴须有且只有 8 个游戏马甲（§六.1），现有 0 个" in texts(out)  # §六.1, checked at /完成
    named = [lianhe[0]] + [s for s in youxia if s != target1][:7]
    await t.private(qq(gu), "我今天想起" + "、".join(alias(s) for s in named) + "这些老朋友。")
    out = await t.private(qq(gu), "/完成")
    assert f"杀帖已交（#{pid}）" in texts(only(out, qq(gu)))
    assert f"新杀帖 #{pid}" in texts(only(out, HOST)) and not [o for o in out if o[0] == "group"]
    # bad input: no post right, a second post, in the group
    nopost = texts(await t.private(qq(youxia[2]), f"/出贴 他是谁 {target1}"))
    assert "没有贴杀权" in nopost
    assert texts(await t.private(qq(an_dan), f"/出贴 他在哪 {target1}")) == nopost  # 暗蛋 learns nothing
    assert "每轮只能交一份" in texts(await t.private(qq(gu), f"/出贴 {t.codes[gu]} {victims[1]}"))
    assert "请私聊我" in texts(await t.group(qq(gu), f"/出贴 {t.codes[gu]} {victims[1]}"))
    assert "没有贴杀任务" in texts(await t.private(qq(lianhe[0]), f"/出贴 {t.codes[lianhe[0]]} {victims[1]}"))
    # hosts judge in private
    lst = texts(await t.private(HOST, "/贴单"))
    assert f"#1 {t.codes[gu]}（{gu}号 {alias(gu)}）→ {target1}号 {alias(target1)}｜待审｜字数 9" in lst, lst
    shown = texts(await t.private(HOST, "/看贴 1"))
    assert f"贴{pid}号第0段" in shown and "去引用" in shown
    assert "只有哨子" in texts(await t.private(qq(keeper), "/贴单"))
    assert "私聊" in texts(await t.group(HOST, "/贴单"))
    out = await t.private(HOST, "/通过 1")
    assert "#1 已通过" in texts(only(out, HOST)) and "已通过审核" in texts(only(out, qq(gu)))

    out = await t.fire("posts_due:1")
    assert "第1轮交贴截止：收到杀帖 1 份" in texts(only(out, h.group_id))
    t.published.add(1)
    out = await t.fire("publish:1")
    pub = texts(only(out, h.group_id))
    assert f"【第1轮杀帖｜代号 {t.codes[gu]}】目标：{target1}号 {alias(target1)}" in pub
    assert f"贴{pid}号第0段" in pub and f"贴杀：{target1}号 {alias(target1)}" in pub
    assert "出局者身份" not in pub

    # ---- round 1 votes: group and private, arrival numbers, proxy -------------------
    living = sorted(await t.alive())
    assert len(living) == 87 and target1 not in living
    out_k = rows[0][1]
    vict = [s for s in order if s in living][:out_k]
    proxy_one, late_one = youxia[-3], youxia[-4]
    voters = [s for s in living if s not in (proxy_one,)]
    # bad votes
    assert "已出局" in texts(await t.private(qq(keeper), f"/投票 {target1}"))
    assert "没有 99 号" in texts(await t.private(qq(keeper), "/投票 99"))
    assert "没有参加任何游戏" in texts(await t.private("3999", f"/投票 {vict[0]}"))
    assert "最多投 2 票" in texts(await t.private(qq(keeper), f"/投票 {vict[0]} {vict[1]} {vict[2]}"))
    status = texts(await t.group(qq(keeper), "/状态"))
    assert "第1轮（投票中）｜存活 87 人｜已投票 0 人｜每人 2 票，票出 3，贴杀 孤杀1" in status, status
    n = 0
    for i, s in enumerate(voters):
        picks = [vict[i % out_k], vict[(i + 1) % out_k]]
        if i == 1:  # in the group (by @mention): refused, not counted (§十五.3 aliases are secret)
            out = await t.group(qq(s), "/投票 ", at=[qq(picks[0]), qq(picks[1])])
            assert "马甲保密" in texts(out) and alias(picks[0]) not in texts(out)
            out = await t.private(qq(s), f"/投票 {picks[0]} {alias(picks[1])}")
        elif i % 2:
            out = await t.private(qq(s), f"/投票 {alias(picks[0])} {picks[1]}")
        else:
            out = await t.private(qq(s), f"/投票 {picks[0]} {alias(picks[1])}")
        n += 1
        txt = texts(out)
        assert f"第1轮第 {n} 票（票型中 #{n}，到达序号 " in txt, txt
        if i == 0:
            assert "不能更改" in texts(await t.private(qq(s), f"/投票 {picks[0]}"))
            assert "已投票的玩家不能托票" in texts(await t.private(qq(s), f"/托票 {picks[0]}"))
    # the post-killed target votes half
    out = await t.private(qq(target1), f"/投票 {vict[0]}")
    n += 1
    assert "半票" in texts(out) and f"第 {n} 票" in texts(out)
    # a proxy: refused in the group, accepted in private (hosts told), changed, then cut off
    out = await t.group(qq(proxy_one), f"/托票 {vict[0]} {vict[1]}")
    assert "请私聊我发送 /托票" in texts(out)
    out = await t.private(qq(proxy_one), f"/托票 {vict[0]} {vict[1]}")
    n += 1
    assert f"已托票：{vict[0]}号 {alias(vict[0])}、{vict[1]}号 {alias(vict[1])}，第1轮第 {n} 票" in texts(only(out, qq(proxy_one)))
    assert f"托票：{proxy_one}号 {alias(proxy_one)}" in texts(only(out, HOST))
    out = await t.private(qq(proxy_one), f"/托票 {vict[1]} {vict[2]}")
    n += 1
    assert "托票已改为" in texts(out)
    assert "已托票" in texts(await t.private(qq(proxy_one), f"/投票 {vict[0]}"))
    tally = texts(await t.group(qq(keeper), "/票型"))
    assert f"第1轮票型（{len(living) + 1} 人已投" in tally and "（托）" in tally and "（半）" in tally
    for v in vict:
        assert f"{v}号 {alias(v)}：" in tally
    # the host moves the close to 10 minutes from now: proxies are cut off
    ph = await Timer.get(game_id=t.gid, key="phase", status="armed")
    minutes = int((ph.ends_at - utcnow()).total_seconds() // 60) - 10
    out = await t.group(HOST, f"/延时 -{minutes}")
    assert "截止时间调整为" in texts(out)
    new_close = re.search(r"调整为 (.+?)。", texts(out)).group(1)
    status = texts(await t.group(qq(keeper), "/状态"))
    assert f"截止：{new_close}" in status and "投票截止" not in status, status  # one deadline, the moved one
    out = await t.private(qq(proxy_one), f"/托票 {vict[0]}")
    assert "托票已截止" in texts(out) and f"仍是托票：{vict[1]}号 {alias(vict[1])}、{vict[2]}号" in texts(out), texts(out)
    out = await t.private(qq(late_one), f"/托票 {vict[0]}")  # voted himself already
    assert "已投票的玩家不能托票" in texts(out)
    # the deadline passes: a vote is refused
    await t.set_phase_end(utcnow() - timedelta(seconds=1))
    out = await t.private(qq(late_one), f"/投票 {vict[0]}")
    assert "投票已截止" in texts(out), texts(out)
    log = texts(await t.private(HOST, "/票记录"))
    assert "（托票）" in log and "未投票 0 人" in log
    out = await t.fire("phase", past=False)
    res = texts(only(out, h.group_id))
    assert "【第1轮结果】" in res and f"余 {SURVIVORS[0]} 人" in res, res
    for v in vict:
        assert f"{v}号 {alias(v)}（" in res
    assert len(await t.alive()) == SURVIVORS[0]
    assert "报道已截止" in texts(await t.private(qq(keeper), "/报道 " + essay(320, "迟")))
    pid += 1

    # ---- rounds 2..9 -------------------------------------------------------------
    for r in range(2, 10):
        votes_k, out_k, quota = rows[r - 1]
        living = await t.alive()
        victims = [s for s in order if s in living]
        posters: list[tuple[int, int]] = []
        taken: set[int] = set()
        for gkey, q in quota.items():
            authors = [s for s in sorted(living) if t.roles[s] in GROUP_ROLES[gkey] and s not in taken]
            for a in authors[:q]:
                taken.add(a)
                posters.append((a, victims.pop(0)))
        ids = []
        for a, target in posters:
            ids.append(await t.post(a, target, pid))
            pid += 1
        rejected = None
        if r == 2:
            # over the quota, a dead target
            extra = next(s for s in t.seats("独立杀") if s not in taken and s in living)
            assert "已满" in texts(await t.private(qq(extra), f"/出贴 {t.codes[extra]} {victims[0]}"))
            assert "已出局" in texts(await t.private(qq(extra), f"/出贴 {t.codes[extra]} {target1}"))
            # the host rejects one post before publication; it still kills, its text waits for the rewrite
            rejected = ids[-1]
            out = await t.private(HOST, f"/退回 {rejected} 体裁不合格")
            author = posters[-1][0]
            assert f"#{rejected} 已退回" in texts(only(out, HOST))
            assert f"/重写 {rejected}" in texts(only(out, qq(author))) and "1200" in texts(only(out, qq(author)))
        for i in ids:
            if i != rejected:
                out = await t.private(HOST, f"/通过 {i}")
                assert f"#{i} 已通过" in texts(out)
        out = await t.fire(f"posts_due:{r}")
        assert f"第{r}轮交贴截止：收到杀帖 {len(ids)} 份" in texts(out)
        t.published |= {i for i in ids if i != rejected}
        out = await t.fire(f"publish:{r}")
        pub = texts(only(out, h.group_id))
        codes_in_order = [m.group(1) for m in re.finditer(rf"【第{r}轮杀帖｜代号 (\S+)】", pub)]
        assert len(codes_in_order) == len(ids) - (rejected is not None)
        for a, target in posters:
            assert f"{target}号 {alias(target)}" in pub
        assert f"第{r - 1}轮出局者身份：" in pub  # §五: last round's dead
        if rejected:
            author, target = posters[-1]
            assert f"代号 {t.codes[author]} 的杀帖（目标 {target}号 {alias(target)}）正文待补" in pub
            body = essay(1250, f"贴{rejected}号重")
            t.post_salts[f"贴{rejected}号重"] = rejected
            out = await t.private(qq(author), f"/重写 ＃{rejected}\n{body[:600]}")
            assert "开始重写" in texts(out)
            await t.private(qq(author), body[600:])
            out = await t.private(qq(author), "/完成")
            assert f"重写稿已交（#{rejected}）" in texts(only(out, qq(author)))
            assert "/看贴" in texts(only(out, HOST))
            t.published.add(rejected)
            assert "不是帖号" in texts(await t.private(HOST, "/通过 第三篇"))
            out = await t.private(HOST, f"/通过 #{rejected}")  # as the bot writes post numbers
            late = texts(only(out, h.group_id))
            assert f"【第2轮补发｜代号 {t.codes[author]}】目标：{target}号 {alias(target)}" in late
            # a host ruling out and back (announced in the group)
            someone = min(living - set(dict(posters).values()))
            out = await t.group(HOST, f"/判出局 {someone} 场外串联")
            assert texts(out) == f"{someone}号 {alias(someone)} 被哨子判出局：场外串联。"
            assert f"{someone}号 {alias(someone)}（出局）" in texts(await t.group(qq(keeper), "/名单"))
            assert "已出局" in texts(await t.private(qq(someone), "/投票 1"))
            out = await t.private(HOST, f"/判复活 {alias(someone)} 证据不足")
            assert f"已让 {someone}号 {alias(someone)} 回到场上" in texts(only(out, HOST))
            assert f"{someone}号 {alias(someone)} 经哨子判定回到场上：证据不足" in texts(only(out, h.group_id))
        living = sorted(await t.alive())
        vict = [s for s in order if s in living][:out_k]
        for i, s in enumerate(living):
            picks = {vict[i % out_k], vict[(i + 1) % out_k]}
            cmd = "/投票 " + " ".join(str(p) for p in sorted(picks)[:votes_k])
            out = await t.private(qq(s), cmd)
            assert f"第{r}轮第 " in texts(out), texts(out)
        if r == 2:
            # post-killed players vote half
            out = await t.private(qq(posters[0][1]), f"/投票 {vict[0]}")
            assert "半票" in texts(out)
        tally = texts(await t.group(qq(living[0]), "/票型"))
        assert f"第{r}轮票型（" in tally
        out = await t.fire("phase")
        res = texts(only(out, h.group_id))
        assert f"【第{r}轮结果】" in res and f"余 {SURVIVORS[r - 1]} 人" in res, res
        assert ("出局者身份下轮公布" in res) == (r < 9)
        assert len(await t.alive()) == SURVIVORS[r - 1]
        if r < 9:
            assert not t.revealed
    # ---- the end and the reveal ------------------------------------------------
    assert t.revealed
    g = await Game.get(id=t.gid)
    assert g.status == "ended"
    reveal = "\n".join(x for kind, tgt, x in t.log if kind == "group" and tgt == h.group_id)
    reveal = reveal[reveal.index("【游戏结束】"):]
    for s in range(1, 89):
        assert f"{s}号 {alias(s)}：{t.roles[s]}（" in reveal, s
    for i in range(1, pid):
        assert f"#{i} 第" in reveal
    for r in range(1, 10):
        assert re.search(rf"第{r}轮（\d+ 票）：\n#1 ", reveal), r
    assert "（托）" in reveal


VARIANT = """/配置 [options]
first_post_aliases = 0
role_effects = false

[counts]
yin_jian = 0
lianhe_jian = 0
lianhe_dan = 0
yi_hun = 0
du_dan = 0
fu_huo = 0
di_lei = 0
hei_dan = 0
mo_jing = 0
gong_bing = 0
huan_hun = 0
you_xia = 6
an_dan = 1
gu_sha = 1
lianhe_sha = 2
du_sha = 3

[[rounds]]
votes = 2
out = 1
posts = { "孤杀" = 1 }

[[rounds]]
votes = 2
out = 1
posts = { "联" = 1, "独" = 2 }

[[rounds]]
votes = 1
out = 1
posts = { "杀" = 1 }
"""


async def test_mafia88_variant_white_slip_giveup_overtime_and_host_end(harness):
    """A 13-player variant set with /配置: a white slip never written (author
    out, target back), a failed report and a non-voter out at round 1's close
    (closed early with /推进), a silent killer giving up, /改进程, a tie whose
    votes arrived together (overtime vote), and /结束游戏 with the reveal."""
    h = harness
    t = Table(h)
    await t.group(HOST, "/创建 88人场", role="owner")
    t.gid = (await Game.get(group_id=h.group_id, status="signup")).id
    out = await t.group(HOST, VARIANT)
    assert "配置已更新" in texts(out), texts(out)
    for s in range(1, 13):
        await t.private(qq(s), f"/报名 {h.group_id} {alias(s)}")
    out = await t.group(HOST, "/开始")
    assert "人数对不上：报名 12 人，身份共 13 人" in texts(out)  # a clear refusal, nothing changed
    assert "counts" not in texts(out)  # no setting key in what the host reads
    await t.private(qq(13), f"/报名 {h.group_id} {alias(13)}")
    out = await t.group(HOST, "/开始")
    for m in re.finditer(r"(\d+)号 侠客\d+：(\S+?)（(白方|黑方)）(?:｜代号 (\S+?))?(?:｜暗号 (\S+)/(\S+))?$",
                         texts(only(out, HOST)), re.MULTILINE):
        t.roles[int(m.group(1))] = m.group(2)
        if m.group(4):
            t.codes[int(m.group(1))] = m.group(4)
        if m.group(5):
            t.signals += [m.group(5), m.group(6)]
    assert len(t.roles) == 13 and all(len(only(out, qq(s))) == 1 for s in range(1, 14))
    yx, (an,), (gu,), lh, du = t.seats("游侠"), t.seats("暗蛋"), t.seats("孤杀"), t.seats("联合杀"), t.seats("独立杀")
    assert only(out, qq(an))[0][2] == only(out, qq(yx[0]))[0][2]
    assert "【第1轮】每人 2 票，票出 1 人；贴杀：孤杀1" in texts(only(out, h.group_id))

    # round 1: a report never fixed, a white slip, a player who never votes
    X, T1, Y, V1 = yx[0], yx[1], yx[2], yx[3]
    for s in range(1, 14):
        await t.private(qq(s), "/报道 " + essay(100 if s == X else 320, f"{s}报"))
    out = await t.private(qq(gu), f"/白条 {t.codes[gu]} {alias(T1)}")
    assert "白条已登记（#1）" in texts(only(out, qq(gu))) and "/重写 1" in texts(only(out, qq(gu)))
    assert f"白条 #1：代号 {t.codes[gu]}" in texts(only(out, HOST)) and not only(out, h.group_id)
    for s in range(1, 14):
        if s != Y:
            assert "轮第" in texts(await t.private(qq(s), f"/投票 {V1}"))
    out = await t.group(HOST, "/推进")  # close early: posts due and publication run first
    g = texts(only(out, h.group_id))
    assert "主持结束了当前阶段：第1轮投票" in g
    assert f"代号 {t.codes[gu]} 的杀帖（目标 {T1}号 {alias(T1)}）正文待补" in g
    assert f"高票出局：{V1}号 {alias(V1)}（11 票）" in g and f"贴杀：{T1}号 {alias(T1)}" in g
    assert f"{X}号 {alias(X)}（报道不合格或未报道" in g and f"{Y}号 {alias(Y)}（第1轮逾期未投票" in g
    assert "余 9 人。出局者身份下轮公布。" in g and "【第2轮】" in g
    # 12:00 the next day: the white slip was never written
    out = await t.fire("white:1")
    assert texts(only(out, h.group_id)) == (f"代号 {t.codes[gu]} 的杀帖未按时补交，{gu}号 {alias(gu)} 出局，"
                                            f"{T1}号 {alias(T1)} 复活。")
    assert len(await t.alive()) == 9

    # round 2: the table changed by the hosts, one killer silent, a tie that arrived together
    out = await t.group(HOST, "/改进程 3 2 1 杀1")
    assert "哨子调整进程：第3轮 每人 2 票，票出 1 人，贴杀 杀1" in texts(only(out, h.group_id))
    assert "第3轮：每人 2 票，票出 1，贴杀 杀1" in texts(await t.group(qq(an), "/进程"))
    pid = await t.post(lh[0], yx[4], 2)
    await t.private(HOST, f"/通过 {pid}")
    t.published.add(pid)
    du_sorted = sorted(du, key=lambda s: ["我爱你", "我恨你", "我想你"].index(t.codes[s])
                       if t.codes[s] in ("我爱你", "我恨你", "我想你") else 9)
    poster = du_sorted[-1]
    pid = await t.post(poster, yx[5], 3)
    t.published.add(pid)  # left pending: published as approved (auto_approve_pending)
    out = await t.fire("posts_due:2")
    g = texts(only(out, h.group_id))
    assert f"{du_sorted[0]}号 {alias(du_sorted[0])} 未交杀帖，视为放弃贴杀，出局" in g, g
    out = await t.fire("publish:2")
    g = texts(only(out, h.group_id))
    ids = g.split("第1轮出局者身份：")[1].rstrip("。")
    # T1 is back in the game; the 孤杀 went out at 12:00, in round 2
    assert sorted(int(part.split("号")[0]) for part in ids.split("；")) == sorted((X, Y, V1))
    assert all(f"{s}号 {alias(s)}：游侠（白方）" in ids for s in (X, Y, V1))
    living = sorted(await t.alive())
    A, B = lh[1], du_sorted[1]
    for s in living:
        assert "轮第" in texts(await t.private(qq(s), f"/投票 {A} {B}"))
    out = await t.fire("phase")
    g = texts(only(out, h.group_id))
    lo, hi = sorted((A, B))
    assert f"平票且票同时到达：{lo}号 {alias(lo)}、{hi}号 {alias(hi)} 争 1 个出局名额" in g, g
    assert "加时只投一票" in texts(await t.private(qq(an), f"/投票 {A} {B}"))
    assert "你已出局" in texts(await t.private(qq(yx[4]), f"/投票 {A}"))
    assert "加时票已投" in texts(await t.private(qq(an), f"/投票 {A}"))
    assert "已投过加时票" in texts(await t.private(qq(an), f"/投票 {B}"))
    out = await t.fire("phase")
    g = texts(only(out, h.group_id))
    assert f"高票出局：{A}号 {alias(A)}" in g and "【第3轮】" in g, g
    # a red card (kernel) and the kernel's /回场 are announced like /判出局 and /判复活
    out = await t.private(HOST, f"/红牌 {yx[1]} 人身攻击")
    g = texts(only(out, h.group_id))
    assert "获得红牌" in g and f"{yx[1]}号 {alias(yx[1])} 被哨子判出局：红牌罚下：人身攻击。" in g, g
    out = await t.private(HOST, f"/回场 {yx[1]} 申诉成立")
    assert f"{yx[1]}号 {alias(yx[1])} 经哨子判定回到场上：申诉成立。" in texts(only(out, h.group_id))
    # drafts: /我的贴, /撤稿
    out = await t.private(qq(poster), f"/出贴 {t.codes[poster]} {an}\n" + essay(200, "弃"))
    assert "开始起草第3轮杀帖" in texts(out)
    assert "草稿：→" in texts(await t.private(qq(poster), "/我的贴"))
    assert "草稿已作废" in texts(await t.private(qq(poster), "/撤稿"))
    assert "没有未完成的草稿" in texts(await t.private(qq(poster), "/完成"))
    assert texts(await t.private(qq(poster), "随便聊两句")) == ""  # no draft: plain text is not ours
    assert "已导出，正在上传到私聊" in texts(await t.private(HOST, "/导出"))  # the engine's tables through the kernel
    # the hosts end the game: the reveal
    out = await t.group(HOST, "/结束游戏 平局 全体同意结束")
    g = texts(only(out, h.group_id))
    assert g.startswith("【游戏结束】未分胜负（哨子宣布结束：全体同意结束）")
    assert f"{an}号 {alias(an)}：暗蛋（白方）｜他在哪｜存活" in g
    assert f"#1 第1轮 {t.codes[gu]}（{gu}号 {alias(gu)}）→ {T1}号 {alias(T1)}｜白条｜作废" in g
    assert "第2轮加时（1 票）：" in g and "（托）" not in g
    assert (await Game.get(id=t.gid)).status == "ended"


# ---- what the kernel should change (plugins/kernel is not ours to edit) --------------


async def _variant_started(h):
    t = Table(h)
    await t.group(HOST, "/创建 88人场", role="owner")
    t.gid = (await Game.get(group_id=h.group_id, status="signup")).id
    signals = 'signals = [["甲问", "甲答"], ["乙问", "乙答"], ["丙问", "丙答"]]\n'
    assert "配置已更新" in texts(await t.private(HOST, "/配置 " + signals + VARIANT.removeprefix("/配置 ")))
    for s in range(1, 14):
        await t.private(qq(s), f"/报名 {h.group_id} {alias(s)}")
    out = await t.group(HOST, "/开始")
    for m in re.finditer(r"(\d+)号 侠客\d+：(\S+?)（\S+?）(?:｜代号 (\S+?))?(?:｜|$)", texts(only(out, HOST)), re.MULTILINE):
        t.roles[int(m.group(1))] = m.group(2)
        if m.group(3):
            t.codes[int(m.group(1))] = m.group(3)
    return t


async def test_kernel_draft_text_sent_while_paused_is_not_lost(harness):
    t = await _variant_started(harness)
    (gu,) = t.seats("孤杀")
    target = t.seats("游侠")[0]
    await t.private(qq(gu), f"/出贴 {t.codes[gu]} {target}\n" + essay(500, "甲"))
    await t.group(HOST, "/暂停")
    answer = texts(await t.private(qq(gu), essay(500, "乙")))  # today: no answer at all, the text is gone
    await t.group(HOST, "/继续")
    out = texts(await t.private(qq(gu), "/完成"))
    assert answer and "杀帖已交" in out, (answer, out)


async def test_kernel_vote_with_chinese_list_separators(harness):
    t = await _variant_started(harness)
    a, b, c = t.seats("游侠")[:3]
    out = texts(await t.private(qq(a), f"/投票 {b}、{c}"))
    assert "已投票" in out, out


async def test_kernel_settings_never_shown_in_the_group(harness):
    await _variant_started(harness)
    out = texts(await harness.group(HOST, "/配置"))
    assert "甲问" not in out, out[:300]


async def test_kernel_end_posts_the_reveal(harness):
    """/结束 is /结束游戏's alias in 88人场: without 白方/黑方/平局 the game ends with no winner, with the reveal."""
    t = await _variant_started(harness)
    out = texts(await t.group(HOST, "/结束 时间到了"))
    assert "【游戏结束】未分胜负（哨子宣布结束：时间到了）" in out and "【身份】" in out
    assert all(role in out for role in ("孤杀", "游侠"))
