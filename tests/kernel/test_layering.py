"""The shape of ``plugins/``: games import only the kernel's public modules and gamekit, and never
each other; gamekit imports nothing of the kernel; no package has an import cycle, counting imports
inside functions and under TYPE_CHECKING; no module imports another's private (underscore) name;
the kernel has no module over ~400 lines and no function-level import."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLUGINS = ROOT / "plugins"
GAMES = ("mafia88", "prison", "royale", "league")
PUBLIC = {"registry", "web", "pictures"}
"""What a game's chat side may import from the kernel (its engine imports only gamekit)."""


def _module(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _imports(path: Path, *, top_level_only: bool, type_checking: bool = False) -> list[tuple[str, int]]:
    """(absolute module, line) of every import; TYPE_CHECKING blocks skipped unless ``type_checking``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    me = _module(path)
    package = me if path.name == "__init__.py" else me.rsplit(".", 1)[0]
    out: list[tuple[str, int]] = []

    def visit(nodes, nested: bool) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test) and not type_checking:
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


PACKAGES = ("gamekit", "kernel", "mafia88", "prison", "royale", "league")
def _targets(path: Path, modules: set[str]) -> set[str]:
    """The modules ``path`` imports, every import counted (in functions, under TYPE_CHECKING):
    ``from p import x`` imports the module ``p.x`` when there is one, else ``p`` itself."""
    me = _module(path)
    package = me if path.name == "__init__.py" else me.rsplit(".", 1)[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            subs = [f"{base}.{a.name}" for a in node.names]
            out.update(m for m in subs if m in modules)
            if any(m not in modules for m in subs):
                out.add(base)
    return out


def _package_graph(package: str) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports (every import: a cycle a function-level
    import hides is still a cycle)."""
    files = [p for p in (PLUGINS / package).rglob("*.py") if "migrations" not in p.parts]
    names = {_module(p): p for p in files}
    graph: dict[str, set[str]] = {m: set() for m in names}
    for m, p in names.items():
        for mod in _targets(p, set(names)):
            while mod and mod not in names:
                mod = mod.rpartition(".")[0]
            if mod and mod != m and mod != f"plugins.{package}":
                graph[m].add(mod)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[str]:
    found: list[str] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def dfs(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                found.append(" -> ".join(stack[stack.index(n):] + [n]))
            elif n not in state:
                dfs(n)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            dfs(m)
    return found


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycle_counting_every_import(package):
    cycles = _cycles(_package_graph(package))
    assert not cycles, "\n".join(cycles)


@pytest.mark.parametrize("package", PACKAGES)
def test_no_private_name_is_imported_from_another_module(package):
    found = []
    for path in (PLUGINS / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                found += [f"{path.relative_to(ROOT)}:{node.lineno} {a.name}" for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
    assert not found, "\n".join(found)


def test_gamekit_imports_nothing_of_the_kernel_or_the_bot():
    bad = []
    for path in (PLUGINS / "gamekit").rglob("*.py"):
        for mod, line in _imports(path, top_level_only=False, type_checking=True):
            if mod.split(".")[0] in ("nonebot", "tortoise", "aiosqlite", "asyncpg") or mod.startswith("plugins.kernel") \
                    or any(mod.startswith(f"plugins.{g}") for g in GAMES):
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {mod}")
    assert not bad, "\n".join(bad)


def test_engines_import_only_gamekit():
    bad = []
    for game in GAMES:
        for path in (PLUGINS / game / "engine").rglob("*.py"):
            for mod, line in _imports(path, top_level_only=False, type_checking=True):
                top = mod.split(".")[0]
                if top in ("nonebot", "tortoise", "aiosqlite", "asyncpg", "fastapi") or \
                        (top == "plugins" and mod.split(".")[1:2] not in (["gamekit"], [game])):
                    bad.append(f"{path.relative_to(ROOT)}:{line} imports {mod}")
    assert not bad, "\n".join(bad)
