"""Audits and ``warehouse check``: is a warehouse file sound, and does its data keep the rules?

An audit is one ``audits/<name>.sql`` file: a header comment saying what it checks, then
one SELECT that returns the rows violating the rule; zero rows means it passes (SQLMesh
audits, dbt tests). A file whose name starts with ``_`` is a helper, not an audit: audits
that name it get it as a CTE. A helper's header line ``-- for each table with column: <col>``
makes its body a template: ``{table}`` is replaced by every table that has that column and
the results are combined (so tables added by later migrations are audited without a new file).
An ``-- include: _name`` line takes a model fragment (``warehouse/model/views/_name.sql``), as the
views and queries do, so an audit states a meaning the model already states in its words.
A failed audit shows its first rows in its own order (an audit ending with ORDER BY shows its
worst rows first), :data:`EXAMPLES` of them or as many as its ``-- examples: N`` header says, and
the report says how many it left out.

:func:`check_warehouse` adds what SQL cannot say about itself: ``PRAGMA integrity_check``
and the schema version against the migration files. Everything here only reads.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from warehouse import db, introspect, output, schema_views, sqlfiles
from warehouse.errors import WarehouseError

AUDITS_DIR = Path(__file__).resolve().parent / "_bundled" / "audits"
LEADING_WITH = re.compile(r"^WITH\s+", re.IGNORECASE)
#: violating rows shown per failed audit, unless its header says how many (``-- examples: N``)
EXAMPLES = 5


@dataclass(frozen=True)
class Audit:
    """One rule (or a helper): its name (the file's stem), what it checks, and its SQL."""

    name: str
    description: str
    sql: str
    #: the column whose tables the SQL is repeated over, for a per-table template
    per_table_column: str | None = None
    #: the helpers the SQL names, given to it as CTEs
    helpers: tuple[Audit, ...] = ()
    #: violating rows shown when it fails
    examples: int = EXAMPLES

    def statement(self, conn: sqlite3.Connection) -> str:
        """The SELECT to run on this warehouse (helpers as CTEs, templates expanded over its tables);
        empty when a template has no table to run on."""
        parts = [self._expanded(conn)] + [helper._expanded(conn) for helper in self.helpers]
        if not all(parts):
            return ""
        body, *helper_sql = parts
        if not self.helpers:
            return body
        ctes = ",\n".join(f"{helper.name} AS (\n{sql}\n)" for helper, sql in zip(self.helpers, helper_sql))
        if LEADING_WITH.match(body):
            return f"WITH {ctes},\n{LEADING_WITH.sub('', body, count=1)}"
        return f"WITH {ctes}\n{body}"

    def _expanded(self, conn: sqlite3.Connection) -> str:
        if self.per_table_column is None:
            return self.sql
        tables = sorted(t for t in introspect.tables_with_column(conn, self.per_table_column) if t != "source")
        return "\nUNION ALL\n".join(f"SELECT * FROM ({self.sql.replace('{table}', table)})" for table in tables)


@dataclass
class AuditResult:
    """What one audit found: the number of violating rows and the first few of them."""

    audit: Audit
    violations: int
    columns: list[str] = field(default_factory=list)
    examples: list[tuple] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return self.violations == 0


def load_audits(directory: Path = AUDITS_DIR) -> list[Audit]:
    """Every audit of ``directory`` (``*.sql`` not starting with ``_``), by name, with its helpers.

    :raises WarehouseError: if a file has no header comment or no query.
    """
    files = [_read(path) for path in sorted(directory.glob("*.sql"))]
    helpers = [audit for audit in files if audit.name.startswith("_")]
    return [
        Audit(audit.name, audit.description, audit.sql, audit.per_table_column,
              tuple(h for h in helpers if re.search(rf"\b{re.escape(h.name)}\b", audit.sql)), audit.examples)
        for audit in files if not audit.name.startswith("_")
    ]


def _read(path: Path) -> Audit:
    try:
        script = sqlfiles.text(path)
        header = sqlfiles.fields(script)
        body = sqlfiles.expand_includes(sqlfiles.body(script), schema_views.VIEWS_DIR).rstrip(";").strip()
    except sqlfiles.SqlFileError as exc:
        raise WarehouseError(f"{path}: {exc}") from None
    per_table = [item.value for item in header if item.key == "for each table with column"]
    examples = [item.value for item in header if item.key == "examples"]
    description = " ".join(item.value for item in header if item.key == "")
    if not description or not body:
        raise WarehouseError(f"{path}: an audit starts with a comment saying what it checks, then one SELECT")
    if examples and not examples[0].isdigit():
        raise WarehouseError(f"{path}: '-- examples:' takes a number of rows, not {examples[0]!r}")
    return Audit(path.stem, description, body, per_table[0] if per_table else None,
                 examples=int(examples[0]) if examples else EXAMPLES)


def run_audit(conn: sqlite3.Connection, audit: Audit, *, examples: int | None = None) -> AuditResult:
    """Run one audit: count its violating rows and keep the first ``examples`` of them (the
    audit's own number by default), in the audit's order: the LIMIT applies to its statement
    itself, so an audit ending with ORDER BY keeps its worst rows."""
    sql = audit.statement(conn)
    if not sql:
        return AuditResult(audit, 0)
    try:
        (count,) = conn.execute(f"SELECT count(*) FROM (\n{sql}\n)").fetchone()  # as the LIMIT below: a last comment line
        if not count:
            return AuditResult(audit, 0)
        cursor = conn.execute(f"{sql}\nLIMIT {int(audit.examples if examples is None else examples)}")
    except sqlite3.Error as exc:
        raise WarehouseError(f"audit {audit.name} cannot run on this warehouse ({exc})") from None
    return AuditResult(audit, count, [d[0] for d in cursor.description], cursor.fetchall())


def run_audits(conn: sqlite3.Connection, audits: list[Audit] | None = None) -> list[AuditResult]:
    """Run every audit (all of ``audits/`` by default); one result each, in name order."""
    return [run_audit(conn, audit) for audit in (load_audits() if audits is None else audits)]


@dataclass
class CheckReport:
    """The findings of ``warehouse check``; ``problems`` is empty when the warehouse is sound."""

    path: str
    schema_version: int | None = None
    code_version: int | None = None
    integrity: list[str] = field(default_factory=list)
    audits: list[AuditResult] = field(default_factory=list)
    #: what is wrong with the file itself (integrity, schema version)
    errors: list[str] = field(default_factory=list)

    @property
    def problems(self) -> list[str]:
        """Every finding: the file's errors, then one line per failed audit."""
        return self.errors + [
            f"audit {r.audit.name}: {r.violations} violating row(s)" for r in self.audits if not r.passed
        ]

    @property
    def ok(self) -> bool:
        return not self.problems

    def as_dict(self) -> dict:
        return {
            "path": self.path,
            "ok": self.ok,
            "schema_version": self.schema_version,
            "code_version": self.code_version,
            "integrity_check": self.integrity,
            "audits": [
                {
                    "name": r.audit.name,
                    "description": r.audit.description,
                    "passed": r.passed,
                    "violations": r.violations,
                    "examples": [dict(zip(r.columns, row)) for row in r.examples],
                }
                for r in self.audits
            ],
            "problems": self.problems,
        }


def check_warehouse(path: str | Path) -> CheckReport:
    """Check a warehouse file read-only: integrity, schema version, then the audits.

    Audits run only on a warehouse whose schema and views are exactly the code's (their tables and
    views are): one that a read-only open refuses (:func:`warehouse.db.upgrade_needed`) is reported
    as that.

    :raises WarehouseError: if the file does not exist or is not an SQLite database at all.
    """
    path = Path(path)
    if not path.is_file():
        raise WarehouseError(f"{path}: no such warehouse")
    report = CheckReport(str(path))
    conn = db.open_readonly(path)
    try:
        try:
            report.integrity = [row[0] for row in conn.execute("PRAGMA integrity_check")]
        except sqlite3.DatabaseError as exc:
            if exc.sqlite_errorcode == sqlite3.SQLITE_NOTADB:
                raise WarehouseError(f"{path}: not an SQLite warehouse ({exc})") from None
            report.integrity = [str(exc)]  # too damaged for the check to finish
        if report.integrity != ["ok"]:
            report.errors.append(f"integrity_check: {'; '.join(report.integrity[:EXAMPLES])}")
        migrations = db.available_migrations()
        report.code_version = migrations[-1].version if migrations else 0
        report.schema_version = db.schema_version(conn)
        try:
            upgrade = db.upgrade_needed(conn, label=str(path), migrations=migrations)
        except WarehouseError as exc:
            report.errors.append(str(exc))
            return report
        except sqlite3.Error as exc:  # a user_version without the schema_migrations it implies
            report.errors.append(f"{path}: schema version {report.schema_version} but no migration record ({exc})")
            return report
        if upgrade:  # what a read-only open refuses (a pending migration, views that differ)
            report.errors.append(f"{upgrade} (audits not run)")
            return report
        try:
            report.audits = run_audits(conn)
        except WarehouseError as exc:  # e.g. a page too damaged to read
            report.errors.append(str(exc))
    finally:
        conn.close()
    return report


def report_text(report: CheckReport) -> str:
    """The report for people: one line per check, the violating examples under each failed audit."""
    lines = [f"{report.path}: {'ok' if report.ok else f'{len(report.problems)} problem(s)'}"]
    lines.append(f"  integrity_check: {'ok' if report.integrity == ['ok'] else '; '.join(report.integrity[:EXAMPLES])}")
    lines.append(f"  schema version: {report.schema_version} (this code: {report.code_version})")
    for result in report.audits:
        if result.passed:
            lines.append(f"  pass  {result.audit.name}")
            continue
        lines.append(f"  FAIL  {result.audit.name}: {result.violations} violating row(s); {result.audit.description}")
        table = output.render(result.columns, result.examples, "table")
        lines.extend("        " + line for line in table.rstrip("\n").splitlines())
        if result.violations > len(result.examples):
            lines.append(f"        ({result.violations - len(result.examples)} more not shown: "
                         f"the first {len(result.examples)} in the audit's order)")
    lines.extend(f"  error: {error}" for error in report.errors)
    return "\n".join(lines)
