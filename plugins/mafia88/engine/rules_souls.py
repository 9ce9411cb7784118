"""移魂 and 还魂 (§五白4, 黑8), the role changes after round 3, and the
unions of §八 told privately."""

from __future__ import annotations

import plugins.mafia88.engine.texts as T
from plugins.gamekit.contract import Actor, Ctx, Effect, Rejected, Say

from .args import SoulBackArgs, SoulMoveArgs
from .checks import measure_text, post_problems
from .content import Settings, Soul
from .model import dt, iso, name, rnd, role_message, role_name, when
from .resolution import Trigger
from .state import SoulBack, SoulMove, Souls, State, Step


def holder_checks(state: State, actor: Actor, ab: Soul, word: str, ctx: Ctx[Settings]) -> int:
    """The 移魂's or 还魂's own checks; returns its seat."""
    cfg = ctx.settings
    seat = actor.seat
    assert seat is not None  # who="player"
    p = state.players[seat]
    if not cfg.options.role_effects or p.role != ab.role:
        raise Rejected(T.SOUL_NO_RIGHT.format(word=word, clause=ab.clause))
    if not p.alive:
        raise Rejected(T.SOUL_HOLDER_OUT.format(word=word, clause=ab.clause))
    r = state.round
    if r not in ab.rounds:
        raise Rejected(T.SOUL_WRONG_ROUND.format(word=word, rounds=T.LIST_SEP.join(str(x) for x in ab.rounds), clause=ab.clause, r=r))
    cur = rnd(state)
    due = cur.due.posts
    if state.step != Step.ROUND or cur.posts_done or (due and ctx.now >= dt(due)):
        raise Rejected(T.SOUL_TOO_LATE.format(word=word, due=when(state, due), clause=ab.clause))
    souls = state.souls.get(r)
    if souls is not None and word in souls.words:
        raise Rejected(T.SOUL_ALREADY.format(word=word))
    return seat


def text_checks(cfg: Settings, text: str, minimum: int, word: str) -> None:
    bad = post_problems(measure_text(text), minimum, cfg.limits)
    if bad:
        raise Rejected(T.SOUL_TEXT_FAILED.format(word=word, bad=T.SEMI_SEP.join(bad), minimum=minimum))


def move(state: State, actor: Actor, args: SoulMoveArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/移魂 <被贴杀者> <移到谁> <500字正文>."""
    cfg = ctx.settings
    src, dst, text = args.src, args.dst, args.text
    ab = cfg.effects.soul_move
    seat = holder_checks(state, actor, ab, T.SOUL_MOVE, ctx)
    if seat in (src, dst):
        raise Rejected(T.SOUL_MOVE_SELF.format(clause=ab.clause))
    if src == dst:
        raise Rejected(T.SOUL_SAME_PERSON)
    for s in (src, dst):
        if not state.players[s].alive:
            raise Rejected(T.SOUL_TARGET_OUT.format(player=name(state, s)))
    text_checks(cfg, text, ab.text_min, T.SOUL_MOVE)
    r = state.round
    souls = state.souls.setdefault(r, Souls(words=[]))
    souls.move = SoulMove(by=seat, from_=src, to=dst, text=text, seq=ctx.seq, at=iso(ctx.now))
    souls.words.append(T.SOUL_MOVE)
    return [Say("reply", T.SOUL_MOVE_RECORDED.format(r=r, src=name(state, src), dst=name(state, dst))),
            Say("hosts", T.SOUL_MOVE_HOSTS.format(seat=name(state, seat), src=name(state, src), dst=name(state, dst), n_text=len(text)))]


def back(state: State, actor: Actor, args: SoulBackArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/还魂 <玩家> <800字正文>."""
    cfg = ctx.settings
    dst, text = args.target, args.text
    ab = cfg.effects.soul_back
    seat = holder_checks(state, actor, ab, T.SOUL_BACK, ctx)
    if dst == seat:
        raise Rejected(T.SOUL_BACK_SELF.format(clause=ab.clause))
    text_checks(cfg, text, ab.text_min, T.SOUL_BACK)
    r = state.round
    souls = state.souls.setdefault(r, Souls(words=[]))
    souls.back = SoulBack(by=seat, to=dst, text=text, seq=ctx.seq, at=iso(ctx.now))
    souls.words.append(T.SOUL_BACK)
    return [Say("reply", T.SOUL_BACK_RECORDED.format(r=r, dst=name(state, dst))),
            Say("hosts", T.SOUL_BACK_HOSTS.format(seat=name(state, seat), dst=name(state, dst), n_text=len(text)))]


def publish_texts(state: State, r: int, triggered: list[Trigger], effects: list[Effect]) -> None:
    """The texts of a 移魂 that took effect and of a 还魂 that undid it go out with the posts."""
    souls = state.souls.get(r)
    if souls is None:
        return
    kinds = {t.kind for t in triggered}
    if "moved" in kinds and souls.move is not None:
        effects.append(Say("group", T.SOUL_MOVE_POST.format(r=r, text=souls.move.text)))
    if "backed" in kinds and souls.back is not None:
        effects.append(Say("group", T.SOUL_BACK_POST.format(r=r, text=souls.back.text)))


def convert_roles(state: State, cfg: Settings, r: int, effects: list[Effect]) -> None:
    """After the rounds of 移魂/还魂 (§五白4, 黑8): a living 移魂 becomes 游侠,
    a living 还魂 becomes 联合杀. Called when round r starts."""
    if not cfg.options.role_effects:
        return
    for ab in (cfg.effects.soul_move, cfg.effects.soul_back):
        if not ab.becomes or r != max(ab.rounds) + 1:
            continue
        for s, p in sorted(state.players.items()):
            if p.role == ab.role and p.alive:
                p.dealt = p.dealt or p.role
                p.role = ab.becomes
                becomes = cfg.role(ab.becomes).name
                effects.append(Say(s, T.CONVERTED_TELL.format(r=r, becomes=becomes, clause=ab.clause) + role_message(state, cfg, s)))
                effects.append(Say("hosts", T.CONVERTED_HOSTS.format(player=name(state, s), role=cfg.role(ab.role).name, becomes=becomes, clause=ab.clause)))
                # those told the new role's members at the start learn of the newcomer (孤杀, 联合杀)
                for o, q in sorted(state.players.items()):
                    if o != s and q.alive and ab.becomes in cfg.role(q.role).knows:
                        effects.append(Say(o, T.CONVERTED_MATES.format(r=r, player=name(state, s), becomes=becomes, clause=ab.clause)))


# ---- unions (§八) -----------------------------------------------------------

def holders(state: State, key: str, alive: bool | None = None) -> list[int]:
    """Seats dealt role ``key`` (living or out only, if asked)."""
    return [s for s, p in sorted(state.players.items()) if (p.dealt or p.role) == key and (alive is None or p.alive == alive)]


def now_holding(state: State, key: str) -> list[int]:
    """Seats holding role ``key`` now (after the role changes of §五白4/黑8)."""
    return [s for s, p in sorted(state.players.items()) if p.role == key]


def unions(state: State) -> list[tuple[str, list[int], str]]:
    """(key, members, clause) of the unions that hold now."""
    out: list[tuple[str, list[int], str]] = []
    r = state.round
    yj, lj = holders(state, "yin_jian"), holders(state, "lianhe_jian")
    after_r4_posts = r > 4 or (r == 4 and rnd(state).published)
    if yj and lj and (any(not state.players[s].alive for s in yj) or after_r4_posts):
        out.append((T.UNION_SWORD, yj + lj, T.UNION_SWORD_CLAUSE))
    ld = holders(state, "lianhe_dan")
    if ld and not holders(state, "lianhe_dan", alive=True):
        out.append((T.UNION_EGG, ld + holders(state, "yi_hun") + holders(state, "fu_huo"), T.UNION_EGG_CLAUSE))
    du_out, du_in = holders(state, "du_sha", alive=False), holders(state, "du_sha", alive=True)
    if len(du_out) >= 7:
        # a 还魂 that became a 联合杀 after round 3 (§五黑8) stands with the 联合杀
        out.append((T.UNION_DU_LIVING, du_in + now_holding(state, "lianhe_sha"), T.UNION_DU_CLAUSE))
        out.append((T.UNION_DU_OUT, du_out + holders(state, "hei_dan") + holders(state, "gong_bing") + holders(state, "di_lei")
                    + now_holding(state, "huan_hun"), T.UNION_DU_CLAUSE))
    return out


def tell_unions(state: State, cfg: Settings, effects: list[Effect]) -> None:
    """Tell the members of each new union who the others are (privately)."""
    if not cfg.options.role_effects:
        return
    told = state.unions_told
    for key, members, clause in unions(state):
        if key in told:
            continue
        told.append(key)
        for s in members:
            others = [o for o in members if o != s]
            if not others:
                continue
            lst = T.LIST_SEP.join(T.UNION_MATE.format(mate=name(state, o), role=role_name(state, cfg, o), alive=T.ALIVE if state.players[o].alive else T.OUT_WORD)
                                  for o in others)
            effects.append(Say(s, T.UNION_TELL.format(clause=clause, lst=lst)))
        effects.append(Say("hosts", T.UNION_HOSTS.format(clause=clause, items=T.LIST_SEP.join(name(state, s) for s in members))))
