"""factory-boy factories that INSERT rows straight into a migrated warehouse.

The named-query tests need a few exact rows per table, not whole input files: each
factory here writes one row of one table (columns as the migrations name them) and
returns it as a dict with its ``id``. Bind a connection first::

    with warehouse_rows.bound(conn):
        thread = ThreadFactory(name="python")
        SliceFactory(thread_id=thread["id"], ts=100, dur=50, name="aten::add")

``SliceFactory`` takes ``name``/``category`` as text and interns them into ``string``
the way the sources do, and keeps ``thread.max_dur`` up to date (timeline windows rely on it).
"""

from __future__ import annotations

import contextlib
import sqlite3

import factory

_CONN: list[sqlite3.Connection] = []


@contextlib.contextmanager
def bound(conn: sqlite3.Connection):
    """Make the factories write into ``conn`` for the duration of the block."""
    _CONN.append(conn)
    try:
        yield conn
    finally:
        _CONN.pop()


def _conn() -> sqlite3.Connection:
    if not _CONN:
        raise RuntimeError("bind a warehouse first: with warehouse_rows.bound(conn): ...")
    return _CONN[-1]


class Row(dict):
    """A written row: a dict whose columns also read as attributes (for SubFactory/SelfAttribute)."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


class Table:
    """A factory's model: the name of the table its rows go to."""

    def __init__(self, name: str):
        self.name = name

    def __call__(self, **values):
        return values


def insert(table: str, row: dict) -> int:
    """INSERT ``row`` into ``table``; return its rowid."""
    columns = ", ".join(row)
    marks = ", ".join(f":{c}" for c in row)
    return _conn().execute(f"INSERT INTO {table} ({columns}) VALUES ({marks})", row).lastrowid


def intern(text: str | None) -> int | None:
    """The ``string.id`` of ``text``, added if new."""
    if text is None:
        return None
    conn = _conn()
    conn.execute("INSERT OR IGNORE INTO string (value) VALUES (?)", (text,))
    return conn.execute("SELECT id FROM string WHERE value = ?", (text,)).fetchone()[0]


class RowFactory(factory.Factory):
    """Base: ``create`` inserts the row into ``Meta.model.name`` and returns it with its id."""

    class Meta:
        abstract = True

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        row = model_class(**kwargs)
        rowid = insert(model_class.name, row)
        return Row(id=rowid, **row)

    @classmethod
    def _build(cls, model_class, *args, **kwargs):
        return model_class(**kwargs)


def run_id(name: str = "run") -> int:
    """The id of the run called ``name`` (root /runs/<name>), added if new."""
    conn = _conn()
    conn.execute("INSERT OR IGNORE INTO run (name, root, created_at) VALUES (?, ?, '2026-11-22T00:00:00+00:00')",
                 (name, f"/runs/{name}"))
    return conn.execute("SELECT run_id FROM run WHERE name = ?", (name,)).fetchone()[0]


class SourceFactory(RowFactory):
    class Meta:
        model = Table("source")

    run_id = factory.LazyFunction(run_id)
    path = factory.Sequence(lambda n: f"/runs/input_{n}.json")
    kind = "trace_json"
    sha256 = factory.Sequence(lambda n: f"{n:064x}")
    size_bytes = 1000
    rank_id = None
    status = "ok"
    error = None
    row_count = 0
    ingested_at = "2026-11-22T00:00:00+00:00"


def _source_id():
    return factory.LazyFunction(lambda: SourceFactory()["id"])


class RunMetadataFactory(RowFactory):
    """A fact about the run as an input states it (META_DATA, profiler_metadata.json): value is
    the text the input holds, JSON for a structured value."""

    class Meta:
        model = Table("run_metadata")

    source_id = _source_id()
    rank_id = None
    name = "distributed_args"
    value = "{}"


def rank_source(rank_id: int | None, run: str = "run", kind: str = "rank_db") -> int:
    """The one input of ``kind`` of a rank of a run (added if new): the rows a factory writes for a
    rank belong to it, so that the rank's answers read them (see fact_precedence)."""
    conn = _conn()
    found = conn.execute("SELECT id FROM source WHERE run_id = ? AND rank_id IS ? AND kind = ? ORDER BY id LIMIT 1",
                         (run_id(run), rank_id, kind)).fetchone()
    if found:
        return found[0]
    return SourceFactory(rank_id=rank_id, kind=kind, run_id=run_id(run), path=f"/runs/{run}/rank{rank_id}/{kind}")["id"]


def _rank_source_id():
    return factory.LazyAttribute(lambda o: rank_source(o.rank_id))


class RankFactory(RowFactory):
    """A rank: the input that says so (rank is a view over the inputs). With ``source_id``, that
    input is the one saying it (its rank, device and host are set); else a profiler_info input is added."""

    class Meta:
        model = Table("source")

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        source_id = kwargs.pop("source_id", None)
        if source_id is None:
            return super()._create(model_class, **kwargs)
        _conn().execute("UPDATE source SET rank_id = ?, device_id = ?, host_name = ? WHERE id = ?",
                        (kwargs["rank_id"], kwargs["device_id"], kwargs["host_name"], source_id))
        return Row(id=source_id, **kwargs)

    rank_id = factory.Sequence(int)
    device_id = factory.SelfAttribute("rank_id")
    host_name = "node0"
    run_id = factory.LazyFunction(run_id)
    path = factory.Sequence(lambda n: f"/runs/run/rank_{n}/profiler_info.json")
    kind = "profiler_info_json"
    sha256 = factory.Sequence(lambda n: f"r{n:063x}")
    size_bytes = 100
    status = "ok"
    ingested_at = "2026-11-22T00:00:00+00:00"


class ProcessFactory(RowFactory):
    class Meta:
        model = Table("process")

    source_id = _source_id()
    rank_id = 0
    pid = factory.Sequence(lambda n: str(1000 + n))
    name = "python"
    labels = None
    sort_index = None


class ThreadFactory(RowFactory):
    class Meta:
        model = Table("thread")
        exclude = ("process",)

    process = factory.SubFactory(ProcessFactory)
    process_id = factory.SelfAttribute("process.id")
    source_id = factory.SelfAttribute("process.source_id")
    tid = factory.Sequence(lambda n: str(2000 + n))
    name = "main"
    sort_index = None
    max_dur = 0


class SliceFactory(RowFactory):
    """One slice: text name/category interned; the thread's max_dur raised to cover it."""

    class Meta:
        model = Table("_slice")

    thread_id = factory.LazyFunction(lambda: ThreadFactory()["id"])
    ts = factory.Sequence(lambda n: 1_000 * n)
    dur = 100
    name = "op"
    category = "cpu_op"
    depth = 0
    parent_id = None
    args = None
    source_id = factory.LazyAttribute(
        lambda o: _conn().execute("SELECT source_id FROM thread WHERE id = ?", (o.thread_id,)).fetchone()[0]
    )
    source_row = None

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        kwargs["name_id"] = intern(kwargs.pop("name"))
        kwargs["category_id"] = intern(kwargs.pop("category"))
        row = super()._create(model_class, **kwargs)
        _conn().execute("UPDATE thread SET max_dur = CASE WHEN max_dur < ? THEN ? ELSE max_dur END WHERE id = ?",
                        (row["dur"], row["dur"], row["thread_id"]))
        return row


class FlowFactory(RowFactory):
    class Meta:
        model = Table("flow")

    source_id = _source_id()
    slice_out = None
    slice_in = None
    name = "fwdbwd"
    category = "async"
    flow_key = factory.Sequence(str)


class CounterTrackFactory(RowFactory):
    class Meta:
        model = Table("counter_track")

    source_id = _source_id()
    rank_id = 0
    process_id = None
    name = "HBM 0.Read(MB/s)"
    unit = None


class CounterFactory(RowFactory):
    class Meta:
        model = Table("_counter")

    track_id = factory.LazyFunction(lambda: CounterTrackFactory()["id"])
    ts = factory.Sequence(lambda n: 1_000 * n)
    value = 1.0
    source_id = _source_id()


class StepFactory(RowFactory):
    class Meta:
        model = Table("step")

    rank_id = 0
    step_id = factory.Sequence(int)
    start_ns = 0
    end_ns = 1_000
    source_id = _rank_source_id()


class KernelFactory(RowFactory):
    class Meta:
        model = Table("kernel")

    source_id = _rank_source_id()
    source_row = factory.Sequence(int)
    origin = "kernel_details_csv"
    rank_id = 0
    device_id = 0
    step_id = None
    name = "MatMul_1"
    op_type = "MatMul"
    task_type = "AI_CORE"
    accelerator_core = "AI_CORE"
    ts = factory.Sequence(lambda n: 1_000 * n)
    dur = 100
    op_class = "aic"
    bound_family = None
    bound_stage = None
    category = None


class _RankRow(RowFactory):
    """Rows of the rank-db tables: a source and a rank, a start and a duration."""

    class Meta:
        abstract = True

    rank_id = 0
    source_id = _rank_source_id()
    source_row = factory.Sequence(int)


class PytorchApiFactory(_RankRow):
    class Meta:
        model = Table("pytorch_api")

    ts = factory.Sequence(lambda n: 1_000 * n)
    dur = 100
    name = "aten::add"
    global_tid = 1
    connection_id = None
    sequence_number = None
    fwd_thread_id = None
    input_dtypes = None
    input_shapes = None
    callchain_id = None
    type = "op"
    slice_id = None


class CallchainFactory(_RankRow):
    class Meta:
        model = Table("callchain")

    callchain_id = 1
    depth = 0
    frame = "train.py(10): step"


class CannApiFactory(_RankRow):
    class Meta:
        model = Table("cann_api")

    ts = factory.Sequence(lambda n: 1_000 * n)
    dur = 10
    type = "acl"
    global_tid = 1
    connection_id = None
    name = "aclnnAdd"
    slice_id = None


class CommunicationOpFactory(_RankRow):
    class Meta:
        model = Table("communication_op")

    device_id = 0
    name = factory.Sequence(lambda n: f"hcom_allReduce__{n}_0_1")
    op_type = "hcom_allReduce_"
    group_name = "group_a"
    ts = factory.Sequence(lambda n: 1_000 * n)
    dur = 100
    data_type = "FP16"
    alg_type = "MESH-RING"
    count = 1024
    op_id = factory.Sequence(int)
    connection_id = None
    rank_size = 2
    slice_id = None


class CommunicationTaskFactory(_RankRow):
    class Meta:
        model = Table("communication_task")

    name = "hcom_allReduce__0_0_1"
    global_task_id = factory.Sequence(int)
    task_type = "Memcpy"
    plane_id = 0
    group_name = "group_a"
    src_rank = 0
    dst_rank = 1
    transport_type = "SDMA"
    size_bytes = 1024
    data_type = "FP16"
    link_type = "HCCS"
    op_id = 0
    bandwidth_bytes_per_s = None
    slice_id = None


class MemoryRecordFactory(_RankRow):
    class Meta:
        model = Table("memory_record")

    device_id = 0
    component = "PTA"
    ts = factory.Sequence(lambda n: 1_000 * n)
    total_allocated_bytes = 0
    total_reserved_bytes = 0
    total_active_bytes = 0
    stream_ptr = None


class OpMemoryFactory(_RankRow):
    class Meta:
        model = Table("op_memory")

    device_id = 0
    name = "aten::empty"
    size_bytes = 1024
    allocation_ts = factory.Sequence(lambda n: 1_000 * n)
    release_ts = factory.LazyAttribute(lambda o: o.allocation_ts + o.dur)
    dur = 500
    active_dur = factory.SelfAttribute("dur")


class GcEventFactory(_RankRow):
    class Meta:
        model = Table("gc_event")

    global_tid = 1
    ts = factory.Sequence(lambda n: 1_000 * n)
    dur = 100


class _PortSample(_RankRow):
    class Meta:
        abstract = True

    device_id = 0
    ts = factory.Sequence(lambda n: 1_000 * n)
    bandwidth_bytes_per_s = 25_000_000_000
    rx_byte_rate = 0.0
    tx_byte_rate = 0.0


class RoceFactory(_PortSample):
    class Meta:
        model = Table("roce")


class NicFactory(_PortSample):
    class Meta:
        model = Table("nic")


class HccsFactory(_RankRow):
    class Meta:
        model = Table("hccs")

    device_id = 0
    ts = factory.Sequence(lambda n: 1_000 * n)
    tx_throughput = 0.0
    rx_throughput = 0.0


class PcieFactory(_RankRow):
    class Meta:
        model = Table("pcie")

    device_id = 0
    ts = factory.Sequence(lambda n: 1_000 * n)
    tx_post_avg = 0.0
    rx_post_avg = 0.0


class _OpProfileRow(RowFactory):
    """Rows of the operator-profile tables (migrations/0004): a source and a block offset."""

    class Meta:
        abstract = True

    source_id = _source_id()
    block_offset = 0


class OpRunFactory(_OpProfileRow):
    class Meta:
        model = Table("op_run")

    name = "MatmulCustom"
    soc = "Ascend910B4"
    op_type = "mix"
    block_dim = 2
    mix_block_dim = 4
    duration_us = 300.0
    dur = factory.LazyAttribute(lambda o: None if o.duration_us is None else round(o.duration_us * 1000))
    device_id = 0
    pid = "1234"


class CodeLineFactory(_OpProfileRow):
    class Meta:
        model = Table("code_line")

    source_row = factory.Sequence(int)
    file_index = 0
    file = "matmul.cpp"
    line = 10
    core = "core0.cubecore0"
    core_index = 0
    cycles = 100
    instructions_executed = 10


class InstructionFactory(_OpProfileRow):
    class Meta:
        model = Table("instruction")

    source_row = factory.Sequence(int)
    address = "0x1000"
    core = "core0.cubecore0"
    core_index = 0
    pipe = "SCALAR"
    source_text = "MOV_XD_IMM XD:X29,IMM"
    inner_file = "matmul.cpp"
    inner_line = 10
    cycles = 100
    instructions_executed = 1
    theoretical_stall_cycles = 0
    real_stall_cycles = 0


class MemoryUnitFactory(_OpProfileRow):
    class Meta:
        model = Table("memory_unit")

    block_id = 0
    source_row = factory.Sequence(int)
    memory_path = "GM_TO_L1"
    request = 100
    bandwidth_gb_s = 10.0
    bandwidth_bytes_per_s = factory.LazyAttribute(
        lambda o: None if o.bandwidth_gb_s is None else round(o.bandwidth_gb_s * 10**9))
    peak_ratio = 5.0
    display = 1


class CoreLoadFactory(_OpProfileRow):
    class Meta:
        model = Table("core_load")

    core_id = 0
    source_row = factory.Sequence(int)
    subcore_id = 0
    subcore_type = "cube"
    cycles = 1000
    throughput = 4096
    l2cache_hit_rate = 90.0


class RooflineFactory(_OpProfileRow):
    class Meta:
        model = Table("roofline")

    chart_index = 0
    title = "Memory Unit"
    line_index = factory.Sequence(int)
    bw = 1.0
    bw_name = "GM"
    computility = 100.0
    computility_name = "Cube FP16"
    point_x = 10.0
    point_y = 5.0
