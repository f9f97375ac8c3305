"""factory-boy factories that write visualize_data.bin byte for byte (seed 000, reference/FORMATS.md).

A block is a 12-byte little-endian header ``u64 contentSize | u8 type | u8 padding |
u8 version | u8 0x5a``, then (type 0x01 only) a 4096-byte NUL-filled path that
contentSize does not count, then the payload and ``padding`` zero bytes (to a multiple
of 4) that contentSize does count. JSON payload factories are ``DictFactory``s whose
values are the ones the tests check; ``BlockFactory`` frames one payload and
``OpProfileFactory`` writes a whole file (``OpProfileFactory(path=tmp_path / "x.bin")``).
0x0A/0x0B follow the layout the source documents (record count, records, call-stack JSON).
"""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass, field
from pathlib import Path

import factory

from warehouse.synth.op_profile import HEADER, PATH_BYTES, TAG, frame_block  # noqa: F401  (HEADER, PATH_BYTES: for tests)

TRACE_RECORD = struct.Struct("<BbbBIQQQ")
CACHE_RECORD = struct.Struct("<8I")

CODE = '#include "kernel_operator.h"\nusing namespace AscendC;\n\n// ünïcode comment\nint main() { return 0; }\n'
CODE_PATH = "/home/op/matmul_leakyrelu_custom.cpp"
CORES = ["core0.cubecore0", "core0.veccore0"]


def json_bytes(doc) -> bytes:
    return json.dumps(doc, ensure_ascii=False).encode("utf-8")


@dataclass
class Block:
    """One block to write: its type, payload bytes, header version byte and (0x01) path."""

    type: int
    payload: bytes
    version: int = TAG
    path: str | None = None
    #: the JSON document the payload was made from, when it is JSON
    doc: object = None

    def to_bytes(self) -> bytes:
        return frame_block(self.type, self.payload, version=self.version, path=self.path)


@dataclass
class OpProfileFile:
    """A written bin: where, its bytes, its blocks and the byte offset of each block."""

    path: Path
    data: bytes
    blocks: list[Block]
    offsets: list[int] = field(default_factory=list)

    def offset_of(self, block_type: int) -> int:
        return next(o for o, b in zip(self.offsets, self.blocks) if b.type == block_type)


class FilesApiFactory(factory.DictFactory):
    """0x03: Cores, "Files Dtype" (an extra string column and a hidden one) and one file of two lines."""

    Cores = factory.LazyFunction(lambda: list(CORES))
    Files = factory.LazyFunction(lambda: [{"Source": CODE_PATH, "Lines": [
        {"Line": 4, "Cycles": [100, 7], "Instructions Executed": [10, 1],
         "Address Range": [["0x1000", "0x1010"], ["0x1040", "0x1044"]], "L2Cache Hit Rate": ["50.5%", "NA"],
         "Hidden Note": "kept"},
        {"Line": "5", "Cycles": ["20", 0], "Instructions Executed": [2, 0], "Address Range": [["0x1010", "0x1020"]],
         "L2Cache Hit Rate": ["75", "25"], "Hidden Note": "also"},
    ]}])
    files_dtype = factory.LazyFunction(lambda: {"Lines": {
        "Address Range": 0, "Cycles": 1, "Instructions Executed": 1, "Line": 1, "L2Cache Hit Rate": 4,
        "Hidden Note": 0}})

    class Meta:
        rename = {"files_dtype": "Files Dtype"}


class InstructionsApiFactory(factory.DictFactory):
    """0x04: two instructions on two cores, an extra float column and a JSON-string column."""

    Cores = factory.LazyFunction(lambda: list(CORES))
    Instructions = factory.LazyFunction(lambda: [
        {"Address": "0x1000", "Source": "MOV_XD_IMM XD:X29,IMM", "Pipe": "SCALAR", "Cycles": [3, 4],
         "Instructions Executed": [1, 1], "TheoreticalStallCycles": [0, 1], "RealStallCycles": [2, "5"],
         "AscendC Inner Code": f"{CODE_PATH}:4", "L2Cache Hit Rate": [99.5, "N/A"], "Operands": {"x": [1, 2]}},
        {"Address": "0x1010", "Source": "WAIT_FLAG PIPE:MTE2", "Pipe": "MTE2", "Cycles": [599, 0],
         "Instructions Executed": [1, 0], "TheoreticalStallCycles": [0, 0], "RealStallCycles": [598, 0],
         "AscendC Inner Code": "/tikcpp/kernel_event.h:719\n/tikcpp/kernel_common.h:159",
         "L2Cache Hit Rate": [0.25, 1], "Operands": "{}"},
    ])
    instructions_dtype = factory.LazyFunction(lambda: {"Instructions": {
        "Address": 3, "AscendC Inner Code": 3, "Cycles": 1, "Instructions Executed": 1, "Pipe": 3,
        "TheoreticalStallCycles": 1, "Source": 3, "RealStallCycles": 1, "L2Cache Hit Rate": 2, "Operands": 5}})

    class Meta:
        rename = {"instructions_dtype": "Instructions Dtype"}


class BaseInfoFactory(factory.DictFactory):
    """0x05 in the seed's list shape: block_detail items with core_type, numbers as numbers."""

    name = "add_custom"
    soc = "Ascend910B1"
    op_type = "aiv"
    block_dim = 2
    mix_block_dim = 0
    duration = 13.5
    device_id = 3
    pid = "4242"
    block_detail = factory.LazyFunction(lambda: [
        {"block_id": 0, "core_type": "aiv", "duration": 5.25},
        {"block_id": "1", "core_type": "aiv", "duration": "NA"},
    ])
    advice = factory.LazyFunction(lambda: ["use more cores", "vectorise the tail"])


class MixBaseInfoFactory(BaseInfoFactory):
    """0x05 in the seed's mix list shape: duration lists [aic, aiv0, aiv1]."""

    op_type = "mix"
    block_detail = factory.LazyFunction(list)
    mix_block_detail = factory.LazyFunction(lambda: [{"block_id": 0, "duration": [1.5, 2.5, 3.5]}])


class TableBaseInfoFactory(factory.DictFactory):
    """0x05 in the real table shape (test_bin_mix): strings for numbers, mix_block_detail a table."""

    advice = factory.LazyFunction(list)
    block_dim = "2"
    device_id = "0"
    duration = 300.0660095214844
    mix_block_detail = factory.LazyFunction(lambda: {
        "head_name": ["Block ID", "Cube0 Duration (μs)", "Vector0 Duration (μs)", "Vector1 Duration (μs)"],
        "row": [{"value": ["0", "250.377579", "133.206055", "247.620605"]},
                {"value": ["1", "250.884842", "NA", "248.197571"]}],
        "size": [3, 4]})
    mix_block_dim = "4"
    name = "MatmulLeakyrelu_mix_aic"
    op_type = "mix"
    pid = "1112422"
    soc = "Ascend910B4"


class ComputeLoadFactory(factory.DictFactory):
    """0x06/0x07 with flat items (real) and one nested under data_detail (seed)."""

    advice = "balance the vector cores"
    subblock_detail = factory.LazyFunction(lambda: [
        {"block_id": "0", "block_type": "cube0", "name": "Cube All Active", "origin_value": 46050.0, "unit": 3,
         "value": 11.15},
        {"block_id": 1, "block_type": "vector0", "data_detail": {"name": "ALL_ACTIVE", "unit": "%", "value": "73.6"},
         "advice": "vector0 is idle"},
    ])


class MemoryGraphFactory(factory.DictFactory):
    """0x08: one core with two paths, L2 figures as strings, Cube/Vector ratios."""

    core_memory_map = factory.LazyFunction(lambda: [{
        "Cube": {"cycle": 46050, "ratio": 11.25, "total_cycles": 413123},
        "L2cache": {"hit": "66845", "hit_ratio": "90.550110", "miss": "6976", "total_request": "73821"},
        "Vector": {"cycle": "6592", "ratio": "2.5", "total_cycles": 219790},
        "advice": ["aicore compute usage lower than 20%"],
        "core_no": "0",
        "memory_unit": [
            {"bandwidth": "19.008541", "display": 1, "memory_path": 0, "peak_ratio": "NA", "request": "47847",
             "request_per_byte": 32},
            {"bandwidth": 4.5, "display": False, "memory_path": "GM_TO_UB", "peak_ratio": -1, "request": 12},
        ],
        "op_type": "mix",
        "soc": "910B",
    }])


class MemoryTableFactory(factory.DictFactory):
    """0x09: one block with two tables (strings and numbers mixed, an "NA" cell), advice at both levels."""

    advice = factory.LazyFunction(lambda: ["top-level advice"])
    table_per_block = factory.LazyFunction(lambda: [{
        "advice": ["aicore MTE2 bandwidth utilization lower than 80% when active"],
        "block_id": "0",
        "table_detail": [
            {"header_name": ["", "hit", "miss", "total", "hit rate(%)"],
             "row": [{"name": "L2 Cache Write", "value": ["21468", "4480", "25948", "82.734695"]},
                     {"name": "iCache Total", "value": [40198, 238, 40436, 99.411415]}],
             "size": [2, 4], "table_name": "Cache"},
            {"header_name": ["", "requests", "throughput(GB/s)", "peak(%)"],
             "row": [{"name": "L0C Read Cube", "value": ["5120", "16.272491", "NA"]}],
             "size": [1, 3], "table_name": "L0C"},
        ],
        "table_op_type": "mix",
    }])


class TraceFactory(factory.DictFactory):
    """0x02: the op simulator's trace (an object with traceEvents, profilingType "op")."""

    profilingType = "op"
    displayTimeUnit = "ns"
    schemaVersion = 1
    traceEvents = factory.LazyFunction(lambda: [
        {"args": {"code": f"{CODE_PATH}:4", "detail": "x[1]=0x0", "pc_addr": "0x1000"}, "cname": "startup",
         "dur": 20, "name": "block0", "ph": "X", "pid": "core0.veccore0", "tid": "SCALAR", "ts": 1},
        {"args": {}, "dur": 5, "name": "MOV_XD_IMM", "ph": "X", "pid": "core0.veccore0", "tid": "SCALAR", "ts": 2},
    ])


class CoreLoadFactory(factory.DictFactory):
    """0x0C: numbers as strings, core_id an int, advice one string."""

    advice = "\t1) core0 vector1 took more time than other core.\n"
    op_detail = factory.LazyFunction(lambda: [{"core_id": 0, "core_detail": [
        {"L2cache_hit_rate": "80.157990", "cycles": "265838", "subcore_id": "0", "subcore_type": "vector",
         "throughput": "2635776"},
        {"L2cache_hit_rate": "94.524757", "cycles": "267206", "subcore_id": "0", "subcore_type": "cube",
         "throughput": "6825472"},
    ]}])
    op_type = "mix"
    soc = "Ascend910B4"


class RooflineFactory(factory.DictFactory):
    """0x0D: one chart, one line with bw_name (real writers) and one without (seed)."""

    multiple_rooflines = factory.LazyFunction(lambda: [{"title": "Memory Unit", "rooflines": [
        {"bw": 1600.5, "bw_name": "GM", "computility": 320.0, "computility_name": "Cube FP16", "point": [12.5, 100.25]},
        {"bw": "800", "computility": 160, "computility_name": "Vector FP32", "point": ["3", 40]},
    ]}])


class CachelineFactory(factory.DictFactory):
    """0x0E: one cacheline record (writer's CACHELINE_HEAT_MAP)."""

    records = factory.LazyFunction(lambda: [{"Cacheline Id": 7,
                                               "Hit": {"Address Range": ["0x100", "0x180"], "Value": [12, 0.75]},
                                               "Miss": {"Address Range": ["0x180", "0x200"], "Value": ["4", "0.25"]}}])

    class Meta:
        rename = {"records": "Cacheline Records"}


class StallReasonFactory(factory.DictFactory):
    """0x0F: reason -> count."""

    top_stall_reason_table = factory.LazyFunction(lambda: {"WAIT_FLAG": 598, "BAR": "12"})


#: 0x0A call-stack map (the seed's list example) and records (type, core, space, blockType, recordId, addr, size, pc)
CALL_STACKS = [{"Address": "0x4004be", "ModuleName": "inlined.elf", "Symbol": [
    {"Column": 18, "Discriminator": 0, "FileName": "/tmp/test.cpp", "FunctionName": "baz()", "Line": 11,
     "StartAddress": "0x4004be", "StartFileName": "/tmp/test.cpp", "StartLine": 9},
    {"Column": 0, "Discriminator": 0, "FileName": "/tmp/test.cpp", "FunctionName": "main", "Line": 15,
     "StartAddress": "0x4004be", "StartFileName": "/tmp/test.cpp", "StartLine": 14}]}]
TRACE_RECORDS = [(0, 1, 1, 0, 10, 0x12C000000000, 4096, 0x4004BE), (3, -1, 6, 1, 11, 0x20, 32, 0xFFFFFFFFFFFFFFF0)]
#: 0x0B records: loadCount, storeCount, cacheLineId, hit, miss, allocate, evictAndWrite, evictWithoutWrite
CACHE_RECORDS = [(6, 2, 5, 4, 4, 3, 1, 2), (0, 0, 6, 0, 0, 0, 0, 0)]


def memory_records_payload(records=TRACE_RECORDS, stacks=CALL_STACKS) -> bytes:
    """0x0A: u64 count, the 32-byte TraceRecords, the call-stack JSON."""
    body = b"".join(TRACE_RECORD.pack(*record) for record in records)
    return struct.pack("<Q", len(records)) + body + (json_bytes(stacks) if stacks is not None else b"")


def cache_records_payload(records=CACHE_RECORDS) -> bytes:
    """0x0B: the 32-byte CacheRecords, nothing else."""
    return b"".join(CACHE_RECORD.pack(*record) for record in records)


class BlockFactory(factory.Factory):
    """One block; give ``doc`` (JSON) or ``payload`` (bytes)."""

    class Meta:
        model = Block

    type = 0x05
    doc = factory.LazyFunction(BaseInfoFactory)
    payload = factory.LazyAttribute(lambda o: json_bytes(o.doc))
    version = TAG
    path = None


def json_block(block_type: int, doc, **kwargs) -> Block:
    return BlockFactory(type=block_type, doc=doc, **kwargs)


def every_block() -> list[Block]:
    """One block of each of the 15 types (two 0x01 files), in type order."""
    return [
        BlockFactory(type=0x01, doc=None, payload=CODE.encode("utf-8"), path=CODE_PATH),
        BlockFactory(type=0x01, doc=None, payload=b"x = 1\n", path="/home/op/b.py"),
        json_block(0x02, TraceFactory()),
        json_block(0x03, FilesApiFactory()),
        json_block(0x04, InstructionsApiFactory(), version=0),
        json_block(0x05, BaseInfoFactory()),
        json_block(0x06, ComputeLoadFactory()),
        json_block(0x07, ComputeLoadFactory(advice=["table advice"])),
        json_block(0x08, MemoryGraphFactory()),
        json_block(0x09, MemoryTableFactory()),
        BlockFactory(type=0x0A, doc=None, payload=memory_records_payload()),
        BlockFactory(type=0x0B, doc=None, payload=cache_records_payload()),
        json_block(0x0C, CoreLoadFactory()),
        json_block(0x0D, RooflineFactory()),
        json_block(0x0E, CachelineFactory()),
        json_block(0x0F, StallReasonFactory()),
    ]


class OpProfileFactory(factory.Factory):
    """A whole visualize_data.bin written to ``path``; returns an :class:`OpProfileFile`."""

    class Meta:
        model = OpProfileFile

    path = factory.Sequence(lambda n: Path(f"visualize_data_{n}.bin"))
    blocks = factory.LazyFunction(every_block)
    data = b""

    @classmethod
    def _create(cls, model_class, path, blocks, data):
        offsets, parts, offset = [], [], 0
        for block in blocks:
            offsets.append(offset)
            parts.append(block.to_bytes())
            offset += len(parts[-1])
        data = b"".join(parts)
        Path(path).write_bytes(data)
        return model_class(Path(path), data, list(blocks), offsets)
