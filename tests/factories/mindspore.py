"""factory-boy factories that write MindSpore's profiler intermediates byte for byte.

As MindSpore writes them (the real files of MindInsight's test resources): the step trace
``step_trace_raw_{device}_detail_time.csv`` with LF line ends, every point and length in
system counter cycles (100 MHz), one group of three columns per reduce or parallel operator and,
last, the average record (``step_num`` ``-``: the mean of the steps after the first, rounded);
``aicore_intermediate_{device}_type.csv`` and ``_detail.csv`` with CRLF line ends, times in ms.
Each factory takes ``path`` and returns a :class:`~factories.text_exports.CsvFile`.
"""

from __future__ import annotations

from decimal import Decimal

import factory

from factories.text_exports import CsvExportFactory

STEP_TRACE_HEADER = ("step_num", "start_point", "end_point", "total", "fp_point", "bp_point",
                     "iteration_interval", "fp_and_bp", "tail")
AICORE_TYPE_HEADER = ("kernel_type", "total_time", "execution_frequency", "percent")
AICORE_DETAIL_HEADER = ("full_kernel_time", "execution_time", "execution_frequency")


def plain_csv(header, rows, end: str) -> bytes:
    """The header and rows (dicts keyed by header name) joined by commas, each line ended by ``end``."""
    lines = [",".join(header), *(",".join(str(row[name]) for name in header) for row in rows)]
    return "".join(line + end for line in lines).encode("utf-8")


def group_headers(name: str, layout: str) -> tuple[str, str, str]:
    """The three columns of an operator group, in the order of the ``layout``: ``operator`` (the
    current one: duration, start, end) or ``parallel`` (the older one: start, end, duration)."""
    start, end = f"{name}_start_point", f"{name}_end_point"
    return (name, start, end) if layout == "operator" else (start, end, name)


def step_rows(first: int, phases, groups, idle=frozenset()) -> list[dict]:
    """One record per step: the step starts where the previous ended (the first at ``first``),
    ``phases`` its (iteration_interval, fp_and_bp, tail); each group ``(name, offset, duration)``
    runs ``offset`` cycles after the forward pass, but in the steps ``(name, step)`` of ``idle``,
    where it did not run (written as zeros, as MindSpore does)."""
    rows, start = [], first
    for number, (interval, fp_and_bp, tail) in enumerate(phases, 1):
        fp = start + interval
        bp = fp + fp_and_bp
        end = bp + tail
        row = {"step_num": number, "start_point": start, "end_point": end, "total": end - start, "fp_point": fp,
               "bp_point": bp, "iteration_interval": interval, "fp_and_bp": fp_and_bp, "tail": tail}
        for name, offset, duration in groups:
            ran = (name, number) not in idle
            row[f"{name}_start_point"] = fp + offset if ran else 0
            row[f"{name}_end_point"] = fp + offset + duration if ran else 0
            row[name] = duration if ran else 0
        rows.append(row)
        start = end
    return rows


def average_row(header, rows) -> dict:
    """MindSpore's average record: every column's mean over the steps after the first, rounded."""
    later = rows[1:] or rows
    average = {name: round(sum(Decimal(row[name]) for row in later) / len(later)) for name in header[1:]}
    return {"step_num": "-", **average}


class StepTraceRawFactory(CsvExportFactory):
    """A step trace of three steps with two reduce operators, the second one idle in step 3."""

    layout = "operator"
    first = 45000030081
    phases = ((0, 1702944, 2300103), (9037809, 1714377, 2300344), (9030955, 1718895, 2301458))
    groups = (("stream_48_0_AllReduce-op663", 12598, 17596), ("stream_49_1_AllReduce-op794", 1018071, 298102))
    idle = frozenset({("stream_49_1_AllReduce-op794", 3)})
    average = True
    header = factory.LazyAttribute(lambda o: STEP_TRACE_HEADER + tuple(
        column for name, _, _ in o.groups for column in group_headers(name, o.layout)))
    rows = factory.LazyAttribute(lambda o: step_rows(o.first, o.phases, o.groups, o.idle))
    data = factory.LazyAttribute(lambda o: plain_csv(
        o.header, o.rows + ([average_row(o.header, o.rows)] if o.average else []), "\n"))

    class Meta:
        exclude = ("layout", "first", "phases", "groups", "idle", "average")


class AicoreTypeFactory(CsvExportFactory):
    """The AI Core time per operator type (the real file's first rows)."""

    header = AICORE_TYPE_HEADER
    rows = factory.LazyFunction(lambda: [
        {"kernel_type": "AtomicAddrClean", "total_time": "0.007283", "execution_frequency": "6", "percent": "0.49"},
        {"kernel_type": "MatMul", "total_time": "1.085", "execution_frequency": "9", "percent": "73.80"},
    ])
    data = factory.LazyAttribute(lambda o: plain_csv(o.header, o.rows, "\r\n"))


class AicoreDetailFactory(CsvExportFactory):
    """The AI Core time per operator (the real file's rows of two scopes)."""

    header = AICORE_DETAIL_HEADER
    rows = factory.LazyFunction(lambda: [
        {"full_kernel_time": "Default/Cast-op10", "execution_time": "0.00466", "execution_frequency": "1"},
        {"full_kernel_time": "Default/network-WithLossCell/_backbone-LeNet5/fc3-Dense/MatMul-op9",
         "execution_time": "0.370864", "execution_frequency": "1"},
    ])
    data = factory.LazyAttribute(lambda o: plain_csv(o.header, o.rows, "\r\n"))
