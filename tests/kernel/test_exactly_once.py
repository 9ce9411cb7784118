"""Exactly once: every kernel command, delivered again after
a kill -9, changes nothing and is not answered again — the delivery key is
stored in the same transaction as what the command caused."""

import asyncio
import sqlite3

from fake_onebot import BotProcess, FakeOneBot

GROUP = "882001"
ROOM = "882002"

# (where, user, text): every kernel command, in an order a host would use them
SCRIPT = [
    ("g", "1", "/创建 测试局"),
    ("g", "11", "/报名 甲"),
    ("g", "12", "/报名 乙"),
    ("g", "13", "/报名 丙"),
    ("g", "13", "/退出报名"),
    ("g", "1", "/配置 day_minutes = 30"),
    ("g", "11", "/名单"),
    ("g", "1", "/加主持 @20"),
    ("g", "1", "/开始"),
    ("g", "1", "/延时 10"),
    ("g", "1", "/公告 今晚九点投票"),
    ("g", "1", "/蓝牌 1 迟到"),
    ("g", "1", "/黄牌 2 刷屏"),
    ("g", "11", "/牌 1"),
    ("g", "1", "/出局 2 违规"),
    ("g", "1", "/回场 2 误判"),
    ("g", "1", "/暂停"),
    ("g", "1", "/继续"),
    ("g", "1", "/推进"),
    ("g", "11", "/状态"),
    ("p", "11", "/我的身份"),
    ("p", "11", "/切换 882001"),
    ("p", "1", "/日志 5"),
    ("g", "1", "/导出"),
    ("r", "1", "/绑定群 882001 A"),
    ("r", "1", "/解绑群"),
    ("g", "11", "/在吗"),
    ("g", "11", "/帮助"),
    ("g", "1", "/红牌 2 辱骂"),
    ("g", "1", "/结束 测试完毕"),
]

TABLES = ("game", "player", "host", "card", "timer", "audit", "command_log", "chat", "outbox")


def _snapshot(db) -> dict[str, list]:
    with sqlite3.connect(db) as con:
        out = {t: con.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall() for t in TABLES if t != "outbox"}
        out["outbox"] = con.execute("SELECT id, target_type, target_id, text FROM outbox ORDER BY id").fetchall()
    return out


async def _deliver(ob: FakeOneBot, ids: list[int | None]) -> list[int]:
    sent = []
    for (where, user, text), mid in zip(SCRIPT, ids):
        if where == "p":
            sent.append(await ob.private_message(user, text, message_id=mid))
        else:
            group = GROUP if where == "g" else ROOM
            sent.append(await ob.group_message(group, user, text, role="owner" if user == "1" else "member", message_id=mid))
        await asyncio.sleep(0.05)
    return sent


async def _settle(ob: FakeOneBot, db) -> None:
    """Wait until the queue is empty and a fresh /在吗 is answered."""
    n = len([t for *_, t in ob.sent() if t.endswith("在。")])
    await ob.group_message(GROUP, "99", "/在吗")
    await ob.wait_for("在。", count=n + 1, timeout=30)
    for _ in range(100):
        with sqlite3.connect(db) as con:
            if not con.execute("SELECT count(*) FROM outbox WHERE status='pending'").fetchone()[0]:
                return
        await asyncio.sleep(0.1)


async def test_every_kernel_command_repeated_after_kill_is_applied_once(tmp_path):
    bp = BotProcess(tmp_path / "bot.sqlite3")
    bp.start()
    try:
        ob = FakeOneBot(bp.url)
        await ob.connect()
        ids = await _deliver(ob, [None] * len(SCRIPT))
        await ob.wait_for("测试完毕", timeout=30)
        await _settle(ob, bp.db)
        await ob.close()
        bp.kill()  # hard kill: the in-memory duplicate filter is gone
        before = _snapshot(bp.db)
        assert any("红牌" in r[3] for r in before["outbox"]) and len(before["card"]) == 3

        bp.start()
        ob = FakeOneBot(bp.url)
        await ob.connect()
        await _deliver(ob, ids)  # OneBot delivers every event again
        await _settle(ob, bp.db)
        await ob.close()
        after = _snapshot(bp.db)
        new = [r for r in after["outbox"] if r not in before["outbox"]]
        assert [r[3] for r in new] == ["u99：在。"]  # only the fresh /在吗 was answered
        for t in TABLES:
            if t != "outbox":
                assert after[t] == before[t], t
    finally:
        bp.stop()
