from harness import texts


async def test_create_signup_start(harness):
    h = harness
    out = await h.group("1", "/创建 测试局", role="owner")
    assert "开局了" in texts(out)
    out = await h.group("2", "/报名 甲")
    assert "报名成功：1号「甲」" in texts(out)
    await h.group("3", "/报名 乙")
    out = await h.group("1", "/开始")
    assert "游戏开始" in texts(out, h.group_id)
    assert "你是 1号「甲」" in texts(out, "2")
