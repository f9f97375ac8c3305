"""import/action: ingest files into the served warehouse, only from below the server's import root.

The server reads nothing unless it was started with ``--import-root DIR`` (config
``IMPORT_ROOT``), and only files whose real path (symlinks resolved) lies inside DIR; one path
outside refuses the whole request before anything is read. The ingest uses a writable
connection opened for it alone; requests keep their read-only ones.
"""

from __future__ import annotations

from pathlib import Path

from flask import current_app

from service.insight import cache, cards
from service.insight.protocol import InsightError, Params, rows
from warehouse import db, ingest

FINE = ("ok", "unchanged")
#: block types: the simulator's timeline, the instructions, the cacheline records
TRACE_BLOCK, INSTRUCTIONS_BLOCK, CACHELINE_BLOCK = 0x02, 0x04, 0x0E


def inside(root: Path, given: str) -> list[Path]:
    """The files ``given`` names (a file, or the files below a folder), each resolved inside ``root``.

    :raises InsightError: if ``given`` or any file below it resolves outside ``root`` or does not exist.
    """
    candidate = Path(given)
    candidate = candidate if candidate.is_absolute() else root / candidate
    try:
        resolved = candidate.resolve(strict=True)
    except (OSError, RuntimeError, ValueError):  # ValueError: an embedded NUL byte
        raise InsightError(f"{given}: no such file below the import root") from None
    if not resolved.is_relative_to(root):
        raise InsightError(f"{given}: outside the import root {root}")
    files = []
    for path in ingest.discover([resolved]):
        real = path.resolve()
        if not real.is_relative_to(root):
            raise InsightError(f"{given}: {path.name} links outside the import root {root}")
        files.append(real)
    return files


def import_root() -> Path:
    """The server's import root, resolved.

    :raises InsightError: if the server was started without one.
    """
    root = current_app.config.get("IMPORT_ROOT")
    if not root:
        raise InsightError("import is disabled: the server was started without --import-root")
    return Path(root).resolve()


def import_action(conn, params: Params) -> dict:
    """Ingest ``path`` (a list) and answer with the cards, cores and source files now served."""
    root = import_root()
    files = [f for given in params.text_list("path") for f in inside(root, given)]
    database = current_app.config["DATABASE"]
    writer = db.connect(database)
    try:
        results = ingest.ingest_paths(writer, files)
    finally:
        writer.close()
        cache.forget(database)
    by_source = {card["sourceId"]: card for card in cards.listing(conn)}
    imported = [by_source.get(r.source_id) for r in results]
    operators = [c["sourceId"] for c in imported if c and c["kind"] == cards.OPERATOR_KIND]
    kinds = {s: {row["block_type"]: row["version"] for row in rows(conn, "insight_block_kinds", source_id=s)}
             for s in operators}
    instructions = [k[INSTRUCTIONS_BLOCK] for k in kinds.values() if INSTRUCTIONS_BLOCK in k]
    return {
        "isOnlyTraceJson": False, "isCluster": False, "reset": True,
        # the simulator's profiles carry a timeline (block 0x02); on-board ones do not
        "isSimulation": any(TRACE_BLOCK in k for k in kinds.values()), "isBinary": bool(operators),
        "isIpynb": False, "isPending": False,
        "hasCachelineRecords": any(CACHELINE_BLOCK in k for k in kinds.values()),
        "instrVersion": instructions[0] if instructions else -1,
        "coreList": _union(conn, "insight_cores", "core", operators),
        "sourceList": _union(conn, "insight_code_files", "path", operators), "subdirectoryList": [],
        "result": [{"cardName": card["cardName"] if card else result.path.name,
                    "rankId": card["rankId"] if card else str(result.path),
                    "cardPath": str(result.path), "result": result.status in FINE,
                    "dataPathList": [str(result.path)], "host": ""}
                   for result, card in zip(results, imported)],
        "children": [cards.tree_node(card) for card in imported if card],
    }


def _union(conn, query: str, column: str, source_ids: list[int]) -> list[str]:
    seen: dict[str, None] = {}
    for source_id in source_ids:
        for row in rows(conn, query, source_id=source_id):
            seen.setdefault(row[column], None)
    return list(seen)
