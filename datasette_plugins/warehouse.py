"""The Datasette plugin of the warehouse (registered through the ``datasette`` entry point).

With it, ``datasette warehouse.db`` shows every named query as a canned query, the
schema's documentation, analyst SQL functions, times and sizes shown readable (the stored
value on hover), and the picture pages (DESIGN §6).
Databases that are not warehouses are left alone, except for the SQL functions and the table
page's folded column descriptions (``templates/table.html``), which are harmless anywhere.
Hooks of Datasette 0.65 (``canned_queries`` and ``get_metadata`` are gone in the 1.0 alphas,
hence the pin ``datasette>=0.65,<1.0``).
"""

from __future__ import annotations

from datasette import Response, hookimpl
from jinja2 import ChoiceLoader, FileSystemLoader

from datasette_plugins import (answer_cap, boundary, canned, cells, csv_guard, functions, memory_release, metadata,
                               pages, search_box)
from datasette_plugins.databases import is_warehouse, warehouse_columns, warehouse_names
from warehouse import limits


@hookimpl(trylast=True)  # after Datasette's own, whose escape_fts search_box replaces
def prepare_connection(conn):
    """Add the analyst SQL functions (``format_ns``, ``format_bytes``, ``pct``, ``median``...), and put the
    warehouse's SQLite limits on the connection (value length, SQL length, expression depth: the
    ``WAREHOUSE_*`` settings of warehouse/limits.py), so plain ``datasette`` refuses
    ``zeroblob(400000000)`` as the REST API does; count each answer's bytes against
    ``WAREHOUSE_MAX_ANSWER_BYTES``; bound the search box's work (search_box)."""
    functions.register(conn)
    search_box.register(conn)
    bounds = limits.current()
    limits.apply(conn, bounds)
    if bounds.MAX_ANSWER_BYTES:
        answer_cap.count_rows(conn, bounds.MAX_ANSWER_BYTES)


@hookimpl
def asgi_wrapper():
    """Requests for the hosts served only, with the token when one is set (boundary); CSV answers with
    formula cells neutralised (OWASP's CSV injection guidance); the memory a request's
    queries freed given back to the system after it (memory_release)."""
    return lambda app: boundary.wrap(memory_release.wrap(csv_guard.wrap(app)))


@hookimpl
def handle_exception(exception):
    """A query that ran out of SQLite's heap: a one-line 413, not a 500 page."""
    reason = answer_cap.refusal(exception)
    return None if reason is None else Response.text(reason + "\n", status=413)


@hookimpl
def canned_queries(datasette, database):
    """Every named query of the registry, for warehouse databases."""
    if not is_warehouse(datasette, database):
        return {}
    return canned.canned_queries()


@hookimpl
def get_metadata(datasette, key, database, table):
    """Table and column descriptions from the migrations, and the database's page links."""
    names = [database] if database else warehouse_names(datasette)
    described = {name: warehouse_columns(datasette, name) for name in names}
    return {"databases": {name: metadata.database_metadata(datasette, name, columns, table)
                          for name, columns in described.items() if columns is not None}}


@hookimpl
def prepare_jinja2_environment(env, datasette):
    """Find the pages' template and the table page with its rows first (a module plugin gets no
    automatic ``templates/`` folder): after the user's ``--template-dir``, before Datasette's own
    templates, whose ``table.html`` ours extends as ``default:table.html``."""
    own = [datasette.template_dir] if datasette.template_dir else []
    env.loader = ChoiceLoader([FileSystemLoader([*own, str(pages.TEMPLATES_DIR)]), env.loader])


@hookimpl
def register_routes():
    """The picture pages and their vendored static files."""
    return pages.routes()


@hookimpl
def database_actions(datasette, database):
    """The picture pages in the database page's action menu."""
    if not is_warehouse(datasette, database):
        return []
    return [{"href": pages.page_url(datasette, database, page), "label": page.title}
            for page in pages.PAGES if pages.available(page)]


@hookimpl
def render_cell(value, column, database, datasette):
    """Times, sizes and ratios shown readable (the stored value on hover), in warehouse tables
    and query results."""
    html = cells.render(column, value)
    if html is None or not is_warehouse(datasette, database):
        return None
    return html
