"""The rank (and device) a file belongs to, as the profilers' output layout says it.

The folder names and what they mean are :mod:`~warehouse.model.folder_grammar`'s; this
module reads the sidecars they name. torch_npu writes a ``profiler_info_{N}.json`` beside each
rank's outputs. msprof writes a ``PROF_*`` folder per run of a process: ``device_{N}/`` holds the
device's data and its ``info.json.{N}``, ``host/`` the host's (``info.json``), and the exports go
to the PROF folder itself (``msprof_*.db``) or to its ``mindstudio_profiler_output/`` (older
releases: ``device_{N}/summary``). An info.json's ``rank_id`` is the RANK_ID the process ran with
(-1 when unset); the N of ``device_{N}`` / ``info.json.{N}`` is the device (msprof-analyze reads
both the same way). Every source that cannot read the rank from the file itself asks here, so
that all of a rank's files agree on it.

One encoding of "rank unknown": an input about one rank that neither it nor its folders name
gets :data:`UNKNOWN_RANK` (-1, as RANK_ID and RANK_DEVICE_MAP write an unset rank), in
``source.rank_id`` and in every row it adds. NULL means something else: an input about no one
rank (a whole cluster's file, such as cluster_step_trace_time.csv; the op simulator's operator
run), or a file not read (yet).
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import OverSizeLimit, open_binary
from warehouse.model import folder_grammar as grammar
from warehouse.sources.kit.numbers import int64

#: the rank of an input about one rank when nothing says which (the profilers' own "unset")
UNKNOWN_RANK = -1
#: what said :data:`UNKNOWN_RANK`: nothing did
UNSET = "unset"


class Layout(tuple):
    """``(rank, what said it)``, and the device as ``device_id`` (None when the layout does not say)."""

    device_id: int | None

    def __new__(cls, rank: int, said_by: str, device_id: int | None = None):
        layout = super().__new__(cls, (rank, said_by))
        layout.device_id = device_id
        return layout

    def __getnewargs__(self):  # pickling (worker processes) rebuilds it with the device
        return (*self, self.device_id)

    @property
    def rank(self) -> int:
        return self[0]

    @property
    def said_by(self) -> str:
        return self[1]


def rank_from_layout(path: str | Path) -> Layout | None:
    """``(rank, what said it)`` from the folders above ``path``, the nearest first; None if none does.

    The folders are ``RANK_DEPTH`` above the file, and the rank folder holding a ``PROF_*`` folder
    among them. In each folder: the one ``profiler_info_{N}.json`` in it (its ``rank_id``, else the N
    of its name: the profiler's own word), else the folder's name (``rank{N}_ascend_pt``,
    ``rank{N}_ascend_ms``, ``test_rank_N``), else, for a ``PROF_*`` folder, its info.json's ``rank_id`` when it is set
    (>= 0; see :func:`device_from_layout` for which info.json). A folder with profiler_info files of
    several ranks says nothing. The result's ``device_id`` is the device of a PROF_* folder on the way.
    """
    return _walk(path)[0]


def rank_or_unknown(path: str | Path) -> Layout:
    """:func:`rank_from_layout`'s answer, else ``(UNKNOWN_RANK, "unset")``: the rank of an input
    about one rank whose folders do not name it."""
    return rank_from_layout(path) or Layout(UNKNOWN_RANK, UNSET)


def device_from_layout(path: str | Path) -> int | None:
    """The NPU device of a file under a ``PROF_*`` folder (also when no rank is set), else None.

    Under ``device_{N}/`` it is N; elsewhere in the PROF folder (its exports, ``host/``) the one
    device folder it holds, none when it holds several.
    """
    return _walk(path)[1]


def _walk(path: str | Path) -> tuple[Layout | None, int | None]:
    device = None
    below = None
    for folder in _searched(path):
        found = _profiler_info(folder)
        if found is None and (rank := grammar.rank_of_folder(folder.name)) is not None:
            found = rank, f"folder {folder.name}"
        if found is None and grammar.is_prof_folder(folder.name):
            prof_rank, prof_device = _prof_folder(folder, below)
            device = prof_device if device is None else device
            found = prof_rank
        if found is not None:
            device = _bounded(path, device, "device folder")
            return Layout(_bounded(path, *found), found[1], device_id=device), device
        below = folder
    return None, _bounded(path, device, "device folder")


def _searched(path: str | Path) -> list[Path]:
    """The folders a rank is looked for in, the nearest first: ``RANK_DEPTH`` above the file, and
    the folder holding the last of them when that is a ``PROF_*`` folder (the rank folder torch_npu
    writes it in: :func:`warehouse.model.runs.run_root` reads that folder as the file's rank folder too).
    """
    parents = list(Path(path).absolute().parents)
    depth = grammar.RANK_DEPTH
    if len(parents) > depth and grammar.is_prof_folder(parents[depth - 1].name):
        depth += 1
    return parents[:depth]


def _bounded(path, number: int | None, said_by: str) -> int | None:
    """``number`` (a rank or device read from a folder name or an info file) when it fits 64 bits.

    :raises IngestError: naming the file and what said the number otherwise.
    """
    try:
        return None if number is None else int64(number, number)
    except ValueError as exc:
        raise IngestError(f"{path}: {said_by}: {exc}") from None


def _profiler_info(folder: Path) -> tuple[int, str] | None:
    try:
        infos = sorted((grammar.rank_of_profiler_info(p.name), p) for p in folder.iterdir()
                       if grammar.rank_of_profiler_info(p.name) is not None)
    except OSError:
        return None
    if len({named for named, _ in infos}) != 1:
        return None
    named, info = infos[0]
    rank = read_sidecar(info).get("rank_id")
    if not isinstance(rank, int) or isinstance(rank, bool):
        rank = named
    return rank, info.name


def _prof_folder(prof: Path, below: Path | None) -> tuple[tuple[int, str] | None, int | None]:
    """``((rank, what said it) or None, device or None)`` of a file in ``prof`` under the folder ``below``.

    Under ``device_{N}/``: N, and the rank its ``info.json.{N}`` sets. Elsewhere: the device folder
    when the PROF folder holds exactly one, and the rank its info.json sets, else ``host/info.json``'s.
    """
    if below is not None and (named := grammar.device_of_folder(below.name)) is not None:
        devices = [(named, below)]
    else:
        devices = sorted((number, p) for p in _listing(prof)
                         if (number := grammar.device_of_folder(p.name)) is not None and p.is_dir())
    device = devices[0][0] if len(devices) == 1 else None
    candidates = []
    if device is not None:
        folder = devices[0][1]
        candidates += [folder / f"info.json.{device}",
                       *sorted(p for p in _listing(folder) if grammar.is_device_info(p.name))]
    candidates.append(prof / grammar.HOST_FOLDER / grammar.HOST_INFO)
    for info in candidates:
        rank = read_sidecar(info).get("rank_id")
        if isinstance(rank, int) and not isinstance(rank, bool) and rank >= 0:
            return (rank, f"{info.parent.name}/{info.name}"), device
    return None, device


def _listing(folder: Path) -> list[Path]:
    try:
        return list(folder.iterdir())
    except OSError:
        return []


def read_sidecar(path: Path) -> dict:
    """A small JSON object file (a sidecar: an info.json, a start_info); {} when it is missing,
    unreadable, not an object, or not a regular file or larger than ``MAX_SIDECAR_BYTES`` (refused
    unread: the file's own ingest says why).
    Its read keeps the input's deadline (:func:`~warehouse.sources.base.open_binary`)."""
    try:
        with open_binary(path, "MAX_SIDECAR_BYTES") as stream:
            document = json.loads(stream.read().decode("utf-8"))
    except (OSError, EOFError, zlib.error, ValueError, RecursionError, OverSizeLimit):
        return {}
    return document if isinstance(document, dict) else {}
