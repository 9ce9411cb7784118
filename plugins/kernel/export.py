"""Export a game's tables to CSV (one file per sheet) and one XLSX workbook
under ``<data_dir>/exports/`` — the hosts' spreadsheets, kept by the bot."""

from __future__ import annotations

import csv
import re
import zipfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from openpyxl import Workbook

from plugins.gamekit.clock import game_tz

from . import cards as cardmath
from .config import data_dir
from .longtexts import game_with_texts
from .models import Audit, Card, CommandLog, Game, Host, Player
from .registry import get_kind


def _safe(name: str) -> str:
    return re.sub(r"[\[\]:*?/\\]", "_", name)[:31] or "sheet"


async def game_tables(game_id: int) -> dict[str, list[list[Any]]]:
    g = await game_with_texts(game_id)
    tz = game_tz(g)

    def t(at: datetime | None) -> str:
        return at.astimezone(tz).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3] if at else ""

    players = await Player.filter(game_id=game_id).order_by("seat")
    kind = get_kind(g.kind)
    fields_ = kind.profile_fields if kind else ()
    sheets: dict[str, list[list[Any]]] = {
        "名单": [["座位", "马甲", "QQ", "存活", "出局原因", "报名时间", *(f.label for f in fields_)]]
        + [
            [p.seat, p.alias, p.user_id, "是" if p.alive else "否", p.out_reason or "", t(p.joined_at),
             *((p.profile or {}).get(f.key, "") for f in fields_)]
            for p in players
        ],
        "主持": [["QQ", "添加人", "时间"]]
        + [[h.user_id, h.added_by, t(h.added_at)] for h in await Host.filter(game_id=game_id).order_by("id")],
        "判罚": [["座位", "QQ", "牌", "理由", "判罚人", "时间"]]
        + [
            [c.seat, c.user_id, cardmath.COLORS.get(c.color, c.color), c.reason, c.given_by, t(c.at)]
            for c in await Card.filter(game_id=game_id).order_by("id")
        ],
        "命令": [["序号", "接收时间", "QQ", "来源", "命令", "参数"]]
        + [
            [c.seq, t(c.received_at), c.user_id, c.source, c.name, str(c.args)]
            for c in await CommandLog.filter(game_id=game_id).order_by("seq")
        ],
        "日志": [["时间", "操作人", "动作", "内容"]]
        + [[t(a.at), a.actor, a.action, a.detail] for a in await Audit.filter(game_id=game_id).order_by("id")],
    }
    if kind and g.state is not None:
        for name, rows in kind.engine.tables(g.state, settings=kind.engine.settings_of(g.settings)).items():
            sheets[name if name not in sheets else f"{name}（{kind.title}）"] = rows
    return sheets


@dataclass(frozen=True)
class Exported:
    folder: Path
    xlsx: Path  # one workbook, a sheet per table
    csv_zip: Path  # the same tables as CSV files in one zip
    title: str  # "大逃杀-第3局-20261201-2100": the files' names for the hosts

    def files(self) -> list[tuple[Path, str]]:
        return [(self.xlsx, f"{self.title}.xlsx"), (self.csv_zip, f"{self.title}-CSV.zip")]


async def export_game(game_id: int, now: datetime) -> Exported:
    g = await Game.get(id=game_id)
    base = data_dir() / "exports"
    folder = base / f"{g.id}-{g.kind}-{now:%Y%m%d-%H%M%S}"
    folder.mkdir(parents=True, exist_ok=True)
    sheets = await game_tables(game_id)
    wb = Workbook()
    wb.remove(wb.active)
    for name, rows in sheets.items():
        with open(folder / f"{_safe(name)}.csv", "w", newline="", encoding="utf-8-sig") as f:
            csv.writer(f).writerows(rows)
        ws = wb.create_sheet(_safe(name))
        for row in rows:
            ws.append(list(row))
    wb.save(folder / f"game-{g.id}.xlsx")
    csv_zip = folder / f"game-{g.id}-csv.zip"
    with zipfile.ZipFile(csv_zip, "w", zipfile.ZIP_DEFLATED) as z:
        for name in sheets:
            z.write(folder / f"{_safe(name)}.csv", f"{_safe(name)}.csv")
    kind = get_kind(g.kind)
    local = now.astimezone(game_tz(g))
    title = f"{kind.title if kind else g.kind}-第{g.id}局-{local:%Y%m%d-%H%M}"
    return Exported(folder, folder / f"game-{g.id}.xlsx", csv_zip, title)
