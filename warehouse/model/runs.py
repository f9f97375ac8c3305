"""Runs: the profiling run each input belongs to, found from the layout the profilers write, and
the run a user names.

A run is the folder holding a run's rank folders (torch_npu's ``*_ascend_pt``, MindSpore's
``*_ascend_ms``, MindStudio Insight's ``test_rank_N``, any folder with a ``profiler_info_N.json``),
an msprof ``PROF_*`` folder, the folder above ``cluster_analysis_output``, the MindSpore job folder
of a raw file in its ``data`` folder, the folder of MindSpore's device JSONs (its data pipeline's), or one trace / operator-profile file on its own (the names
are :mod:`~warehouse.model.folder_grammar`'s).
A folder holding several runs yields several runs; ``--run NAME`` names them. A command that
takes a run takes its name or its id (:func:`run_id_named`).
"""

from __future__ import annotations

import datetime
import os
import sqlite3
from collections.abc import Mapping
from pathlib import Path

from warehouse import queries
from warehouse.errors import WarehouseError
from warehouse.model import folder_grammar as grammar

#: single files that are a run of their own when no layout says otherwise (traces, operator profiles)
OWN_RUN_SUFFIXES = (".json", ".json.gz", ".bin")
#: the named query giving every run's id and name, by id (the runs a user can name)
RUN_NAMES = "compare_run_names"


class UnknownRun(WarehouseError):
    """A run a user named that the warehouse does not have, or a name several of its runs have."""


def run_root(path: str | Path) -> Path:
    """The root of the run ``path`` belongs to (a folder, or the file itself)."""
    path = Path(os.path.normpath(Path(path).absolute()))
    parents = list(path.parents)[:grammar.RUN_DEPTH]
    for folder in parents:  # torch_npu's rank folders win over the PROF_* folders inside them
        if grammar.is_rank_folder(folder.name) or _has_profiler_info(folder):
            return folder.parent
    for folder in parents:
        if grammar.is_prof_folder(folder.name):
            return folder
        if folder.name == grammar.CLUSTER_FOLDER:
            return folder.parent
    if path.name.endswith(OWN_RUN_SUFFIXES) and not grammar.is_mindspore_device_json(path.name):
        return path
    if grammar.is_mindspore_raw_in_data(path):
        return path.parent.parent
    return path.parent


def _has_profiler_info(folder: Path) -> bool:
    try:
        return any(grammar.rank_of_profiler_info(child.name) is not None for child in folder.iterdir())
    except OSError:
        return False


class RunNamer:
    """Gives each run root of one ingest its run: an existing run of that root, else a new one.

    ``name`` (``--run NAME``) names the run when the ingest finds one root, and prefixes the
    roots' own names when it finds several; an existing run called ``name`` takes the files of
    a single root (adding inputs to a named run from another folder).
    """

    def __init__(self, conn: sqlite3.Connection, files: list[Path], name: str | None = None):
        self.conn = conn
        self.name = name
        self.roots = sorted({run_root(path) for path in files})
        self.ids: dict[Path, int] = {}

    def run_of(self, path: Path) -> int:
        """The run_id of ``path``'s run, created (and named) on first use."""
        root = run_root(path)
        if root not in self.ids:
            self.ids[root] = self._run(root)
        return self.ids[root]

    def forget(self, path: Path) -> None:
        """Drop what was cached for ``path``'s run: the transaction that created it was rolled back."""
        self.ids.pop(run_root(path), None)

    def _run(self, root: Path) -> int:
        wanted = self.name if len(self.roots) <= 1 else None
        if wanted is not None:
            named = self.conn.execute("SELECT run_id FROM run WHERE name = ?", (wanted,)).fetchone()
            if named:
                return named[0]
        existing = self.conn.execute("SELECT run_id FROM run WHERE root = ?", (str(root),)).fetchone()
        if existing:
            if wanted is not None:
                self.conn.execute("UPDATE run SET name = ? WHERE run_id = ?", (wanted, existing[0]))
            return existing[0]
        if wanted is None:
            wanted = self._unique_name(root)
            if self.name is not None:
                wanted = f"{self.name}/{wanted}"
        now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
        return self.conn.execute(
            "INSERT INTO run (name, root, created_at) VALUES (?, ?, ?)", (wanted, str(root), now)
        ).lastrowid

    def _unique_name(self, root: Path) -> str:
        """The root's shortest trailing part(s) that no run is called yet."""
        parts = root.parts[1:] if root.is_absolute() else root.parts
        for count in range(1, len(parts) + 1):
            candidate = "/".join(parts[-count:])
            if not self.conn.execute("SELECT 1 FROM run WHERE name = ?", (candidate,)).fetchone():
                return candidate
        return str(root)


def resolve(conn: sqlite3.Connection, run: str | int | None) -> int | None:
    """The run_id of the run a user named in the warehouse ``conn`` (see :func:`run_id_named`); None for None.

    :raises UnknownRun: naming the run and the runs there are, when there is no such run.
    """
    if run is None or run == "":
        return None
    return run_id_named(dict(queries.get(RUN_NAMES).run(conn, {})[1]), run)


def run_id_named(names: Mapping[int, str], run: str | int) -> int:
    """The run_id a user named among ``names`` (every run's name by its id): the run of that name,
    else, for digits, the run of that id. The name wins, so a run named after a folder called ``2``
    is that run, as the user sees it listed. The one rule for every command that takes a run
    (``warehouse report --run``, ``warehouse compare``, on a warehouse or a dataset).

    :raises UnknownRun: naming the run and the runs there are, when there is no such run; naming
        the runs' ids when several have that name (a dataset's run table holds no unique key).
    """
    named = [run_id for run_id, name in names.items() if name == str(run)]
    if len(named) > 1:
        raise UnknownRun(f"{str(run)!r} names {len(named)} runs (ids {', '.join(map(str, named))}): "
                         "name one by its id")
    if not named and str(run).isdigit() and int(run) in names:
        named = [int(run)]
    if not named:
        raise UnknownRun(f"no run {str(run)!r} in this warehouse (runs: {', '.join(names.values()) or 'none'})")
    return named[0]
