"""Load benchmarks through the real WebSocket.

    .venv/bin/python bench/run.py        (or: make bench)
    .venv/bin/python bench/run.py --only night,side      (a subset of the figures: faster to iterate)

A fake OneBot v11 implementation (bench/onebot.py, built on the tests' fake)
connects to the reverse WebSocket of the real ``bot.py`` on loopback, with a
SQLite file database and logging at INFO as in production (the log goes to a
file), and plays players. Every figure is measured side by side with the
floor: the same driver, the same burst shape, the same bot process, against
the kernel's ``/在吗`` (answers "在。" at once; it still writes its reply row
to the outbound queue). Each figure is printed as one line.

Latency = from the moment the driver writes the event on the WebSocket to the
moment the bot's reply (a send_*_msg call) reaches the fake OneBot. For the
latency figures the outbound queue is unpaced (SEND_INTERVAL=0 SEND_JITTER=0
GROUP_SEND_INTERVAL=0) so they measure processing; the queue's real pace is
measured in the start-of-game figure. Benchmarks are not tests: nothing here
asserts a time.

The run: bot A (queue unpaced) -- games are set up through chat like players
would (mafia88: 88 private sign-ups, /开始, 88 报道, in three games for three vote bursts; royale: 60 group sign-ups,
/开始, /推进 to night 1; five more mafia88 games with 87 sign-ups each; three more
pairs of a mafia88 and a royale game for the side-by-side figure), then the vote bursts and the
royale night, each right after its floor, then both at once in two groups (three trials, a pair
of games each, pooled). Bot B
(the same database, queue paced) -- the 88th sign-up and /开始 of each of the
five games (the median of five samples), then a vote burst whose replies leave
at the production group pace. Then the capacity figure (below), then the same figures on PostgreSQL (one process,
then two processes each serving one game), and the whole simulated games in
process (bench/sims.py, one subprocess each). Each line ends with the
CPU other processes used meanwhile (the machine may be shared): ratios to the
floor hold up better than absolute numbers when that is not 0.

Capacity (``--only capacity``): how many games one process serves at once, in a
bot process and database of its own. For N = 1, 2, ... the process holds N royale
nights and N mafia88 groups voting, all set up through chat: each N adds one
royale game (60 group sign-ups, /开始, /推进 into night 1, /延时 60 so the night
outlasts the run) and N fresh mafia88 games (round 1 after the 88 reports), as a
ballot is final once cast: a group votes once (the groups of earlier trials stay
held). A trial is 5 s of warm-up, then 15 s measured. Each night's 60 players send
one private action every 5 s on the clock from random phases (open loop: 12 a
second a night, whether answered or not): /出生, then round and round a /搜索
every 40 s and two /移动 while stamina lasts (moves and searches cost 5 of its
100), /背包 between. Each group's 88 players send their /投票 in one 1-s burst,
as at a vote's close (the vote-burst figure), the N groups' bursts evenly spread
over the measured seconds (groups close independently). N stops rising after the
first trial where the p99 of the night actions or of the votes passes 100 ms (or
an answer never comes), or at N = 12; the line gives the largest N that kept both
under, both p99 at each N, and what the engines refused (none should be). Memory
per game: the bot's VmRSS (/proc/<pid>/status) before the first game and after
the last trial, over the games then held.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import heapq
import itertools
import json
import math
import os
import platform
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import tomllib
from onebot import ROOT, BotProcess, TimedOneBot

GROUP_M88, GROUP_ROYALE, GROUP_START = "880001", "880002", "880003"
GROUP_M88_2, GROUP_ROYALE_2 = "880004", "880005"  # the two games played at the same time
GROUP_M88_3, GROUP_ROYALE_3 = "880006", "880007"  # the same, each served by its own process (PostgreSQL)
HOST_M88, HOST_ROYALE, HOST_START = "101", "102", "103"
M88_PLAYERS = [str(20001 + i) for i in range(88)]
ROYALE_PLAYERS = [str(30001 + i) for i in range(60)]
START_PLAYERS = [str(40001 + i) for i in range(88)]
# /开始 is one sample per game: five games, each 88 players of its own (the median is reported: single
# samples spread 7–13 ms)
STARTS = [(GROUP_START, START_PLAYERS)] + [(str(880007 + k), [str(40001 + 1000 * k + i) for i in range(88)])
                                           for k in range(1, 5)]
START_KEYS = [f"start_{k}" for k in range(len(STARTS))]
# the vote burst is repeated in three games of its own (the first is GROUP_M88): one burst's p99 is its
# slowest vote, and whether a pause of the machine (tens of ms, the floor's bursts get them too) falls
# inside a one-second burst decided that figure (0.09× to 11× the floor with the same code)
VOTE_GAMES = [(GROUP_M88, M88_PLAYERS)] + [(str(881000 + k), [str(120001 + 1000 * k + i) for i in range(88)])
                                           for k in (1, 2)]
VOTE_KEYS = ["m88"] + [f"m88_r{k}" for k in (1, 2)]
M88_PLAYERS_2 = [str(50001 + i) for i in range(88)]
ROYALE_PLAYERS_2 = [str(60001 + i) for i in range(60)]
M88_PLAYERS_3 = [str(70001 + i) for i in range(88)]
ROYALE_PLAYERS_3 = [str(80001 + i) for i in range(60)]
# side by side: three trials, each a vote burst and a royale night at once in two games of their own,
# pooled as the solo figures are (one trial's vote p99 swung 0.23×–2.67× its solo figure);
# the *_3 set: the votes' games served by a second process (PostgreSQL)
SIDE_GAMES = [(GROUP_M88_2, M88_PLAYERS_2)] + [(str(882000 + k), [str(130001 + 1000 * k + i) for i in range(88)])
                                               for k in (1, 2)]
SIDE_KEYS = ["m88_2"] + [f"m88_2r{k}" for k in (1, 2)]
SIDE_ROYALES = [(GROUP_ROYALE_2, ROYALE_PLAYERS_2)] + [(str(884000 + k), [str(150001 + 1000 * k + i) for i in range(60)])
                                                       for k in (1, 2)]
SIDE_ROYALE_KEYS = ["royale_2"] + [f"royale_2r{k}" for k in (1, 2)]
SIDE_GAMES_3 = [(GROUP_M88_3, M88_PLAYERS_3)] + [(str(883000 + k), [str(140001 + 1000 * k + i) for i in range(88)])
                                                 for k in (1, 2)]
SIDE_ROYALES_3 = [(GROUP_ROYALE_3, ROYALE_PLAYERS_3)] + [(str(885000 + k), [str(160001 + 1000 * k + i) for i in range(60)])
                                                         for k in (1, 2)]
ACTIONS_PER_PLAYER = 20
# capacity: N royale nights and N voting mafia88 groups at once in one process, N = 1, 2, ... (a
# process of its own); night g's group and 60 players, voting group m's group and 88 players
CAPACITY_MAX = 24  # the largest N tried (a 2-core host passed 12)
CAPACITY_WARMUP, CAPACITY_TRIAL = 5.0, 15.0  # seconds of each N: warm-up (not counted), then measured
CAPACITY_P99 = 0.100  # the bar every answer's p99 must stay under
ACTION_EVERY = 5.0  # each night player sends one action every 5 s on the clock: 12 a second a night
# a night player's actions after /出生, round and round: a search every 40 s (searches must be 30 s
# apart), two moves, /背包 otherwise; 3 paid actions in 40 s, while stamina lasts (100 = 20 of them)
NIGHT_CYCLE = ("search", "bag", "move", "bag", "bag", "move", "bag", "bag")


def capacity_night(g: int) -> tuple[str, list[str]]:
    return str(890000 + g), [str(5_000_000 + 1000 * g + i) for i in range(60)]


def capacity_voters(m: int) -> tuple[str, list[str]]:
    return str(891000 + m), [str(6_000_000 + 1000 * m + i) for i in range(88)]


FIGURES = ("votes", "night", "side", "start", "capacity", "pg", "games")  # what --only can select

UNPACED = {"GAMEHOST__SEND_INTERVAL": "0", "GAMEHOST__SEND_JITTER": "0", "GAMEHOST__GROUP_SEND_INTERVAL": "0"}
PACE_PRIVATE, PACE_JITTER, PACE_GROUP = 0.2, 0.05, 0.6
PACED = {"GAMEHOST__SEND_INTERVAL": str(PACE_PRIVATE), "GAMEHOST__SEND_JITTER": str(PACE_JITTER), "GAMEHOST__GROUP_SEND_INTERVAL": str(PACE_GROUP)}


SENTENCE = "第{n}段里我沿着河岸慢慢走过看见远山的灯火一盏一盏亮起来"


def essay(chars: int, salt: str) -> str:
    """Simplified Chinese without repeated sentences, at least ``chars`` characters
    (the tests' generator): a 报道 that passes the word count."""
    parts, total, n = [], 0, 0
    while total < chars:
        part = salt + SENTENCE.format(n=n) + "。"
        parts.append(part)
        total += len(part)
        n += 1
    return "".join(parts)


class Skip(Exception):
    """A figure that cannot be measured now (e.g. a game plugin not installed)."""


# ---- small helpers -------------------------------------------------------------


def pct(values: list[float], p: float) -> float:
    """Nearest-rank percentile (p99 of 88 samples is the slowest one)."""
    s = sorted(values)
    return s[max(0, math.ceil(p / 100 * len(s)) - 1)]


def ms(x: float) -> str:
    x *= 1000
    return f"{x:.1f} ms" if x < 100 else f"{x:.0f} ms"


def ratio(a: float, b: float) -> str:
    if b <= 0:
        return "n/a"
    r = a / b
    return f"{r:.2f}×" if r < 1 else f"{r:.1f}×"


class Load:
    """CPU used by other processes (other engineers' tests, ...) while a figure runs:
    all busy CPU time of the machine minus this driver, the bot and finished children."""

    def __init__(self, *bot_pids: int | None, logs: tuple[Path, ...] = ()):
        self.pids = [p for p in bot_pids if p]
        self.t0, self.busy0, self.own0 = time.monotonic(), self._busy(), self._own()
        self.logs = {f: f.stat().st_size if f.exists() else 0 for f in logs}  # the bots' logs: where they are now

    def stalls(self) -> str:
        """The commits the bot logged as slow (over 100 ms: the disk's; on PostgreSQL a write's round
        trip) while the figure ran."""
        if not self.logs:
            return ""
        took: list[int] = []
        for log, start in self.logs.items():
            if log.exists():
                with open(log, "rb") as fh:
                    fh.seek(start)
                    took += [int(m) for m in re.findall(rb"(?:SQLite: a commit|PostgreSQL: a write) took (\d+) ms", fh.read())]
        if not took:
            return "; disk: no commit over 100 ms"
        return f"; disk: {len(took)} commit{'s' if len(took) > 1 else ''} over 100 ms (longest {max(took)} ms)"

    @staticmethod
    def _busy() -> float:
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:9]]
        user, nice, system, _idle, _iowait, irq, softirq, steal = v
        return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")

    def _own(self) -> float:
        import resource

        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.process_time() + kids.ru_utime + kids.ru_stime + sum(process_cpu(pid) for pid in self.pids)

    def other(self) -> float:
        """Average number of CPUs busy with other processes since the start."""
        wall = time.monotonic() - self.t0
        return max(0.0, (self._busy() - self.busy0) - (self._own() - self.own0)) / wall if wall > 0 else 0.0


def process_cpu(pid: int | None) -> float:
    """CPU seconds (user + system) a process has used so far; 0 when it cannot be read."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            f = fh.read().rsplit(")", 1)[1].split()
        return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError, TypeError):
        return 0.0


class Db:
    """Read-only look at the bot's SQLite file (WAL: reading never blocks the bot)."""

    def __init__(self, path: Path):
        self.path = path
        self._con: sqlite3.Connection | None = None

    def q(self, sql: str, *args: object) -> list[tuple]:
        if self._con is None:
            self._con = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=10)
        return self._con.execute(sql, args).fetchall()

    def one(self, sql: str, *args: object):
        rows = self.q(sql, *args)
        return rows[0][0] if rows else None

    def close(self) -> None:
        if self._con is not None:
            self._con.close()
            self._con = None

    def game_id(self, group: str) -> int:
        gid = self.one("SELECT id FROM game WHERE group_id=? AND status IN ('signup','running','paused') "
                       "ORDER BY id DESC LIMIT 1", group)
        if gid is None:
            raise Skip(f"no live game in group {group}")
        return gid

    async def drained(self, timeout: float = 120) -> None:
        """Wait until the outbound queue has nothing pending."""
        deadline = time.monotonic() + timeout
        while self.one("SELECT count(*) FROM outbox WHERE status='pending'"):
            if time.monotonic() > deadline:
                raise TimeoutError("outbound queue never drained")
            await asyncio.sleep(0.05)


class PgDb(Db):
    """The same read-only look at a PostgreSQL database (asyncpg on a thread of its own,
    so the bench's polling stays synchronous like the SQLite one)."""

    def __init__(self, url: str):
        import threading

        self.url = url
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._pg = None

    def q(self, sql: str, *args: object) -> list[tuple]:
        import asyncpg

        n = 0

        def dollar(_m: object) -> str:
            nonlocal n
            n += 1
            return f"${n}"

        import re as _re

        sql = _re.sub(r"\?", dollar, sql.replace("length(CAST(state AS BLOB))", "octet_length(state::text)"))

        async def run() -> list[tuple]:
            if self._pg is None:
                self._pg = await asyncpg.connect(self.url)
            return [tuple(r) for r in await self._pg.fetch(sql, *args)]

        return asyncio.run_coroutine_threadsafe(run(), self._loop).result(30)

    def close(self) -> None:
        if self._pg is not None:
            asyncio.run_coroutine_threadsafe(self._pg.close(), self._loop).result(10)
            self._pg = None


class Bench:
    def __init__(self, work: Path, database_url: str | None = None):
        self.work = work
        self.db_path = work / "bot.sqlite3"
        self.database_url = database_url
        self.db: Db = PgDb(database_url) if database_url else Db(self.db_path)
        self.bot: BotProcess | None = None
        self.ob: TimedOneBot | None = None
        self.floors: dict[str, float] = {}

    async def up(self, env: dict[str, str]) -> TimedOneBot:
        env = {
            "ENVIRONMENT": "prod", "EXTRA_PLUGINS": "", "LOG_LEVEL": "INFO", "ONEBOT_ACCESS_TOKEN": "",
            "SUPERUSERS": '["10000"]', "GAMEHOST__SEND_MAX_ATTEMPTS": "5", "GAMEHOST__SEND_PAUSE_AFTER": "5", **env,
            **({"GAMEHOST__DATABASE_URL": self.database_url} if self.database_url else {}),
        }
        self.bot = BotProcess(self.db_path, env=env, log=self.work / "bot.log")
        self.bot.start()
        self.ob = TimedOneBot(self.bot.url)
        await self.ob.connect(timeout=60)
        await asyncio.sleep(0.5)  # let start-up (migrations, re-arming) settle
        return self.ob

    async def down(self) -> None:
        if self.ob is not None:
            await self.ob.close()
            self.ob = None
        if self.bot is not None:
            self.bot.stop()
            self.bot = None
        self.db.close()

    def cpu(self) -> float:
        """CPU seconds the serving bot process has used so far."""
        return process_cpu(self.bot.proc.pid if self.bot is not None else None)

    # ---- set-up through chat, like players would ------------------------------

    async def create(self, group: str, host: str, game: str) -> int:
        ob = self.ob
        assert ob is not None
        seen: list[str] = []

        def first_answer(s: str) -> bool:
            if "开局了" in s or s.startswith(f"u{host}："):
                seen.append(s)
                return True
            return False

        fut = ob.expect("group", group, first_answer)
        await ob.send_group(group, host, f"/创建 {game}", role="owner")
        await asyncio.wait_for(fut, 30)
        text = seen[0]
        if "开局了" not in text:
            raise Skip(f"/创建 {game} answered: {text}")
        return self.db.game_id(group)

    async def set_up(self, games: list[tuple[str, list[str]]], game: str) -> list[tuple[str, list[str], int]]:
        """Each (group, players) created and brought to where it is measured: mafia88 ("88人场") to
        round 1 after the reports, royale ("大逃杀") to night 1; (group, players, game id) each."""
        made = []
        for group, users in games:
            if game == "88人场":
                gid = await self.create(group, HOST_M88, game)
                await self.m88_round1(group, HOST_M88, users, gid)
            else:
                gid = await self.create(group, HOST_ROYALE, game)
                await self.royale_night1(group, HOST_ROYALE, users, gid)
            made.append((group, users, gid))
        return made

    async def signup_private(self, group: str, users: list[str]) -> None:
        ob = self.ob
        assert ob is not None
        lat = await asyncio.gather(*(ob.ask_private(u, f"/报名 {group} 马甲{u}") for u in users))
        assert len(lat) == len(users)

    async def signup_group(self, group: str, users: list[str]) -> None:
        ob = self.ob
        assert ob is not None
        await asyncio.gather(*(ob.ask_group(group, u, f"/报名 马甲{u}") for u in users))

    async def start(self, group: str, host: str, gid: int) -> None:
        ob = self.ob
        assert ob is not None
        await ob.send_group(group, host, "/开始", role="owner")
        await self._logged(gid, "start")
        await self.db.drained()

    async def m88_round1(self, group: str, host: str, users: list[str], gid: int) -> None:
        """Private sign-ups, /开始, and every player's 报道 (>= 301 characters): round 1 as
        in a real game, the state every command loads and saves that big."""
        ob = self.ob
        assert ob is not None
        await self.signup_private(group, users)
        await self.start(group, host, gid)
        await asyncio.gather(*(ob.ask_private(u, f"/报道 {essay(330, u)}", lambda s: "报道已统计" in s) for u in users))
        await self.db.drained()

    async def royale_night1(self, group: str, host: str, users: list[str], gid: int) -> None:
        """Group sign-ups, /开始, and /推进 into night 1."""
        ob = self.ob
        assert ob is not None
        await self.signup_group(group, users)
        await self.start(group, host, gid)
        fut = ob.expect("group", group, lambda s: "夜" in s and "开始" in s)
        await ob.send_group(group, host, "/推进", role="owner")
        await asyncio.wait_for(fut, 30)
        await self.db.drained()

    async def extend(self, group: str, host: str, minutes: int) -> None:
        """/延时: the host moves the current phase's deadline ``minutes`` later."""
        ob = self.ob
        assert ob is not None
        fut = ob.expect("group", group, lambda s: "截止时间调整为" in s)
        await ob.send_group(group, host, f"/延时 {minutes}", role="owner")
        await asyncio.wait_for(fut, 30)
        await self.db.drained()

    async def _logged(self, gid: int, name: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not self.db.one("SELECT count(*) FROM command_log WHERE game_id=? AND name=?", gid, name):
            if time.monotonic() > deadline:
                raise TimeoutError(f"command {name} never logged")
            await asyncio.sleep(0.05)

    # ---- load shapes ---------------------------------------------------------

    async def private_burst(self, users: list[str], text_for, pred=None, spread: float = 1.0):
        """Each user sends once by private message (88人场 votes are private: aliases are
        secret), sends evenly spread over ``spread`` seconds (open loop). Returns
        (latencies, wall from first send to last reply)."""
        ob = self.ob
        assert ob is not None
        futs: list[tuple[float, asyncio.Future[float]]] = []
        begin = time.perf_counter()
        for i, u in enumerate(users):
            delay = begin + spread * i / len(users) - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            fut = ob.expect("private", u, lambda s: pred is None or pred(s))
            futs.append((await ob.send_private(u, text_for(i, u)), fut))
        done = [await asyncio.wait_for(f, 300) for _, f in futs]
        lat = [d - t for (t, _), d in zip(futs, done)]
        return lat, max(done) - futs[0][0]

    async def closed_loop(self, scripts: dict[str, list[str]]):
        """Every user sends its script by private message, each line as soon as the
        reply to the previous one arrived. Returns (latencies, wall)."""
        ob = self.ob
        assert ob is not None
        lat: list[float] = []

        async def player(u: str, lines: list[str]) -> None:
            for line in lines:
                lat.append(await ob.ask_private(u, line))

        begin = time.perf_counter()
        await asyncio.gather(*(player(u, lines) for u, lines in scripts.items()))
        return lat, time.perf_counter() - begin

    def replies_per_user(self, since: float, users: list[str]) -> dict[str, int]:
        assert self.ob is not None
        want = set(users)
        counts = dict.fromkeys(users, 0)
        for t, kind, target, _ in self.ob.received:
            if t >= since and kind == "private" and target in want:
                counts[target] += 1
        return counts


# ---- the figures -----------------------------------------------------------------


async def votes(b: Bench, group: str, gid: int, users: list[str], floor: bool = True) -> dict:
    """The floor burst (the same users send /在吗 with the same spread, unless ``floor`` is
    False), then every user sends /投票 once, evenly spread over one second."""
    n = len(users)
    out: dict = {}
    await b.db.drained()
    if floor:
        cpu = b.cpu()
        out["f_lat"], out["f_wall"] = await b.private_burst(users, lambda i, u: "/在吗", lambda s: "在。" in s)
        await b.db.drained()
        out["f_cpu"] = (b.cpu() - cpu) / n
    cpu = b.cpu()
    before = b.db.one("SELECT coalesce(max(seq),0) FROM command_log WHERE game_id=?", gid)
    sql = "SELECT count(*) FROM command_log WHERE game_id=? AND name='vote' AND seq>?"
    begin = time.perf_counter()

    async def poll_counted() -> float:  # when the last vote's transaction is visible
        while (b.db.one(sql, gid, before) or 0) < n:
            await asyncio.sleep(0.002)
        return time.perf_counter() - begin

    poller = asyncio.create_task(poll_counted())
    out["lat"], out["wall"] = await b.private_burst(users, lambda i, u: f"/投票 {(i + 1) % n + 1}",
                                                    lambda s: "已投票" in s)
    out["counted_after"] = await asyncio.wait_for(poller, 30)
    await b.db.drained()
    out["cpu"] = (b.cpu() - cpu) / n
    rows = b.db.q("SELECT user_id FROM command_log WHERE game_id=? AND name='vote' AND seq>? ORDER BY seq", gid, before)
    out["counted"] = [r[0] for r in rows]
    state = json.loads(b.db.one("SELECT state FROM game WHERE id=?", gid))
    ballots = sorted(state["rounds"][str(state["round"])]["ballots"], key=lambda x: x["n"])
    seat_user = {int(p[0]): p[1] for p in b.db.q("SELECT seat, user_id FROM player WHERE game_id=?", gid)}
    out["order_ok"] = out["counted"] == users and [seat_user[x["voter"]] for x in ballots] == users
    return out


async def vote_burst(b: Bench, games: list[tuple[str, list[str], int]]) -> str:
    """In each game: 88 distinct players each send /投票 by private message within one second,
    right after the floor (the same 88 players send /在吗 privately with the same spread). The
    figures pool the bursts (p99 of 264 votes: the third slowest); each burst's own p99 is shown."""
    runs = [await votes(b, group, gid, users) for group, users, gid in games]
    lat = [x for r in runs for x in r["lat"]]
    f_lat = [x for r in runs for x in r["f_lat"]]
    n = len(lat)
    b.floors["group_p50"] = statistics.median(f_lat)
    b.floors["votes_counted_after"] = statistics.median(r["counted_after"] for r in runs)
    b.floors["vote_p99"] = pct(lat, 99)
    p50, p99, f50, f99 = statistics.median(lat), pct(lat, 99), statistics.median(f_lat), pct(f_lat, 99)
    tput, f_tput = n / sum(r["wall"] for r in runs), n / sum(r["f_wall"] for r in runs)
    each = ", ".join(f"{pct(r['lat'], 99) * 1000:.1f}/{pct(r['f_lat'], 99) * 1000:.1f}" for r in runs)
    gid = games[0][2]
    size = b.db.one("SELECT length(CAST(state AS BLOB)) FROM game WHERE id=?", gid) or 0
    state = json.loads(b.db.one("SELECT state FROM game WHERE id=?", gid))
    reports = sum(1 for p in state["players"].values() if (p.get("report") or {}).get("ok"))
    counted = sum(len(r["counted"]) for r in runs)
    return (f"vote burst ({len(runs)} bursts of 88 private /投票 in 1 s, each in a game of its own right after its floor, "
            f"round 1 after {reports} valid reports: game state {size / 1024:.0f} KiB; queue unpaced SEND_INTERVAL=0): "
            f"{n} votes: p50 {ms(p50)} ({ratio(p50, f50)} floor {ms(f50)}), p99 {ms(p99)} ({ratio(p99, f99)} floor {ms(f99)}); "
            f"each burst's p99 votes/floor {each} ms; "
            f"{tput:.0f} cmd/s ({tput / f_tput:.2f}× floor {f_tput:.0f} cmd/s; first send to last reply), "
            f"bot CPU {ms(statistics.mean(r['cpu'] for r in runs))} per vote ({ms(statistics.mean(r['f_cpu'] for r in runs))} per /在吗, "
            f"its queue's marks included), "
            f"{counted}/{n} counted (the last one of a burst {max(r['counted_after'] for r in runs):.2f} s after its first send "
            f"at most), order {'ok' if all(r['order_ok'] for r in runs) else 'WRONG'}")


async def vote_burst_paced(b: Bench, gid: int) -> str:
    """The same burst in the paced bot: group replies leave at the production group pace."""
    n = len(START_PLAYERS)
    r = await votes(b, GROUP_START, gid, START_PLAYERS, floor=False)
    lat = r["lat"]
    unpaced = b.floors.get("votes_counted_after")
    vs = f" (unpaced bot: {unpaced:.2f} s)" if unpaced else ""
    return (f"vote burst at the production pace (private confirmations paced; 88 private /投票 in 1 s): "
            f"all {len(r['counted'])}/{n} counted {r['counted_after']:.2f} s after the first send{vs}, "
            f"order {'ok' if r['order_ok'] else 'WRONG'}; the replies wait for the pace: p50 {statistics.median(lat):.1f} s, "
            f"last {max(lat):.1f} s (private confirmations leave one by one at the private pace)")


@functools.cache
def royale_world() -> dict:
    """The royale's world settings (places, stamina, costs) as the game ships them."""
    return tomllib.loads((ROOT / "plugins" / "royale" / "content" / "world.toml").read_text("utf-8"))


def night_places(state: dict) -> list[str]:
    """The places open all night (not closed, not closing at its end), one word each."""
    shut = set(state.get("closing") or []) | set(state.get("closed") or [])
    return [p for p in royale_world()["places"]["names"] if p not in shut and " " not in p]


def royale_scripts(state: dict) -> dict[str, list[str]]:
    places = night_places(state)
    scripts = {}
    for i, u in enumerate(ROYALE_PLAYERS):
        home = i % len(places)
        lines = [f"/出生 {places[home]}", "/搜索"]
        for k in range(1, (ACTIONS_PER_PLAYER - 2) // 2 + 1):
            lines += [f"/移动 {places[(home + k) % len(places)]}", "/背包"]
        scripts[u] = lines[:ACTIONS_PER_PLAYER]
    return scripts


async def royale_night(b: Bench, gid: int) -> str:
    """60 players each send 20 night actions by private message, each as soon as the
    previous one is answered; the floor: the same 60 × 20 shape with /在吗."""
    users = ROYALE_PLAYERS
    await b.db.drained()
    t, cpu = time.perf_counter(), b.cpu()
    f_lat, f_wall = await b.closed_loop({u: ["/在吗"] * ACTIONS_PER_PLAYER for u in users})
    f_cpu = b.cpu() - cpu
    f_extra = sum(b.replies_per_user(t, users).values()) - len(f_lat)
    await b.db.drained()
    state = json.loads(b.db.one("SELECT state FROM game WHERE id=?", gid))
    if state.get("phase") != "night":
        raise Skip(f"royale is not in a night (phase {state.get('phase')!r})")
    before = b.db.one("SELECT coalesce(max(seq),0) FROM command_log WHERE game_id=?", gid)
    scripts = royale_scripts(state)
    t, cpu = time.perf_counter(), b.cpu()
    lat, wall = await b.closed_loop(scripts)
    r_cpu = b.cpu() - cpu
    await b.db.drained()
    extra = sum(b.replies_per_user(t, users).values()) - len(lat)
    logged = b.db.one("SELECT count(*) FROM command_log WHERE game_id=? AND seq>? AND source='private'", gid, before)
    reads = sum(1 for lines in scripts.values() for line in lines if line.startswith("/背包"))  # read-only: not logged
    accepted = logged + reads
    n = len(lat)
    p50, p99, f50, f99 = statistics.median(lat), pct(lat, 99), statistics.median(f_lat), pct(f_lat, 99)
    b.floors["royale_p99"] = p99
    tput, f_tput = n / wall, len(f_lat) / f_wall
    note = "" if extra == 0 and f_extra == 0 else f", WARNING {extra}/{f_extra} unmatched extra replies"
    return (f"royale night (60 players × 20 private actions, each sent when the last is answered; queue unpaced): "
            f"p50 {ms(p50)} ({ratio(p50, f50)} floor {ms(f50)}), p99 {ms(p99)} ({ratio(p99, f99)} floor {ms(f99)}), "
            f"{tput:.0f} actions/s ({tput / f_tput:.2f}× floor {f_tput:.0f}/s), {n} in {wall:.1f} s, "
            f"bot CPU {ms(r_cpu / n)} per action, busy {r_cpu / wall:.2f} of a CPU (floor {ms(f_cpu / len(f_lat))}, "
            f"{f_cpu / f_wall:.2f}), "
            f"{accepted}/{n} accepted by the engine ({logged} logged actions + {reads} read-only /背包){note}")


async def side_by_side(b: Bench, pairs: list[tuple[tuple[str, list[str], int], tuple[str, list[str], int]]],
                       vb: Bench | None = None, solo: dict[str, float] | None = None) -> str:
    """The vote burst and the royale night at the same time, in two groups of two fresh games, in
    three trials (a pair of games each), pooled as the solo figures are; each against its own solo
    figure of this run (games never wait for each other). With ``vb``, the votes' games are served
    by another bot process (``vb``'s) and every event reaches both processes, as NapCat does with
    two reverse WebSocket clients."""
    vb = vb or b
    bots = [b] if vb is b else [b, vb]  # the serving processes, whose CPU is counted
    if vb is not b:
        assert b.ob is not None and vb.ob is not None
        b.ob.mirrors, vb.ob.mirrors = [vb.ob], [b.ob]
    trials = []
    try:
        for (_, voters, _m), (_, players, royale) in pairs:
            await b.db.drained()
            state = json.loads(b.db.one("SELECT state FROM game WHERE id=?", royale))
            scripts = {u2: lines for u2, lines in zip(players, royale_scripts(state).values())}
            n = len(voters)
            begin, cpu, own = time.perf_counter(), sum(x.cpu() for x in bots), time.process_time()
            (vlat, vwall), (rlat, rwall) = await asyncio.gather(
                vb.private_burst(voters, lambda i, u, n=n: f"/投票 {(i + 1) % n + 1}", lambda s: "已投票" in s),
                b.closed_loop(scripts),
            )
            took = time.perf_counter() - begin
            busy = (sum(x.cpu() for x in bots) - cpu) / took
            trials.append((vlat, rlat, vwall, rwall, took, busy, (time.process_time() - own) / took))
    finally:
        if b.ob is not None and vb.ob is not None:
            b.ob.mirrors, vb.ob.mirrors = [], []
    vlat = [x for t in trials for x in t[0]]
    rlat = [x for t in trials for x in t[1]]
    floors = solo if solo is not None else b.floors
    solo_v, solo_r = floors.get("vote_p99"), floors.get("royale_p99")
    v99, r99 = pct(vlat, 99), pct(rlat, 99)
    vs_v = f" ({v99 / solo_v:.2f}× solo {ms(solo_v)})" if solo_v else ""
    vs_r = f" ({r99 / solo_r:.2f}× solo {ms(solo_r)})" if solo_r else ""
    each = ", ".join(f"{pct(t[0], 99) * 1000:.1f}/{pct(t[1], 99) * 1000:.0f}" for t in trials)
    walls = ", ".join(f"{t[4]:.1f}" for t in trials)
    return (f"side by side ({len(trials)} trials, each the 88 private /投票 burst and a 60 × 20 royale night at once in two "
            f"groups of their own; pooled): {len(vlat)} votes p50 {ms(statistics.median(vlat))}, p99 {ms(v99)}{vs_v}; "
            f"{len(rlat)} night actions p50 {ms(statistics.median(rlat))}, p99 {ms(r99)}{vs_r}; each trial's p99 "
            f"votes/night {each} ms; each trial done in {walls} s (votes {max(t[2] for t in trials):.1f} s at most); "
            f"bot{'s' * (len(bots) > 1)} busy {statistics.mean(t[5] for t in trials):.2f} CPU{'s' * (len(bots) > 1)} meanwhile, "
            f"the driver (this process: the fake OneBot and the players) {statistics.mean(t[6] for t in trials):.2f}")


async def game_start(b: Bench, gids: list[int]) -> str:
    """/开始 of 88-player mafia88 games in a paced bot: time until the 88 role messages
    are rows of the outbound queue (one sample per game: the median of the games), then
    the pace at which they leave."""
    ob, db = b.ob, b.db
    assert ob is not None
    # floor: one private /在吗 until its reply row is in the queue (same polling), ×10
    floor: list[float] = []
    for _ in range(10):
        base = db.one("SELECT coalesce(max(id),0) FROM outbox")
        sent = ob.expect("private", START_PLAYERS[0], lambda s: s == "在。")
        t0 = await ob.send_private(START_PLAYERS[0], "/在吗")
        while not db.one("SELECT count(*) FROM outbox WHERE id>? AND target_id=?", base, START_PLAYERS[0]):
            await asyncio.sleep(0.001)
        floor.append(time.perf_counter() - t0)
        await asyncio.wait_for(sent, 30)
    await db.drained()
    f50 = statistics.median(floor)
    handed: list[float] = []
    for gid, (group, users) in zip(gids, STARTS):
        # the 88th sign-up reaches this freshly started process, as a host starts when the table
        # is full: the game is then held in memory as in a bot that took the sign-ups
        await b.signup_private(group, users[-1:])
        await db.drained()
        base = db.one("SELECT coalesce(max(id),0) FROM outbox")
        players = set(users)
        t0 = await ob.send_group(group, HOST_START, "/开始", role="owner")
        sql = ("SELECT count(*) FROM outbox WHERE id>? AND game_id=? AND target_type='private' "
               "AND target_id IN (SELECT user_id FROM player WHERE game_id=?)")
        deadline = time.monotonic() + 120
        while (db.one(sql, base, gid, gid) or 0) < len(players):
            if time.monotonic() > deadline:
                raise TimeoutError("role messages never reached the queue")
            await asyncio.sleep(0.001)
        handed.append(time.perf_counter() - t0)
        rows = db.one("SELECT count(*) FROM outbox WHERE id>?", base)
        # wait until every role message was sent
        deadline = time.monotonic() + len(players) * (PACE_PRIVATE + PACE_JITTER) * 2 + 60
        while sum(1 for t, k, g, _ in ob.received if t >= t0 and k == "private" and g in players) < len(players):
            if time.monotonic() > deadline:
                raise TimeoutError("role messages never all sent")
            await asyncio.sleep(0.05)
        await db.drained()
    priv = sorted(t for t, k, _, _ in ob.received if t >= t0 and k == "private")
    grp = sorted(t for t, k, _, _ in ob.received if t >= t0 and k == "group")
    role_times = sorted(t for t, k, g, _ in ob.received if t >= t0 and k == "private" and g in players)
    gaps = [b_ - a for a, b_ in itertools.pairwise(priv)]
    pace = (priv[-1] - priv[0]) / (len(priv) - 1)
    gpace = f", group {(grp[-1] - grp[0]) / (len(grp) - 1):.3f} s vs {PACE_GROUP} s ({len(grp)} msgs)" if len(grp) > 1 else ""
    h50 = statistics.median(handed)
    each = " / ".join(ms(h) for h in handed)
    return (f"mafia88 start (88 players, /开始 after the 88th sign-up; {len(handed)} games): 88 role messages in the "
            f"outbound queue {ms(h50)} after /开始, median of {each} ({ratio(h50, f50)} floor {ms(f50)}: one /在吗 "
            f"reply row), {rows} rows in one transaction; "
            f"queue SEND_INTERVAL={PACE_PRIVATE}±{PACE_JITTER}: private pace {pace:.3f} s/msg vs {PACE_PRIVATE} s "
            f"configured ({pace / PACE_PRIVATE:.2f}×; gaps {min(gaps):.3f}–{max(gaps):.3f} s, {len(priv)} msgs){gpace}; "
            f"first role message sent {ms(role_times[0] - t0)}, last {role_times[-1] - t0:.1f} s after /开始 (last game)")


# ---- capacity: how many games one process serves at once -------------------------


def rss_mib(pid: int) -> float:
    """A process's resident memory now (VmRSS in /proc/<pid>/status), MiB."""
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise OSError(f"no VmRSS for process {pid}")


def keep_text(box: list[str]) -> Callable[[str], bool]:
    """A predicate matching any message, keeping its text in ``box``."""
    def pred(s: str) -> bool:
        box.append(s)
        return True
    return pred


class NightPlayer:
    """A royale player of the capacity figure: /出生 first, then NIGHT_CYCLE from ``step`` on (the players
    of a night start at different steps: every few seconds the same mix), one step per action.
    A paid action (a move or a search) the player has no stamina left for, or a search sooner than
    the interval (and a margin) after the last, becomes a /背包: every action is one the engine takes."""

    def __init__(self, places: list[str], home: int, step: int):
        rules = royale_world()["rules"]
        self.places, self.at, self.st = places, home, rules["max_stamina"]
        self.cost = {"move": rules["move_cost"], "search": rules["search_cost"]}
        self.gap = rules["search_interval_s"] + 5  # the bot's clock runs from arrival, not from the send
        self.born, self.step, self.searched = False, step, -math.inf

    def next(self, now: float) -> tuple[str, bool]:
        """The action to send at ``now`` (perf_counter) and whether the game logs it (a write)."""
        if not self.born:
            self.born = True
            return f"/出生 {self.places[self.at]}", True
        kind = NIGHT_CYCLE[self.step % len(NIGHT_CYCLE)]
        self.step += 1
        if kind == "search" and now - self.searched >= self.gap and self.st >= self.cost["search"]:
            self.searched, self.st = now, self.st - self.cost["search"]
            return "/搜索", True
        if kind == "move" and self.st >= self.cost["move"]:
            self.at, self.st = (self.at + 1) % len(self.places), self.st - self.cost["move"]
            return f"/移动 {self.places[self.at]}", True
        return "/背包", False

    def heard(self, text: str) -> None:
        """A reply naming the stamina left (a move's, a search's): never count on more than that."""
        m = re.search(r"剩余体力 (\d+)", text)
        if m:
            self.st = min(self.st, int(m.group(1)))


Night = tuple[str, list[str], int, dict[str, NightPlayer]]  # group, players, game id, their nights


async def capacity_trial(b: Bench, nights: list[Night], voting: list[tuple[str, list[str], int]],
                         warmup: float, measured: float, rng: random.Random) -> dict:
    """One N: every night's players act on the clock, each one action every ACTION_EVERY s from a
    random phase, for ``warmup + measured`` s (open loop: nobody waits for an answer); each voting
    group's 88 players vote once in a 1-s burst, the groups' bursts evenly spread over the measured
    seconds. Latencies of what was sent in the measured seconds; refusals (a write the game did not
    log, a /背包 answered otherwise, a vote not counted) and answers that never came, of everything."""
    ob = b.ob
    assert ob is not None and b.bot is not None and b.bot.proc is not None
    pid = b.bot.proc.pid
    await b.db.drained()
    last_seq = "SELECT coalesce(max(seq),0) FROM command_log WHERE game_id=?"
    before = {gid: b.db.one(last_seq, gid) for _, _, gid, *_ in (*nights, *voting)}
    t0 = time.perf_counter() + 0.2
    t_measure, t_end = t0 + warmup, t0 + warmup + measured
    due = [(t0 + rng.uniform(0, ACTION_EVERY), g, u) for g, (_, users, _, _) in enumerate(nights) for u in users]
    heapq.heapify(due)
    # each night action: (due, sent, night, a write?, its answer's arrival, the answer's text)
    sent: list[tuple[float, float, int, bool, asyncio.Future[float], list[str]]] = []

    async def burst(k: int, users: list[str]) -> tuple[list[float], float]:
        start = t_measure + (k + 0.5) * measured / len(voting) - 0.5
        await asyncio.sleep(max(0.0, start - time.perf_counter()))
        return await b.private_burst(users, lambda i, u, n=len(users): f"/投票 {(i + 1) % n + 1}")

    async def meter() -> dict[str, float]:  # CPU over the measured seconds
        await asyncio.sleep(max(0.0, t_measure - time.perf_counter()))
        load, cpu, own, t = Load(pid), b.cpu(), time.process_time(), time.perf_counter()
        await asyncio.sleep(max(0.0, t_end - time.perf_counter()))
        wall = time.perf_counter() - t
        return {"bot": (b.cpu() - cpu) / wall, "driver": (time.process_time() - own) / wall, "others": load.other()}

    bursts = [asyncio.create_task(burst(k, users)) for k, (_, users, _) in enumerate(voting)]
    cpu = asyncio.create_task(meter())
    while due:
        t, g, u = heapq.heappop(due)
        delay = t - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        player = nights[g][3][u]
        line, write = player.next(t)
        box: list[str] = []
        fut = ob.expect("private", u, keep_text(box), whole=True)
        fut.add_done_callback(lambda _f, p=player, box=box: p.heard(box[0]) if box else None)
        sent.append((t, await ob.send_private(u, line), g, write, fut, box))
        if t + ACTION_EVERY < t_end:
            heapq.heappush(due, (t + ACTION_EVERY, g, u))
    await asyncio.wait([s[4] for s in sent] + bursts, timeout=30)  # the answers still on their way
    unanswered = sum(1 for s in sent if not s[4].done()) + sum(len(voting[k][1]) for k, t in enumerate(bursts) if not t.done())
    for f in [s[4] for s in sent] + bursts:
        f.cancel()
    use = await cpu
    await b.db.drained()
    logged = [b.db.one("SELECT count(*) FROM command_log WHERE game_id=? AND seq>? AND source='private'", gid, before[gid])
              for _, _, gid, _ in nights]
    writes = [sum(1 for s in sent if s[2] == g and s[3]) for g in range(len(nights))]
    bad_reads = [s[5][0] for s in sent if s[5] and not s[3] and "位置：" not in s[5][0]]  # a /背包 answered otherwise
    bad_writes = [s[5][0] for s in sent if s[5] and s[3] and not ("剩余体力" in s[5][0] or "出生在" in s[5][0])]
    counted = [b.db.one("SELECT count(*) FROM command_log WHERE game_id=? AND name='vote' AND seq>?", gid, before[gid])
               for _, _, gid in voting]
    night_lat = [s[4].result() - s[1] for s in sent if s[0] >= t_measure and s[4].done() and not s[4].cancelled()]
    vote_lat = [x for t in bursts if t.done() and not t.cancelled() for x in t.result()[0]]
    return {
        "n": len(nights), "night": night_lat, "votes": vote_lat, "actions": len(sent), "writes": sum(writes),
        "logged": sum(logged), "refused": sum(max(0, w - n) for w, n in zip(writes, logged)) + len(bad_reads)
        + sum(len(users) - c for (_, users, _), c in zip(voting, counted)),
        "odd": (bad_writes + bad_reads)[:1], "voted": sum(len(users) for _, users, _ in voting), "counted": sum(counted),
        "unanswered": unanswered, "late": pct([s[1] - s[0] for s in sent if s[0] >= t_measure], 99), **use,
    }


def capacity_ok(r: dict) -> bool:
    return (not r["unanswered"] and bool(r["night"]) and bool(r["votes"])
            and pct(r["night"], 99) <= CAPACITY_P99 and pct(r["votes"], 99) <= CAPACITY_P99)


async def capacity(b: Bench, most: int, warmup: float, measured: float) -> str:
    """N = 1, 2, ...: one more royale night (to night 1, its deadline an hour later with /延时) and N
    fresh mafia88 groups (round 1 after the 88 reports: a ballot is final once cast, so a group votes
    once), set up through chat; then a trial (``capacity_trial``). Stops after the first N where a
    p99 passes 100 ms, or at ``most``. Memory: the bot's VmRSS before the first game and after the
    last trial, over the games held then (the groups of earlier trials, voted, stay held)."""
    assert b.bot is not None and b.bot.proc is not None
    pid = b.bot.proc.pid
    rng = random.Random(7)
    nights: list[Night] = []
    groups, trials = 0, []
    grew: dict[str, list[float]] = {"大逃杀": [], "88人场": []}  # VmRSS growth of each set-up step, MiB
    await b.db.drained()
    base, first = rss_mib(pid), 0.0
    load: Load | None = None
    for n in range(1, most + 1):
        r0 = rss_mib(pid)
        ((group, users, gid),) = await b.set_up([capacity_night(n)], "大逃杀")
        await b.extend(group, HOST_ROYALE, 60)  # the night outlasts the run
        places = night_places(json.loads(b.db.one("SELECT state FROM game WHERE id=?", gid)))
        nights.append((group, users, gid, {u: NightPlayer(places, (i + 7 * n) % len(places), i) for i, u in enumerate(users)}))
        r1 = rss_mib(pid)
        voting = await b.set_up([capacity_voters(groups + k) for k in range(n)], "88人场")
        groups += n
        r2 = rss_mib(pid)
        grew["大逃杀"].append(r1 - r0)
        grew["88人场"].append(r2 - r1)
        first = first or r2  # VmRSS with the first night and the first group
        load = load or Load(pid, logs=(b.bot.log,))
        trials.append(await capacity_trial(b, nights, voting, warmup, measured, rng))
        if not capacity_ok(trials[-1]):
            break
    end = rss_mib(pid)
    assert load is not None

    def p99(xs: list[float]) -> str:
        return "none" if not xs else f"{pct(xs, 99) * 1000:.1f}" if pct(xs, 99) < 0.1 else f"{pct(xs, 99) * 1000:.0f}"

    bar = ms(CAPACITY_P99)
    kept = len(trials) if capacity_ok(trials[-1]) else len(trials) - 1
    if kept == len(trials):
        verdict = f"N = {kept} (the cap: every p99 ≤ {bar} up to it; stopped there)"
    else:
        last = trials[-1]
        over = [name for what, name in (("night", "night actions"), ("votes", "votes"))
                if not last[what] or pct(last[what], 99) > CAPACITY_P99]
        why = (f"{last['unanswered']} answers never came" if last["unanswered"]
               else f"the p99 of the {' and of the '.join(over)} passed {bar}")
        verdict = f"N = {kept} (at N = {kept + 1} {why}; stopped there)"
    each = ", ".join(f"{r['n']}: {p99(r['night'])}/{p99(r['votes'])}" for r in trials)
    busy = ", ".join(f"{r['bot']:.2f}" for r in trials)
    others = ", ".join(f"{r['others']:.1f}" for r in trials)
    games = len(nights) + groups
    # the first night and the first group also bring their game's code and data (and the royale's map picture)
    later = f"the first night and group brought +{grew['大逃杀'][0]:.1f} and +{grew['88人场'][0]:.1f} MiB"
    if len(trials) > 1:
        later = (f"{(end - first) / (games - 2):.2f} MiB a game beyond the first night and group, which brought "
                 f"+{grew['大逃杀'][0]:.1f} and +{grew['88人场'][0]:.1f} MiB; set-ups +{sum(grew['大逃杀'][1:]) / (len(nights) - 1):.2f} "
                 f"MiB a night, +{sum(grew['88人场'][1:]) / (groups - 1):.2f} MiB a group")
    refused = sum(r["refused"] for r in trials)
    odd = next((r["odd"][0] for r in trials if r["odd"]), None)
    sample = f" (e.g. {odd[:60]!r})" if odd else ""
    actions, logged = sum(r["actions"] for r in trials), sum(r["logged"] for r in trials)
    writes = sum(r["writes"] for r in trials)
    last = trials[-1]
    line = (f"capacity (one process, N royale nights and N mafia88 groups voting at once, N = 1, 2, … each "
            f"{warmup:.0f} s of warm-up and {measured:.0f} s measured, until a p99 passes {bar}, at most N = {most}: a "
            f"night's 60 players each send one private action every {ACTION_EVERY:.0f} s on the clock (12 a second, open loop: "
            f"/出生, then a /搜索 every 40 s and two /移动 while stamina lasts, /背包 between), each group's 88 players their "
            f"/投票 in one 1-s burst (round 1 after the reports), the N bursts spread evenly over the trial, a group voting "
            f"once: a ballot is final, so each N votes in N fresh groups, the groups of earlier trials stay held; "
            f"queue unpaced): {verdict}; p99 night/votes at each N {each} ms; bot busy {busy} CPU at each N, other processes "
            f"{others}; memory {(end - base) / games:.2f} MiB per game held (VmRSS {base:.0f} MiB before the games, "
            f"{end:.0f} MiB after the last trial with {games} held: {len(nights)} royale, {groups} mafia88; {later}); {actions} night "
            f"actions ({writes} writes, {logged} logged by the games) and {sum(r['voted'] for r in trials)} votes "
            f"({sum(r['counted'] for r in trials)} counted): {refused} refused{sample}, "
            f"{sum(r['unanswered'] for r in trials)} unanswered; the driver (this process: the fake OneBot and the players) "
            f"{last['driver']:.2f} CPU at N = {last['n']}, its sends {ms(last['late'])} late at p99")
    return with_load(line, load)


async def capacity_figure(work: Path, most: int, warmup: float, measured: float) -> str:
    """The capacity figure in a bot process of its own, with a database of its own (no other
    figure's games held: its VmRSS before the games is the process with nothing to serve)."""
    folder = work / "capacity"
    folder.mkdir(exist_ok=True)
    cb = Bench(folder)
    try:
        await cb.up(UNPACED)
        return await capacity(cb, most, warmup, measured)
    except Exception as exc:
        return f"capacity: SKIPPED ({str(exc) if isinstance(exc, Skip) else f'{type(exc).__name__}: {exc}'})"[:300]
    finally:
        await cb.down()


def with_load(line: str, load: Load) -> str:
    return f"{line}; other processes {load.other():.1f} CPU{load.stalls()}"


def simulated_games(floor_p50: float | None, traced: bool) -> Iterator[str]:
    for game in ("mafia88", "royale", "prison", "league"):
        load = Load()
        cmd = [sys.executable, str(ROOT / "bench" / "sims.py"), game] + (["--tracemalloc"] if traced else [])
        p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=240, check=False)
        last = (p.stdout.strip().splitlines() or [""])[-1]
        try:
            r = json.loads(last)
        except json.JSONDecodeError:
            err = (p.stderr.strip().splitlines() or ["no output"])[-1]
            yield f"whole game {game} (in process): SKIPPED, the scripted game failed: {err[:200]}"
            continue
        per_call = r["wall"] / max(1, r["calls"])
        vs = f" = {ratio(per_call, floor_p50)} the /在吗 floor p50 {ms(floor_p50)}" if floor_p50 else ""
        runs = f", mean of {r['runs']}" if r["runs"] > 1 else ""
        mem = (f"peak RSS {r['rss_peak_kib'] / 1024:.0f} MiB (+{max(0, r['rss_peak_kib'] - r['rss_base_kib']) / 1024:.1f} MiB "
               f"over the {r['rss_base_kib'] / 1024:.0f} MiB of Python with NoneBot and the plugins loaded)")
        if "traced_peak" in r:
            mem += f", traced heap peak {r['traced_peak'] / 2**20:.1f} MiB"
        yield with_load(f"whole game {game} ({r['detail']}; in process, no WebSocket): wall {r['wall'] * 1000:.0f} ms{runs}, "
                      f"{r['calls']} engine calls, {ms(per_call)}/call{vs}; {mem}", load)



# ---- main ------------------------------------------------------------------------


def cpu_probe() -> float:
    """A fixed Python loop (median of 5, ms): a host's speed has moved by half within minutes with
    nothing else running, so runs are comparable only next to this figure."""
    xs = []
    for _ in range(5):
        t, acc = time.perf_counter(), 0
        for i in range(500_000):
            acc += i * i
        xs.append(time.perf_counter() - t)
    return statistics.median(xs) * 1000


def commit_probe(folder: Path, seconds: float = 3.0) -> str:
    """What one SQLite commit costs on this disk, with the bot's settings (WAL; Tortoise
    leaves synchronous at SQLite's default FULL: one fsync per commit), a commit every few
    milliseconds for ``seconds``: its tail too (this host's disk has stalled single commits for
    50-500 ms a few times a minute in some hours, and every figure's p99 with them)."""
    path = folder / "probe.sqlite3"
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL")
    sync = con.execute("PRAGMA synchronous").fetchone()[0]
    con.execute("CREATE TABLE t (x)")
    xs: list[float] = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        t = time.perf_counter()
        con.execute("BEGIN")
        con.execute("INSERT INTO t VALUES (?)", (len(xs),))
        con.execute("COMMIT")
        xs.append(time.perf_counter() - t)
        time.sleep(0.003)
    con.close()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    name = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}.get(sync, str(sync))
    slow = sum(1 for x in xs if x > 0.02)
    return (f"one SQLite commit on this disk (WAL, synchronous={name} as in the bot; {len(xs)} in {seconds:.0f} s) "
            f"p50 {ms(statistics.median(xs))}, p90 {ms(pct(xs, 90))}, p99 {ms(pct(xs, 99))}, max {ms(max(xs))}, "
            f"{slow} over 20 ms")


async def postgres_burst(work: Path) -> str:
    """The same vote burst (and its floor) with the bot on PostgreSQL (a database of its own)."""
    try:
        import asyncpg

        admin = "postgresql://postgres@127.0.0.1:5432/postgres"
        name = f"qqgames_bench_{os.getpid()}"
        con = await asyncpg.connect(admin)
        await con.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await con.execute(f'CREATE DATABASE "{name}"')
        await con.close()
    except Exception as exc:  # noqa: BLE001 - no PostgreSQL here: say so
        return f"vote burst on PostgreSQL: SKIPPED (no PostgreSQL on 127.0.0.1:5432: {type(exc).__name__})"
    pg = Bench(work / "pg", f"postgresql://postgres@127.0.0.1:5432/{name}")
    (work / "pg").mkdir(exist_ok=True)
    try:
        await pg.up(UNPACED)
        games = await pg.set_up(VOTE_GAMES, "88人场")
        load = Load(pg.bot.proc.pid, logs=(pg.bot.log,))
        burst = with_load((await vote_burst(pg, games)).replace("vote burst (", "vote burst on PostgreSQL (", 1), load)
        # side by side on PostgreSQL: a royale night in a game of its own, then both at once
        rid = await pg.create(GROUP_ROYALE, HOST_ROYALE, "大逃杀")
        await pg.royale_night1(GROUP_ROYALE, HOST_ROYALE, ROYALE_PLAYERS, rid)
        night = await royale_night(pg, rid)
        side = await pg.set_up(SIDE_GAMES, "88人场")
        nights = await pg.set_up(SIDE_ROYALES, "大逃杀")
        load = Load(pg.bot.proc.pid, logs=(pg.bot.log,))
        both = with_load((await side_by_side(pg, list(zip(side, nights)))).replace(
            "side by side (", "side by side on PostgreSQL (", 1), load)
        lines = [burst, night.replace("royale night (", "royale night on PostgreSQL (", 1), both]
        # two bot processes on the one database, each serving one of the two games
        (work / "pg2").mkdir(exist_ok=True)
        pg2 = Bench(work / "pg2", pg.database_url)
        try:
            await pg2.up(UNPACED)
            side3 = [(group, users, await pg2.create(group, HOST_M88, "88人场"))  # created through process 2: it serves them
                     for group, users in SIDE_GAMES_3]
            nights3 = [(group, users, await pg.create(group, HOST_ROYALE, "大逃杀")) for group, users in SIDE_ROYALES_3]
            # from here on every event reaches both processes, as NapCat does with two reverse
            # WebSocket clients: each sees the other game's sign-ups before the measured second
            assert pg.ob is not None and pg2.ob is not None
            pg.ob.mirrors, pg2.ob.mirrors = [pg2.ob], [pg.ob]
            for group, users, gid in side3:
                await pg2.m88_round1(group, HOST_M88, users, gid)
            for group, users, gid in nights3:
                await pg.royale_night1(group, HOST_ROYALE, users, gid)
            assert pg.bot is not None and pg2.bot is not None
            load = Load(pg.bot.proc.pid, pg2.bot.proc.pid, logs=(pg.bot.log, pg2.bot.log))
            two = await side_by_side(pg, list(zip(side3, nights3)), vb=pg2, solo=pg.floors)
            lines.append(with_load(two.replace("side by side (", "side by side, two processes on PostgreSQL (", 1), load))
        except Exception as exc:  # noqa: BLE001
            lines.append(f"side by side, two processes: SKIPPED ({type(exc).__name__}: {exc})"[:300])
        finally:
            await pg2.down()
        return "\n".join(lines)
    except Exception as exc:  # noqa: BLE001
        return f"vote burst on PostgreSQL: SKIPPED ({type(exc).__name__}: {exc})"[:300]
    finally:
        await pg.down()
        con = await asyncpg.connect(admin)
        await con.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await con.close()


def machine() -> str:
    with open("/proc/cpuinfo") as f:
        cpu = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")), "?")
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return (f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} CPU ({cpu}), "
            f"{mem:.0f} GiB RAM, Python {platform.python_version()}, {platform.system()} {platform.release()}")


async def run(args: argparse.Namespace) -> None:
    work = Path(tempfile.mkdtemp(prefix="qqgames-bench-"))
    b = Bench(work)
    print(f"# bench: {machine()}", flush=True)
    print(f"# bot.py on loopback, SQLite file and log under {work}", flush=True)
    print(f"# {commit_probe(work)}", flush=True)
    print(f"# CPU probe (a fixed Python loop, lower is faster): {cpu_probe():.0f} ms at the start", flush=True)
    began = time.perf_counter()
    whole = Load()
    ids: dict[str, int | None] = {**dict.fromkeys(VOTE_KEYS), "royale": None, **dict.fromkeys(START_KEYS),
                                  **dict.fromkeys(SIDE_KEYS), **dict.fromkeys(SIDE_ROYALE_KEYS)}
    why: dict[str, str] = {}

    def problem(exc: BaseException) -> str:
        return str(exc) if isinstance(exc, Skip) else f"{type(exc).__name__}: {exc}"[:300]

    def start_setup(group: str, users: list[str]):
        async def setup(gid: int) -> None:
            await b.signup_private(group, users[:-1])  # the 88th signs up with bot B (game_start)
            await b.db.drained()
        return setup

    def round1(group: str, users: list[str]):
        return lambda gid: b.m88_round1(group, HOST_M88, users, gid)

    def night1(group: str, users: list[str]):
        return lambda gid: b.royale_night1(group, HOST_ROYALE, users, gid)

    want = set(args.only)
    solo_votes, solo_night = bool(want & {"votes", "side"}), bool(want & {"night", "side"})  # side by side: ratios to them
    setups = (*((key, group, HOST_M88, "88人场", round1(group, users)) for key, (group, users) in zip(VOTE_KEYS, VOTE_GAMES)
                if solo_votes),
              *((("royale", GROUP_ROYALE, HOST_ROYALE, "大逃杀", night1(GROUP_ROYALE, ROYALE_PLAYERS)),) if solo_night else ()),
              *((key, group, HOST_START, "88人场", start_setup(group, users))
                for key, (group, users) in zip(START_KEYS, STARTS) if "start" in want),
              *((key, group, HOST_M88, "88人场", round1(group, users)) for key, (group, users) in zip(SIDE_KEYS, SIDE_GAMES)
                if "side" in want),
              *((key, group, HOST_ROYALE, "大逃杀", night1(group, users)) for key, (group, users) in zip(SIDE_ROYALE_KEYS, SIDE_ROYALES)
                if "side" in want))
    try:
        # ---- bot A: unpaced queue; set everything up through chat, then measure
        await b.up(UNPACED)
        for key, group, host, game, setup in setups:
            try:
                gid = await b.create(group, host, game)
                await setup(gid)
                ids[key] = gid
            except Exception as exc:  # noqa: BLE001 - a game being finished by someone else
                why[key] = f"{game} could not be set up: {problem(exc)}"
        print(f"# set-up through chat done in {time.perf_counter() - began:.1f} s", flush=True)

        vote_games = [(group, users, ids[key]) for key, (group, users) in zip(VOTE_KEYS, VOTE_GAMES) if ids[key]]
        for name, key, fn, arg, wanted in (("vote burst", "m88", vote_burst, vote_games, solo_votes),
                                           ("royale night", "royale", royale_night, ids["royale"], solo_night)):
            if not wanted:
                continue
            if not ids[key]:
                print(f"{name}: SKIPPED ({why.get(key)})", flush=True)
                continue
            try:
                load = Load(b.bot.proc.pid, logs=(b.bot.log,))
                print(with_load(await fn(b, arg), load), flush=True)
            except Exception as exc:  # noqa: BLE001
                print(f"{name}: SKIPPED ({problem(exc)})", flush=True)
        side = [(group, users, ids[key]) for key, (group, users) in zip(SIDE_KEYS, SIDE_GAMES) if ids[key]]
        nights = [(group, users, ids[key]) for key, (group, users) in zip(SIDE_ROYALE_KEYS, SIDE_ROYALES) if ids[key]]
        if "side" in want and len(side) == len(SIDE_GAMES) and len(nights) == len(SIDE_ROYALES):
            try:
                load = Load(b.bot.proc.pid, logs=(b.bot.log,))
                print(with_load(await side_by_side(b, list(zip(side, nights))), load), flush=True)
            except Exception as exc:  # noqa: BLE001
                print(f"side by side: SKIPPED ({problem(exc)})", flush=True)
        await b.down()

        # ---- bot B: the same database, the queue paced
        starts = [gid for gid in (ids[k] for k in START_KEYS) if gid]
        if "start" in want and len(starts) == len(STARTS):
            await b.up(PACED)
            for name, fn, arg in (("mafia88 start", game_start, starts),
                                  ("vote burst at the production group pace", vote_burst_paced, starts[0])):
                try:
                    load = Load(b.bot.proc.pid, logs=(b.bot.log,))
                    print(with_load(await fn(b, arg), load), flush=True)
                except Exception as exc:  # noqa: BLE001
                    print(f"{name}: SKIPPED ({problem(exc)})", flush=True)
                    break
            await b.down()
        elif "start" in want:
            print(f"mafia88 start: SKIPPED ({next((why[k] for k in START_KEYS if k in why), None)})", flush=True)
    finally:
        await b.down()
    if "capacity" in want:
        measured = args.capacity_trial
        print(await capacity_figure(work, args.capacity_max, min(CAPACITY_WARMUP, measured / 3), measured), flush=True)
    if "pg" in want:
        print(await postgres_burst(work), flush=True)
    for line in simulated_games(b.floors.get("group_p50"), args.tracemalloc) if "games" in want else ():
        print(line, flush=True)
    other = whole.other()
    print(f"# CPU probe: {cpu_probe():.0f} ms at the end", flush=True)
    print(f"# {commit_probe(work)} at the end", flush=True)
    print(f"# total {time.perf_counter() - began:.0f} s; other processes kept {other:.1f} of the "
          f"{os.cpu_count()} CPUs busy on average during the run{' (figures inflated: rerun on a quiet machine)' if other > 0.25 else ''}",
          flush=True)
    if args.keep:
        print(f"# kept {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keep", action="store_true", help="keep the SQLite file and the bot's log")
    ap.add_argument("--only", type=lambda s: [f.strip() for f in s.split(",") if f.strip()], default=list(FIGURES),
                    help=f"a comma-separated subset of {','.join(FIGURES)} (default: all; 'side' also sets up and "
                         f"measures the solo figures it is compared with)")
    ap.add_argument("--capacity-trial", type=float, default=CAPACITY_TRIAL, metavar="SECONDS",
                    help=f"capacity: measured seconds of each N (default {CAPACITY_TRIAL:.0f}; the warm-up before them "
                         f"is {CAPACITY_WARMUP:.0f} s, or a third of a shorter trial)")
    ap.add_argument("--capacity-max", type=int, default=CAPACITY_MAX, metavar="N",
                    help=f"capacity: the largest N tried (default {CAPACITY_MAX})")
    ap.add_argument("--tracemalloc", action="store_true",
                    help="also trace the Python-heap peak of each simulated game (slow: ~1 min more)")
    args = ap.parse_args()
    unknown = [f for f in args.only if f not in FIGURES]
    if unknown:
        ap.error(f"--only: unknown figure(s) {', '.join(unknown)}; choose from {', '.join(FIGURES)}")
    if args.capacity_trial < ACTION_EVERY or args.capacity_max < 1:
        ap.error(f"--capacity-trial: at least {ACTION_EVERY:.0f} s (a night player's period); --capacity-max: at least 1")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
