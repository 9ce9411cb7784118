"""Prison reveal on /结束: a host who ends the game early
gets the same reveal as a natural end — identities, mapping, points."""

import pytest
from harness import texts
from test_prison_chat import ALIASES, HOST, group_to, open_game

from plugins.kernel.models import Game

pytestmark = pytest.mark.usefixtures("leak_scan")  # every group message checked against the game's secrets


async def test_host_end_posts_identities_mapping_and_points(harness):
    h = harness
    await open_game(h)
    before = group_to(await h.drain(), h.group_id)
    assert "身份揭晓" not in before
    out = await h.group(HOST, "/结束 时间不够了")
    said = group_to(out, h.group_id)
    assert "游戏结束：时间不够了" in said
    assert "提前结束，没有阵营胜负" in said and "身份揭晓" in said and "房间对应：" in said and "积分排名：" in said
    for alias in ALIASES:
        assert alias in said
    assert (await Game.filter(group_id=h.group_id).order_by("-id").first()).status == "ended"
    assert "本群现在没有游戏" in texts(await h.group(HOST, "/结束"))
