"""The chat command table (the kernel turns each row into a command)."""

from __future__ import annotations

from plugins.kernel.commands import ArgSpec, CommandSpec

COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(("出生",), "birth", (ArgSpec("place", "text"),), where="private",
                usage="/出生 <地点>", help="第一、二夜选择出生地点（第二夜结束仍未出生视为淹死）。"),
    CommandSpec(("移动",), "move", (ArgSpec("place", "text"),), where="private",
                usage="/移动 <地点>", help="移动到另一个开放地点，消耗 5 体力。"),
    CommandSpec(("搜索",), "search", where="private",
                usage="/搜索", help="搜索所在地点，随机发现一件道具或一名角色，消耗 5 体力，间隔至少 30 秒。"),
    CommandSpec(("攻击",), "attack", where="private",
                usage="/攻击", help="攻击上次搜索发现的角色（每次搜索一次），不耗体力。"),
    CommandSpec(("拾取", "捡拾"), "pickup", where="private",
                usage="/拾取", help="拾取上次搜索发现的道具，不耗体力。"),
    CommandSpec(("装备", "更换"), "equip", (ArgSpec("item", "word"),), where="private",
                usage="/装备 <物品>", help="把武器或防具拿在手上，换下的放回背包。"),
    CommandSpec(("使用",), "use", (ArgSpec("item", "word"), ArgSpec("target", "text", optional=True)),
                where="private", usage="/使用 <物品> [<目标>]",
                help="使用道具；升级器写要升级的装备，探测仪写道具名，雷达写两名玩家，生命启示写地点 [玩家]。"),
    CommandSpec(("丢弃",), "drop", (ArgSpec("item", "word"),), where="private",
                usage="/丢弃 <物品>", help="把一件道具丢在所在地点。"),
    CommandSpec(("购买",), "buy", (ArgSpec("item", "word"),), where="private",
                usage="/购买 <物品>", help="夜间用货币在商店购买，/商店 查看货架。"),
    CommandSpec(("出售",), "sell", (ArgSpec("item", "word"),), where="private",
                usage="/出售 <物品>", help="白天出售未装备的武器或防具（2 件绿色=1 货币，蓝色及以上 1 件=1 货币）。"),
    CommandSpec(("静养",), "rest", (ArgSpec("place", "text", optional=True),), where="private",
                usage="/静养 [地点]", help="今晚不再行动（可先移动一次），明早体力回满并回复 25 生命。"),
    CommandSpec(("背包", "我的状态"), "bag", where="private", alive_only=False,
                usage="/背包", help="查看自己的生命、体力、货币、位置和道具。"),
    CommandSpec(("商店",), "shop", where="any", alive_only=False, who="anyone",
                usage="/商店", help="查看商店今日货架和价格。"),
    CommandSpec(("空投",), "airdrop", (ArgSpec("items", "text"),), where="any", who="host",
                alive_only=False, usage="/空投 <物品> [<物品>…]",
                help="导演追加空投：名称在下一个早晨公示，当晚落在随机开放地点。"),
)
