"""The project explorer: one project per import's name, and the page's commands on it (rename, take entries
out, clear).

The real server records each import under the ``projectName`` the page sent with it (import/action;
modules/framework ``ImportData/FileExplorer.tsx`` names a new project by the path imported, and an import
"under" a project by that project's name) and lists one project per name, every import recorded under it
merged (``server/src/modules/global/core/ProjectExplorerManager.cpp`` SaveProjectExplorer,
``handler/GetProjectExplorerInfoHandler.cpp``, a std::map: by name). The warehouse keeps the same records
(table ``insight_project_import``: the project's name and each path imported under it), so a page reloaded
lists the projects it created and a folder imported again under its project's name is the same record: the
project holds its cards once. A project holds every card at or below a path imported under it: an operator
profile's file, or a rank card any of whose inputs lies there; one card may be in several projects (a folder
imported under two names), as there.

A card no import recorded a name for (ingested by ``warehouse ingest``, by ``POST /insight`` without
``projectName``, or before the warehouse kept names) is in the project named by its run's root: the folder
or file given to that ingest, which is the name the page gives a project it imports that folder into
(FileExplorer.tsx: ``projectName`` is the path), so a warehouse filled from the command line lists what the
page would have listed had it imported the same folders, and importing such a folder from the page under its
path adds no second project.

The page's project list (``utils/Request.ts`` updateProjectName, deleteProject, deleteDataPath,
clearProjects) sends ``files/updateProjectExplorer`` (``oldProjectName``, ``newProjectName``:
EditableText.tsx), ``files/deleteProjectExplorer`` (``projectName`` and ``dataPath``, the entries to take
out; none: the whole project) and ``files/clearProjectExplorer`` (``projectNameList``; none: every project);
the real server changes its records (``UpdateProjectExplorerInfoHandler.cpp``,
``DeleteProjectExplorerInfoHandler.cpp``, ``ClearProjectExplorerHandler.cpp``; UpdateProjectName,
DeleteProjectAndFilePath, ClearProjectExplorer) and answers an empty body (``protocol/GlobalProtocolUtil.cpp``),
``result`` false only when the change cannot be made (an empty name: SystemMemoryDatabase.cpp
UpdateProjectName). A name or project that is not the explorer's changes nothing and still succeeds, as there.
Each change is kept per project in the warehouse (tables ``insight_project_import`` and
``insight_project_removed``, read by the named query ``insight_project_explorer``), so every page opened on it
later sees it. Taking an entry out, or clearing, removes no ingested row and keeps the project's imports (the
real server drops its records, but here a card of no recorded project would come back under its run's root):
the card comes back when an import into the project names its file again (:func:`imported`). Clearing also
forgets the connection's baseline and current operator profile, as the real server resets its parsers and its
BaselineManager.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from flask import current_app

from service.insight import baseline, cards, ranks
from service.insight.protocol import InsightError, Params, rows
from warehouse import db, sqlfiles
from warehouse.errors import WarehouseError

HERE = Path(__file__).resolve().parent


@dataclass
class Project:
    """One project of the explorer: its name and the cards it lists."""

    name: str
    #: whether an import recorded the name (else it is a run's root naming cards imported without one)
    recorded: bool
    operators: list[dict] = field(default_factory=list)
    rank_cards: list[ranks.RankCard] = field(default_factory=list)

    def entries(self) -> list[str]:
        """The paths of its cards (operator profiles' files, rank cards' ids), as the explorer lists them."""
        return [card["cardPath"] for card in self.operators] + [card.path for card in self.rank_cards]


def covered(path: str, paths: list[str]) -> bool:
    """Whether ``path`` is one of ``paths`` or lies below one of them."""
    given = PurePosixPath(path)
    return any(given == PurePosixPath(other) or PurePosixPath(other) in given.parents for other in paths)


def _records(conn) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """(the paths imported under each project's name, the paths taken out of each project)."""
    imports: dict[str, list[str]] = {}
    removed: dict[str, list[str]] = {}
    for row in rows(conn, "insight_project_explorer"):
        (imports if row["kind"] == "import" else removed).setdefault(row["project"], []).append(row["path"])
    return imports, removed


def projects(conn) -> dict[str, Project]:
    """Every project listing a card, by name: the cards at or below its imports (a card no import covers: the
    project named by its run's root), less those taken out of it."""
    imports, removed = _records(conn)
    found: dict[str, Project] = {}

    def names(paths: list[str], root: str) -> list[str]:
        claimed = [name for name, imported in imports.items() if any(covered(path, imported) for path in paths)]
        return claimed or [root]

    def project(name: str) -> Project:
        return found.setdefault(name, Project(name, name in imports))

    for card in cards.listing(conn):
        if card["kind"] == cards.OPERATOR_KIND:
            for name in names([card["cardPath"]], card["runRoot"]):
                if not covered(card["cardPath"], removed.get(name, [])):
                    project(name).operators.append(card)
    for card in ranks.listing(conn):
        for name in names(sorted(card.paths), card.run_root):
            gone = removed.get(name, [])
            if not covered(card.path, gone) and not covered(card.run_root, gone):
                project(name).rank_cards.append(card)
    return dict(sorted(found.items()))


def _write(steps: list[tuple[str, dict]]) -> None:
    """Run each statement (a file beside this module) with its parameters, in one transaction on a connection
    of its own: requests read the warehouse on read-only ones.

    :raises InsightError: if the warehouse cannot be written (read-only storage, a lock held too long).
    """
    if not steps:
        return
    database = current_app.config["DATABASE"]
    try:
        writer = db.connect(database)
        try:
            with db.transaction(writer, database, again="ask again"):
                for statement, params in steps:
                    for sql in sqlfiles.statements(HERE / f"{statement}.sql"):
                        writer.execute(sql, params)
        finally:
            writer.close()
    except (sqlite3.Error, WarehouseError) as exc:
        raise InsightError(f"the project explorer cannot be changed: {exc}") from None


def update_project_explorer(conn, params: Params) -> dict:
    """files/updateProjectExplorer: the project named ``oldProjectName`` is called ``newProjectName`` (a project
    named by a run's root is recorded first as the imports of its cards, which then move to the new name)."""
    old = params.text("oldProjectName", required=False)
    new = params.text("newProjectName", required=False)
    if not old or not new:
        raise InsightError("Failed to update project name, param is invalid.")
    listed = projects(conn).get(old)
    if old == new or (listed is None and old not in _records(conn)[0]):
        return {}
    unrecorded = [] if listed is None or listed.recorded else listed.entries()
    _write([("explorer_import", {"project": old, "path": path}) for path in unrecorded]
           + [("explorer_rename", {"old": old, "new": new})])
    return {}


def _removing(named: list[Project], paths: list[str] | None = None) -> list[tuple[str, dict]]:
    """The statements taking ``paths`` (None: every entry) out of each project of ``named``: of ``paths``, those
    that are an entry of the project or a folder above one (a cluster's folder), as the real server deletes
    only the project's own files (DeleteProjectAndFilePath)."""
    return [("explorer_remove", {"project": project.name, "path": path}) for project in named
            for path in (project.entries() if paths is None else
                         [path for path in paths if any(covered(entry, [path]) for entry in project.entries())])]


def delete_project_explorer(conn, params: Params) -> dict:
    """files/deleteProjectExplorer: the entries ``dataPath`` names taken out of the project ``projectName`` (every
    entry when ``dataPath`` is empty; every project when ``projectName`` is, as DeleteProjectAndFilePath
    queries them all); a name no project has changes nothing."""
    name = params.text("projectName", required=False) or ""
    given = params.values.get("dataPath") or []
    if not isinstance(given, list):
        raise InsightError(f"parameter dataPath: expected a list of paths, got {given!r}")
    paths = [path for path in given if isinstance(path, str) and path]  # the real server skips the others
    if not name and not paths:
        return {}
    listed = projects(conn)
    named = list(listed.values()) if not name else [listed[name]] if name in listed else []
    _write(_removing(named, paths or None))
    return {}


def clear_project_explorer(conn, params: Params) -> dict:
    """files/clearProjectExplorer: every entry of the projects ``projectNameList`` names (none: every project)
    taken out; the connection's baseline and current operator profile forgotten with them."""
    names = params.values.get("projectNameList") or []
    if not isinstance(names, list):
        raise InsightError(f"parameter projectNameList: expected a list of names, got {names!r}")
    named = [project for project in projects(conn).values() if not names or project.name in names]
    if not named:
        return {}
    baseline.cancel_baseline(conn, params)
    params.session.operator = None
    _write(_removing(named))
    return {}


def imported(conn, project: str | None, given: list[str], files: list[str]) -> None:
    """An import of ``given`` (paths, each a folder or a file) whose files are ``files``, under the project's
    name ``project`` (None: the page named none): each path is recorded under the name, and the entries taken
    out of the project (of any project, when unnamed) that are one of the files or a folder above one are back
    in (a cluster's folder brings its other ranks back with it)."""
    imports, removed = _records(conn)
    gone = [path for name, paths in removed.items() if project in (None, name) for path in paths]
    steps = [("explorer_import", {"project": project, "path": path})
             for path in given if project and path not in imports.get(project, [])]
    _write(steps + [("explorer_restore", {"project": project, "path": path}) for path in files if covered(path, gone)])
