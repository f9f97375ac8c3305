"""A table page of MindStudio Insight's frontend: rows in the order a column header asks, then one page
(and the column filters a table sends).

The frontend's tables send ``orderBy`` (a column's key), ``order`` ("ascend" or "descend") and the
page asked (``current``, or ``currentPage`` in the Communication module) with ``pageSize``; the
real server sorts and pages in its SQL (``ORDER BY ... LIMIT ?, ?``). Here a named query's rows are
sorted and cut the same way, a value the input does not give sorting before any other.
"""

from __future__ import annotations

import json

from service.insight.protocol import InsightError, Params

#: a value the input does not give: sorted before any other
_MISSING = (0, "")


def ordered(items: list[dict], params: Params, columns: dict[str, str], default: str | None = None) -> list[dict]:
    """The items in ``orderBy``'s order (``order`` "ascend", else descending); without ``orderBy`` in
    ``default``'s order (descending), else as they are. ``columns`` maps a header key to an item key."""
    order_by, order = params.text("orderBy", required=False) or default, params.text("order", required=False)
    if not order_by or not (order or default):
        return items
    if order_by not in columns:
        raise InsightError(f"orderBy must be one of {', '.join(columns)}, not {order_by!r}")
    key = columns[order_by]

    def value(item: dict) -> tuple:
        found = item[key]
        return _MISSING if found is None else (1, found)

    return sorted(items, key=value, reverse=order != "ascend")


def asked(params: Params, current: str = "current") -> tuple[int, int]:
    """(the page ``params[current]``, from 1; ``pageSize``, 10 when not asked)."""
    number = params.integer(current, required=False) or 1
    page_size = params.integer("pageSize", required=False) or 10
    if number < 1 or page_size < 1:
        raise InsightError(f"{current} and pageSize must be at least 1, not {number} and {page_size}")
    return number, page_size


def page(items: list, params: Params, current: str = "current") -> list:
    """The page ``params[current]`` (from 1) of ``pageSize`` items (10 when not asked)."""
    number, page_size = asked(params, current)
    return items[(number - 1) * page_size:number * page_size]


def filters(params: Params, name: str, allowed) -> list[tuple[str, str]]:
    """The column filters ``params[name]``: JSON texts ``{"columnName", "value"}`` (the Operator page's
    ``filters``, DetailTable.tsx setFilterTypes; the Timeline's ``filterCondition``, OperatorDetailView.tsx),
    as (column, value); empty values ignored, a column not in ``allowed`` refused."""
    given = params.values.get(name) or []
    if not isinstance(given, list):
        raise InsightError(f"parameter {name}: expected a list of JSON texts, got {given!r}")
    found = []
    for text in given:
        try:
            filter_ = json.loads(text) if isinstance(text, str) else None
        except ValueError:
            filter_ = None
        if not isinstance(filter_, dict) or filter_.get("columnName") not in allowed:
            raise InsightError(f"parameter {name}: {text!r} is not a filter of {', '.join(allowed)}")
        if filter_.get("value") not in (None, ""):
            found.append((filter_["columnName"], str(filter_["value"])))
    return found


def kept(items: list[dict], filters: list[tuple[str, str]], columns: dict[str, str]) -> list[dict]:
    """The items whose every filtered column holds its value, ignoring case (the real server's LIKE '%v%');
    ``columns`` maps a filter's column to an item key."""
    return [item for item in items
            if all(value.lower() in str(item[columns[column]] or "").lower() for column, value in filters)]
