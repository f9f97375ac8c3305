"""``warehouse export``: a warehouse as a folder of Parquet files, for engines built to scale out.

Layout of ``DIR`` (what :mod:`warehouse.engines` reads back)::

    _warehouse.json              the manifest: schema version, migrations, tables, row counts, column types
    kernel/rank_id=0/part-0.parquet
    kernel/rank_id=1/part-0.parquet
    kernel/rank_id=__HIVE_DEFAULT_PARTITION__/part-0.parquet    rows whose rank_id is NULL
    string/part-0.parquet
    internal.slice/part-0.parquet  the storage table _slice (a folder may not start with '_')

Every table is exported, the interned storage (``_slice``, ``_counter``) too because named
queries read it directly, and every view is materialised under its public name (``slice``,
``counter``), so analysts query the same names as in SQLite. ``schema_migrations`` and
``schema_views`` are not tables of facts: their rows go into the manifest (``migrations``,
``views``) instead. A table with a
``rank_id`` column is partitioned hive-style by it (the key is then in the folder name, not in
the files), except where ``rank_id`` is the table's own key (``rank``: one row per folder helps
nobody). An empty table is one file with no rows, unpartitioned, so its schema is still there.

Column types come from the SQLite declared types: INTEGER -> int64, REAL -> float64,
TEXT -> string. **The rule for untyped columns:** a column declared BLOB has no affinity in
SQLite and keeps each value as the input typed it; the op-profile tables rely on this to keep
values exactly as written (``memory_table.value`` holds ``'hit'``, ``3`` and ``80.157990``).
Parquet has one type per column, so such a column is exported as ``string``, each number as
SQLite's own ``CAST(value AS TEXT)`` spells it, whatever the warehouse holds (the type does not
change from one export to the next), unless it holds a true blob (bytes): then it is ``binary``.
A view column computed by an expression has no declared type at all; it gets the type of its
values: ``int64`` when all are integers, ``float64`` when some are reals (or there are none),
``string`` when some are text, ``binary`` when some are blobs. The manifest records both the
declared and the exported type of every column.

Rows stream: ``fetchmany`` batches become Arrow record batches handed to one
``ParquetWriter`` per partition; buffered rows never exceed :data:`BUFFER_ROWS` whatever the
table's size or its number of ranks.

A table without an INTEGER PRIMARY KEY also gets its hidden ``rowid`` as a first column
named ``rowid``: it is the order rows were written in, and queries order by it.

**Replacing an export** (``--replace``) deletes what the manifest says the export wrote (each
relation's ``part-0.parquet`` files, in its folder or partition folders, the folders it made
when left empty, then the manifest) and nothing else: a user's files beside or inside survive.
A manifest that is not an export's (unknown keys, such as a Spark ingest's state), or that
names a path outside the folder (``..``, absolute, through a symlink), is refused and nothing is
deleted. A failed export removes the files it wrote, likewise.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections import defaultdict
from datetime import datetime, timezone
from pathlib import Path

from warehouse import db, schema_views
from warehouse.errors import WarehouseError, require_extra

MANIFEST = "_warehouse.json"
#: the manifest while it is written (renamed over MANIFEST: a reader never sees half of one)
MANIFEST_TMP = MANIFEST + ".tmp"
#: the keys of an export's manifest (another writer's manifest has others: not ours to delete)
MANIFEST_KEYS = {"format", "format_version", "schema_version", "migrations", "exported_at", "source_db", "tables", "views"}
#: the name of the file the export writes in each folder (or partition folder) of a relation
FILE_NAME = "part-0.parquet"
FORMAT = "ascend-warehouse-parquet"
FORMAT_VERSION = 1
PARTITION_COLUMN = "rank_id"
#: the folder name of the rows whose partition key is NULL (Hive's, read as NULL by Spark and DuckDB)
NULL_PARTITION = "__HIVE_DEFAULT_PARTITION__"
#: rows fetched from SQLite at a time
BATCH_ROWS = 50_000
#: rows held in memory across all partitions before they are written out
BUFFER_ROWS = 200_000
#: SQLite declared type (its affinity) -> Arrow type name
TYPES = {"INTEGER": "int64", "REAL": "float64", "TEXT": "string"}
#: tables that are bookkeeping, not facts: their content goes into the manifest
BOOKKEEPING = {"schema_migrations", "schema_views"}


def export_parquet(db_path: str | Path, out_dir: str | Path, *, replace: bool = False) -> dict:
    """Write every table and view of the warehouse at ``db_path`` to ``out_dir`` as Parquet.

    :param replace: remove an existing export in ``out_dir`` first (a folder with a manifest).
    :returns: the manifest, as also written to ``out_dir/_warehouse.json``.
    :raises MissingExtra: if pyarrow (the ``scale`` extra) is not installed.
    :raises WarehouseError: if ``out_dir`` is not empty (and not an export to replace), or a
        value does not fit its column's declared type.
    """
    require_extra("the Parquet export", ("pyarrow",))  # before touching the output folder

    out = Path(out_dir)
    conn = db.connect_readonly(db_path)  # first: a bad warehouse must not cost an earlier export
    try:
        _prepare(out, replace)
    except WarehouseError:
        conn.close()
        raise
    started = []
    try:
        tables = {}
        for name, kind in relations(conn):
            started.append(folder_name(name))
            tables[name] = _export_relation(conn, name, kind, out, folder_name(name))
        manifest = {**manifest_header(conn), "source_db": str(Path(db_path).resolve()), "tables": tables}
    except BaseException:  # no half export: the files it wrote go, the folder too if that leaves it empty
        _remove(out, [file for folder in started for file in (out / folder).glob(f"**/{FILE_NAME}")])
        _remove_if_empty(out)
        raise
    finally:
        conn.close()
    write_manifest(out, manifest)
    return manifest


def manifest_header(conn: sqlite3.Connection) -> dict:
    """The manifest's first keys: format, schema version and migrations of the warehouse at ``conn``, the time."""
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "schema_version": db.schema_version(conn),
        "migrations": [dict(zip(("version", "name", "sha256", "applied_at"), row)) for row in
                       conn.execute("SELECT version, name, sha256, applied_at FROM schema_migrations ORDER BY 1")],
        "views": dict(sorted(schema_views.recorded(conn).items())),
        "exported_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }


def write_manifest(out: Path, manifest: dict) -> None:
    """Write ``out/_warehouse.json`` whole or not at all (a temporary file renamed over it): a
    folder with a manifest is a finished export, and a kill never leaves half of one."""
    temporary = out / MANIFEST_TMP
    temporary.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    os.replace(temporary, out / MANIFEST)


def _prepare(out: Path, replace: bool) -> None:
    if out.exists() and any(out.iterdir()):
        if not (out / MANIFEST).exists():
            raise WarehouseError(f"{out}: not empty and not a warehouse export; give an empty or new folder")
        written = written_files(out)  # a manifest not ours is refused with or without --replace
        if not replace:
            raise WarehouseError(f"{out}: already holds an export (--replace to overwrite it)")
        _remove(out, written)
        (out / MANIFEST).unlink()
    out.mkdir(parents=True, exist_ok=True)


def written_files(out: Path) -> list[Path]:
    """The files the export whose manifest is in ``out`` wrote there (the module docstring).

    :raises WarehouseError: if the manifest is not an export's, or names a path outside ``out``.
    """
    where = out / MANIFEST
    try:
        manifest = json.loads(where.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise WarehouseError(f"{where}: not written by `warehouse export` ({exc}); nothing was deleted") from None
    tables = manifest.get("tables") if isinstance(manifest, dict) else None
    if (not isinstance(tables, dict) or manifest.get("format") != FORMAT or set(manifest) - MANIFEST_KEYS
            or not all(isinstance(entry, dict) and isinstance(entry.get("path"), str)
                       and isinstance(entry.get("partitions", []), list) for entry in tables.values())):
        raise WarehouseError(f"{where}: not written by `warehouse export` (not its format or keys); "
                             "nothing was deleted")
    root = out.resolve()
    files = []
    for entry in tables.values():
        for partition in entry.get("partitions") or [""]:
            relative = os.path.join(entry["path"], str(partition), FILE_NAME)
            path = out / relative
            if os.path.isabs(relative) or ".." in Path(relative).parts or not path.resolve().is_relative_to(root):
                raise WarehouseError(f"{where}: lists {relative}, outside {out}; nothing was deleted "
                                     "(delete the folder yourself if all of it is yours)")
            files.append(path)
    return files


def _remove(out: Path, files: list[Path]) -> None:
    """Delete ``files`` (inside ``out``), then each folder they were in, up to ``out``, left empty."""
    folders = set()
    for path in files:
        path.unlink(missing_ok=True)
        folders.update(parent for parent in path.parents if parent != out and out in parent.parents)
    for folder in sorted(folders, key=lambda f: len(f.parts), reverse=True):
        _remove_if_empty(folder)


def _remove_if_empty(folder: Path) -> None:
    if folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()


def relations(conn: sqlite3.Connection) -> list[tuple[str, str]]:
    """The tables and views to export: a virtual table's rows (the name index's values) but not its
    shadow tables, SQLite's own storage of it."""
    rows = conn.execute("SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view') "
                        "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' "
                        "AND name NOT IN (SELECT name FROM pragma_table_list WHERE type = 'shadow') "
                        "ORDER BY name").fetchall()
    return [(name, kind) for name, kind in rows if name not in BOOKKEEPING]


def columns_of(conn: sqlite3.Connection, name: str, kind: str = "table") -> list[dict]:
    """The columns of a table or view: name, declared SQLite type, exported Arrow type, and
    whether it is the table's primary key. A table without an INTEGER PRIMARY KEY gets its
    hidden ``rowid`` first (queries order by it: it is the order rows were written in)."""
    columns = []
    if kind == "table" and not has_rowid_alias(conn, name):
        columns.append({"name": "rowid", "sqlite_type": "INTEGER", "type": "int64", "pk": False})
    # a full-text table's columns take no declared type and hold text (the name index, migration 0012)
    text_only = conn.execute("SELECT 1 FROM pragma_table_list WHERE name = ? AND type = 'virtual'", (name,)).fetchone()
    for _, column, declared, _, _, pk in conn.execute(f"PRAGMA table_info({quote(name)})"):
        declared = (declared or "").upper()
        columns.append({"name": column, "sqlite_type": declared or None,
                        "type": "string" if text_only else TYPES.get(declared), "pk": bool(pk)})
    untyped = [c for c in columns if c["type"] is None]
    for column, classes in zip(untyped, _storage_classes(conn, name, [c["name"] for c in untyped])):
        column["type"] = _untyped_type(column["sqlite_type"], classes)
    return columns


def has_rowid_alias(conn: sqlite3.Connection, table: str) -> bool:
    """Whether the table's INTEGER PRIMARY KEY is its rowid (else the export adds a ``rowid`` column)."""
    keys = [(declared or "").upper() for _, _, declared, _, _, pk in conn.execute(f"PRAGMA table_info({quote(table)})")
            if pk]
    return keys == ["INTEGER"]


def _storage_classes(conn: sqlite3.Connection, table: str, names: list[str]) -> list[set[str]]:
    """Per column, the storage classes its values use (one scan for all the columns)."""
    if not names:
        return []
    classes = ("integer", "real", "text", "blob")
    items = [f"max(typeof({quote(n)}) = '{c}')" for n in names for c in classes]
    row = conn.execute(f"SELECT {', '.join(items)} FROM {quote(table)}").fetchone()
    return [{c for c, seen in zip(classes, row[i * 4:i * 4 + 4]) if seen} for i in range(len(names))]


def _untyped_type(declared: str | None, classes: set[str]) -> str:
    """The Arrow type of a column without a type affinity (the module docstring's rule)."""
    if "blob" in classes:
        return "binary"
    if declared or "text" in classes:  # declared BLOB (or another name): stable, whatever it holds
        return "string"
    if "real" in classes or not classes:
        return "float64"
    return "int64"


def _select_list(columns: list[dict]) -> str:
    items = []
    for column in columns:
        name = quote(column["name"])
        if TYPES.get(column["sqlite_type"] or "") == column["type"] or column["type"] == "int64":
            items.append(name)
        else:  # an untyped column: numbers as SQLite spells them, bytes as bytes, all as one type
            target = {"binary": "BLOB", "string": "TEXT", "float64": "REAL"}[column["type"]]
            items.append(f"CAST({name} AS {target}) AS {name}")
    return ", ".join(items)


def folder_name(table: str) -> str:
    """The folder of a table: its name, ``internal.slice`` for ``_slice`` (Spark and Hadoop skip
    files and folders whose name starts with ``_`` or ``.``)."""
    return f"internal.{table[1:]}" if table.startswith("_") else table


def _export_relation(conn: sqlite3.Connection, name: str, kind: str, out: Path, path: str) -> dict:
    columns = columns_of(conn, name, kind)
    has_rows = conn.execute(f"SELECT 1 FROM {quote(name)} LIMIT 1").fetchone() is not None
    partition = partition_column(columns) if has_rows else None
    rows, partitions = write_relation(conn, name, out / path, columns, partition)
    return {
        "kind": kind,
        "path": path,
        "rows": rows,
        "partitioned_by": partition,
        "partitions": partitions,
        "columns": [{k: c[k] for k in ("name", "sqlite_type", "type")} for c in columns],
    }


def partition_column(columns: list[dict]) -> str | None:
    """``rank_id`` when the relation has it and it is not the relation's own key, else None."""
    key = next((c for c in columns if c["name"] == PARTITION_COLUMN), None)
    return PARTITION_COLUMN if key is not None and not key["pk"] else None


def write_relation(conn: sqlite3.Connection, name: str, folder: Path, columns: list[dict], partition: str | None,
                   file_name: str = FILE_NAME) -> tuple[int, list[str]]:
    """Stream the rows of relation ``name`` into ``folder`` as Parquet files called ``file_name``
    (one per partition folder when ``partition`` is set), the columns' types as ``columns`` say.

    :returns: the number of rows and the partition folders written.
    """
    writer = _PartitionedWriter(folder, name, columns, partition, file_name)
    cursor = conn.execute(f"SELECT {_select_list(columns)} FROM {quote(name)}")
    rows = 0
    try:
        while batch := cursor.fetchmany(BATCH_ROWS):
            writer.add(batch)
            rows += len(batch)
        writer.close()
    except WarehouseError:
        writer.abort()
        raise
    return rows, writer.partition_names()


class _PartitionedWriter:
    """Rows in, Parquet files out: one writer per partition folder, bounded buffers.

    Each fetched batch becomes one Arrow batch (a column at a time), then is split by
    partition key with vectorised filters: no Python work per row beyond the transposition.
    """

    def __init__(self, folder: Path, table: str, columns: list[dict], partition: str | None,
                 file_name: str = FILE_NAME):
        import pyarrow as pa

        self.folder, self.table, self.partition, self.file_name = folder, table, partition, file_name
        self.schema = pa.schema([pa.field(c["name"], getattr(pa, c["type"])()) for c in columns])
        self.file_schema = self.schema.remove(self.schema.get_field_index(partition)) if partition else self.schema
        self.buffers: dict[object, list] = defaultdict(list)
        self.buffered = 0
        self.writers: dict[object, object] = {}

    def add(self, rows: list[tuple]) -> None:
        import pyarrow.compute as pc

        batch = self._batch(rows)
        if self.partition is None:
            self.buffers[None].append(batch)
        else:
            keys = batch.column(self.partition)
            rest = batch.drop_columns([self.partition])
            for key in pc.unique(keys).to_pylist():
                mask = pc.is_null(keys) if key is None else pc.equal(keys, key)
                self.buffers[key].append(rest.filter(mask))
        self.buffered += len(rows)
        if self.buffered >= BUFFER_ROWS:
            self._flush()

    def _flush(self) -> None:
        import pyarrow as pa

        for key, batches in self.buffers.items():
            self._writer(key).write_table(pa.Table.from_batches(batches, schema=self.file_schema))
        self.buffers.clear()
        self.buffered = 0

    def _batch(self, rows: list[tuple]):
        import pyarrow as pa

        columns = list(zip(*rows))
        arrays = []
        for field, values in zip(self.schema, columns):
            try:
                arrays.append(pa.array(values, type=field.type))
            except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError) as exc:
                bad = next((v for v in values if v is not None and not _fits(v, field.type)), None)
                raise WarehouseError(f"{self.table}.{field.name}: value {bad!r} does not fit the declared "
                                     f"type ({field.type}): {exc}") from None
        return pa.RecordBatch.from_arrays(arrays, schema=self.schema)

    def _writer(self, key):
        import pyarrow.parquet as pq

        if key not in self.writers:
            folder = self.folder
            if self.partition:
                folder = folder / f"{self.partition}={NULL_PARTITION if key is None else key}"
            folder.mkdir(parents=True, exist_ok=True)
            self.writers[key] = pq.ParquetWriter(folder / self.file_name, self.file_schema, compression="zstd")
        return self.writers[key]

    def close(self) -> None:
        self._flush()
        if not self.writers:  # an empty table: one file with no rows keeps its schema
            self._writer(None)
        for writer in self.writers.values():
            writer.close()

    def abort(self) -> None:
        for writer in self.writers.values():
            writer.close()

    def partition_names(self) -> list[str]:
        if not self.partition:
            return []
        return sorted(f"{self.partition}={NULL_PARTITION if k is None else k}" for k in self.writers)


def _fits(value, arrow_type) -> bool:
    import pyarrow as pa

    try:
        pa.array([value], type=arrow_type)
    except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError):
        return False
    return True


def quote(name: str) -> str:
    """An SQL identifier, quoted."""
    return '"' + name.replace('"', '""') + '"'
