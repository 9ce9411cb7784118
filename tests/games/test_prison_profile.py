"""Prison sign-up fields (【游戏流程】<3、竞拍马甲>, 【导演职责】A导 6): players give their
random number (it decides guard or prisoner) and their choices with /资料; they reach the
deal and the director's first sheet."""

from harness import texts

from plugins.kernel.export import game_tables
from plugins.kernel.longtexts import game_with_texts
from plugins.kernel.models import Game


async def test_profile_fields_reach_the_deal_and_the_sheet(harness):
    h = harness
    await h.group("1", "/创建 囚犯", role="owner")
    for i in range(12):
        await h.private(str(600 + i), f"/报名 {h.group_id} 囚{i + 1}")
    assert "请私聊" in texts(await h.group("600", "/资料 随机号码=5"))
    assert "1–999" in texts(await h.private("600", "/资料 随机号码=1000"))
    assert "看不懂「幸运数=7」" in texts(await h.private("600", "/资料 幸运数=7"))
    assert "没有参加任何游戏" in texts(await h.private("9990", "/资料 随机号码=7"))  # (999 is the bot itself)
    for i in range(12):
        out = texts(await h.private(str(600 + i), f"/资料 随机号码={100 + i} 第一志愿=角色{i} 联系方式=qq{i}"))
        assert f"随机号码：{100 + i}" in out and f"第一志愿：角色{i}" in out and "第二志愿：未填" in out
    assert "随机号码：100" in texts(await h.private("600", "/资料"))
    await h.group("1", "/开始")
    assert "游戏已经开始" in texts(await h.private("600", "/资料 随机号码=9"))
    g = await Game.get(group_id=h.group_id, status="running")
    st = (await game_with_texts(g.id)).state
    assert [st.players[s].number for s in range(1, 13)] == [100 + i for i in range(12)]
    sheets = await game_tables(g.id)
    kernel_sheet = sheets["名单"]
    assert kernel_sheet[0][-5:] == ["随机号码", "第一志愿", "第二志愿", "昵称", "联系方式"]
    assert kernel_sheet[1][-5:] == [100, "角色0", "", "", "qq0"]
    prison_sheets = [rows for name, rows in sheets.items() if rows and "第一志愿" in rows[0] and "身份" in rows[0]]
    assert prison_sheets and prison_sheets[0][1][prison_sheets[0][0].index("第一志愿")] == "角色0"
