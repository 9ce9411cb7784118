"""The mafia88 engine object: the command table (each row names its rule),
the checks every command shares, timers and the kernel's read-only hooks."""

from __future__ import annotations

from typing import Any

import plugins.mafia88.engine.texts as T
from plugins.gamekit.args import Args, SeatReason
from plugins.gamekit.contract import JSON, Actor, Ctx, Effect, GameEngine, Outcome, Rejected, Seat
from plugins.gamekit.state import version_of

from .commands import COMMANDS
from .content import CONTENT
from .content import Settings as Mafia88Settings
from .ending import result_text
from .ending import reveal as reveal_text
from .model import FACTION_NAME, alive, iso, rnd, role_label, role_message, row, when
from .rules_host import put_back, put_out
from .rules_round import on_deadline
from .rules_start import start as deal
from .state import PostKind, Step
from .state import State as Mafia88State

AFTER_OVER = ("tally", "table", "posts", "show", "vote_log", "mine", "text", "complaints")
"""The commands still answered once the game is over (who may use each is the table's ``who``)."""


class Mafia88Engine(GameEngine[Mafia88State, Mafia88Settings]):
    State = Mafia88State
    Settings = Mafia88Settings
    CONTENT = CONTENT
    HOST_ONLY = T.HOST_ONLY  # the table's permission (check_who), in the game's words: hosts are 哨子
    NOT_A_PLAYER = T.NOT_A_PLAYER
    STATE_VERSION = 4  # 2: no copy of the settings in the state; 3: a report keeps its length, not its figures;
    # 4: a closest match (Overlap) is stored as an array
    TEXTS = (("posts", "*", "text"), ("drafts", "*", "parts", "*"), ("letters", "*", "text"), ("dms", "*", "text"),
             ("souls", "*", "move", "text"), ("souls", "*", "back", "text"), ("players", "*", "report", "text"),
             ("complaints", "*", "reason"))  # kept in rows of their own by the kernel

    def __init__(self) -> None:
        super().__init__(COMMANDS)

    def start(self, roster: list[Seat], ctx: Ctx[Mafia88Settings]) -> Outcome[Mafia88State]:
        return deal(roster, ctx)

    def before(self, state: Mafia88State, actor: Actor, name: str, args: Args, ctx: Ctx[Mafia88Settings]) -> Args:
        if state.step == Step.OVER and name not in AFTER_OVER:
            raise Rejected(T.OVER_SEE_STATUS)
        cur = rnd(state)
        if ctx.phase is not None and state.step == Step.ROUND and not cur.closed:
            cur.due.close = iso(ctx.phase.ends_at)  # follow /延时 and /推进
        return args

    def kernel_out(self, state: Mafia88State, actor: Actor, args: SeatReason, ctx: Ctx[Mafia88Settings]) -> list[Effect]:
        """Kernel /出局 or a red card: announced like /判出局 (§十四.6)."""
        effects: list[Effect] = []
        put_out(state, ctx.settings, args.seat, args.reason, True, effects)
        return effects

    def kernel_back(self, state: Mafia88State, actor: Actor, args: SeatReason, ctx: Ctx[Mafia88Settings]) -> list[Effect]:
        effects: list[Effect] = []
        put_back(state, args.seat, args.reason, True, effects)
        return effects

    def on_deadline(self, state: Mafia88State, key: str, ctx: Ctx[Mafia88Settings]) -> list[Effect]:
        return on_deadline(state, key, ctx)

    def upgrade(self, raw: JSON) -> JSON:
        """Version 1 kept a copy of the settings under "cfg" (and a "v" of its own): the rules
        read ctx.settings. Before version 3 a report kept its figures (and an empty text): its
        length is what the hosts' sheet reads. Before version 4 a closest match was an object."""
        version = version_of(raw)
        raw.pop("cfg", None)
        raw.pop("v", None)
        for p in (raw.get("players") or {}).values():
            rep = p.get("report")
            if isinstance(rep, dict) and "chars" not in rep:
                rep["chars"] = (rep.get("figures") or {}).get("chars")
            if isinstance(rep, dict) and version < 3:
                rep.pop("figures", None)
                rep.pop("text", None)
            if isinstance(rep, dict) and "overlap" in rep:
                rep["overlap"] = _overlap_rows(rep["overlap"])
        for post in raw.get("posts") or []:
            if isinstance(post, dict) and "overlap" in post:
                post["overlap"] = _overlap_rows(post["overlap"])
        return raw

    def private_info(self, state: Mafia88State, seat: int, *, settings: Mafia88Settings) -> str:
        p = state.players.get(seat)
        if p is None:
            return T.NOT_A_PLAYER
        text = role_message(state, settings, seat)
        if p.out is not None:
            text += T.INFO_OUT.format(reason=p.out.reason)
        return text

    def reveal(self, state: Mafia88State, *, settings: Mafia88Settings) -> str:
        """Kernel hook: the reveal posted when a host ends the game with the kernel's /结束
        (every role, every post, every round's votes)."""
        if state.step == Step.OVER:
            return ""  # already revealed by the game's own end
        return reveal_text(state, settings, state.ended_by or T.ENDED_BY_HOST)

    def status(self, state: Mafia88State, *, settings: Mafia88Settings) -> str:
        living = alive(state)
        if state.step == Step.OVER:
            return T.STATUS_OVER.format(result=result_text(state.winner), ended_by=state.ended_by, n_players=len(state.players), n_living=len(living))
        r = state.round
        cur = rnd(state)
        rw = row(state, r)
        voted = len({b.voter for b in cur.ballots})
        quotas = T.LIST_SEP.join(f"{g}{n}" for g, n in rw.posts.items() if n > 0) or T.NONE
        due = cur.due
        steps = []
        steps.append(T.STATUS_POSTS.format(posts_done=T.STATUS_CLOSED if cur.posts_done else T.STATUS_DUE + when(state, due.posts)))
        steps.append(T.STATUS_KILL_POSTS.format(published=T.STATUS_PUBLISHED if cur.published else T.STATUS_PUBLISH_AT + when(state, due.publish)))
        # the vote close is the phase deadline: the kernel's /状态 shows it (moved by /延时), not repeated here
        return (T.STATUS_ROUND.format(r=r, step_label=T.STEP_LABEL[state.step], n_living=len(living), voted=voted, votes=rw.votes, out=rw.out, quotas=quotas) + T.COMMA.join(steps))

    def tables(self, state: Mafia88State, *, settings: Mafia88Settings) -> dict[str, list[list[Any]]]:
        cfg = settings
        roles: list[list[Any]] = [list(T.ROLES_HEADER)]
        for seat, p in sorted(state.players.items()):
            r = cfg.role(p.role)
            rep = p.report
            chars = "" if rep is None or rep.chars is None else rep.chars
            roles.append([seat, p.alias, role_label(state, cfg, seat), FACTION_NAME[r.faction], p.code,
                          f"{p.signal.seek}/{p.signal.reply}" if p.signal else "", T.ALIVE if p.alive else T.OUT,
                          p.out.round if p.out else "", p.out.reason if p.out else "",
                          chars, T.YES if rep is not None and rep.ok else T.NO])
        votes: list[list[Any]] = [list(T.VOTES_HEADER)]
        for key, rd in sorted(state.rounds.items()):
            for b in rd.ballots:
                votes.append([key, b.n, b.seq, b.at, b.voter, state.players[b.voter].alias,
                              " ".join(str(t) for t in b.targets), T.YES if b.proxy else "", ""])
            for ob in rd.overtime.ballots if rd.overtime else []:
                votes.append([key, ob.n, ob.seq, ob.at, ob.voter, state.players[ob.voter].alias, str(ob.target), "", T.YES])
        posts: list[list[Any]] = [list(T.POSTS_HEADER)]
        for post in state.posts:
            f = post.figures
            posts.append([post.id, post.round, post.code, post.author, post.target, T.WHITE_SLIP if post.kind == PostKind.WHITE else T.KILL_POST,
                          T.STATUS_NAME[post.status], f.chars if f else "", f.quoted if f else "", f.repeated if f else "", post.text])
        table: list[list[Any]] = [list(T.TABLE_HEADER)]
        for i, rw in enumerate(state.table, 1):
            table.append([i, rw.votes, rw.out, " ".join(f"{g}{n}" for g, n in rw.posts.items())])
        results: list[list[Any]] = [list(T.RESULTS_HEADER)]
        for key, rd in sorted(state.rounds.items()):
            if rd.result:
                results.append([key, " ".join(str(s) for s in rd.result.voted_out), rd.result.survivors])
        notes: list[list[Any]] = [list(T.NOTES_HEADER)]
        for x in state.audit:  # host overrides (/改判) and §七.2 designations
            notes.append([x.seq, x.at, x.by, x.what])
        for m in state.dms:  # /私信
            notes.append([m.seq, m.at, m.by, T.NOTE_DM.format(seat=m.seat, text=m.text)])
        for lt in state.letters:
            state_txt = T.LETTER_DONE if lt.done else T.LETTER_LAPSED if lt.lapsed else T.LETTER_PENDING
            notes.append(["", lt.due, lt.writer, T.NOTE_LETTER.format(kind=lt.kind, state_txt=state_txt, n_text=len(lt.text))])
        return {T.SHEET_ROLES: roles, T.SHEET_VOTES: votes, T.SHEET_POSTS: posts, T.SHEET_TABLE: table, T.SHEET_RESULTS: results,
                T.SHEET_NOTES: notes}


ENGINE = Mafia88Engine()


def _overlap_rows(found: object) -> object:
    """A stored list of closest matches, objects (before version 4) as arrays."""
    if not isinstance(found, list):
        return found
    return [[o.get("label"), o.get("percent"), o.get("run"), o.get("flag", False)] if isinstance(o, dict) else o
            for o in found]
