"""A query on Spark with each CTE it reads more than once computed once.

Spark inlines a CTE wherever it is read, so a CTE read by two later CTEs that are each read
twice is computed four times, and the plan grows with the product of the reads: the diagnosis
rule ``rule_host_tiling_not_sunk`` (``calls`` read three times, ``ops`` four) ran 216 Parquet
scans in the plans Spark executed (after reusing what exchanges it could) and took 101
CPU-seconds of Spark's processes on the scale tests' warehouse; with each shared CTE computed
once, 42 scans and 29 CPU-seconds (``bench/spark_ctes.py``). SQLite and DuckDB compute such a
CTE once. Here each one is computed first, in the order of the WITH, checkpointed in
the executors' memory (``localCheckpoint``) and registered as a temporary view under a name of
its own; the later CTEs and the query read that view. The views are dropped when the query's
frame is done with, and Spark frees their blocks once nothing refers to them.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager

from sqlglot import exp

from warehouse.engines.base import generate

#: numbers the temporary views, so that no two queries' views share a name in a session
_VIEWS = itertools.count()


def shared(tree: exp.Expression) -> list[str]:
    """The names of the query's CTEs (its top-level WITH) read more than once, in the WITH's order."""
    ctes = tree.args.get("with_")
    if ctes is None:
        return []
    reads = [table.name for table in tree.find_all(exp.Table) if not table.db]
    return [cte.alias for cte in ctes.expressions if reads.count(cte.alias) > 1]


@contextmanager
def frame(spark, tree: exp.Expression, params: dict) -> Iterator:
    """The DataFrame of ``tree`` (a query translated for Spark) with ``params`` bound, each CTE of
    :func:`shared` computed once (module docstring); ``tree`` is changed."""
    names = set(shared(tree))
    views = []
    try:
        ctes = tree.args.get("with_")
        for cte in list(ctes.expressions) if names else []:
            if cte.alias not in names:
                continue
            body = cte.this.copy()
            earlier = _read_by(body, ctes.expressions[:ctes.expressions.index(cte)])
            if earlier:
                body.set("with_", exp.With(expressions=[c.copy() for c in earlier]))
            view = f"_cte{next(_VIEWS)}_{cte.alias}"
            # computed now, once; checkpointed rather than cached: a cached view's plan holds the plans
            # of the views it reads, so the plans Spark describes to its listeners grew as before
            spark.sql(generate(body, "spark"), args=params).localCheckpoint(eager=True).createTempView(view)
            views.append(view)
            cte.pop()
            for table in tree.find_all(exp.Table):
                if table.name == cte.alias and not table.db:
                    table.set("this", exp.to_identifier(view))
        if ctes is not None and not ctes.expressions:
            ctes.pop()
        yield spark.sql(generate(tree, "spark"), args=params)
    finally:
        for view in views:
            spark.catalog.dropTempView(view)


def _read_by(body: exp.Expression, ctes: list[exp.CTE]) -> list[exp.CTE]:
    """The CTEs of ``ctes`` that ``body`` reads, directly or through one another, in their order."""
    by_name = {cte.alias: cte for cte in ctes}
    read, todo = set(), [body]
    while todo:
        for table in todo.pop().find_all(exp.Table):
            if table.name in by_name and not table.db and table.name not in read:
                read.add(table.name)
                todo.append(by_name[table.name].this)
    return [cte for cte in ctes if cte.alias in read]
