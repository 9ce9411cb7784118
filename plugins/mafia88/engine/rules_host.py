"""Host overrides: out/back with a reason, the round table, the vote log and
ending the game (§十, §十五.10/12)."""

from __future__ import annotations

import re

import plugins.mafia88.engine.texts as T
from plugins.gamekit.args import NoArgs
from plugins.gamekit.contract import Actor, Ctx, Effect, Rejected, Say

from .args import EndArgs, MessageArgs, PlayerReason, RoundArgs, SetRoundArgs
from .content import Settings, row_errors
from .ending import check_end, finish
from .model import bring_back, dt, iso, mark_out, name, rnd, row, tz
from .rules_votes import non_voters
from .state import Cause, Message, State, Step, TableRow, Winner

POST_TOKEN = re.compile(r"^(\D+?)(\d+)$")


def put_out(state: State, cfg: Settings, seat: int, reason: str, announce: bool, effects: list[Effect]) -> None:
    p = state.players.get(seat)
    if p is None:
        raise Rejected(T.NO_SUCH_SEAT.format(seat=seat))
    if state.step == Step.OVER:
        raise Rejected(T.GAME_OVER)
    if not p.alive:
        raise Rejected(T.ALREADY_OUT.format(seat=name(state, seat)))
    reason = reason.strip() or T.HOST_PENALTY
    mark_out(state, seat, Cause.HOST, T.OUT_BY_HOST.format(reason=reason), effects)
    if announce:
        effects.append(Say("group", T.PUT_OUT_NOTICE.format(seat=name(state, seat), reason=reason)))
    check_end(state, cfg, effects)


def host_out(state: State, actor: Actor, args: PlayerReason, ctx: Ctx[Settings]) -> list[Effect]:
    """/判出局 <玩家> [理由] (§十四.6): announced in the group with the reason."""
    effects: list[Effect] = []
    put_out(state, ctx.settings, args.player, args.reason, True, effects)
    if actor.private:  # in the group the announcement is the answer
        effects.insert(0, Say("reply", T.PUT_OUT_DONE.format(seat=name(state, args.player))))
    return effects


def host_back(state: State, actor: Actor, args: PlayerReason, ctx: Ctx[Settings]) -> list[Effect]:
    """/判复活 <玩家> [理由]: a player who is out comes back, announced in the group."""
    effects: list[Effect] = []
    put_back(state, args.player, args.reason, True, effects)
    if actor.private:
        effects.insert(0, Say("reply", T.PUT_BACK_DONE.format(seat=name(state, args.player))))
    return effects


def put_back(state: State, seat: int, reason: str, announce: bool, effects: list[Effect]) -> None:
    p = state.players.get(seat)
    if p is None:
        raise Rejected(T.NO_SUCH_SEAT.format(seat=seat))
    if state.step == Step.OVER:
        raise Rejected(T.GAME_OVER)
    if p.alive:
        raise Rejected(T.NOT_OUT.format(seat=name(state, seat)))
    reason = reason.strip() or T.HOST_RULING
    bring_back(state, seat, T.BACK_BY_HOST.format(reason=reason), effects)
    if announce:
        effects.append(Say("group", T.PUT_BACK_NOTICE.format(seat=name(state, seat), reason=reason)))


def parse_posts(text: str, gkeys: list[str]) -> dict[str, int]:
    """'联2 独3' -> {'联': 2, '独': 3}; '无' -> {}."""
    text = text.replace(T.COMMA, " ").replace(",", " ").replace(T.LIST_SEP, " ").strip()
    if text in ("", T.NONE):
        return {}
    out: dict[str, int] = {}
    for token in text.split():
        m = POST_TOKEN.match(token)
        if not m or m.group(1) not in gkeys:
            raise Rejected(T.BAD_QUOTA_TOKEN.format(token=token, available=T.LIST_SEP.join(gkeys)))
        out[m.group(1)] = int(m.group(2))
    return out


def set_round(state: State, actor: Actor, args: SetRoundArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/改进程 (§十 last line): hosts adjust the table. Past steps cannot change."""
    cfg = ctx.settings
    r, votes, out, posts_text = args.round, args.votes, args.out, args.posts
    if state.step == Step.OVER:
        raise Rejected(T.GAME_OVER)
    cur = state.round
    if r < cur:
        raise Rejected(T.ROUND_PAST.format(r=r, cur=cur))
    if r > len(state.table) + 1:
        raise Rejected(T.ROUND_BEYOND_TABLE.format(n_table=len(state.table), next_round=len(state.table) + 1))
    gkeys = [g.key for g in cfg.groups]
    old = row(state, r) if r <= len(state.table) else TableRow(votes=votes, out=out, posts={})
    posts = parse_posts(posts_text, gkeys) if posts_text is not None else dict(old.posts)
    errors = row_errors({"votes": votes, "out": out, "posts": posts}, gkeys, T.ROUND_LABEL.format(r=r))
    if errors:
        raise Rejected("\n".join(errors))
    new = TableRow(votes=votes, out=out, posts=posts)
    if r == cur:
        rd = rnd(state)
        if rd.ballots and new.votes != old.votes:
            raise Rejected(T.VOTES_ALREADY_CAST)
        if rd.closed:
            raise Rejected(T.VOTE_ALREADY_CLOSED)
        if rd.posts_done and new.posts != old.posts:
            raise Rejected(T.POSTS_ALREADY_CLOSED)
    if r == len(state.table) + 1:
        state.table.append(new)
    else:
        state.table[r - 1] = new
    quotas = T.LIST_SEP.join(f"{g}{n}" for g, n in new.posts.items() if n > 0) or T.NONE
    text = T.TABLE_CHANGED.format(r=r, votes=votes, out=out, quotas=quotas)
    return [Say("group", text), Say("reply", T.ADJUSTED + text)]


def show_table(state: State, actor: Actor, args: NoArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/进程: the round table."""
    return [Say("reply", table_text(state))]


def table_text(state: State) -> str:
    lines = [T.TABLE_HEAD]
    for i, rw in enumerate(state.table, 1):
        quotas = T.LIST_SEP.join(f"{g}{n}" for g, n in rw.posts.items() if n > 0) or T.NONE
        mark = T.CURRENT_MARK if i == state.round and state.step != Step.OVER else ""
        lines.append(T.TABLE_LINE.format(i=i, votes=rw.votes, out=rw.out, quotas=quotas, mark=mark))
    return "\n".join(lines)


def vote_log(state: State, actor: Actor, args: RoundArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/票记录 [轮次]: every ballot with its arrival, proxies and who has not voted."""
    r = args.round or state.round
    rd = state.rounds.get(r)
    if rd is None:
        raise Rejected(T.NO_SUCH_ROUND.format(r=r))
    lines = [T.VOTE_LOG_HEAD.format(r=r, n_ballots=len(rd.ballots))]
    for b in rd.ballots:
        lines.append(T.VOTE_LOG_LINE.format(n=b.n, seq=b.seq, dt=dt(b.at).astimezone(tz(state)), voter=name(state, b.voter), proxy=T.PROXY_MARK if b.proxy else "", items=T.LIST_SEP.join(name(state, t) for t in b.targets)))
    if rd.overtime:
        for ob in rd.overtime.ballots:
            lines.append(T.VOTE_LOG_OVERTIME.format(n=ob.n, seq=ob.seq, voter=name(state, ob.voter), target=name(state, ob.target)))
    if r == state.round and not rd.closed:
        missing = non_voters(state, r)
        lines.append(T.VOTE_LOG_MISSING.format(n_missing=len(missing)) + (T.LIST_SEP.join(name(state, s) for s in missing) or T.NONE))
    return [Say("reply", "\n".join(lines))]


WINNER_WORDS = T.WINNER_WORDS


def end(state: State, actor: Actor, args: EndArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/结束游戏 [白方|黑方|平局] [理由]: without a winner word the game ends with no winner."""
    effects: list[Effect] = []
    result, reason = args.result, args.reason
    if result not in WINNER_WORDS:  # /结束 <理由>: no winner declared
        result, reason = T.DRAW, f"{result} {reason}".strip()
    end_game(state, ctx.settings, result, reason, effects)
    return effects


def end_game(state: State, cfg: Settings, result: str, reason: str, effects: list[Effect]) -> None:
    """§十二.8 / §十五.12: the hosts declare the end (and the winner)."""
    if state.step == Step.OVER:
        raise Rejected(T.GAME_ALREADY_OVER)
    if result not in WINNER_WORDS:
        raise Rejected(T.END_USAGE)
    finish(state, cfg, Winner(WINNER_WORDS[result]), T.ENDED_BY_HOSTS.format(reason=reason.strip() or T.END_AGREED), effects)


def private_message(state: State, actor: Actor, args: MessageArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/私信 <玩家> <内容>: a host writes to one player through the bot; logged in the state."""
    seat, text = args.player, args.text.strip()
    if not text:
        raise Rejected(T.DM_USAGE)
    if seat not in state.players:
        raise Rejected(T.NO_SUCH_SEAT.format(seat=seat))
    state.dms.append(Message(seq=ctx.seq, at=iso(ctx.now), by=actor.user_id, seat=seat, text=text))
    return [Say(seat, T.DM_TEXT.format(text=text)), Say("reply", T.DM_SENT.format(seat=name(state, seat)))]
