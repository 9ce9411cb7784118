"""Every row of the kernel's command table, with its bad inputs."""

from harness import export_folder, texts

from plugins.kernel.models import Audit, Card, CommandLog, Game, Host, Player, Timer


async def _game(h, n=3):
    await h.group("1", "/创建 测试局", role="owner")
    for i in range(n):
        await h.group(str(100 + i), f"/报名 玩家{i + 1}")
    return await Game.get(group_id=h.group_id, status__in=("signup", "running"))


async def test_create_needs_admin_or_superuser(harness):
    h = harness
    out = await h.group("2", "/创建 测试局")
    assert "只有群主、群管理员或机器人管理员可以开游戏" in texts(out)
    assert not await Game.exists(group_id=h.group_id)
    out = await h.group("10000", "/创建 测试局")  # SUPERUSER
    assert "开局了" in texts(out)
    assert await Host.exists(user_id="10000")


async def test_create_unknown_kind_and_second_game_refused(harness):
    h = harness
    out = await h.group("1", "/创建 象棋", role="admin")
    assert "请写明游戏" in texts(out) and "测试局" in texts(out)
    await h.group("1", "/创建 测试局", role="admin")
    out = await h.group("1", "/创建 测试局", role="admin")
    assert "一个群同时只能有一局" in texts(out)
    assert await Game.filter(group_id=h.group_id).count() == 1


async def test_signup_seats_aliases_and_leave(harness):
    h = harness
    await h.group("1", "/创建 测试局", role="owner")
    assert "1号「甲」" in texts(await h.group("2", "/报名 甲"))
    assert "已被占用" in texts(await h.group("3", "/报名 甲"))
    assert "纯数字" in texts(await h.group("3", "/报名 123"))
    assert "你已经报名了" in texts(await h.group("2", "/报名 丙"))
    await h.group("3", "/报名 乙")
    await h.group("4", "/报名 丁")
    out = await h.group("2", "/退出报名")
    assert "已退出报名" in texts(out)
    seats = [(p.seat, p.alias) for p in await Player.filter(game__group_id=h.group_id).order_by("seat")]
    assert seats == [(1, "乙"), (2, "丁")]
    assert "还没有报名" in texts(await h.group("9", "/退出报名"))


async def test_signup_default_alias_is_nickname(harness):
    h = harness
    await h.group("1", "/创建 测试局", role="owner")
    out = await h.group("2", "/报名", nick="小明")
    assert "1号「小明」" in texts(out)


async def test_roster_shows_seats_aliases_and_status(harness):
    h = harness
    g = await _game(h)
    await h.group("1", "/开始")
    await h.group("1", "/出局 2 违规")
    out = texts(await h.group("555", "/名单"))
    assert "1号 玩家1" in out and "2号 玩家2（出局）" in out and "存活 2" in out
    assert "100" not in out  # no QQ numbers in public
    assert g.id


async def test_start_needs_host_and_enough_players(harness):
    h = harness
    await h.group("1", "/创建 测试局", role="owner")
    await h.group("100", "/报名 甲")
    assert "只有主持" in texts(await h.group("100", "/开始"))
    assert "人数不足" in texts(await h.group("1", "/开始"))
    await h.group("101", "/报名 乙")
    out = await h.group("1", "/开始")
    assert "游戏开始" in texts(out, h.group_id)
    assert "游戏已经开始" in texts(await h.group("102", "/报名 丙"))
    assert "游戏已经开始了" in texts(await h.group("1", "/开始"))


async def test_cohost_can_control(harness):
    h = harness
    await _game(h)
    assert "只有主持" in texts(await h.group("100", "/加主持", at=["7"]))
    assert "已添加副主持" in texts(await h.group("1", "/加主持", at=["7"]))
    out = await h.group("7", "/开始")
    assert "游戏开始" in texts(out)
    assert "对方是本局玩家" in texts(await h.group("1", "/加主持", at=["100"]))


async def test_player_names_seat_alias_mention_ambiguous_unknown(harness):
    h = harness
    await h.group("1", "/创建 测试局", role="owner")
    await h.group("100", "/报名 小明")
    await h.group("101", "/报名 小明明")
    await h.group("102", "/报名 阿红")
    await h.group("1", "/开始")
    assert "投给 2号" in texts(await h.group("100", "/票 2"))
    assert "投给 3号" in texts(await h.group("101", "/票 阿红"))
    assert "投给 1号" in texts(await h.group("102", "/票 小明"))  # exact beats partial
    out = texts(await h.group("100", "/票 明"))
    assert "可能是" in out and "1号 小明" in out and "2号 小明明" in out
    assert "找不到玩家「老王」" in texts(await h.group("100", "/票 老王"))
    assert "没有 9 号玩家" in texts(await h.group("100", "/票 9"))
    assert "投给 3号" in texts(await h.group("100", "/票", at=["102"]))
    assert "不是本局玩家" in texts(await h.group("100", "/票", at=["55"]))


async def test_non_player_and_dead_player_refused(harness):
    h = harness
    await _game(h)
    await h.group("1", "/开始")
    assert "你不是本局玩家" in texts(await h.group("555", "/票 1"))
    await h.group("1", "/出局 1 测试")
    assert "你已出局" in texts(await h.group("100", "/票 2"))
    assert "对方已出局" in texts(await h.group("101", "/票 1"))
    n = await CommandLog.filter(game__group_id=h.group_id, name="vote").count()
    assert n == 0


async def test_phase_control_advance_extend_pause_resume(harness):
    h = harness
    g = await _game(h)
    await h.group("1", "/开始")
    t = await Timer.get(game_id=g.id, key="phase", status="armed")
    out = await h.group("1", "/延时 30")
    assert "截止时间调整为" in texts(out)
    t2 = await Timer.get(game_id=g.id, key="phase", status="armed")
    assert (t2.ends_at - t.ends_at).total_seconds() == 1800
    assert "只有主持" in texts(await h.group("100", "/延时 5"))
    assert "请写分钟数" in texts(await h.group("1", "/延时 abc"))
    await h.group("1", "/暂停")
    assert (await Timer.get(id=t2.id)).status == "paused"
    assert "游戏已暂停" in texts(await h.group("100", "/票 2"))
    assert "没有暂停" not in texts(await h.group("1", "/继续"))
    assert (await Timer.get(id=t2.id)).status == "armed"
    assert "游戏没有暂停" in texts(await h.group("1", "/继续"))
    out = await h.group("1", "/推进")
    assert "天亮了，第2天" in texts(out)
    assert (await Timer.get(id=t2.id)).status == "cancelled"
    assert await Timer.filter(game_id=g.id, status="armed").count() == 1


async def test_end_and_status(harness):
    h = harness
    await _game(h)
    assert "报名中" in texts(await h.group("555", "/状态"))
    await h.group("1", "/开始")
    out = texts(await h.group("555", "/状态"))
    assert "进行中" in out and "当前阶段：第1天" in out and "截止" in out
    assert "只有主持" in texts(await h.group("100", "/结束"))
    out = await h.group("1", "/结束 测试完毕")
    assert "游戏结束：测试完毕" in texts(out)
    assert "本群现在没有游戏" in texts(await h.group("555", "/状态"))
    # the group can open a new game now
    assert "开局了" in texts(await h.group("1", "/创建 测试局", role="owner"))


async def test_whoami_private_only(harness):
    h = harness
    await _game(h)
    assert "请私聊我" in texts(await h.group("100", "/我的身份"))
    assert "游戏还没开始" in texts(await h.private("100", "/我的身份"))
    await h.group("1", "/开始")
    out = await h.private("100", "/我的身份")
    assert out == [("private", "100", "你是 1号。")]
    assert "没有参加任何游戏" in texts(await h.private("556", "/我的身份"))


async def test_private_command_where_rules(harness):
    h = harness
    await _game(h)
    await h.group("1", "/开始")
    assert "请私聊我发送 /密" in texts(await h.group("100", "/密 你好"))
    out = await h.private("100", "/密 你好")
    assert ("private", "1", "1号密语：你好") in out


async def test_cards_blue_yellow_red(harness):
    h = harness
    await _game(h)
    await h.group("1", "/开始")
    assert "只有主持" in texts(await h.group("100", "/蓝牌 2 刷屏"))
    assert "请写玩家和理由" in texts(await h.group("1", "/蓝牌 2"))
    for _ in range(3):
        await h.group("1", "/蓝牌 2 刷屏")
    rec = texts(await h.group("555", "/牌 2"))
    assert "蓝牌 3" in rec and "折算：黄牌 1" in rec
    await h.group("1", "/黄牌 2 辱骂")
    out = await h.group("1", "/黄牌 2 辱骂")  # 1 (from blues) + 2 = 3 yellow = red
    assert "红牌罚下" in texts(out)
    assert not (await Player.get(game__group_id=h.group_id, seat=2)).alive
    # players already out can still be carded
    out = await h.group("1", "/红牌 2 出局后辱骂")
    assert "红牌" in texts(out)
    assert await Card.filter(game__group_id=h.group_id, seat=2).count() == 6


async def test_engine_card_reaching_red_puts_out(harness):
    h = harness
    await _game(h)
    await h.group("1", "/开始")
    await h.group("1", "/黄牌 3 一")
    await h.group("1", "/黄牌 3 二")
    out = await h.group("102", "/黄我")
    assert "3号出局：红牌罚下" in texts(out)


async def test_out_and_back(harness):
    h = harness
    await _game(h)
    await h.group("1", "/开始")
    assert "已经出局" not in texts(await h.group("1", "/出局 2 失联"))
    assert "已经出局了" in texts(await h.group("1", "/出局 2 失联"))
    await h.group("1", "/回场 2 误判")
    assert (await Player.get(game__group_id=h.group_id, seat=2)).alive
    assert "本来就在场上" in texts(await h.group("1", "/回场 2 误判"))


async def test_log_and_export(harness, tmp_path):
    h = harness
    g = await _game(h)
    await h.group("1", "/开始")
    await h.group("100", "/票 2")
    assert "请私聊我" in texts(await h.group("1", "/日志"))
    out = texts(await h.private("1", "/日志"))
    assert "1号 玩家1 报名：1号 玩家1" in out and "开始游戏" in out
    assert "只有主持" in texts(await h.private("100", "/日志"))
    out = texts(await h.group("1", "/导出"))
    assert "已导出，正在上传到群文件" in out
    folder = export_folder(h)
    names = sorted(p.name for p in folder.iterdir())
    assert f"game-{g.id}.xlsx" in names and "名单.csv" in names and "票.csv" in names
    from openpyxl import load_workbook

    wb = load_workbook(folder / f"game-{g.id}.xlsx")
    assert wb["票"].max_row == 2  # header + one vote
    assert wb["名单"]["B2"].value == "玩家1"


async def test_configure_validates(harness):
    h = harness
    await _game(h)
    out = texts(await h.group("1", "/配置 day_minutes = 0"))
    assert "day_minutes 应为大于 0 的整数" in out
    assert "格式有误" in texts(await h.group("1", "/配置 day_minutes = "))
    assert "配置已更新" in texts(await h.group("1", "/配置 day_minutes = 5"))
    assert "请私聊我发送 /配置" in texts(await h.group("1", "/配置"))
    assert "day_minutes = 5" in texts(await h.private("1", "/配置"))


async def test_help_depends_on_person_and_place(harness):
    h = harness
    await _game(h)
    host_group = texts(await h.group("1", "/帮助"))
    player_group = texts(await h.group("100", "/帮助"))
    player_private = texts(await h.private("100", "/帮助"))
    assert "/开始" in host_group and "/开始" not in player_group
    assert "/票" in player_group and "/密" not in player_group
    assert "/密" in player_private and "/资料" not in player_private  # the test game asks for no sign-up fields
    assert "/终局" in host_group and "/终局" not in player_group


async def test_plain_text_route_and_silence(harness):
    h = harness
    await _game(h)
    await h.group("1", "/开始")
    assert await h.private("100", "随便聊聊") == []
    assert texts(await h.private("100", "记一下")) == "已记下。"


async def test_audit_records_who_and_what(harness):
    h = harness
    g = await _game(h)
    await h.group("1", "/开始")
    await h.group("1", "/蓝牌 1 测试")
    actions = [a.action for a in await Audit.filter(game_id=g.id).order_by("id")]
    assert actions[:1] == ["create"] and "start" in actions and "card" in actions
    card = await Audit.get(game_id=g.id, action="card")
    assert card.actor == "1" and "测试" in card.detail


async def test_private_signup_and_switch_between_games(harness):
    h = harness
    other = str(int(h.group_id) + 500000)
    await h.group("1", "/创建 测试局", role="owner")
    await h.group("1", "/创建 测试局", role="owner", group=other)
    assert "请写群号和马甲" in texts(await h.private("100", "/报名 甲"))
    assert "没有报名中的游戏" in texts(await h.private("100", "/报名 123 甲"))
    out = await h.private("100", f"/报名 {h.group_id} 甲")
    assert ("private", "100", "报名成功：1号「甲」。发送 /退出报名 可退出。") in out
    assert not [t for kind, _, t in out if kind == "group"]  # a private sign-up stays private
    await h.private("100", f"/报名 {other} 乙")
    assert "同时在多个游戏中" in texts(await h.private("100", "/我的身份"))
    assert "不在这个群的游戏里" in texts(await h.private("100", "/切换 42"))
    await h.private("100", f"/切换 {other}")
    assert "你是 1号「乙」" in texts(await h.private("100", "/我的身份"))


async def test_ping_answers_anywhere(harness):
    h = harness
    assert texts(await h.group("5", "/在吗")) == "u5：在。"
    assert texts(await h.private("5", "/ping")) == "在。"


async def test_announce_mentions_everyone_only_when_host_asks(harness):
    h = harness
    first = len(h.bot.calls)  # the fake bot is shared by the whole session
    await _game(h)
    assert "只有主持" in texts(await h.group("100", "/公告 @全体 集合"))
    await h.group("1", "/公告 今晚九点开始")
    await h.group("1", "/公告 @全体 集合")
    calls = h.bot.calls[first:]
    sent = [d["message"] for api, d in calls if api == "send_group_msg" and "【公告】" in d["message"].extract_plain_text()]
    assert [m[0].type for m in sent] == ["text", "at"]
    assert sent[1][0].data["qq"] == "all"
    # nothing else the bot sends mentions anyone
    others = [d["message"] for api, d in calls if api.startswith("send_") and "【公告】" not in d["message"].extract_plain_text()]
    assert all(seg.type == "text" for m in others for seg in m)


async def test_linked_chats_route_to_the_game(harness):
    """Extra groups (league group chats, prison rooms) are linked with /绑定群."""
    h = harness
    await _game(h)
    await h.group("1", "/开始")
    room = str(int(h.group_id) + 900000)
    assert "没有游戏" in texts(await h.group("1", "/绑定群 42 A", group=room))
    assert "只有主持" in texts(await h.group("100", f"/绑定群 {h.group_id} A", group=room))
    assert "标签「A」" in texts(await h.group("1", f"/绑定群 {h.group_id} A", group=room))
    assert "已经有游戏" in texts(await h.group("1", f"/绑定群 {h.group_id} B", group=room))
    assert "来自 A，已接入：A" in texts(await h.group("100", "/哪里", group=room))
    assert "来自 main" in texts(await h.group("100", "/哪里"))
    out = await h.group("1", "/广播 A 开赛了")
    assert ("group", room, "开赛了") in out
    assert "本群已有一局游戏" in texts(await h.group("1", "/创建 测试局", role="owner", group=room))
    assert "已解除绑定" in texts(await h.group("1", "/解绑群", group=room))
    assert "本群现在没有游戏" in texts(await h.group("100", "/状态", group=room))


async def test_group_admin_pictures_and_join_requests(harness):
    """What prison's group rooms and the league's standings picture stand on."""
    import json

    from harness import request_payload

    from plugins.kernel.models import Outbox

    h = harness
    await _game(h)
    await h.group("1", "/开始")
    room = str(int(h.group_id) + 910000)
    await h.group("1", f"/绑定群 {h.group_id} A", group=room)
    await h.group("1", "/禁言 A")
    await h.group("1", "/改名片 A 2")
    apis = [(a, d) for a, d in h.bot.calls if a.startswith("set_group")]
    assert apis[-2] == ("set_group_whole_ban", {"group_id": int(room), "enable": True})
    assert apis[-1] == ("set_group_card", {"group_id": int(room), "user_id": 101, "card": "看守"})
    # join requests: the game lets in 1号 only; anyone else is refused and the hosts are told
    await h.event(request_payload(h.bot.self_id, room, "100", "f1"))
    out = await h.event(request_payload(h.bot.self_id, room, "555", "f2"))
    reqs = [d for a, d in h.bot.calls if a == "set_group_add_request"]
    assert [(r["flag"], r["approve"]) for r in reqs[-2:]] == [("f1", True), ("f2", False)]
    assert ("private", "1", "【加群】QQ 555（非玩家） 申请加入「A」，已拒绝。") in out
    # a picture drawn by the plugin from the state, sent as an image segment
    await h.group("100", "/票 2")
    await h.group("100", "/票图")
    msg = [d["message"] for a, d in h.bot.calls if a == "send_group_msg"][-1]
    assert [seg.type for seg in msg] == ["text", "image"] and msg[1].data["file"].startswith("base64://")
    assert not await Outbox.filter(status="pending").exists()
    assert json.loads((await Outbox.filter(target_type="api").order_by("-id").first()).text)["action"] == "set_group_add_request"


async def test_join_left_alone_and_card_set_after_joining(harness):
    from harness import joined_payload, request_payload

    h = harness
    await _game(h)
    await h.group("1", "/开始")
    guests = str(int(h.group_id) + 920000)
    room = str(int(h.group_id) + 930000)
    await h.group("1", f"/绑定群 {h.group_id} B", group=guests)
    await h.group("1", f"/绑定群 {h.group_id} A", group=room)
    first = len(h.bot.calls)
    await h.event(request_payload(h.bot.self_id, guests, "555", "g1"))  # not the game's business
    assert not [a for a, _ in h.bot.calls[first:] if a == "set_group_add_request"]
    await h.event(joined_payload(h.bot.self_id, room, "100"))  # 1号 is in: now QQ allows the card
    assert ("set_group_card", {"group_id": int(room), "user_id": 100, "card": "1号"}) in h.bot.calls[first:]


async def test_export_and_log_after_the_end(harness):
    h = harness
    g = await _game(h)
    await h.group("1", "/开始")
    await h.group("1", "/结束 完")
    assert "已导出" in texts(await h.group("1", "/导出"))
    assert "游戏结束" in texts(await h.private("1", "/日志"))
    assert "只有主持" in texts(await h.group("100", "/导出"))
    assert g.id


async def test_whoever_gets_in_past_the_join_check_is_removed(harness):
    """Prison rooms: 'removes anyone else' — someone invited in is kicked, hosts excepted."""
    from harness import joined_payload

    h = harness
    await _game(h)
    await h.group("1", "/开始")
    room = str(int(h.group_id) + 940000)
    await h.group("1", f"/绑定群 {h.group_id} A", group=room)
    first = len(h.bot.calls)
    out = await h.event(joined_payload(h.bot.self_id, room, "101"))  # 2号 is not let into A
    await h.event(joined_payload(h.bot.self_id, room, "777"))  # a stranger
    await h.event(joined_payload(h.bot.self_id, room, "1"))  # the host may watch
    await h.event(joined_payload(h.bot.self_id, room, "100"))  # 1号 belongs there
    kicks = [d["user_id"] for a, d in h.bot.calls[first:] if a == "set_group_kick"]
    assert kicks == [101, 777]
    assert "2号「玩家2」 进入了「A」" in texts(out)
    assert ("set_group_card", {"group_id": int(room), "user_id": 100, "card": "1号"}) in h.bot.calls[first:]


async def test_an_engine_bug_gets_an_answer_and_changes_nothing(harness):
    h = harness
    g = await _game(h)
    await h.group("1", "/开始")
    before = (await Game.get(id=g.id)).last_seq
    assert "机器人出错了" in texts(await h.group("100", "/崩"))
    after = await Game.get(id=g.id)
    assert after.last_seq == before and ["never"] not in after.state["votes"]
    assert "投给 2号" in texts(await h.group("100", "/票 2"))  # and the game goes on
    # the rule ran on the held state itself (no copy): what it changed before failing is gone
    # from what the next command saved too
    saved = (await Game.get(id=g.id)).state["votes"]
    assert ["never"] not in saved and len(saved) == 1
