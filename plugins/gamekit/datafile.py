"""Typed game data: load TOML, merge a host's variant, validate with a
pydantic model and explain every mistake in one Chinese line.

A game describes its content as pydantic models built on :class:`Data`
(``extra="forbid"``, strict types) with cross-reference validators that call
:func:`problems` to report what they found. :func:`check` turns the
``ValidationError`` into ``Rejected`` with one line per mistake, each naming
where it is: ``roles[3].count 应为不小于 0 的整数。`` (list positions count
from 1, as a host counts ``[[roles]]`` tables).

Pure helper: no I/O except :func:`load_toml` / :func:`load_files`, which read
a game's bundled files.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TypeVar

import tomllib
from pydantic import AfterValidator, BaseModel, ConfigDict, ValidationError
from pydantic_core import PydanticCustomError

from .clock import parse_hhmm
from .errors import Rejected
from .settings import deep_merge

PROBLEM = "content"
"""Error type of a mistake a validator words itself (a dangling reference, …)."""


class Data(BaseModel):
    """Base of every game-data model: unknown keys are mistakes and values are
    not coerced ("3" is not a number, true is not 1)."""

    model_config = ConfigDict(extra="forbid", strict=True)


def problems(lines: Iterable[str]) -> None:
    """Raise the mistakes a validator found (each a complete Chinese
    sentence); do nothing when there are none."""
    text = "\n".join(line for line in lines if line)
    if text:
        raise PydanticCustomError(PROBLEM, "{text}", {"text": text})


def _hhmm(text: str) -> str:
    try:
        parse_hhmm(text)
    except ValueError as exc:
        raise PydanticCustomError("hhmm", "{text}", {"text": str(exc)}) from exc
    return text


HHMM = Annotated[str, AfterValidator(_hhmm)]
"""A wall-clock time written "时:分" (e.g. "21:00")."""


def load_toml(path: Path) -> dict[str, Any]:
    with path.open("rb") as fh:
        return tomllib.load(fh)


def load_files(folder: Path, names: Iterable[str]) -> dict[str, Any]:
    """Several TOML files merged (later files over earlier ones)."""
    merged: dict[str, Any] = {}
    for name in names:
        merged = deep_merge(merged, load_toml(folder / name))
    return merged


def path_text(loc: Iterable[int | str]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part + 1}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _choices(expected: str) -> str:
    """pydantic's "'a', 'b' or 'c'" -> "a、b 或 c"."""
    return expected.replace("'", "").replace(", ", "、").replace(" or ", " 或 ")


def _number(value: Any) -> str:
    return "整数" if isinstance(value, int) and not isinstance(value, bool) else "数字"


def _message(err: Any) -> str:
    """What is wrong, without where (Chinese, no final full stop)."""
    kind, ctx, value = err["type"], err.get("ctx") or {}, err.get("input")
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return "应为整数"
    if kind in ("float_type", "float_parsing"):
        return "应为数字"
    if kind in ("bool_type", "bool_parsing"):
        return "应为 true 或 false"
    if kind == "string_type":
        return "应为文字"
    if kind in ("list_type", "tuple_type"):
        return "应为列表"
    if kind in ("dict_type", "model_type", "model_attributes_type", "dataclass_type"):
        return "应为表（键 = 值）"
    if kind == "literal_error":
        return f"只能是 {_choices(str(ctx.get('expected', '')))}"
    if kind == "greater_than_equal":
        low = ctx.get("ge")
        if low == 1 and _number(value) == "整数":
            return "应为正整数"
        return f"应为不小于 {low} 的{_number(value)}"
    if kind == "greater_than":
        return f"应为大于 {ctx.get('gt')} 的{_number(value)}"
    if kind == "less_than_equal":
        return f"应为不大于 {ctx.get('le')} 的{_number(value)}"
    if kind == "less_than":
        return f"应小于 {ctx.get('lt')}"
    if kind == "string_too_short":
        return "不能为空" if ctx.get("min_length") == 1 else f"至少 {ctx.get('min_length')} 个字"
    if kind == "string_pattern_mismatch":
        return "不能是空白"
    if kind == "string_too_long":
        return f"最长 {ctx.get('max_length')} 个字"
    if kind == "too_short":
        return "不能为空" if ctx.get("min_length") == 1 else f"至少要有 {ctx.get('min_length')} 项"
    if kind == "too_long":
        return f"最多 {ctx.get('max_length')} 项"
    return f"有误（{kind}）"


def error_lines(exc: ValidationError) -> list[str]:
    """One Chinese line per mistake, in the order of the model's fields."""
    lines: list[str] = []
    for err in exc.errors(include_url=False):
        where = path_text(err["loc"])
        kind = err["type"]
        if kind == PROBLEM:  # a section's validator names what it checks; deeper down, say where
            found = str((err.get("ctx") or {}).get("text", err["msg"])).splitlines()
            lines.extend(f"{where}：{line}" if len(err["loc"]) > 1 else line for line in found)
        elif kind == "missing":
            lines.append(f"缺少 {where}。")
        elif kind == "extra_forbidden":
            lines.append(f"未知设置项「{where}」，请检查拼写。")
        elif not err["msg"].isascii():  # a game's own wording (custom error type)
            lines.append(f"{where}：{err['msg']}。" if where else f"{err['msg']}。")
        else:
            lines.append(f"{where} {_message(err)}。" if where else f"{_message(err)}。")
    out: list[str] = []
    for line in lines:  # say each thing once
        if line not in out:
            out.append(line)
    return out


M = TypeVar("M", bound=BaseModel)


def validate(model: type[M], data: Any) -> tuple[M | None, list[str]]:
    """The validated model, or None and the mistakes."""
    try:
        return model.model_validate(data), []
    except ValidationError as exc:
        return None, error_lines(exc)


def check(model: type[M], data: Any) -> M:
    """The validated model; ``Rejected`` listing every mistake otherwise."""
    parsed, errors = validate(model, data)
    if parsed is None:
        raise Rejected("\n".join(errors))
    return parsed


def merged(defaults: dict[str, Any], variant: dict[str, Any] | None) -> dict[str, Any]:
    """A host's variant over the defaults (the one merge: tables key by key,
    lists replaced)."""
    return deep_merge(defaults, variant or {})


@dataclass(frozen=True)
class Content:
    """Where a game's default settings live, and the one way they are loaded: the TOML ``files``
    of ``folder`` merged in order (each read once), a host's overrides merged over them, the whole
    validated by the game's settings model. ``variant``: a settings key naming one more file of
    ``folder`` (without ``.toml``) merged over the defaults first (prison's identity files)."""

    folder: Path
    files: tuple[str, ...]
    variant: str | None = None
    default_variant: str = ""

    def defaults(self, variant: str | None = None) -> dict[str, Any]:
        """The default settings (a fresh copy), with ``variant``'s file over them."""
        base = _load_all(self.folder, self.files)
        name = variant or self.default_variant
        if self.variant is not None and name:
            base = deep_merge(base, _load_variant(self.folder, name))
            base.setdefault(self.variant, name)
        return deep_merge(base, {})

    def variants(self) -> list[str]:
        """The variant files of ``folder`` (names without ``.toml``), besides ``files``."""
        return sorted(p.stem for p in self.folder.glob("*.toml") if p.name not in self.files)

    def settings(self, model: type[M], overrides: dict[str, Any] | None) -> M:
        """``overrides`` over the defaults, validated by ``model``; Rejected naming every mistake."""
        over = overrides or {}
        name = over.get(self.variant) if self.variant is not None else None
        if name is not None and (not isinstance(name, str) or name not in self.variants()):
            raise Rejected(f"没有名为「{name}」的{self.variant}，可选：{'、'.join(self.variants())}。")
        return check(model, deep_merge(self.defaults(name), over))


@functools.cache
def _load_all(folder: Path, files: tuple[str, ...]) -> dict[str, Any]:
    return load_files(folder, files)


@functools.cache
def _load_variant(folder: Path, name: str) -> dict[str, Any]:
    return load_toml(folder / f"{name}.toml")
