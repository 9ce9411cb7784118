"""The prison command table: each row names its arguments and its rule (a rule changes the state
it is given and returns the effects). Who may use a command is the row's ``who``."""

from __future__ import annotations

from plugins.gamekit.args import NoArgs, TextIn
from plugins.gamekit.contract import CommandSpec

from . import rules_abilities, rules_auction, rules_day, rules_misc, rules_night, rules_setup
from .args import AbilityArgs, BidArgs, DecideArgs, MessageArgs, RoomArgs, SeatArgs, SettleArgs, SwapArgs, TextArgs

COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(("竞拍",), "bid", BidArgs, where="private", who="anyone",
                usage="/竞拍 第一志愿=角色:硬币 第二志愿=角色:硬币 随机号码=1–999",
                help="竞拍马甲阶段匿名出价（截止前可改，只写要改的项）；不带内容查看自己的出价（导演：全部出价）",
                rule=rules_auction.bid),
    CommandSpec(("爱",), "love", SeatArgs, where="private", usage="/爱 <玩家>", help="开局前选择爱的人（与恨二选一，不能选自己）",
                rule=rules_setup.love),
    CommandSpec(("恨",), "hate", SeatArgs, where="private", usage="/恨 <玩家>", help="开局前选择恨的人（与爱二选一，不能选自己）",
                rule=rules_setup.hate),
    CommandSpec(("投票",), "elect", SeatArgs, where="private", usage="/投票 <玩家>", help="第1天：看守选看守长，囚犯选囚犯领袖",
                rule=rules_day.elect),
    CommandSpec(("处决",), "execute", SeatArgs, where="private", usage="/处决 <玩家>", help="看守投票处决囚犯；起义时囚犯投票处决看守",
                rule=rules_day.execute),
    CommandSpec(("释放",), "release", SeatArgs, where="private", usage="/释放 <玩家>", help="看守投票释放囚犯",
                rule=rules_day.release),
    CommandSpec(("弃票",), "abstain", NoArgs, where="private", usage="/弃票", help="本轮投弃票", rule=rules_day.abstain),
    CommandSpec(("裁定",), "decide", DecideArgs, where="private", usage="/裁定 处决|释放 <玩家> 或 /裁定 弃票",
                help="看守长/囚犯领袖从平票的最高票中选一个", rule=rules_day.decide),
    CommandSpec(("起义",), "uprising", NoArgs, where="any", usage="/起义", help="囚犯领袖在讨论日发动起义（一次）",
                rule=rules_day.uprising),
    CommandSpec(("选房",), "room", RoomArgs, where="private", usage="/选房 <房间>", help="选择今晚的审讯房间，先到先得",
                rule=rules_night.choose_room),
    CommandSpec(("噪音",), "noise", NoArgs, where="private", usage="/噪音", help="看守在审讯中对同房囚犯播放噪音",
                rule=rules_night.noise),
    CommandSpec(("点杀", "指杀"), "point_kill", SeatArgs, where="private", usage="/点杀 <看守>", help="杀人犯今晚改杀指定看守",
                rule=rules_night.point_kill),
    CommandSpec(("不杀",), "spare", NoArgs, where="private", usage="/不杀", help="杀人犯今晚不杀人（若身份允许）",
                rule=rules_night.spare),
    CommandSpec(("查验",), "check", SeatArgs, where="private", usage="/查验 <玩家>",
                help="有查验技能时：得知对方的阵营或身份（夜晚天亮时告知，白天立即告知）", rule=rules_abilities.check),
    CommandSpec(("保护",), "protect", SeatArgs, where="private", usage="/保护 <玩家>",
                help="有保护技能时：对方今晚不会被杀", rule=rules_abilities.protect),
    CommandSpec(("封锁",), "block", SeatArgs, where="private", usage="/封锁 <玩家>",
                help="有封锁技能时：对方今晚的技能失效", rule=rules_abilities.block),
    CommandSpec(("窃听",), "eavesdrop", RoomArgs, where="private", usage="/窃听 <房间>",
                help="有窃听技能时：天亮时读到该房间今晚的审讯记录", rule=rules_abilities.eavesdrop),
    CommandSpec(("换房",), "swap", SwapArgs, where="private", usage="/换房 <玩家> <玩家>",
                help="有换房技能时：选房阶段让两名同阵营玩家交换房间", rule=rules_abilities.swap),
    CommandSpec(("传话",), "message", MessageArgs, where="private", usage="/传话 <玩家> <内容>",
                help="有传话技能时：匿名给对方传一句话", rule=rules_abilities.message),
    CommandSpec(("加权",), "vote_weight", NoArgs, where="private", usage="/加权",
                help="有投票加权技能时：当天你的票按加权计", rule=rules_abilities.vote_weight),
    CommandSpec(("技能",), "ability", AbilityArgs, where="private", usage="/技能 <技能名> [<内容>]",
                help="发动身份文件里的技能，由导演结算", rule=rules_misc.use_ability),
    CommandSpec(("提交对应",), "submit_map", TextArgs, where="private", alive_only=False,
                usage="/提交对应 a-E b-C …", help="向监狱长提交全部房间对应，按到达顺序计", rule=rules_misc.submit_map),
    CommandSpec(("提交马甲",), "submit_alias", TextArgs, where="private", alive_only=False,
                usage="/提交马甲 <马甲>=<玩家> …", help="提交全场马甲-玩家对应", rule=rules_misc.submit_alias),
    CommandSpec(("树洞",), "note", TextArgs, where="private", alive_only=False,
                usage="/树洞 <内容>", help="匿名吐槽，游戏结束后公开", rule=rules_misc.note),
    CommandSpec(("结算",), "settle", SettleArgs, where="any", who="host",
                usage="/结算 <编号> <结果>", help="导演结算玩家的技能，结果私聊给该玩家", rule=rules_misc.settle),
    CommandSpec(("房间对应",), "show_map", NoArgs, where="private", who="host", usage="/房间对应",
                help="导演查看本局秘密房间对应", rule=rules_misc.show_map, query=True),
    # plain text (the kernel's route, players only): a rule with no use for a message ignores it
    CommandSpec((), "relay", TextIn, where="private", alive_only=False, usage="（审讯时直接私聊发文字）",
                help="审讯时私聊的文字只带「看守/囚犯」标签转给同房的人", rule=rules_night.relay),
    CommandSpec((), "post", TextIn, where="group", alive_only=False, usage="（讨论日在游戏群发言）",
                help="统计讨论日发言条数（少于规定条数记黄牌）", rule=rules_night.group_text),
)
