"""Player names: a seat number, an alias (马甲) or an @mention -> seat.
Pure: works on a snapshot of the roster."""

from __future__ import annotations

from collections.abc import Iterable
from operator import itemgetter
from typing import Any, NamedTuple

from plugins.gamekit.contract import Rejected

from .clean import alias_key, alias_keys, fold_alias, mixed_scripts, unprintable

MAX_ALIAS = 16


class Entry(NamedTuple):  # a tuple: built for every player of an 88-seat game per command that names players
    seat: int
    alias: str
    user_id: str
    alive: bool = True


class Roster:
    def __init__(self, entries: list[Entry]):
        self.entries = sorted(entries, key=itemgetter(0))  # by seat

    @classmethod
    def of(cls, players: Iterable[Any]) -> Roster:
        """The roster of player rows (anything with ``seat``, ``alias``, ``user_id``, ``alive``)."""
        return cls([Entry(p.seat, p.alias, p.user_id, p.alive) for p in players])

    def by_seat(self, seat: int) -> Entry | None:
        return next((e for e in self.entries if e.seat == seat), None)

    def by_user(self, user_id: str) -> Entry | None:
        return next((e for e in self.entries if e.user_id == user_id), None)

    def resolve(self, token: str) -> Entry:
        """Resolve one name. ``@12345`` is a mention, digits a seat, else an alias
        (exact, then a unique partial match). Raises Rejected in Chinese."""
        token = token.strip()
        if token.startswith("@") and token[1:].isdigit():
            hit = self.by_user(token[1:])
            if hit is None:
                raise Rejected("被 @ 的人不是本局玩家。发送 /名单 查看玩家。")
            return hit
        if token.isdigit():
            hit = self.by_seat(int(token))
            if hit is None:
                raise Rejected(f"没有 {token} 号玩家（共 {len(self.entries)} 人）。发送 /名单 查看座位号。")
            return hit
        folded = alias_key(token)
        exact = [e for e in self.entries if alias_key(e.alias) == folded]
        if exact:
            return exact[0]
        partial = [e for e in self.entries if folded and folded in alias_key(e.alias)]
        if len(partial) == 1:
            return partial[0]
        if len(partial) > 1:
            names = "、".join(f"{e.seat}号 {e.alias}" for e in partial[:6])
            raise Rejected(f"「{token}」可能是：{names}。请用座位号再说一次。")
        raise Rejected(f"找不到玩家「{token}」。请用座位号、马甲或 @ 指名，发送 /名单 查看。")


def check_alias(alias: str, taken: list[str]) -> str:
    """Validate a new alias; return it folded (NFKC, no invisible or
    bidirectional characters, trimmed) or raise Rejected. Refused: control
    characters (never stored as U+FFFD), scripts mixed beyond UTS #39's "highly
    restrictive" level (``clean.mixed_scripts``), and an alias that looks like
    a taken one (the same confusable skeleton, ``clean.alias_keys``)."""
    if unprintable(alias):
        raise Rejected("马甲里有控制字符或无法显示的字符，请换一个只用文字、字母和数字的马甲。")
    alias = fold_alias(alias)
    if not alias:
        raise Rejected("请给出马甲，例如：/报名 小明")
    if len(alias) > MAX_ALIAS:
        raise Rejected(f"马甲最长 {MAX_ALIAS} 个字，请换一个短一点的。")
    if alias.isdigit():
        raise Rejected("马甲不能是纯数字（会和座位号混淆），请换一个。")
    if any(ch.isspace() for ch in alias) or "@" in alias or "[" in alias or "]" in alias:
        raise Rejected("马甲不能含空格、@ 或方括号，请换一个。")
    if mixed_scripts(alias):
        raise Rejected("马甲不能混用容易看混的文字（如拉丁字母夹西里尔或希腊字母）。请只用一种文字；"
                       "中文配英文字母和数字可以，例如 小明2、阿K。")
    keys = alias_keys(alias)
    if any(a == b for t in taken for a, b in zip(keys, alias_keys(t))):
        raise Rejected(f"马甲「{alias}」已被占用（或和已有的马甲看起来一样），请换一个。")
    return alias
