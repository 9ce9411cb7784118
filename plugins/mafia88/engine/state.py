"""The game's state as typed structs (stored as JSON by the kernel; field names are the JSON keys).

Seats, rounds and post numbers key their tables as ints (JSON keeps them as strings); times are
ISO strings (UTC). Role keys and post-group keys are the settings' own (a host may add roles),
so they stay ``str``. A field with a default was added to the stored shape along the way: it is
left out of the JSON while it holds its default, as it was before it was first set.
"""

from __future__ import annotations

from enum import StrEnum

import msgspec

from plugins.gamekit.state import GameState
from plugins.gamekit.textcheck import TextFigures


class Step(StrEnum):
    """Where the current round is."""

    ROUND = "round"  # posts, publication, votes
    OVERTIME = "overtime"  # §十三.8: the overtime vote between tied candidates
    DECIDING = "deciding"  # §五/§七: the window for choices made from one's voter lines
    OVER = "over"


class Winner(StrEnum):
    WHITE = "white"
    BLACK = "black"
    NONE = ""  # the game ended without a winner


class Cause(StrEnum):
    """Why a player went out."""

    POST = "post"  # killed by a post
    MUTUAL = "mutual"  # 同归 with the target of one's post
    MINE = "mine"  # posted the 地雷 before round 4
    SOUL = "soul"  # a post death moved here by the 移魂
    VOTE = "vote"  # voted out
    TAKE = "take"  # taken along by a voted-out player
    NOVOTE = "novote"  # did not vote (§十三.2)
    REPORT = "report"  # no valid report by the end of round 1 (§十一.2)
    GIVEUP = "giveup"  # sent no quota post (§十二.9)
    HOST = "host"  # a host's ruling
    WHITE = "white"  # a white slip or rewrite not delivered in time (§十二.4/7)
    HIGH = "high"  # a §七.2 letter not written in time
    COUNTDOWN = "countdown"  # two rounds after posting the 魔镜 (§五白1/黑1)
    THANKS = "thanks"  # a revived player who wrote no thank-you letter (§五白6)
    COMPLAINT = "complaint"  # a complaint upheld: a copied post (§十二.6) or a bad report after round 1 (§十一.3)


POST_CAUSES = (Cause.POST, Cause.MUTUAL, Cause.MINE, Cause.SOUL)  # out at the publication: a half vote that round (§十三.3)


class PostKind(StrEnum):
    POST = "post"
    WHITE = "white"  # 白条 (§十二.4)


class PostStatus(StrEnum):
    PENDING = "pending"
    APPROVED = "approved"
    WHITE = "white"  # a white slip whose text is still due
    REJECTED = "rejected"  # to be rewritten
    VOID = "void"


class PostEffect(StrEnum):
    """What a kill post does (effects.toml's ``effect``; a host's /改判)."""

    KILL = "kill"
    MUTUAL = "mutual"
    POSTER_DIES = "poster_dies"
    REVEAL = "reveal"
    REVEAL_KILL = "reveal_kill"
    COUNTDOWN = "countdown"
    NONE = "none"


class Event(StrEnum):
    """A post's history."""

    POST = "post"
    WHITE = "white"
    APPROVED = "approved"
    AUTO_APPROVED = "auto-approved"
    REJECTED = "rejected"
    REWRITE = "rewrite"
    VOID = "void"


class DraftMode(StrEnum):
    NEW = "new"
    REWRITE = "rewrite"


class ChoiceKind(StrEnum):
    TAKE = "take"  # 带人
    REVEAL = "reveal"  # 照出
    SOUL = "soul"  # 指定追魂 (§五黑5)
    FIRST_SOUL = "first_soul"  # 指定追魂 of round 1's top-voted (§七.1)


class LetterKind(StrEnum):
    SOUL = "soul"  # 追魂 for a voted-out 地雷 (§五黑5)
    FIRST_SOUL = "first_soul"  # 追魂 for round 1's top-voted (§七.1)
    THANKS = "thanks"  # 感谢信 of a revived player (§五白6)
    HIGH = "high"  # 追魂 of §七.2


class ComplaintKind(StrEnum):
    POST = "post"
    REPORT = "report"


class ComplaintStatus(StrEnum):
    OPEN = "open"
    COPY = "copy"  # upheld: not original or not first published (§十二.6)
    REWRITE = "rewrite"  # upheld: to be rewritten (§十二.7) / a report redone (§十一.3)
    UPHELD = "upheld"  # upheld against a report after round 1: out (§十一.3)
    DISMISSED = "dismissed"


class Part(msgspec.Struct, gc=False, kw_only=True, omit_defaults=True):
    """Base of the state's parts."""


class Overlap(Part, array_like=True):
    """How much of a post or report is found in one earlier text (§十二.6 原创首发); stored as
    [label, percent, run, flag] (each report keeps three: as objects, 7 of a voting day's 46 KiB)."""

    label: str
    percent: float
    run: int
    flag: bool = False


# ---- players -----------------------------------------------------------------------------------

class Signal(msgspec.Struct, gc=False, array_like=True):
    """A 暗号 pair, stored as [seek, reply] (§七.3)."""

    seek: str
    reply: str


class Out(Part):
    round: int
    cause: Cause
    reason: str  # Chinese, shown to everyone
    post: int | None  # the post that killed the player


class Report(Part):
    """A 报道's verdict and length; its text stays in the command log (§十一)."""

    chars: int | None  # None: rejected by a host before any was sent
    ok: bool
    need: int
    rejected: bool
    seq: int
    at: str
    note: str  # a host's reason for rejecting it
    text: str = ""  # kept in a row of its own by the kernel (TEXTS): the originality check compares with it
    overlap: list[Overlap] = msgspec.field(default_factory=list)


class Player(Part):
    seat: int
    alias: str
    role: str  # a role key of the settings
    code: str  # §十六 code name ("" for none)
    signal: Signal | None
    alive: bool
    out: Out | None
    report: Report | None
    dealt: str = ""  # the role dealt at the start, once it changed (§五白4/黑8)
    half: list[int] = msgspec.field(default_factory=list)  # rounds with a half vote while alive (§五白6, §七.1)
    fireworks_spent: bool = False  # revived after a voided post that it took along: no more 同归 (§十二.5)


# ---- rounds ------------------------------------------------------------------------------------

class TableRow(Part):
    """One round of the live table (§十): votes per voter, number out, posts per group."""

    votes: int
    out: int
    posts: dict[str, int]


class Due(Part):
    posts: str | None
    publish: str | None
    close: str | None
    white: str | None


class Ballot(Part):
    seq: int  # arrival number in the game
    n: int  # the round's ballot number
    at: str
    voter: int
    targets: list[int]
    proxy: bool


class OvertimeBallot(Part):
    seq: int
    n: int
    at: str
    voter: int
    target: int


class Overtime(Part):
    tied: list[int]
    above: list[int]
    slots: int
    ballots: list[OvertimeBallot]
    ends: str


class Death(Part):
    """A death pending for the result (``marks``) or applied (``outs``)."""

    seat: int
    cause: Cause
    reason: str


class ResultStep(Part):
    """One numbered step of a vote result as hosts see it (/改判 结果<n>)."""

    seat: int
    out: bool  # True: went out with the result; False: revived by the 复活 (§五白6)
    reason: str
    override: str = ""  # a host's /改判 word, once changed


class Result(Part):
    voted_out: list[int]
    survivors: int
    at: str
    steps: list[ResultStep] = msgspec.field(default_factory=list)


class Candidate(Part):
    """A candidate's votes at the close (for the result post)."""

    seat: int
    full: int
    half: int
    last: int  # arrival number of its last full vote


class Choice(Part):
    seat: int
    kind: ChoiceKind
    need: int
    options: list[int]
    picked: list[int] | None
    clause: str
    optional: bool = False
    random: bool = False  # picked by the seeded draw at the window's end


class Take(Part):
    """Voters taken along by a voted-out player."""

    seat: int
    seats: list[int]
    clause: str
    random: bool = False


class Revive(Part):
    holder: int
    cutoff: str
    picked: int | None


class Decision(Part):
    """The decision window of a round's result (§五, §七)."""

    voted_out: list[int]
    choices: list[Choice]
    auto: list[Take]
    revive: Revive | None
    ends: str | None = None  # None: no window opened


class Reveal(Part):
    seat: int
    why: str


class Round(Part):
    round: int
    due: Due
    posts_done: bool
    published: bool
    closed: bool
    white_done: bool
    ballots: list[Ballot]
    next_n: int
    overtime: Overtime | None
    marks: list[Death]
    outs: list[Death]
    result: Result | None
    cands: list[Candidate] = msgspec.field(default_factory=list)
    decide: Decision | None = None
    explanation: str = ""  # the resolution as published (/结算)
    reveals: list[Reveal] = msgspec.field(default_factory=list)


# ---- posts and drafts ----------------------------------------------------------------------------

class HistoryEntry(Part):
    at: str
    seq: int
    event: Event
    note: str = ""


class Post(Part):
    id: int  # index + 1
    round: int
    author: int
    code: str
    group: str
    target: int
    kind: PostKind
    status: PostStatus
    text: str
    figures: TextFigures | None
    seq: int
    at: str
    published: bool
    text_shown: bool
    killed: bool
    history: list[HistoryEntry]
    overlap: list[Overlap] = msgspec.field(default_factory=list)  # measured when handed in (§十二.6)
    complain_until: str | None = None  # complaints until then (§十四.1), set when its text is published
    redo_due: str | None = None  # a rewrite asked for after the round's white-slip due: its own due (§十二.7)


class Draft(Part):
    mode: DraftMode
    round: int
    code: str
    target: int
    group: str
    parts: list[str]
    post: int | None = None  # the post rewritten


# ---- role effects, letters and the hosts' records ---------------------------------------------------

class Contact(Part):
    """A /接头 (§七.3)."""

    seq: int
    from_: int = msgspec.field(name="from")
    to: int


class Message(Part):
    """A host's /私信."""

    seq: int
    at: str
    by: str
    seat: int
    text: str


class Note(Part):
    """An audit line: a host's /改判 or a §七.2 designation."""

    seq: int
    at: str
    by: str
    what: str


class Letter(Part):
    id: int
    kind: LetterKind
    writer: int
    for_: int | None = msgspec.field(name="for")  # the player it is written for
    round: int
    min: int
    due: str
    done: bool
    text: str
    by: str = ""  # §七.2: who designated the writer
    lapsed: bool = False


class Complaint(Part):
    """A /投诉 (§十四): posted in the group under the complainant's alias; hosts rule with /裁决."""

    id: int
    by: int
    kind: ComplaintKind
    ref: int  # the post number, or the reporter's seat
    reason: str
    seq: int
    at: str
    until: str  # the complaint window it was filed in (§十四.1)
    status: ComplaintStatus = ComplaintStatus.OPEN
    ruling: str = ""
    ruled_by: str = ""
    ruled_at: str = ""


class Countdown(Part):
    seat: int
    until: int  # goes out with this round's result
    code: str


class Doomed(Part):
    seat: int
    round: int
    reason: str


class Override(Part):
    """A host's /改判 of one post's effect."""

    effect: PostEffect
    by: str
    why: str
    seq: int
    at: str
    step: int


class Check(Part):
    """The 地雷's identity check (§五黑5)."""

    round: int
    used: bool
    target: int | None = None


class SoulMove(Part):
    by: int
    from_: int = msgspec.field(name="from")
    to: int
    text: str
    seq: int
    at: str


class SoulBack(Part):
    by: int
    to: int
    text: str
    seq: int
    at: str


class Souls(Part):
    """A round's 移魂 and 还魂 (§五白4, 黑8)."""

    words: list[str]  # which of the two were used
    move: SoulMove | None = None
    back: SoulBack | None = None


# ---- the state -------------------------------------------------------------------------------------

class State(GameState, kw_only=True, omit_defaults=True):
    table: list[TableRow]  # the live round table: the settings' rounds at the start; hosts may change it
    tz: str
    players: dict[int, Player]
    round: int  # the current round, from 1
    step: Step
    rounds: dict[int, Round]
    posts: list[Post]
    drafts: dict[int, Draft]
    signals: list[Signal]
    winner: Winner | None
    ended_by: str
    contacts: list[Contact] = msgspec.field(default_factory=list)
    dms: list[Message] = msgspec.field(default_factory=list)
    audit: list[Note] = msgspec.field(default_factory=list)
    letters: list[Letter] = msgspec.field(default_factory=list)
    countdowns: list[Countdown] = msgspec.field(default_factory=list)
    doomed: list[Doomed] = msgspec.field(default_factory=list)
    overrides: dict[int, Override] = msgspec.field(default_factory=dict)  # by post number
    checks: dict[int, Check] = msgspec.field(default_factory=dict)  # by seat
    used: dict[str, bool] = msgspec.field(default_factory=dict)  # role key -> its shared use is spent (§五白3)
    unions_told: list[str] = msgspec.field(default_factory=list)  # §八 unions already told
    souls: dict[int, Souls] = msgspec.field(default_factory=dict)  # by round
    complaints: list[Complaint] = msgspec.field(default_factory=list)
    reports_until: str | None = None  # complaints about reports until then (§十四.1), set at round 1's close
