"""Every Chinese text of the prison game: messages (``NAME.format(...)``), the words the
code reads from players and hosts, labels, export sheets and the checks of a host's data
file. Grouped by theme; a few functions assemble a message from parts (views.py assembles the
identity message from the pieces here)."""

from __future__ import annotations

# ---- labels ----------------------------------------------------------------------------
KIND = {"guard": "看守", "prisoner": "囚犯"}
ROOM_CARD = KIND  # the group card of a player in a room group
ROOM_LABEL = {"guard": "【看守】", "prisoner": "【囚犯】"}  # what the partner sees before a line
STATUS = {"alive": "存活", "dead": "死亡", "released": "已释放", "out": "出局"}
WHEN = {"day": "白天", "night": "夜晚", "any": "任意时间"}
COND = {
    1: "（三）1：监狱中不存在杀人犯阵营",
    2: "（三）2：监狱中不存在看守阵营",
    3: "（三）3：杀人犯被释放",
}
PHASE_LABELS = {
    "auction": "竞拍马甲",
    "prep": "开局：选择爱/恨",
    "day": "讨论日",
    "verdict": "平票裁定",
    "rooms": "选房",
    "night": "审讯",
    "over": "已结束",
}
DAY_UNIT = "天"
NIGHT_UNIT = "夜"
DAY_PHASE = "第{day}{unit} · {label}"
TITLE = {"chief": "看守长", "leader": "囚犯领袖"}
LEADER_OF = {"guard": TITLE["chief"], "prisoner": TITLE["leader"]}  # the leader a camp elects
SEAT_NAME = "{seat}号{alias}"
SEP = "、"  # between names in a list
SEMI = "；"
COMMA = "，"
NONE = "无"
PAREN = "（{text}）"
QUOTED = "「{name}」"
BY_HOST = "导演推进时"  # a phase with no deadline ends when a host moves it on


def day_label(key: str, day: int) -> str:
    """第2天 · 讨论日 / 第2夜 · 审讯."""
    unit = NIGHT_UNIT if key in ("rooms", "night") else DAY_UNIT
    return DAY_PHASE.format(day=day, unit=unit, label=PHASE_LABELS[key])


def names_or_none(names: list[str]) -> str:
    return SEP.join(names) or NONE


# ---- who may act -----------------------------------------------------------------------
NOT_PLAYER = "你不是本局玩家。"  # also the engine's NOT_A_PLAYER (a player's command from someone else)
HOST_ONLY = "只有导演可以这样做。"  # the engine's HOST_ONLY (a host's command from someone else)
YOU_ARE_OUT = "你已出局，不能再行动。"
YOU_ARE_RELEASED = "你已被释放离开监狱，不能再行动。"
NO_SUCH_PLAYER = "找不到这名玩家，请用座位号或马甲。"
USED_UP = "{label}已经用完了。"
OVER = "游戏已结束。"
OVER_EXPORT = "游戏已结束，可用 /导出 查看记录。"
AUCTION_NO_OUT = "竞拍马甲阶段不能让玩家出局或回场：请等竞拍结束、发完身份后再操作。"
NO_ALT_AT_NIGHT = "审讯进行中不能更换小号，请在白天或选房时再登记。"

# ---- deaths, release and cards ---------------------------------------------------------
DIED_FOR_LOVE = "殉情（情侣 {name} 死亡）"
REASON_RELEASED = "被释放"
OUT_RELEASED = "被释放，离开监狱"
REASON_OUT = "出局"  # the kernel's /出局 without a reason
REASON_BACK = "回到游戏"
CARD_COMPULSORY = "第{day}天未按时使用必须使用的技能「{label}」（潜水（三）3）"
CARD_COMPULSORY_PUBLIC = "第{day}天未按时使用技能（潜水（三）3）"
CARD_NO_ELECTION = "第1天未参与{title}投票（潜水（三）2）"
CARD_FEW_POSTS = "第{day}天讨论发言 {n} 条，少于 {need} 条（潜水（三）4）"
CARD_NO_VERDICT_VOTE = "第{day}天看守未参与裁决投票（潜水（三）2）"
CARD_NO_VERDICT_VOTE_PUBLIC = "第{day}天未参与投票（潜水（三）2）"
CARD_NO_PICK = "{title}未在时限内裁定平票（潜水（三）3），随机决定"
CARD_SILENT_ROOM = "第{day}夜审讯中没有发言（潜水（三）1）"

# ---- the start (deal, love/hate) -------------------------------------------------------
DEAL_INCOMPLETE = "deal 表必须给每个座位各发一个身份，且用完全部身份。"
WRONG_COUNT = "本局身份文件需要 {need} 人，现在报名 {n} 人；请调整人数或身份文件。"
BEGIN_AFTER_AUCTION = "身份已发出"
BEGIN = "囚犯游戏开始"
BEGIN_UNTIL_HOST = "在导演推进"
BEGIN_UNTIL = "在 {time} "
BEGIN_POST = ("{head}！\n看守：{guards}\n囚犯：{prisoners}\n"
              "请{until}前私聊我 /爱 <玩家> 或 /恨 <玩家>（二选一，不能选自己）。")
IDENTITY_TAIL = "\n用 /我的身份 可再次查看。"
SECRET_MAP = "本局房间对应（保密）：{pairs}"  # also /房间对应
LOVE_TOO_LATE = "爱/恨只能在开局前选择，现在已不能更改。"
NOT_SELF = "不能选择自己，请换一名玩家。"
LOVE_VERB = {"love": "爱", "hate": "恨"}
LOVE_RECORDED = "已记录：你{verb} {name}。开局前可以改选。"
SILENT_LOVE = "开局前没有选择爱/恨的玩家：{names}（不计（二）1 的积分）。"
DAY1_OPEN = ("第1天开始。看守私聊我 /投票 <看守> 选看守长，囚犯私聊我 /投票 <囚犯> 选囚犯领袖，"
             "{time} 截止。")
POSTS_HINT = "讨论日每人至少发言 {n} 条。"

# ---- /我的身份 and /状态 -----------------------------------------------------------------
WON_BY_DRAW = "抽签分得"
WON_BY_BID = "{how} {coins} 币拍得"
WON_LINE = "\n马甲「{name}」：{how}，硬币余额 {balance}。"
TONIGHT_ROOM = "\n今晚房间：{room}{bye}{group}。"
ROOM_NOT_PICKED = "未选（/选房）"
BYE_SUFFIX = "，轮空"
ROOM_GROUP_SUFFIX = "，房间群 {group}"
STATUS_GUARDS = "看守（存活 {n}）：{names}"
STATUS_PRISONERS = "囚犯（存活 {n}）：{names}"
STATUS_RELEASED = "已释放：{names}"
STATUS_GONE = "死亡/出局：{names}"
STATUS_LEADER = "{title}：{name}{gone}"
STATUS_RESULT = "结局：{cond}"


# ---- the identity message (/我的身份, views.py) ------------------------------------------
UNLIMITED = "不限次数"
USES_LEFT_SHORT = "剩余 {n} 次"
CAN_SPARE = "；可用 /不杀 放弃当晚"
ABILITY_KILL = "杀人：每晚审讯结束时，与你同房的看守死亡{spare}。"
ABILITY_POINT_KILL = "点杀：选房或审讯时私聊 /点杀 <看守>，当晚改杀该看守（{left}）。"
ABILITY_NOISE = "噪音：审讯中私聊 /噪音，对同房囚犯播放噪音（{left}）。"
ABILITY_LOVER = "情侣：你与 {who} 是情侣，一方死亡另一方殉情。"
LOVER_NOT_DEALT = "（未发出）"
MUST_USE = "，必须使用"
ABILITY_GENERIC = "「{name}」：{when}私聊 /技能 {name} [内容]，由导演结算（{left}{must}）。"
IDENTITY_HEAD = "{name}：你是【{kind}】{role}。"
IDENTITY_CRIMES = "罪名：{crimes}。"
IDENTITY_MURDERER_SIDE = "阵营：杀人犯阵营。"
WIN_LINE = {
    "alive": "胜利条件：游戏结束时你存活或已被释放。",
    "released": "胜利条件：你被释放。",
    "with_murderer": "胜利条件：杀人犯被释放。",
}
IDENTITY_CHIEF = "你是看守长：<权威> 最高票平票时以你的票为准；你投了少数票时须 /裁定 从最高票中选一个。"
IDENTITY_LEADER = "你是囚犯领袖：讨论日私聊 /起义，全体存活囚犯投票处决一名看守{used}。"
UPRISING_SPENT = "（已用）"
UPRISING_LEFT = "（可用 1 次）"
IDENTITY_LOVE = "你爱：{name}。"
IDENTITY_HATE = "你恨：{name}。"
IDENTITY_STATUS = "状态：{status}。"


# ---- the day: elections, verdict votes, 起义, <权威> --------------------------------------
OPT_LABEL = {"exec": "处决", "free": "释放"}
ABSTAIN_TEXT = "弃票"
OPTION = "{verb} {name}"
DECIDE_WORDS = {OPT_LABEL["exec"]: "exec", OPT_LABEL["free"]: "free"}  # /裁定 <word> (and ABSTAIN_TEXT)
NOT_VOTING_DAY = "现在不是讨论日投票时间，请等下一个讨论日。"
ELECTION_DAY_ONLY = "领袖选举只在第1天进行；现在请用 /处决、/释放 或 /弃票。"
DAY1_ELECTION_ONLY = "第1天只选举领袖（/投票）；处决/释放从第2天开始。"
ELECT_WRONG = "{title}只能从存活的{kind}中选。"
ELECT_VOTED = "已投 {name} 为{title}。截止前可改投，票数截止时公布。"
PRISONER_NO_VOTE = "囚犯不能参加裁决投票；只有囚犯领袖发动起义后才能投票处决看守。"
UPRISING_EXEC_ONLY = "起义只能处决看守：请用 /处决 <看守> 或 /弃票。"
VOTE_WRONG = "只能投给监狱中存活的{kind}。"
VOTED = "已投：{choice}。截止前可改投，票在截止时公布。"
UPRISING_LEADER_ONLY = "只有囚犯领袖能发动起义。"
UPRISING_USED = "起义只能发动一次，你已经用过了。"
UPRISING_WHEN = "起义只能在第2天起的讨论日白天发动。"
UPRISING_ABILITY = "起义"  # its line in the ability log
UPRISING_CALL = "囚犯领袖 {name} 发动了起义！所有存活囚犯请在 {time} 前私聊我 /处决 <看守> 或 /弃票。"
NO_VOTES = "无人投票"
TALLY_ITEM = "{voter}→{choice}"
TIE_DRAWN = "（平票，随机决定）"
ELECTION_LINE = "{title}：{name}{tie}。票：{detail}"
ELECTION_HEAD = "领袖选举结果\n"
ELECTED_AS = "你当选为{what}"
ELECTED_WHAT = {
    "chief": "看守长：平票时以你的票为准，投了少数票时须 /裁定。",
    "leader": "囚犯领袖：可在第2天起的讨论日 /起义 一次。",
}
VERDICT_TALLY = "第{day}天裁决投票：{tally}"
UPRISING_TALLY = "起义投票：{tally}"
TIE_NO_LEADER = "最高票平票且没有可裁定的领袖，无事发生。"
PICK_WAIT = "最高票平票，且{title}投了少数票，等待{title}在 {time} 前裁定。"
PICK_ASK = "平票：请在 {time} 前私聊 /裁定 从中选一个：{options}。例如 /裁定 处决 3 或 /裁定 弃票。"
NOTHING_TO_PICK = "现在没有需要你裁定的平票。"
DECIDE_USAGE = "用法：/裁定 处决 <玩家>、/裁定 释放 <玩家> 或 /裁定 弃票。"
PICK_ONLY_TOP = "只能从最高票中选：{options}。"
LOG_AUTHORITY = "权威裁定"
LOG_DONE = "已生效"
DECIDED = "已裁定：{choice}。"
PICK_DRAWN = "{title}未按时裁定，随机决定：{choice}。"
TOP_ABSTAIN = "最高票是弃票，无事发生。"
UPRISING_TOP_ABSTAIN = "起义最高票是弃票，无事发生。"
RELEASED = "{name} 被释放，离开了监狱。"
REASON_UPRISING = "起义处决"
REASON_EXECUTED = "被处决"
EXECUTED = "{name} 被{by}处决。"
BY_UPRISING = "起义的囚犯们"
DIED_TOO = "{name} 殉情而死。"
NOBODY_TODAY = "今天无人被处决或释放。"

# ---- the night: rooms, the interrogation, the kill ---------------------------------------
ROOMS_OPEN = ("第{day}夜选房开始：看守私聊我 /选房 <{guard_rooms}>，"
              "囚犯私聊我 /选房 <{prisoner_rooms}>，先到先得；"
              "{time} 未选的随机分配，随后开始审讯。")
NOT_ROOM_TIME = "现在不是选房时间，选房在讨论日结束后开始。"
NO_SUCH_ROOM = "没有这个房间。{kind}可选：{rooms}。"
ALREADY_IN_ROOM = "你已经在 {room} 号房。"
ROOM_TAKEN = "{room} 号房已被选走，请换一间：{free}。"
ROOM_CHOSEN = "已选 {room} 号房。截止前可以换到空房间。"
ROOM_GROUPS_SHORT = ("房间群不够：今晚需要 {need} 个，只绑定了 {have} 个。请在每个房间群里发送 "
                     "/绑定群 <游戏群号> <该房间群的群号>；没有房间群的 {left} 对今晚改用私聊转发。")
ROOM_NAME = "{room} 号房"
NIGHT_RELAY = "审讯开始：你在 {where}。直接私聊我发文字，我会只带身份标签转给对方；{until} 墙壁升起。"
NIGHT_WEB = ("审讯开始：你在 {where}。请打开你的审讯室网页（私聊发送 /网页 获取链接和密码）和对方交谈，"
             "对方只看到你的身份标签；{until} 墙壁升起。")
NIGHT_NO_GROUP = ("审讯开始：你在 {where}。今晚房间群不够，你们这间改用私聊转发：直接私聊我发文字，"
                  "我会只带身份标签转给对方；{until} 墙壁升起。")
NIGHT_GROUP = ("审讯开始：你在 {where}。今晚你的审讯群：{group}（群号），请用报名的 QQ 或登记的小号申请加入"
               "（小号在白天私聊 /小号 <QQ号> 登记），只有今晚同房的两人会被同意；群名片会被改成「{card}」。"
               "{until} 墙壁升起。")
NIGHT_BYE = "你在 {room} 号房，今晚轮空，没有审讯对象。"
NIGHT_OPEN = "第{day}夜审讯开始，{until} 墙壁升起。"
ROOM_GROUP_OPEN = "第{day}夜审讯开始：本群今晚只有一名看守和一名囚犯，墙壁升起前可以自由交谈。"
WALL_UP = "墙壁升起了。"
WALL_UP_END = "墙壁升起了，审讯结束。"
RELAY_IN_GROUPS = "本局审讯在房间群进行，私聊消息不会转发。"
NOT_NIGHT = "现在不是审讯时间，消息没有转发。审讯在每晚 {start}–{end}。"
RELAY_BYE = "你今晚轮空，没有审讯对象，消息没有转发。"
PARTNER_GONE = "对方已不在审讯室，消息没有转发。"
RELAY_NO_TEXT = "图片和表情无法转发，请改发文字。"
IMAGES_DROPPED = "（图片已略去）"
IMAGE = "（图片）"
SENT_TO_WEB = "已发到审讯室网页。"
NIGHT_ONLY = "这个技能只能在夜晚{rooms}审讯时使用。"
OR_ROOMS = "选房或"
NO_NOISE = "你没有噪音技能。"
NOISE_BYE = "你今晚轮空，没有人能听到噪音。"
NOISE = "噪音"  # the ability's name (uses, the log, the transcript)
NOISE_LABEL = "【噪音】"
NOISE_HEARD = "【噪音】刺耳的噪音从墙里涌来，你感到一阵眩晕……"
NOISE_DONE = "噪音已播放。{left}"
USES_LEFT = "剩余 {n} 次。"
LOG_PLAYED = "已播放"
NO_POINT_KILL = "你没有点杀技能。"
POINT_KILL_GUARD = "只能点杀监狱中存活的看守。"
KILL_HOW = {"point_kill": "点杀", "kill": "杀人"}
POINT_KILL_SET = "今晚将点杀 {name}（审讯结束时生效，之前可改或 /不杀）。"
CANNOT_SPARE = "你不能放弃杀人。"
SPARED = "今晚不杀人（审讯结束前可用 /点杀 改变主意）。"
REASON_KILLED = "第{day}夜被杀人犯杀死"
LOG_DEAD = "死亡"
DAWN_END = "天亮了。昨夜死亡：{names}。"
DAWN = ("第{day}天天亮了。昨夜死亡：{names}。\n"
        "看守请在 {time} 前私聊我 /处决 <囚犯>、/释放 <囚犯> 或 /弃票。")

# ---- designed abilities: 查验 保护 封锁 窃听 换房 传话 投票加权 ---------------------------------
NO_KIND = "你没有{name}技能。"
SWAP_WHEN = "「{name}」只能在选房时使用（审讯开始时生效）。"
NOT_SELF_ABILITY = "「{name}」不能选自己，请换一名玩家。"
TARGET_NOT_IN_PRISON = "只能选监狱中存活的玩家。"
TARGET_KIND = "「{name}」只能选{kind}。"
QUEUED = "已记下「{name}」：{what}，{when}。{again}"
REPLACED = "（已替换你之前的选择）"
AT_DAWN = "审讯结束时结算，天亮前私聊告诉你结果；之前可以改"
AT_CLOSE = "审讯结束时生效；之前可以改"
AT_ONCE_TONIGHT = "今晚生效；审讯结束前可以改"
AT_OPEN = "审讯开始时生效；选房结束前可以改"
TODAY = "今天"
CAMP_RESULT = {"guard": "看守", "murderer": "杀人犯阵营", "prisoner": "囚犯，不属于杀人犯阵营"}
ROLE_RESULT = "【{kind}】{role}{crimes}"
CHECK_RESULT = "「{name}」：{target} 是 {result}。"
CHECKED_YOU = "有人查验了你。"
ONCE_A_DAY = "「{name}」每个白天或夜晚只能用一次。"
NO_ROOM_TO_HEAR = "没有这个房间。可窃听：{rooms}（看守房或囚犯房都行）。"
SWAP_TWO = "请写两名不同的玩家：/换房 <玩家> <玩家>。"
SWAP_SAME_CAMP = "只能让两名看守或两名囚犯交换房间。"
SWAP_WHAT = "{a} 与 {b} 交换房间"
SWAP_DONE = "{ra}↔{rb}"
SWAP_OK = "「{name}」已生效：{what}。"
SWAPPED_YOU = "今晚你的房间被人调换了，以审讯开始的通知为准。"
MESSAGE_EMPTY = "请写上要传的话：/传话 <玩家> <内容>。"
MESSAGE_LONG = "一次传话最多 {n} 个字，请缩短。"
MESSAGE_IN = "【匿名传话】{text}"
MESSAGE_SENT = "已把话匿名传给 {name}。"
WEIGHT_ALWAYS = "「{name}」一直有效：你的每一票都算 {n} 票，不用发动。"
WEIGHT_WHEN = "加权只能在第2天起的讨论日、投票截止前使用。"
WEIGHT_UPRISING = "囚犯只有在起义投票时才能加权。"
WEIGHT_VOTE = {True: "裁决票", False: "起义票"}
WEIGHT_SET = "「{name}」：今天你的{vote}算 {n} 票（截止时计入）。{left}"
WEIGHT_LOG = "今天 {n} 票"
WEIGHTS_TO_HOSTS = "第{day}天加权计票（保密）：{items}"
WEIGHT_ITEM = "{name}×{n}"
NOISE_BLOCKED = "噪音没有放出去：你今晚被封锁了。"
KILL_BLOCKED = "你今晚被封锁了，没有杀死任何人。"
PROTECT_SAVED = "「{name}」：{target} 昨夜遭到袭击，被你保护下来了。"
PROTECTED_SAVED = "昨夜你遭到袭击，但有人保护了你。"
PROTECTED_YOU = "昨夜有人保护了你。"
BLOCKED_YOU = "昨夜你被人封锁了，你的技能没有生效。"
YOU_FAILED = "「{name}」没有生效：{why}。"
BLOCKED_WHY = "你被封锁了"
GONE_WHY = "对方已离开监狱"
HEARD = "「{name}」：{room}第{night}夜的审讯记录：\n{lines}"
HEARD_NOBODY = "「{name}」：{room}今晚没有审讯。"
HEARD_SILENCE = "（没有人说话）"
HEARD_YOU = "昨夜有人窃听了你的审讯。"
HEARD_LOG = "{n} 条记录"
NO_INTERROGATION = "没有审讯"
PENDING = "\n今晚已选：{items}。"
PENDING_ITEM = "「{name}」{what}"
# the ability log's results (sheet 技能使用) and the hosts' summary
DONE = "已生效"
FAILED_BLOCKED = "失效（被封锁）"
FAILED_GONE = "失效（目标已离开监狱）"
FAILED_PROTECTED = "未遂（目标被保护）"
PROTECT_STOPPED = "挡下了杀人"
SUM_LINE = "· {kind}：{who} → {what}：{result}"
SUM_GENERIC_BLOCKED = "· #{id}「{name}」：{who} 今晚被封锁，请结算时考虑"
SUMMARY_OPEN = "第{day}夜换房结算（保密）：\n{lines}"
SUMMARY_CLOSE = "第{day}夜技能结算（保密）：\n{lines}"
USE_COMMAND = "「{name}」请用 {usage} 发动。"
COMMAND_OF = {
    "check": "/查验 <玩家>", "protect": "/保护 <玩家>", "block": "/封锁 <玩家>", "eavesdrop": "/窃听 <房间>",
    "swap": "/换房 <玩家> <玩家>", "message": "/传话 <玩家> <内容>", "vote_weight": "/加权",
    "noise": "/噪音", "point_kill": "/点杀 <看守>",
}
# the identity message's line for each
WHEN_USE = {"day": "白天", "night": "夜晚（选房或审讯时）", "any": "白天或夜晚"}
TARGET_ONLY = {"any": "", "guard": "，只能选看守", "prisoner": "，只能选囚犯"}
MAY_SELF = "，可以选自己"
TELLS = "，对方会知道有人这样做，但不知道是谁"
LEARN = {"camp": "阵营：看守、杀人犯阵营或其他囚犯", "role": "身份和罪名"}
ABILITY_CHECK = "「{name}」：{when}私聊 /查验 <玩家>，得知对方的{learn}{result}（{left}{target}{tells}{must}）。"
CHECK_WHEN = {"day": "，立即告知", "night": "，天亮前告知", "any": "，白天立即告知、夜晚天亮前告知"}
ABILITY_PROTECT = "「{name}」：夜晚私聊 /保护 <玩家>，对方今晚不会被杀人犯杀死（{left}{target}{tells}{must}）。"
ABILITY_BLOCK = "「{name}」：夜晚私聊 /封锁 <玩家>，对方今晚的技能全部失效（{left}{target}{tells}{must}）。"
ABILITY_EAVESDROP = "「{name}」：夜晚私聊 /窃听 <房间>，天亮前读到该房间当晚的审讯记录（{left}{tells}{must}）。"
ABILITY_SWAP = ("「{name}」：选房时私聊 /换房 <玩家> <玩家>，审讯开始时两人交换房间（同为看守或同为囚犯）"
                "（{left}{target}{tells}{must}）。")
ABILITY_MESSAGE = "「{name}」：{when}私聊 /传话 <玩家> <内容>，匿名给对方传一句话（{left}{target}{must}）。"
ABILITY_WEIGHT_ALWAYS = "「{name}」：你的{vote}一直算 {n} 票。"
ABILITY_WEIGHT = "「{name}」：讨论日私聊 /加权，当天你的{vote}算 {n} 票（{left}{must}）。"
TELLS_ROOM = "，房间里的两人会知道有人窃听"

# ---- abilities the host settles, submissions, 树洞, the kernel's /出局 /回场 -----------------
ABILITY_WHEN = {"day": "白天讨论日", "night": "夜晚", "any": "游戏进行中"}
NO_SUCH_ABILITY = "你没有技能「{name}」。"
YOUR_ABILITIES = "你的技能：{names}。"
ABILITY_ONLY_WHEN = "「{name}」只能在{when}使用。"
ABILITY_TO_HOSTS = "【技能#{id}】{who}（{role}）发动「{name}」：{text}。用 /结算 {id} <结果> 回复。"
NO_CONTENT = "（无内容）"
ABILITY_SENT = "已提交「{name}」（#{id}），等待导演结算。"
NO_SUCH_USE = "没有这个技能编号，请看导演私聊里的 #编号。"
ALREADY_SETTLED = "#{id} 已经结算过了：{result}"
SETTLE_WHAT = "请写明结算结果：/结算 <编号> <结果>。"
SETTLED_TO_PLAYER = "你的技能「{ability}」（#{id}）结算：{result}"
SETTLED = "已结算 #{id}。"
SUBMIT_LIMIT = "你已经提交过 {n} 次，不能再提交。"
SUBMIT_OVER = "游戏已结束，不能再提交。"
MAP_PAIR_RE = r"([A-Za-z])\s*[-－—~～:：=]?\s*([A-Za-z])"  # a-E, a－E, a：E …
LIST_SPLIT_RE = r"[\s,，;；]+"  # between the items a player lists
ALIAS_EQ_RE = r"[=＝:：]"  # 马甲=玩家
NO_SUCH_ROOM_PAIR = "没有房间 {g}-{p}：看守房 {lower}，囚犯房 {upper}。"
ROOM_TWICE = "房间 {g} 或 {p} 出现了两次，请每间只写一次。"
MAP_INCOMPLETE = "请写全 {n} 组对应，例如 /提交对应 {example}"
MAP_TO_HOSTS = "{who} 提交房间对应（到达 #{seq}）：{pairs}"
MAP_RECEIVED = "已收到你的房间对应（到达 #{seq}），游戏结束时核对。"
ALIAS_FORMAT = "「{token}」格式不对，请写成 马甲=玩家。"
NO_SUCH_ALIAS = "没有马甲「{alias}」，请检查。"
ALIAS_EXAMPLE = "请写出对应，例如 /提交马甲 马甲甲=玩家A 马甲乙=玩家B。"
ALIAS_TO_HOSTS = "{who} 提交马甲对应（到达 #{seq}，{n} 条）。"
ALIAS_RECEIVED = "已收到你的马甲对应（{n} 条，到达 #{seq}），游戏结束时核对。"
NOTES_OPEN = "游戏已结束，树洞已公开。"
NOTE_EMPTY = "树洞内容不能为空：/树洞 <想说的话>。"
NOTE_KEPT = "已存入树洞，游戏结束后匿名公开。"
NOT_IN_PRISON = "{name} 已不在监狱中。"
ALREADY_IN = "{name} 本来就在场。"
RELEASED_NO_BACK = "{name} 已被释放，不能回到监狱。"

# ---- the end, the points, the reveal -------------------------------------------------------
PT_DAYS = "存活 {days} 天（（二）3）"
PT_LOVE_WON = "爱的人 {name} 胜利（（二）3）"
PT_HATE_WON = "恨的人 {name} 胜利（（二）3）"
PT_RELEASED = "被释放（（二）5）"
TOP_TITLE = {"love": "万人迷", "hate": "讨厌鬼"}
TOP_DRAWN = "，平票抽签"
PT_TOP = "{title}（{n} 人{how}）（（二）2）"
PT_MAP_FIRST = "第一个提交正确房间对应（#{seq}）（（二）4）"
PT_MURDERERS_DEAD = "杀人犯阵营全部死亡（（二）5）"
PT_GUARDS_DEAD = "看守阵营全部死亡（（二）5）"
PT_ALIASES = "马甲-玩家对应全部正确（（二）6）"
REASON_MASS_EXECUTION = "杀人犯被释放，其余所有人被处决"
GAME_OVER = "游戏结束：{cond}。"
WINNERS = "胜利：{names}"
SEE_EXPORT = "审讯记录与积分明细见 /导出。"
REVEAL_HEAD = "身份揭晓："
REVEAL_LINE = "{name}：{kind} {role}{crimes}，{status}"
REVEAL_MAP = "房间对应："
REVEAL_RANKING = "积分排名："
REVEAL_RANK = "{rank}. {name} {total} 分"
REVEAL_NOTES = "树洞："
REVEAL_NOTE = "· {text}"
EARLY_END = "【囚犯游戏】提前结束，没有阵营胜负；积分按结束时计算。"

# ---- the auction of the script's characters (马甲) ---------------------------------------
CHOICES = (("first", "第一志愿"), ("second", "第二志愿"))
BID_LABELS = {"第一志愿": "first", "第二志愿": "second", "随机号码": "number", "随机数": "number"}  # /竞拍 <label>=…
BID_NONE = "无"  # 第二志愿=无 clears a choice
CAMP_TEXT = {"guard": "看守", "prisoner": "囚犯", "any": "任意"}
HOW_TEXT = {"first": "第一志愿出价", "second": "第二志愿出价", "draw": "抽签"}
BID_USAGE = "/竞拍 第一志愿=角色:硬币 第二志愿=角色:硬币 随机号码=1–999"
CHOICE_RE = r"^(.+?)(?:[:：](\d+)\s*(?:币|枚)?)?$"  # 角色:硬币, 角色：10 币, 角色
COLON_RE = "[:：]"
EQUALS_FULL = "＝"  # a full-width = in /竞拍 is read as =
LOST_WHY = {"taken": "已被出价更高或更早的玩家拍得", "camp": "该角色限{camp}", "short": "要留给另一阵营（否则角色不够分）"}
SIGNUP_NOT_BID = "{label}「{raw}」没有记为出价：{why}"
SIGNUP_BIDS = "你报名时填写的志愿已记为出价：{bids}。"
AUCTION_OPEN = ("囚犯游戏开始，先竞拍马甲（【游戏流程】<3>）。本局剧本角色：\n{chars}\n"
                "请私聊我 {usage}（随机号码决定你是看守还是囚犯）。出价匿名，截止（{when}）前可以改；"
                "{limit}不超过你的硬币余额，"
                "只为拍得的角色付硬币。限看守/囚犯的角色只给该阵营。竞拍结束后发身份。")
LIMIT_SUM = "两个志愿合计"
LIMIT_EACH = "每个志愿的出价各"
AUCTION_COINS = "竞拍马甲：你有 {coins} 枚硬币，{when}截止。"
AUCTION_HOW_TO = "请私聊 {usage}。"
AUCTION_TO_HOSTS = "竞拍马甲开始：{chars} 个角色，{n} 人。{close}结束竞拍并发身份；结果表私聊给主持。"
CLOSE_AUTO = "到时自动"
CLOSE_BY_HOST = "发送 /推进 "
CHAR_ONLY = "（限{camp}）"
NO_SUCH_CHAR = "没有角色「{name}」。本局角色：{chars}。"
CHOICE_FORMAT = "{label}请写成 角色:硬币（硬币为不小于 0 的整数），例如 {label}=柯南:10。"
SAME_CHOICE = "第一志愿和第二志愿不能是同一个角色「{name}」，请换一个。"
OVER_BALANCE = "{label}出价 {coins} 币超过了你的余额 {balance} 币。"
OVER_BALANCE_SUM = "两个志愿合计 {coins} 币超过了你的余额 {balance} 币（本局两个志愿合计计算）。"
BID_CHOICE = "{label} {name} {coins} 币"
BID_EMPTY = "{label} 未填"
BID_NUMBER = "随机号码 {number}"
BID_NO_NUMBER = "随机号码 未填（将随机抽取）"
NO_AUCTION_HOST = "本局没有竞拍马甲（没有载入剧本角色表 characters）。"
BIDS_SECRET = "出价表保密，请私聊我发送 /竞拍 查看。"
AUCTION_OVER = "竞拍已经结束，不能再出价。你的马甲是「{alias}」（/我的身份 可查看）。"
NO_AUCTION = "本局没有竞拍马甲（导演没有载入剧本角色表），报名时的马甲就是你的马甲。"
BID_PRIVATE = "出价是匿名的，请私聊我发送 {usage}。"
BID_UNREADABLE = "看不懂「{token}」。请写成：{usage}（可只写要改的项，写 第二志愿=无 可清除）。"
NUMBER_RANGE = "随机号码应为 1–999 的整数。"
BID_RECORDED = "已记录你的出价"
BID_CURRENT = "你现在的出价"
BID_REPLY = "{head}（到达 #{seq}）：{bids}；余额 {balance} 币。竞拍截止前可以改。"
LOST_CHOICE = "{label}「{name}」未拍得：{why}。"
WON_DRAW = "你抽签分得马甲「{name}」，不花硬币，余额 {balance} 币。"
WON_BID = "你以{how} {coins} 币拍得马甲「{name}」，余额 {balance} 币。"
AUCTION_RESULT = "竞拍结果：{lines}\n"
AUCTION_CLOSED = "竞拍结束，每人的马甲已换成拍得的角色（座位号不变，/名单 可查看）。"
HOST_BIDS_HEAD = "竞拍进行中（保密），已出价 {bidders}/{n} 人："
HOST_BID_LINE = "{seat}号 {alias}（QQ {qq}，余额 {balance}）：{bids}"
HOST_RESULTS_HEAD = "竞拍结果（保密）："
HOST_PAID = "{how} {coins} 币"
HOST_RESULT_LINE = "{seat}号 {name} ← {paid}（报名马甲 {alias}，QQ {qq}；{bids}；分到{kind}）"
AUCTION_ONLY_BIDS = "现在是竞拍马甲阶段，身份还没有发。请私聊 {usage} 出价；竞拍结束后再用这个命令。"
AUCTION_INFO = "竞拍马甲中：{bids}；余额 {balance} 币。\n本局角色：{chars}\n改出价：{usage}"
AUCTION_STATUS = "竞拍马甲：已出价 {bidders}/{n} 人。\n角色：{chars}"

# ---- /导出 sheets --------------------------------------------------------------------------
SHEET = {"players": "玩家", "uses": "技能使用", "pairs": "审讯对应", "lines": "审讯记录", "points": "积分", "subs": "提交"}
PLAYERS_HEAD = (
    "座位", "马甲", "QQ", "昵称", "联系方式", "第一志愿", "第二志愿", "随机数", "阵营", "身份", "罪名",
    "爱", "恨", "状态", "出局日", "出局原因", "积分", "报名马甲", "马甲获得方式", "花费硬币", "硬币余额",
)
USES_HEAD = ("编号", "到达序号", "时间", "天", "阶段", "座位", "马甲", "身份", "技能", "目标/内容", "结算")
PAIRS_HEAD = ("夜", "看守房", "囚犯房", "看守", "囚犯", "房间群", "看守发言", "囚犯发言", "当夜死亡")
LINES_HEAD = ("夜", "看守房", "囚犯房", "到达序号", "时间", "发言者", "内容")
SCORE_HEAD = ("名次", "座位", "马甲", "积分", "明细")
SUBS_HEAD = ("到达序号", "时间", "座位", "类型", "内容")
SUB_KIND = {"map": "房间对应", "alias": "马甲对应"}
BID_CELL = "{name} {coins} 币（#{seq}）"
BIDDING = "竞拍中"
UNSETTLED = "待结算"
BYE = "轮空"
POINT_ITEM = "{why} {n:+d}"

# ---- the web interrogation room ------------------------------------------------------------
WEB_TITLE = "囚犯游戏 · 审讯室"
WEB_OPEN = "审讯进行中，墙壁升起前可以交谈（每晚 {window}）。"
WEB_RECORD = "墙壁已经升起：这是第{night}夜审讯的记录，只能查看。"
WEB_NO_ROOM = "现在不是审讯时间（每晚 {window}），你没有审讯对象。"
WEB_SAY = "对对方说……（对方只看到你的身份标签）"
WEB_READ_ONLY = "审讯时间外只能查看。"
WEB_PAUSED = "游戏暂停中，只能查看。"
WEB_ENDED = "游戏已结束，只能查看。"
WEB_GONE = "你已出局，只能查看。"
WEB_RELEASED = "你已被释放，只能查看。"
WEB_PARTNER_GONE = "对方已不在审讯室，只能查看。"
WEB_BYE = "你今晚轮空，没有审讯对象，只能查看。"
WEB_NOT_PLAYER = "只有审讯双方可以发言。"
WEB_WHEN = "{month}月{day}日 {hhmm}"  # a line's date and time (hover)

# ---- a host's settings (content.py): one line per mistake ------------------------------------
CAMP_WORDS = {"guard": "guard", "prisoner": "prisoner", "any": "any", "看守": "guard", "囚犯": "prisoner", "任意": "any"}
NAME_BANNED = "@[]:：=＝,，、;；"  # characters a character's name (a future 马甲) may not hold
NO_CHAR_NAME = "无"  # a character may not be called this (it means "none")
LOVER_NEEDS_WITH = "情侣需要 with = \"对方身份 id\"。"
GENERIC_NEEDS_NAME = "通用技能需要 name（不含空格），玩家用 /技能 <name> 发动。"
COMPULSORY_NEEDS_WHEN = "必须使用的技能要写明 when = \"day\" 或 \"night\"。"
ABILITY_TWICE = "技能名「{name}」在同一身份中重复。"
BALANCE_SEAT = "「{seat}」应为 座位号 = 不小于 0 的整数。"
CHAR_TOO_LONG = "角色「{name}」太长：马甲最长 16 个字。"
CHAR_BAD_NAME = "角色「{name}」不能是纯数字或「无」，也不能含空格和 {banned}。"
KIND_NAME = {
    "check": "查验", "protect": "保护", "block": "封锁", "eavesdrop": "窃听", "swap": "换房", "message": "传话",
    "vote_weight": "投票加权", "noise": "噪音", "kill": "杀人", "point_kill": "点杀", "lover": "情侣", "generic": "通用技能",
}
KIND_WORD = "{kind}（{name}）"
KEY_NOT_FOR = "{key} 不能用于 {what}，只用于 {kinds}。"
NAME_NO_SPACE = "{what} 的 name 不能为空，也不能含空格。"
WHEN_NOT_FOR = "{what} 的 when 只能是 {allowed}（不写即第一个）。"
WHEN_WORD = "\"{when}\"（{text}）"
COMPULSORY_PASSIVE = "{what} 不限次数时每次投票自动生效，不能设 compulsory。"
KIND_TWICE = "同一身份只能有一个 {what}技能。"
ROLE_WHERE = "{camp}身份「{id}」"
GUARD_NO_CRIMES = "{where}：看守没有罪名，请删去 crimes。"
GUARD_NOT_MURDERER = "{where}：杀人犯必须是囚犯。"
GUARD_NOT_SIDE = "{where}：只有囚犯可以属于杀人犯阵营。"
ABILITY_WHERE = "{where}的第 {n} 个技能"
KIND_NOT_FOR = "{where}的 kind「{kind}」不可用于{camp}，可用：{kinds}。"
KILL_MURDERER_ONLY = "{where}：{kind} 只能给杀人犯（murderer = true）。"
ONE_MURDERER = "囚犯中必须恰好有一个杀人犯（murderer = true），现在有 {n} 个。"
ROLE_ID_TWICE = "身份 id「{id}」重复，请改成唯一的 id。"
LOVER_MISSING = "身份「{id}」的情侣指向不存在的身份「{other}」。"
LOVER_SELF = "身份「{id}」不能和自己是情侣。"
PLAYER_COUNT = "看守 {g} + 囚犯 {p} = {total} 人，应为 {low}–{high} 人。"
CAMPS_UNEVEN = "看守 {g} 人、囚犯 {p} 人：两边应各占一半（最多差 1）。"
CHAR_TWICE = "角色「{name}」重复了。"
CHARS_SHORT = "剧本角色只有 {n} 个，少于 {players} 名玩家：每人都要分到一个马甲。"
CHARS_SHORT_GUARD = "能给看守的角色（guard + any）只有 {n} 个，少于 {need} 名看守。"
CHARS_SHORT_PRISONER = "能给囚犯的角色（prisoner + any）只有 {n} 个，少于 {need} 名囚犯。"
SIGNUP_SEAT = "signup 的「{seat}」应为座位号，值为表。"
DEAL_SEAT = "deal 的「{seat}」应为座位号。"
DEAL_NO_ROLE = "deal 座位 {seat} 的身份「{id}」不存在。"
DEAL_TWICE = "deal 中身份「{id}」发给了多人。"
NO_VARIANT = "没有名为「{name}」的内置身份文件。"
