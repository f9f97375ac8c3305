"""The ``warehouse`` command: a thin click group over the library's modules.

Each command imports the modules it uses when it runs, not at the top of this file: the
ingest frame and its sources, sqlglot, tabulate and the services cost several times
Python's own start, and ``warehouse sql`` or ``warehouse --help`` should not pay for the
modules of ``ingest`` (bench/cli_startup.py measures it).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
from pathlib import Path

import click

from warehouse import db, output
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


def allow_host_option(function):
    return click.option(
        "--allow-host", "allow_hosts", multiple=True, metavar="NAME",
        help="Also answer requests for this host name (repeatable; besides loopback and --host; "
             "WAREHOUSE_ALLOWED_HOSTS=a,b; '*': any).",
    )(function)


def _token_beyond_loopback(host: str) -> str | None:
    """A generated token, printed with how to use it, when ``host`` is not loopback (None on loopback)."""
    from warehouse import hosts

    if hosts.is_loopback(host):
        return None
    token = hosts.new_token()
    click.echo(f"listening beyond loopback ({host}) without --token: every request needs this generated token\n"
               f"  token: {token}\n  (REST: 'Authorization: Bearer {token}'; the Insight page: "
               f"index.html?port=N&token={token}; Datasette: open a page once with ?_token={token}; "
               "choose your own with --token or WAREHOUSE_TOKEN)", err=True)
    return token


class WarehouseGroup(click.Group):
    """Turns a WarehouseError, or a file the system refuses (a read-only folder, a full disk),
    anywhere into a one-line message and exit code 1 (2 for a missing extra: MissingExtra)."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except WarehouseError as exc:
            error = click.ClickException(str(exc))
            error.exit_code = exc.exit_code
            raise error from None
        except OSError as exc:
            where = exc.filename or "warehouse"
            raise click.ClickException(f"{where}: {exc.strerror or exc}") from None


@click.group(cls=WarehouseGroup, context_settings=CONTEXT_SETTINGS)
@click.version_option(package_name="ascend-warehouse")
def cli():
    """A SQL-first warehouse for Ascend NPU profiling data."""


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@db_option
@click.option("--force", is_flag=True, help="Re-ingest files already in the warehouse, replacing their rows.")
@click.option("--quiet", "-q", is_flag=True, help="Print nothing but errors.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=lambda: _parts().default_jobs(), show_default="the cores",
              help="Worker processes for large files (1: ingest every file in this process).")
@click.option("--run", "run_name", default=None, metavar="NAME",
              help="Name the run found (several runs found: NAME/<each run's folder>); an existing run NAME "
                   "takes the files of a single run.")
@click.option("--label", "labels", multiple=True, metavar="KEY=VALUE",
              callback=lambda ctx, param, value: _labels_module().checked(value),
              help="Attach a label to the run(s) the files join (repeatable; table run_label).")
@click.option("--engine", type=click.Choice(["sqlite", "spark"]), default="sqlite", show_default=True,
              help="spark: ingest each run's ranks on Spark executors into a Parquet dataset (--out), not --db.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="With --engine spark: the dataset folder (new, or one this ingest wrote: new ranks are added).")
@click.option("--master", default=None, metavar="URL",
              help="With --engine spark: Spark's master URL (default: SPARK_MASTER, else local[*,4]).")
@click.option("--answers-first", is_flag=True,
              help="Stage the rank dbs first: step_time, communication_ops, top_kernels and slow_ranks answer "
                   "within seconds, then the full ingest follows (query meanwhile from another shell); "
                   "not with --force, which ingests every file whole.")
@click.option("--answers-only", is_flag=True,
              help="Stop after the first answers of --answers-first; a later ingest of the same paths adds the rest.")
def ingest(paths, db_path, force, quiet, jobs, run_name, labels, engine, out_dir, master, answers_first,
           answers_only):
    """Ingest profiler outputs (files or folders, walked recursively).

    Each file's kind is detected from its content; each file is one transaction.
    Each file joins its profiling run, found from the layout (the folder holding the
    rank folders, a PROF_* folder, a trace file on its own). Exits with 1 if any file failed.

    \b
    Example:
        warehouse ingest ./cluster_run --db run.db --run baseline
        warehouse ingest /shared/run --engine spark --out /shared/run.parquet --master spark://head:7077
    """
    if engine == "spark":
        if out_dir is None:
            raise click.UsageError("--engine spark writes a Parquet dataset: give --out DIR")
        from warehouse.engines import spark_ingest

        sys.exit(spark_ingest.main(paths, out_dir, master=master, run_name=run_name, quiet=quiet))
    from warehouse import ingest as ingest_frame, summary
    from warehouse.ingest import progress_line

    new_warehouse = not Path(db_path).exists()
    if empty := ingest_frame.empty_paths(paths, exclude=ingest_frame.warehouse_files_at(Path(db_path).absolute())):
        raise WarehouseError(f"{', '.join(map(str, empty))}: no file to read (an empty folder); nothing ingested")
    conn = _open_upgraded(db_path)
    for stale, size in _parts().sweep_stale(Path(db_path).absolute().parent):
        click.echo(f"removed {stale}: the parts ({size / 1e6:.1f} MB) of an ingest that was killed", err=True)
    files = list(ingest_frame.discover(paths, exclude=ingest_frame.warehouse_files(conn)))
    if (answers_first or answers_only) and not force:
        _first_answers(conn, files, jobs, run_name, quiet)
        if answers_only:
            sys.exit(0)
    with progress_line.shown(sys.stderr, "ingesting", len(files), enabled=_on_terminal(quiet)):
        results = ingest_frame.ingest_paths(conn, files, force=force, jobs=jobs, run_name=run_name)
    failed = [r for r in results if r.status == "failed"]
    if labels:
        for run_id in _labels_module().runs_of_sources(conn, [r.source_id for r in results]):
            _labels_module().set_labels(conn, run_id, labels)
    if not quiet:
        click.echo(summary.results_table(results))
    for result in failed:
        click.echo(f"error: {result.error}", err=True)
    if results and all(result.status == "skipped" for result in results):
        _nothing_read(conn, db_path, new_warehouse, paths)
    sys.exit(1 if failed else 0)


def _nothing_read(conn, db_path, new_warehouse, paths) -> None:
    """Exit with 1: no file under ``paths`` is a profiler output; a warehouse this command made is removed."""
    from warehouse import ingest as ingest_frame

    conn.close()
    if new_warehouse:
        for path in ingest_frame.warehouse_files_at(db_path):
            path.unlink(missing_ok=True)
    raise WarehouseError(f"{', '.join(map(str, paths))}: no file is a profiler output this warehouse reads; nothing ingested"
          + ("" if new_warehouse else f" ({db_path} is unchanged)"))


def _first_answers(conn, files, jobs, run_name, quiet) -> None:
    """Stage 1 of ``ingest --answers-first`` (:mod:`warehouse.ingest.staged.first`); stage 2 is the ingest that follows."""
    import time

    from warehouse.ingest import progress_line
    from warehouse.ingest.staged import first

    started = time.perf_counter()
    with progress_line.shown(sys.stderr, "first answers", len(files), enabled=_on_terminal(quiet)):
        results = first.stage_paths(conn, files, jobs=jobs, run_name=run_name)
    if not quiet:
        staged = sum(result.status == "staged" and result.kind == "rank_db" for result in results)
        click.echo(f"first answers ready in {time.perf_counter() - started:.1f} s: {staged} rank dbs staged "
                   f"(step_time, communication_ops, top_kernels, slow_ranks answer now); the full ingest follows")


def _labels_module():
    from warehouse import labels

    return labels


def _open_upgraded(db_path):
    """The warehouse for writing, upgraded to this code's schema; an upgrade of an existing warehouse
    is said on stderr before it starts and when it is done, with its time (a migration may rebuild an
    index: a minute or more on a big warehouse)."""
    started = []

    def announce(version, pending):
        names = ", ".join(f"{m.version:04d}_{m.name}" for m in pending)
        click.echo(f"{db_path}: upgrading the schema from version {version} to {pending[-1].version} ({names})...",
                   err=True)
        started.append(time.perf_counter())

    conn = db.connect(db_path, announce=announce)
    if started:
        click.echo(f"{db_path}: schema upgraded in {time.perf_counter() - started[0]:.1f} s", err=True)
    return conn


def _parts():
    from warehouse.ingest import parts

    return parts


def _on_terminal(quiet: bool) -> bool:
    """Whether the ingest keeps its progress line on stderr: a terminal, and not ``--quiet``."""
    return not quiet and sys.stderr.isatty()


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
    """What a warehouse holds: schema version, runs, sources and row counts.

    \b
    Example:
        warehouse info --db run.db --json
    """
    from warehouse import summary

    from warehouse import ingest_progress as progress

    conn = db.connect_readonly(db_path)
    facts = summary.describe(conn)
    waiting = progress.waiting_runs(conn)
    if waiting:  # ingest --answers-first: what has its first answers only
        facts["staged_runs"] = waiting
    if as_json:
        click.echo(json.dumps(facts, indent=2))
    else:
        click.echo(summary.describe_text(facts))
        if waiting:
            click.echo(progress.describe_text(waiting))


def bounds_options(function):
    """``--time-limit`` and ``--max-rows``: the REST API's limits (WAREHOUSE_TIME_LIMIT_S, WAREHOUSE_MAX_LIMIT)."""
    from warehouse import limits

    function = click.option(
        "--max-rows", type=click.IntRange(min=0), default=lambda: limits.current().MAX_LIMIT,
        show_default="100000, or $WAREHOUSE_MAX_LIMIT",
        help="Print at most this many rows (and say so on stderr when there were more); 0: no limit.",
    )(function)
    return click.option(
        "--time-limit", type=click.FloatRange(min=0), default=lambda: limits.current().TIME_LIMIT_S,
        show_default="10, or $WAREHOUSE_TIME_LIMIT_S",
        help="Seconds the query may take, parsing and fetching included; 0: no limit.",
    )(function)


def _print_bounded(columns, rows, fmt, max_rows):
    """Print up to ``max_rows`` of ``rows`` (fetched up to ``max_rows + 1``); a line on stderr if there were more."""
    more = bool(max_rows) and len(rows) > max_rows
    click.echo(output.render(columns, rows[:max_rows] if more else rows, fmt), nl=False)
    if more:
        click.echo(f"warehouse: stopped after {max_rows} rows (--max-rows)", err=True)


@cli.command()
@click.argument("sql")
@db_option
@format_option
@bounds_options
def sql(sql, db_path, fmt, time_limit, max_rows):
    """Run one read-only SQL query, within the REST API's limits.

    The limits of warehouse/limits.py apply (value length, SQL length and nesting, answer
    bytes; each a WAREHOUSE_* variable); a query past one stops with a one-line reason.
    SQLite's authorizer on a read-only connection keeps it to reading; sqlglot's lint (the
    REST API's first check) runs only to say why SQLite refused or failed.

    \b
    Example:
        warehouse sql "SELECT name, count(*) FROM slice GROUP BY 1" --db run.db --format csv
    """
    from warehouse import limits, readonly

    bounds = limits.current()
    readonly.check_text(sql, bounds)  # before opening anything: a 1 MB or 1000-deep text is one line
    conn = db.connect_readonly(db_path)
    try:
        # lint=False: importing sqlglot would cost twice Python's start on every query, and a
        # local user's SQL needs no check before the authorizer's
        columns, rows = readonly.run_select(conn, sql, max_rows=max_rows + 1 if max_rows else None,
                                            time_limit_s=time_limit or None, lint=False,
                                            max_bytes=bounds.MAX_ANSWER_BYTES or None, limits=bounds)
    except (readonly.QueryTimeout, readonly.TooLarge):
        raise
    except WarehouseError:
        readonly.check_select(sql)  # the lint's reason (not a SELECT, two statements, ...) when it has one
        raise
    _print_bounded(columns, rows, fmt, max_rows)


@cli.command()
@click.option("--dir", "out_dir", default="demo", show_default=True, type=click.Path(file_okay=False),
              help="Where the demo inputs and warehouse are written.")
@click.option("--serve/--no-serve", default=True, show_default=True,
              help="Start the REST API and Datasette on the demo warehouse, until Ctrl-C.")
def demo(out_dir, serve):
    """Generate a demo cluster profile, ingest it, and serve it (REST API and Datasette).

    \b
    Example:
        warehouse demo --dir /tmp/demo
    """
    from warehouse import demo as demo_data, ingest as ingest_frame, summary
    from warehouse.demo import services

    out = Path(out_dir)
    inputs = demo_data.write_inputs(out / "inputs")
    db_path = out / "warehouse.db"
    conn = db.connect(db_path)
    results = ingest_frame.ingest_paths(conn, [inputs], force=True)
    click.echo(summary.results_table(results))
    if any(result.status == "failed" for result in results):
        raise click.ClickException("the demo inputs did not all ingest; see the errors above")
    from warehouse import report as report_module
    from warehouse.analysis import findings

    counts = findings.analyze(conn)  # the findings and the report are part of what the demo shows
    conn.close()
    readonly_conn = db.connect_readonly(db_path)
    report = report_module.write(readonly_conn, db_path.name, out / "report.html")
    click.echo(summary.describe_text(summary.describe(readonly_conn)))
    readonly_conn.close()
    click.echo(f"\nwarehouse: {db_path}\n{sum(counts.values())} findings; report: {report}\n"
               f"try: warehouse query step_time --db {db_path} --format table")
    if not serve:
        return
    # a plain `kill` stops the demo as Ctrl-C does: both services are stopped with it
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with services.both_services(db_path) as running:
        click.echo(f"\nStart here: {running.start_url} (step time per rank; the findings: the report)\n"
                   f"REST API:   {running.rest_url}/queries\nDatasette:  {running.datasette_url}\n(Ctrl-C to stop)")
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            click.echo("stopping")


@cli.command()
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def check(db_path, as_json):
    """Check a warehouse: PRAGMA integrity_check, schema version, and the audits.

    Only reads. Each audit (audits/*.sql) returns the rows breaking its rule; the
    report shows a few of them. Exits with 1 on any problem.

    \b
    Example:
        warehouse check --db run.db
    """
    from warehouse import audits

    report = audits.check_warehouse(db_path)
    if as_json:
        click.echo(json.dumps(report.as_dict(), indent=2, default=str))
    else:
        click.echo(audits.report_text(report))
    sys.exit(0 if report.ok else 1)


@cli.command("queries")
@click.option("--format", "fmt", type=click.Choice(("table", "json", "markdown")), default="table", show_default=True,
              help="json: the full catalog (params, columns, SQL) as one array; markdown: docs/queries.md.")
def list_queries(fmt):
    """List the named queries (queries/<view>/<name>.sql).

    \b
    Example:
        warehouse queries --format json
        warehouse queries --format markdown > docs/queries.md
    """
    from warehouse import queries

    if fmt == "markdown":
        click.echo(queries.markdown(queries.catalog()), nl=False)
        return
    catalog = [q.describe() for q in queries.catalog().values()]
    if fmt == "json":
        click.echo(json.dumps(catalog, indent=2))
        return
    rows = [(q["view"], q["name"], ", ".join(_param_usage(p) for p in q["params"]), q["title"]) for q in catalog]
    click.echo(output.render(["view", "name", "params", "title"], rows, "table"), nl=False)


def _param_usage(param: dict) -> str:
    return f"{param['name']}*" if param["required"] else f"{param['name']}={param['default']}"


@cli.command()
@click.argument("name")
@db_option
@click.option("--param", "-p", "params", multiple=True, metavar="KEY=VALUE", help="A query parameter (repeatable).")
@format_option
@click.option("--engine", type=click.Choice(("sqlite", "duckdb", "spark")), default="sqlite", show_default=True,
              help="duckdb/spark: run the query, transpiled, over a Parquet export (--data).")
@click.option("--data", "data_dir", type=click.Path(exists=True, file_okay=False), default=None,
              help="The folder `warehouse export` wrote (with --engine duckdb|spark).")
@click.option("--master", default=None, help="Spark master URL (default: $SPARK_MASTER, else local[*,4]).")
@bounds_options
def query(name, db_path, params, fmt, engine, data_dir, master, time_limit, max_rows):
    """Run a named query with its parameters (see `warehouse queries`).

    \b
    Example:
        warehouse query top_kernels --db run.db -p rank_id=0 -p limit=5 --format csv
        warehouse query top_kernels --engine duckdb --data run.parquet -p limit=5
    """
    from warehouse import queries

    values = {}
    for item in params:
        key, sep, value = item.partition("=")
        if not sep:
            raise click.BadParameter(f"{item!r} is not KEY=VALUE", param_hint="-p")
        values[key.strip()] = value
    selected = queries.published(name)
    if engine == "sqlite":
        from warehouse import limits

        conn = db.connect_readonly(db_path)
        limits.apply(conn)  # the value-length limit of user SQL (WAREHOUSE_MAX_VALUE_BYTES)
        columns, rows = selected.run(conn, values, max_rows=max_rows + 1 if max_rows else None,
                                     time_limit_s=time_limit or None)
    else:
        from warehouse import engines

        if data_dir is None:
            raise click.BadParameter(f"--engine {engine} reads a Parquet export: give its folder", param_hint="--data")
        columns, rows = engines.open_engine(engine, data_dir, master=master).run(selected, values)
    _print_bounded(columns, rows, fmt, max_rows)


@cli.command("export")
@db_option
@click.option("--format", "fmt", type=click.Choice(("parquet",)), default="parquet", show_default=True,
              help="Output format.")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False), help="Folder to write (new or empty).")
@click.option("--replace", is_flag=True, help="Replace an earlier export in --out: only the files it wrote are deleted.")
def export_command(db_path, fmt, out_dir, replace):
    """Export every table and view as Parquet, partitioned by rank_id, for DuckDB or Spark.

    Writes _warehouse.json beside the tables: schema version, row counts, column types.

    \b
    Example:
        warehouse export --db run.db --format parquet --out run.parquet
        warehouse query step_time --engine duckdb --data run.parquet
    """
    from warehouse import export

    manifest = export.export_parquet(db_path, out_dir, replace=replace)
    rows = sum(table["rows"] for table in manifest["tables"].values())
    click.echo(f"{out_dir}: {len(manifest['tables'])} tables, {rows} rows, schema version {manifest['schema_version']}")


@cli.command()
@db_option
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to bind (loopback by default).")
@click.option("--port", default=8000, show_default=True, type=int, help="TCP port (0: any free port).")
@click.option("--token", default=None, envvar="WAREHOUSE_TOKEN",
              help="Require 'Authorization: Bearer TOKEN' on every request (beyond loopback: one is generated).")
@allow_host_option
@click.option("--import-root", type=click.Path(exists=True, file_okay=False), default=None,
              help="Folder below which requests may name files to import (insight import/action).")
@click.option("--threads", default=max(2, os.cpu_count() or 2), show_default="the machine's cores",
              type=int, help="Worker threads (answers are mostly Python work under one GIL: more only contend); "
                             "ad-hoc SQL gets WAREHOUSE_SQL_SLOTS + WAREHOUSE_SQL_QUEUE more of its own.")
@click.option("--insight-port", type=int, default=None,
              help="Also speak MindStudio Insight's WebSocket protocol on this port (its web frontend: "
                   "index.html?port=N); 0: any free port.")
def serve(db_path, host, port, token, allow_hosts, import_root, threads, insight_port):
    """Serve the REST API (/api/v1) on waitress, a production WSGI server.

    The bounds of warehouse/limits.py apply, each a WAREHOUSE_* variable (time limit, answer
    bytes and rows, _offset, ad-hoc SQL slots, request read timeout, connection limit).
    Both ports answer only requests naming a loopback name, the bound address or an
    --allow-host name (DNS rebinding, other sites' pages); beyond loopback a token is required.
    With --insight-port, a --db that does not exist yet is created empty (the page imports data).

    \b
    Example:
        warehouse serve --db run.db --port 8000 --token s3cret
    """
    import logging

    from service import create_app, server as service_server

    if insight_port is not None and not Path(db_path).exists():
        # MindStudio Insight's page imports its data itself: its port needs no warehouse made beforehand
        db.connect(db_path).close()
        click.echo(f"{db_path}: a new, empty warehouse (import data from MindStudio Insight's page)", err=True)
    db.connect_readonly(db_path).close()  # fail now, with a clear message, on a bad warehouse
    token = token or _token_beyond_loopback(host)
    app = create_app({"DATABASE": str(Path(db_path).resolve()), "TOKEN": token, "REQUEST_SLOTS": threads,
                      "IMPORT_ROOT": str(Path(import_root).resolve()) if import_root else None,
                      "BOUND_HOST": host, **({"ALLOWED_HOSTS": allow_hosts} if allow_hosts else {})})
    # waitress warns "Task queue depth is N" whenever requests wait for a thread: under load, a
    # line per request on stderr (and its CPU), for what is the normal state of a busy server
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    try:
        server = service_server.create_server(app, host=host, port=port, threads=threads,
                                              limits=app.extensions["limits"])
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    insight = None
    if insight_port is not None:
        from service import insight_ws

        try:
            insight = insight_ws.create_server(app, host=host, port=insight_port)
        except OSError as exc:
            server.close()
            reason = os.strerror(exc.errno) if exc.errno else str(exc)
            raise click.ClickException(f"cannot listen on {host}:{insight_port}: {reason}") from None
        threading.Thread(target=insight.serve_forever, name="insight-ws", daemon=True).start()
        bound = insight.socket.getsockname()
        click.echo(f"MindStudio Insight protocol on ws://{bound[0]}:{bound[1]}/ (its page: index.html?port={bound[1]})",
                   err=True)
    # printed once the socket listens, with the port actually bound (callers may pass --port 0)
    click.echo(f"serving {db_path} on http://{server.effective_host}:{server.effective_port}/api/v1", err=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
        if insight is not None:
            insight.shutdown()


@cli.command()
@db_option
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to bind (loopback by default).")
@click.option("--port", default=8001, show_default=True, type=int, help="TCP port.")
@click.option("--token", default=None, envvar="WAREHOUSE_TOKEN",
              help="Require this token (a page opened once with ?_token=TOKEN; beyond loopback: one is generated).")
@allow_host_option
def datasette(db_path, host, port, token, allow_hosts):
    """Browse a warehouse in Datasette: named queries, documented tables, pictures.

    Serves the file immutable (read-only) with the warehouse plugin and a query time limit,
    answering only requests naming a loopback name, --host or an --allow-host name; beyond
    loopback a token is required.

    \b
    Example:
        warehouse datasette --db run.db --port 8001
    """
    from datasette_plugins import launch

    argv = launch.datasette_argv(db_path, host=host, port=port)
    env = launch.boundary_env(host=host, allow_hosts=allow_hosts, token=token or _token_beyond_loopback(host))
    click.echo(f"Datasette: {launch.url(db_path, host=host, port=port)} (Ctrl-C to stop)")
    sys.stdout.flush()
    # Datasette takes over this process: signals and Ctrl-C reach it directly
    os.execve(argv[0], argv, {**os.environ, **env})


@cli.command()
@db_option
def analyze(db_path):
    """Run the diagnosis rules and store their findings (with evidence rows) in the warehouse.

    One transaction; re-running replaces the previous findings. See them with
    `warehouse query findings` and `warehouse query finding_evidence`.

    \b
    Example:
        warehouse analyze --db run.db
    """
    from warehouse.analysis import findings

    if not Path(db_path).exists():
        raise click.ClickException(f"{db_path}: no such warehouse")
    counts = findings.analyze(_open_upgraded(db_path))
    for finding_type, count in counts.items():
        click.echo(f"{finding_type:32} {count}")
    click.echo(f"{sum(counts.values())} findings")


@cli.command()
@db_option
@click.option("--output", "-o", "out", required=True, type=click.Path(dir_okay=False),
              help="Report file: .html (one self-contained page), .md or .xlsx (a sheet per chapter).")
@click.option("--run", "run", default=None, metavar="RUN",
              help="Only this run (name or id); every run, each in its own chapter, by default.")
def report(db_path, out, run):
    """Write the diagnosis report: steps per rank, findings with evidence, kernels, communication, memory.

    Reads the findings of the last `warehouse analyze`. Runs are never added together.

    \b
    Example:
        warehouse report --db run.db -o report.html --run baseline
    """
    from warehouse import report as report_module
    from warehouse.model import runs

    conn = db.connect_readonly(db_path)
    try:
        run_id = runs.resolve(conn, run)
    except runs.UnknownRun as exc:
        raise click.ClickException(f"{db_path}: {exc}") from None
    written = report_module.write(conn, Path(db_path).name, Path(out), run_id=run_id)
    click.echo(f"wrote {written}")


@cli.command("compare")
@db_option
@click.argument("base")
@click.argument("run")
@format_option
@click.option("--output", "-o", "out", default=None, type=click.Path(dir_okay=False),
              help="Also write a report: .html (one self-contained page) or .md.")
@click.option("--top", default=10, show_default=True, type=click.IntRange(min=1), help="Rows printed per answer.")
@click.option("--engine", type=click.Choice(("sqlite", "duckdb", "spark")), default="sqlite", show_default=True,
              help="duckdb/spark: compare on a Parquet dataset (--data), the same answers as on SQLite.")
@click.option("--data", "data_dir", type=click.Path(exists=True, file_okay=False), default=None,
              help="The folder `warehouse export` or `warehouse ingest --engine spark` wrote (with --engine duckdb|spark).")
@click.option("--master", default=None, help="Spark master URL (default: $SPARK_MASTER, else local[*,4]).")
def compare_command(db_path, base, run, fmt, out, top, engine, data_dir, master):
    """Compare two runs (names or ids): what differs, step time, kernels, communication, memory.

    Says first what differs between the runs (device, cluster size, export kind, profiler
    version) and whether they are comparable (the same device kind and type, cluster size and
    model), then prints the top rows of the named queries compare_runs, compare_step_time,
    compare_kernels, compare_communication and compare_memory (RUN against BASE); with -o, writes
    a report naming the top regressions and improvements with their evidence rows in both runs.

    \b
    Example:
        warehouse compare --db runs.db baseline after_fix -o compare.html
        warehouse compare --engine duckdb --data runs.parquet baseline after_fix
    """
    from warehouse.report import compare, compare_tables
    from warehouse.model import runs

    if engine == "sqlite":
        if not Path(db_path).exists():
            raise click.ClickException(f"{db_path}: no such warehouse")
        where, run_query = db_path, compare.sqlite_runner(db.connect_readonly(db_path))
    else:
        from warehouse import engines

        if data_dir is None:
            raise click.BadParameter(f"--engine {engine} reads a Parquet dataset: give its folder", param_hint="--data")
        where, run_query = data_dir, compare.engine_runner(engines.open_engine(engine, data_dir, master=master))
    try:
        base_run, this_run = compare.resolve_pair(run_query, base, run)
    except runs.UnknownRun as exc:
        raise click.ClickException(f"{where}: {exc}") from None
    comparison = compare.compare(run_query, base_run, this_run, evidence=out is not None)
    click.echo(compare.render_text(comparison, fmt, top=top), nl=False)
    if out is not None:
        written = compare_tables.write_report(comparison, Path(where).name, Path(out))
        click.echo(f"wrote {written}", err=True)
