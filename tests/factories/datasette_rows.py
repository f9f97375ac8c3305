"""A small four-rank profile written straight into a migrated warehouse, for the
Datasette plugin's tests and its pages in headless Chromium.

Every picture page has something to draw, with facts a test can check:

- steps: ranks 0-3, two steps each; rank 2 is the slow rank (18 ms against 10 ms);
- timeline: process 4242 of rank 0; its thread 4243 (thread_id 1) with nested slices
  (``ProfilerStep#1`` > ``aten::linear`` > ``aten::matmul``, and ``aten::relu``), its
  thread 4244 with ``aten::copy_``;
- memory: allocated/reserved samples per rank, rank 1 with the highest peak (3 GiB);
- operator profile: one operator ``MatMulV2`` with a source file, per-line cycles (line 3
  the hottest) and two roofline charts (Memory Unit with two roofs, Pipe with one).

Times are Unix-epoch nanoseconds as in real profiles (larger than 2**53, as the pages
must cope with).
"""

from __future__ import annotations

from factories import warehouse_rows as rows

EPOCH_NS = 1_700_000_000_000_000_000
MS = 1_000_000
GIB = 1 << 30
RANKS = (0, 1, 2, 3)
SLOW_RANK = 2
STEP_MS = {0: 10, 1: 10, 2: 18, 3: 10}
PEAK_RANK = 1
SOURCE_TEXT = "\n".join((
    "__aicore__ void matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c) {",
    "    LocalTensor<half> x = queue.AllocTensor<half>();",
    "    Mmad(x, a, b, params);",
    "    DataCopy(c, x, len);",
    "}",
))
HOT_LINE = 3


def write_profile(conn) -> None:
    """Write the profile into ``conn`` (a migrated warehouse) and commit."""
    with rows.bound(conn):
        sources = {rank: rows.SourceFactory(kind="rank_db", rank_id=rank, device_id=rank).id for rank in RANKS}
        for rank in RANKS:
            _steps(rank, sources[rank])
            _memory(rank, sources[rank])
        _timeline(sources[0])
        _operator(rows.SourceFactory(kind="op_profile", card="MatMulV2").id)
    conn.commit()


def _steps(rank: int, source_id: int) -> None:
    """Two steps; in each, compute runs the first 60 % and communication 50-70 % (the step's device
    activity: 70 % of the host step, 10 % of it communication not overlapped)."""
    start = EPOCH_NS
    for step_id in (1, 2):
        duration = STEP_MS[rank] * MS
        rows.StepFactory(rank_id=rank, step_id=step_id, start_ns=start, end_ns=start + duration, source_id=source_id)
        rows.KernelFactory(rank_id=rank, device_id=rank, step_id=step_id, ts=start, dur=duration * 6 // 10,
                           name="MatMulV2", op_class="aic", source_id=source_id)
        rows.KernelFactory(rank_id=rank, device_id=rank, step_id=step_id, ts=start + duration // 2,
                           dur=duration // 5, name="hcom_allReduce", op_type="hcom_allReduce_",
                           task_type="COMMUNICATION", op_class="communication", source_id=source_id)
        start += 20 * MS


def _memory(rank: int, source_id: int) -> None:
    """Allocated memory rises to the rank's peak at 3 ms (plus 0.2 ms per rank) and falls back."""
    peak = (3 if rank == PEAK_RANK else 2) * GIB
    for index, allocated in enumerate((GIB, peak // 2, peak, peak // 2, GIB)):
        rows.MemoryRecordFactory(rank_id=rank, device_id=rank, ts=EPOCH_NS + index * 1_500_000 + rank * 200_000,
                                 total_allocated_bytes=allocated, total_reserved_bytes=peak + GIB // 2,
                                 total_active_bytes=allocated, source_id=source_id)


def _timeline(source_id: int) -> None:
    process = rows.ProcessFactory(rank_id=0, pid="4242", name="python", source_id=source_id)
    main = rows.ThreadFactory(process=process, tid="4243", name="main")
    worker = rows.ThreadFactory(process=process, tid="4244", name="worker")

    def add(thread, name, ts_ms, dur_ms, depth, parent=None):
        return rows.SliceFactory(thread_id=thread.id, ts=EPOCH_NS + int(ts_ms * MS), dur=int(dur_ms * MS),
                                 name=name, category="cpu_op", depth=depth,
                                 parent_id=parent.id if parent else None, source_id=source_id)

    step = add(main, "ProfilerStep#1", 0, 10, 0)
    linear = add(main, "aten::linear", 0.5, 6, 1, step)
    add(main, "aten::matmul", 1, 4, 2, linear)
    add(main, "aten::relu", 7, 2, 1, step)
    add(worker, "aten::copy_", 2, 1, 0)


def _operator(source_id: int) -> None:
    path = "/home/op/matmul_kernel.cpp"
    rows.insert("op_run", {"source_id": source_id, "block_offset": 0, "name": "MatMulV2", "soc": "Ascend910B4",
                           "op_type": "mix", "block_dim": 20, "mix_block_dim": 40, "duration_us": 42.5,
                           "device_id": 0, "pid": "4242"})
    rows.insert("code_file", {"source_id": source_id, "block_offset": 100, "path": path, "content": SOURCE_TEXT})
    for line, cycles in ((2, 1200), (HOT_LINE, 9800), (4, 2500)):
        for core_index, core in enumerate(("core0.cubecore0", "core0.veccore0")):
            rows.insert("code_line", {"source_id": source_id, "block_offset": 5000, "source_row": line,
                                      "file_index": 0, "file": path, "line": line, "core": core,
                                      "core_index": core_index, "cycles": cycles, "instructions_executed": cycles // 4,
                                      "address_range": '[["0x100","0x140"]]'})
    roofs = (  # chart, title, roof, bandwidth, compute roof, the operator's point
        (0, "Memory Unit", "GM", 1.6, "Cube FP16", 300.0, 40.0, 55.0),
        (0, "Memory Unit", "L2", 5.2, "Cube FP16", 300.0, 40.0, 55.0),
        (1, "Pipe", "UB", 20.0, "Vector FP32", 25.0, 0.5, 8.0),
    )
    for index, (chart, title, bw_name, bw, computility_name, computility, x, y) in enumerate(roofs):
        rows.insert("roofline", {"source_id": source_id, "block_offset": 9000, "chart_index": chart,
                                 "title": title, "line_index": index, "bw": bw, "bw_name": bw_name,
                                 "computility": computility, "computility_name": computility_name,
                                 "point_x": x, "point_y": y})
