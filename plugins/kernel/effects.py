"""Applying an engine's effects (Say, Eliminate, Restore, SetPhase, SetTimer,
CancelTimer, GiveCard, Picture, GroupAdmin, Rename, Finish) inside a game's
transaction."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from plugins.gamekit.contract import (
    GROUP,
    HOSTS,
    KERNEL_OUT,
    PHASE_TIMER,
    REPLY,
    Actor,
    CancelTimer,
    Command,
    Eliminate,
    Finish,
    GiveCard,
    GroupAdmin,
    Picture,
    Rename,
    Restore,
    Say,
    SetPhase,
    SetTimer,
    kernel_args,
)

from . import cards as cardmath
from .config import data_dir
from .directory import alt_of
from .models import Card, Timer
from .origin import Origin
from .outbox import enqueue_api

if TYPE_CHECKING:
    from .models import Game, Player
    from .registry import GameKind


@dataclass(frozen=True)
class _Step:
    """The command whose effects are being applied."""

    seq: int
    origin: Origin
    now: datetime
    sent_off: list[tuple[int, str]]


class Effects:
    """What an engine's effects do to the database and the queue: one method
    per effect type, dispatched by type (mixed into :class:`Txn`)."""

    if TYPE_CHECKING:  # provided by Txn
        game: Game
        kind: GameKind
        changed_timers: list[Timer]
        joiner: dict[int, str]

        def seat(self, seat: int) -> Player: ...
        async def say(self, to: str | int, text: str, origin: Origin | None, priority: int = 1,
                      image: str | None = None) -> None: ...
        async def audit(self, actor: str, action: str, detail: str, seq: int | None = None,
                        at: datetime | None = None) -> None: ...
        async def set_timer(self, key: str, ends_at: datetime, now: datetime) -> None: ...
        async def cancel_timer(self, key: str) -> None: ...
        async def chat_group(self, chat: str) -> str: ...
        async def save_game(self) -> None: ...
        async def _open_timers(self, key: str | None = None) -> list[Timer]: ...
        async def step(self, call: str, *, origin: Origin, now: datetime, actor: Actor | None = None,
                       cmd: Command | None = None, key: str | None = None) -> Any: ...

    async def apply_effects(self, effects: list[Any], seq: int, origin: Origin, now: datetime) -> None:
        """Apply effects in order; a card that adds up to a red then sends its player off."""
        sent_off: list[tuple[int, str]] = []
        step = _Step(seq, origin, now, sent_off)
        for e in effects:
            handler = _HANDLERS.get(type(e))
            if handler is None:  # pragma: no cover - a programming error in an engine
                raise TypeError(f"unknown effect {e!r}")
            await handler(self, e, step)
        for seat, reason in sent_off:
            await self.send_off(seat, reason, Origin("", "kernel"), Actor("", None, True, True), now)

    async def _on_say(self, e: Say, st: _Step) -> None:
        await self.say(e.to, e.text, st.origin, priority=0 if e.to == REPLY else 1)

    async def _on_eliminate(self, e: Eliminate, st: _Step) -> None:
        p = self.seat(e.seat)
        p.alive, p.out_reason = False, e.reason
        await p.save()
        await self.audit("engine", "out", f"{p.seat}号 {p.alias}：{e.reason}", st.seq, st.now)

    async def _on_restore(self, e: Restore, st: _Step) -> None:
        p = self.seat(e.seat)
        p.alive, p.out_reason = True, None
        await p.save()
        await self.audit("engine", "back", f"{p.seat}号 {p.alias}：{e.reason}", st.seq, st.now)

    async def _on_phase(self, e: SetPhase, st: _Step) -> None:
        self.game.phase_key, self.game.phase_label = e.key, e.label
        if e.ends_at is None:
            await self.cancel_timer(PHASE_TIMER)
        else:
            await self.set_timer(PHASE_TIMER, e.ends_at, st.now)
        await self.audit("engine", "phase", f"{e.label}（{e.key}）", st.seq, st.now)

    async def _on_set_timer(self, e: SetTimer, st: _Step) -> None:
        await self.set_timer(e.key, e.ends_at, st.now)

    async def _on_cancel_timer(self, e: CancelTimer, st: _Step) -> None:
        await self.cancel_timer(e.key)

    async def _on_card(self, e: GiveCard, st: _Step) -> None:
        if await self.give_card(e.seat, e.color, e.reason, "系统", st.now, e.public):
            st.sent_off.append((e.seat, e.public or e.reason))

    async def _on_picture(self, e: Picture, st: _Step) -> None:
        await self.picture(e, st.origin, st.now)

    async def _on_group_admin(self, e: GroupAdmin, st: _Step) -> None:
        await self.group_admin(e, st.now)

    async def _on_rename(self, e: Rename, st: _Step) -> None:
        await self.rename(dict(e.aliases), st.seq, st.now)

    async def _on_finish(self, e: Finish, st: _Step) -> None:
        await self.finish(e.summary, st.now, st.seq)

    async def rename(self, aliases: dict[int, str], seq: int, now: datetime) -> None:
        """New aliases, applied in two passes so that swapped names never collide."""
        changed = [(self.seat(s), self.seat(s).alias, a) for s, a in sorted(aliases.items()) if self.seat(s).alias != a]
        for p, _, _ in changed:
            p.alias = f"[{p.seat}]"  # never a real alias (check_alias refuses brackets)
            await p.save()
        for p, old, alias in changed:
            p.alias = alias
            await p.save()
            await self.audit("engine", "rename", f"{p.seat}号 {old} → {alias}", seq, now)

    async def send_off(self, seat: int, reason: str, origin: Origin, actor: Actor, now: datetime) -> None:
        """Cards added up to a red: the engine puts the player out (if still in)."""
        if self.game.status != "ended" and self.seat(seat).alive:
            cmd = Command(KERNEL_OUT, kernel_args(self.kind.engine, seat, f"红牌罚下：{reason}"))
            await self.step("apply", origin=origin, now=now, actor=actor, cmd=cmd)

    async def picture(self, e: Picture, origin: Origin, now: datetime) -> None:
        render = self.kind.renderers.get(e.name)
        if render is None:  # pragma: no cover - a programming error in a plugin
            raise TypeError(f"no renderer {e.name!r} for {self.kind.key}")
        folder = data_dir() / "pictures"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{self.game.id}-{e.name}-{now:%Y%m%d-%H%M%S-%f}.png"
        path.write_bytes(render(self.game.state, self.kind.engine.settings_of(self.game.settings)))
        await self.say(e.to, e.caption, origin, image=str(path))

    async def group_admin(self, e: GroupAdmin, now: datetime) -> None:
        g = self.game
        group = await self.chat_group(e.chat)
        params: dict[str, Any]
        if e.action in ("mute_all", "unmute_all"):
            action, params = "set_group_whole_ban", {"group_id": int(group), "enable": e.action == "mute_all"}
        elif e.action == "set_card":
            assert e.seat is not None
            action = "set_group_card"
            who = self.joiner.get(e.seat) or self.seat(e.seat).user_id  # the account that just joined
            params = {"group_id": int(group), "user_id": int(who), "card": e.card}
        elif e.action == "kick":
            assert e.seat is not None
            p = self.seat(e.seat)
            for account in filter(None, (p.user_id, alt_of(p))):  # the 小号 too
                await self.kick(group, account, now)
            return
        else:  # pragma: no cover - a programming error in an engine
            raise TypeError(f"unknown group action {e.action!r}")
        await enqueue_api(group, action, params, game_id=g.id, self_id=g.self_id, now=now)

    async def kick(self, group: str, user_id: str, now: datetime) -> None:
        params = {"group_id": int(group), "user_id": int(user_id), "reject_add_request": False}
        await enqueue_api(group, "set_group_kick", params, game_id=self.game.id, self_id=self.game.self_id, now=now)

    async def give_card(self, seat: int, color: str, reason: str, by: str, now: datetime, public: str | None = None) -> bool:
        """Record a card; True when it sends the player off (first red). The
        group sees ``public`` when given (a full reason may reveal a role);
        the player and the hosts then hear the full one privately."""
        p = self.seat(seat)
        shown = public or reason
        before = cardmath.tally([c.color for c in await Card.filter(game_id=self.game.id, seat=seat)])
        await Card.create(game_id=self.game.id, seat=seat, user_id=p.user_id, color=color, reason=shown,
                          private_reason=reason if public else None, given_by=by, at=now)
        after = cardmath.tally([c.color for c in await Card.filter(game_id=self.game.id, seat=seat)])
        await self.audit(by, "card", f"{p.seat}号 {p.alias} {cardmath.COLORS[color]}：{reason}", at=now)
        line = f"【判罚】{p.seat}号 {p.alias} 获得{cardmath.COLORS[color]}，理由：{shown}。累计：{after.describe()}"
        await self.say(GROUP, line, None)
        if public and public != reason:
            full = f"【判罚】{p.seat}号 {p.alias} 获得{cardmath.COLORS[color]}，完整理由：{reason}。"
            await self.say(seat, full + "（群里只公布了「" + public + "」）", None)
            await self.say(HOSTS, full, None)
        return after.sent_off and not before.sent_off

    async def finish(self, summary: str, now: datetime, seq: int | None = None) -> None:
        g = self.game
        g.status, g.ended_at, g.live_group = "ended", now, None
        g.phase_key, g.phase_label = "ended", "已结束"
        await self.save_game()
        for t in await self._open_timers():
            t.status = "cancelled"
            await t.save()
            self.changed_timers.append(t)
        if summary:
            await self.say(GROUP, summary, None)
        await self.audit("engine" if seq else "host", "end", summary[:200], seq, now)
        self.refresh_directory = True


_HANDLERS: dict[type, Callable[[Any, Any, _Step], Awaitable[None]]] = {
    Say: Effects._on_say,
    Eliminate: Effects._on_eliminate,
    Restore: Effects._on_restore,
    SetPhase: Effects._on_phase,
    SetTimer: Effects._on_set_timer,
    CancelTimer: Effects._on_cancel_timer,
    GiveCard: Effects._on_card,
    Picture: Effects._on_picture,
    GroupAdmin: Effects._on_group_admin,
    Rename: Effects._on_rename,
    Finish: Effects._on_finish,
}
"""One handler per effect type."""
