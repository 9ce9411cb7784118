"""What an engine's effects do (Say, Eliminate, Restore, SetPhase, SetTimer, CancelTimer, GiveCard,
Picture, GroupAdmin, Rename, Finish): each becomes rows of the unit of work's write set and a
change of the game it holds. One handler per effect type, mixed into :class:`~.work.Work`."""

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
from .models import Card, Player, Timer
from .origin import Handling, Origin

if TYPE_CHECKING:
    from tortoise.models import Model

    from .models import Game
    from .registry import GameKind
    from .writeset import WriteSet


@dataclass(frozen=True)
class _Step:
    """The command whose effects are being applied."""

    seq: int
    origin: Origin
    now: datetime
    sent_off: list[tuple[int, str]]


class Effects:
    """One method per effect type, dispatched by type (mixed into :class:`~.work.Work`)."""

    if TYPE_CHECKING:  # provided by Work
        game: Game
        kind: GameKind
        handling: Handling
        changed_timers: list[Timer]
        joiner: dict[int, str]
        refresh_directory: bool
        game_saved: bool
        ws: WriteSet
        _saved: dict[int, tuple[Model, Any, set[str]]]

        def seat(self, seat: int) -> Player: ...
        def save(self, obj: Model, *fields: str) -> None: ...
        def say(self, to: str | int, text: str, origin: Origin | None, priority: int = 1,
                image: str | None = None, scrub: bool = False) -> None: ...
        def api(self, group: str, action: str, params: dict[str, Any], **kw: Any) -> None: ...
        def audit(self, actor: str, action: str, detail: str, seq: int | None = None,
                  at: datetime | None = None) -> None: ...
        def chat_group(self, chat: str) -> str: ...
        def timer_changed(self, t: Timer, *fields: str) -> None: ...
        async def set_timer(self, key: str, ends_at: datetime, now: datetime) -> None: ...
        async def cancel_timer(self, key: str) -> None: ...
        async def open_timers(self, key: str | None = None) -> list[Timer]: ...
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
            await self.send_off(seat, reason, now)

    async def _on_say(self, e: Say, st: _Step) -> None:
        self.say(e.to, e.text, st.origin, priority=0 if e.to == REPLY else 1)

    async def _on_eliminate(self, e: Eliminate, st: _Step) -> None:
        p = self.seat(e.seat)
        p.alive, p.out_reason = False, e.reason
        self.save(p, "alive", "out_reason")
        self.audit("engine", "out", f"{p.seat}号 {p.alias}：{e.reason}", st.seq, st.now)

    async def _on_restore(self, e: Restore, st: _Step) -> None:
        p = self.seat(e.seat)
        p.alive, p.out_reason = True, None
        self.save(p, "alive", "out_reason")
        self.audit("engine", "back", f"{p.seat}号 {p.alias}：{e.reason}", st.seq, st.now)

    async def _on_phase(self, e: SetPhase, st: _Step) -> None:
        self.game.phase_key, self.game.phase_label = e.key, e.label
        if e.ends_at is None:
            await self.cancel_timer(PHASE_TIMER)
        else:
            await self.set_timer(PHASE_TIMER, e.ends_at, st.now)
        self.audit("engine", "phase", f"{e.label}（{e.key}）", st.seq, st.now)

    async def _on_set_timer(self, e: SetTimer, st: _Step) -> None:
        await self.set_timer(e.key, e.ends_at, st.now)

    async def _on_cancel_timer(self, e: CancelTimer, st: _Step) -> None:
        await self.cancel_timer(e.key)

    async def _on_card(self, e: GiveCard, st: _Step) -> None:
        if await self.give_card(e.seat, e.color, e.reason, "系统", st.now, e.public):
            st.sent_off.append((e.seat, e.public or e.reason))

    async def _on_picture(self, e: Picture, st: _Step) -> None:
        self.picture(e, st.origin, st.now)

    async def _on_group_admin(self, e: GroupAdmin, st: _Step) -> None:
        self.group_admin(e)

    async def _on_rename(self, e: Rename, st: _Step) -> None:
        self.rename(dict(e.aliases), st.seq, st.now)

    async def _on_finish(self, e: Finish, st: _Step) -> None:
        await self.finish(e.summary, st.now, st.seq)

    def rename(self, aliases: dict[int, str], seq: int, now: datetime) -> None:
        """New aliases, written in two passes so that swapped names never collide."""
        changed = [(self.seat(s), self.seat(s).alias, a) for s, a in sorted(aliases.items()) if self.seat(s).alias != a]
        for p, _, _ in changed:
            self.ws.update(Player, p.pk, {"alias": f"[{p.seat}]"})  # never a real alias (check_alias refuses brackets)
        for p, old, alias in changed:
            p.alias = alias
            self.ws.update(Player, p.pk, {"alias": alias})
            self.audit("engine", "rename", f"{p.seat}号 {old} → {alias}", seq, now)

    async def send_off(self, seat: int, reason: str, now: datetime, origin: Origin | None = None,
                       actor: Actor | None = None) -> None:
        """Cards added up to a red: the engine puts the player out (if still in)."""
        if self.game.status != "ended" and self.seat(seat).alive:
            cmd = Command(KERNEL_OUT, kernel_args(self.kind.engine, seat, f"红牌罚下：{reason}"))
            await self.step("apply", origin=origin or Origin("", "kernel"), now=now,
                            actor=actor or Actor("", None, True, True), cmd=cmd)

    def picture(self, e: Picture, origin: Origin, now: datetime) -> None:
        render = self.kind.renderers.get(e.name)
        if render is None:  # pragma: no cover - a programming error in a plugin
            raise TypeError(f"no renderer {e.name!r} for {self.kind.key}")
        folder = data_dir() / "pictures"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{self.game.id}-{e.name}-{now:%Y%m%d-%H%M%S-%f}.png"
        path.write_bytes(render(self.game.state, self.kind.engine.settings_of(self.game.settings)))
        self.say(e.to, e.caption, origin, image=str(path))

    def group_admin(self, e: GroupAdmin) -> None:
        group = self.chat_group(e.chat)
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
                self.kick(group, account)
            return
        else:  # pragma: no cover - a programming error in an engine
            raise TypeError(f"unknown group action {e.action!r}")
        self.api(group, action, params)

    def kick(self, group: str, user_id: str) -> None:
        self.api(group, "set_group_kick", {"group_id": int(group), "user_id": int(user_id), "reject_add_request": False})

    async def give_card(self, seat: int, color: str, reason: str, by: str, now: datetime, public: str | None = None) -> bool:
        """Record a card; True when it sends the player off (first red). The group sees ``public``
        when given (a full reason may reveal a role); the player and the hosts then hear the full one."""
        p = self.seat(seat)
        shown = public or reason
        earlier = [c.color for c in await Card.filter(game_id=self.game.id, seat=seat)] + self.cards_given(seat)
        before, after = cardmath.tally(earlier), cardmath.tally([*earlier, color])
        card = Card(game_id=self.game.id, seat=seat, user_id=p.user_id, color=color, reason=shown,
                    private_reason=reason if public else None, given_by=by, at=now)
        self.save(card)
        self.audit(by, "card", f"{p.seat}号 {p.alias} {cardmath.COLORS[color]}：{reason}", at=now)
        self.say(GROUP, f"【判罚】{p.seat}号 {p.alias} 获得{cardmath.COLORS[color]}，理由：{shown}。累计：{after.describe()}", None)
        if public and public != reason:
            full = f"【判罚】{p.seat}号 {p.alias} 获得{cardmath.COLORS[color]}，完整理由：{reason}。"
            self.say(seat, full + "（群里只公布了「" + public + "」）", None)
            self.say(HOSTS, full, None)
        return after.sent_off and not before.sent_off

    def cards_given(self, seat: int) -> list[str]:
        """The colours of the cards this unit of work gave ``seat`` so far (not yet written)."""
        return [obj.color for obj, _, _ in self._saved.values() if isinstance(obj, Card) and obj.seat == seat]

    async def finish(self, summary: str, now: datetime, seq: int | None = None) -> None:
        g = self.game
        g.status, g.ended_at, g.live_group = "ended", now, None
        g.phase_key, g.phase_label = "ended", "已结束"
        self.game_saved = True
        for t in await self.open_timers():
            t.status = "cancelled"
            self.timer_changed(t, "status")
        if summary:
            self.say(GROUP, summary, None)
        self.audit("engine" if seq else "host", "end", summary[:200], seq, now)
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
