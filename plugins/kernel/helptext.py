"""/帮助: the commands open to this person in this place and phase, grouped
(报名 / 游戏中 / 主持); /帮助 <命令> for one command's usage with an example;
/帮助 全部 for everything; and the "did you mean" answer to unknown commands."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, replace

from plugins.gamekit.contract import CommandSpec

from .commands.table import KERNEL
from .config import kernel_config
from .registry import GameKind, kinds

NAMING = "指名玩家可写座位号、马甲或 @某人。"
NAMING_SECRET = "指名玩家可写座位号或马甲（马甲保密，群里不要 @ 玩家）。"


def naming(kind: GameKind | None) -> str:
    return NAMING_SECRET if kind is not None and kind.private_signup else NAMING
RARE = ("帮助", "在吗")  # always open; the short help does not list them
ALL_WORD = "全部"


@dataclass(frozen=True)
class Asker:
    """Who asks, where, when: ``status`` is the game's status, "none" without a game."""

    status: str = "none"
    in_group: bool = False
    is_host: bool = False
    is_player: bool = False
    is_admin: bool = False
    several: bool = False  # in several games at once (private)


ORDER = ("创建", "报名", "退出报名", "资料", "小号", "名单", "状态", "我的身份", "发言", "牌", "切换", "开始", "加主持",
         "配置", "公告", "推进", "延时", "暂停", "继续", "结束", "蓝牌", "黄牌", "红牌", "出局", "回场", "绑定群", "解绑群",
         "日志", "导出", "队列", "帮助", "在吗")


def _kernel_specs() -> list[CommandSpec]:
    seen: dict[str, CommandSpec] = {}
    web = bool(kernel_config().web_public_url)
    for k in KERNEL.values():
        if k.spec.words[0] == "网页" and not web:
            continue  # the players' web pages are off: /网页 is not offered
        seen.setdefault(k.spec.name, k.spec)
    rank = {w: i for i, w in enumerate(ORDER)}
    return sorted(seen.values(), key=lambda s: rank.get(s.words[0], len(ORDER)))


def _game_words(kind: GameKind | None) -> set[str]:
    return {w for s in kind.commands for w in s.words} if kind else set()


def _shadowed(spec: CommandSpec, kind: GameKind | None, status: str = "running") -> bool:
    """A kernel command whose word a game's command takes over (an alias there)
    once the game runs (before the start the kernel's command still answers)."""
    return bool(kind) and status != "signup" and spec.words[0] in _game_words(kind)


def _place_ok(spec: CommandSpec, in_group: bool) -> bool:
    return spec.where == "any" or (spec.where == "group") == in_group


def _needs_ok(spec: CommandSpec, kind: GameKind | None, a: Asker) -> bool:
    need = spec.extra.get("needs", "")
    if need == "profile":
        return bool(kind and kind.profile_fields)
    if need == "alt":
        return bool(kind and kind.extra.get("alt_accounts"))
    if need == "secret":
        return bool(kind and kind.private_signup)
    if need == "several":
        return a.several
    return need != "rare"


def _kernel_open(spec: CommandSpec, kind: GameKind | None, a: Asker) -> bool:
    phases = spec.extra.get("phases", ())
    if phases and a.status not in phases:
        return False
    if not _place_ok(spec, a.in_group) or not _needs_ok(spec, kind, a) or _shadowed(spec, kind, a.status):
        return False
    if spec.name == "create":
        return a.is_admin
    if spec.name == "signup":
        return not a.is_player and not a.is_host and not (a.status == "none" and a.in_group)
    if spec.who == "host":
        return a.is_host
    if spec.who == "player":
        return a.is_player and not (a.in_group and kind is not None and kind.private_signup)
    return True


def _game_open(spec: CommandSpec, kind: GameKind, a: Asker, *, later: bool = False) -> bool:
    """A game's command is open while the game runs (``later``: once it starts)."""
    if not spec.words or not _place_ok(spec, a.in_group):
        return False
    if not later and a.status not in ("running", "paused"):
        return False
    if spec.who == "host":
        return a.is_host
    if spec.who == "player":
        # in a group of a secret-alias game a player's own command would show the alias
        return (a.is_player or (later and not a.is_host)) and not (a.in_group and kind.private_signup)
    return True


def _word(spec: CommandSpec) -> str:
    return "/" + spec.words[0]


def help_text(kind: GameKind | None, a: Asker) -> str:
    """The short help: at most about 12 lines."""
    if kind is None and a.in_group:
        first = ("mafia88", "prison", "royale", "league")  # the README's order; any other kind after them
        ordered = sorted(kinds(), key=lambda k: (first.index(k.key) if k.key in first else len(first), k.key))
        games = " / ".join(k.names[0] for k in ordered)
        opener = f"开局：/创建 <游戏>（{games}）" if a.is_admin else "群主或管理员可以发送 /创建 <游戏> 开一局。"
        return "\n".join(["本群现在没有游戏。", opener, f"/帮助 <命令> 看用法和例子，/帮助 {ALL_WORD} 看所有命令。"])
    kernel = [s for s in _kernel_specs() if _kernel_open(s, kind, a)]
    game = [s for s in kind.commands if _game_open(s, kind, a)] if kind else []
    signup = [s for s in kernel if s.who != "host" and a.status in ("none", "signup")]
    hosting = [s for s in kernel + game if s.who == "host"]
    playing = [s for s in kernel + game if s.who != "host" and s not in signup]
    title = kind.title if kind else "游戏机器人"
    phase = {"signup": "报名中", "running": "进行中", "paused": "已暂停", "ended": "已结束"}.get(a.status, "")
    where = "群里" if a.in_group else "私聊里"
    out = [f"【{title}{'·' + phase if phase else ''}】你在{where}能用的命令："]
    if signup:
        out.append("报名：" + " ".join(_word(s) for s in signup))
    if playing:
        out.append("游戏中：" + " ".join(_word(s) for s in playing))
    if hosting:
        out.append("主持：" + " ".join(_word(s) for s in hosting))
    if kind and a.status == "signup":
        later = [s for s in kind.commands if _game_open(s, kind, a, later=True)]
        if later:
            out.append("开始后：" + " ".join(_word(s) for s in later))
    if not (signup or playing or hosting):
        out.append("（这里暂时没有你能用的命令。）")
    out.append(naming(kind))
    other = "私聊" if a.in_group else "群里"
    out.append(f"/帮助 <命令> 看用法和例子，/帮助 {ALL_WORD} 看所有命令；{other}还有别的命令。")
    return "\n".join(out)


def _all_specs(kind: GameKind | None) -> list[CommandSpec]:
    specs = [s for s in _kernel_specs() if not _shadowed(s, kind)]
    return specs + ([s for s in kind.commands if s.words] if kind else [])


def _signup_only(s: CommandSpec) -> bool:
    phases = s.extra.get("phases", ())
    return bool(phases) and set(phases) <= {"none", "signup"}


def all_text(kind: GameKind | None, a: Asker) -> str:
    """/帮助 全部: every command of this place's game, grouped, one line each."""
    specs = [s for s in _all_specs(kind) if s.extra.get("needs") in (None, "", "rare", "several") or _needs_ok(s, kind, a)]
    groups: dict[str, list[str]] = {"报名": [], "游戏中": [], "主持": []}
    for s in specs:
        key = "主持" if s.who == "host" else "报名" if _signup_only(s) else "游戏中"
        groups[key].append(f"{s.usage or _word(s)}：{_clean(s.help)}{_marks(s)}")
    out = [f"【{kind.title if kind else '通用'}】全部命令：", naming(kind)]
    for key, lines in groups.items():
        if lines:
            out += [f"—— {key} ——", *lines]
    out.append("/帮助 <命令> 看一条命令的详细用法和例子。")
    return "\n".join(out)


def _clean(text: str) -> str:
    """One punctuation style: help lines end without a full stop."""
    return text.rstrip("。．. ")


def _marks(s: CommandSpec) -> str:
    where = {"private": "私聊", "group": "群聊"}.get(s.where, "")
    return f"（{where}）" if where else ""


def _example(spec: CommandSpec) -> str:
    if spec.extra.get("example"):
        return spec.extra["example"]
    usage = (spec.usage or _word(spec)).split(" 或 ")[0]
    if "（" in usage and not usage.startswith("（"):
        usage = usage.split("（")[0].strip()
    if usage.startswith("（"):
        return ""
    usage = re.sub(r"\s*\[[^\]]*\]", "", usage)  # optional parts left out
    out = re.sub(r"<([^>]*)>", lambda m: _sample(m.group(1)), usage)
    out = re.sub(r"(\S+?)\|\S+", r"\1", out)  # alternatives: the first
    return "" if "<" in out else out


SAMPLES = (
    (("玩家", "看守", "被贴杀者", "移到谁", "被指定者", "目标"), "3"),
    (("理由", "原因", "说明"), "刷屏"),
    (("分钟",), "30"),
    (("轮次", "局号", "编号", "步骤", "页码"), "1"),
    (("群号",), "123456789"),
    (("马甲",), "小明"),
    (("帖号",), "1"),
    (("代号",), "甲"),
)


def _sample(name: str) -> str:
    for keys, value in SAMPLES:
        if any(k in name for k in keys):
            return value
    return f"<{name}>"


def command_text(kind: GameKind | None, word: str) -> str | None:
    """/帮助 <命令>: the full usage, who and where, an example; None when no such command."""
    word = word.lstrip("/／")
    specs = [s for s in (kind.commands if kind else ()) if word in s.words]
    specs += [s for s in _kernel_specs() if word in s.words and not _shadowed(s, kind)]
    if not specs:
        return None
    out: list[str] = []
    for s in specs:
        who = {"host": "主持", "player": "本局玩家"}.get(s.who, "所有人")
        where = {"private": "私聊", "group": "群聊"}.get(s.where, "群聊或私聊")
        phases = s.extra.get("phases", ()) if s in _kernel_specs() else ("running", "paused")
        when = "报名时" if tuple(phases) == ("signup",) else ("开始后" if phases and "signup" not in phases else "")
        out.append(f"用法：{s.usage or _word(s)}")
        out.append(_clean(s.help) + "。")
        out.append(f"谁能用：{who}；在哪用：{where}" + (f"；{when}可用" if when else "") + "。")
        ex = _example(s)
        if ex and ex != s.usage:
            out.append(f"例：{ex}")
        aliases = [w for w in s.words if w != word]
        if word != s.words[0]:
            out.append(f"/{word} 是 /{s.words[0]} 的别名，两者完全相同。")
        elif aliases:
            out.append("也可写：" + " ".join("/" + w for w in aliases))
        if any(arg.kind in ("player", "players") for arg in s.fields) or "<玩家>" in s.usage:
            out.append(naming(kind))
    return "\n".join(out)


def open_words(kind: GameKind | None, a: Asker) -> list[str]:
    """The command words this asker may use in this place, whatever the phase (for "did you mean")."""
    anytime = Asker("running", a.in_group, a.is_host, a.is_player or not a.is_host, a.is_admin, a.several)
    specs = [s for s in _kernel_specs() if _kernel_open(replace(s, extra={**s.extra, "phases": ()}), kind, anytime)]
    specs += [s for s in kind.commands if _game_open(s, kind, anytime)] if kind else []
    return [w for s in specs for w in s.words]


def closest(word: str, words: list[str]) -> str | None:
    """The most similar of ``words`` (difflib's ratio, at least 0.5); a tie goes to the one listed
    first (a game lists its common commands first: /投標 is /投票, not /投诉)."""
    best, score = None, 0.5
    matcher = difflib.SequenceMatcher(b=word)
    for w in words:
        matcher.set_seq1(w)
        r = matcher.ratio()
        if r > score or (best is None and r == score):
            best, score = w, r
    return best


def unknown_text(word: str, kind: GameKind | None, a: Asker) -> str:
    near = closest(word, open_words(kind, a))
    if near:
        return f"没有 /{word} 这个命令，你是不是想用 /{near}？发 /帮助 {near} 看用法。"
    return f"没有 /{word} 这个命令。发 /帮助 看你在这里能用的命令。"


def help_reply(kind: GameKind | None, a: Asker, rest: str) -> str:
    """What /帮助 [命令 | 全部] answers."""
    topic = rest.strip().split()[0] if rest.strip() else ""
    if not topic:
        return help_text(kind, a)
    if topic == ALL_WORD:
        return all_text(kind, a)
    found = command_text(kind, topic)
    if found is not None:
        return found
    return unknown_text(topic.lstrip("/／"), kind, a)
