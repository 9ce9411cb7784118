"""/网页: a player's personal link and a short password for the game's web
page, by private message (a new password each time; only its hash is kept).
A host resets a player's: ``/网页 重置 <玩家>`` (new password, browsers logged out)."""

from __future__ import annotations

from plugins.gamekit.contract import REPLY, Rejected

from ..models import Game
from ..unit import in_game
from ..web import auth
from ..web.page import PAGES, SITE
from ..work import Work
from .table import Call, game_for, kernel_command, need_game, superusers


def link_of(link: str) -> str:
    return f"{SITE['url']}/web/g/{link}/"


def _text(title: str, group: str, link: str, password: str) -> str:
    return (f"你在「{title}」（群 {group}）的网页：\n{link_of(link)}\n密码：{password}\n"
            "密码只给你自己用，不要转发。再发 /网页 会换一个新密码（旧密码随即失效）。")


@kernel_command(("网页",), "/网页；主持：/网页 重置 <玩家>", "私聊获取你的游戏网页链接和密码", where="private")
async def web_page(call: Call) -> None:
    if call.in_group:
        raise Rejected("网页链接和密码只能私聊发送：请私聊我发送 /网页。")
    if not SITE["url"]:
        raise Rejected("这个机器人没有开启网页（管理员可在 .env 设置 WEB_PUBLIC_URL）。")
    gid = need_game(call, game_for(call))
    g = await Game.get(id=gid)
    page = PAGES.get(g.kind)
    if page is None or not page.enabled(g.settings):
        raise Rejected("这局游戏没有网页，请继续在聊天里发命令。")
    if g.status == "ended":
        raise Rejected("这局游戏已经结束了。")
    words = call.rest.split()

    async def run(work: Work) -> None:
        uid = call.origin.user_id
        title = work.kind.title
        if words and words[0] == "重置":
            if not work.is_host(uid):
                raise Rejected("只有主持可以重置别人的网页密码。")
            if len(words) < 2:
                raise Rejected("用法：/网页 重置 <玩家>（座位号或马甲）")
            entry = work.roster.resolve(words[1])
            access, password = await auth.issue(gid, entry.user_id, reset=True)
            work.say(entry.seat, "主持重置了你的网页密码，已登录的浏览器需要重新登录。\n"
                          + _text(title, work.game.group_id, access.link, password), call.origin, scrub=True)
            work.say(REPLY, f"已重置 {entry.seat}号 的网页密码，新密码已私聊发给他。", call.origin)
            work.audit(uid, "web_reset", f"重置 {entry.seat}号 的网页密码", at=call.now)
            return
        if words:
            raise Rejected("用法：/网页（玩家获取自己的链接和新密码）；主持：/网页 重置 <玩家>")
        if work.player_of(uid) is None and not work.is_host(uid):
            raise Rejected("你不是这局游戏的玩家。")
        access, password = await auth.issue(gid, uid)
        work.say(REPLY, _text(title, work.game.group_id, access.link, password), call.origin, scrub=True)

    await in_game(gid, call.handling, superusers(), run)
