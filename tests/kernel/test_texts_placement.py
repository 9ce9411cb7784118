"""All user-facing text of a game lives in its ``texts.py`` (or a data file), not
scattered through the rules, so a host community can reword it in one place. Checked
by reading the code: outside ``texts.py``, ``commands.py`` (the command table: names,
usage, help) and the plugin's ``plugin.py`` (its metadata), no string literal of a
game's Python holds a Chinese character. Docstrings and comments are not text users see."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]")
ALLOWED = {"texts.py", "commands.py"}


def chinese_literals(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docs.add(id(first.value))
    return [
        f"{path.name}:{node.lineno}: {node.value[:30]!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        and id(node) not in docs and CJK.search(node.value)
    ]


def test_the_scan_finds_a_literal(tmp_path):
    sample = tmp_path / "rules.py"
    sample.write_text('"""文档。"""\nX = 1\ndef f():\n    """说明。"""\n    return "你好"\n', encoding="utf-8")
    assert [line.split(": ", 1)[1] for line in chinese_literals(sample)] == ["'你好'"]


@pytest.mark.parametrize("game", ["mafia88", "prison", "royale", "league"])
def test_game_texts_live_in_texts_py(game):
    plugin = ROOT / "plugins" / game
    found = [
        hit
        for path in sorted(plugin.rglob("*.py"))
        if path.name not in ALLOWED and not (path.name == "plugin.py" and path.parent == plugin)
        for hit in chinese_literals(path)
    ]
    assert not found, f"{len(found)} Chinese literals outside texts.py:\n" + "\n".join(found[:40])
