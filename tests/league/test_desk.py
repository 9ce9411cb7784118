"""The referees' desk on the pure engine (``engine/desk.py``): the day's games with their lineups,
a draft written as the /录分 text, checked by the /录分 (or /改分) rule itself on a copy — its caps
(§六（二）2), §七.3, 绑票 (§六（二） 备注) — with the standing points it would leave."""

from __future__ import annotations

import copy
import random

import msgspec
from helpers_league import TZ, League, at, checkin_all, plain_sheet

from plugins.gamekit.contract import Ctx
from plugins.league.engine import desk

ROLES = ["预言家", "女巫", "猎人", "白痴", "平民", "平民", "平民", "平民", "狼人", "狼人", "狼人", "狼人"]


def league(groups: int = 1, games: int = 1, policy: str = "clamp", picture: bool = True) -> League:
    days = [{"label": "1月2日", "board": "标准场", "games": games}, {"label": "1月3日", "board": "标准场", "games": games}]
    return League(n=12 * groups + 2, settings={
        "options": {"main_draw": 12 * groups, "picture_after_day": picture},
        "scoring": {"cap_policy": policy},
        "rounds": [{"key": "r1", "name": "第一轮", "players": 12 * groups, "groups": groups, "advance": 6,
                    "double_games": [], "days": days}]})


def seated(lg: League, date: str = "1-2") -> None:
    lg.host("open_day", at(date, "09:00"), date=date)
    checkin_all(lg, at(date, "18:10"))
    for key, hhmm in (("checkin.late", "18:30"), ("checkin.demote", "18:35"), ("checkin.seat", "18:50")):
        lg.timer(key, at(date, hhmm))


def ctx(lg: League, date: str = "1-2", hhmm: str = "21:00") -> Ctx:
    return Ctx(now=at(date, hhmm), rng=random.Random(0), seq=0, tz=TZ, settings=lg.cfg)


def filled(draft: dict, winner: str = "好人") -> dict:
    d = copy.deepcopy(draft)
    d["winner"] = winner
    for s, role in zip(d["seats"], ROLES, strict=True):
        s["role"] = role
    return d


def check(lg: League, draft: dict) -> dict:
    before = msgspec.json.encode(lg.state)
    out = desk.preview(lg.state, lg.cfg, draft, ctx(lg))
    assert msgspec.json.encode(lg.state) == before  # nothing is stored
    return out


def test_the_desk_lists_the_days_games_with_the_seated_lineup_and_the_boards_roles_6_1():
    """§六（一）: the day's board (its roles and their events) and, per group and game, the lineup
    in position order (game seat = position), as /录分模板 pre-fills it."""
    lg = league(groups=2, games=2)
    assert desk.desk_view(lg.state, lg.cfg)["note"] == "还没有开比赛日：/开赛日 之后，这里列出当天各组的比赛。"
    seated(lg)
    view = desk.desk_view(lg.state, lg.cfg)
    assert view["day"] == {"label": "第一轮 第1比赛日 1月2日（标准场）", "board": "标准场", "seated": True, "complete": False}
    assert [s["label"] for s in view["slots"]] == ["A组 第1场", "B组 第1场", "A组 第2场", "B组 第2场"]
    a1 = view["slots"][0]["draft"]
    assert [s["seat"] for s in a1["seats"]] == lg.lineup("A") and [s["gseat"] for s in a1["seats"]] == list(range(1, 13))
    assert a1["seats"][0]["name"] == f"p{lg.lineup('A')[0]}（#{lg.lineup('A')[0]}）"
    board = view["boards"]["标准场"]
    witch = next(r for r in board["roles"] if r["role"] == "女巫")
    assert witch["n"] == 1 and witch["side"] == "好人"
    assert {"name": "毒狼人", "label": "+1，上限+1"} in witch["events"]
    seer = next(r for r in board["roles"] if r["role"] == "预言家")
    assert "警徽" not in [e["name"] for e in seer["events"]]  # the badge is a tap of its own, for every seat
    assert "贴脸" in view["violations"]


def test_a_draft_is_the_ordinary_sheet_text():
    """The desk writes the very text /录分 reads: header, winner, player lines, ties, votes, binding."""
    lg = league()
    seated(lg)
    d = filled(desk.desk_view(lg.state, lg.cfg)["slots"][0]["draft"], "狼人")
    d["seats"][1]["events"] = [{"name": "毒狼人", "time": "夜2"}, {"name": "毒好人", "time": ""}]
    d["seats"][0].update(badge=True, violations=["擦边"])
    d["votes"] = [{"day": 1, "runoff": False, "target": 9, "voters": [5, 6]},
                  {"day": 1, "runoff": True, "target": 10, "voters": [5]}]
    d["ties"] = [{"day": 1, "stage": [9, 10], "selfboom": True}]
    d["bind"] = 2
    text, where = desk.compose(d)
    L = lg.lineup("A")
    assert text.splitlines()[:4] == ["A组 第1场", "胜方 狼人", f"1 #{L[0]} 预言家 警徽 违规:擦边",
                                     f"2 #{L[1]} 女巫 毒狼人@夜2 毒好人"]
    assert text.splitlines()[-4:] == ["平票 1 9 10 自曝", "票 1 9: 5 6", "复票 1 10: 5", "绑票 2"]
    assert where[3] == {"seat": 1} and where[15] == {"tie": 0} and where[17] == {"vote": 1}


def test_a_malformed_draft_is_refused_in_chinese():
    lg = league()
    seated(lg)
    d = filled(desk.desk_view(lg.state, lg.cfg)["slots"][0]["draft"])
    for bad in ({"seats": "x"}, {"no": True}, {"winner": "好人\n胜方 狼人"}, {"group": "A组\n"}, {"game": "1"}):
        out = check(lg, d | bad)
        assert out == {"ok": False, "errors": ["录分台的内容不完整，请刷新页面后再试。"], "text": "", "where": {}}
    d["seats"][0]["events"] = [{"name": "毒狼人", "time": "第二夜"}]
    assert not check(lg, d)["ok"]


def test_the_check_is_the_sheets_own_check_with_the_standing_points_6_2():
    """§六（二）: mistakes come from the sheet's own check, each with its line (the desk maps it to the
    seat); a right draft gives every player's points of the game and standing total before and after."""
    lg = league()
    seated(lg)
    draft = desk.desk_view(lg.state, lg.cfg)["slots"][0]["draft"]
    out = check(lg, draft)
    assert not out["ok"] and out["errors"][0] == "第2行：没有「角色」这个角色。" and out["where"][2] == {"seat": 1}
    d = filled(draft)
    d["seats"][2]["role"] = "女巫"  # two witches, no hunter
    errors = check(lg, d)["errors"]
    assert "版型「标准场」中 女巫 应为 1 名，计分表里有 2 名。" in errors and "版型「标准场」中 猎人 应为 1 名，计分表里有 0 名。" in errors
    d = filled(draft)
    d["seats"][0]["mvp"] = True
    d["votes"] = [{"day": 1, "runoff": False, "target": 9, "voters": [5, 6]}]
    out = check(lg, d)
    assert out["ok"] and out["word"] == "录分" and out["rest"] == out["text"] and out["title"] == "A组 第1场：好人胜"
    first = out["points"][0]
    assert first == {"gseat": 1, "name": f"p{lg.lineup('A')[0]}（#{lg.lineup('A')[0]}）", "role": "预言家", "result": "胜",
                     "line": "+5 -0 = +5", "award": "全场最佳", "before": "100", "after": "105", "rank": 1}
    assert out["points"][4]["line"] == "+3.5 -0 = +3.5" and out["points"][8]["after"] == "97"
    assert out["picture"]  # the day's only game: sending it posts the standings picture


def test_caps_and_award_eligibility_and_binding_as_the_sheet_checks_them_6_2_2_7_3_6_2_note():
    """§六（二）2 上限 (clamp: counted up to the cap, with the note; reject: refused), §七.3 (a violation
    that blocks the award), §六（二） 备注 (a bound wolf win needs event times) — the sheet's checks."""
    lg = league(policy="clamp")
    seated(lg)
    d = filled(desk.desk_view(lg.state, lg.cfg)["slots"][0]["draft"])
    d["seats"][1]["events"] = [{"name": "毒狼人", "time": ""}] * 2
    out = check(lg, d)
    assert out["ok"] and out["notes"] == ["第4行 座位 2：毒狼人 写了 +2，按上限 +1 计（§六（二）.2）。"]
    assert out["points"][1]["line"] == "+4 -0 = +4"
    strict = league(policy="reject")
    seated(strict)
    d2 = filled(desk.desk_view(strict.state, strict.cfg)["slots"][0]["draft"])
    d2["seats"][1]["events"] = [{"name": "毒狼人", "time": ""}] * 2
    assert check(strict, d2)["errors"] == ["第4行：座位 2：毒狼人 加分上限 +1，写了 +2，请核对次数。"]
    d["seats"][0].update(mvp=True, violations=["场外有逻辑"])
    assert "第3行：座位 1 有影响局势的违规（场外有逻辑），不能参与评选（§七.3）。" in check(lg, d)["errors"]
    d = filled(desk.desk_view(lg.state, lg.cfg)["slots"][0]["draft"], "狼人")
    d["seats"][1]["events"] = [{"name": "毒狼人", "time": ""}]
    d["bind"] = 2
    assert "绑票且狼人获胜的局，行为事件要写时间" in check(lg, d)["errors"][0]


def test_red_moon_survival_is_refused_on_the_desk_too_6_2_2():
    """§六（二）2 赤月使徒: 存活胜利 only when the wolves win — the desk shows the sheet's refusal."""
    lg = League(n=14, settings={"options": {"main_draw": 12}, "rounds": [
        {"key": "r1", "name": "总决赛", "players": 12, "groups": 1, "advance": 0, "double_games": [],
         "days": [{"label": "1月18日", "board": "赤月猎魔人", "games": 1}]}]})
    seated(lg, "1-18")
    view = desk.desk_view(lg.state, lg.cfg)
    assert {"name": "存活胜利", "label": "+0.5，上限+0.5，胜方才计"} in next(
        r for r in view["boards"]["赤月猎魔人"]["roles"] if r["role"] == "赤月使徒")["events"]
    d = view["slots"][0]["draft"]
    d["winner"] = "好人"
    roles = ["预言家", "女巫", "猎魔人", "愚者", "平民", "平民", "平民", "平民", "狼人", "狼人", "狼人", "赤月使徒"]
    for s, role in zip(d["seats"], roles, strict=True):
        s["role"] = role
    d["seats"][11]["events"] = [{"name": "存活胜利", "time": ""}]
    out = desk.preview(lg.state, lg.cfg, d, ctx(lg, "1-18"))
    assert not out["ok"] and "只在狼人阵营获胜时计分（§六（二）2" in out["errors"][0] and out["where"][14] == {"seat": 12}


def test_an_entered_game_reopens_as_its_sheet_for_a_correction():
    """A game's sheet can be reopened: its draft is the sheet as entered, checked and sent as /改分."""
    lg = league()
    seated(lg)
    L = lg.lineup("A")
    tokens = {1: "毒狼人@夜1 毒好人@日2", 0: "全场最佳 警徽", 4: "违规:擦边"}
    lg.host("score", at("1-2", "21:00"), text=plain_sheet(lg.cfg, "标准场", "A", 1, L, "好人", tokens,
                                                          extra=("平票 1 9 10", "票 1 9: 1 2", "复票 1 10: 1")))
    slot = desk.desk_view(lg.state, lg.cfg)["slots"][0]
    assert slot["game"] == 1 and slot["status"] == "已录 局号#1"
    d = slot["draft"]
    order = sorted(L)
    assert d["game"] == 1 and d["winner"] == "好人" and [s["seat"] for s in d["seats"]] == order
    assert d["seats"][1]["events"] == [{"name": "毒狼人", "time": "夜1"}, {"name": "毒好人", "time": "日2"}]
    assert d["seats"][0]["mvp"] and d["seats"][0]["badge"] and d["seats"][4]["violations"] == ["擦边"]
    assert d["ties"] == [{"day": 1, "stage": [9, 10], "selfboom": False}]
    assert d["votes"][1] == {"day": 1, "runoff": True, "target": 10, "voters": [1]}
    out = check(lg, d)
    assert out["ok"] and out["word"] == "改分" and out["rest"].startswith("1 A组 第1场\n胜方 好人")
    assert [p["before"] for p in out["points"]] == [p["after"] for p in out["points"]]  # the same sheet: nothing moves
    assert not out["picture"]  # a correction posts no picture
    d["seats"][0]["mvp"] = False
    out = check(lg, d)
    assert out["points"][0]["before"] != out["points"][0]["after"]
    assert desk.open_game(lg.state, lg.cfg, 1)["draft"] == desk.desk_view(lg.state, lg.cfg)["slots"][0]["draft"]
    assert desk.open_game(lg.state, lg.cfg, 9) == {"ok": False, "error": "没有局号#9，请用积分表或录分回执里的局号。"}
