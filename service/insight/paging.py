"""A table page of MindStudio Insight's frontend: rows in the order a column header asks, then one page.

The frontend's tables send ``orderBy`` (a column's key), ``order`` ("ascend" or "descend") and the
page asked (``current``, or ``currentPage`` in the Communication module) with ``pageSize``; the
real server sorts and pages in its SQL (``ORDER BY ... LIMIT ?, ?``). Here a named query's rows are
sorted and cut the same way, a value the input does not give sorting before any other.
"""

from __future__ import annotations

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
