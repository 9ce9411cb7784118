"""Secrets hold: in a game with secret aliases nothing in a group
joins a QQ account to a seat or alias; players speak under their alias; the
group sees only the public reason of a card."""

from harness import texts

from plugins.kernel.models import Card, Game, Outbox
from plugins.kernel.registry import get_kind


async def _secret_game(h, monkeypatch, n=3):
    """The demo game with secret aliases (as 88人场 and 囚犯 have)."""
    import dataclasses

    from plugins.kernel import registry

    demo = get_kind("demo")
    monkeypatch.setitem(registry._KINDS, "demo", dataclasses.replace(demo, private_signup=True))
    await h.group("1", "/创建 测试局", role="owner")
    for i in range(n):
        await h.private(str(31 + i), f"/报名 {h.group_id} 马甲{i + 1}")
    await h.group("1", "/开始")
    return await Game.get(group_id=h.group_id, status="running")


async def test_group_command_that_would_unmask_is_refused_and_recalled(harness, monkeypatch):
    h = harness
    g = await _secret_game(h, monkeypatch)
    before = g.last_seq
    out = await h.group("31", "/票 2", nick="张三")  # a player's own command in the group
    said = texts(out, h.group_id)
    assert "请私聊我发送 /票" in said and "马甲1" not in said and "1号" not in said and "张三" not in said
    assert (await Game.get(id=g.id)).last_seq == before  # not counted
    assert ("delete_msg", ) == tuple(a for a, _ in h.bot.calls[-1:])  # the leaking message is recalled
    out = await h.group("40", "/牌 @32")  # anyone: a mention resolved to a player
    assert "@ 玩家会暴露马甲" in texts(out) and "马甲2" not in texts(out)
    out = await h.group("1", "/出局 @33 违规")  # a host too
    assert "@ 玩家会暴露马甲" in texts(out)
    # by seat it is fine, and group replies carry no sender nickname
    out = await h.group("40", "/牌 2", nick="李四")
    assert "2号 马甲2" in texts(out) and "李四" not in texts(out)
    # in private the same vote counts
    assert "投给 2号" in texts(await h.private("31", "/票 2"))


async def test_anonymous_speech_under_the_alias(harness, monkeypatch):
    h = harness
    g = await _secret_game(h, monkeypatch)
    out = await h.private("32", "/发言 大家好 [CQ:at,qq=all] @全体成员")
    assert ("group", h.group_id, "【马甲2】大家好 [CQ:at,qq=all] @全体成员") in out
    calls = [d for a, d in h.bot.calls if a == "send_group_msg"]
    assert all(seg.type == "text" for seg in calls[-1]["message"])  # plain text, never a mention
    assert "请私聊我" in texts(await h.group("32", "/发言 你好"))
    # plain private text is speech only when the host turns it on
    assert not await h.private("32", "随便说说")
    assert "配置已更新" in texts(await h.private("1", "/配置 anon_plain = true"))
    assert ("group", h.group_id, "【马甲2】随便说说") in await h.private("32", "随便说说")
    assert "配置已更新" in texts(await h.private("1", "/配置 anon_speech = false"))
    assert "主持关闭了匿名发言" in texts(await h.private("32", "/发言 还在吗"))
    assert "不能再改" in texts(await h.private("1", "/配置 day_minutes = 5"))  # the rest stays frozen


async def test_card_public_reason_in_group_full_reason_in_private(harness):
    from demo_game.engine import DemoEngine

    from plugins.gamekit.contract import GiveCard

    h = harness
    await h.group("1", "/创建 测试局", role="owner")
    await h.group("31", "/报名 甲")
    await h.group("32", "/报名 乙")
    await h.group("1", "/开始")
    g = await Game.get(group_id=h.group_id, status="running")
    orig = DemoEngine.rule

    def selfcard(state, actor, args, ctx):
        return [GiveCard(actor.seat, "yellow", "第1天未使用技能「偷看」", "第1天未使用技能")]

    DemoEngine.rule = lambda self, name: selfcard if name == "selfcard" else orig(self, name)
    try:
        out = await h.group("31", "/黄我")
    finally:
        DemoEngine.rule = orig
    assert "理由：第1天未使用技能。" in texts(out, h.group_id) and "偷看" not in texts(out, h.group_id)
    assert "偷看" in texts(out, "31") and "偷看" in texts(out, "1")
    card = await Card.get(game_id=g.id)
    assert card.reason == "第1天未使用技能" and "偷看" in card.private_reason
    assert "偷看" not in texts(await h.group("32", "/牌 1"))
    assert not await Outbox.filter(game_id=g.id, target_type="group", text__contains="偷看").exists()
