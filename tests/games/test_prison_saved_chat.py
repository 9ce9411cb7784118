"""A prison game saved by the plain-dict engine, played on through the bot: the saved state
(tests/prison/fixtures/saved-v2.json, day 2's verdict) is written into a running game's row, as the
database would hold it after an upgrade and a restart, and chat commands take the game to its end."""

from __future__ import annotations

import json
from pathlib import Path

from harness import texts

from plugins.kernel import held
from plugins.kernel.longtexts import game_with_texts
from plugins.kernel.models import Game, Player
from plugins.prison.engine.model import Phase, PointItem, Status

SAVED = Path(__file__).resolve().parents[1] / "prison" / "fixtures" / "saved-v2.json"
IDENTITIES = SAVED.with_name("identities-v2.toml").read_text(encoding="utf-8")  # what the saved game was started with
HOST = "1"
DEAL = (
    'deal = { "1" = "noise", "2" = "search", "3" = "lover_g", "4" = "patrol", "5" = "plain1", "6" = "plain2", '
    '"7" = "murderer", "8" = "accomplice", "9" = "lover_p", "10" = "thief", "11" = "survivor", "12" = "plain_p" }'
)
MURDERER = 7


def qq(seat: int) -> str:
    return str(5200 + seat)


def to(sent, kind: str, target: str) -> str:
    return "\n".join(t for k, tgt, t in sent if k == kind and tgt == target)


async def test_a_saved_game_plays_on_through_the_bot(harness):
    h = harness
    await h.group(HOST, "/创建 囚犯", role="owner")
    for seat in range(1, 13):
        await h.private(qq(seat), f"/报名 {h.group_id} 报名{seat}")
    # a host's TOML with a syntax error is refused in Chinese, and nothing changes
    assert "配置格式有误（TOML）" in texts(await h.group(HOST, "/配置 room_mode = "))
    for line in ('room_mode = "group"', IDENTITIES, DEAL):
        assert "配置已更新" in texts(await h.group(HOST, f"/配置 {line}"))
    assert "囚犯游戏开始" in texts(await h.group(HOST, "/开始"))

    # the saved game replaces the one just dealt: its state, arrival number, aliases and who is out
    saved = json.loads(SAVED.read_text(encoding="utf-8"))
    g = await Game.get(group_id=h.group_id, status="running")
    await Game.filter(id=g.id).update(state=saved, last_seq=161)
    for seat, p in saved["players"].items():
        out = p["status"] != "alive"
        await Player.filter(game_id=g.id, seat=int(seat)).update(alias=p["alias"], alive=not out,
                                                                  out_reason=p["reason"] if out else None)
    held.forget(g.id)  # as after a restart: the next command reads the row

    assert "你是看守长" in texts(await h.private(qq(1), "/我的身份"))
    assert "现在没有需要你裁定的平票" in texts(await h.private(qq(3), "/裁定 释放 12"))
    out = await h.private(qq(1), "/裁定 释放 12")
    assert "已裁定：释放 12号贝尔摩德" in to(out, "private", qq(1))
    group = to(out, "group", h.group_id)
    assert "12号贝尔摩德 被释放" in group and "2号目暮 被起义的囚犯们处决" in group and "第2夜选房开始" in group
    st = (await game_with_texts(g.id)).state
    assert st.phase is Phase.ROOMS and st.players[12].status is Status.RELEASED and st.players[2].status is Status.DEAD
    assert not (await Player.get(game_id=g.id, seat=2)).alive

    assert "今晚不杀人" in texts(await h.private(qq(MURDERER), "/不杀"))
    out = await h.group(HOST, "/推进")  # room choice ends: no room group is linked, the pairs use the relay
    assert "房间群不够" in to(out, "private", HOST)
    st = (await game_with_texts(g.id)).state
    pair = st.nights[-1].pairs[0]
    out = await h.private(qq(pair.guard), "你好，交代吧")
    assert to(out, "private", qq(pair.prisoner)) == "【看守】你好，交代吧"
    out = await h.group(HOST, "/推进")  # the wall rises; nobody dies
    assert "第3天天亮了。昨夜死亡：无" in to(out, "group", h.group_id)

    for seat in (1, 3, 6):
        assert "已投：释放" in texts(await h.private(qq(seat), f"/释放 {MURDERER}"))
    out = await h.group(HOST, "/推进")
    group = to(out, "group", h.group_id)
    assert "（三）3：杀人犯被释放" in group and "积分排名" in group and "谁在投我" in group
    g = await Game.get(id=g.id)
    assert g.status == "ended"
    st = (await game_with_texts(g.id)).state
    assert st.result is not None and st.result.cond == 3 and st.result.winners == [MURDERER, 8]
    assert PointItem("第一个提交正确房间对应（#157）（（二）4）", 3) in st.result.points[9]
