"""Texts out of the stored state. An engine names where its
state keeps texts (``GameEngine.TEXTS``: paths such as ``("posts", "*", "text")``,
``"*"`` = every item of a list or value of a dict). Each such text is written once
to its own row (``game_text``) and the stored state holds ``{"$text": ref}`` in
its place, so a command rewrites only what the rules decide on. The state the
kernel holds and hands to engines, hooks and pages has the texts themselves:
engines never see a ref. A state stored with a text inline (older code) is read
as it is and written out at its next save."""

from __future__ import annotations

from typing import Any

import msgspec
import orjson
from nonebot.log import logger

from plugins.gamekit.contract import GameEngine, Rejected
from plugins.gamekit.state import GameState, StateInvalid, StateTooNew

from .models import Game, GameText
from .registry import get_kind

REF = "$text"
Path = tuple[str, ...]


class Texts:
    """One game's texts: those read or written so far (both ways), and the new ones
    the current transaction still has to insert."""

    __slots__ = ("by_ref", "by_text", "marks", "new", "next")

    def __init__(self, rows: list[tuple[int, str]] | None = None) -> None:
        self.by_ref: dict[int, str] = dict(rows or ())
        self.by_text: dict[str, int] = {t: r for r, t in self.by_ref.items()}
        self.new: list[tuple[int, str]] = []
        self.marks: dict[str, str] = {}  # text -> its mark in a stored typed state
        self.next = max(self.by_ref, default=0) + 1

    def ref(self, text: str) -> int:
        """The row holding ``text`` (one row per distinct text of a game)."""
        r = self.by_text.get(text)
        if r is None:
            r, self.next = self.next, self.next + 1
            self.by_ref[r] = text
            self.by_text[text] = r
            self.new.append((r, text))
        return r


def _boxes(node: Any, path: Path) -> list[Any]:
    """What holds the places ``path`` names in ``node`` (a stored state's JSON values or a typed
    state), in document order: one level at a time, without recursion, with exact type checks (it
    runs over a state's containers at each save)."""
    level = [node]
    for head in path[:-1]:
        below: list[Any] = []
        for box in level:
            t = type(box)
            if head == "*":
                if t is list:
                    below += box
                elif t is dict:
                    below += box.values()
            else:
                v = box.get(head) if t is dict else getattr(box, head, None) if isinstance(box, msgspec.Struct) else None
                if v is not None:
                    below.append(v)
        level = below
    return level


def _slots(node: Any, path: Path) -> list[tuple[Any, Any]]:
    """(container, key) of every place ``path`` names in ``node``: dict keys, list items, and the
    fields of a typed state (``msgspec.Struct``)."""
    last = path[-1]
    out: list[tuple[Any, Any]] = []
    for box in _boxes(node, path):
        t = type(box)
        if last == "*":
            if t is list:
                out.extend((box, i) for i in range(len(box)))
            elif t is dict:
                out.extend((box, k) for k in list(box))
        elif t is dict:
            if last in box:
                out.append((box, last))
        elif isinstance(box, msgspec.Struct) and hasattr(box, last):
            out.append((box, last))
    return out


def stored(state: Any, paths: tuple[Path, ...], texts: Texts) -> Any:
    """The form of ``state`` to write: a copy along the named paths, with each non-empty
    text replaced by its ref (``state`` itself is not changed)."""
    if not paths or not isinstance(state, dict):
        return state
    out = _copy_along(state, paths)
    for path in paths:
        for box, k in _slots(out, path):
            v = box[k]
            if isinstance(v, str) and v:
                box[k] = {REF: texts.ref(v)}
    return out


def _copy_along(node: Any, paths: tuple[Path, ...]) -> Any:
    """A copy of the containers on the named paths; everything else shared."""
    live = [p for p in paths if len(p) > 1]
    every = any(p[0] == "*" for p in live)
    if isinstance(node, dict):
        out: Any = dict(node)
        keys: Any = list(out) if every else [k for k in dict.fromkeys(p[0] for p in live) if k in out]
    elif isinstance(node, list):
        out = list(node)
        keys = range(len(out)) if every else ()
    else:
        return node
    for k in keys:
        below = tuple(p[1:] for p in live if p[0] == "*" or p[0] == k)
        if below:
            out[k] = _copy_along(out[k], below)
    return out


def inflate(state: Any, paths: tuple[Path, ...], texts: Texts) -> Any:
    """``state`` as read from the database, with every ref replaced by its text (in place)."""
    if not paths or not isinstance(state, dict):
        return state
    for path in paths:
        for box, k in _slots(state, path):
            v = box[k]
            if isinstance(v, str) and v.startswith(MARK):
                box[k] = texts.by_ref[int(v[len(MARK):])]
            elif isinstance(v, dict) and REF in v:  # (as states were stored before the mark)
                box[k] = texts.by_ref[v[REF]]
    return state


async def read_texts(game: Game, engine: GameEngine) -> Texts:
    """The texts of a game just read from the database, put in place in its state, which
    becomes the engine's typed state (``decoded``)."""
    if game.state is None:
        return Texts()
    texts = Texts()
    if engine.TEXTS:
        texts = Texts(list(await GameText.filter(game_id=game.id).values_list("ref", "text")))
        inflate(game.state, engine.TEXTS, texts)
    game.state = decoded(engine, game.id, game.state)
    return texts


def decoded(engine: GameEngine, game_id: int, raw: Any) -> Any:
    """A stored state (texts in place) as the engine's typed state; Rejected in Chinese when it
    was written by newer code or does not fit the game's model (the game is not touched)."""
    try:
        return engine.decode(raw)
    except StateTooNew as exc:
        raise Rejected(newer_state_text(exc.found, exc.known)) from None
    except StateInvalid as exc:
        logger.error(f"game {game_id}: its stored state does not fit the model at {exc.where or '$'}: {exc}")
        raise Rejected(f"这局游戏（编号 {game_id}）保存的数据无法读取（{exc.where or '整体'} 不符合格式），"
                       "为免损坏没有改动它。请管理员查看日志。") from None


def newer_state_text(found: int, known: int) -> str:
    return (f"这局游戏的数据由更新版本的机器人写入（数据版本 {found}，本机只认到 {known}），"
            "为免损坏没有读取，这次没有生效。请管理员升级机器人后再试。")


async def game_with_texts(game_id: int) -> Game:
    """A game read from the database for a page, an export or an answer outside a
    command's transaction: its state with the texts in place."""
    g = await Game.get(id=game_id)
    kind = get_kind(g.kind)
    if kind is not None:
        await read_texts(g, kind.engine)
    return g


def fingerprint(state: object) -> bytes:
    """The state as JSON: whether a read-only command changed it after all."""
    return msgspec.json.encode(state) if isinstance(state, GameState) else orjson.dumps(state)


MARK = "\x01text:"
"""Where a stored typed state's long text was: ``MARK`` and its ref. No text a player writes holds a
control character (the door replaces them), and PostgreSQL's JSON takes this one (not NUL)."""


def stored_json(engine: GameEngine, state: Any, texts: Texts) -> str:
    """The state as its game row stores it: JSON text, each long text replaced by its ref (new
    texts are added to ``texts.new`` for the same write). A typed state is encoded directly, its
    texts swapped for their marks meanwhile (a 240 KiB state: 0.3 ms, against 0.9 ms through plain
    JSON values)."""
    if not isinstance(state, GameState):
        return orjson.dumps(stored(engine.encode(state), engine.TEXTS, texts)).decode()
    state.version = engine.STATE_VERSION
    swapped: list[tuple[Any, Any, str]] = []
    try:
        for path in engine.TEXTS:
            last = path[-1]
            for box in _boxes(state, path):
                if last != "*":
                    v = box.get(last) if type(box) is dict else getattr(box, last, None)
                    if v.__class__ is str and v:
                        _swap(box, last, v, texts, swapped)
                elif type(box) is list:
                    for i, v in enumerate(box):
                        if v.__class__ is str and v:
                            _swap(box, i, v, texts, swapped)
                elif type(box) is dict:
                    for k, v in list(box.items()):
                        if v.__class__ is str and v:
                            _swap(box, k, v, texts, swapped)
        return msgspec.json.encode(state).decode()
    finally:
        for box, k, v in reversed(swapped):
            if type(box) is list or type(box) is dict:
                box[k] = v
            else:
                setattr(box, k, v)


def _swap(box: Any, k: Any, text: str, texts: Texts, swapped: list[tuple[Any, Any, str]]) -> None:
    mark = texts.marks.get(text)
    if mark is None:
        mark = texts.marks[text] = f"{MARK}{texts.ref(text)}"
    if type(box) is list or type(box) is dict:
        box[k] = mark
    else:
        setattr(box, k, mark)
    swapped.append((box, k, text))
