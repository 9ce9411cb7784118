"""Every Chinese text of the league: message templates (``T.NAME.format(...)``),
labels and words read from user input (``views.py`` assembles the longer messages
from them). Imports only the state's enums."""

from __future__ import annotations

from .state import AppealStatus, Award, Kind, Level, Side, Status, Step

# ---- names of players and numbers ---------------------------------------------
PLAYER_NAME = "{alias}（#{seat}）"


def fmt(x: float) -> str:
    """0.5 -> '+0.5', -1.0 -> '-1', 0 -> '0'."""
    x = round(x, 2)
    if x == 0:
        return "0"
    text = f"{x:g}"
    return text if x < 0 else "+" + text


def fmt_total(x: float) -> str:
    return f"{round(x, 2):g}"


# ---- labels -----------------------------------------------------------------------
SIDE_NAMES = {Side.GOOD: "好人", Side.WOLF: "狼人"}
LEVEL_NAMES = {Level.WARNING: "警告", Level.LIGHT: "轻度", Level.MEDIUM: "中度", Level.HEAVY: "重度", Level.OTHER: "判罚"}
STATUS_NAMES = {Status.ACTIVE: "正常", Status.FORFEIT: "弃权", Status.DQ: "取消资格", Status.OUT: "出局",
                "demoted": "降为替补"}  # and a standings row's status of a demoted player (standings.DEMOTED)
PART_NAMES = ("胜负分", "行为分", "投票分", "狼人警徽分", "评选分", "违规扣分")  # in the order of standings.PART_KEYS
KIND_NAMES = {Kind.WOLF: "狼人牌", Kind.GOD: "神牌", Kind.VILLAGER: "平民牌"}
# what each position of a standings row's sort key means (§九), for the note where a tie was broken
TIEBREAK_NAMES = ("总分", "全场最佳次数（§九.1）", "败方最佳次数（§九.1）", "狼人牌胜场（§九.2）",
                  "神牌胜场（§九.2）", "平民牌胜场（§九.2）", "上一轮排名（§九.3）")
TIEBREAK_SIGNUP_ORDER = "报名顺序（§九.3）"  # round 1 has no previous ranking
TIEBREAK_BY = "同分，按{what}"


# ---- shared words ---------------------------------------------------------------
SEP = "、"  # between the items of a list in a sentence
MVP = "全场最佳"
SVP = "败方最佳"
NOBODY = "无"
IN_GAME = "局号#{game}"
OFF_GAME = "场外"
FINISHED = "联赛已结束。"

# ---- the start, the kernel's commands and hooks (engine.py) ------------------------
HOST_ONLY = "只有裁判可以这样做。"  # a referees' command from someone else (the table's who="host")
NOT_A_PLAYER = "你不是本届联赛的报名选手，不能这样做。"  # a players' command from someone else (who="player")
START_TOO_FEW = "报名 {n} 人，第一轮需要 {need} 人，请继续报名后再 /开始。"
START_INTRO = "报名 {n} 人：前 {need} 人为正赛选手，其余 {subs} 人按报名顺序为替补（§十.1）。"
FINISHED_VIEWS_ONLY = "联赛已结束，只能查看积分和导出。"
UNKNOWN_COMMAND = "联赛没有这个指令，发送 /帮助 查看可用指令。"
OUT_ALREADY = "{who} 已经不在联赛中（{status}）。"
OUT_DEFAULT_REASON = "裁判判出局"
BACK_ALREADY = "{who} 本来就在联赛中。"
BACK_DEFAULT_REASON = "裁判恢复"
BACK_DONE = "{who} 已恢复，现为替补。"
INFO_NOT_PLAYER = "你不是本届联赛的报名选手。"
INFO_HEAD = "{who}：{status}"
INFO_GROUP = "{round} {group}组 {pos}号位"
INFO_SUBSTITUTE = "{round} 替补"
INFO_TODAY_CHECKED = "今天：已签到"
INFO_TODAY_UNCHECKED = "今天：未签到"
INFO_POINTS = "本轮积分 {total}"
INFO_RANK = "，第 {rank} 名"
MARK_MAIN = "正赛"
MARK_SUBSTITUTE = "替补"
SIGNUP_SUMMARY = "报名 {n} 人（正赛 {main}，替补 {subs}）"
SIGNUP_SHORT = "，正赛还差 {n} 人"
STATUS_FINISHED = "联赛已结束（{round}）。"
STATUS_HEAD = "{round}：已录分 {entered}/{total} 场"
STATUS_NO_DAY = "；还没开比赛日。"
STATUS_DAY = "；第{no}比赛日 {date}（{board}）签到 {checked}/{size}"

# ---- /导出 sheets (engine.tables) and the standings table ---------------------------
SHEET_SIGNUP = "报名"
SHEET_STANDINGS = "积分榜-{round}"
SHEET_SCORES = "计分表"
SHEET_VIOLATIONS = "违规"
SHEET_APPEALS = "申诉"
SHEET_AUDIT = "审计"
SIGNUP_HEADER = ("序号", "马甲", "QQ", "状态")
SCORES_HEADER = ("局号", "轮次", "组", "场次", "日期", "状态", "双倍", "座位", "序号", "马甲", "角色", "阵营",
                 "胜负", "胜负分", "行为分", "投票分", "警徽分", "评选分", "全场最佳", "败方最佳", "评选取消")
VIOLATIONS_HEADER = ("编号", "序号", "马甲", "轮次", "局号", "类型", "等级", "扣分", "来源", "时间",
                     "撤销时间", "撤销人", "撤销理由")
APPEALS_HEADER = ("编号", "序号", "局号", "时间", "内容", "结果", "说明")
AUDIT_HEADER = ("时间", "操作人", "操作", "内容")
STANDINGS_HEADER_HEAD = ("排名", "序号", "马甲")
STANDINGS_HEADER_GROUP = "组"  # only in rounds with several groups
STANDINGS_HEADER_TAIL = ("总分", "胜负分", "行为分", "投票分", "警徽分", "评选分", "违规扣分",
                         "全场最佳", "败方最佳", "狼牌胜", "神牌胜", "民牌胜", "场次", "晋级", "备注")
CELL_YES = "是"
CELL_NO = "否"
CELL_VOID = "流局"
CELL_VALID = "有效"
CELL_WON = "胜"
CELL_LOST = "负"
CELL_AWARD_CUT = "违规编号 {id}（§七.3）"
CELL_TIE = "同分待裁定（§九.4）"

# ---- words read from the referees' commands ------------------------------------
AWARD_WORDS = {"全场最佳": Award.MVP, "MVP": Award.MVP, "mvp": Award.MVP,
               "败方最佳": Award.SVP, "SVP": Award.SVP, "svp": Award.SVP}
NOBODY_WORDS = ("无", "空", "取消")  # /评选 … 无: the award goes to nobody
VERDICT_WORDS = {"维持": AppealStatus.UPHELD, "驳回": AppealStatus.UPHELD, "改判": AppealStatus.CHANGED,
                 "通过": AppealStatus.CHANGED}
VERDICT_NAMES = {AppealStatus.UPHELD: "维持原判", AppealStatus.CHANGED: "改判", AppealStatus.OPEN: "待复核"}
APPEAL_HEAVY_WORD = "重度"  # an appeal starting with it reports a heavy violation and is taken after the deadline

# ---- the audit log (/导出 审计): actions and details -------------------------------
AUDIT_OUT = "出局"
AUDIT_OUT_DETAIL = "{who} {reason}"
AUDIT_VIOLATION = "违规"
AUDIT_VIOLATION_DETAIL = "编号{id} {who} {type} 局号#{game} -{points}"
AUDIT_UNDO = "撤销"
AUDIT_UNDO_DETAIL = "编号{id} {who} {type}（{where}）+{points} {reason}"
AUDIT_REINSTATE = "恢复资格"
AUDIT_REINSTATE_DETAIL = "{who} {place}"
AUDIT_AWARD = "评选"
AUDIT_AWARD_DETAIL = "局号#{game} {what}：{old} → {new}"
AUDIT_VERDICT = "裁决"
AUDIT_VERDICT_DETAIL = "申诉{id} {verdict} {note}"
AUDIT_NEXT_ROUND = "下一轮"
AUDIT_NEXT_ROUND_DETAIL = "{round} 结束"

# ---- violations and disqualification (§十三) --------------------------------------
DQ_DONE = "{who} 被取消参赛资格：{reason}"
DQ_HEAVY = "重度违规「{type}」（§十三.3）"
DQ_LIGHT = "本届第 {n} 次轻度违规（§十三.3.4）"
DQ_MEDIUM = "本届第 {n} 次中度违规（§十三.3.4）"
FLAG_PER_GAME = "{who} 在局号#{game} 已有 {n} 次违规，请考虑严厉处罚（§十三.3.5）：取消胜利分并扣 2 分等。"
AWARD_NOTE = "其局号#{game} 的{what}（{points}）已取消（§七.3），评选不顺延；如需改评：/评选 {game} {what} 玩家。"
VIOLATION_UNKNOWN = "违规类型「{type}」不在违规表中，可用：{known}。各项说明见 /违规表。"
NOT_IN_GAME = "{who} 不在局号#{game} 里。"
VIOLATION_NOT_IN_ROUND = "{who} 不是本轮选手；场内违规请写局号：/违规 玩家 类型 局号。"
VIOLATION_DONE = "已记 {who} {level}违规「{type}」（编号 {id}），扣 {points} 分。"
VIOLATION_YOURS = "裁判判定你{level}违规「{type}」（编号 {id}），扣 {points} 分"
VIOLATION_YOURS_AWARD = "，并取消该局评选资格（§七.3）"
VIOLATION_UNDO_HINT = "撤销：/撤销 {id} 理由"
VIOLATION_YOURS_APPEAL = "；有异议请在次日 12:00 前 /申诉。"
UNDO_UNKNOWN = "没有编号 {id} 的扣分记录；编号见 /我的积分 或 /导出 的「违规」表。"
UNDO_TWICE = "编号 {id} 已于 {at} 撤销（{reason}），不能再撤销。"
UNDO_NO_REASON = "请写明撤销理由：/撤销 {id} 理由（例如 申诉改判）。"
UNDO_DONE = "已撤销编号 {id}：{who} {type}（{where}），退回 {points} 分。"
UNDO_YOURS = "裁判撤销了你的违规「{type}」（编号 {id}，{where}），退回 {points} 分：{reason}。"
UNDO_AWARD_BACK = "局号#{game} 的评选资格恢复（§七.3）。"
UNDO_YOURS_AWARD_BACK = "该局评选资格已恢复。"
REINSTATED_PLACE = "回到 {group}组 {pos}号位。"
REINSTATED_TAKEN = "原位置已由替补顶上，现为替补，按替补顺序上场。"
REINSTATED_SUBSTITUTE = "现为替补。"
REINSTATED_REASON = "违规扣分已撤销，恢复参赛资格"
REINSTATED_GROUP = "{who} 的违规扣分已撤销，恢复参赛资格（§十三.3.4 不再满足）。"
REINSTATED_HOSTS = "{who} 恢复参赛资格：{place}"
REINSTATED_YOURS = "你的参赛资格已恢复。{place}"

# ---- awards (/评选, §七) -------------------------------------------------------------
AWARD_WHICH = "评选只能写 全场最佳 或 败方最佳，例如 /评选 3 全场最佳 张三。"
AWARD_VOID = "局号#{game} 是流局，没有评选。"
AWARD_UNKNOWN = "「{who}」不在局号#{game} 里；写报名序号或马甲，或写「无」取消该项评选。"
AWARD_BLOCKED = "{who} 在局号#{game} 有影响局势的违规（{type}，编号 {id}），没有评选资格（§七.3）；撤销后才能评选。"
AWARD_SVP_WINNER = "败方最佳应来自失败方，{who} 在胜方。"
AWARD_ONE_EACH = "{who} 已是本局{what}，一人只能得一项。"
AWARD_DONE = "局号#{game}（{group}组 第{no}场）{what}：{old} → {new}。"
AWARD_DONE_REPLY = "积分榜已更新。"
AWARD_DONE_GROUP = "裁判改评："
GAME_UNKNOWN = "没有局号#{game}，请用积分表或录分回执里的局号。"

# ---- appeals (§八) --------------------------------------------------------------------
APPEAL_NO_TEXT = "请写明申诉理由：/申诉 局号 理由（起因、经过、结果、异议点）。"
APPEAL_CLOSED = "申诉已截止（{month}月{day}日 {time:%H:%M}），本场不再受理（§八）；检举重度违规请以「重度」开头。"
APPEAL_USED_UP = "你对局号#{game} 的申诉已 {n} 次未通过，申诉作废（§八）。"
APPEAL_DONE = "申诉已提交（编号 {id}），裁判组复核后会私聊答复。复核期间请勿公开讨论（§八）。"
APPEAL_HOSTS = "新申诉 {id}：{who} 对局号#{game}（{group}组 第{no}场）：{text}\n答复：/裁决 {id} 维持|改判 说明"
APPEALS_NONE = "没有待复核的申诉。"
APPEALS_HEAD = "待复核申诉 {n} 件："
APPEALS_LINE = "{id}. {who} 局号#{game}：{text}"
APPEALS_HINT = "答复：/裁决 编号 维持|改判 说明"
APPEALS_IN_GROUP = "待复核申诉 {n} 件；内容已私聊发给裁判（申诉内容不在群里公开，§八）。"
VERDICT_UNKNOWN = "没有编号 {id} 的申诉，/申诉列表 可查看。"
VERDICT_TWICE = "申诉 {id} 已答复（{verdict}）。"
VERDICT_WHICH = "裁决只能写 维持 或 改判。"
VERDICT_YOURS = "你的申诉 {id}（局号#{game}）裁判组答复：{verdict}。{note}"
VERDICT_CHANGED = "已记改判。请用 /改分 {game} 重新录入计分表、/流局 {game}，或 /撤销 编号 理由 撤回扣分、/评选 改评，积分榜随之更新。"
VERDICT_UPHELD = "已答复申诉 {id}：维持原判。"

# ---- rounds (§四) ----------------------------------------------------------------------
PHASE_GROUPS = "{round} 分组已公布"
MISSING_DAYS = "还有 {n} 个比赛日没开"
MISSING_GAME = "{group}组 第{no}场"
ROUND_NOT_DONE = "本轮还没结束：{missing}。录完分（或 /流局）后再 /下一轮。"
TIES_FOR_REFEREES = "以下选手同分且规则无法分出先后，请裁判裁定（§九.4）："
FINAL_HEAD = "{round} 最终排名：\n"
FINAL_LINE = "{rank}. {who} {total}"
ADVANCE_TOO_FEW = "可晋级的只有 {n} 人，下一轮需要 {need} 人，请先处理弃权/替补。"
ADVANCE_HEAD = "{round} 结束，前 {n} 名晋级："
ADVANCE_LINE = "{rank}. {who}"

# ---- match days and check-in (§五, §十, §十二.5) ----------------------------------------
# {checkin_open} {late} {demote} {seat} below are the settings' times (HH:MM), passed as **settings["times"]
DATE_PATTERN = r"^(?:(\d{4})[-/.年])?(\d{1,2})[-/.月](\d{1,2})日?$"  # /开赛日 [月-日]
DATE_BAD = "日期格式应为 月-日，例如 1-2，收到「{text}」。"
DATE_NONE = "没有这一天：「{text}」。"
DAYS_ALL_OPENED = "{round}的 {n} 个比赛日都已开过，录完分后请用 /下一轮。"
DAY_PREVIOUS_OPEN = "上一个比赛日的签到还没结束，请等 18:50 之后再开新的比赛日。"
DAY_PAST = "{month}月{day}日 已经过去了，请写今天或以后的日期。"
DAY_TWICE = "{month}月{day}日 已经开过比赛日（{round} 第{no}比赛日），不能重复开；/分组 查看今天的出场名单。"
ROLE_COUNT = "{role}×{n}"
GAME_NO = "第{no}场"
GROUP = "{group}组"
DAY_LABEL = "{round} 第{no}比赛日 {month}月{day}日（{board}）"
DAY_OPENED = ("{label}\n版型：{roles}\n本日：{games}\n"
              "{checkin_open}-{late} 请在分组群发送 /签到；"
              "{late} 后签到记迟到扣 1 分，{demote} 仍未签到降为替补，"
              "{seat} 未入座视为弃权。")
DAY_UNLINKED_SOME = "\n还没有绑定分组群的组（{groups}）请在本群（主群）签到。"
DAY_UNLINKED_ALL = "\n各组还没有绑定分组群，请在本群（主群）签到。"
DAY_LINEUP_HEAD = "{label} {group}组 出场名单："
POSITION_LINE = "{pos}号位 {who}"
DAY_LINEUP_CHECKIN = "{checkin_open}-{late} 请在本群发送 /签到。"
PHASE_CHECKIN = "{label} 签到"
AUDIT_OPEN_DAY = "开赛日"
AUDIT_DAY_LATE = "；{report}"
STEP_NAMES = {Step.LATE: "迟到扣分", Step.DEMOTE: "降为替补", Step.SEAT: "未入座弃权"}
LATE_OPEN_SEP = "；"
LATE_OPEN_STEP = "{time} {step}（{n} 人）"
LATE_OPEN_HEAD = "开赛日开得晚：{done}，已按顺序立即执行，实际时间 {now}（已记入日志）。"
LATE_OPEN_CHECKED = "开赛前已签到 {n} 人（开赛前发送的 /签到 按发送时间计）。"
LATE_OPEN_UNDO = "如因开赛晚不应扣分，请用 /撤销 编号 理由 撤回，编号见 /我的积分 或 /导出。"
LATE_OPEN_NEXT = "接下来：{steps}。"
STEP_AT = "{time} {step}"
LATE_VIOLATION = "迟到"  # the violation type recorded for a late check-in (the data file must have it)
LATE_YOURS = "{late} 仍未签到，记迟到扣 1 分（§五）。{tail}"
LATE_YOURS_TAIL = "请在 {demote} 前发送 /签到，否则降为替补。"
LATE_GROUP = "{late} 未签到，记迟到（各扣 1 分）："
DROP_NO_SUBSTITUTE = "{group}组 空出一个位置，已没有可用替补，请裁判处理。"
DROP_SUBSTITUTE_YOURS = "你已递补进入 {group}组 {pos}号位，请在 {seat} 前发送 /签到 并按裁判指示入座。"
GAP_NO_SUBSTITUTE = "{group}组 缺 {n} 人且没有可用替补，请裁判处理。"
GAP_SUBSTITUTE_YOURS = "你已递补进入 {group}组 {pos}号位，比赛日请按时 /签到。"
DEMOTED_YOURS = "{demote} 仍未签到，你已降为替补（§十.3），退出本轮排名；之后按替补顺序等待通知，再次上场后按实际成绩排名。"
DEMOTED_LINE_NO_SUBSTITUTE = "{group}组：{who} 降为替补，没有可用替补"
DEMOTED_NO_SUBSTITUTE = "{group}组 {who} 降为替补，但已没有可用替补，请裁判处理。"
DEMOTED_LINE = "{group}组：{who} 降为替补，{sub} 递补 {pos}号位"
DEMOTED_SUBSTITUTE_YOURS = "你已递补进入 {group}组 {pos}号位，请在 {seat} 前发送 /签到 并按裁判指示进入房间就座，否则视为弃权。"
DEMOTED_GROUP = "{demote} 替补调整：\n"
FORFEIT_REASON = "{seat} 未入座，视为弃权（§十二.5）"
FORFEIT_LINE_NO_SUBSTITUTE = "{group}组：{who} 弃权"
FORFEIT_NO_SUBSTITUTE = "{group}组 {who} 弃权，没有替补顶上，请裁判处理。"
FORFEIT_LINE = "{group}组：{who} 弃权，{sub} 顶上"
FORFEIT_SUBSTITUTE_YOURS = "{group}组 有选手弃权，你已顶上，请立即进入 {group}组 房间就座。"
FORFEIT_GROUP = "{seat} 未入座视为弃权（§十二.5）：\n"
CHECKIN_TODAY_NOT_YET = "今天（{month}月{day}日）还没有开比赛日；比赛日 {checkin_open} 起签到，裁判开赛后请在分组群发送 /签到。"
CHECKIN_TODAY_CLOSED = "今天（{month}月{day}日）没有开比赛日，今天的签到时间（{checkin_open}-{demote}）已过；请留意裁判的开赛通知。"
CHECKIN_TODAY_NONE = "今天（{month}月{day}日）没有比赛日：本轮的比赛日都已开过。"
CHECKIN_TOO_EARLY = "签到 {opens} 开始，请到时再发 /签到。"
CHECKIN_DEMOTED = "已过 {demote}，你已降为替补（§十.3），请等待替补通知。"
CHECKIN_FORFEITED = "已过 {seat}，你已视为弃权（§十二.5）。"
CHECKIN_NOT_TODAY = "你不在今天的出场名单里；替补请等待递补通知。"
CHECKIN_TWICE = "你已经签到过了：{group}组 {pos}号位。"
CHECKIN_DONE_LATE = "签到成功：{group}组 {pos}号位（迟到，已扣 1 分）。{seat} 前按裁判指示进入房间就座。"
CHECKIN_DONE = "签到成功：{group}组 {pos}号位。{seat} 前按裁判指示进入房间就座。"
CHECKIN_NOT_IN_ROUND = "你不在本轮的分组名单里；替补请等待递补通知。"
CHECKIN_EARLY_TWICE = "你已经签到过了：{group}组 {pos}号位（裁判开赛后生效）。"
CHECKIN_EARLY = "签到已记下（{at}）：{group}组 {pos}号位。裁判还没开今天的比赛日，开赛后按这个时间生效"
CHECKIN_EARLY_LATE = "；已过 {late}，将记迟到扣 1 分。"
CHECKIN_EARLY_ON_TIME = "。"
CHECKIN_WRONG_CHAT = "你是 {group}组，请到 {group}组 的分组群（标签「{group}」）发送 /签到，不要在这个群签到。"
CHECKIN_MAIN_GROUP = "你是 {group}组，{group}组 还没有绑定分组群，请在联赛主群发送 /签到。"
ABSENT_NOT_NOW = "现在不在入座阶段（开赛日到 18:50 之间），不能记未到。"
ABSENT_NOT_TODAY = "{who} 不在今天的出场名单里。"
ABSENT_DONE = "已记未到：{who}。{seat} 仍未入座将视为弃权。"

# ---- score entry, corrections, void games (§六（二）, §十一) ----------------------------
SHEET_WRONG = "计分表有误，请改好后重新发送：\n{errors}"
SHEET_VIOLATION = "{level}违规「{type}」（编号 {id}）扣 {points} 分"
SHEET_VIOLATIONS_SEP = "；"
SHEET_VIOLATIONS_YOURS = "局号#{game}（{group}组 第{no}场）计分表记你{violations}。有异议请在次日 12:00 前私聊 /申诉 局号 理由。"
SHEET_AWARD_BLOCKED = "计分表有误：第{line}行 座位 {gseat} 已有影响局势的违规（{type}，编号 {id}），不能参与评选（§七.3）；撤销该违规后才能评选。"
GROUP_UNKNOWN = "本轮没有 {group}组，可用：{known}。"
SCORE_ALL_ENTERED = "{group}组 已开的场次都已录分；更正请用 /改分 局号。"
SCORE_DAY_NOT_OPEN = "第{no}场 所在的比赛日还没开，请先 /开赛日。"
SCORE_TWICE = "{group}组 第{no}场 已录分（局号#{game}）；更正请用 /改分 {game}。"
SCORE_DONE = "已录入局号#{game}。"
DAY_SCORED = "{round} 第{no}比赛日（{date}）全部 {n} 局已录分。"  # before the standings picture's caption
DAY_SCORED_REPLY = "本比赛日各组都已录完，积分榜图已发到主群。"
AUDIT_SCORE = "录分"
AUDIT_SCORE_DETAIL = "局号#{game} {group}组 第{no}场"
RESCORE_WRONG_GROUP = "局号#{game} 是 {group}组 第{no}场，计分表第一行应写「{group}组」。"
RESCORE_UNDO_REASON = "改分重录"  # the old sheet's violations, given way to the new sheet's
AUDIT_RESCORE = "改分"
AUDIT_RESCORE_DETAIL = "局号#{game} 第{n}次更正"
RESCORE_DONE = "局号#{game} 已更正，积分榜已更新。"
RESCORE_GROUP = "裁判更正了计分表：\n"
RESCORE_HOSTS = "审计：{by} 更正了局号#{game}（{group}组 第{no}场）。"
VOID_TWICE = "局号#{game} 已是流局。"
VOID_DEFAULT_REASON = "裁判判定"
AUDIT_VOID = "流局"
AUDIT_VOID_DETAIL = "局号#{game} {reason}"
VOID_DONE = "局号#{game} 已记流局。重赛请再次 /录分 {group}组 第{no}场。"
VOID_GROUP = "局号#{game}（{group}组 第{no}场）流局：{reason}。本局只保留违规扣分（§十一.3）；如安排重赛，另行通知。"

# ---- /录分模板 ---------------------------------------------------------------------------
TEMPLATE_ENTERED = "# 局号#{game} 现在的计分表；改好后发送 /改分 {game} 加上整张表\n"
TEMPLATE_USAGE = "用法：/录分模板 <组> [第N场]，例如 /录分模板 A 第1场。"
TEMPLATE_DAY_NOT_OPEN = "{group}组 第{no}场 所在的比赛日还没开，还没有入座名单；请先 /开赛日。"
TEMPLATE_NOT_SEATED = "{group}组 第{no}场 还没入座（{seat} 入座后名单才确定），请 {seat} 之后再取模板。"
TEMPLATE_HEADER = "{group}组 第{no}场"
TEMPLATE_BOARD = "# {board}：{roles}。把每行的「角色」换成该座位的角色，再补事件和投票。"
TEMPLATE_EVENTS = "# 事件：{events}"
TEMPLATE_EVENTS_SEP = "；"
TEMPLATE_ROLE_EVENTS = "{role} {events}"
TEMPLATE_OTHER = ("# 其他：警徽 全场最佳 败方最佳 违规:类型（/违规表）；票 天 被投座位: 投票座位…；平票 天 座位 座位 [自曝]；"
                  "复票 天 座位: 座位…；绑票 天")
TEMPLATE_WINNER = "胜方 好人/狼人"
TEMPLATE_POSITION = "# {pos}号位 {who}"
ROLE_PLACEHOLDER = "角色"  # a player line's role not chosen yet
TEMPLATE_PLAYER = "{pos} #{seat} " + ROLE_PLACEHOLDER

# ---- the referees' scoresheet (sheet.py): words and patterns read, and its mistakes -----
SIDE_WORDS = {"好人": Side.GOOD, "狼人": Side.WOLF, "好人阵营": Side.GOOD, "狼人阵营": Side.WOLF}
MVP_WORDS = ("全场最佳", "MVP", "mvp")
SVP_WORDS = ("败方最佳", "SVP", "svp")
BADGE = "警徽"  # a player token, and the role event it scores
VIOLATION_PREFIXES = ("违规:", "违规：")  # 违规:类型 (both prefixes are 3 characters long)
SHEET_DAY_WORD = "日"  # @日N (else 夜)
SHEET_NIGHT_WORD = "夜"
SHEET_RUNOFF_WORD = "复票"
SHEET_VOTE_WORD = "票"
# the lines of a sheet as the referees' desk writes them (read back by the patterns below)
SHEET_WIN_LINE = "胜方 {side}"
SHEET_PLAYER_LINE = "{gseat} #{seat} {role}"
SHEET_TIME_TOKEN = "@{time}"
SHEET_VOTE_LINE = "{word} {day} {target}: {voters}"
SHEET_TIE_LINE = "平票 {day} {stage}{boom}"
SHEET_SELFBOOM = " 自曝"
SHEET_BIND_LINE = "绑票 {day}"
SHEET_HEADER_PATTERN = r"^([A-Za-z0-9]+)\s*组?(?:\s*第\s*(\d+)\s*场)?$"
SHEET_WIN_PATTERN = r"^胜方?\s+(\S+)$"
SHEET_VOTE_PATTERN = r"^(票|复票)\s*(\d+)\s+(\d+)\s*[:：]\s*(.*)$"
SHEET_TIE_PATTERN = r"^平票\s*(\d+)\s+([\d\s]+?)\s*(自曝)?$"
SHEET_BIND_PATTERN = r"^绑票\s*(\d+)$"
SHEET_TOKEN_PATTERN = r"^(?P<name>[^×xX*@]+?)(?:[×xX*](?P<n>\d+))?(?:@(?P<t>[夜日]?)(?P<d>\d+))?$"
SHEET_BAD_HEADER = "第一行应为组名和场次，例如「A组 第1场」，收到「{line}」。"
SHEET_EMPTY = "计分表是空的：第一行写组名，例如「A组 第1场」。"
SHEET_WHERE = "第{line}行："
SHEET_WIN_WHICH = "胜方只能写 好人 或 狼人。"
SHEET_WIN_TWICE = "胜方写了两次。"
SHEET_VOTERS = "投票人应写座位号，用空格分开，例如「票 1 5: 1 2 3」。"
SHEET_TIE_SHORT = "平票至少写两个座位号，例如「平票 1 5 7」。"
SHEET_TIE_TWICE = "第{day}天的平票已在第{line}行写过。"
SHEET_UNREADABLE = "看不懂「{line}」，选手行格式为「座位 选手 角色 [事件…]」。"
SHEET_WHO_UNKNOWN = "找不到选手「{who}」，请写报名序号或马甲。"
SHEET_NOT_IN_LINEUP = "{alias}（#{seat}）不在 {group}组 这一场的出场名单里。"
SHEET_PLAYER_TWICE = "{alias} 已在第{line}行出现过。"
SHEET_GSEAT_TWICE = "座位 {gseat} 已在第{line}行用过。"
SHEET_ROLE_UNKNOWN = "没有「{role}」这个角色。"
SHEET_BADGE_TWICE = "一局只有一个警徽，第{line}行已经给过。"
SHEET_VIOLATION_UNKNOWN = "违规类型「{type}」不在违规表中（可用：{known}）。"
SHEET_EVENT_UNKNOWN = "{role} 没有「{token}」这个事件（{role} 可记：{allowed}）。"
SHEET_NO_WINNER = "缺少胜方行，例如「胜方 好人」。"
SHEET_SIZE = "版型「{board}」应有 {size} 名选手，计分表里有 {n} 名。"
SHEET_ROLE_COUNT = "版型「{board}」中 {role} 应为 {need} 名，计分表里有 {n} 名。"
SHEET_GSEATS = "座位号应为 1~{size} 各一次。"
SHEET_TARGET_UNKNOWN = "第{line}行：被投的座位 {gseat} 不在本局。"
SHEET_VOTER_UNKNOWN = "第{line}行：投票人座位 {gseat} 不在本局。"
SHEET_VOTED_TWICE = "第{line}行：座位 {gseat} 在第{day}天同一轮投了两次（另见第{other}行）。"
SHEET_TIE_UNKNOWN = "第{line}行：第{day}天平票的座位 {gseat} 不在本局。"
SHEET_RUNOFF_NO_TIE = "第{line}行：第{day}天写了复票，但没有平票行；请先写「平票 {day} 座位 座位」（§六（二）.3）。"
SHEET_MVP_ONE = "全场最佳只能有一位。"
SHEET_SVP_ONE = "败方最佳只能有一位。"
SHEET_SVP_WINNER = "第{line}行：败方最佳应来自失败方，座位 {gseat} 在胜方。"
SHEET_AWARD_VIOLATION = "第{line}行：座位 {gseat} 有影响局势的违规（{type}），不能参与评选（§七.3）。"
SHEET_BIND_TIME = "第{line}行：座位 {gseat}：绑票且狼人获胜的局，行为事件要写时间，例如「{event}@夜2」（§六（二）备注）。"
SHEET_EVENT_WON_ONLY = ("第{line}行：座位 {gseat}：{role}「{event}」只在{side}阵营获胜时计分（§六（二）2：{role}仍存活且"
                        "{side}胜利才加此分），本局胜方为{winner}；请删去该事件或改正胜方。")
SHEET_EVENT_MAX = "第{line}行：座位 {gseat}：{event} 每局最多 {max} 次，写了 {n} 次。"
SHEET_CAP = "第{line}行：座位 {gseat}：{group} 加分上限 +{cap}，写了 +{total}，请核对次数。"
SHEET_CAP_NOTE = "第{line}行 座位 {gseat}：{group} 写了 +{total}，按上限 +{cap} 计（§六（二）.2）。"

# ---- the referees' desk (web page, desk.py) ----------------------------------------------
DESK_TITLE = "城市联赛"
DESK_EVENT_CAP = "，上限{cap}"
DESK_EVENT_WON_ONLY = "，胜方才计"
DESK_GAME_LABEL = "局号#{game} {group}组 第{no}场（{date}）"
DESK_SLOT = "{group}组 第{no}场"
DESK_ENTERED = "已录 局号#{game}"
DESK_OPEN = "未录"
DESK_NO_DAY = "还没有开比赛日：/开赛日 之后，这里列出当天各组的比赛。"
DESK_FINISHED = "联赛已结束，录分台只能查看。"
DESK_NOT_SEATED = "还没到 {seat} 入座：名单可能还会变（递补、弃权），录分以入座后的名单为准。"
DESK_SHEET_UNREAD = "局号#{game} 的原表无法自动读入，这里只填了角色和评选；请对照 /录分模板 {game} 补齐事件和投票后再提交更正。"
DESK_BAD_DRAFT = "录分台的内容不完整，请刷新页面后再试。"
DESK_PREVIEW_TITLE = "{group}组 第{no}场：{winner}胜"
DESK_HOSTS_ONLY = "只有裁判可以使用录分台。"
# what the desk's script writes (the page's fixed headings are in its index.html)
DESK_LABELS = {
    "role": "选角色", "badge": BADGE, "mvp": MVP, "svp": SVP, "violation": "违规…",
    "no_time": "时间", "night": "夜{n}", "day": "日{n}", "day_n": "第{n}天", "vote": "票", "runoff": "复票",
    "target": "被投", "voters": "投票人（点选）", "add_vote": "添加这一票", "stage": "台上（点选）",
    "selfboom": "台上狼人自曝", "add_tie": "添加平票", "bind": "绑票", "no_bind": "无绑票", "remove": "删除",
    "send": "提交（/录分）", "resend": "提交更正（/改分 {game}）", "checking": "检查中…", "ok": "计分表无误，可以提交。",
    "game": "本局", "total": "积分", "rank": "第 {n} 名", "score_of": "{label}（录分）",
    "rescore_of": "{label}（更正 局号#{game}）", "picture": "这是本比赛日最后一局：提交后积分榜图自动发到主群。",
    "seat": "{n}号", "vote_line": "第{day}天 {word} → {target}号：{voters}", "tie_line": "第{day}天 平票 {stage}{boom}",
    "boom": "（自曝）", "winner": "胜方", "reopen": "更正已录的局…", "restart": "清空重填",
    "sheet": "计分表原文", "roles_left": "版型", "night_word": SHEET_NIGHT_WORD, "day_word": SHEET_DAY_WORD,
    "viol_chip": VIOLATION_PREFIXES[0] + "{type}", "empty_roles": "{n} 个座位未选角色", "wrong": "{n} 处要改",
}

# ---- a host's data file (content.py): one line per mistake -------------------------------
DATA_TIMES_ORDER = "times 的顺序应为 checkin_open < late < demote < seat。"
DATA_NO_ROLES = "缺少 roles（角色表）。"
DATA_EXEMPT_UNKNOWN = "scoring.vote_exempt 里的「{role}」不在角色表中。"
DATA_BOARD_ROLE_UNKNOWN = "版型「{board}」用到的角色「{role}」不在角色表中。"
DATA_NO_LATE = "违规表必须包含「迟到」（签到迟到自动扣分用，§十三.1.4）。"
DATA_NO_ROUNDS = "缺少 rounds（赛程轮次）。"
DATA_ROUND = "第 {no} 轮（{name}）"
DATA_NO_DAYS = "{round} 没有比赛日。"
DATA_DAY_BOARD_UNKNOWN = "{round} 第 {day} 个比赛日的版型「{board}」不存在。"
DATA_DAY_SIZE = "{round} 第 {day} 个比赛日：{groups} 组 × 版型人数 ≠ {players} 人。"
DATA_DOUBLE_GAME = "{round} 的 double_games 里的 {no} 不是本轮的场次（1~{total}）。"
DATA_ADVANCE = "{round} 的 advance 应在 0~{players} 之间。"
DATA_CHAIN = "{round} 的人数 {players} 应等于上一轮晋级人数 {advance}。"
DATA_MAIN_DRAW = "第一轮人数 {players} 不能超过正赛名额 options.main_draw。"

# ---- the standings picture (picture.py) ---------------------------------------------------
# the columns shown (when present in the rows' header), in this order
PICTURE_COLUMNS = ("排名", "序号", "马甲", "组", "总分", "胜负分", "行为分", "投票分", "警徽分", "评选分", "违规扣分",
                   "全场最佳", "败方最佳", "狼牌胜", "神牌胜", "民牌胜", "场次", "备注")
PICTURE_SIGNED = {"胜负分", "行为分", "投票分", "警徽分", "评选分", "违规扣分"}  # drawn with a + when positive
PICTURE_LEFT = ("马甲", "备注")  # left-aligned columns
PICTURE_RANK = "排名"
PICTURE_ADVANCE = "晋级"  # the column whose CELL_YES marks the players above the advancement line
PICTURE_NOTE_ADVANCE = "绿色：晋级区（前 {n} 名），红线为晋级线；同分按 §九 排序，备注写明按哪一项分出先后"
PICTURE_NOTE = "积分 = 100 + 各项得分；同分按 §九 排序，备注写明按哪一项分出先后"
PICTURE_SUBTITLE = "共 {n} 人，已录 {games} 局"
PICTURE_ADVANCE_LINE = "，前 {n} 名晋级"
PICTURE_TITLE = "{round} 积分榜"

# ---- views (commands.py) ---------------------------------------------------------------------
CAPTION_HEAD = "{round} 积分榜（共 {n} 人"
CAPTION_ADVANCE = "，前 {n} 名晋级）"
CAPTION_CLOSE = "）"
CAPTION_LINE = "{rank}. {alias}（#{seat}） {total}"
CAPTION_TAIL = "完整名次见图；文字版 /积分榜，个人明细 /我的积分。"
BREAKDOWN_NOT_IN_ROUND = "{who} 不是{round}的选手（替补或未晋级）。"
MY_POINTS_NOT_PLAYER = "你不是报名选手；查看他人请写 /我的积分 玩家。"

# ---- messages assembled from parts (views.py) -----------------------------------------
GROUP_HEAD = "{round} {group}组（分组种子 {seed}）："
STANDINGS_HEAD = "{round} 积分榜（第 {page}/{pages} 页，共 {n} 人）"
STANDINGS_RANK = "{rank}."
STANDINGS_UNRANKED = "—"
STANDINGS_STATUS = "（{status}）"
STANDINGS_TIE = "（同分未分出，待裁判裁定 §九.4）"
STANDINGS_LINE = "{rank} {alias}（#{seat}） {total}{tail}"
STANDINGS_ADVANCE_LINE = "—— 晋级线：前 {n} 名 ——"
STANDINGS_NEXT = "下一页：/积分榜 {page}"
BREAKDOWN_RANK = "第 {rank} 名"
BREAKDOWN_HEAD = "{who} {round}：{total} 分，{rank}"
BREAKDOWN_BASE = "初始分 {base}"
BREAKDOWN_PART = "{label} {points}"
BREAKDOWN_DEMOTED = "已降为替补（§五 18:35），不参加本轮排名；再次上场后按实际成绩排名。"
BREAKDOWN_GAME = "· 第{no}场 {group}组 局号#{game} {role} {result} {line}{double}{void}"
BREAKDOWN_DOUBLE = "（双倍）"
BREAKDOWN_VOID = "（流局，仅计违规）"
BREAKDOWN_AWARD_CUT = "  {what} {points} 已取消：违规编号 {id}（§七.3）"
BREAKDOWN_VIOLATION = "· 违规#{id} {type}（{where}）-{points}"
BREAKDOWN_REVERSED = "（已撤销 {at}：{reason}）"
BREAKDOWN_AWARDS = "全场最佳 {mvp} 次，败方最佳 {svp} 次；{wins}"
BREAKDOWN_WINS = "{kind}胜 {n}"
GAME_LINE = "+{plus} -{minus} = {total}"  # a player's plus points, minus points and total of one game
SUMMARY_HEAD = "局号#{game} {round} {group}组 第{no}场{double}：{winner}胜"
SUMMARY_DOUBLE = "（双倍积分）"
SUMMARY_COLUMNS = "座位 选手 角色 加分 扣分 = 本局"
SUMMARY_LINE = "{gseat}号 {who} {role} {line}{mark}"
SUMMARY_MVP = "（全场最佳）"
SUMMARY_SVP = "（败方最佳）"
SUMMARY_APPEAL = "有异议请在次日 12:00 前私聊机器人 /申诉 局号 理由。"
CATALOGUE_HEAD = "违规表（§十三）：类型｜等级｜扣分｜处罚阶梯"
CATALOGUE_BLOCKS_AWARD = "取消该局评选资格"
CATALOGUE_CANCEL_WIN = "取消当局胜利分"
CATALOGUE_HEAVY = "取消参赛资格"
CATALOGUE_EXTRA = "（{extra}）"
CATALOGUE_EXTRA_SEP = "，"
CATALOGUE_CLAUSE = " {clause}"
CATALOGUE_LADDER = "｜{ladder}"
CATALOGUE_LINE = "{type}｜{level}｜{points}{extra}{clause}{ladder}"
CATALOGUE_TAIL = "本届 {light} 次轻度或 {medium} 次中度违规取消资格（§十三.3.4）；裁判记：/违规 玩家 类型 [局号]，撤回：/撤销 编号 理由。"
