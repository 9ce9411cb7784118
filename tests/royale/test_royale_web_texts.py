"""The action page shows the bot's answers naming its buttons (texts.py WEB_HINTS, applied by
the page's script): every answer a page action can get names no chat command afterwards."""

from __future__ import annotations

import re
from collections import defaultdict

import plugins.royale.engine.texts as T

COMMAND = re.compile(r"/(出生|移动|搜索|攻击|拾取|捡拾|装备|更换|使用|丢弃|购买|出售|静养|背包|我的状态|商店|领取|状态)")
# texts no page action gets: group posts, the hosts' texts, the opening's refusal, chat-only answers
CHAT_ONLY = {"NIGHT_OPEN", "START", "CREATE_OPTIONS", "NOT_TEST", "REQUEST_TO_HOST", "GRANT_DEAD", "EVENT_SHOW",
             "EVENT_UNKNOWN", "MAP_CAPTION", "MAP_AGAIN", "STATUS_TEST"}


def on_page(text: str) -> str:
    """What the page's script does (JavaScript's $1 is Python's \\1)."""
    for pattern, name in T.WEB_HINTS:
        text = re.sub(pattern, name.replace("$1", r"\1"), text)
    return text


def sample(template: str) -> str:
    values = defaultdict(lambda: "绷带", options="能量饮料、急救包", hands="木棍、皮甲", place="果园")
    return template.format_map(values)


def test_every_answer_names_buttons_not_commands():
    texts = {k: v for k, v in vars(T).items() if k.isupper() and isinstance(v, str) and COMMAND.search(v)}
    assert len(texts) > 20
    for name, template in texts.items():
        if name in CHAT_ONLY:
            continue
        shown = on_page(sample(template))
        assert not COMMAND.search(shown), (name, shown)


def test_the_rewrites_read_as_the_page_works():
    assert on_page(T.BORN.format(place="果园")) == "你出生在「果园」。现在可以点「搜索」、点「移动过去」，或点「静养」。"
    assert on_page(T.NOT_BORN) == "你还没有出生，请先在地点列表选好地点，点「出生在这里」。"
    assert on_page(T.NOT_IN_HAND.format(name="绷带")) == (
        "「绷带」不在手上：只能使用手中的道具，请先点「绷带」的「装备」把它拿到手上，再点「使用」。")
    assert on_page(T.RADAR_WHICH.format(name="手持式雷达")) == "请写明两名玩家：在「使用的目标」里写好，再点「手持式雷达」的「使用」。"
    assert on_page(T.BAG_FULL.format(n=6)) == "背包已满（最多 6 件），请先丢弃一件道具（点它的「丢弃」）。"
    claims = T.CLAIM_WANTED.format(options=T.CLAIM_WANTED_OR.join(["能量饮料", "急救包"]))
    assert on_page(claims) == "通缉令奖励（在「领取」框写 能量饮料 或 急救包）"
    assert on_page(T.PICKED.format(name="木棍", n=1, cap=6)) == "你拾取了「木棍」。背包 1/6。"  # no command: unchanged
