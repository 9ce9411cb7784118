"""The kernel's shape (issue 11 items 1 and 4): games import only the
kernel's public modules and never each other; the kernel has no import cycle
and no module over ~400 lines; no function-level import hides a cycle."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PLUGINS = ROOT / "plugins"
GAMES = ("mafia88", "prison", "royale", "league")
PUBLIC = {"contract", "registry", "clock", "settings", "textcheck", "datafile", "web", "pictures"}
"""What a game may import from the kernel."""


def _module(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _imports(path: Path, *, top_level_only: bool) -> list[tuple[str, int]]:
    """(absolute module, line) of every import; TYPE_CHECKING blocks skipped."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    me = _module(path)
    package = me if path.name == "__init__.py" else me.rsplit(".", 1)[0]
    out: list[tuple[str, int]] = []

    def visit(nodes, nested: bool) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                continue
            if isinstance(node, ast.Import) and not (nested and top_level_only):
                out.extend((a.name, node.lineno) for a in node.names)
            elif isinstance(node, ast.ImportFrom) and not (nested and top_level_only):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - node.level + 1]
                    mod = ".".join(base + ([node.module] if node.module else []))
                else:
                    mod = node.module or ""
                out.append((mod, node.lineno))
                if node.module is None or node.level:  # "from . import timers" names modules too
                    out.extend((f"{mod}.{a.name}", node.lineno) for a in node.names)
            for field in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(node, field, None)
                if isinstance(inner, list):
                    nested_here = nested or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                    visit(inner, nested_here)

    visit(tree.body, False)
    return out


def test_games_import_only_the_kernels_public_modules_and_not_each_other():
    bad = []
    for game in GAMES:
        for path in (PLUGINS / game).rglob("*.py"):
            for mod, line in _imports(path, top_level_only=False):
                parts = mod.split(".")
                if parts[:2] == ["plugins", "kernel"] and len(parts) > 2 and parts[2] not in PUBLIC:
                    bad.append(f"{path.relative_to(ROOT)}:{line} imports {mod}")
                if parts[:1] == ["plugins"] and len(parts) > 1 and parts[1] in GAMES and parts[1] != game:
                    bad.append(f"{path.relative_to(ROOT)}:{line} imports another game: {mod}")
    assert not bad, "\n".join(bad)


def test_kernel_has_no_import_cycle_and_small_modules():
    files = [p for p in (PLUGINS / "kernel").rglob("*.py") if "migrations" not in p.parts]
    names = {_module(p): p for p in files}
    graph = {m: set() for m in names}
    for m, p in names.items():
        for mod, _ in _imports(p, top_level_only=True):
            while mod and mod not in names:
                mod = mod.rpartition(".")[0]
            if mod and mod != m and mod != "plugins.kernel":
                graph[m].add(mod)
    seen: dict[str, int] = {}
    stack: list[str] = []

    def dfs(m: str) -> None:
        seen[m] = 1
        stack.append(m)
        for n in sorted(graph[m]):
            if seen.get(n) == 1:
                raise AssertionError("import cycle: " + " -> ".join(stack[stack.index(n):] + [n]))
            if n not in seen:
                dfs(n)
        stack.pop()
        seen[m] = 2

    for m in sorted(graph):
        if m not in seen:
            dfs(m)
    big = [f"{p.relative_to(ROOT)}: {n}" for p in files if (n := len(p.read_text(encoding="utf-8").splitlines())) > 400]
    assert not big, big


ALLOWED_LATE = ("asyncpg", "fcntl", "zhconv", "nonebot_plugin_localstore")
"""Optional or platform modules, and localstore (it reads NoneBot's config at import, so only after require())."""


def test_no_function_level_imports_in_the_kernel():
    found = []
    for path in (PLUGINS / "kernel").rglob("*.py"):
        if "migrations" in path.parts:
            continue
        top = {line for _, line in _imports(path, top_level_only=True)}
        for mod, line in _imports(path, top_level_only=False):
            if line not in top and mod.split(".")[0] not in ALLOWED_LATE:
                found.append(f"{path.relative_to(ROOT)}:{line} {mod}")
    assert not found, "\n".join(found)
