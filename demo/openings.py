"""The scripted openings (``openings.toml``): loading and checking the file, turning a step into
the messages its speakers send, and what the bot must have answered for the step to pass."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomllib

GROUP = "10001"
HOST_ID = "10000"  # a SUPERUSER of the demo bot and the group's owner
PLAYER_BASE = 20000
WHO_RE = re.compile(r"^(host|player (\d+)|players (\d+)-(\d+))$")
STEP_KEYS = {"by", "where", "text", "expect", "silent", "also"}


class Users:
    def __init__(self, players: int):
        self.list = [{"id": HOST_ID, "name": "主持人", "host": True}] + [
            {"id": str(PLAYER_BASE + i), "name": f"玩家{i}", "host": False} for i in range(1, players + 1)]
        self.names = {u["id"]: u["name"] for u in self.list}

    def player(self, n: int) -> str:
        uid = str(PLAYER_BASE + n)
        if uid not in self.names:
            raise ValueError(f"演示需要至少 {n} 名虚拟玩家，请用 --players {n} 或更多启动。")
        return uid

    def name(self, uid: Any) -> str:
        return self.names.get(str(uid), f"QQ {uid}")


def seats_of(who: str) -> list[int | None]:
    """"host" -> [None]; "player 3" -> [3]; "players 1-13" -> [1, …, 13]."""
    m = WHO_RE.match(who)
    assert m is not None
    if m.group(1) == "host":
        return [None]
    if m.group(2):
        return [int(m.group(2))]
    return list(range(int(m.group(3)), int(m.group(4)) + 1))


def _bad(path: Path, key: str, i: int, step: Any, why: str) -> ValueError:
    return ValueError(f"{path.name}：[{key}] 第 {i} 步{why}：{step}")


def load_openings(path: Path = Path(__file__).with_name("openings.toml")) -> dict[str, dict[str, Any]]:
    """The scripted openings, checked so a broken file says where it is wrong: every step says who
    speaks where, and either what the bot answers (``expect``) or that it stays silent."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    for key, game in data.items():
        for field in ("title", "summary", "steps"):
            if field not in game:
                raise ValueError(f"{path.name}：[{key}] 缺少 {field}")
        for i, step in enumerate(game["steps"], 1):
            if not isinstance(step, dict) or set(step) - STEP_KEYS:
                raise _bad(path, key, i, step, "有不认识的字段")
            if not WHO_RE.match(step.get("by", "")) or step.get("where", "group") not in ("group", "private"):
                raise _bad(path, key, i, step, "的 by / where 写错了")
            if not isinstance(step.get("text"), str) or not step["text"]:
                raise _bad(path, key, i, step, "缺少 text")
            if bool(step.get("expect")) == bool(step.get("silent")):
                raise _bad(path, key, i, step, "要写 expect（机器人应回答的话）或 silent = true（机器人不回答），二选一")
            for also in step.get("also", []):
                if set(also) != {"to", "expect"} or not (also["to"] == "group" or WHO_RE.match(also["to"])):
                    raise _bad(path, key, i, step, "的 also 要写成 { to = \"players 1-13\" 或 \"host\" 或 \"group\", expect = \"…\" }")
    return data


def expand(game: dict[str, Any], step: dict[str, Any], users: Users, extra: dict[str, str]) -> list[tuple[str, str, str]]:
    """One step -> (user id, chat, text) for each speaker, placeholders filled."""
    aliases = game.get("aliases", [])
    out = []
    for n in seats_of(step["by"]):
        text = step["text"]
        for name, block in game.get("blocks", {}).items():
            text = text.replace("{" + name + "}", block)
        fill = {**extra, "n": str(n or ""), "alias": aliases[n - 1] if n and n <= len(aliases) else f"玩家{n}"}
        for name, value in fill.items():
            text = text.replace("{" + name + "}", value)
        user = HOST_ID if n is None else users.player(n)
        out.append((user, f"private:{user}" if step.get("where") == "private" else f"group:{GROUP}", text))
    return out


@dataclass(frozen=True)
class Check:
    """``needle`` must appear ``count`` times in what the bot said in ``chat``."""

    chat: str
    needle: str
    count: int


def checks_of(step: dict[str, Any], lines: list[tuple[str, str, str]], users: Users) -> list[Check]:
    """What the bot must say for the step to pass: the expected answer once for each speaker in the
    chat where they spoke (several answers in a group may come as one message), and each ``also``."""
    checks: list[Check] = []
    if step.get("expect"):
        chats: dict[str, int] = {}
        for _, chat, _ in lines:
            chats[chat] = chats.get(chat, 0) + 1
        checks += [Check(chat, step["expect"], n) for chat, n in chats.items()]
    for also in step.get("also", []):
        if also["to"] == "group":
            checks.append(Check(f"group:{GROUP}", also["expect"], 1))
            continue
        for n in seats_of(also["to"]):
            user = HOST_ID if n is None else users.player(n)
            checks.append(Check(f"private:{user}", also["expect"], 1))
    return checks


def said(entries: list[dict[str, Any]], chat: str) -> list[str]:
    """What the bot said in ``chat`` among ``entries``."""
    return [e["text"] for e in entries if e["kind"] == "bot" and e["chat"] == chat]


def unmet(entries: list[dict[str, Any]], checks: list[Check]) -> list[Check]:
    return [c for c in checks if sum(t.count(c.needle) for t in said(entries, c.chat)) < c.count]


def answered(entries: list[dict[str, Any]], checks: list[Check]) -> bool:
    """The bot said something in every chat a check waits on (as often as it should answer there)."""
    return all(len(said(entries, c.chat)) >= c.count for c in checks)


def describe(step: dict[str, Any], lines: list[tuple[str, str, str]], users: Users) -> str:
    """「玩家1–6 私聊发「/投票 7 8」」: who said what where, for a failure note."""
    seats = seats_of(step["by"])
    if seats == [None]:
        who = "主持人"
    elif len(seats) == 1:
        who = f"玩家{seats[0]}"
    else:
        who = f"玩家{seats[0]}–{seats[-1]}"
    where = "私聊" if step.get("where") == "private" else "在群里"
    text = lines[0][2] if lines else step["text"]
    first = text.splitlines()[0] if text else ""
    shown = first if len(first) <= 40 and first == text else first[:40] + "…"
    return f"{who} {where}发「{shown}」"


def clip(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "…"
