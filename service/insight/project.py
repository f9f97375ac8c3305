"""The connection and project commands MindStudio Insight's web frontend sends before any view.

Shapes from the real server (Ascend/msinsight ``server/src/modules/global/``:
``protocol/GlobalProtocolUtil.cpp``, ``protocol/GlobalProtocol.cpp``, ``handler/FilesGetHandler.cpp``,
``handler/CheckProjectValidHandler.cpp``).
The file browser (``files/get``) and the project check see only the import root (``--import-root``):
a path outside it, or any path when the server has none, does not exist for them.
"""

from __future__ import annotations

from pathlib import Path

from service.insight import cards, importer
from service.insight.protocol import InsightError, Params

#: ProjectErrorType of the real server (GlobalProtocolResponse.h)
NO_ERRORS, IS_UNSAFE_PATH, OTHER = 0, 2, -1
PROJECT = "warehouse"


def heart_check(conn, params: Params) -> dict:
    """The page renders once this answers; nothing to report."""
    return {}


def module_config(conn, params: Params) -> dict:
    """Plug-in modules' configurations: none (the built-in timeline and operator views serve)."""
    return {"configs": []}


def cancel_baseline(conn, params: Params) -> dict:
    """Compare mode is per request here (``isCompared``, ``baselineRankId``): nothing to cancel."""
    return {}


def project_explorer(conn, params: Params) -> dict:
    """One project holding every card of the warehouse."""
    listing = cards.listing(conn)
    if not listing:
        return {"projectDirectoryList": []}
    return {"projectDirectoryList": [{"projectName": PROJECT, "fileName": [c["cardPath"] for c in listing],
                                      "children": [cards.tree_node(c) for c in listing]}]}


def _below_root(given: str) -> Path | None:
    """``given`` resolved inside the import root, or None (no root, outside it, or missing)."""
    try:
        root = importer.import_root()
    except InsightError:
        return None
    candidate = Path(given) if given else root
    candidate = candidate if candidate.is_absolute() else root / candidate
    try:
        resolved = candidate.resolve(strict=True)
    except (OSError, RuntimeError, ValueError):
        return None
    return resolved if resolved.is_relative_to(root) else None


def files_get(conn, params: Params) -> dict:
    """The folders and files of one folder below the import root (its top when ``path`` is empty)."""
    given = params.text("path", required=False) or ""
    found = _below_root(given)
    folders, files = [], []
    if found is not None and found.is_dir():
        for entry in sorted(found.iterdir(), key=lambda p: p.name):
            if entry.is_dir():
                folders.append({"name": entry.name, "path": str(entry), "childrenFiles": [], "childrenFolders": []})
            elif entry.is_file():
                files.append({"name": entry.name, "path": str(entry)})
    return {"path": str(found) if found is not None else given, "childrenFiles": files,
            "exist": found is not None, "childrenFolders": folders}


def check_project_valid(conn, params: Params) -> dict:
    """``result`` 0 when every ``dataPath`` lies below the import root, else the real server's error code."""
    paths = params.values.get("dataPath") or []
    paths = [paths] if isinstance(paths, str) else paths
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        raise InsightError(f"parameter dataPath: expected a list of paths, got {paths!r}")
    for path in paths:
        if _below_root(path) is None:
            return {"result": IS_UNSAFE_PATH if path else OTHER}
    return {"result": NO_ERRORS}
