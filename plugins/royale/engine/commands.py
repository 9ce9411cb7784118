"""The chat command table: each row names its rule (a rule changes the state
it is given, the kernel's copy, and returns the effects)."""

from __future__ import annotations

from typing import Any

from plugins.gamekit.contract import Actor, ArgSpec, CommandSpec, Ctx, Effect, Ignored, Rejected, Say

from . import content
from . import texts as T
from .content import catalog
from .events import claims_text
from .model import State, equipped, player
from .rules_extra import Handler, claim_cmd, event_cmd, grant, map_cmd, request, speak
from .rules_night import ACTIONS

A = dict[str, Any]


def _action(name: str) -> Any:
    """A night action (``ACTIONS``) by the sender's seat."""
    action = ACTIONS[name]

    def rule(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
        if actor.seat is None or str(actor.seat) not in st["players"]:
            raise Ignored()
        return action(st, actor.seat, dict(a), ctx, ctx.settings)

    return rule


def _host(fn: Handler) -> Any:
    def rule(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
        if not actor.is_host:
            raise Rejected(T.HOST_ONLY)
        return fn(st, actor, a, ctx, ctx.settings)

    return rule


def _player(fn: Handler) -> Any:
    def rule(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
        return fn(st, actor, a, ctx, ctx.settings)

    return rule


def _shop(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    return [Say("reply", shop_text(st, ctx.settings))]


def _bag(st: State, actor: Actor, a: A, ctx: Ctx) -> list[Effect]:
    if actor.seat is None or str(actor.seat) not in st["players"]:
        raise Ignored()
    return [Say("reply", bag_text(st, ctx.settings, actor.seat))]


def airdrop(st: State, actor: Actor, a: A, ctx: Ctx, cfg: dict[str, Any]) -> list[Effect]:
    cat = catalog(cfg)
    names = str(a.get("items", "")).split()
    bad = [n for n in names if n not in cat.items]
    if not names or bad:
        raise Rejected(T.AIRDROP_UNKNOWN.format(names=T.joined(bad) or T.EMPTY))
    st["airdrops"].extend(names)
    return [Say("reply", T.AIRDROP_ADDED.format(names=T.joined(names)))]


def bag_text(state: State, cfg: dict[str, Any] | None, seat: int) -> str:
    p = player(state, seat)
    cat = catalog(cfg or content.defaults())  # the game's items (the defaults for a caller without settings)
    w, a = equipped(p, "weapon"), equipped(p, "armour")
    where = p["place"] or T.UNBORN
    lines = [
        T.BAG_HEAD.format(alias=p["alias"], seat=seat, out="" if p["alive"] else T.BAG_OUT, where=where),
        T.BAG_STATS.format(hp=p["hp"], st=p["st"], money=p["money"])
        + (T.BAG_BLEED.format(bleed=p["bleed"]) if p["bleed"] else "") + (T.BAG_RESTING if p["rest"] else ""),
        T.BAG_HANDS.format(weapon=T.item_line(cat, w) if w else T.NONE, armour=T.item_line(cat, a) if a else T.NONE),
    ]
    h = equipped(p, "held")
    if h:
        lines.append(T.BAG_HELD.format(item=T.item_line(cat, h)))
    bag = [T.item_line(cat, it) for it in p["items"] if it is not w and it is not a and it is not h]
    lines.append(T.BAG_ITEMS.format(n=len(p["items"]), items=T.names_or_none(bag)))
    if p.get("claims"):
        lines.append(T.BAG_CLAIMS + claims_text(p))
    return "\n".join(lines)


def shop_text(state: State, cfg: dict[str, Any]) -> str:
    rows = [T.SHOP_ROW.format(name=n, price=price, left=state["shop"].get(n, 0)) for n, price in cfg["shop"]["prices"].items()]
    return T.SHOP.format(rows=T.semicolons(rows))


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(("出生",), "birth", (ArgSpec("place", "text"),), where="private",
                usage="/出生 <地点>", help="第一、二夜选择出生地点（第二夜结束仍未出生视为淹死）", rule=_action("birth")),
    CommandSpec(("移动",), "move", (ArgSpec("place", "text"),), where="private",
                usage="/移动 <地点>", help="移动到另一个开放地点，消耗 5 体力", rule=_action("move")),
    CommandSpec(("搜索",), "search", where="private",
                usage="/搜索", help="搜索所在地点，随机发现一件道具或一名角色，消耗 5 体力，间隔至少 30 秒", rule=_action("search")),
    CommandSpec(("攻击",), "attack", where="private",
                usage="/攻击", help="攻击上次搜索发现的角色（每次搜索一次），不耗体力", rule=_action("attack")),
    CommandSpec(("拾取", "捡拾"), "pickup", where="private",
                usage="/拾取", help="拾取上次搜索发现的道具，不耗体力", rule=_action("pickup")),
    CommandSpec(("装备", "更换"), "equip", (ArgSpec("item", "word"), ArgSpec("swap", "word", optional=True)),
                where="private", usage="/装备 <物品> [<换下的物品>]",
                help="把一件道具拿到手上（最多两件：一件武器、一件防具，或要使用的道具），换下的放回背包", rule=_action("equip")),
    CommandSpec(("使用",), "use", (ArgSpec("item", "word"), ArgSpec("target", "text", optional=True)),
                where="private", usage="/使用 <物品> [<目标>]",
                help="使用道具；升级器写要升级的装备，探测仪写道具名，雷达写两名玩家，生命启示写地点 [玩家]", rule=_action("use")),
    CommandSpec(("丢弃",), "drop", (ArgSpec("item", "word"),), where="private",
                usage="/丢弃 <物品>", help="把一件道具丢在所在地点", rule=_action("drop")),
    CommandSpec(("购买",), "buy", (ArgSpec("item", "word"),), where="private",
                usage="/购买 <物品>", help="夜间用货币在商店购买，/商店 查看货架", rule=_action("buy")),
    CommandSpec(("出售",), "sell", (ArgSpec("item", "word"),), where="private",
                usage="/出售 <物品>", help="白天出售未装备的武器或防具（2 件绿色=1 货币，蓝色及以上 1 件=1 货币）", rule=_action("sell")),
    CommandSpec(("静养",), "rest", (ArgSpec("place", "text", optional=True),), where="private",
                usage="/静养 [地点]", help="今晚不再行动（可先移动一次），明早体力回满并回复 25 生命", rule=_action("rest")),
    CommandSpec(("背包", "我的状态"), "bag", where="private", alive_only=False,
                usage="/背包", help="查看自己的生命、体力、货币、位置和道具", rule=_bag, query=True),
    CommandSpec(("商店",), "shop", where="any", alive_only=False, who="anyone",
                usage="/商店", help="查看商店今日货架和价格", rule=_shop, query=True),
    CommandSpec(("领取",), "claim", (ArgSpec("text", "text", optional=True),), where="private",
                usage="/领取 <选项>", help="领取事件奖励（通缉令的补给、空投地点、女巫的生命或体力）", rule=_player(claim_cmd)),
    CommandSpec(("地图",), "map", where="any", alive_only=False, who="anyone",
                usage="/地图", help="查看地图：安全区、已缩圈和今晚缩圈的地点", rule=_player(map_cmd), query=True),
    CommandSpec(("申请",), "request", (ArgSpec("item", "text"),), where="private", alive_only=False,
                usage="/申请 <物品>", help="测试赛：向导演申请补给", rule=_player(request)),
    CommandSpec(("发放",), "grant", (ArgSpec("player", "player"), ArgSpec("item", "text")), where="any",
                who="host", alive_only=False, usage="/发放 <玩家> <物品>", help="测试赛导演：把道具直接放进玩家背包",
                extra={"audit": True}, rule=_host(grant)),
    CommandSpec(("事件",), "event", (ArgSpec("text", "text", optional=True),), where="private", who="host",
                alive_only=False, usage="/事件 [<事件名> | 禁止 <事件名> | 随机]",
                help="导演：查看今日事件，指定或禁止明日事件", extra={"audit": True}, rule=_host(event_cmd)),
    CommandSpec((), "speak", where="group", alive_only=False,
                usage="", help="群里发言（计入每日发言帖数）", rule=_player(speak)),
    CommandSpec(("空投",), "airdrop", (ArgSpec("items", "text"),), where="any", who="host",
                alive_only=False, usage="/空投 <物品> [<物品>…]",
                help="导演追加空投：名称在下一个早晨公示，当晚落在随机开放地点", extra={"audit": True}, rule=_host(airdrop)),
)
