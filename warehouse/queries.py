"""The named-query registry: ``queries/<view>/<name>.sql``, written once, served everywhere.

Each file starts with a header of ``--`` comment lines that our own small parser reads
(sqlglot would glue a leading comment onto the statement), then one SQL body::

    -- title: Top kernels
    -- description: The kernels that took the most device time,
    --     continued on lines indented after the dashes.
    -- param rank_id (integer, default null): Only this rank; every rank when null.
    -- param limit (integer, default 20): How many kernels to return.
    -- param by (text, default 'name', one of name|op_type): What a row sums (refused otherwise).
    -- column name: Kernel name.

sqlglot then checks the body: one read-only SELECT/WITH (``readonly.check_select``),
placeholders exactly the declared parameters, output columns exactly the declared
columns in order, a CTE pipeline ending in ``final``, no ``SELECT *``, and none of the
SQLite-only functions that would not survive transpiling to another engine (DESIGN §4).

Parameters arrive as text from HTTP and the command line; :meth:`Query.bind` converts
them to their declared type, because a text ``:start`` compared with ``ts + dur``
silently matches nothing in SQLite (reference/STACK.md §1).
"""

from __future__ import annotations

import glob
import json
import re
import sqlite3
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from warehouse import readonly, sqlfiles
from warehouse.errors import WarehouseError
from warehouse.schema_views import VIEWS_DIR

QUERIES_DIR = Path(__file__).resolve().parent / "_bundled" / "queries"
TYPES = ("integer", "real", "text", "boolean")
PARAM = re.compile(
    r"^param\s+(?P<name>[a-z_][a-z0-9_]*)\s*"
    r"\((?P<type>\w+),\s*(?:(?P<required>required)|default\s+(?P<default>[^,)]*?))"
    r"(?:,\s*one of\s+(?P<choices>[\w.-]+(?:\|[\w.-]+)*))?\)\s*:\s*(?P<meaning>.+)$"
)
COLUMN = re.compile(r"^column\s+(?P<name>[a-z_][a-z0-9_]*)\s*:\s*(?P<meaning>.+)$")
#: SQLite-only functions with no portable twin in the engines we transpile to (STACK.md §2)
NON_PORTABLE_FUNCTIONS = {"printf", "total", "unixepoch", "julianday", "randomblob"}
TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off"}


class QueryError(WarehouseError):
    """A query file is malformed, or a caller passed bad parameters to a query."""


class UnknownQuery(QueryError):
    """No query has the name asked for."""


@dataclass(frozen=True)
class Param:
    """One declared parameter: name, type, whether it is required, its default and meaning."""

    name: str
    type: str
    required: bool
    default: object
    meaning: str
    choices: tuple = ()

    def convert(self, value):
        """``value`` (text from HTTP or the command line, or already typed) as the declared type.

        :raises QueryError: naming the parameter, if the value is not of that type.
        """
        if value is None:
            return None
        text = str(value).strip()
        try:
            if self.type == "integer":
                return int(text)
            if self.type == "real":
                return float(text)
        except ValueError:
            raise QueryError(f"parameter {self.name}: {value!r} is not {'an' if self.type == 'integer' else 'a'} "
                             f"{self.type}") from None
        if self.type == "boolean":
            if text.lower() in TRUE_WORDS:
                return 1
            if text.lower() in FALSE_WORDS:
                return 0
            raise QueryError(f"parameter {self.name}: {value!r} is not a boolean (true/false, 1/0, yes/no)")
        if self.choices and str(value) not in self.choices:
            raise QueryError(f"parameter {self.name}: {value!r} is not one of {', '.join(self.choices)}")
        return str(value)

    def describe(self) -> dict:
        """The catalog entry; a boolean's default shows as true/false (it binds as 1/0)."""
        default = bool(self.default) if self.type == "boolean" and self.default is not None else self.default
        entry = {"name": self.name, "type": self.type, "required": self.required, "default": default,
                 "meaning": self.meaning}
        if self.choices:
            entry["choices"] = list(self.choices)
        return entry


@dataclass(frozen=True)
class Column:
    """One declared output column and what it means."""

    name: str
    meaning: str


@dataclass(frozen=True)
class Query:
    """A named query: its header and its checked SQL body."""

    name: str
    view: str
    path: Path
    title: str
    description: str
    params: tuple[Param, ...]
    columns: tuple[Column, ...]
    sql: str = field(repr=False)

    @property
    def public(self) -> bool:
        """In the public catalog (CLI, REST, OpenAPI, Datasette, docs); a query in a folder whose
        name starts with ``_`` (``queries/_insight/``) is internal: another module's, run by name."""
        return not self.view.startswith("_")

    def bind(self, values: dict | None) -> dict:
        """The full parameter dict for sqlite3: each value converted, defaults filled in.

        :raises QueryError: on an unknown parameter, a missing required one, or a badly typed value.
        """
        values = dict(values or {})
        declared = {p.name for p in self.params}
        unknown = sorted(set(values) - declared)
        if unknown:
            raise QueryError(f"query {self.name}: unknown parameter {', '.join(unknown)} "
                             f"(it takes: {', '.join(sorted(declared)) or 'none'})")
        bound = {}
        for param in self.params:
            if values.get(param.name) is None or values.get(param.name) == "":
                if param.required:
                    raise QueryError(f"query {self.name}: parameter {param.name} is required ({param.meaning})")
                bound[param.name] = param.default
            else:
                bound[param.name] = param.convert(values[param.name])
        return bound

    def run(self, conn: sqlite3.Connection, values: dict | None = None, *,
            max_rows: int | None = None, time_limit_s: float | None = None) -> tuple[list[str], list[tuple]]:
        """Run the query read-only with its parameters converted; return column names and rows.

        :raises QueryError: on bad parameters.
        :raises WarehouseError: if it fails or exceeds the time limit.
        """
        return readonly.run_select(conn, self.sql, self.bind(values), max_rows=max_rows,
                                   time_limit_s=time_limit_s, lint=False)

    def count(self, conn: sqlite3.Connection, values: dict | None = None) -> int:
        """How many rows :meth:`run` gives, counted by SQLite (the rows are not fetched).

        :raises QueryError: on bad parameters.
        :raises WarehouseError: if it fails.
        """
        # on lines of their own: a query whose last line is a comment still closes the parenthesis
        _, counted = readonly.run_select(conn, f"SELECT count(*) FROM (\n{self.sql}\n)", self.bind(values), lint=False)
        return counted[0][0]

    def describe(self) -> dict:
        """The catalog entry (CLI ``queries``, REST ``/queries``, docs)."""
        return {
            "name": self.name, "view": self.view, "title": self.title, "description": self.description,
            "params": [p.describe() for p in self.params],
            "columns": [{"name": c.name, "meaning": c.meaning} for c in self.columns],
            "sql": self.sql,
        }


def parse_file(path: Path, *, check: bool = True) -> Query:
    """Read and check one query file, its ``-- include: _helper`` lines expanded.

    :param check: check the body with sqlglot (:func:`_check_body`); ``False`` reads the header
        only, for running one query: the check is the catalog's (see :func:`get`).
    :raises QueryError: naming the file and what is wrong with it.
    """
    try:
        script = sqlfiles.text(path)
    except sqlfiles.SqlFileError as exc:
        raise QueryError(str(exc)) from None
    try:
        body = sqlfiles.expand_includes(sqlfiles.body(script), (path.parent.parent, VIEWS_DIR))
        if not body:
            raise QueryError("no SQL after the header")
        fields, params, columns = _parse_header(sqlfiles.fields(script))
        if check:
            _check_body(body, params, columns)
    except (QueryError, sqlfiles.SqlFileError) as exc:
        raise QueryError(f"{path}: {exc}") from None
    return Query(name=path.stem, view=path.parent.name, path=path, title=fields["title"],
                 description=fields["description"], params=tuple(params), columns=tuple(columns), sql=body)


def _parse_header(items: list[sqlfiles.Field]) -> tuple[dict, list[Param], list[Column]]:
    fields: dict[str, str] = {}
    params: list[Param] = []
    columns: list[Column] = []
    for number, key, value in items:
        item = f"{key} {value}"
        if key in ("title", "description"):
            if key in fields:
                raise QueryError(f"header line {number}: {key} given twice")
            fields[key] = value
        elif key == "param" and (match := PARAM.match(item)):
            params.append(_param(number, match))
        elif key == "column" and (match := COLUMN.match(item)):
            columns.append(Column(match["name"], match["meaning"]))
        else:
            raise QueryError(f"header line {number}: expected 'title:', 'description:', "
                             f"'param NAME (TYPE, required|default V): meaning' or 'column NAME: meaning', "
                             f"got {_shown(key, value)[:60]!r}")
    for name in ("title", "description"):
        if not fields.get(name):
            raise QueryError(f"header has no {name}")
    if not columns:
        raise QueryError("header declares no column")
    for kind, names in (("parameter", [p.name for p in params]), ("column", [c.name for c in columns])):
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise QueryError(f"{kind} declared twice: {', '.join(duplicates)}")
    return fields, params, columns


def _shown(key: str, value: str) -> str:
    """A header field as the file writes it (for an error message)."""
    if not key:
        return value
    return f"{key} {value}" if key in sqlfiles.NAMED_KEYS else f"{key}: {value}"


def _param(number: int, match: re.Match) -> Param:
    if match["type"] not in TYPES:
        raise QueryError(f"header line {number}: parameter {match['name']} has type {match['type']!r}, "
                         f"expected one of {', '.join(TYPES)}")
    choices = tuple(match["choices"].split("|")) if match["choices"] else ()
    if choices and match["type"] != "text":
        raise QueryError(f"header line {number}: 'one of' is for text parameters ({match['name']})")
    param = Param(match["name"], match["type"], bool(match["required"]), None, match["meaning"], choices)
    raw = (match["default"] or "").strip()
    if param.required or raw.lower() == "null":
        return param
    if param.type == "text" and len(raw) >= 2 and raw[0] == raw[-1] == "'":
        raw = raw[1:-1]
    try:
        default = param.convert(raw)
    except QueryError as exc:
        raise QueryError(f"header line {number}: default: {exc}") from None
    return Param(param.name, param.type, False, default, param.meaning, choices)


def _check_body(body: str, params: list[Param], columns: list[Column]) -> None:
    # imported here: sqlglot's import (~0.13 s) is three times Python's start; running one query never checks
    import sqlglot
    from sqlglot import exp

    try:
        readonly.check_select(body)
    except readonly.UnsafeSql as exc:
        raise QueryError(str(exc)) from None
    tree = sqlglot.parse_one(body, read="sqlite")
    used = {p.name for p in tree.find_all(exp.Placeholder)}
    declared = {p.name for p in params}
    if used != declared:
        problems = []
        if used - declared:
            problems.append(f"uses undeclared {', '.join(sorted(used - declared))}")
        if declared - used:
            problems.append(f"declares unused {', '.join(sorted(declared - used))}")
        raise QueryError(f"parameters do not match the header: {'; '.join(problems)}")
    for select in tree.find_all(exp.Select):
        if any(s.is_star for s in select.selects):
            raise QueryError("SELECT * is not allowed: a query's columns are a contract")
    selected = [s.alias_or_name for s in tree.selects]
    expected = [c.name for c in columns]
    if selected != expected:
        raise QueryError(f"output columns {selected} differ from the header's {expected}")
    ctes = tree.find(exp.With)
    if ctes is not None:
        names = [cte.alias for cte in ctes.expressions]
        source = tree.args.get("from_")
        if names[-1] != "final" or source is None or source.name != "final":
            raise QueryError("a WITH pipeline ends in a CTE named final and selects from it")
    for node in tree.find_all(exp.Func):
        name = node.name.lower() if isinstance(node, exp.Anonymous) else ""
        if name in NON_PORTABLE_FUNCTIONS or isinstance(node, (exp.Glob, exp.Typeof)):
            raise QueryError(f"{node.sql(dialect='sqlite')[:40]}: SQLite-only, write it portably (DESIGN §4)")


def load(directory: Path = QUERIES_DIR) -> dict[str, Query]:
    """Every query under ``directory``, by name (file names are unique across folders), internal
    ones included (:attr:`Query.public`).

    Files whose name starts with ``_`` are helpers (included by queries), not queries.

    :raises QueryError: naming the first broken file, or two files with the same name.
    """
    registry: dict[str, Query] = {}
    for path in sorted(directory.glob("*/*.sql")):
        if path.name.startswith("_"):
            continue
        query = parse_file(path)
        if query.name in registry:
            raise QueryError(f"{path}: query name {query.name} is also used by {registry[query.name].path}")
        registry[query.name] = query
    return registry


def markdown(catalog: dict[str, Query]) -> str:
    """The reference page of the queries (docs/queries.md), one section per query, from the headers."""
    lines = ["# Named queries", "",
             "Generated by `warehouse queries --format markdown` from the headers of `queries/<view>/<name>.sql`;",
             "do not edit by hand. Run one with `warehouse query NAME --db X -p key=value` or",
             "`GET /api/v1/queries/NAME?key=value`.", ""]
    for query in sorted(catalog.values(), key=lambda q: (q.view, q.name)):
        lines += [f"## {query.name}", "", f"**{query.title}** (`queries/{query.view}/{query.name}.sql`)", "",
                  query.description, ""]
        if query.params:
            lines += ["| parameter | type | default | meaning |", "| --- | --- | --- | --- |"]
            for param in query.params:
                entry = param.describe()
                default = "required" if entry["required"] else f"`{json.dumps(entry['default'])}`"
                kind = f"{param.type}: {_cell('|'.join(param.choices))}" if param.choices else param.type
                lines.append(f"| `{param.name}` | {kind} | {default} | {_cell(param.meaning)} |")
            lines.append("")
        lines += ["| column | meaning |", "| --- | --- |"]
        lines += [f"| `{column.name}` | {_cell(column.meaning)} |" for column in query.columns]
        lines.append("")
    return "\n".join(lines)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


@lru_cache(maxsize=1)
def registry() -> dict[str, Query]:
    """The repository's queries, internal ones included, loaded and checked once per process."""
    return load()


def catalog() -> dict[str, Query]:
    """The public queries: what the CLI, the REST API, its OpenAPI document, Datasette and
    docs/queries.md list and serve."""
    return {name: query for name, query in registry().items() if query.public}


def published(name: str) -> Query:
    """The public query ``name`` (what a user may run by name).

    :raises UnknownQuery: if no public query has that name (an internal one included).
    """
    query = get(name)
    if not query.public:
        raise UnknownQuery(f"no query named {name!r} (see `warehouse queries`)")
    return query


def get(name: str) -> Query:
    """The query ``name``; before the registry is loaded, only its own file is read, header only
    (a command running one query neither parses the hundred others nor imports sqlglot).

    The sqlglot checks of a body are the catalog's: :func:`registry` runs them on every file, and
    so do the tests, ``warehouse queries`` and the services at start. A query read alone still
    runs under :mod:`warehouse.readonly`'s authorizer, so an edited file can fail, never write.

    :raises UnknownQuery: if no query has that name.
    """
    if registry.cache_info().currsize == 0 and not name.startswith("_"):
        query = _alone(name)
        if query is not None:
            return query
    try:
        return registry()[name]
    except KeyError:
        raise UnknownQuery(f"no query named {name!r} (see `warehouse queries`)") from None


@lru_cache(maxsize=None)
def _alone(name: str) -> Query | None:
    """The query from its one file; None when no file or several have that name (the registry says which)."""
    paths = list(QUERIES_DIR.glob(f"*/{glob.escape(name)}.sql"))
    return parse_file(paths[0], check=False) if len(paths) == 1 else None
