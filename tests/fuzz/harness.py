"""What every fuzz test shares: hostile-input strategies and the check that an ingest ended cleanly.

:func:`ingest_hostile` ingests one file through the real frame (``ingest_file``) into a
fresh warehouse, under a wall-clock alarm and an address-space limit (:func:`bounded`),
and asserts DESIGN §8: the file ends as a ``failed`` source with a one-line reason naming
it and no rows anywhere, as ``skipped``, or as ``ok`` with a warehouse that passes every audit
of ``warehouse check``; ``PRAGMA integrity_check`` passes in every case.

The strategies build mutations of a valid, factory-written file: truncations (at the
boundaries the caller names and anywhere), flipped bytes, spliced hostile bytes
(non-UTF-8, NULs, quotes), and for JSON documents a wrong-typed, deeply nested or
enormous value at any path.
"""

from __future__ import annotations

import functools
import json
import resource
import signal
import sqlite3
import tempfile
from contextlib import contextmanager
from pathlib import Path

from hypothesis import settings, strategies as st

from factories.empty_warehouse import empty_warehouse_bytes
from factories.rank_db import write_db
from warehouse import audits, db, introspect
from warehouse.ingest import FileResult, ingest_file
from warehouse.sources.kit import csv_bulk, duck

#: an ingest of a small hostile file taking longer than this is a hang
TIME_LIMIT_S = 20
#: address space an ingest may add to the test process (a declared length of 2^60 must not be allocated)
MEMORY_HEADROOM_BYTES = 1 << 30
#: a reason longer than this is not "one line" any more (an enormous input echoed back)
MAX_REASON_CHARS = 2000
#: bytes that break decoders and parsers when spliced anywhere
HOSTILE_BYTES = (
    b"\xff\xfe\xfd", b"\xc3\x28", b"\xed\xa0\x80", b"\x80", b"\x00" * 9, b'"""', b'"', b"\r\n", b"\n\n",
    b",,,,", b"{", b"}", b"[", b"]", b"\\", b"\\u", b"\\ud800", b"N/A", b"-1", b"1e999", b"NaN", b"-Infinity",
    b"\t", b"\x1f\x8b",
)
#: the largest integer SQLite and the sources meet, and past it
BIG_INTS = (2**31, 2**32, 2**53 + 1, 2**63 - 1, 2**63, 2**64, -(2**63) - 1, 10**30)
#: placeholder replaced in the serialized JSON by raw hostile text (deep nesting, enormous strings)
RAW = "\u0000__raw_hostile_text__\u0000"
RAW_TEXTS = (
    "[" * 100_000 + "]" * 100_000,
    '{"a":' * 50_000 + "1" + "}" * 50_000,
    '"' + "x" * 4_000_000 + '"',
    '"' + "\\u00e9" * 200_000 + '"',
    "1" * 5_000,
    "-" + "9" * 400,
    "1e999999",
    "NaN",
    "Infinity",
)

#: max_examples of the "fuzz" profile (tests/conftest.py): the profile that runs every budget in full
FULL_PROFILE_EXAMPLES = 30


def examples(full: int) -> settings:
    """A fuzz test's budget of ``full`` examples, scaled by the loaded profile (a sixth under "quick", at least 2).

    Read when the test module is imported, after pytest has loaded ``--hypothesis-profile``.
    """
    return settings(max_examples=max(2, full * settings.default.max_examples // FULL_PROFILE_EXAMPLES))


class Hang(BaseException):
    """An ingest outran :data:`TIME_LIMIT_S` (a BaseException, so the frame cannot record it as a failure)."""


@contextmanager
def bounded(seconds: int = TIME_LIMIT_S, headroom: int = MEMORY_HEADROOM_BYTES):
    """Run the block under a wall-clock alarm and an address-space limit of what is mapped now plus ``headroom``."""
    def alarm(signum, frame):
        raise Hang(f"no end after {seconds} s")

    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = _mapped_bytes() + headroom
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    previous = signal.signal(signal.SIGALRM, alarm)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
        signal.signal(signal.SIGALRM, previous)


def _mapped_bytes() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmSize in /proc/self/status")


@functools.cache
def _engine_made() -> None:
    """This process's DuckDB (the CSV exports' engine), made before any bounded ingest.

    The ingest makes it once per process and keeps it; making it reserves over a GiB of address
    space (its allocator's arenas, not memory in use), which the address-space bound, meant for
    what one input costs, would refuse.
    """
    duck.engine(csv_bulk.CELLS_SQL)


def ingest_hostile(name: str, data: bytes, *, folder: str = "") -> FileResult:
    """Write ``data`` as ``folder/name`` next to a fresh warehouse, ingest it, assert a clean end (see module doc)."""
    _engine_made()
    with tempfile.TemporaryDirectory(prefix="fuzz-") as tmp:
        path = Path(tmp) / folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        (Path(tmp) / "warehouse.db").write_bytes(empty_warehouse_bytes())
        conn = db.connect(Path(tmp) / "warehouse.db")
        try:
            with bounded():
                result = ingest_file(conn, path)
            assert_clean_end(conn, path, result)
        finally:
            conn.close()
    return result


def assert_clean_end(conn: sqlite3.Connection, path: Path, result: FileResult) -> None:
    """The file's ``source`` row says how it ended; a failure names it on one line and left no rows."""
    assert result.status in {"ok", "failed", "skipped"}, result
    status, error = conn.execute("SELECT status, error FROM source WHERE id = ?", (result.source_id,)).fetchone()
    assert status == result.status
    if result.status == "failed":
        reason = result.error
        assert reason == error
        assert reason.startswith(f"{path}:"), reason[:300]
        assert "\n" not in reason and len(reason) <= MAX_REASON_CHARS, reason[:300]
        # an exception type the frame does not expect, or memory running out, is a bug, not a clear reason
        for symptom in ("internal error", "MemoryError", "out of memory"):
            assert symptom not in reason, reason[:300]
    assert [row[0] for row in conn.execute("PRAGMA integrity_check")] == ["ok"]
    if result.status == "failed":  # nothing landed, table by table
        for table in introspect.tables_with_column(conn, "source_id"):
            leftover = conn.execute(f'SELECT count(*) FROM "{table}" WHERE source_id = ?', (result.source_id,))
            assert leftover.fetchone()[0] == 0, table
    if result.status != "ok":
        # no rows were read, so none for the audits to compare: preparing them on each example's
        # fresh connection (~0.5 CPU-s) was most of an example's cost
        return
    failed = [(r.audit.name, r.examples[:2]) for r in audits.run_audits(conn) if not r.passed]
    assert failed == [], failed


def sqlite_bytes(tables: dict[str, tuple[str, list[tuple]]]) -> bytes:
    """The bytes of an SQLite file holding ``tables`` ({name: (ddl, rows)})."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "input.db"
        write_db(path, tables)
        return path.read_bytes()


def with_cell(tables: dict[str, tuple[str, list[tuple]]], name: str, row: int, column: int, value) -> dict:
    """A copy of ``tables`` with one cell of table ``name`` replaced (row and column taken modulo)."""
    tables = dict(tables)
    ddl, rows = tables[name]
    if not rows:
        return tables
    rows = list(rows)
    row %= len(rows)
    column %= len(rows[row])
    rows[row] = rows[row][:column] + (value,) + rows[row][column + 1:]
    tables[name] = (ddl, rows)
    return tables



#: how :func:`table_mutations` changes a table: left out, reduced to one column, one hostile cell (most often)
TABLE_CHANGES = ("omit", "single", "cell", "cell", "cell")


def mutated_tables(tables: dict[str, tuple[str, list[tuple]]], name: str, how: str, row: int, column: int,
                   cell) -> dict:
    """A copy of ``tables`` with table ``name`` left out (``omit``), reduced to one column (``single``)
    or with one hostile ``cell`` (``cell``)."""
    if how == "cell":
        return with_cell(tables, name, row, column, cell)
    tables = dict(tables)
    if how == "omit":
        del tables[name]
    else:
        tables[name] = ("x TEXT", [("x",) for _ in tables[name][1]])
    return tables


def one_of_values(values) -> st.SearchStrategy:
    """One of ``values``, drawn by its index.

    ``st.sampled_from`` would hold the values in its repr, and hypothesis warns (HypothesisWarning,
    an error in our runs) when it builds a repr of over 100 kB, as it does for a 100 kB hostile cell.
    """
    values = tuple(values)
    return st.integers(0, len(values) - 1).map(values.__getitem__)


def table_mutations(tables: dict[str, tuple[str, list[tuple]]], cells) -> st.SearchStrategy[bytes]:
    """The bytes of an SQLite file of ``tables`` with one of them mutated (:func:`mutated_tables`)."""
    return st.tuples(
        st.sampled_from(sorted(tables)), st.sampled_from(TABLE_CHANGES),
        st.integers(0, 40), st.integers(0, 40), one_of_values(cells),
    ).map(lambda t: sqlite_bytes(mutated_tables(tables, *t)))

# --- byte-level mutations ---------------------------------------------------------------------


def truncations(data: bytes, boundaries=()) -> st.SearchStrategy[bytes]:
    """``data`` cut at one of ``boundaries`` (and one byte either side) or anywhere."""
    cuts = sorted({c for b in boundaries for c in (b - 1, b, b + 1) if 0 <= c < len(data)})
    positions = st.integers(0, len(data) - 1)
    if cuts:
        positions = st.one_of(st.sampled_from(cuts), positions)
    return positions.map(lambda n: data[:n])


def flipped(data: bytes) -> st.SearchStrategy[bytes]:
    """``data`` with one to eight bytes XORed with a non-zero mask."""
    flips = st.lists(st.tuples(st.integers(0, len(data) - 1), st.integers(1, 255)), min_size=1, max_size=8)

    def apply(pairs):
        out = bytearray(data)
        for position, mask in pairs:
            out[position] ^= mask
        return bytes(out)

    return flips.map(apply)


def spliced(data: bytes) -> st.SearchStrategy[bytes]:
    """``data`` with a hostile chunk inserted at, or overwriting bytes from, some position."""
    return st.tuples(st.integers(0, len(data)), st.sampled_from(HOSTILE_BYTES), st.booleans()).map(
        lambda t: data[:t[0]] + t[1] + data[t[0] + (len(t[1]) if t[2] else 0):]
    )


def byte_mutations(data: bytes, boundaries=()) -> st.SearchStrategy[bytes]:
    return st.one_of(truncations(data, boundaries), flipped(data), spliced(data))


# --- JSON documents ---------------------------------------------------------------------------


def json_paths(doc, prefix=()) -> list[tuple]:
    """Every path (keys and indexes) to a value inside ``doc``, the root included."""
    paths = [prefix]
    if isinstance(doc, dict):
        for key, value in doc.items():
            paths += json_paths(value, prefix + (key,))
    elif isinstance(doc, list):
        for index, value in enumerate(doc):
            paths += json_paths(value, prefix + (index,))
    return paths


def hostile_values() -> st.SearchStrategy:
    """A value of the wrong type (or the right type, out of range) for any JSON field."""
    scalars = st.one_of(
        st.none(), st.booleans(), st.sampled_from(BIG_INTS), st.integers(-(2**70), 2**70),
        st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=20),
        st.sampled_from(["", "x", "N/A", "-1", "1e999", "\udc80", "0x10", "\u0000"]),
    )
    containers = st.one_of(st.lists(scalars, max_size=3), st.dictionaries(st.text(max_size=5), scalars, max_size=3))
    return st.one_of(scalars, containers, st.just(RAW))


def replace_at(doc, path: tuple, value):
    """A copy of ``doc`` with the value at ``path`` replaced (the root when ``path`` is empty)."""
    if not path:
        return value
    doc = json.loads(json.dumps(doc))
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return doc


def delete_at(doc, path: tuple):
    doc = json.loads(json.dumps(doc))
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    del parent[path[-1]]
    return doc


def dump(doc, raw: str = "") -> bytes:
    """``doc`` as JSON (NaN/Infinity allowed, lone surrogates escaped), ``RAW`` swapped for ``raw``."""
    text = json.dumps(doc)
    if raw:
        text = text.replace(json.dumps(RAW), raw, 1)
    return text.encode("utf-8")


def document_mutations(doc, serialize=dump) -> st.SearchStrategy[bytes]:
    """``doc`` with a hostile value at some path, or a key or item removed, serialized by ``serialize(doc, raw)``."""
    paths = json_paths(doc)
    replaced = st.tuples(st.sampled_from(paths), hostile_values(), st.sampled_from(RAW_TEXTS)).map(
        lambda t: serialize(replace_at(doc, t[0], t[1]), t[2] if t[1] == RAW else "")
    )
    inner = [p for p in paths if p]
    if not inner:
        return replaced
    removed = st.sampled_from(inner).map(lambda p: serialize(delete_at(doc, p), ""))
    return st.one_of(replaced, removed)


def json_token_boundaries(data: bytes) -> list[int]:
    """Offsets just after each structural character of a JSON text (where a truncated write would stop)."""
    return [i + 1 for i, byte in enumerate(data) if byte in b'{}[],:"']
