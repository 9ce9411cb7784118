"""Every Chinese text of royale: message templates, words read in commands, death causes,
NPC names, /导出 sheets, the map picture's labels and a host data file's mistakes."""

from __future__ import annotations

from collections.abc import Iterable

KIND_LABEL = {
    "weapon": "武器", "armour": "防具", "upgrader": "升级器", "gps": "侦查",
    "radar": "侦查", "broadcast": "特殊工具", "bomb": "陷阱", "supply": "补给", "money": "货币",
}

# ---- words (read in what users type, or stored in the state) -----------------
GREEN_WEAPON = "绿色武器"  # a shop item: a random green weapon
GREEN_ARMOUR = "绿色防具"
GEAR_WORD = {"weapon": "武器", "armour": "防具"}  # after a grade label: 蓝色武器 (测试赛 /申请, /发放)
CLAIM_HP = "生命"  # /领取 生命 [份数]
CLAIM_ST = "体力"
EVENT_RANDOM_WORDS = ("随机", "取消", "清除")  # /事件 随机
EVENT_FORBID_WORD = "禁止"  # /事件 禁止 <事件>
CAUSE_ATTACK = "攻击"  # death causes (kept in the state's deaths, shown in posts and rankings)
CAUSE_BLEED = "流血"
CAUSE_CLOSURE = "缩圈"
CAUSE_BOMB = "炸药"
CAUSE_EVENT = "特殊事件"
CAUSE_DROWN = "淹死"
CAUSE_HOST = "判罚"
WITCH_NAME = "游荡的女巫"  # NPC names
WOLF_NAME = "躁动的狼人"
WHAT_MOVE = "移动"  # {what} of NO_STAMINA
WHAT_SEARCH = "搜索"
EMPTY = "（空）"  # an empty argument in a refusal


def joined(names: Iterable[str]) -> str:
    """Names in a list: 甲、乙、丙."""
    return "、".join(names)


def semicolons(parts: Iterable[str]) -> str:
    """Longer parts in a list: 甲；乙."""
    return "；".join(parts)


# ---- refusals --------------------------------------------------------------
NOT_NIGHT = "现在不是夜间行动时间（{start}–{end}），请在夜里行动。"
NOT_NIGHT_AT = "现在不是夜间行动时间。今晚行动 {start} 开始，请到时再来。"
NOT_DAY = "出售只能在白天进行，请天亮后再来。"
NOT_NIGHT_SELL = "出售只能在夜间行动时进行。"
DEAD = "你已出局，不能再行动。"
OVER = "本局已结束。"
NOT_BORN = "你还没有出生，请先 /出生 <地点>。"
ALREADY_BORN = "你已经出生在「{place}」，不能再出生；移动请 /移动 <地点>。"
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
CANNOT_USE = "「{name}」不能直接使用：武器和防具请 /装备，升级请 /使用 <升级器> <武器或防具>。"
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
SELL_EQUIPPED = "「{name}」正拿在手上，请先 /装备 另一件把它换下，或联系导演出售。"
SELL_UNEQUIPPED = "「{name}」没有拿在手上：只有已装备的道具可以卖给导演，未装备的道具请与其他玩家自行交易。"
NOT_IN_HAND = "「{name}」不在手上：只能使用手中的道具，请先 /装备 {name} 把它拿到手上，再 /使用。"
HANDS_FULL = "手上只能拿两件道具。要拿「{name}」，请写明换下哪一件：/装备 {name} <{hands}中的一件>。"
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
TEST_TAG = "【测试赛】"
TEST_WORDS = ("测试赛", "测试")  # /创建 大逃杀 测试赛
CREATE_OPTIONS = "开局选项只有「测试赛」：/创建 大逃杀 测试赛，或只写 /创建 大逃杀（「{text}」不认识）。"
NOT_TEST = "本局不是测试赛，不能申请或发放补给。测试赛由导演用 /创建 大逃杀 测试赛 开局（或开始前 /配置 rules.test_mode = true）。"
NOT_PLAYER = "你不是本局玩家。"
TEST_UNKNOWN_ITEM = "没有「{text}」这种道具。请写道具全名（武器、防具的名称，或 {others}），也可以写 绿色武器、蓝色防具 这样的等级。"
REQUEST_SENT = "已把申请「{name}」转告导演，请等待发放。"
REQUEST_TO_HOST = "【测试赛申请】{seat}号 {alias}（{state}）申请「{name}」。同意请发送 /发放 {seat} {name}。"
GRANT_DEAD = "{alias} 已出局，不能发放道具；请先 /回场 再发放。"
GRANT_FULL = "{alias} 的背包已满（{n} 件），不能再发放。"
GRANTED = "已把「{name}」放进 {alias} 的背包。"
GRANTED_YOU = "【测试赛】导演发放了「{name}」，已放进你的背包。"
EVENT_SHOW = "今日事件：{today}。明日安排：{plan}。\n可用：/事件 <事件名>（指定明日事件）、/事件 禁止 <事件名>、/事件 随机。事件名：{names}。"
EVENT_UNKNOWN = "没有「{text}」这个事件。可选：{names}。写法：/事件 <事件名>、/事件 禁止 <事件名>、/事件 随机。"
EVENT_CANNOT = "不能指定：{why}。"
EVENT_FORCED = "导演指定第{day}天的事件：{name}（明早公示）。"
EVENT_FORBID = "导演禁止第{day}天发生：{name}。明日安排：{plan}。"
EVENT_RANDOM = "第{day}天的事件恢复随机抽取。"
MAP_AGAIN = "第{day}天地图：红框为安全区，划掉的已缩圈，斜线为今晚缩圈。"
TEST_NO_RECORDS = "测试赛：记录不计入排名，结束时删档（操作日志保留）。"
NPC_DEATHS = "昨夜死去的NPC：{names}。"
MAP_CAPTION = "第{day}天地图：红框为安全区，划掉的已缩圈，斜线为今晚缩圈。/地图 可再看。"
SPEECH_REASON = "第{day}天白天发言不足{n}帖"

# ---- events (随机事件) ------------------------------------------------------------
EVENT_LINE = "【事件·{name}】{text}"
EVENT_NONE = "今日没有事件。"
WOLF_SPAWN = "【躁动的狼人】出现了{where}。"
WITCH_WHERE = "【游荡的女巫】在「{place}」。{hp}"
WITCH_EFFECT = "昨夜与她一同过夜的 {n} 人将在今晚行动前{sign} {v} 点生命。"
WITCH_NEXT = "今晚与她一同过夜的玩家，明晚行动前{sign} {v} 点生命。"
WITCH_HEAL = "你昨夜与游荡的女巫一同过夜：生命 +{v}，现在 {hp}。"
WITCH_HURT = "你昨夜与游荡的女巫一同过夜：生命 -{v}，现在 {hp}。"
WITCH_REWARD = "游荡的女巫死了。你对她造成的伤害换来 {units} 份奖励（每份 {each} 点，可超过上限）：/领取 生命 [份数] 或 /领取 体力 [份数]。"
COMEBACK = "【逆袭】你被选中了：获得仅限今晚使用的橙武「{items}」（已拿在手上）和 {money} 货币。夜间行动后这两件装备会销毁。"
CHANGE = "【Change！】你的生命与体力互换：生命 {hp}，体力 {st}。"
HOLY_GIFT = "【朝圣之路】你在圣地，背包获得【{name}】。"
HOLY_FULL = "【朝圣之路】你在圣地，但背包已满，没能获得【{name}】。"
HOLY_PENALTY = "【朝圣之路】你今晚没有到过圣地：体力 -{st}，生命 -{hp}。"
WANTED_TOP = "【通缉令】你对被通缉的 {alias} 造成的伤害最高：/领取 {options} 中的一件。"
WANTED_KILL = "【通缉令】你击杀了被通缉玩家：/领取 <{options}中的一件> 得知它今晚的空投地点。"
WANTED_KILL_NONE = "【通缉令】你击杀了被通缉玩家，但今晚没有空投。"
WINTER_HURT = "【凛冬已至】你所在地点有 {n} 人（超过3人）：生命 -{v}。"
WINTER_HEAL = "【凛冬已至】你所在地点有 {n} 人（不足3人）：生命 +{v}，现在 {hp}。"
WINTER_EXACT = "【凛冬已至】你所在地点正好 3 人：生命 {hp}，体力 {st}。"
WAR_PRIZE = "【战争与和平】你今晚直接有效攻击 {n} 次，最多：背包获得【{name}】。"
WAR_PRIZE_GROUND = "【战争与和平】你今晚直接有效攻击 {n} 次，最多；背包已满，【{name}】落在「{place}」。"
CLAIM_NONE = "你没有可领取的奖励。"
CLAIM_LIST = "可领取：{items}。"
CLAIM_UNITS = "份数应为 1 到 {n} 的整数。"
CLAIMED_WITCH = "已领取：{what} +{v}。现在生命 {hp}，体力 {st}。"
CLAIMED_ITEM = "已领取【{name}】，放进了背包。"
CLAIMED_DROP = "空投「{name}」落在「{place}」。"


CLAIM_WITCH = "女巫奖励 {units} 份（/领取 生命 [份数] 或 /领取 体力 [份数]，每份 {each} 点）"
CLAIM_WANTED = "通缉令奖励（/领取 {options}）"
CLAIM_WANTED_OR = " 或 /领取 "
CLAIM_AIRDROP = "空投地点（/领取 <{options}中的一件>）"
EVENT_NO_SUCH = "没有这个事件"  # {why} of EVENT_CANNOT
EVENT_FIXED_DAY = "「{name}」固定在第{day}天"
EVENT_NO_WEIGHT = "「{name}」的权重为 0，不会发生"
EVENT_TOO_EARLY = "「{name}」不会在第{day}天之前发生"
SOMEWHERE = "某个地点"  # a place not made public
WITCH_PLUS = "增加"  # {sign} of WITCH_EFFECT / WITCH_NEXT
WITCH_MINUS = "扣除"
WOLF_AT = "（在「{place}」）"  # {where} of WOLF_SPAWN
WOLF_HIDDEN = "（在今晚缩圈的某个地点）"
PLAN_FORCE = "指定 {name}"  # {plan} of EVENT_SHOW / EVENT_FORBID
PLAN_FORBID = "禁止 {names}"
PLAN_RANDOM = "随机"

# ---- host log (/导出) and the kernel's hooks ------------------------------------------
LOG_EVENT_RANDOM = "明日事件恢复随机"
LOG_EVENT_FORBID = "禁止第{day}天事件：{name}"
LOG_EVENT_FORCE = "指定第{day}天事件：{name}"
LOG_REQUEST = "{seat}号 {alias} 申请 {name}"
LOG_GRANT = "发放 {name} 给 {seat}号 {alias}"
REQUEST_ALIVE = "存活"  # {state} of REQUEST_TO_HOST
REQUEST_OUT = "已出局"
TOO_FEW = "大逃杀至少需要 2 名玩家。"
NOT_IN_GAME = "你不在这局游戏中。"
UNKNOWN_ACTION = "没有「{name}」这个行动。"
STATUS_PHASE = {"day": "第{day}天白天", "night": "第{day}夜行动中", "over": "已结束"}
STATUS_HEAD = "大逃杀 {phase}，存活 {n} 人（以公布为准），天气 {weather}。"
STATUS_OPEN = "开放地点（{n}）：{places}"
STATUS_CLOSING = "今晚缩圈：{places}"
STATUS_EVENTS = "今日事件：{names}"
STATUS_TEST = TEST_TAG.strip("【】") + "：补给可 /申请，记录不计排名。"
# /导出 sheets: names, header rows and cell words
SHEET_TEST, SHEET_LOG, SHEET_RANK, SHEET_PLAYERS = "测试赛", "导演记录", "排名", "玩家"
SHEET_PLACES, SHEET_EVENTS, SHEET_NPCS = "地点", "事件", "NPC"
HEAD_LOG = ("天", "导演", "操作")
HEAD_NOTE = ("说明",)
HEAD_RANK = ("名次", "座位", "马甲", "出局夜", "死因", "凶手")
HEAD_PLAYERS = ("座位", "马甲", "存活", "生命", "体力", "货币", "地点", "道具")
HEAD_PLACES = ("地点", "状态", "道具")
HEAD_EVENTS = ("天", "事件")
HEAD_NPCS = ("NPC", "出现", "地点", "存活", "生命", "死因", "击杀者")
YES, NO = "是", "否"
PLACE_CLOSED, PLACE_CLOSING, PLACE_OPEN = "已缩圈", "今晚缩圈", "开放"
NPC_VANISHED = "缩圈消失"

# ---- posts assembled from parts ------------------------------------------------------------
MORNING_HEAD = "【第{day}天】"
DEATH_NAME = "{name}（{cause}）"  # in DEATHS / NPC_DEATHS
RANK_EXTRA = "（第{night}夜 {cause}）"  # {extra} of RANK_LINE
RANK_EXTRA_DAY = "（第{night}天白天 {cause}）"  # out by day (a host's /出局)
RANK_DAY = "第{day}天"  # /导出 排名's 出局夜 of a player out by day
BROADCAST_EXTRA = "和 {alias} 的状态"  # {extra} of BROADCAST_OK

# ---- /背包, /商店, /空投 ----------------------------------------------------------------------
BAG_HEAD = "{alias}（{seat}号）{out}位置：{where}"
BAG_OUT = "已出局，"
UNBORN = "未出生"
BAG_STATS = "生命 {hp}，体力 {st}，货币 {money}"
BAG_BLEED = "，流血 {bleed}/夜"
BAG_RESTING = "，今晚静养"
BAG_HANDS = "手上：武器 {weapon}；防具 {armour}"
BAG_HELD = "手上另拿：{item}"
BAG_ITEMS = "背包（共 {n} 件）：{items}"
BAG_CLAIMS = "可领取："
SHOP_ROW = "{name} {price}货币（剩{left}）"
SHOP = "商店货架：{rows}。夜间 /购买 <物品>。"
AIRDROP_UNKNOWN = "未知道具：{names}。请写道具全名。"
AIRDROP_NEXT = "已加入明天的空投：{names}。名称明早公示，明晚落地。"
AIRDROP_TONIGHT = "已加入今晚的空投：{names}。名称已在群里公示，今晚落地。"
AIRDROP_POST = "导演追加空投：{names}（今晚落地，地点不公示）。"

# ---- the map picture -------------------------------------------------------------------
MAP_TITLE = "第{day}天地图  天气：{weather}"  # weather "-" before the first roll
MAP_WITCH, MAP_WOLF, MAP_HOLY = "女巫", "狼人", "圣地"
MAP_LEGEND_SAFE, MAP_LEGEND_OPEN = "安全区", "开放"
MAP_LEGEND_CLOSING, MAP_LEGEND_CLOSED = "今晚缩圈", "已缩圈"
MAP_NOTE = "开放 {open} 处，今晚缩圈 {closing} 处"

# ---- the action page ------------------------------------------------------------------
WEB_TITLE = "大逃杀"
WEB_WORDS = ("出生", "移动", "搜索", "攻击", "拾取", "装备", "使用", "丢弃", "购买", "出售", "静养", "领取", "背包", "商店")
WEB_NIGHT_UNTIL = "第{night}夜行动中，截止 {end}"
WEB_NIGHT_NEXT = "今晚行动 {start}–{end}"
WEB_NIGHT_USUAL = "夜间行动通常 {start}–{end}"
WEB_OVER = "本局已结束。"
WEB_FOUND_NOT_YET = "今晚还没有搜索。"
WEB_FOUND_EMPTY = "上次搜索什么也没找到。"
WEB_FOUND_ITEM = "上次搜索发现了道具「{name}」。"
WEB_FOUND_SOMEONE = "上次搜索发现了一个人。"
WEB_FOUND_USED = "上次搜索的发现已经用掉（或你已离开那里），可以再搜索。"
WEB_NO_CLAIMS = "现在没有可领取的奖励。"
WEB_CLAIMS = "可领取：{claims}"
# why a shop row's 购买 is closed, in the order the bot refuses (/购买)
WEB_BUY_DEAD = "你已出局"
WEB_BUY_DAY = "夜间才能购买"
WEB_BUY_UNBORN = "出生后才能购买"
WEB_BUY_RESTING = "今晚静养，不能购买"
WEB_BUY_SOLD_OUT = "已售罄"
WEB_BUY_MONEY = "货币不足（要 {price}，你有 {money}）"
WEB_BUY_FULL = "背包已满"
# the bot's answers on the page name its buttons, not chat commands: (pattern, replacement) applied
# in order by the page's script (JavaScript regular expressions; $1 is the first group)
WEB_HINTS: tuple[tuple[str, str], ...] = (
    (r" ?/出生 <地点>", "在地点列表选好地点，点「出生在这里」"),
    (r" ?/移动 <地点>", "在地点列表选好地点，点「移动过去」"),
    (r"（/状态 可看开放地点）", "（地点列表里是开放的地点）"),
    (r" ?/使用 <升级器> <武器或防具>", "在「使用的目标」里写武器或防具，再点升级器的「使用」"),
    (r" ?/使用 (\S+) <[^>]+>(?: \[?<[^>]+>\]?)*", "在「使用的目标」里写好，再点「$1」的「使用」"),
    (r" ?/装备 (\S+) <[^>]+>", "点「$1」的「装备」"),
    (r" ?/装备 (\S+) ", "点「$1」的「装备」"),
    (r" ?/丢弃 一件道具", "丢弃一件道具（点它的「丢弃」）"),
    (r" ?/领取 生命 \[份数\] 或 /领取 体力 \[份数\]", "在「领取」框写 生命 [份数] 或 体力 [份数]，点「领取」"),
    (r" ?/领取 <([^>]+)>", "在「领取」框写$1，点「领取」"),
    (r" 或 /领取 ", " 或 "),
    (r" ?/领取 ", "在「领取」框写 "),
    (r" ?/购买 <物品>", "点「购买」"),
    (r" ?/出生 ?", "点「出生在这里」"),
    (r" ?/移动 ?", "点「移动过去」"),
    (r" ?/搜索 ?", "点「搜索」"),
    (r" ?/攻击 ?", "点「攻击发现的人」"),
    (r" ?/拾取 ?", "点「拾取发现的道具」"),
    (r" ?/静养 ?", "点「静养」"),
    (r" ?/装备 ?", "点「装备」"),
    (r" ?/使用 ?", "点「使用」"),
    (r" ?/丢弃 ?", "点「丢弃」"),
    (r" ?/出售 ?", "点「出售」"),
    (r" ?/购买 ?", "点「购买」"),
    (r" ?/背包 ?", "「背包与装备」"),
    (r" ?/商店 ?", "「商店」"),
)

# ---- a host's data file (content/*.toml): one line per mistake ---------------------------
DATA_PLACE_DUP = "地点重名：{names}。"
DATA_SAFE_ZONE = "安全区「{place}」不在地点列表中。"
DATA_UPGRADER = "升级器「{name}」的 max_grade 应为 blue、purple 或 orange。"
DATA_BOMB = "炸弹「{name}」需要 damage（不小于 0 的整数）。"
DATA_MONEY = "货币「{name}」需要 money（正整数）。"
DATA_SUPPLY = "补给「{name}」需要 hp 或 stamina（正整数）。"
DATA_DAILY_PRICE = "每日上架的「{name}」没有价格（shop.prices）。"
DATA_EVENT_DUP = "事件重复：{keys}。"
DATA_WEATHER_WEIGHTS = "天气权重之和必须大于 0。"
DATA_ITEM_DUP = "道具重名：{names}。"
DATA_SHOP_ITEM = "商店商品「{name}」不是已知道具。"
DATA_EVENT_ITEM = "事件「{event}」的道具「{name}」不是已知道具。"
DATA_EVENT_WEATHER = "事件「{event}」的天气「{weather}」不在 weather 中。"
DATA_MAP_UNKNOWN = "地图上的「{name}」不在 places.names 中。"
DATA_MAP_OUTSIDE = "地图上「{name}」的位置 x、y 应在 0..{max_x}、0..{max_y} 之内。"
DATA_MAP_SAME_CELL = "地图上「{name}」与「{other}」在同一格。"
DATA_MAP_MISSING = "地图缺少地点：{names}。"
DATA_MAP_ADJACENT = "「{name}」的相邻地点「{other}」不在地图上。"
DATA_MAP_ONE_WAY = "相邻关系应双向：「{name}」与「{other}」。"
DATA_AIRDROP_ITEM = "第{day}天空投的「{name}」不是已知道具。"


def item_text(name: str, kind: str, grade: str = "", number: int | None = None, uses: int | None = None) -> str:
    """An item as /背包, 雷达 and the action page show it: '竹制长矛（绿色武器 伤害15）', '绷带（补给）'.
    ``grade``: the grade's label (gear); ``number``: its damage or reduction (None: not known)."""
    label = KIND_LABEL.get(kind, kind)
    if kind not in ("weapon", "armour"):
        return f"{name}（{label}）"
    num = "?" if number is None else number
    what = f"伤害{num}" if kind == "weapon" else f"减伤{num}"
    left = f" 剩{uses}次" if uses is not None else ""
    return f"{name}（{grade}{label} {what}{left}）"


def names_or_none(names: list[str]) -> str:
    return joined(names) if names else NONE


def plan_text(force: str | None, forbid: list[str]) -> str:
    """Tomorrow's event plan: the forced event's name and the forbidden ones', else 随机."""
    parts = []
    if force:
        parts.append(PLAN_FORCE.format(name=force))
    if forbid:
        parts.append(PLAN_FORBID.format(names=joined(forbid)))
    return semicolons(parts) or PLAN_RANDOM
