"""import/action: ingest files into the served warehouse, only from below the server's import root.

The server reads nothing unless it was started with ``--import-root DIR`` (config
``IMPORT_ROOT``), and only files below DIR, each opened without a race (:mod:`rooted`: walked
from the root's descriptor, symlinks followed only within it); one path that is not a readable
file or folder below the root refuses the whole request before anything is read, with the same
words whatever the reason. A file is hashed through the descriptor opened, once per version
(:mod:`hashes`); the ingest reads it by its path, and keeps what it read only if the root, every
folder on the way and the file are still the ones opened (``Found.unchanged``). The ingest uses
a writable connection opened for it alone; requests keep their read-only ones. One import at a time
per warehouse; on the WebSocket the ingest runs in the background (:mod:`parsing`).
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from flask import current_app

from service.insight import cache, cards, explorer, hashes, parse_events, parsing, planned, ranks, rooted
from service.insight.protocol import InsightError, Params, rows
from warehouse import db, ingest
from warehouse.errors import IngestError
from warehouse.model.runs import RunNamer
from warehouse.ingest.parts import PART_FOLDER_PREFIX

#: block types: the simulator's timeline, the instructions, the cacheline records
TRACE_BLOCK, INSTRUCTIONS_BLOCK, CACHELINE_BLOCK = 0x02, 0x04, 0x0E
#: ProjectTypeEnum of the real server (server/src/modules/defs/GlobalDefs.h): an operator profile, anything else
BIN_PROJECT, OTHER_PROJECT = 1, 100


def inside(root: Path, given: str) -> tuple[PurePosixPath, list[PurePosixPath]]:
    """What ``given`` names and its files (itself, or the files below a folder), relative to ``root``.

    :raises InsightError: if ``given`` is not a readable file or folder below ``root``, or a
        symlink below it leads outside (one message for all, naming ``given`` relative to the root).
    """
    try:
        found = rooted.open_below(root, given)
        try:
            if not found.is_dir:
                return found.relative, [found.relative]
            return found.relative, list(rooted.files_below(root, found, rooted.relative_to_root(root, given),
                                                           skip_folders=PART_FOLDER_PREFIX))
        finally:
            found.close()
    except rooted.NotBelow as refused:
        raise InsightError(str(refused)) from None


def import_root() -> Path:
    """The server's import root, resolved.

    :raises InsightError: if the server was started without one.
    """
    root = current_app.config.get("IMPORT_ROOT")
    if not root:
        raise InsightError("import is disabled: the server was started without --import-root")
    return Path(root).resolve()


def import_action(conn, params: Params) -> dict:
    """Ingest ``path`` (a list) and answer with the cards, cores and source files served; the first
    operator profile the paths name (imported now or before) becomes the session's current one.

    Cards as the real server's (TimelineProtocolUtil.cpp, ImportActionResponse): an operator profile
    is one card (projectType BIN), a training run one card per rank (:mod:`ranks`: every rank holding a
    file the paths name, imported now or before), a file that failed one card with ``result`` false.
    The paths are recorded under the page's ``projectName`` (:func:`explorer.imported`: the project explorer
    lists their cards in that project, once however often they are imported). Each card's ``parse/success``
    event (an operator profile's too: its trace's lanes, or none), each cluster's completion, and each rank's
    ``parse/operatorCompleted`` are left for the page (:mod:`parse_events`).

    A page with an event channel (the WebSocket) importing new files that give rank cards (and no
    operator profile) is answered at once with the cards the files will give (:mod:`planned`); the
    ingest then runs in the background and the page hears how it goes (:mod:`parsing`). Otherwise
    (``POST /insight``, operator profiles, nothing new) the answer comes after the ingest."""
    root = import_root()
    named = [inside(root, given) for given in params.text_list("path")]
    found = [f for _, files in named for f in files]
    database = current_app.config["DATABASE"]
    paths = [str(root / f) for f in found]
    if params.session.removed_cards:  # cards remote/delete took off the page come back when imported again
        params.session.removed_cards.difference_update(card.card_id for card in ranks.of_paths(conn, paths))

    def record() -> None:  # under the project the page names, once the import is taken (a refused one is not)
        explorer.imported(conn, params.text("projectName", required=False) or None,
                          [str(root / given) for given, _ in named], paths)

    if params.session.push is not None:
        body = _in_background(conn, params, root, found, database, paths, record)
        if body is not None:
            return body
    with parsing.lock_of(database):
        record()
        writer = db.connect(database)
        try:
            results = _ingest_all(writer, root, _new_files(writer, root, found))
        finally:
            writer.close()
            cache.forget(database)
    listing = cards.listing(conn)
    _make_current(params, listing, paths)
    by_source = {card["sourceId"]: card for card in listing}
    operator_cards = [by_source[r.source_id] for r in results
                      if r.source_id in by_source and by_source[r.source_id]["kind"] == cards.OPERATOR_KIND]
    rank_cards = ranks.of_paths(conn, paths)
    # an operator profile's card hears its parse/success too, lanes or none, as SourceFileParser's end of parse
    # sends it: the Timeline shows the card parsing until then
    profiles = [ranks.of_operator_profile(card) for card in operator_cards]
    params.session.events.extend(parse_events.parse_success(conn, profiles, params.session.card_aliases))
    params.session.events.extend(parsing.completed(conn, rank_cards, params.session.card_aliases))
    return _answer(conn, results, operator_cards, rank_cards)


def _in_background(conn, params: Params, root: Path, found: list[PurePosixPath], database: str,
                   paths: list[str], record) -> dict | None:
    """The answer of an import whose ingest is left to run once it is sent (:mod:`parsing`), or None
    when it is not to run in the background (nothing new, no rank card, an operator profile); ``record`` (the
    import in the project explorer) is called once the warehouse is free for it.

    :raises InsightError: if another import into the warehouse is being parsed.
    """
    lock = parsing.lock_of(database)
    if not lock.acquire(blocking=False):
        raise InsightError("an import into this warehouse is still being parsed: import again once its cards "
                           "are parsed (parse/success or parse/fail)")
    handed_on = False
    try:
        record()
        files = _new_files(conn, root, found)
        kinds = planned.kinds_of(files)
        plan = planned.plan(conn, files, kinds, paths)
        if not plan.card_of or cards.OPERATOR_KIND in kinds.values() or _operator_cards(conn, paths):
            return None
        sizes = {path: _size(path) for path in files}
        body = _answer(conn, [], [], plan.cards)
        push = params.session.push
        params.session.then.append(lambda: parsing.start(
            database, sizes, plan, paths, lambda writer, done: _ingest_all(writer, root, files, done), push,
            params.session.card_aliases))
        handed_on = True
        return body
    finally:
        if not handed_on:
            lock.release()


def _answer(conn, results: list[ingest.FileResult], operator_cards: list[dict], rank_cards: list[ranks.RankCard]):
    """import/action's body (ToResponseJson<ImportActionResponse>)."""
    operators = [c["sourceId"] for c in operator_cards]
    kinds = {s: {row["block_type"]: row["version"] for row in rows(conn, "insight_block_kinds", source_id=s)}
             for s in operators}
    instructions = [k[INSTRUCTIONS_BLOCK] for k in kinds.values() if INSTRUCTIONS_BLOCK in k]
    return {
        "reset": True,
        # the simulator's profiles carry a timeline (block 0x02); on-board ones do not
        "isSimulation": any(TRACE_BLOCK in k for k in kinds.values()), "isBinary": bool(operators),
        "isIpynb": False, "isPending": False, "isLeaks": False, "isIE": False, "isTriton": False,
        **ranks.import_flags(rank_cards),
        "hasCachelineRecords": any(CACHELINE_BLOCK in k for k in kinds.values()),
        "instrVersion": instructions[0] if instructions else -1,
        "coreList": _union(conn, "insight_cores", "core", operators),
        "sourceList": _union(conn, "insight_code_files", "path", operators), "subdirectoryList": [],
        "result": _actions(results, operator_cards, rank_cards),
        "children": [cards.tree_node(card) for card in operator_cards] + [card.tree_node() for card in rank_cards],
    }


def _new_files(conn, root: Path, found: list[PurePosixPath]) -> list[Path]:
    """The files found that the warehouse does not hold yet, once each, in the order found."""
    own = set(ingest.warehouse_files(conn))
    return [root / f for f in dict.fromkeys(found) if root / f not in own]


def _operator_cards(conn, paths: list[str]) -> list[dict]:
    """The operator profiles among ``paths`` the warehouse holds."""
    named = set(paths)
    return [card for card in cards.listing(conn) if card["kind"] == cards.OPERATOR_KIND and card["cardPath"] in named]


def _size(path: Path) -> int:
    """The file's size now (0 when it cannot be read: its ingest will say why)."""
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _ingest_all(writer, root: Path, files: list[Path], done=lambda path: None) -> list[ingest.FileResult]:
    """Ingest ``files`` (below ``root``) one by one, calling ``done`` with each once it is in."""
    runs = RunNamer(writer, files)
    results = []
    for path in files:
        results.append(_ingest(writer, root, path, runs))
        done(path)
    return results


def _actions(results: list[ingest.FileResult], operator_cards: list[dict], rank_cards: list[ranks.RankCard]) -> list:
    """The cards, then a card in error per file that failed, and per file no source reads when nothing
    else was found (as the real server answers "No parsable db files found")."""
    found = [_operator_action(card) for card in operator_cards] + [card.action() for card in rank_cards]
    unread = ("failed",) if found else ("failed", "skipped")
    return found + [_failed_action(result) for result in results if result.status in unread]


def _operator_action(card: dict) -> dict:
    return {"cardName": card["cardName"], "rankId": card["rankId"], "cardPath": card["cardPath"], "result": True,
            "dbPath": card["cardPath"], "cluster": "", "projectType": BIN_PROJECT,
            "dataPathList": [card["cardPath"]], "host": ""}


def _failed_action(result: ingest.FileResult) -> dict:
    """A file that could not be read: a card in error (the page shows it so, with no lanes)."""
    return {"cardName": result.path.name, "rankId": str(result.path), "cardPath": str(result.path), "result": False,
            "dbPath": str(result.path), "cluster": "", "projectType": OTHER_PROJECT,
            "dataPathList": [str(result.path)], "host": ""}


def _make_current(params: Params, listing: list[dict], paths: list[str]) -> None:
    """The first operator profile among ``paths`` becomes the session's current one (the real
    server's file set made current at import: ProjectParserBin.cpp SetFilePath)."""
    by_path = {card["cardPath"]: card for card in listing if card["kind"] == cards.OPERATOR_KIND}
    named = next((by_path[path] for path in paths if path in by_path), None)
    if named is not None:
        params.session.operator = named["sourceId"]


def _ingest(writer, root: Path, path: Path, runs: RunNamer) -> ingest.FileResult:
    """Ingest one file listed below the root: opened again (it may have changed since the listing),
    hashed through that descriptor, and kept only if nothing on its way changed while it was read."""
    try:
        found = rooted.open_below(root, str(path.relative_to(root)))
    except rooted.NotBelow as refused:
        return ingest.FileResult(path, "failed", error=str(refused))
    try:
        try:
            hashed = hashes.size_and_sha256(found)
        except OSError as exc:
            hashed = exc

        def unchanged() -> None:
            if not (found.unchanged() and _same_file(root, found)):
                raise IngestError(f"{path.relative_to(root)}: changed while it was imported (the file, or a folder "
                                  f"on its way, was written, replaced or renamed); nothing of it was kept")

        return ingest.ingest_file(writer, path, hashed=hashed, runs=runs, verify=unchanged)
    finally:
        found.close()


def _union(conn, query: str, column: str, source_ids: list[int]) -> list[str]:
    seen: dict[str, None] = {}
    for source_id in source_ids:
        for row in rows(conn, query, source_id=source_id):
            seen.setdefault(row[column], None)
    return list(seen)


def _same_file(root: Path, found: rooted.Found) -> bool:
    """Whether the file's path, walked again now, leads to the file opened (a swap still in place
    is seen here even where the file system's timestamps are too coarse to show it)."""
    try:
        again = rooted.open_below(root, found.relative.as_posix())
    except rooted.NotBelow:
        return False
    try:
        return (again.status.st_dev, again.status.st_ino) == (found.status.st_dev, found.status.st_ino)
    finally:
        again.close()
