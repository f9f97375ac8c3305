"""Step numbers and the time columns of the step trace exports (step_trace_time.csv and its cluster twin).

All times are us in the files, ns in ``step_trace_time``.
"""

from __future__ import annotations

import re

from warehouse.sources.kit.numbers import whole
from warehouse.sources.kit.text import Column, text, us_to_ns

#: the step number at the end of a step key or cell (``step50``, ``50``)
STEP = re.compile(r"(\d+)$")


def step_number(value) -> int | None:
    """The step number of ``50`` or ``step50`` (None when missing).

    :raises ValueError: when the cell has no step number or one past 64-bit integers.
    """
    cleaned = text(value)
    if cleaned is None:
        return None
    match = STEP.search(cleaned)
    if match is None:
        raise ValueError(f"not a step number: {cleaned!r}")
    return whole(match[1])


#: The time columns both step trace exports share.
TIME_COLUMNS = (
    Column("step_id", ("Step",), step_number),
    Column("computing_ns", ("Computing",), us_to_ns),
    Column("communication_not_overlapped_ns", ("Communication(Not Overlapped)",), us_to_ns),
    Column("overlapped_ns", ("Overlapped",), us_to_ns),
    Column("communication_ns", ("Communication",), us_to_ns),
    Column("free_ns", ("Free",), us_to_ns),
    Column("stage_ns", ("Stage",), us_to_ns),
    Column("bubble_ns", ("Bubble",), us_to_ns),
    Column("communication_not_overlapped_exclude_receive_ns",
           ("Communication(Not Overlapped and Exclude Receive)",), us_to_ns),
    Column("preparing_ns", ("Preparing",), us_to_ns),
)
#: The headers both step trace exports require.
REQUIRED = frozenset({"Step", "Computing", "Communication(Not Overlapped)", "Free"})
