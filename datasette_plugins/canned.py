"""Every named query of the registry as a Datasette canned query.

The registry (``warehouse/queries.py``) is the one source of truth: title, description,
parameters and SQL come from the query file, nothing is copied into a metadata file.

Datasette binds every parameter as text, and an empty form field as ``''``. The registry
converts values to their declared types before binding (a text ``:start`` compared with
``ts + dur`` silently matches nothing, reference/STACK.md §1), so the canned SQL does the
same in SQL: each placeholder becomes an expression that casts the text to the declared
type and falls back to the declared default, e.g. ``:limit`` (integer, default 20) becomes
``coalesce(cast(nullif(:limit, '') as integer), 20)``. The rest of the text is left as the
author wrote it, comments and layout included.
"""

from __future__ import annotations

import html
from functools import lru_cache

from sqlglot.dialects.sqlite import SQLite
from sqlglot.tokens import TokenType

from warehouse import queries

TRUE_WORDS = "'1', 'true', 'yes', 'on'"
FALSE_WORDS = "'0', 'false', 'no', 'off'"


def canned_queries() -> dict[str, dict]:
    """Datasette's ``queries`` configuration for every query of the registry, by name.

    Datasette asks for it many times per page and adds keys to what it gets: each call
    returns fresh dicts built from the cached translation.
    """
    return {name: dict(query) for name, query in _translated().items()}


@lru_cache(maxsize=1)
def _translated() -> dict[str, dict]:
    return {name: canned_query(query) for name, query in queries.catalog().items()}


def canned_query(query: queries.Query) -> dict:
    """One query as a canned query: typed SQL, title, documented parameters. Its page shows the
    rows first: the SQL is hidden behind Datasette's "show" link (``hide_sql``)."""
    return {
        "sql": typed_sql(query),
        "title": query.title,
        "description_html": description_html(query),
        "params": [param.name for param in query.params],
        "hide_sql": True,
    }


def typed_sql(query: queries.Query) -> str:
    """The query's SQL with every placeholder converted from text to its declared type."""
    params = {param.name: param for param in query.params}
    tokens = SQLite().tokenize(query.sql)
    pieces, position = [], 0
    for colon, name in zip(tokens, tokens[1:]):
        # A placeholder is a colon glued to the name that follows it (``:limit``);
        # colons inside strings and comments are not tokens at all.
        if colon.token_type != TokenType.COLON or name.start != colon.end + 1 or name.text not in params:
            continue
        pieces.append(query.sql[position:colon.start])
        pieces.append(_typed_placeholder(params[name.text]))
        position = name.end + 1
    pieces.append(query.sql[position:])
    return "".join(pieces)


def _typed_placeholder(param: queries.Param) -> str:
    raw = f"nullif(:{param.name}, '')"
    if param.type == "integer":
        value = f"cast({raw} as integer)"
    elif param.type == "real":
        value = f"cast({raw} as real)"
    elif param.type == "boolean":
        value = (f"case when lower({raw}) in ({TRUE_WORDS}) then 1 "
                 f"when lower({raw}) in ({FALSE_WORDS}) then 0 end")
    else:
        value = raw
    if param.default is None:
        return value
    return f"coalesce({value}, {_literal(param.default)})"


def _literal(value) -> str:
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return repr(value)


def description_html(query: queries.Query) -> str:
    """The description, each parameter (type, default or required, meaning) and each column, the
    columns folded into one closed <details> so that the rows come first."""
    items = []
    for param in query.params:
        if param.required:
            rule = "required"
        elif param.default is None:
            rule = "optional"
        else:
            rule = f"default {param.default}"
        items.append(f"<li><code>{html.escape(param.name)}</code> ({param.type}, {html.escape(rule)}): "
                     f"{html.escape(param.meaning)}</li>")
    text = f"<p>{html.escape(query.description)}</p>"
    if items:
        text += "<p>Parameters:</p><ul>" + "".join(items) + "</ul>"
    columns = "".join(f"<li><code>{html.escape(c.name)}</code>: {html.escape(c.meaning)}</li>" for c in query.columns)
    count = len(query.columns)
    return (text + f'<details class="column-descriptions-fold"><summary>What the {count} column{"s" if count != 1 else ""} '
            f"mean</summary><ul>{columns}</ul></details>")
