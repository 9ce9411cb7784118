"""The docs name what exists: every file path that README.md, ARCHITECTURE.md and the games'
RULES.md quote in backticks, and every kernel or gamekit ``module.name`` the first two quote, is
found in the tree."""

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", ROOT / "ARCHITECTURE.md", *sorted((ROOT / "plugins").glob("*/RULES.md"))]
QUOTED = re.compile(r"`([^`\n]+)`")
PATH = re.compile(r"^[\w./-]+\.(py|md|toml|yaml|yml|service|json|txt|html|css|js|png|lock)$|^[\w.-]+(/[\w.-]+)+/$")
DOTTED = re.compile(r"^([a-z_]+(?:\.[a-z_]+)*)\.([A-Za-z_][A-Za-z0-9_]*)(\(\))?$")
BASES = [ROOT, ROOT / "plugins", ROOT / "plugins" / "kernel", ROOT / "plugins" / "gamekit", ROOT / "tests",
         ROOT / "tests" / "fixtures", ROOT.parent]  # (ROOT.parent: the seeds, in ../shared/seeds/)
RUNTIME = ("data/", "./data/")  # folders the bot makes when it runs


def _quoted(doc: Path) -> list[str]:
    text = doc.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # code blocks are examples, not references
    return [q.strip() for q in QUOTED.findall(text)]


def _exists(path: str, doc: Path) -> bool:
    if path.startswith(("http", "/", "~", *RUNTIME)) or "<" in path or "*" in path:
        return True
    if "shared/seeds/" in path:  # the rules' specification, kept beside the checkout, not in it
        return True
    path = path.removeprefix("../")
    if any((base / path).exists() for base in [doc.parent, doc.parent / "content", *BASES]):
        return True
    tail = "/" + path.rstrip("/")  # a file named by its own folder's path (content/x.toml, plugin.py)
    return any(str(p).endswith(tail) for top in ("plugins", "tests", "deploy") for p in (ROOT / top).rglob("*"))


@cache
def _modules() -> dict[str, Path]:
    """Every module of the kernel and gamekit by its dotted name below them (``store.sqlite``) and
    by its own name (``sqlite``), when that is not ambiguous."""
    out: dict[str, Path] = {}
    seen: dict[str, int] = {}
    for top in ("kernel", "gamekit"):
        for path in (ROOT / "plugins" / top).rglob("*.py"):
            parts = list(path.relative_to(ROOT / "plugins" / top).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            for i in range(len(parts)):
                name = ".".join(parts[i:])
                seen[name] = seen.get(name, 0) + 1
                out[name] = path
    return {name: path for name, path in out.items() if seen[name] == 1}


@cache
def _names(path: Path) -> frozenset[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for t in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if isinstance(t, ast.Name):
                    names.add(t.id)
        elif isinstance(node, ast.ImportFrom):
            names.update(a.asname or a.name for a in node.names)
    return frozenset(names)


def _missing(doc: Path) -> list[str]:
    missing = []
    modules = _modules()
    for q in _quoted(doc):
        if PATH.match(q):
            if not _exists(q, doc):
                missing.append(q)
            continue
        m = DOTTED.match(q) if doc.name != "RULES.md" else None  # (the rules' docs name settings and state keys)
        if m and m.group(1) in modules:
            if m.group(2) not in _names(modules[m.group(1)]):
                missing.append(q)
    return missing


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_what_the_docs_name_exists(doc):
    assert not _missing(doc), f"{doc.relative_to(ROOT)} names what does not exist: {_missing(doc)}"


def test_the_check_finds_a_missing_name(tmp_path):
    doc = tmp_path / "X.md"
    doc.write_text("See `plugins/kernel/engine.py`, `events._stamp` and `unit.in_game`.", encoding="utf-8")
    assert _missing(doc) == ["plugins/kernel/engine.py", "events._stamp"]


PROCESS = re.compile(r"\b[Ii]ssue \d+|\b[Ss]top \d+\b")
"""How the project's own work was organised: code, comments, tests and docs name the rule, the
clause or the behaviour instead."""


def test_no_code_comment_test_or_doc_names_the_work_process():
    found = []
    for top in ("plugins", "tests", "bench", "demo", "deploy", "docs"):
        for path in (ROOT / top).rglob("*"):
            if path.suffix in (".py", ".md", ".toml", ".html", ".js", ".css", ".yaml", ".service") and path.is_file():
                for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
                    if PROCESS.search(line) and path.name != "test_docs.py":
                        found.append(f"{path.relative_to(ROOT)}:{n}")
    for doc in ("README.md", "ARCHITECTURE.md", "bot.py", "Makefile"):
        found += [f"{doc}:{n}" for n, line in enumerate((ROOT / doc).read_text(encoding="utf-8").splitlines(), 1)
                  if PROCESS.search(line)]
    assert not found, found
