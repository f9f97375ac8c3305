"""The connection and project commands MindStudio Insight's web frontend sends before any view.

Shapes from the real server (Ascend/msinsight ``server/src/modules/global/``:
``protocol/GlobalProtocolUtil.cpp``, ``protocol/GlobalProtocol.cpp``, ``handler/FilesGetHandler.cpp``,
``handler/CheckProjectValidHandler.cpp``).
The file browser (``files/get``) and the project check see only the import root (``--import-root``):
a path outside it, or any path when the server has none, does not exist for them. They open what
they look at as the import does (:mod:`rooted`), so a folder swapped for a symlink is never listed.
"""

from __future__ import annotations

import os
import stat
from contextlib import contextmanager

from service.insight import cards, explorer, importer, ranks, rooted
from service.insight.protocol import InsightError, Params

#: ProjectErrorType of the real server (GlobalProtocolResponse.h)
NO_ERRORS, IS_UNSAFE_PATH, OTHER = 0, 2, -1


def heart_check(conn, params: Params) -> dict:
    """The page renders once this answers; nothing to report."""
    return {}


def module_config(conn, params: Params) -> dict:
    """Plug-in modules' configurations: none (the built-in timeline and operator views serve)."""
    return {"configs": []}


def _rank_nodes(rank_cards: list[ranks.RankCard]) -> list[dict]:
    """The rank cards as tree nodes, those of a run of several ranks under its cluster's node (the real
    server's Project - Cluster - Rank tree, where the frontend's context menu sets a cluster as baseline:
    modules/framework ``RemoteManager/ProjectContents/ContextMenu.tsx`` checkProjectFileIsClusterComparable)."""
    nodes, clusters = [], {}
    for card in rank_cards:
        if card.run_ranks <= 1:
            nodes.append(card.tree_node())
            continue
        if card.run_root not in clusters:
            clusters[card.run_root] = card.cluster_node()
            nodes.append(clusters[card.run_root])
        clusters[card.run_root]["children"].append(card.tree_node())
    return nodes


def project_explorer(conn, params: Params) -> dict:
    """files/getProjectExplorer: one project per name (:func:`explorer.projects`), by name, each with its
    operator profiles, then its rank cards (:mod:`ranks`) as import/action lists them, a cluster's under its
    node."""
    return {"projectDirectoryList": [
        {"projectName": project.name, "fileName": project.entries(),
         "children": [cards.tree_node(card) for card in project.operators] + _rank_nodes(project.rank_cards)}
        for project in explorer.projects(conn).values()]}


@contextmanager
def _below_root(given: str):
    """``given`` opened below the import root (:class:`rooted.Found`), or None (no root, outside it, missing)."""
    try:
        root = importer.import_root()
        found = rooted.open_below(root, given)
    except (InsightError, rooted.NotBelow):
        yield None
        return
    try:
        yield found
    finally:
        found.close()


def files_get(conn, params: Params) -> dict:
    """The folders and files of one folder below the import root (its top when ``path`` is empty)."""
    given = params.text("path", required=False) or ""
    folders, files = [], []
    with _below_root(given) as found:
        if found is None:
            return {"path": given, "childrenFiles": [], "exist": False, "childrenFolders": []}
        path = importer.import_root() / found.relative
        if found.is_dir:
            for name in sorted(os.listdir(found.fd)):
                try:  # the entry itself, as listed: a symlink is neither a folder nor a file here
                    mode = os.stat(name, dir_fd=found.fd, follow_symlinks=False).st_mode
                except OSError:
                    continue
                if stat.S_ISDIR(mode):
                    folders.append({"name": name, "path": str(path / name), "childrenFiles": [], "childrenFolders": []})
                elif stat.S_ISREG(mode):
                    files.append({"name": name, "path": str(path / name)})
    return {"path": str(path), "childrenFiles": files, "exist": True, "childrenFolders": folders}


def check_project_valid(conn, params: Params) -> dict:
    """``result`` 0 when every ``dataPath`` lies below the import root, else the real server's error code."""
    paths = params.values.get("dataPath") or []
    paths = [paths] if isinstance(paths, str) else paths
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        raise InsightError(f"parameter dataPath: expected a list of paths, got {paths!r}")
    for path in paths:
        with _below_root(path) as found:
            if found is None:
                return {"result": IS_UNSAFE_PATH if path else OTHER}
    return {"result": NO_ERRORS}
