"""The mafia88 engine object: the command table (each row names its rule),
the checks every command shares, timers and the kernel's read-only hooks."""

from __future__ import annotations

from functools import partial
from typing import Any

from plugins.gamekit.contract import Actor, Ctx, Effect, GameEngine, Ignored, Outcome, Rejected, Seat, Settings
from plugins.gamekit.settings import given as settings_given

from . import rules_host, rules_posts, rules_start
from . import texts as T
from .commands import COMMANDS, post_number
from .content import CONTENT
from .content import Settings as SettingsModel
from .model import FACTION_NAME, State, alive, iso, rnd, role, role_label, role_message, row, when
from .rules_round import on_deadline, reveal

HOST_ONLY = {"posts", "show", "approve", "reject", "reject_report", "out", "back", "set_round", "vote_log", "end",
             "override", "publish_now", "dm", "high_posts", "steps"}
PLAYER_ONLY = {"report", "vote", "proxy", "post", "white", "rewrite", "done", "drop", "mine", "text", "check",
               "take", "reveal", "soul", "revive", "letter_soul", "letter_thanks", "soul_move", "soul_back", "signal"}
AFTER_OVER = ("tally", "table", "posts", "show", "vote_log", "mine", "text")


class Mafia88Engine(GameEngine):
    STATE_VERSION = 2  # 2: no copy of the settings in the state
    TEXTS = (("posts", "*", "text"), ("drafts", "*", "parts", "*"), ("letters", "*", "text"), ("dms", "*", "text"),
             ("souls", "*", "move", "text"), ("souls", "*", "back", "text"))  # kept in rows of their own (issue 19)

    def __init__(self) -> None:
        super().__init__(COMMANDS)

    CONTENT = CONTENT

    def check_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        over = {k: v for k, v in settings.items() if k != "timezone"}  # the kernel's own key
        return CONTENT.settings(SettingsModel, over).model_dump(mode="json")

    def start(self, roster: list[Seat], ctx: Ctx) -> Outcome:
        return rules_start.start(roster, ctx)

    def before(self, state: State, actor: Actor, name: str, args: dict[str, Any], ctx: Ctx) -> dict[str, Any]:
        if "post" in args:  # post numbers are shown as "#3": accept "#3", "＃3" and "3"
            args = {**args, "post": post_number(args["post"])}
        if name in HOST_ONLY and not actor.is_host:
            raise Rejected(T.HOST_ONLY)
        if name in PLAYER_ONLY and (actor.seat is None or str(actor.seat) not in state["players"]):
            if name == "text":
                raise Ignored()
            raise Rejected(T.NOT_A_PLAYER)
        if state["step"] == "over" and name not in AFTER_OVER:
            raise Rejected(T.OVER_SEE_STATUS)
        if ctx.phase is not None and state["step"] == "round" and not rnd(state)["closed"]:
            rnd(state)["due"]["close"] = iso(ctx.phase.ends_at)  # follow /延时 and /推进
        return args

    def kernel_out(self, state: State, actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Effect]:
        """Kernel /出局 or a red card: announced like /判出局 (§十四.6)."""
        effects: list[Effect] = []
        rules_host.put_out(state, ctx.settings, args["seat"], args.get("reason", ""), True, effects)
        return effects

    def kernel_back(self, state: State, actor: Actor, args: dict[str, Any], ctx: Ctx) -> list[Effect]:
        effects: list[Effect] = []
        rules_host.put_back(state, args["seat"], args.get("reason", ""), True, effects)
        return effects

    def on_deadline(self, state: State, key: str, ctx: Ctx) -> list[Effect]:
        return on_deadline(state, key, ctx).effects

    def upgrade(self, state: State) -> State:
        """Version 1 kept a copy of the settings under "cfg" (and a "v" of its own); the
        rules now read ctx.settings. The live round table was already kept apart ("table")."""
        state.pop("cfg", None)
        state.pop("v", None)
        return state

    def private_info(self, state: State, seat: int, *, settings: Settings | None = None) -> str:
        if str(seat) not in state["players"]:
            return T.NOT_A_PLAYER
        text = role_message(state, given(settings), seat)
        p = state["players"][str(seat)]
        if not p["alive"]:
            text += T.INFO_OUT.format(reason=p["out"]["reason"])
        return text

    def reveal(self, state: State, *, settings: Settings | None = None) -> str:
        """Kernel hook: the reveal posted when a host ends the game with the kernel's /结束
        (every role, every post, every round's votes)."""
        if state.get("step") == "over":
            return ""  # already revealed by the game's own end
        return reveal({**state, "winner": state.get("winner"), "ended_by": state.get("ended_by") or T.ENDED_BY_HOST}, given(settings))

    def status(self, state: State, *, settings: Settings | None = None) -> str:
        living = alive(state)
        if state["step"] == "over":
            w = state["winner"]
            return T.STATUS_OVER.format(result=FACTION_NAME[w] + T.WIN_SUFFIX if w else T.NO_WINNER, ended_by=state["ended_by"], n_players=len(state["players"]), n_living=len(living))
        r = state["round"]
        cur = rnd(state)
        rw = row(state, r)
        voted = len({b["voter"] for b in cur["ballots"]})
        quotas = T.LIST_SEP.join(f"{g}{n}" for g, n in rw["posts"].items() if n > 0) or T.NONE
        due = cur["due"]
        steps = []
        steps.append(T.STATUS_POSTS.format(posts_done=T.STATUS_CLOSED if cur["posts_done"] else T.STATUS_DUE + when(state, due["posts"])))
        steps.append(T.STATUS_KILL_POSTS.format(published=T.STATUS_PUBLISHED if cur["published"] else T.STATUS_PUBLISH_AT + when(state, due["publish"])))
        # the vote close is the phase deadline: the kernel's /状态 shows it (moved by /延时), not repeated here
        return (T.STATUS_ROUND.format(r=r, step_label=T.STEP_LABEL[state["step"]], n_living=len(living), voted=voted, votes=rw["votes"], out=rw["out"], quotas=quotas) + T.COMMA.join(steps))

    def tables(self, state: State, *, settings: Settings | None = None) -> dict[str, list[list[Any]]]:
        cfg = given(settings)
        roles: list[list[Any]] = [list(T.ROLES_HEADER)]
        for seat in sorted(int(s) for s in state["players"]):
            p = state["players"][str(seat)]
            r = role(cfg, p["role"])
            rep = p["report"] or {}
            roles.append([seat, p["alias"], role_label(state, cfg, seat), FACTION_NAME[r["faction"]], p["code"],
                          "/".join(p["signal"]) if p["signal"] else "", T.ALIVE if p["alive"] else T.OUT,
                          p["out"]["round"] if p["out"] else "", p["out"]["reason"] if p["out"] else "",
                          _report_chars(rep), T.YES if rep.get("ok") else T.NO])
        votes: list[list[Any]] = [list(T.VOTES_HEADER)]
        for key in sorted(state["rounds"], key=int):
            rd = state["rounds"][key]
            for b in rd["ballots"]:
                votes.append([int(key), b["n"], b["seq"], b["at"], b["voter"], state["players"][str(b["voter"])]["alias"],
                              " ".join(str(t) for t in b["targets"]), T.YES if b["proxy"] else "", ""])
            for b in (rd["overtime"] or {}).get("ballots", []):
                votes.append([int(key), b["n"], b["seq"], b["at"], b["voter"], state["players"][str(b["voter"])]["alias"],
                              str(b["target"]), "", T.YES])
        posts: list[list[Any]] = [list(T.POSTS_HEADER)]
        for p in state["posts"]:
            f = p["figures"] or {}
            posts.append([p["id"], p["round"], p["code"], p["author"], p["target"], T.WHITE_SLIP if p["kind"] == "white" else T.KILL_POST,
                          rules_posts.STATUS_NAME[p["status"]], f.get("chars", ""), f.get("quoted", ""), f.get("repeated", ""), p["text"]])
        table: list[list[Any]] = [list(T.TABLE_HEADER)]
        for i, rw in enumerate(state["table"], 1):
            table.append([i, rw["votes"], rw["out"], " ".join(f"{g}{n}" for g, n in rw["posts"].items())])
        results: list[list[Any]] = [list(T.RESULTS_HEADER)]
        for key in sorted(state["rounds"], key=int):
            res = state["rounds"][key]["result"]
            if res:
                results.append([int(key), " ".join(str(s) for s in res["voted_out"]), res["survivors"]])
        notes: list[list[Any]] = [list(T.NOTES_HEADER)]
        for x in state.get("audit", []):  # host overrides (/改判) and §七.2 designations
            notes.append([x["seq"], x["at"], x["by"], x["what"]])
        for x in state.get("dms", []):  # /私信
            notes.append([x["seq"], x["at"], x["by"], T.NOTE_DM.format(seat=x["seat"], text=x["text"])])
        for x in state.get("letters", []):
            state_txt = T.LETTER_DONE if x["done"] else T.LETTER_LAPSED if x.get("lapsed") else T.LETTER_PENDING
            notes.append(["", x["due"], x["writer"], T.NOTE_LETTER.format(kind=x["kind"], state_txt=state_txt, n_text=len(x["text"]))])
        return {T.SHEET_ROLES: roles, T.SHEET_VOTES: votes, T.SHEET_POSTS: posts, T.SHEET_TABLE: table, T.SHEET_RESULTS: results,
                T.SHEET_NOTES: notes}


given = partial(settings_given, game="mafia88")  # the settings a hook without Ctx gets


ENGINE = Mafia88Engine()


def _report_chars(rep: dict[str, Any]) -> int | str:
    """A 报道's length (a game stored before 2026-12-02 keeps it in the report's ``figures``)."""
    chars = rep.get("chars", (rep.get("figures") or {}).get("chars"))
    return "" if chars is None else chars
