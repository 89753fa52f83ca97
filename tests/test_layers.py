"""The import graph keeps the shape of docs/architecture.md and /docs/design.md ("The shape", "Anti-patterns").

The graph is built with ``ast`` from the sources (no module is imported): every ``import`` counts, the ones
inside functions too, relative imports are resolved, and only the project's packages are nodes. ``from a
import b`` is an arrow to ``a.b`` when ``a.b`` is a module, else to ``a``; an arrow goes to the module named,
not to its parent packages (importing ``a.b`` runs ``a/__init__``, but ``__init__`` files that only re-export
would otherwise tie every package into one circle).

The rules:

- ``scoring/`` imports nothing from Django nor from the project;
- ``tournaments/`` never imports ``api/``, ``web/``, ``webhooks/`` nor a capability (any other app);
- ``web/`` never imports ``api/``, nor the other way round; ``webhooks/`` never imports ``api/`` (its API
  views live there);
- no circle between apps, none between the modules of one app (``config/`` is the root that wires the apps
  together, urls, Celery, ASGI: its arrows out do not count as app arrows, so the apps may use its small
  helpers such as ``config.celery`` or ``config.auth``);
- no ``.py`` file over 500 lines outside migrations/, tests/ and bench/.

ALLOWED lists today's breaches so that the test passes; an entry that is no longer a breach fails the test
too, so the list only shrinks.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The core's packages; any other top-level package with an ``__init__.py`` (outside tests, bench, deploy, dev)
#: is a capability.
CORE = ("scoring", "tournaments", "api", "web", "webhooks", "config")
NOT_APPS = {"tests", "bench", "deploy", "dev", "docs", "locale", "templates"}
MAX_LINES = 500
#: Modules the engine must never import (the engine is pure Python).
FRAMEWORKS = ("django", "rest_framework", "celery", "channels", "drf_spectacular", "django_filters")

#: Breaches still allowed, none today (issue 25 emptied them): (importer, imported) for the nevers, app or module
#: cycles as sorted tuples, long files. An entry that is no longer a breach fails, so they only shrink.
ALLOWED_IMPORTS: set[tuple[str, str]] = set()
ALLOWED_APP_CYCLES: set[tuple[str, ...]] = set()
ALLOWED_MODULE_CYCLES: set[tuple[str, ...]] = set()
ALLOWED_LONG_FILES: set[str] = set()


def apps() -> list[str]:
    """The project's top-level packages: the core's and the capabilities'."""
    found = {p.parent.name for p in ROOT.glob("*/__init__.py")} - NOT_APPS
    return sorted(found | {name for name in CORE if (ROOT / name).is_dir()})


def modules() -> dict[str, Path]:
    """Every module of the project's packages, by dotted name (a package by its own name)."""
    found = {}
    for app in apps():
        for path in (ROOT / app).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _target(name: str, known: dict[str, Path]) -> str | None:
    """The longest known module that ``name`` is or lies in (``a.b.func`` -> ``a.b``)."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in known:
            return candidate
        parts.pop()
    return None


def imports_of(module: str, path: Path, known: dict[str, Path]) -> tuple[set[str], set[str]]:
    """The project modules and the outside top-level names that ``module`` imports, anywhere in its file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    inside, outside = set(), set()

    def add(name: str) -> None:
        target = _target(name, known)
        if target is not None:
            if target != module:
                inside.add(target)
        elif name.split(".")[0] not in apps():
            outside.add(name.split(".")[0])

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                full = f"{source}.{alias.name}"
                add(full if full in known else source)
    return inside, outside


def graph() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """The arrows between project modules, and each module's outside imports."""
    known = modules()
    arrows, outside = {}, {}
    for module, path in known.items():
        arrows[module], outside[module] = imports_of(module, path, known)
    return arrows, outside


def app_of(module: str) -> str:
    return module.split(".")[0]


def cycles(arrows: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """The strongly connected components of more than one node (Tarjan's algorithm), each sorted."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = [0]

    def visit(node: str) -> None:
        # Iterative, so deep graphs never reach the recursion limit.
        work = [(node, iter(sorted(arrows.get(node, ()))))]
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        while work:
            current, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(arrows.get(child, ())))))
                    break
                if child in on_stack:
                    low[current] = min(low[current], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[current])
                if low[current] == index[current]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == current:
                            break
                    if len(component) > 1:
                        found.append(tuple(sorted(component)))

    for node in sorted(arrows):
        if node not in index:
            visit(node)
    return sorted(found)


def forbidden(importer: str, imported: str) -> bool:
    """Whether an arrow from ``importer`` to ``imported`` (both project modules) breaks one of the nevers."""
    source, target = app_of(importer), app_of(imported)
    if source == target:
        return False
    if source == "scoring":
        return True
    capabilities = set(apps()) - set(CORE)
    if source == "tournaments" and target in {"api", "web", "webhooks"} | capabilities:
        return True
    if {source, target} == {"api", "web"}:
        return True
    return source == "webhooks" and target == "api"


def breaches() -> set[tuple[str, str]]:
    arrows, outside = graph()
    found = {(a, b) for a, targets in arrows.items() for b in targets if forbidden(a, b)}
    found |= {(a, name) for a, names in outside.items() if app_of(a) == "scoring"
              for name in names if name in FRAMEWORKS}
    return found


def app_cycles() -> list[tuple[str, ...]]:
    arrows, _ = graph()
    between = defaultdict(set)
    for a, targets in arrows.items():
        for b in targets:
            if app_of(a) != app_of(b) and app_of(a) != "config":
                between[app_of(a)].add(app_of(b))
    return cycles(between)


def module_cycles() -> list[tuple[str, ...]]:
    arrows, _ = graph()
    within = {a: {b for b in targets if app_of(b) == app_of(a)} for a, targets in arrows.items()}
    return cycles(within)


def long_files() -> dict[str, int]:
    found = {}
    for path in modules().values():
        relative = path.relative_to(ROOT)
        if {"migrations", "tests", "bench"} & set(relative.parts):
            continue
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_LINES:
            found[relative.as_posix()] = lines
    return found


def _compare(found, allowed, what: str) -> None:
    new = sorted(set(found) - set(allowed))
    gone = sorted(set(allowed) - set(found))
    assert not new, f"{what} not allowed (docs/architecture.md): {new}"
    assert not gone, f"{what} allowed but no longer there: take them off the allow-list (tests/test_layers.py): {gone}"


def test_graph_sees_the_project():
    """The graph reads every package and resolves relative and in-function imports (a guard on the guard)."""
    arrows, outside = graph()
    assert {"scoring", "tournaments", "api", "web", "webhooks", "config"} <= {app_of(m) for m in arrows}
    assert "tournaments.models" in arrows["tournaments.services.rounds"]
    assert "django" in outside["tournaments.services.rounds"]
    assert not any(app_of(m) == "tests" for m in arrows)


def test_no_forbidden_imports():
    """scoring/ imports no Django nor project; tournaments/ no door nor capability; api/ and web/ not each other."""
    _compare(breaches(), ALLOWED_IMPORTS, "imports")


def test_no_circles_between_apps():
    _compare(app_cycles(), ALLOWED_APP_CYCLES, "circles between apps")


def test_no_circles_between_modules():
    _compare(module_cycles(), ALLOWED_MODULE_CYCLES, "circles between modules")


def test_no_long_files():
    _compare(long_files(), ALLOWED_LONG_FILES, f"files over {MAX_LINES} lines")


if __name__ == "__main__":  # the picture: python tests/test_layers.py
    for pair in sorted(breaches()):
        print("breach", *pair)
    for cycle in app_cycles():
        print("app circle", *cycle)
    for cycle in module_cycles():
        print("module circle", *cycle)
    for name, lines in sorted(long_files().items()):
        print("long", name, lines)
