"""Sources produce raw rows only and import no other format's module (issue 16, item 6).

Every module under ``warehouse/sources`` is parsed with :mod:`ast`: a format module (one of
``SOURCES``, with its own subpackage) may import from ``base``, ``kit`` and its own subpackage,
nothing else of ``warehouse.sources``; the kit and ``base`` import no format module at all. ``warehouse/sources/__init__.py``, the registry, imports them all.
"""

from __future__ import annotations

import ast
from pathlib import Path

import warehouse.sources
from tests.parsed_source import parsed
from warehouse.sources import SOURCES

PACKAGE = "warehouse.sources"
ROOT = Path(warehouse.sources.__file__).parent
#: what every module of warehouse.sources may import
SHARED = frozenset({"base", "kit"})
#: (importing format, imported format) -> why
EXCEPTIONS = {
    ("op_profile", "trace_json"): "an operator profile embeds a trace JSON (its 0x02 block), read by the trace source",
    ("msprof_timeline", "trace_json"): "msprof's timeline files are trace JSONs, loaded by the trace source's loader "
                                       "before their kernels, steps and HCCL rows are derived",
    ("mindspore", "trace_json"): "MindSpore's device timelines are trace JSONs, loaded by the trace source's loader "
                                 "as the device's rank",
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([PACKAGE, *parts])


def _owner(module: str) -> str | None:
    """The part of warehouse.sources a dotted name belongs to (``kit``, ``base``, a format), None outside."""
    if module != PACKAGE and not module.startswith(PACKAGE + "."):
        return None
    rest = module[len(PACKAGE) + 1:]
    return rest.split(".")[0] or None


def _imported(path: Path) -> set[str]:
    """The dotted names a module imports (``from a.b import c`` names ``a.b.c``, since c may be a module)."""
    return _imported_by(path.read_text(encoding="utf-8"), _module_name(path), path.name == "__init__.py")


def _imported_by(source: str, name: str, is_package: bool) -> set[str]:
    package = name if is_package else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(parsed(source, name)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def _modules() -> list[Path]:
    return sorted(path for path in ROOT.rglob("*.py") if path != ROOT / "__init__.py")


def _offending_imports() -> dict[str, set[str]]:
    """Module -> the formats it imports that it may not."""
    bad = {}
    for path in _modules():
        owner = _owner(_module_name(path))
        targets = {_owner(name) for name in _imported(path)} - {None, owner} - SHARED
        if owner not in SHARED:
            targets -= {imported for importing, imported in EXCEPTIONS if importing == owner}
        if targets:
            bad[_module_name(path)] = targets
    return bad


def test_no_format_module_imports_another_format_module():
    assert _offending_imports() == {}


def test_the_checker_sees_a_format_imported_through_every_import_form():
    """The parse catches ``from warehouse.sources.x import``, ``from warehouse.sources import x``,
    ``import warehouse.sources.x``, relative imports and imports inside functions (a test of the test)."""
    cases = [  # (source, the module it is in, the format it imports)
        ("from warehouse.sources.step_trace_time import SPEC", "warehouse.sources.kit.probe", "step_trace_time"),
        ("from warehouse.sources import communication_json", "warehouse.sources.kit.probe", "communication_json"),
        ("import warehouse.sources.analysis_db", "warehouse.sources.kit.probe", "analysis_db"),
        ("from .communication_matrix import ingest", "warehouse.sources.probe", "communication_matrix"),
        ("from . import trace_json", "warehouse.sources.probe", "trace_json"),
        ("from ..rank_db import ingest", "warehouse.sources.op_profile.probe", "rank_db"),
        ("def f():\n    from warehouse.sources.l2_cache import SPEC", "warehouse.sources.probe", "l2_cache"),
    ]
    for source, module, format_name in cases:
        assert format_name in {_owner(name) for name in _imported_by(source, module, False)}, source


def test_every_listed_exception_is_an_import_that_exists():
    """An exception no longer needed is taken off the list."""
    for importing, imported in EXCEPTIONS:
        paths = [ROOT / f"{importing}.py"] + sorted((ROOT / importing).rglob("*.py"))
        assert any(imported in {_owner(name) for name in _imported(path)} for path in paths if path.exists())


def test_the_kit_is_no_format_and_every_format_is_outside_it():
    """kit/ holds the helpers the format modules share, no format module of its own."""
    formats = {_owner(module.__name__) for module in SOURCES}
    assert formats.isdisjoint(SHARED)
    for path in (ROOT / "kit").rglob("*.py"):
        defined = {node.targets[0].id for node in parsed(path.read_text(encoding="utf-8")).body
                   if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)}
        assert "KIND" not in defined, path
    # every module of warehouse.sources is a format's, the kit's or base
    owners = {_owner(_module_name(path)) for path in _modules()}
    assert owners <= formats | SHARED, owners - formats - SHARED
