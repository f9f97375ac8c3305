"""Datasette metadata for a warehouse: what each table, view and column means.

The text is the migrations' comments for tables and the view files' headers for views
(``warehouse/schema_docs.py``), the one copy of the schema's documentation. Only the tables and
columns the file has are described (an older warehouse lacks newer ones). The database's own
description links the picture pages and lists the SQL functions.
"""

from __future__ import annotations

import html
from functools import lru_cache

from datasette_plugins import functions, pages
from warehouse.schema_docs import read_docs

@lru_cache(maxsize=16)
def tables_metadata(columns_by_table: tuple[tuple[str, tuple[str, ...]], ...]) -> dict[str, dict]:
    """Datasette's ``tables`` metadata for the tables and columns a warehouse has
    (``databases.warehouse_columns``). Cached: callers must not modify it."""
    docs = _docs()
    tables = {}
    for name, columns in columns_by_table:
        doc = docs.get(name)
        if doc is None:
            continue
        described = {column: doc.columns.get(column, "") for column in columns}
        tables[name] = {"description": doc.description,
                        "columns": {column: text for column, text in described.items() if text},
                        # storage behind a view (_slice under slice): listed under hidden tables
                        "hidden": name.startswith("_")}
    return tables


@lru_cache(maxsize=1)
def _docs():
    return read_docs()


def database_metadata(datasette, database: str, columns_by_table: tuple, table: str | None = None) -> dict:
    """The metadata of one warehouse database, or of just one of its tables.

    Datasette asks for metadata hundreds of times per page and merges every answer into
    the one before (modifying it), so the answer is built fresh from cached parts, and
    narrowed to the table asked about when there is one.
    """
    tables = tables_metadata(columns_by_table)
    wanted = tables if table is None else {table: tables[table]} if table in tables else {}
    return {
        "description_html": database_description_html(datasette, database),
        "tables": {name: {**meta, "columns": dict(meta["columns"])} for name, meta in wanted.items()},
    }


@lru_cache(maxsize=16)
def database_description_html(datasette, database: str) -> str:
    """Links to the picture pages, then the SQL functions with an example each."""
    links = " · ".join(
        f'<a href="{pages.page_url(datasette, database, page)}" title="{html.escape(page.description)}">'
        f"{html.escape(page.title)}</a>"
        for page in pages.PAGES if pages.available(page)
    )
    rows = "".join(
        f"<tr><td><code>{function.name}</code></td><td>{html.escape(function.doc)}</td>"
        f"<td><code>{html.escape(function.example)}</code> → <code>{html.escape(repr(function.result))}</code></td></tr>"
        for function in functions.FUNCTIONS
    )
    return (
        "<p>An Ascend profiling warehouse: times in integer nanoseconds, sizes in bytes. "
        "Every named query is listed below as a canned query.</p>"
        f'<p class="warehouse-pages"><strong>Pictures:</strong> {links or "none for this registry"}</p>'
        "<details><summary>SQL functions</summary>"
        f"<table><tr><th>function</th><th>does</th><th>example</th></tr>{rows}</table></details>"
    )
