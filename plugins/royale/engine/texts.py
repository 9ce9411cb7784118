"""Chinese message templates (every text a player or the group sees)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .content import Catalog

KIND_LABEL = {
    "weapon": "武器", "armour": "防具", "upgrader": "升级器", "gps": "侦查",
    "radar": "侦查", "broadcast": "特殊工具", "bomb": "陷阱", "supply": "补给", "money": "货币",
}

# ---- refusals --------------------------------------------------------------
NOT_NIGHT = "现在不是夜间行动时间（{start}–{end}），请在夜里行动。"
NOT_DAY = "出售只能在白天进行，请天亮后再来。"
NOT_NIGHT_SELL = "出售只能在夜间行动时进行。"
DEAD = "你已出局，不能再行动。"
OVER = "本局已结束。"
NOT_BORN = "你还没有出生，请先 /出生 <地点>。"
ALREADY_BORN = "你已经出生在「{place}」，不能再出生；移动请用 /移动 <地点>。"
BIRTH_TOO_LATE = "出生只能在前 {n} 个夜晚进行。"
RESTING = "你今晚在静养，不能再做其他行动，明早恢复体力。"
ALREADY_ACTED = "你今晚已经行动过，不能再静养。"
UNKNOWN_PLACE = "没有「{text}」这个地点，请检查名称（/状态 可看开放地点）。"
CLOSED_PLACE = "「{place}」已经缩圈关闭，请选择其他地点。"
SAME_PLACE = "你已经在「{place}」了。"
NO_STAMINA = "体力不足：{what}需要 {need} 点体力，你只有 {have} 点，行动未发动。"
SEARCH_TOO_SOON = "两次搜索至少间隔 {interval} 秒，请 {wait} 秒后再搜索。"
NO_SEARCH_PERSON = "你上次搜索没有发现角色，请先 /搜索 发现目标再攻击。"
NO_SEARCH_ITEM = "你上次搜索没有发现道具，请先 /搜索 发现道具再拾取。"
TARGET_GONE = "目标已经不在「{place}」了，请重新 /搜索。"
ITEM_GONE = "「{name}」已经不在原地（可能被人拿走），请重新 /搜索。"
SAFE_ZONE = "「{place}」是安全区，攻击无效；炸弹仍然可以使用。"
BAG_FULL = "背包已满（最多 {n} 件），请先 /丢弃 一件道具。"
NOT_HOLDING = "你没有「{name}」，用 /背包 查看持有的道具。"
NOT_EQUIPPABLE = "「{name}」不是武器或防具，不能装备；补给等道具直接 /使用。"
ALREADY_EQUIPPED = "「{name}」已经拿在手上了。"
CANNOT_USE = "「{name}」不能直接使用：武器和防具请用 /装备，升级请 /使用 <升级器> <武器或防具>。"
USED_TONIGHT = "「{name}」今晚已经用过了，明晚再用。"
UPGRADE_WHICH = "请写明要升级的武器或防具：/使用 {name} <物品>。"
UPGRADE_TARGET = "「{name}」不是武器或防具，不能升级。"
UPGRADE_MAX = "「{up}」最多只能升级到{grade}，「{name}」已经无法用它升级。"
UPGRADE_TOP = "「{name}」已经是最高等级。"
GPS_WHICH = "请写明要找的道具：/使用 {name} <道具名>。"
GPS_NONE = "探测结果：没有找到「{target}」。"
GPS_GROUND = "探测结果：「{target}」在「{place}」。"
GPS_HELD = "探测结果：「{target}」在某名角色身上，该角色在「{place}」。"
RADAR_WHICH = "请写明两名玩家：/使用 {name} <玩家> <玩家>。"
RADAR_UNKNOWN = "找不到玩家「{text}」，请用座位号或马甲。"
RADAR_LINE = "{alias}：{items}"
BROADCAST_WHICH = "请写明地点，可再加一名玩家：/使用 {name} <地点> [<玩家>]。"
BROADCAST_LIMIT = "{alias} 三天内已被公示过或已被公示满 3 次，请换一名玩家。"
NOT_FOR_SALE = "商店没有「{name}」，用 /商店 查看今日货架。"
SOLD_OUT = "「{name}」已售罄，明天再来。"
NO_MONEY = "货币不足：「{name}」要 {price} 货币，你只有 {money}。"
SELL_ONLY_GEAR = "只能出售武器和防具。"
SELL_EQUIPPED = "「{name}」正拿在手上，请先用 /装备 换下，或联系导演出售。"
HOST_ONLY = "只有导演可以这样做。"
NO_SUCH_SEAT = "没有 {seat} 号玩家。"
ALREADY_OUT = "{alias} 已经出局了。"
NOT_OUT = "{alias} 还在场上。"

# ---- results -----------------------------------------------------------------
BORN = "你出生在「{place}」。现在可以 /搜索、/移动，或 /静养。"
MOVED = "你移动到了「{place}」，剩余体力 {st}。"
FOUND_NOTHING = "你在「{place}」什么也没找到。剩余体力 {st}。"
FOUND_ITEM = "你发现了道具「{name}」，/拾取 把它放进背包。剩余体力 {st}。"
FOUND_PERSON = "你发现了 {who}，可以 /攻击。剩余体力 {st}。"
FOUND_SHADOW = "你发现了一名角色，但看不清是谁，可以 /攻击。剩余体力 {st}。"
ATTACK_DONE = "攻击已发动（不会告诉你对方的伤势）。可以继续 /搜索。"
ATTACK_KILL = "你击杀了 {alias}！获得：{got}。{dropped}"
ATTACK_DROPPED = "其余道具掉落在「{place}」：{items}。"
HURT = "你受到了 {dmg} 点伤害，剩余生命 {hp}。"
HURT_BLEED = "你受到了 {dmg} 点伤害并开始流血（每晚结束时 -{bleed}），剩余生命 {hp}。"
BLEED_TICK = "流血 -{bleed}，剩余生命 {hp}。使用鸟蛋、绷带、急救包或红花丹可以止血。"
ARMOUR_BROKEN = "你的防具「{name}」损坏了。"
WEAPON_BROKEN = "你的武器「{name}」次数用尽，损坏了。"
YOU_DIED = "你出局了（{cause}）。"
PICKED = "你拾取了「{name}」。背包 {n}/{cap}。"
EQUIPPED = "你把「{name}」拿在手上。"
EQUIPPED_SWAP = "你把「{name}」拿在手上，「{old}」放回背包。"
DROPPED = "你把「{name}」丢在了「{place}」。"
UPGRADED = "升级成功：「{old}」变成了「{new}」。"
USED_ST = "你使用了「{name}」，体力 {st}。"
USED_HP = "你使用了「{name}」，生命 {hp}。"
USED_CURE = "你使用了「{name}」，止住了流血。生命 {hp}。"
USED_MONEY = "你使用了「{name}」，货币 {money}。"
BOMBED = "遥控地雷已引爆。"
BOMB_KILLS = "被炸死的有：{names}。"
BROADCAST_OK = "生命启示已使用，明早公示「{place}」{extra}。"
BOUGHT = "你买到了「{name}」，剩余货币 {money}。"
SOLD_GREEN = "你卖出了「{name}」（绿色装备累计 {n}/{per}）。货币 {money}。"
SOLD = "你卖出了「{name}」。货币 {money}。"
RESTING_OK = "你在「{place}」静养，今晚不再行动，明早体力回满并回复 {hp} 生命。"

# ---- group posts -------------------------------------------------------------
NIGHT_OPEN = "第{night}夜行动开始（至 {end}）。请私聊机器人行动：/出生 /移动 /搜索 /攻击 /拾取 /静养 等，/帮助 查看全部。"
DAY_LABEL = "第{day}天白天"
NIGHT_LABEL = "第{night}夜行动"
NO_DEATHS = "昨夜无人出局。"
DEATHS = "昨夜出局：{names}。"
CLOSING = "今晚结束时缩圈：{places}。"
CLOSING_NONE = "今晚没有地点缩圈。"
WEATHER = "今日天气：{name}（搜索到角色时看清对方的概率 {see}%）。"
AIRDROP = "今日空投：{names}（地点不公示）。"
GRANT = "存活玩家每人获得 {amount} 货币。"
ALIVE = "存活 {n} 人。夜间行动 {start}–{end}。"
START = "大逃杀开始！共 {n} 名玩家，各自为战，最后的幸存者获胜。第一夜请私聊机器人 /出生 <地点>，第{deadline}夜结束仍未出生视为淹死。"
BROADCAST_PLACE = "【生命启示】「{place}」：角色 {people}；道具 {items}。"
BROADCAST_PLAYER = "【生命启示】{alias}：生命 {hp}，体力 {st}，货币 {money}，道具 {items}。"
WIN = "游戏结束！{alias} 是最后的幸存者，获得胜利。"
HOST_WIN = "游戏结束！最后的角色同时出局，导演获胜。"
RANK_LINE = "第{rank}名 {alias}{extra}"
NONE = "无"


def item_line(cat: "Catalog", item: dict[str, Any]) -> str:
    """'竹制长矛（绿色武器 伤害15）'."""
    kind = item["kind"]
    if kind in ("weapon", "armour"):
        d = cat.get(item["name"]).data if item["name"] in cat.items else {}
        grade = cat.grade_label(item["grade"])
        num = f"伤害{d.get('damage', '?')}" if kind == "weapon" else f"减伤{d.get('reduce', '?')}"
        uses = f" 剩{item['uses']}次" if item.get("uses") is not None else ""
        return f"{item['name']}（{grade}{KIND_LABEL[kind]} {num}{uses}）"
    return f"{item['name']}（{KIND_LABEL.get(kind, kind)}）"


def names_or_none(names: list[str]) -> str:
    return "、".join(names) if names else NONE
