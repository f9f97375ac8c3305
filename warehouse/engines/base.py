"""What every scale-out engine shares: the export's manifest, and the named query transpiled.

A named query is written once, in SQLite's dialect (DESIGN §4). :func:`transpile` turns it
into another engine's SQL with sqlglot and keeps SQLite's meaning where the dialects differ:

- **Integer division.** SQLite's ``/`` truncates when both sides are integers. The body is
  qualified and its types annotated from the export's column types (and the parameters'
  declared types), so sqlglot writes a truncating division exactly where SQLite would.
  A division by zero is NULL, as in SQLite.
  A division whose operand types cannot be told is refused (:class:`TranspileError`): the
  query must say it with a ``CAST``, or it would mean something else on another engine.
- **Parameters** keep their names and get their declared type (``CAST(:p AS BIGINT)``), so
  an engine never guesses a parameter's type from a NULL.
- **Numbers with a point or an exponent** are REAL in SQLite, DECIMAL in DuckDB and Spark
  (whose decimal division rounds): they are written as DOUBLE.
- **A real written as text** (``CAST(x AS TEXT)``, ``'...' || x``) has 15 significant digits
  and always a point in SQLite (``214748364800.0``); each engine defines ``sqlite_real_text``
  to write it the same way.
- **LIKE** is case-insensitive for ASCII in SQLite: it becomes ``ILIKE``, its ``NOT`` and
  ``ESCAPE`` kept (sqlglot holds them as arguments of the LIKE node).
- **group_concat over an ordered input** (a CTE or subquery ending in ORDER BY) concatenates
  in that order in SQLite; elsewhere the order is only kept when the aggregate says it, so the
  input's ORDER BY is moved into the aggregate.

Anything that sqlglot cannot write for the target raises :class:`TranspileError`; a test
transpiles every named query for every engine, so a query that would not run fails the suite.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import sqlglot
from sqlglot import exp
from sqlglot.errors import ErrorLevel, SqlglotError
from sqlglot.optimizer.annotate_types import annotate_types
from sqlglot.optimizer.qualify import qualify

from warehouse import db, export, units
from warehouse.errors import WarehouseError

#: Arrow type of an exported column -> the SQL type sqlglot annotates it with
SQL_TYPES = {"int64": "BIGINT", "float64": "DOUBLE", "string": "TEXT", "binary": "BLOB"}
#: the function the engines define to write a real as SQLite does (:func:`warehouse.engines.functions.sqlite_real_text`)
REAL_TEXT = "sqlite_real_text"
#: the warehouse's SQL functions (:data:`warehouse.units.SQL_FUNCTIONS`) are defined in the engines
#: under this prefix and the calls renamed: an engine's own function of the same name (DuckDB's
#: format_bytes writes '1 byte') never answers in their place
WAREHOUSE_FUNCTION_PREFIX = "warehouse_"
#: a parameter's declared type -> its SQL type (booleans bind as 0/1, as in SQLite)
PARAM_TYPES = {"integer": "BIGINT", "real": "DOUBLE", "text": "TEXT", "boolean": "BIGINT"}


class TranspileError(WarehouseError):
    """A named query cannot be written faithfully in another engine's dialect."""


@dataclass(frozen=True)
class Export:
    """A folder written by ``warehouse export``: where each table's files are, and their types."""

    root: Path
    manifest: dict

    @classmethod
    def open(cls, folder: str | Path) -> Export:
        """:raises WarehouseError: if the folder has no readable manifest."""
        root = Path(folder)
        try:
            manifest = json.loads((root / export.MANIFEST).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise WarehouseError(f"{root}: not a warehouse export (no readable {export.MANIFEST}: {exc})") from None
        if manifest.get("format") != export.FORMAT:
            raise WarehouseError(f"{root / export.MANIFEST}: not a warehouse export manifest")
        return cls(root, manifest)

    @property
    def tables(self) -> dict[str, dict]:
        return self.manifest["tables"]

    def schema(self) -> dict[str, dict[str, str]]:
        """``{table: {column: SQL type}}``, the schema sqlglot annotates types from."""
        return {name: {c["name"]: SQL_TYPES[c["type"]] for c in table["columns"]}
                for name, table in self.tables.items()}

    def folder(self, name: str) -> Path:
        """The folder of a table's files."""
        return self.root / self.tables[name]["path"]

    def files(self, name: str) -> str:
        """The glob of a table's Parquet files (partition folders included)."""
        depth = "*/*.parquet" if self.tables[name]["partitioned_by"] else "*.parquet"
        return str(self.folder(name) / depth)


def transpile(sql: str, dialect: str, schema: dict, param_types: dict[str, str], rewrite=None) -> str:
    """``sql`` (one SQLite SELECT) written for ``dialect``, SQLite's meaning kept (module docstring).

    :param schema: ``{table: {column: SQL type}}`` of the tables the query reads.
    :param param_types: ``{name: declared type}`` of its parameters (``integer``, ``real``, ...).
    :param rewrite: the engine's own last changes to the annotated tree (``Engine.rewrite``).
    :raises TranspileError: naming the construct that cannot be carried over.
    """
    return generate(translate(sql, dialect, schema, param_types, rewrite), dialect)


def translate(sql: str, dialect: str, schema: dict, param_types: dict[str, str], rewrite=None) -> exp.Expression:
    """The tree :func:`transpile` writes: ``sql`` parsed, qualified, annotated and rewritten for ``dialect``.

    :raises TranspileError: naming the construct that cannot be carried over.
    """
    try:
        tree = sqlglot.parse_one(sql, read="sqlite")
        for placeholder in list(tree.find_all(exp.Placeholder)):
            if isinstance(placeholder.parent, (exp.Limit, exp.Offset)):
                continue  # a row count: an integer literal there, and Spark refuses a BIGINT
            placeholder.replace(exp.cast(placeholder.copy(), PARAM_TYPES[param_types[placeholder.name]]))
        tree = qualify(tree, schema=schema, dialect="sqlite", validate_qualify_columns=False,
                       quote_identifiers=False)
        for literal in list(tree.find_all(exp.Literal)):
            if literal.is_number and not literal.is_int:  # a REAL in SQLite, a DECIMAL elsewhere
                literal.replace(exp.cast(literal.copy(), "DOUBLE"))
        annotate_types(tree, schema=schema, dialect="sqlite")
        _check_divisions(tree)
        _real_as_sqlite_text(tree)
        _ordered_group_concat(tree)
        _warehouse_functions(tree)
        for like in list(tree.find_all(exp.Like)):
            like.replace(exp.ILike(**like.args))  # NOT and ESCAPE are the node's own arguments
        return rewrite(tree) if rewrite is not None else tree
    except SqlglotError as exc:
        raise TranspileError(f"cannot write the query for {dialect}: {exc}") from None


def generate(tree: exp.Expression, dialect: str) -> str:
    """A tree of :func:`translate` (or a part of one) as ``dialect``'s text.

    :raises TranspileError: if the dialect has no spelling of one of its constructs.
    """
    try:
        return tree.sql(dialect=dialect, unsupported_level=ErrorLevel.RAISE)
    except SqlglotError as exc:
        raise TranspileError(f"cannot write the query for {dialect}: {exc}") from None


def _check_divisions(tree: exp.Expression) -> None:
    """Refuse a division whose integer-ness cannot be told from its operands' types; make a
    division by zero NULL as in SQLite (``x / NULLIF(y, 0)``: DuckDB would answer inf)."""
    for division in list(tree.find_all(exp.Div)):
        sides = (division.left, division.right)
        if not (any(side.is_type(*exp.DataType.REAL_TYPES) for side in sides)  # a real division everywhere
                or all(side.is_type(*exp.DataType.INTEGER_TYPES) for side in sides)):  # a truncating one
            raise TranspileError(f"{division.sql('sqlite')}: cannot tell whether this divides integers "
                                 f"(SQLite truncates, other engines do not): CAST one side")
        right = division.right
        if not isinstance(right, exp.Nullif):
            guarded = exp.Nullif(this=right.copy(), expression=exp.Literal.number(0))
            guarded.type = right.type
            right.replace(guarded)
        division.set("safe", False)


def _real_as_sqlite_text(tree: exp.Expression) -> None:
    """A real turned into text (CAST, or an operand of ``||``) as SQLite spells it: the engines
    define :data:`REAL_TEXT` (DuckDB and Spark would write 2.147483648E12 or 0.30000000000000004)."""
    for cast in list(tree.find_all(exp.Cast)):
        if cast.to.is_type(*exp.DataType.TEXT_TYPES) and cast.this.is_type(*exp.DataType.REAL_TYPES):
            cast.replace(exp.Anonymous(this=REAL_TEXT, expressions=[cast.this.copy()]))
    for concat in list(tree.find_all(exp.DPipe)):
        for side in ("this", "expression"):
            operand = concat.args[side]
            if operand.is_type(*exp.DataType.REAL_TYPES):
                operand.replace(exp.Anonymous(this=REAL_TEXT, expressions=[operand.copy()]))


def _warehouse_functions(tree: exp.Expression) -> None:
    """Call the warehouse's SQL functions by the names the engines define them under."""
    for call in list(tree.find_all(exp.Anonymous)):
        if call.name.lower() in units.SQL_FUNCTIONS:
            call.set("this", WAREHOUSE_FUNCTION_PREFIX + call.name.lower())


def _ordered_group_concat(tree: exp.Expression) -> None:
    """Move the ORDER BY of a group_concat's input into the aggregate (module docstring)."""
    for concat in list(tree.find_all(exp.GroupConcat)):
        select = concat.find_ancestor(exp.Select)
        source = select.args.get("from_") if select else None
        if source is None or isinstance(concat.this, exp.Order):
            continue
        inner = _source_query(tree, source.this)
        order = inner.args.get("order") if inner is not None else None
        if order is None:
            continue
        alias = source.this.alias_or_name
        keys = []
        for ordered in order.expressions:
            key = ordered.copy()
            for column in key.find_all(exp.Column):
                column.set("table", exp.to_identifier(alias))
            keys.append(key)
        concat.set("this", exp.Order(this=concat.this.copy(), expressions=keys))


def _source_query(tree: exp.Expression, source: exp.Expression) -> exp.Select | None:
    if isinstance(source, exp.Subquery):
        return source.this if isinstance(source.this, exp.Select) else None
    if isinstance(source, exp.Table):
        for cte in tree.find_all(exp.CTE):
            if cte.alias == source.name and isinstance(cte.this, exp.Select):
                return cte.this
    return None


class Engine:
    """A query engine over an export: ``run(query, values) -> (columns, rows)`` like ``Query.run``."""

    #: sqlglot's name of the engine's dialect
    dialect = ""

    def __init__(self, data: str | Path):
        self.data = Export.open(data)
        expected = len(db.available_migrations())
        if self.data.manifest["schema_version"] != expected:
            raise WarehouseError(f"{self.data.root}: exported at schema version {self.data.manifest['schema_version']}, "
                                 f"the queries of this version read {expected}: export the warehouse again")
        self._schema = self.data.schema()

    def sql(self, query) -> str:
        """The query's body in this engine's dialect.

        :raises TranspileError: if it cannot be carried over.
        """
        tree = self.tree(query)
        return self._naming(query, lambda: generate(tree, self.dialect))

    def tree(self, query) -> exp.Expression:
        """The query's tree, translated for this engine (:func:`translate`).

        :raises TranspileError: if it cannot be carried over.
        """
        return self._naming(query, lambda: translate(query.sql, self.dialect, self._schema,
                                                      {p.name: p.type for p in query.params}, self.rewrite))

    @staticmethod
    def _naming(query, write):
        """``write()``, its :class:`TranspileError` naming the query."""
        try:
            return write()
        except TranspileError as exc:
            raise TranspileError(f"query {query.name}: {exc}") from None

    def rewrite(self, tree: exp.Expression) -> exp.Expression:
        """The engine's own changes to a query's tree (SQLite-only constructs it spells differently)."""
        return tree

    def run(self, query, values: dict | None = None) -> tuple[list[str], list[tuple]]:
        """Run a named query with its parameters converted and defaults filled in.

        :raises QueryError: on bad parameters.
        :raises TranspileError: if the query cannot be written for this engine.
        """
        bound = query.bind(values)
        rows = self.execute(self.sql(query), bound)
        return [c.name for c in query.columns], rows

    def execute(self, sql: str, params: dict) -> list[tuple]:
        """Run transpiled SQL with typed parameters; engines implement it (or :meth:`run` itself)."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the engine's resources."""
