"""The project explorer's own commands: rename the project, take entries out of it, clear it.

The page's project list (modules/framework ``utils/Request.ts`` updateProjectName, deleteProject,
deleteDataPath, clearProjects) sends ``files/updateProjectExplorer`` (``oldProjectName``,
``newProjectName``: EditableText.tsx), ``files/deleteProjectExplorer`` (``projectName`` and ``dataPath``,
the entries to take out; none: the whole project) and ``files/clearProjectExplorer``
(``projectNameList``; none: every project). The real server keeps its explorer in a database of its
own and changes it there (``server/src/modules/global/handler/UpdateProjectExplorerInfoHandler.cpp``,
``DeleteProjectExplorerInfoHandler.cpp``, ``ClearProjectExplorerHandler.cpp``;
``core/ProjectExplorerManager.cpp`` UpdateProjectName, DeleteProjectAndFilePath, ClearProjectExplorer);
each answers an empty body (``protocol/GlobalProtocolUtil.cpp``), ``result`` false only when the change
cannot be made (an empty name: SystemMemoryDatabase.cpp UpdateProjectName). A name or project that is
not the explorer's changes nothing and still succeeds, as there.

Here the explorer is the warehouse's (:func:`service.insight.project.project_explorer`: one project holding
every card), so what the page changes is kept in the warehouse (tables ``insight_project`` and
``insight_explorer_removed``, read by the named query ``insight_project_explorer``) and every page opened
on it later sees it. Taking an entry out, or clearing, removes no ingested row: the real server's
delete removes its explorer records and leaves the profile's own files and the databases it parsed them
into, so the card comes back when an import names its file again (:func:`restore`). Clearing the
explorer's project also forgets the connection's baseline and current operator profile, as the real
server resets its parsers and its BaselineManager.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path, PurePosixPath

from flask import current_app

from service.insight import cards, ranks
from service.insight.protocol import InsightError, Params, rows
from warehouse import db, sqlfiles
from warehouse.errors import WarehouseError

#: the project's name until the page gives it one
DEFAULT_NAME = "warehouse"
HERE = Path(__file__).resolve().parent


def state(conn) -> tuple[str, list[str]]:
    """(the project's name, the paths taken out of the explorer)."""
    found = rows(conn, "insight_project_explorer")
    names = [row["value"] for row in found if row["kind"] == "name"]
    return (names[0] if names else DEFAULT_NAME), [row["value"] for row in found if row["kind"] == "removed"]


def covered(path: str, removed: list[str]) -> bool:
    """Whether ``path`` is one of ``removed`` or lies below one of them."""
    given = PurePosixPath(path)
    return any(given == PurePosixPath(gone) or PurePosixPath(gone) in given.parents for gone in removed)


def _write(statement: str, each: list[dict]) -> None:
    """Run ``statement`` (a file beside this module) once per parameters of ``each``, in one transaction on
    a connection of its own: requests read the warehouse on read-only ones.

    :raises InsightError: if the warehouse cannot be written (read-only storage, a lock held too long).
    """
    database = current_app.config["DATABASE"]
    try:
        writer = db.connect(database)
        try:
            with db.transaction(writer, database, again="ask again"):
                for params in each:
                    for sql in sqlfiles.statements(HERE / f"{statement}.sql"):
                        writer.execute(sql, params)
        finally:
            writer.close()
    except (sqlite3.Error, WarehouseError) as exc:
        raise InsightError(f"the project explorer cannot be changed: {exc}") from None


def update_project_explorer(conn, params: Params) -> dict:
    """files/updateProjectExplorer: the project named ``oldProjectName`` is called ``newProjectName``."""
    old = params.text("oldProjectName", required=False)
    new = params.text("newProjectName", required=False)
    if not old or not new:
        raise InsightError("Failed to update project name, param is invalid.")
    if old == state(conn)[0]:
        _write("explorer_rename", [{"name": new}])
    return {}


def _entries(conn) -> list[str]:
    """The paths of every card the explorer lists (operator profiles' files, rank cards' inputs)."""
    profiles = [card["cardPath"] for card in cards.listing(conn) if card["kind"] == cards.OPERATOR_KIND]
    return profiles + [card.path for card in ranks.listing(conn)]


def delete_project_explorer(conn, params: Params) -> dict:
    """files/deleteProjectExplorer: the entries ``dataPath`` names taken out of the project ``projectName``
    (every entry when ``dataPath`` is empty); another project's name changes nothing."""
    project = params.text("projectName", required=False) or ""
    given = params.values.get("dataPath") or []
    if not isinstance(given, list):
        raise InsightError(f"parameter dataPath: expected a list of paths, got {given!r}")
    paths = [path for path in given if isinstance(path, str) and path]  # the real server skips the others
    if project and project != state(conn)[0]:
        return {}
    if not project and not paths:
        return {}
    _write("explorer_remove", [{"path": path} for path in paths or _entries(conn)])
    return {}


def clear_project_explorer(conn, params: Params) -> dict:
    """files/clearProjectExplorer: every entry of the projects ``projectNameList`` names (none: every
    project) taken out; the connection's baseline and current operator profile forgotten with them."""
    names = params.values.get("projectNameList") or []
    if not isinstance(names, list):
        raise InsightError(f"parameter projectNameList: expected a list of names, got {names!r}")
    if names and state(conn)[0] not in names:
        return {}
    session = params.session
    session.operator = session.baseline = session.baseline_rank = session.baseline_cluster = None
    _write("explorer_remove", [{"path": path} for path in _entries(conn)])
    return {}


def restore(conn, paths: list[str]) -> None:
    """An import names ``paths`` (files): the entries taken out of the explorer that are one of them or a
    folder above one are back in (a cluster's folder brings its other ranks back with it)."""
    _, removed = state(conn)
    back = [path for path in paths if covered(path, removed)]
    if back:
        _write("explorer_restore", [{"path": path} for path in back])
