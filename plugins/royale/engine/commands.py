"""The chat command table: each row names its Args class and its rule (a rule changes the
state it is given and returns the effects); ``who`` is the command's permission."""

from __future__ import annotations

import plugins.royale.engine.rules_extra as X
import plugins.royale.engine.rules_night as N
from plugins.gamekit.args import NoArgs, TextIn
from plugins.gamekit.contract import CommandSpec

from .args import (
    AirdropArgs,
    EquipArgs,
    GrantArgs,
    ItemArgs,
    PlaceArgs,
    RequestArgs,
    RestArgs,
    UseArgs,
    WordsArgs,
)

COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(("出生",), "birth", PlaceArgs, where="private",
                usage="/出生 <地点>", help="第一、二夜选择出生地点（第二夜结束仍未出生视为淹死）", rule=N.birth),
    CommandSpec(("移动",), "move", PlaceArgs, where="private",
                usage="/移动 <地点>", help="移动到另一个开放地点，消耗 5 体力", rule=N.move),
    CommandSpec(("搜索",), "search", NoArgs, where="private",
                usage="/搜索", help="搜索所在地点，随机发现一件道具或一名角色，消耗 5 体力，间隔至少 30 秒", rule=N.search),
    CommandSpec(("攻击",), "attack", NoArgs, where="private",
                usage="/攻击", help="攻击上次搜索发现的角色（每次搜索一次），不耗体力", rule=N.attack),
    CommandSpec(("拾取", "捡拾"), "pickup", NoArgs, where="private",
                usage="/拾取", help="拾取上次搜索发现的道具，不耗体力", rule=N.pickup),
    CommandSpec(("装备", "更换"), "equip", EquipArgs, where="private", usage="/装备 <物品> [<换下的物品>]",
                help="把一件道具拿到手上（最多两件：一件武器、一件防具，或要使用的道具），换下的放回背包", rule=N.equip),
    CommandSpec(("使用",), "use", UseArgs, where="private", usage="/使用 <物品> [<目标>]",
                help="使用道具；升级器写要升级的装备，探测仪写道具名，雷达写两名玩家，生命启示写地点 [玩家]", rule=N.use),
    CommandSpec(("丢弃",), "drop", ItemArgs, where="private",
                usage="/丢弃 <物品>", help="把一件道具丢在所在地点", rule=N.drop),
    CommandSpec(("购买",), "buy", ItemArgs, where="private",
                usage="/购买 <物品>", help="夜间用货币在商店购买，/商店 查看货架", rule=N.buy),
    CommandSpec(("出售",), "sell", ItemArgs, where="private",
                usage="/出售 <物品>", help="白天出售未装备的武器或防具（2 件绿色=1 货币，蓝色及以上 1 件=1 货币）", rule=N.sell),
    CommandSpec(("静养",), "rest", RestArgs, where="private",
                usage="/静养 [地点]", help="今晚不再行动（可先移动一次），明早体力回满并回复 25 生命", rule=N.rest),
    CommandSpec(("背包", "我的状态"), "bag", NoArgs, where="private", alive_only=False,
                usage="/背包", help="查看自己的生命、体力、货币、位置和道具", rule=X.bag, query=True),
    CommandSpec(("商店",), "shop", NoArgs, where="any", alive_only=False, who="anyone",
                usage="/商店", help="查看商店今日货架和价格", rule=X.shop, query=True),
    CommandSpec(("领取",), "claim", WordsArgs, where="private",
                usage="/领取 <选项>", help="领取事件奖励（通缉令的补给、空投地点、女巫的生命或体力）", rule=X.claim_cmd),
    CommandSpec(("地图",), "map", NoArgs, where="any", alive_only=False, who="anyone",
                usage="/地图", help="查看地图：安全区、已缩圈和今晚缩圈的地点", rule=X.map_cmd, query=True),
    CommandSpec(("申请",), "request", RequestArgs, where="private", alive_only=False,
                usage="/申请 <物品>", help="测试赛：向导演申请补给", rule=X.request),
    CommandSpec(("发放",), "grant", GrantArgs, where="any", who="host", alive_only=False,
                usage="/发放 <玩家> <物品>", help="测试赛导演：把道具直接放进玩家背包", audit=True, rule=X.grant),
    CommandSpec(("事件",), "event", WordsArgs, where="private", who="host", alive_only=False,
                usage="/事件 [<事件名> | 禁止 <事件名> | 随机]", help="导演：查看今日事件，指定或禁止明日事件",
                audit=True, rule=X.event_cmd),
    CommandSpec((), "speak", TextIn, where="group", alive_only=False,
                usage="", help="群里发言（计入每日发言帖数）", rule=X.speak),
    CommandSpec(("空投",), "airdrop", AirdropArgs, where="any", who="host", alive_only=False,
                usage="/空投 <物品> [<物品>…]", help="导演追加空投：白天发送立即公示、当晚落地；夜里发送明早公示、明晚落地（地点不公示）",
                audit=True, rule=X.airdrop),
)
