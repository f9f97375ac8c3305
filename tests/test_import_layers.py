"""Layering of the Python packages (issue 33): imports run down the floors, never back up.

From the ground up: the base modules (errors, limits, units, sqlfiles, db, schema_views, queries,
...); ``warehouse.model`` (what rows mean: runs, the folder grammar, classification, nesting);
``warehouse.sources`` (one module per input format, which derive through the model);
``warehouse.ingest`` (the frame, its workers, the merge, the answers-first stage) and
``warehouse.analysis``; ``warehouse.report`` and ``warehouse.engines``; then the applications,
``warehouse.cli``, ``warehouse.demo`` (its launcher), ``service`` and ``datasette_plugins``. Every
import of every module is read (a function's own imports too), and no two packages import each
other in a circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.parsed_source import parsed

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("warehouse", "service", "datasette_plugins")

#: a package and the packages it may never import (they stand above it)
ABOVE = {
    "warehouse.model": ("warehouse.sources", "warehouse.ingest", "warehouse.analysis", "warehouse.report",
                        "warehouse.engines", "warehouse.cli", "warehouse.demo", "service", "datasette_plugins"),
    "warehouse.sources": ("warehouse.ingest", "warehouse.analysis", "warehouse.report", "warehouse.engines",
                          "warehouse.cli", "warehouse.demo", "service", "datasette_plugins"),
    "warehouse.ingest": ("warehouse.report", "warehouse.engines", "warehouse.cli", "warehouse.demo", "service",
                         "datasette_plugins"),
    "warehouse.analysis": ("warehouse.ingest", "warehouse.report", "warehouse.engines", "warehouse.cli",
                           "warehouse.demo", "service", "datasette_plugins"),
    "warehouse.report": ("warehouse.cli", "warehouse.demo", "service", "datasette_plugins"),
    "warehouse.engines": ("warehouse.cli", "warehouse.demo", "service", "datasette_plugins"),
}
#: the warehouse's applications, which start the servers above the library
APPLICATIONS = ("warehouse.cli", "warehouse.demo")


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (REPO / package).rglob("*.py"):
            name = ".".join(path.relative_to(REPO).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def _imports(path: Path, modules: dict[str, Path]) -> set[str]:
    names = set()
    for node in ast.walk(parsed(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                names.add(full if full in modules else node.module)
    return {name for name in names if name in modules}


def _room(module: str) -> str:
    """The package a module stands in: warehouse's own subpackages, else the top-level package;
    warehouse's base modules are each their own."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "warehouse" and len(parts) > 1 else parts[0]


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(path, modules) - {name} for name, path in modules.items()}


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_no_import_runs_back_up():
    wrong = sorted(f"{module} imports {target}" for module, targets in _graph().items() for target in targets
                   for package, above in ABOVE.items() if _within(module, package)
                   and any(_within(target, higher) for higher in above))
    library_up = sorted(f"{module} imports {target}" for module, targets in _graph().items() for target in targets
                        if _within(module, "warehouse") and not any(_within(module, a) for a in APPLICATIONS)
                        and _within(target, "service") | _within(target, "datasette_plugins"))
    assert wrong + library_up == []


def test_no_two_packages_import_each_other():
    rooms: dict[str, set[str]] = {}
    for module, targets in _graph().items():
        rooms.setdefault(_room(module), set()).update(_room(target) for target in targets)
    pairs = sorted(f"{a} <-> {b}" for a, reads in rooms.items() for b in reads if a < b and a in rooms.get(b, ()))
    assert pairs == []
