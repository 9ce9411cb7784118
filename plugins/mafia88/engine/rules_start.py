"""Dealing roles, code names and 暗号 at /开始 (§四, §七.3, §十六), and /接头."""

from __future__ import annotations

import plugins.mafia88.engine.texts as T
from plugins.gamekit.contract import Actor, Ctx, Effect, Outcome, Rejected, Say, Seat

from .args import TextArgs
from .content import Settings
from .model import FACTION_NAME, Dealt, name, new_round, role_message
from .rules_round import schedule_round
from .state import Contact, Player, Signal, State, Step, TableRow


def start(roster: list[Seat], ctx: Ctx[Settings]) -> Outcome[State]:
    cfg = ctx.settings  # checked: /创建 stores the checked defaults, /配置 checks again
    roles = cfg.roles
    fill = cfg.options.fill_role
    counts = {r.key: r.count for r in roles}
    if fill:
        others = sum(n for k, n in counts.items() if k != fill)
        counts[fill] = max(0, len(roster) - others)
    total = sum(counts.values())
    if len(roster) != total:
        raise Rejected(T.COUNT_MISMATCH.format(n_roster=len(roster), total=total))
    deck = [r.key for r in roles for _ in range(counts[r.key])]
    ctx.rng.shuffle(deck)
    ordered = sorted(roster, key=lambda s: s.seat)
    players: dict[int, Player] = {}
    for entry, key in zip(ordered, deck):
        players[entry.seat] = Player(seat=entry.seat, alias=entry.alias, role=key, code="", signal=None, alive=True,
                                     out=None, report=None)
    # code names: shuffled within each role so code order says nothing about seats
    by_role: dict[str, list[int]] = {r.key: [] for r in roles}
    for entry, key in zip(ordered, deck):
        by_role[key].append(entry.seat)  # in seat order
    for r in roles:
        members = by_role[r.key]
        ctx.rng.shuffle(members)
        for seat, code in zip(members, r.codes):
            players[seat].code = code
    carriers = cfg.options.signal_carriers
    signals: list[Signal] = []
    if carriers:
        pairs = cfg.signals or ctx.rng.sample(cfg.signal_pool, carriers)
        signals = [Signal(*pair) for pair in pairs]
        # sampled as strings, as the stored seats were: the same seed deals the same carriers
        du = sorted(str(s) for s, p in players.items() if p.role == "du_sha")
        chosen = ctx.rng.sample(du, carriers)
        for carrier, pair in zip(sorted(chosen, key=int), signals):
            players[int(carrier)].signal = pair
    state = State(table=[TableRow(votes=row.votes, out=row.out, posts=dict(row.posts)) for row in cfg.rounds],
                  tz=str(ctx.tz.key), players=players, round=1, step=Step.ROUND, rounds={1: new_round(1)}, posts=[],
                  drafts={}, signals=signals, winner=None, ended_by="")
    effects: list[Effect] = []
    dealt = Dealt.of(state)
    for seat in sorted(players):
        effects.append(Say(seat, role_message(state, cfg, seat, dealt)))
    whites = sum(1 for p in players.values() if cfg.role(p.role).faction == "white")
    host_lines = [T.DEALT_HEAD.format(total=total, whites=whites, blacks=total - whites)]
    for seat, p in sorted(players.items()):
        r = cfg.role(p.role)
        extra = T.DEALT_CODE.format(code=p.code) if p.code else ""
        extra += T.DEALT_SIGNAL.format(seek=p.signal.seek, reply=p.signal.reply) if p.signal else ""
        host_lines.append(T.DEALT_LINE.format(seat=seat, alias=p.alias, name=r.name, faction_name=FACTION_NAME[r.faction], extra=extra))
    effects.append(Say("hosts", "\n".join(host_lines)))
    schedule_round(state, cfg, 1, ctx.now, effects, first=True)
    return Outcome(state, effects)


def signal(state: State, actor: Actor, args: TextArgs, ctx: Ctx[Settings]) -> list[Effect]:
    """/接头 <寻找暗号> (§五黑3, §七.3): a 暗号 holder (the three carriers and the
    孤杀) names another carrier's seek phrase; both are told privately."""
    cfg = ctx.settings
    seat = actor.seat
    assert seat is not None  # who="player"
    me = state.players[seat]
    if not me.signal and not cfg.role(me.role).signals:
        raise Rejected(T.NO_SIGNAL)
    phrase = args.text.strip().strip(T.SIGNAL_QUOTES)
    owner = next((s for s, p in sorted(state.players.items()) if p.signal and phrase in (p.signal.seek, p.signal.reply)), None)
    if owner is None:
        raise Rejected(T.NO_SUCH_SIGNAL)
    if owner == seat:
        raise Rejected(T.OWN_SIGNAL)
    found = state.players[owner]
    assert found.signal is not None
    seek, reply = found.signal.seek, found.signal.reply
    who = cfg.role(me.role).name
    state.contacts.append(Contact(seq=ctx.seq, from_=seat, to=owner))
    alive = "" if found.alive else T.OUT_MARK
    return [
        Say("reply", T.SIGNAL_FOUND.format(seek=seek, reply=reply, owner=name(state, owner), alive=alive)),
        Say(owner, T.SIGNAL_FOUND_YOU.format(seat=name(state, seat), who=who, seek=seek, reply=reply)),
    ]
