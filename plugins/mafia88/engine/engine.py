"""The mafia88 engine object: dispatches commands and timers to the rules."""

from __future__ import annotations

import copy
from typing import Any

from plugins.kernel.contract import KERNEL_BACK, KERNEL_OUT, Actor, Command, Ctx, Outcome, Rejected, Say, Seat

from . import content, rules_decide, rules_host, rules_posts, rules_reports, rules_souls, rules_start, rules_votes
from .model import FACTION_NAME, State, alive, iso, name, rnd, role, role_label, row, when
from .rules_round import on_deadline
from .texts import STEP_LABEL, role_message

HOST_ONLY = {"posts", "show", "approve", "reject", "reject_report", "out", "back", "set_round", "vote_log", "end",
             "override", "publish_now", "dm", "high_posts", "steps"}
PLAYER_ONLY = {"report", "vote", "proxy", "post", "white", "rewrite", "done", "drop", "mine", "text", "check",
               "take", "reveal", "soul", "revive", "letter_soul", "letter_thanks", "soul_move", "soul_back", "signal"}


def post_number(value: Any) -> int:
    text = str(value).strip().lstrip("#＃")
    if not text.isdigit():
        raise Rejected(f"「{value}」不是帖号：请写数字，如 3 或 #3（/贴单 可查看帖号）。")
    return int(text)


class Mafia88Engine:
    def check_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        return content.check_settings(settings)

    def start(self, roster: list[Seat], ctx: Ctx) -> Outcome:
        return rules_start.start(roster, ctx)

    def apply(self, state: State, actor: Actor, cmd: Command, ctx: Ctx) -> Outcome:
        state = copy.deepcopy(state)
        a = cmd.args
        if "post" in a:  # post numbers are shown as "#3": accept "#3", "＃3" and "3"
            a = {**a, "post": post_number(a["post"])}
        effects: list = []
        n = cmd.name
        if n in HOST_ONLY and not actor.is_host:
            raise Rejected("只有哨子可以用这个命令。")
        if n in PLAYER_ONLY and (actor.seat is None or str(actor.seat) not in state["players"]):
            if n == "text":
                from plugins.kernel.contract import Ignored

                raise Ignored()
            raise Rejected("你不是本局玩家。")
        if state["step"] == "over" and n not in ("tally", "table", "posts", "show", "vote_log", "mine", "text"):
            raise Rejected("游戏已结束，/状态 可看结果。")
        if ctx.phase is not None and state["step"] == "round" and not rnd(state)["closed"]:
            rnd(state)["due"]["close"] = iso(ctx.phase.ends_at)  # follow /延时 and /推进
        if n == KERNEL_OUT:  # kernel /出局 or a red card: announced like /判出局 (§十四.6)
            rules_host.put_out(state, a["seat"], a.get("reason", ""), True, effects)
        elif n == KERNEL_BACK:
            rules_host.put_back(state, a["seat"], a.get("reason", ""), True, effects)
        elif n == "report":
            effects = rules_reports.report(state, actor, a.get("text", ""), ctx)
        elif n == "vote":
            effects = rules_votes.vote(state, actor, list(a.get("targets", [])), ctx)
        elif n == "proxy":
            effects = rules_votes.proxy(state, actor, list(a.get("targets", [])), ctx)
        elif n == "tally":
            effects = [Say("reply", rules_votes.tally_text(state))]
        elif n == "table":
            effects = [Say("reply", rules_host.table_text(state))]
        elif n == "post":
            effects = rules_posts.open_post(state, actor, a["code"], a["target"], a.get("text", ""), ctx)
        elif n == "white":
            effects = rules_posts.declare_white(state, actor, a["code"], a["target"], ctx)
        elif n == "rewrite":
            effects = rules_posts.open_rewrite(state, actor, a["post"], a.get("text", ""), ctx)
        elif n == "done":
            effects = rules_posts.finish_draft(state, actor, ctx)
        elif n == "drop":
            effects = rules_posts.drop_draft(state, actor)
        elif n == "mine":
            effects = rules_posts.my_posts(state, actor)
        elif n == "text":
            effects = rules_posts.append_text(state, actor, a.get("text", ""), int(a.get("images", 0) or 0))
        elif n == "posts":
            effects = rules_posts.list_posts(state, a.get("round"))
        elif n == "show":
            effects = rules_posts.show_post(state, a["post"])
        elif n == "approve":
            effects = rules_posts.approve(state, a["post"], ctx)
        elif n == "reject":
            effects = rules_posts.reject(state, a["post"], a.get("reason", ""), ctx)
        elif n == "reject_report":
            effects = rules_reports.reject_report(state, a["player"], a.get("reason", ""), ctx)
        elif n == "out":
            rules_host.put_out(state, a["player"], a.get("reason", ""), True, effects)
            if actor.private:  # in the group the announcement is the answer
                effects.insert(0, Say("reply", f"已判 {name(state, a['player'])} 出局，已在群里公布。"))
        elif n == "back":
            rules_host.put_back(state, a["player"], a.get("reason", ""), True, effects)
            if actor.private:
                effects.insert(0, Say("reply", f"已让 {name(state, a['player'])} 回到场上，已在群里公布。"))
        elif n == "set_round":
            effects = rules_host.set_round(state, a["round"], a["votes"], a["out"], a.get("posts"), ctx)
        elif n == "vote_log":
            effects = rules_host.vote_log(state, a.get("round"))
        elif n == "override":
            effects = rules_posts.override(state, actor, a["step"], a["result"], a.get("reason", ""), ctx)
        elif n == "steps":
            effects = rules_posts.show_steps(state)
        elif n == "publish_now":
            rules_posts.publish_now(state, ctx, effects)
            from .rules_round import check_end

            check_end(state, effects)
        elif n in ("take", "reveal", "soul"):
            rules_decide.choose(state, actor, n, list(a.get("targets", [])), ctx, effects)
        elif n == "revive":
            rules_decide.revive(state, actor, a["target"], ctx, effects)
        elif n in ("letter_soul", "letter_thanks"):
            effects = rules_decide.write_letter(state, actor, "追魂" if n == "letter_soul" else "感谢信", a.get("text", ""), ctx)
        elif n == "soul_move":
            effects = rules_souls.move(state, actor, a["src"], a["dst"], a.get("text", ""), ctx)
        elif n == "soul_back":
            effects = rules_souls.back(state, actor, a["target"], a.get("text", ""), ctx)
        elif n == "signal":
            effects = rules_start.signal(state, actor, a.get("text", ""), ctx)
        elif n == "check":
            effects = rules_posts.check_identity(state, actor, a["target"], ctx)
        elif n == "high_posts":
            effects = rules_decide.designate_high(state, actor, a["player"], a.get("by", ""), ctx)
        elif n == "dm":
            effects = rules_host.private_message(state, actor, a["player"], a["text"], ctx)
        elif n == "end":
            result, reason = a.get("result", "平局"), a.get("reason", "")
            if result not in rules_host.WINNER_WORDS:  # /结束 <理由>: no winner declared
                result, reason = "平局", f"{result} {reason}".strip()
            rules_host.end_game(state, result, reason, effects)
        else:
            raise Rejected("未知命令，/帮助 查看可用命令。")
        return Outcome(state, effects)

    def deadline(self, state: State, key: str, ctx: Ctx) -> Outcome:
        return on_deadline(copy.deepcopy(state), key, ctx)

    def private_info(self, state: State, seat: int) -> str:
        if str(seat) not in state["players"]:
            return "你不是本局玩家。"
        text = role_message(state, seat)
        p = state["players"][str(seat)]
        if not p["alive"]:
            text += f"\n你已出局：{p['out']['reason']}。"
        return text

    def reveal(self, state: State) -> str:
        """Kernel hook: the reveal posted when a host ends the game with the kernel's /结束
        (every role, every post, every round's votes)."""
        if state.get("step") == "over":
            return ""  # already revealed by the game's own end
        from .rules_round import reveal

        return reveal({**state, "winner": state.get("winner"), "ended_by": state.get("ended_by") or "主持结束"})

    def status(self, state: State) -> str:
        living = alive(state)
        if state["step"] == "over":
            w = state["winner"]
            return f"游戏已结束：{FACTION_NAME[w] + '胜' if w else '未分胜负'}（{state['ended_by']}），共 {len(state['players'])} 人，存活 {len(living)} 人。"
        r = state["round"]
        cur = rnd(state)
        rw = row(state, r)
        voted = len({b["voter"] for b in cur["ballots"]})
        quotas = "、".join(f"{g}{n}" for g, n in rw["posts"].items() if n > 0) or "无"
        due = cur["due"]
        steps = []
        steps.append(f"交贴{'已截止' if cur['posts_done'] else '截止 ' + when(state, due['posts'])}")
        steps.append(f"杀帖{'已公布' if cur['published'] else '公布 ' + when(state, due['publish'])}")
        # the vote close is the phase deadline: the kernel's /状态 shows it (moved by /延时), not repeated here
        return (f"第{r}轮（{STEP_LABEL[state['step']]}）｜存活 {len(living)} 人｜已投票 {voted} 人｜"
                f"每人 {rw['votes']} 票，票出 {rw['out']}，贴杀 {quotas}｜" + "，".join(steps))

    def tables(self, state: State) -> dict[str, list[list[Any]]]:
        roles = [["座位", "马甲", "身份", "阵营", "代号", "暗号", "状态", "出局轮次", "出局原因", "报道字数", "报道合格"]]
        for seat in sorted(int(s) for s in state["players"]):
            p = state["players"][str(seat)]
            r = role(state, p["role"])
            rep = p["report"] or {}
            roles.append([seat, p["alias"], role_label(state, seat), FACTION_NAME[r["faction"]], p["code"],
                          "/".join(p["signal"]) if p["signal"] else "", "存活" if p["alive"] else "出局",
                          p["out"]["round"] if p["out"] else "", p["out"]["reason"] if p["out"] else "",
                          (rep.get("figures") or {}).get("chars", ""), "是" if rep.get("ok") else "否"])
        votes = [["轮次", "到达", "序号", "时间", "投票人", "马甲", "目标", "托票", "加时"]]
        for key in sorted(state["rounds"], key=int):
            rd = state["rounds"][key]
            for b in rd["ballots"]:
                votes.append([int(key), b["n"], b["seq"], b["at"], b["voter"], state["players"][str(b["voter"])]["alias"],
                              " ".join(str(t) for t in b["targets"]), "是" if b["proxy"] else "", ""])
            for b in (rd["overtime"] or {}).get("ballots", []):
                votes.append([int(key), b["n"], b["seq"], b["at"], b["voter"], state["players"][str(b["voter"])]["alias"],
                              str(b["target"]), "", "是"])
        posts = [["帖号", "轮次", "代号", "作者", "目标", "类型", "状态", "字数", "引用", "重复", "正文"]]
        for p in state["posts"]:
            f = p["figures"] or {}
            posts.append([p["id"], p["round"], p["code"], p["author"], p["target"], "白条" if p["kind"] == "white" else "杀帖",
                          rules_posts.STATUS_NAME[p["status"]], f.get("chars", ""), f.get("quoted", ""), f.get("repeated", ""), p["text"]])
        table = [["轮次", "每人票数", "票出", "贴杀"]]
        for i, rw in enumerate(state["table"], 1):
            table.append([i, rw["votes"], rw["out"], " ".join(f"{g}{n}" for g, n in rw["posts"].items())])
        results = [["轮次", "高票出局", "存活"]]
        for key in sorted(state["rounds"], key=int):
            res = state["rounds"][key]["result"]
            if res:
                results.append([int(key), " ".join(str(s) for s in res["voted_out"]), res["survivors"]])
        notes = [["序号", "时间", "谁", "什么"]]
        for x in state.get("audit", []):  # host overrides (/改判) and §七.2 designations
            notes.append([x["seq"], x["at"], x["by"], x["what"]])
        for x in state.get("dms", []):  # /私信
            notes.append([x["seq"], x["at"], x["by"], f"私信 {x['seat']}号：{x['text']}"])
        for x in state.get("letters", []):
            state_txt = "已交" if x["done"] else "逾期" if x.get("lapsed") else "待交"
            notes.append(["", x["due"], x["writer"], f"{x['kind']} {state_txt} {len(x['text'])} 字"])
        return {"身份": roles, "投票": votes, "杀帖": posts, "进程": table, "结果": results, "记录": notes}


ENGINE = Mafia88Engine()
