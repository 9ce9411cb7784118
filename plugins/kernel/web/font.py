"""The pages' Chinese font, light: Noto Sans SC (SIL OFL, from pylopdf-fonts-zh-cn) is 8.3 MB;
the pages get it cut down to the characters they can show — the kernel's texts and static
files, and those of each game with a page (its rules' texts, data files, page files) — as
WOFF2, about a quarter of a megabyte. It is cut on the first request, by fontTools' subsetter
in a process of its own (the event loop goes on), and kept in the data folder under a name
that changes with the characters, so a new version of the texts gets a new cut."""

from __future__ import annotations

import asyncio
import hashlib
import os
import sys
from pathlib import Path

from nonebot.log import logger

from ..config import data_dir
from .page import PAGES

try:
    import pylopdf_fonts_zh_cn  # Noto Sans SC (SIL OFL), already a dependency of the bot

    SOURCE: Path | None = Path(pylopdf_fonts_zh_cn.__file__).with_name("NotoSansSC-Regular.otf")
except ImportError:  # pragma: no cover - the pages use the system's fonts
    SOURCE = None

KERNEL = Path(__file__).resolve().parents[1]
SUFFIXES = frozenset({".py", ".toml", ".html", ".js", ".css"})


def characters() -> str:
    """Every character the pages can show: printable ASCII and whatever the kernel's and the
    paged games' text files hold (their replies, names, places, items, labels)."""
    roots = [KERNEL, *(page.static.parent for page in PAGES.values())]
    chars = {chr(c) for c in range(0x20, 0x7F)}
    for root in roots:
        for f in root.rglob("*"):
            if f.suffix in SUFFIXES and "migrations" not in f.parts and f.is_file():
                chars.update(f.read_text(encoding="utf-8"))
    return "".join(sorted(ch for ch in chars if ch.isprintable()))


def _planned(source: Path) -> tuple[Path, Path, Path] | Path:
    """The cut's path if it is made already, else (target, its characters' file, a temporary
    output), the characters written."""
    text = characters()
    key = hashlib.sha256(f"{source.name}:{source.stat().st_size}:{text}".encode()).hexdigest()[:16]
    folder = data_dir() / "web"
    target = folder / f"font-{key}.woff2"
    if target.is_file():
        return target
    folder.mkdir(parents=True, exist_ok=True)
    chars, tmp = folder / f"font-{key}.{os.getpid()}.txt", folder / f"font-{key}.{os.getpid()}.part"
    chars.write_text(text, encoding="utf-8")
    return target, chars, tmp


def _finish(target: Path, chars: Path, tmp: Path, ok: bool) -> Path | None:
    chars.unlink(missing_ok=True)
    if not ok or not tmp.is_file():
        tmp.unlink(missing_ok=True)
        return None
    os.replace(tmp, target)
    for old in target.parent.glob("font-*.woff2"):
        if old != target:
            old.unlink(missing_ok=True)
    return target


class FontCut:
    """The cut font's path, made once per process (and kept across restarts)."""

    def __init__(self) -> None:
        self.path: Path | None = None
        self.failed = False
        self.lock = asyncio.Lock()

    async def get(self) -> Path | None:
        if SOURCE is None or self.failed:
            return None
        async with self.lock:
            if self.path is None or not await asyncio.to_thread(self.path.is_file):
                self.path = await self._make(SOURCE)
                self.failed = self.path is None
        return self.path

    async def _make(self, source: Path) -> Path | None:
        plan = await asyncio.to_thread(_planned, source)
        if isinstance(plan, Path):
            return plan
        target, chars, tmp = plan
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "fontTools.subset", str(source), f"--text-file={chars}", f"--output-file={tmp}",
            "--flavor=woff2", "--no-hinting",  # hints matter little to Chinese on today's screens; a sixth smaller
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        _, err = await proc.communicate()
        made = await asyncio.to_thread(_finish, target, chars, tmp, proc.returncode == 0)
        if made is None:
            logger.warning(f"web: the Chinese font could not be cut down, pages use the phone's fonts: {err.decode()[-300:]}")
        return made


fonts = FontCut()
