"""factory-boy factories that write MindSpore's profiler intermediates byte for byte.

As MindSpore writes them (the real files of MindInsight's test resources): the step trace
``step_trace_raw_{device}_detail_time.csv`` with LF line ends, every point and length in
system counter cycles (100 MHz), one group of three columns per reduce or parallel operator and,
last, the average record (``step_num`` ``-``: the mean of the steps after the first, rounded);
``aicore_intermediate_{device}_type.csv`` and ``_detail.csv`` with CRLF line ends, times in ms.
The raw files likewise: ``DATA_PREPROCESS.dev.AICPU`` (NUL-ended text records), the HWTS log
(64-byte records) and the Framework files beside it (space-separated lines, LF ends); and the
intermediates MindSpore writes from them: the AI CPU table and its CSV copy (CRLF, Python's csv
module), the HWTS log's text dump and the kernel timeline (LF ends).
Each factory takes ``path`` and returns a :class:`~factories.text_exports.CsvFile` (its ``rows``
what was written, its ``data`` the bytes).
"""

from __future__ import annotations

import csv
import io
import json
import struct
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


#: three steps (the real trace's first counter and phases) with two reduce operators, the second idle in step 3
STEPS = {
    "first": 45000030081,
    "phases": ((0, 1702944, 2300103), (9037809, 1714377, 2300344), (9030955, 1718895, 2301458)),
    "groups": (("stream_48_0_AllReduce-op663", 12598, 17596), ("stream_49_1_AllReduce-op794", 1018071, 298102)),
    "idle": frozenset({("stream_49_1_AllReduce-op794", 3)}),
}


class StepTraceRawFactory(CsvExportFactory):
    """A step trace of three steps with two reduce operators, the second one idle in step 3."""

    layout = "operator"
    first = STEPS["first"]
    phases = STEPS["phases"]
    groups = STEPS["groups"]
    idle = STEPS["idle"]
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

    class Params:
        #: the older version (MindInsight's run_2): per type its operators of OLDER_OPERATORS and the sum of their
        #: mean times, as MindInsight's integrator wrote them (Decimal sums, the percent rounded to 2 places)
        older = factory.Trait(
            header=("op_type", "execution_time", "execution_frequency", "percent"),
            rows=factory.LazyFunction(lambda: [
                {"op_type": op_type, "execution_time": str(total), "execution_frequency": count,
                 "percent": str(round(total / sum(Decimal(ms) for _, _, ms in OLDER_OPERATORS) * 100, 2))}
                for op_type, total, count in older_types(OLDER_OPERATORS)]),
        )


class AicoreDetailFactory(CsvExportFactory):
    """The AI Core time per operator (the real file's rows of two scopes)."""

    header = AICORE_DETAIL_HEADER
    rows = factory.LazyFunction(lambda: [
        {"full_kernel_time": "Default/Cast-op10", "execution_time": "0.00466", "execution_frequency": "1"},
        {"full_kernel_time": "Default/network-WithLossCell/_backbone-LeNet5/fc3-Dense/MatMul-op9",
         "execution_time": "0.370864", "execution_frequency": "1"},
    ])
    data = factory.LazyAttribute(lambda o: plain_csv(o.header, o.rows, "\r\n"))

    class Params:
        #: run_1's version: the full name under full_kernel_name (the real file's two AssignAdd operators)
        kernel_name = factory.Trait(
            header=("full_kernel_name", "execution_time", "execution_frequency"),
            rows=factory.LazyFunction(lambda: [
                {"full_kernel_name": "Default/AssignAdd-op203", "execution_time": "0.00179", "execution_frequency": "3"},
                {"full_kernel_name": "Default/AssignAdd-op206", "execution_time": "0.0012833333333333334",
                 "execution_frequency": "3"}]),
        )
        #: run_2's version: output_op_compute_time's operators and times copied, no count
        older = factory.Trait(
            header=("full_op_name", "execution_time"),
            rows=factory.LazyFunction(lambda: [{"full_op_name": name, "execution_time": ms}
                                               for name, _, ms in OLDER_OPERATORS]),
        )


#: operators of MindInsight's run_2 (AlexNet): full name, type and mean time in ms as its older profiler
#: printed them (output_op_compute_time_1.txt's lines 4, 8, 108, 40 and 62; all on stream 519)
OLDER_OPERATORS = (
    ("Default/AssignAdd-op142", "AssignAdd", "0.00219"),
    ("Default/network-TrainOneStepCell/optimizer-Momentum/AssignAdd-op31", "AssignAdd", "0.00125"),
    ("Default/AssignAdd-op138", "AssignAdd", "0.00148"),
    ("Default/network-TrainOneStepCell/network-WithLossCell/_backbone-AlexNet/fc3-Dense/MatMul-op19", "MatMul",
     "9.17408"),
    ("Gradients/Default/network-TrainOneStepCell/network-WithLossCell/_backbone-AlexNet/fc3-Dense/gradMatMul/"
     "MatMul-op56", "MatMul", "4.24336"),
)
OLDER_STREAM = 519
OP_COMPUTE_TITLE = "====================op compute time===================="


def older_types(operators) -> list[tuple[str, Decimal, int]]:
    """(type, the sum of its operators' mean times, their number) per type, in order of first operator."""
    types: dict[str, list] = {}
    for _, op_type, ms in operators:
        total = types.setdefault(op_type, [Decimal(0), 0])
        total[0] += Decimal(ms)
        total[1] += 1
    return [(op_type, total, count) for op_type, (total, count) in types.items()]


def op_compute_time(operators) -> bytes:
    """output_op_compute_time as the older profiler's operator time parser wrote it: the title, the header and its
    dashes, each operator's full name, mean ms (Python's float) and stream, and the total of the means."""
    total = sum(float(ms) for _, _, ms in operators)
    lines = [OP_COMPUTE_TITLE, "op_name       compute_time(ms) stream_id", "------------  ---------------  ---------",
             *(f"{name} {float(ms)}  {OLDER_STREAM}" for name, _, ms in operators), f"total op  {total} 0"]
    return "".join(line + "\n" for line in lines).encode("utf-8")


class OpComputeTimeFactory(CsvExportFactory):
    """output_op_compute_time_{device}.txt: OLDER_OPERATORS."""

    rows = factory.LazyFunction(lambda: list(OLDER_OPERATORS))
    data = factory.LazyAttribute(lambda o: op_compute_time(o.rows))


def simple_table(header, rows) -> list[str]:
    """tabulate's simple format (its default) of ``rows`` of text cells: a column as wide as its widest cell or its
    header and two spaces, text left, numbers (and their header) right on their decimal point, dashes under the
    header, two spaces between columns, each line's trailing spaces cut."""
    columns = [list(cells) for cells in zip(*rows)]
    numeric = [all(cell.replace(".", "", 1).isdigit() for cell in cells) for cells in columns]
    columns = [decimal_aligned(cells) if number else cells for cells, number in zip(columns, numeric)]
    widths = [max(len(name) + 2, *(len(cell) for cell in cells)) for name, cells in zip(header, columns)]

    def line(cells) -> str:
        return "  ".join(cell.rjust(width) if number else cell.ljust(width)
                         for cell, width, number in zip(cells, widths, numeric)).rstrip()

    return [line(header), line(["-" * width for width in widths]), *(line(cells) for cells in zip(*columns))]


def op_compute_detail(operators, layout: str, analyses: int) -> bytes:
    """output_op_compute_time_detail as the older profiler printed its analysis ``analyses`` times into it: the title,
    the types (by time, largest first: the sum of their operators' mean ms, their number, the percent of all), a
    blank line, ``Detail:`` and the operators (in their type's order, slowest first). Layout ``tabulate`` (run_1):
    tabulate's tables, floats as ``g`` formats them, no full name; ``plain`` (run_2): one space between fields, the
    times as the type CSV writes them, the percent as Python prints a rounded float, the full name last."""
    types = sorted(older_types(operators), key=lambda item: -item[1])
    total = sum(Decimal(ms) for _, _, ms in operators)
    order = [op_type for op_type, _, _ in types]
    ranked = sorted(operators, key=lambda op: (order.index(op[1]), -Decimal(op[2])))
    figure = (lambda number: format(float(number), "g")) if layout == "tabulate" else str
    type_rows = [[op_type, figure(ms), str(count), figure(round(float(ms / total * 100), 2))]
                 for op_type, ms, count in types]
    op_rows = [[name.rsplit("/", 1)[-1], op_type, figure(ms), name.split("/", 1)[0], name]
               for name, op_type, ms in ranked]
    type_header = ["optype_name", "compute_time(ms, per-step)", "called_times(per-step)", "percent"]
    op_header = ["op_name", "op_type", "avg_execution_time", "subgraph", "full_op_name"]
    if layout == "tabulate":
        tables = (simple_table(type_header, type_rows), simple_table(op_header[:4], [row[:4] for row in op_rows]))
    else:
        tables = ([" ".join(row) for row in [type_header, *type_rows]], [" ".join(row) for row in [op_header, *op_rows]])
    block = [OP_COMPUTE_TITLE, *tables[0], "", "Detail:", *tables[1]]
    return "".join(line + "\n" for line in block * analyses).encode("utf-8")


class OpComputeDetailFactory(CsvExportFactory):
    """output_op_compute_time_detail_{device}.txt of OLDER_OPERATORS, run_1's layout and repeats by default."""

    layout = "tabulate"
    analyses = 3
    rows = factory.LazyFunction(lambda: list(OLDER_OPERATORS))
    data = factory.LazyAttribute(lambda o: op_compute_detail(o.rows, o.layout, o.analyses))

    class Meta:
        exclude = ("layout", "analyses")


def aicpu_record(task: dict) -> bytes:
    """One AI CPU task of DATA_PREPROCESS.dev.AICPU as the AI CPU writes it: its Node record (when the
    task has a ``name``; six fields when it has a ``compute_start``, the label ``Run tart`` as real
    files spell it) and its Thread record (when it has ``ticks``), each ended by a NUL."""
    data = b""
    if "name" in task:
        points = (f"Run tart:{task['run_start']}, compute start:{task['compute_start']}, "
                  f"memcpy start:{task['memcpy_start']}, memcpy end:{task['memcpy_end']},Run end:{task['run_end']}"
                  if "compute_start" in task else f"Run tart:{task['run_start']}, Run end:{task['run_end']}")
        data += f"[{task['stamp']}] Node:{task['name']}, {points}\x00".encode()
    if "ticks" in task:
        top, bottom, before, after = task["ticks"]
        data += (f"Thread[{task['thread']:2d}] process device[{task['device']}]:aicpu[{task['aicpu']:2d}] task end, "
                 f"tickDrvTopHalf={top},tickDrvBottomHalf={bottom}, tickBeforeRun={before},tickAfterRun={after}, "
                 f"dispatchTime={task['dispatch_us']} us, totalTime={task['total_us']} us.\x00").encode()
    return data


def aicpu_task(stamp, name, run, ticks, dispatch_us, total_us, **stages) -> dict:
    """A task of thread 1 on device 0's AI CPU 0 (as the real files' tasks)."""
    return {"stamp": stamp, "name": name, "run_start": run[0], "run_end": run[1], "ticks": ticks, "thread": 1,
            "device": 0, "aicpu": 0, "dispatch_us": dispatch_us, "total_us": total_us, **stages}


def job_aicpu_tasks() -> list[dict]:
    """The three tasks of MindInsight's JOB_AICPU sample (two MindSpore AI CPU kernels, one other kernel with
    its compute and memory copy stages)."""
    return [
        aicpu_task(2292299556, "InitData", (2298200409, 2298200538),
                   (38753260078, 38753261085, 38753270138, 38753416849), 100, 1567),
        aicpu_task(2302769986, "GetNext", (2302769932, 2302769980),
                   (43806728640, 43806729465, 43806737363, 43806827551), 87, 989),
        aicpu_task(2292299556, "Default/TruncatedNormal-op0", (4098200409, 4098200538),
                   (40753260078, 40753261085, 40753270138, 40753416849), 105, 1566,
                   compute_start=4098200509, memcpy_start=4098200600, memcpy_end=4098200606),
    ]


class AicpuRawFactory(CsvExportFactory):
    """DATA_PREPROCESS.dev.AICPU: the three tasks of MindInsight's JOB_AICPU sample (two MindSpore
    AI CPU kernels, one other kernel with its compute and memory copy stages)."""

    rows = factory.LazyFunction(job_aicpu_tasks)
    data = factory.LazyAttribute(lambda o: b"".join(aicpu_record(task) for task in o.rows))


#: the data transfer channel of the real TDT file
TDT_CHANNEL = "f896f8e4-a58d-11ea-84f6-fa163ec3adf9"


class TdtRawFactory(CsvExportFactory):
    """DATA_PREPROCESS.dev.TDT: ``[{stamp}] Enqueue data to dp, source:{channel}, index:{n}, size:{n}`` records,
    each ended by a NUL (the real file's first two batches, then a full queue)."""

    rows = factory.LazyFunction(lambda: [(393233413, TDT_CHANNEL, 1, 0), (393234033, TDT_CHANNEL, 2, 0),
                                         (464842601, TDT_CHANNEL, 484, 128)])
    data = factory.LazyAttribute(lambda o: b"".join(
        f"[{stamp}] Enqueue data to dp, source:{channel}, index:{index}, size:{size}\x00".encode()
        for stamp, channel, index, size in o.rows))


AICPU_TABLE_HEADER = ("serial_number", "node_type_name", "total_time(ms)", "dispatch_time(ms)", "run_start", "run_end")


def decimal_aligned(cells: list[str]) -> list[str]:
    """Numbers as tabulate aligns them on their decimal point: each padded with spaces to the most decimals."""
    decimals = max(len(cell.partition(".")[2]) for cell in cells)
    return [cell + " " * (decimals - len(cell.partition(".")[2]) + (decimals > 0 and "." not in cell))
            for cell in cells]


def aicpu_table_rows(tasks) -> list[list[str]]:
    """The AI CPU table's cells of the named ``tasks`` of :func:`aicpu_task`: serial number, operator type,
    total and dispatch time in ms, run start and end."""
    named = [task for task in tasks if "name" in task]
    return [[str(number), task["name"].split("/")[-1].split("-")[0], str(Decimal(task["total_us"]) / 1000),
             str(Decimal(task["dispatch_us"]) / 1000), str(task["run_start"]), str(task["run_end"])]
            for number, task in enumerate(named, 1)]


def aicpu_table(tasks) -> bytes:
    """MindSpore's AI CPU table (tabulate's simple format, as aicpu_data_parser.py writes it) of the named
    ``tasks`` of :func:`aicpu_task`: a column is as wide as its widest cell or its header and two spaces,
    text left, numbers right on their decimal point, and last the total row (its empty cells cut)."""
    named = [task for task in tasks if "name" in task]
    rows = aicpu_table_rows(tasks)
    total = f"{sum(Decimal(task['total_us']) for task in named) / 1000:.6f}"
    columns = [[row[at] for row in rows] for at in range(len(AICPU_TABLE_HEADER))]
    columns = columns[:2] + [decimal_aligned(cells) for cells in columns[2:]]
    extra = ["AI CPU Total Time(ms):", total]
    widths = [max(len(name) + 2, *(len(cell) for cell in cells), len(extra[at]) if at < 2 else 0)
              for at, (name, cells) in enumerate(zip(AICPU_TABLE_HEADER, columns))]

    def line(cells, numeric=True) -> str:
        return "  ".join(cell.ljust(width) if at < 2 or not numeric else cell.rjust(width)
                         for at, (cell, width) in enumerate(zip(cells, widths))).rstrip()

    lines = [line(AICPU_TABLE_HEADER), line(["-" * width for width in widths]),
             *(line(cells) for cells in zip(*columns)), line(extra + [""] * 4)]
    return "".join(text + "\n" for text in lines).encode()


class AicpuTableFactory(CsvExportFactory):
    """output_data_preprocess_aicpu_{device}.txt: MindSpore's table of AicpuRawFactory's tasks."""

    rows = factory.LazyFunction(job_aicpu_tasks)
    data = factory.LazyAttribute(lambda o: aicpu_table(o.rows))


#: the newer table's header: the execution time after the dispatch time
AICPU_TABLE_EXECUTION_HEADER = (*AICPU_TABLE_HEADER[:4], "execution_time(ms)", *AICPU_TABLE_HEADER[4:])
#: AI CPU counters (10 ns cycles) of the run points of job_aicpu_tasks, as newer Node records write them after the
#: run point (``Run start:{point} {counter}``)
JOB_AICPU_COUNTERS = ((229820040917, 229820053803), (230276993208, 230276998011), (409820040917, 409820053803))


def aicpu_execution_table(tasks, counters=JOB_AICPU_COUNTERS) -> bytes:
    """MindSpore's newer AI CPU table of the named ``tasks`` of :func:`aicpu_task` with their run ``counters``, as
    its parser computes and writes it (fwrite_format: each field's ``str`` one space apart, no dashes): the
    times in ms as Python floats (the raw file's us over 1000; the execution time the run points' difference
    over 1000), the run points the counter over 100, and the total of the total times to 6 decimals."""
    named = [task for task in tasks if "name" in task]
    rows, total = [], 0.0
    for number, (task, (start, end)) in enumerate(zip(named, counters), 1):
        total_ms = float(task["total_us"]) / 1000
        total += total_ms
        rows.append([number, task["name"].split("/")[-1].split("-")[0], total_ms, float(task["dispatch_us"]) / 1000,
                     (float(task["run_end"]) - float(task["run_start"])) / 1000, float(start) / 100, float(end) / 100])
    lines = [" ".join(AICPU_TABLE_EXECUTION_HEADER), *(" ".join(map(str, row)) for row in rows),
             f"AI CPU Total Time(ms): {total:.6f}"]
    return "".join(text + "\n" for text in lines).encode()


class AicpuExecutionTableFactory(CsvExportFactory):
    """output_data_preprocess_aicpu_{device}.txt as newer MindSpore versions write it: the table of
    AicpuRawFactory's tasks with their execution times and run counters."""

    rows = factory.LazyFunction(job_aicpu_tasks)
    data = factory.LazyAttribute(lambda o: aicpu_execution_table(o.rows))


#: aicpu_intermediate_{device}.csv's header as MindSpore's integrator wrote it before June 2021 (six columns)
AICPU_CSV_HEADER = ("serial_number", "op_type", "total_time", "dispatch_time", "run_start", "run_end")


class AicpuIntermediateFactory(CsvExportFactory):
    """aicpu_intermediate_{device}.csv: MindSpore's CSV copy of AicpuTableFactory's table (its integrator
    writes each task line's fields as they are, with Python's csv module)."""

    header = AICPU_CSV_HEADER
    rows = factory.LazyFunction(lambda: aicpu_table_rows(job_aicpu_tasks()))
    data = factory.LazyAttribute(lambda o: csv_module_bytes(o.header, o.rows))


#: an HWTS record's bytes 2-3 as the real log writes them (a field MindSpore does not read)
HWTS_RESERVED = 27603


def hwts_record(number: int, kind: int, task_id: int, stream_id: int, cycle: int) -> bytes:
    """One 64-byte HWTS task record: the record count (mod 16) and type in byte 0, core 0, block 0,
    the task id, then the system counter and the stream, zeros after."""
    head = struct.pack("<BBHHH", (number % 16) << 4 | kind, 0, HWTS_RESERVED, 0, task_id)
    return head + struct.pack("<QI", cycle, stream_id) + bytes(44)


def hwts_events(tasks) -> list[tuple[int, int, int, int, int]]:
    """(record number from 0, type, task id, stream, cycle) of every start and end record of ``tasks``
    ``(task id, stream, start cycle[, end cycle])`` (a task without its end has its start record only), in
    counter order (a start before an end of the same cycle)."""
    events = sorted((cycle, kind, task_id, stream_id) for task_id, stream_id, *cycles in tasks
                    for kind, cycle in enumerate(cycles))
    return [(number, kind, task_id, stream_id, cycle)
            for number, (cycle, kind, task_id, stream_id) in enumerate(events)]


def hwts_bytes(tasks) -> bytes:
    """The log of ``tasks`` (:func:`hwts_events`)."""
    return b"".join(hwts_record(*event) for event in hwts_events(tasks))


#: the text dump's banner and header lines (hwts_log_parser.py)
HWTS_TEXT_HEAD = ("=" * 20 + "45 HWTS data" + "=" * 20,
                  "Type           cnt  Core_ID  Block_ID  Task_ID  Cycle_counter   Stream_ID")


def hwts_text(tasks) -> bytes:
    """MindSpore's text dump of the log of ``tasks`` (:func:`hwts_events`), as its HWTS parser writes it:
    the banner and header, a line per record (type, count mod 16, core 0, block 0, task id
    ``{stream}_{task}``, counter, stream, padded to 14, 4, 8, 9, 8 and 15 characters), and the empty line
    its writer ends the rows with."""
    rows = "".join(f"{('Start of task', 'End of task')[kind]:<14} {number % 16:<4} {0:<8} {0:<9} "
                   f"{f'{stream_id}_{task_id}':<8} {cycle:<15} {stream_id}\n"
                   for number, kind, task_id, stream_id, cycle in hwts_events(tasks))
    return ("".join(line + "\n" for line in HWTS_TEXT_HEAD) + rows + "\n").encode()


#: HwtsRawFactory's tasks: (task id, stream, start cycle, end cycle)
HWTS_TASKS = ((30109, 535, 43806833578, 43806840000), (30453, 537, 43806835000, 43806836234),
              (30109, 535, 43806850000, 43806852000))


class HwtsRawFactory(CsvExportFactory):
    """The HWTS log of three tasks on two streams (two overlap): a MatMul run twice and a Cast, with
    the counters and ids of the real log's range."""

    rows = factory.LazyFunction(lambda: list(HWTS_TASKS))
    data = factory.LazyAttribute(lambda o: hwts_bytes(o.rows))


class HwtsTextFactory(HwtsRawFactory):
    """output_format_data_hwts_{device}.txt: MindSpore's text dump of HwtsRawFactory's log."""

    data = factory.LazyAttribute(lambda o: hwts_text(o.rows))


#: the framework files' factories' two tasks: (full op name, block dim, task id, stream id)
FRAMEWORK_TASKS = (
    ("Default/network-TrainStepWrap/_backbone-NetWithLossClass/MatMul-op38", 32, 30109, 19),
    ("Default/network-TrainStepWrap/_backbone-NetWithLossClass/Cast-op41", 22, 30453, 21),
)
#: the two operators of the framework files' factories, as graph_line's arguments
GRAPH_OPERATORS = (
    ("Default/network-TrainStepWrap/_backbone-NetWithLossClass/MatMul-op38", "MatMul",
     [("DefaultFormat", 40, "16000,39"), ("DefaultFormat", 40, "39,1")], [("DefaultFormat", 40, "16000,1")]),
    ("Default/network-TrainStepWrap/_backbone-NetWithLossClass/Cast-op41", "Cast",
     [("DefaultFormat", 40, "16000,1")], [("DefaultFormat", 39, "16000,1")]),
)


#: MindInsight's JOB1 (and container/0/data's JOB2-named) task file, whole: the ResNet's first four tasks
RESNET_TASKS = (
    ("Default/Cast-op6", 32, 51517, 0), ("Default/TransData-op7", 32, 51518, 0),
    ("Default/network-WithLossCell/_backbone-ResNet/conv1-Conv2d/Cast-op5", 32, 51519, 0),
    ("Default/network-WithLossCell/_backbone-ResNet/layer1-SequentialCell/0-ResidualBlock/conv1-Conv2d/Cast-op28", 4,
     51522, 0),
)
#: the same job's graph file, whole, as graph_line's arguments (vm data types 40 FLOAT32, 39 FLOAT16)
RESNET_OPERATORS = (
    ("Default/Cast-op6", "Cast", [("DefaultFormat", 40, "32,3,224,224")], [("DefaultFormat", 39, "32,3,224,224")]),
    ("Default/TransData-op7", "TransData", [("DefaultFormat", 39, "32,3,224,224")],
     [("NC1HWC0", 39, "32,1,224,224,16")]),
    (RESNET_TASKS[2][0], "Cast", [("FracZ", 40, "49,4,16,16")], [("FracZ", 39, "49,4,16,16")]),
    (RESNET_TASKS[3][0], "Cast", [("FracZ", 40, "4,4,16,16")], [("FracZ", 39, "4,4,16,16")]),
)

class TaskDescFactory(CsvExportFactory):
    """Framework.host.vm.task_desc_info: ``{full op name} {block dim} {task id} {stream id}`` lines."""

    rows = factory.LazyFunction(lambda: list(FRAMEWORK_TASKS))
    data = factory.LazyAttribute(lambda o: "".join(" ".join(map(str, row)) + "\n" for row in o.rows).encode())


def graph_line(name: str, op_type: str, inputs, outputs) -> str:
    """A graph_desc_info line: each tensor ``(format, data type number, shape)`` of the inputs, then outputs."""
    fields = [f"op_name:{name}", f"op_type:{op_type}"]
    for side, tensors in (("input", inputs), ("output", outputs)):
        for number, (layout, data_type, shape) in enumerate(tensors):
            fields += [f"{side}_id:{number}", f"{side}_format:{layout}", f"{side}_data_type:{data_type}",
                       f'{side}_shape:"{shape}"']
    return " ".join(fields)


class GraphDescFactory(CsvExportFactory):
    """Framework.host.vm.graph_desc_info: the two operators' types and tensors (vm data type numbers:
    40 FLOAT32, 39 FLOAT16)."""

    rows = factory.LazyFunction(lambda: [graph_line(*operator) for operator in GRAPH_OPERATORS])
    data = factory.LazyAttribute(lambda o: "".join(line + "\n" for line in o.rows).encode())


class PointFactory(CsvExportFactory):
    """Framework.host.vm.point: ``{tag} {full op name}`` lines, the forward pass's start and the
    backward pass's end (the real file's first two), then a reduce operator's start and end."""

    rows = factory.LazyFunction(lambda: [
        (1, "Default/Cast-op6"), (2, "Default/TransData-op7"),
        (3, "Default/network-VirtualDatasetCellTriple/_backbone-NetWithLossClass/network-WideDeepModel/AllGather-op136"),
        (4, "Default/network-VirtualDatasetCellTriple/_backbone-NetWithLossClass/network-WideDeepModel/AllGather-op136"),
    ])
    data = factory.LazyAttribute(lambda o: "".join(f"{tag} {name}\n" for tag, name in o.rows).encode())


#: framework_raw's header as MindInsight's era writes it (later MindSpore: full_op_name, op_name, op_type)
FRAMEWORK_RAW_HEADER = ("task_id", "stream_id", "block_dim", "full_kernel_name", "op_name", "kernel_name",
                        "kernel_type", "subgraph", "op_info")
#: the vm data type numbers of GraphDescFactory by MindSpore's names in framework_raw
RAW_TYPES = {40: "NUMBER_TYPE_FLOAT32", 39: "NUMBER_TYPE_FLOAT16"}


def framework_raw_row(task: tuple, operator: tuple) -> list:
    """A framework_raw record of a task ``(name, block dim, task id, stream id)`` of TaskDescFactory and its
    operator ``(name, type, inputs, outputs)`` of :func:`graph_line`'s arguments, as MindSpore writes it."""
    name, block_dim, task_id, stream_id = task
    info = {f"{side}_{number}": {"format": layout, "data_type": RAW_TYPES[data_type], "shape": shape}
            for side, tensors in (("input", operator[2]), ("output", operator[3]))
            for number, (layout, data_type, shape) in enumerate(tensors)}
    subgraph = name.split("/", 1)[0]
    return [task_id, stream_id, block_dim, name, name, name.rsplit("/", 1)[-1], operator[1],
            subgraph if subgraph in ("Default", "Gradients") else "", json.dumps(info)]


def csv_module_bytes(header, rows) -> bytes:
    """The header and rows as Python's csv module writes them (MindSpore's writer): CRLF ends, quotes where needed."""
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow(header)
    writer.writerows(rows)
    return text.getvalue().encode()


class FrameworkRawFactory(CsvExportFactory):
    """framework_raw_{device}.csv: MindSpore's table of TaskDescFactory's tasks with GraphDescFactory's operators."""

    header = FRAMEWORK_RAW_HEADER
    rows = factory.LazyFunction(lambda: [framework_raw_row(task, operator) for task, operator in zip(
        FRAMEWORK_TASKS, GRAPH_OPERATORS)])
    data = factory.LazyAttribute(lambda o: csv_module_bytes(o.header, o.rows))


def hwts_job(folder, device: int = 0) -> dict:
    """A job folder of one device as MindSpore's profiler leaves it: the HWTS log and the framework's
    task and graph files beside it; the written files by kind."""
    return {
        "hwts": HwtsRawFactory(path=folder / f"hwts.log.data.45.dev.profiler_default_tag.{device}.slice_0"),
        "task": TaskDescFactory(path=folder / f"Framework.host.vm.task_desc_info.{device}.slice_0"),
        "graph": GraphDescFactory(path=folder / f"Framework.host.vm.graph_desc_info.{device}.slice_0"),
    }


TIMELINE_HEADER = "op_name, stream_id, start_time(ms), duration(ms)"


def timeline_data(rows) -> bytes:
    """MindSpore's kernel timeline of ``rows`` ``(full op name, stream, start cycle, duration in cycles)`` as its
    operator time parser writes it: the header, then the rows sorted by start (ties in the given order), each
    count of cycles / 1e5 (ms) as Python prints the float, LF ends."""
    ordered = sorted(rows, key=lambda row: row[2] / 1e5)
    lines = [TIMELINE_HEADER, *(f"{name},{stream_id},{start / 1e5},{duration / 1e5}"
                                for name, stream_id, start, duration in ordered)]
    return "".join(line + "\n" for line in lines).encode()


def framework_timeline(tasks, framework_tasks=FRAMEWORK_TASKS) -> list[tuple]:
    """The timeline rows of the HWTS ``tasks`` (:func:`hwts_events`, each with its end) that the framework's
    task lines name (by task id alone: these ids are above MindSpore's threshold)."""
    names = {task_id: name for name, _block_dim, task_id, _stream_id in framework_tasks}
    return [(names[task_id], stream_id, start, end - start) for task_id, stream_id, start, end in tasks
            if task_id in names]


class TimelineDataFactory(CsvExportFactory):
    """output_timeline_data_{device}.txt: MindSpore's kernel timeline of the tasks of HwtsRawFactory's log that
    TaskDescFactory's lines name (every one, the MatMul overlapped by the Cast too)."""

    rows = factory.LazyFunction(lambda: framework_timeline(HWTS_TASKS))
    data = factory.LazyAttribute(lambda o: timeline_data(o.rows))


def timeline_display(rows, get_next=((-5000, 16000),)) -> bytes:
    """ascend_timeline_display_{device}.json as MindSpore's timeline generator writes it: the data pipeline's
    GetNext records (``get_next``: (start from the first kernel's, duration) in counter cycles, pid 9000, thread
    "0") and each kernel of ``rows`` (:func:`framework_timeline`'s (full name, stream, start, duration cycles))
    as a complete event of pid 1 on its stream's thread, its ``args`` the operator's type and full name; times
    in us from the earliest event, one JSON object per event joined by commas (MindInsight's run_2 display's
    bytes)."""
    kernels_start = min(start for _name, _stream, start, _dur in rows)
    get_next = [(kernels_start + offset, dur) for offset, dur in get_next]
    first = min([kernels_start] + [start for start, _dur in get_next])
    events = [{"name": "GetNext", "ph": "X", "tid": "0", "ts": (start - first) / 100, "dur": dur / 100, "pid": 9000}
              for start, dur in get_next]
    events += [{"name": name.rsplit("/", 1)[-1], "ph": "X", "tid": str(stream), "ts": (start - first) / 100,
                "dur": dur / 100, "pid": 1, "args": {"type": name.rsplit("/", 1)[-1].split("-")[0], "fullname": name}}
               for name, stream, start, dur in rows]
    return ("[" + ",".join(json.dumps(event) for event in events) + "]").encode()


class TimelineDisplayFactory(CsvExportFactory):
    """ascend_timeline_display_{device}.json: MindSpore's timeline of :class:`TimelineDataFactory`'s kernels."""

    rows = factory.LazyFunction(lambda: framework_timeline(HWTS_TASKS))
    data = factory.LazyAttribute(lambda o: timeline_display(o.rows))


#: a training trace's tags: a step's start (the job id), forward pass, backward end, step end
JOB_TAG, FP_TAG, BP_TAG, END_TAG = 10010, 1, 2, 255


def trace_record(tag: int, task_id: int, stream_id: int, cycle: int) -> bytes:
    """One 20-byte training trace record."""
    return struct.pack("<QHHQ", tag, task_id, stream_id, cycle)


def trace_steps(rows) -> bytes:
    """The records of the steps ``rows`` of :func:`step_rows`: the job tag at the step's start (the first
    step's at its forward pass), its forward pass, each reduce operator's two points (tags 3 and 4 on
    its stream ``stream_{s}_...``), its backward end and its end."""
    data = b""
    for row in rows:
        data += trace_record(JOB_TAG, 30097, 519, row["start_point"])
        data += trace_record(FP_TAG, 30098, 519, row["fp_point"])
        for name in sorted(key.removesuffix("_start_point") for key in row if key.startswith("stream_")
                           and key.endswith("_start_point")):
            stream = int(name.split("_")[1])
            if row[name]:
                data += trace_record(3, 30112, stream, row[f"{name}_start_point"])
                data += trace_record(4, 30278, stream, row[f"{name}_end_point"])
        data += trace_record(BP_TAG, 31043, 530, row["bp_point"]) + trace_record(END_TAG, 31100, 530, row["end_point"])
    return data


class TrainingTraceFactory(CsvExportFactory):
    """training_trace.46: the steps of :class:`StepTraceRawFactory` (the same points), as the device writes them."""

    rows = factory.LazyFunction(lambda: step_rows(STEPS["first"], STEPS["phases"], STEPS["groups"], STEPS["idle"]))
    data = factory.LazyAttribute(lambda o: trace_steps(o.rows))
