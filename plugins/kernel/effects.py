"""Applying an engine's effects (Say, Eliminate, Restore, SetPhase, SetTimer,
CancelTimer, GiveCard, Picture, GroupAdmin, Rename, Finish) inside a game's
transaction."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from nonebot import get_plugin_config

from . import cards as cardmath
from .config import Config
from .contract import (
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
)
from .directory import alt_of
from .models import Card, Timer
from .origin import Origin
from .outbox import enqueue_api

if TYPE_CHECKING:
    pass


class Effects:
    """What an engine's effects do to the database and the queue: one method
    per effect type, dispatched by type (mixed into :class:`Txn`)."""

    async def apply_effects(self, effects: list[Any], seq: int, origin: Origin, now: datetime) -> None:
        sent_off: list[tuple[int, str]] = []
        for e in effects:
            if isinstance(e, Say):
                await self.say(e.to, e.text, origin, priority=0 if e.to == REPLY else 1)
            elif isinstance(e, Eliminate):
                p = self.seat(e.seat)
                p.alive, p.out_reason = False, e.reason
                await p.save()
                await self.audit("engine", "out", f"{p.seat}号 {p.alias}：{e.reason}", seq, now)
            elif isinstance(e, Restore):
                p = self.seat(e.seat)
                p.alive, p.out_reason = True, None
                await p.save()
                await self.audit("engine", "back", f"{p.seat}号 {p.alias}：{e.reason}", seq, now)
            elif isinstance(e, SetPhase):
                self.game.phase_key, self.game.phase_label = e.key, e.label
                if e.ends_at is None:
                    await self.cancel_timer(PHASE_TIMER)
                else:
                    await self.set_timer(PHASE_TIMER, e.ends_at, now)
                await self.audit("engine", "phase", f"{e.label}（{e.key}）", seq, now)
            elif isinstance(e, SetTimer):
                await self.set_timer(e.key, e.ends_at, now)
            elif isinstance(e, CancelTimer):
                await self.cancel_timer(e.key)
            elif isinstance(e, GiveCard):
                if await self.give_card(e.seat, e.color, e.reason, "系统", now, e.public):
                    sent_off.append((e.seat, e.public or e.reason))
            elif isinstance(e, Picture):
                await self.picture(e, origin, now)
            elif isinstance(e, GroupAdmin):
                await self.group_admin(e, now)
            elif isinstance(e, Rename):
                await self.rename(dict(e.aliases), seq, now)
            elif isinstance(e, Finish):
                await self.finish(e.summary, now, seq)
            else:  # pragma: no cover - a programming error in an engine
                raise TypeError(f"unknown effect {e!r}")
        for seat, reason in sent_off:
            await self.send_off(seat, reason, Origin("", "kernel"), Actor("", None, True, True), now)

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
            cmd = Command(KERNEL_OUT, {"seat": seat, "reason": f"红牌罚下：{reason}"})
            await self.step("apply", origin=origin, now=now, actor=actor, cmd=cmd)

    async def picture(self, e: Picture, origin: Origin, now: datetime) -> None:
        render = self.kind.renderers.get(e.name)
        if render is None:  # pragma: no cover - a programming error in a plugin
            raise TypeError(f"no renderer {e.name!r} for {self.kind.key}")
        folder = Path(get_plugin_config(Config).data_dir) / "pictures"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{self.game.id}-{e.name}-{now:%Y%m%d-%H%M%S-%f}.png"
        path.write_bytes(render(self.game.state))
        await self.say(e.to, e.caption, origin, image=str(path))

    async def group_admin(self, e: GroupAdmin, now: datetime) -> None:
        g = self.game
        group = await self.chat_group(e.chat)
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
        await g.save()
        for t in await Timer.filter(game_id=g.id, status__in=("armed", "paused", "stuck")):
            t.status = "cancelled"
            await t.save()
            self.changed_timers.append(t)
        if summary:
            await self.say(GROUP, summary, None)
        await self.audit("engine" if seq else "host", "end", summary[:200], seq, now)
        self.refresh_directory = True
