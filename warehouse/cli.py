"""The ``warehouse`` command: a thin click group over the library's modules."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from warehouse import db, ingest as ingest_frame, output, readonly, summary
from warehouse.errors import WarehouseError

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}
DEFAULT_DB = "warehouse.db"


def db_option(function):
    return click.option(
        "--db", "db_path", default=DEFAULT_DB, show_default=True, type=click.Path(dir_okay=False),
        help="The warehouse file.",
    )(function)


def format_option(function):
    return click.option(
        "--format", "fmt", type=click.Choice(output.FORMATS), default="table", show_default=True,
        help="Output format (json: an array of objects).",
    )(function)


class WarehouseGroup(click.Group):
    """Turns a WarehouseError anywhere into a one-line message and exit code 1."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except WarehouseError as exc:
            raise click.ClickException(str(exc)) from None


@click.group(cls=WarehouseGroup, context_settings=CONTEXT_SETTINGS)
@click.version_option(package_name="ascend-warehouse")
def cli():
    """A SQL-first warehouse for Ascend NPU profiling data."""


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@db_option
@click.option("--force", is_flag=True, help="Re-ingest files already in the warehouse, replacing their rows.")
@click.option("--quiet", "-q", is_flag=True, help="Print nothing but errors.")
def ingest(paths, db_path, force, quiet):
    """Ingest profiler outputs (files or folders, walked recursively).

    Each file's kind is detected from its content; each file is one transaction.
    Exits with 1 if any file failed.

    \b
    Example:
        warehouse ingest ./cluster_run --db run.db
    """
    conn = db.connect(db_path)
    files = list(ingest_frame.discover(paths))
    show_bar = not quiet and sys.stderr.isatty()
    with click.progressbar(files, label="ingesting", file=sys.stderr, hidden=not show_bar,
                           item_show_func=_short_name) as bar:
        results = [ingest_frame.ingest_file(conn, path, force=force) for path in bar]
    failed = [r for r in results if r.status == "failed"]
    if not quiet:
        click.echo(summary.results_table(results))
    for result in failed:
        click.echo(f"error: {result.error}", err=True)
    sys.exit(1 if failed else 0)


def _short_name(item):
    return item.name if isinstance(item, Path) else None


@cli.command()
@db_option
def migrate(db_path):
    """Upgrade a warehouse to this code's schema (ingest does it too).

    \b
    Example:
        warehouse migrate --db run.db
    """
    conn = db.connect(db_path, migrate_schema=False)
    applied = db.migrate(conn, label=db_path)
    for migration in applied:
        click.echo(f"applied {migration.version:04d}_{migration.name}")
    click.echo(f"{db_path}: schema version {db.schema_version(conn)}")


@cli.command()
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def info(db_path, as_json):
    """What a warehouse holds: schema version, sources and row counts.

    \b
    Example:
        warehouse info --db run.db --json
    """
    conn = db.connect_readonly(db_path)
    facts = summary.describe(conn)
    if as_json:
        click.echo(json.dumps(facts, indent=2))
    else:
        click.echo(summary.describe_text(facts))


@cli.command()
@click.argument("sql")
@db_option
@format_option
def sql(sql, db_path, fmt):
    """Run one read-only SQL query.

    \b
    Example:
        warehouse sql "SELECT name, count(*) FROM slice GROUP BY 1" --db run.db --format csv
    """
    conn = db.connect_readonly(db_path)
    columns, rows = readonly.run_select(conn, sql)
    click.echo(output.render(columns, rows, fmt), nl=False)


@cli.command()
@click.option("--dir", "out_dir", default="demo", show_default=True, type=click.Path(file_okay=False),
              help="Where the demo inputs and warehouse are written.")
def demo(out_dir):
    """Generate a demo profile, ingest it and print what the warehouse holds.

    \b
    Example:
        warehouse demo --dir /tmp/demo
    """
    from warehouse import demo as demo_data

    out = Path(out_dir)
    inputs = demo_data.write_inputs(out / "inputs")
    db_path = out / "warehouse.db"
    conn = db.connect(db_path)
    results = ingest_frame.ingest_paths(conn, [inputs], force=True)
    click.echo(summary.results_table(results))
    click.echo(summary.describe_text(summary.describe(conn)))
    click.echo(f"\nwarehouse: {db_path}\ntry: warehouse sql \"SELECT name, count(*), sum(dur) FROM slice "
               f"GROUP BY name ORDER BY 3 DESC LIMIT 10\" --db {db_path}")
