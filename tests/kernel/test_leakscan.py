"""The leak scan itself finds each kind of leak, and stays
quiet on what the rules publish."""

from leakscan import Secrets, scan


def _s(**kw) -> Secrets:
    base = dict(kind="mafia88", aliases={1: "甲", 2: "乙"}, qq={1: "20001", 2: "20002"}, nick={1: "u20001", 2: "u20002"},
                secret_aliases=True, living={1, 2}, roles={1: ["孤杀"], 2: ["游侠"]}, codes={1: "我服了"},
                never=["天王盖地虎", "a-E"])
    return Secrets(**{**base, **kw})


def test_each_kind_of_leak_is_found():
    s = _s()
    assert scan(["投票结果：20001 投了 2号"], s)  # a QQ number
    assert scan(["u20002：已投票"], s)  # a nickname heading a reply
    assert scan(["1号 甲 是孤杀"], s)  # a living player's role
    assert scan(["【第1轮杀帖】1号 甲 代号 我服了"], s)  # a code name tied to its author
    assert scan(["暗号：天王盖地虎"], s)
    assert scan(["房间对应 a-E"], s)
    royale = _s(kind="royale", roles={}, codes={}, never=[], places=["雾雨小镇"])
    assert scan(["甲 在雾雨小镇"], royale)
    royale = _s(kind="royale", roles={}, codes={}, never=[], places=["雾雨小镇", "动物园"], items=["秘银链甲", "火钳"],
                living={1})
    assert scan(["乙 在「动物园」"], royale)  # the engine's own quoting; 乙 is out by the end but not yet announced
    assert scan(["乙 手里拿着火钳"], royale)  # a bag
    assert scan(["【通缉令】乙「动物园」：悬赏"], royale)
    league = _s(kind="league", secret_aliases=False, roles={}, codes={}, never=["我说的是场内信息"])
    assert scan(["申诉：我说的是场内信息"], league)


def test_what_the_rules_publish_is_not_a_leak():
    s = _s()
    assert not scan(["【第1轮杀帖｜代号 我服了】目标：2号 乙"], s)  # a post signed by its code name only
    assert not scan(["1号 甲 出局"], s)
    assert not scan(["【游戏结束】", "1号 甲：孤杀"], s)  # after the reveal
    assert not scan(["u20001：在。"], _s(secret_aliases=False))  # public aliases: nicknames are fine
    royale = _s(kind="royale", roles={}, codes={}, never=[], places=["雾雨小镇", "动物园"], items=["秘银链甲", "火钳"])
    assert not scan(["昨夜出局：乙（缩圈）。", "乙 在「动物园」倒下，留下火钳"], royale)  # once the group knows
    assert not scan(["【生命启示】「动物园」：角色 甲；道具 火钳。", "【生命启示】甲：生命 80，道具 火钳。"], royale)
    assert not scan(["空投「秘银链甲」落在「雾雨小镇」"], royale)  # 甲 inside an item's name is nobody
    assert not scan(["今晚结束时缩圈：雾雨小镇、动物园。"], royale)
    assert not scan(["【事件·通缉令】被通缉：甲、乙。伤害最高的玩家可获得火钳"], royale)  # another sentence
    assert not scan(["u1：已把「火钳」放进 乙 的背包。"], royale)  # echoes the host's own /发放 2 火钳 (测试赛)
