"""The operator profile source (visualize_data.bin): every block's table, rebuilds, the real file, bad files."""

from __future__ import annotations

import decimal
import gzip
import json
import struct

import pytest

from tests.factories.op_profile import (
    CALL_STACKS, CODE, CODE_PATH, BlockFactory, MixBaseInfoFactory, OpProfileFactory, TableBaseInfoFactory, every_block,
    json_block, memory_records_payload,
)
from warehouse.cli import cli
from warehouse.ingest import ingest_file
from warehouse.sources import detect_source, op_profile

REAL = "msinsight/server_test_data/test_bin_mix/visualize_data.bin"
HEADER = struct.Struct("<QBBBB")


@pytest.fixture
def profile(tmp_path):
    """The factory's file with one block of each of the 15 types."""
    return OpProfileFactory(path=tmp_path / "visualize_data.bin")


def ingest(conn, path):
    result = ingest_file(conn, path)
    assert result.status == "ok", result.error
    return result


def rows(conn, sql, *params):
    return conn.execute(sql, params).fetchall()


def fact_rows(conn) -> int:
    """Rows in every table that has a source_id column (what a failed ingest must leave empty)."""
    tables = [name for (name,) in rows(conn, "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'source'")]
    total = 0
    for table in tables:
        if any(column[1] == "source_id" for column in rows(conn, f'PRAGMA table_info("{table}")')):
            total += rows(conn, f'SELECT COUNT(*) FROM "{table}"')[0][0]
    return total


def test_factory_writes_the_framing_byte_for_byte():
    # contentSize 4 counts the 2 padding bytes; byte 10 the version, byte 11 the tag
    assert BlockFactory(type=0x05, doc={}).to_bytes() == bytes.fromhex("0400000000000000 05 02 5a 5a") + b"{}\0\0"
    source = BlockFactory(type=0x01, doc=None, payload=b"abcd", path="/a.cpp").to_bytes()
    assert source[:12] == bytes.fromhex("0400000000000000 01 00 5a 5a")
    assert source[12:12 + 4096] == b"/a.cpp" + b"\0" * 4090 and source[4108:] == b"abcd"
    assert BlockFactory(type=0x04, doc=[], version=0).to_bytes()[8:12] == bytes.fromhex("04 02 00 5a")


# --- detection -------------------------------------------------------------------------------

def test_detect_by_content_not_name(tmp_path, profile, realdata):
    renamed = tmp_path / "anything.dat"
    renamed.write_bytes(profile.data)
    gz = tmp_path / "op.bin.gz"
    gz.write_bytes(gzip.compress(profile.data))
    json_file = tmp_path / "visualize_data.bin2"
    json_file.write_bytes(b'{"traceEvents": []}')
    mistagged = tmp_path / "bad.bin"
    mistagged.write_bytes(profile.data[:11] + b"\x00" + profile.data[12:])
    assert op_profile.detect(renamed) and op_profile.detect(gz) and op_profile.detect(realdata / REAL)
    assert not op_profile.detect(json_file) and not op_profile.detect(mistagged)
    assert not op_profile.detect(tmp_path / "missing.bin")
    assert detect_source(renamed) is op_profile


def test_new_style_first_header_version_zero_is_detected(tmp_path):
    path = tmp_path / "v0.bin"
    path.write_bytes(json_block(0x04, {"Cores": [], "Instructions": []}, version=0).to_bytes())
    assert op_profile.detect(path)


# --- every block of the factory's file ------------------------------------------------------------

def test_every_block_is_framed_and_kept_raw(warehouse_db, profile):
    result = ingest(warehouse_db, profile.path)
    card, kind, detail = rows(warehouse_db, "SELECT card, kind, detail FROM source WHERE id = ?", result.source_id)[0]
    types = {f"0x{t:02x}": 1 for t in range(2, 16)} | {"0x01": 2}
    assert (card, kind, json.loads(detail)) == ("add_custom", "op_profile", {"blocks": 16, "block_types": types})
    raw = rows(warehouse_db, "SELECT block_index, block_offset, block_type, content_size_bytes, padding, version, known, "
                             "json FROM op_block_raw ORDER BY block_index")
    assert [r[1] for r in raw] == profile.offsets
    assert [r[2] for r in raw] == [b.type for b in profile.blocks]
    assert [r[0] for r in raw] == list(range(16))
    for (_, _, block_type, size, padding, version, known, text), block in zip(raw, profile.blocks):
        assert (size, padding, version, known) == (len(block.payload) + padding, (4 - len(block.payload) % 4) % 4,
                                                   block.version, 1)
        # JSON blocks keep their text (0x01 and 0x0B have none; 0x0A's is checked below)
        if block_type != 0x0A:
            expected = json.loads(block.payload) if block.doc is not None else None
            assert (json.loads(text) if text else None) == expected
    assert raw[4][5] == 0  # the new-style 0x04 version byte
    assert json.loads(raw[10][7]) == CALL_STACKS  # 0x0A keeps its call-stack JSON
    assert result.rows == fact_rows(warehouse_db)


@pytest.mark.parametrize("index", range(16))
def test_any_block_alone_is_a_profile(warehouse_db, tmp_path, index):
    block = every_block()[index]
    f = OpProfileFactory(path=tmp_path / f"only_{block.type}.bin", blocks=[block])
    result = ingest(warehouse_db, f.path)
    assert rows(warehouse_db, "SELECT block_type, block_offset FROM op_block_raw") == [(block.type, 0)]
    assert result.rows == fact_rows(warehouse_db) > 1


def test_code_file_content_exact(warehouse_db, profile):
    ingest(warehouse_db, profile.path)
    assert rows(warehouse_db, "SELECT block_offset, path, content FROM code_file ORDER BY block_offset") == [
        (0, CODE_PATH, CODE), (profile.offsets[1], "/home/op/b.py", "x = 1\n")]


def test_code_file_not_utf8_kept_as_bytes(warehouse_db, tmp_path):
    text = "// 注释\n".encode("gbk")
    f = OpProfileFactory(path=tmp_path / "gbk.bin", blocks=[BlockFactory(type=0x01, doc=None, payload=text, path="/a.cpp")])
    ingest(warehouse_db, f.path)
    assert rows(warehouse_db, "SELECT path, content FROM code_file") == [("/a.cpp", text)]


def test_code_lines_one_row_per_core_with_typed_extras(warehouse_db, profile):
    ingest(warehouse_db, profile.path)
    assert rows(warehouse_db, "SELECT source_row, file_index, file, line, core, core_index, cycles, "
                              "instructions_executed, address_range FROM code_line ORDER BY id") == [
        (0, 0, CODE_PATH, 4, "core0.cubecore0", 0, 100, 10, '[["0x1000", "0x1010"], ["0x1040", "0x1044"]]'),
        (0, 0, CODE_PATH, 4, "core0.veccore0", 1, 7, 1, '[["0x1000", "0x1010"], ["0x1040", "0x1044"]]'),
        (1, 0, CODE_PATH, 5, "core0.cubecore0", 0, 20, 2, '[["0x1010", "0x1020"]]'),
        (1, 0, CODE_PATH, 5, "core0.veccore0", 1, 0, 0, '[["0x1010", "0x1020"]]'),
    ]
    assert rows(warehouse_db, "SELECT l.line, l.core, m.name, m.dtype, m.value FROM code_line_metric m "
                              "JOIN code_line l ON l.id = m.code_line_id ORDER BY l.id, m.name") == [
        (4, "core0.cubecore0", "Hidden Note", 0, "kept"), (4, "core0.cubecore0", "L2Cache Hit Rate", 4, 50.5),
        (4, "core0.veccore0", "Hidden Note", 0, "kept"), (4, "core0.veccore0", "L2Cache Hit Rate", 4, None),
        (5, "core0.cubecore0", "Hidden Note", 0, "also"), (5, "core0.cubecore0", "L2Cache Hit Rate", 4, 75.0),
        (5, "core0.veccore0", "Hidden Note", 0, "also"), (5, "core0.veccore0", "L2Cache Hit Rate", 4, 25.0),
    ]
    # the dtype maps are kept in their order, so "Files Dtype"/"Instructions Dtype" can be rebuilt
    dtypes = rows(warehouse_db, "SELECT block_type, name, dtype FROM op_dtype ORDER BY block_type, position")
    assert {name: dtype for block_type, name, dtype in dtypes if block_type == 3} == \
        profile.blocks[3].doc["Files Dtype"]["Lines"]
    assert [name for block_type, name, _ in dtypes if block_type == 4] == \
        list(profile.blocks[4].doc["Instructions Dtype"]["Instructions"])


def test_instructions_one_row_per_core(warehouse_db, profile):
    ingest(warehouse_db, profile.path)
    assert rows(warehouse_db, "SELECT source_row, address, core, pipe, source_text, inner_file, inner_line, cycles, "
                              "instructions_executed, theoretical_stall_cycles, real_stall_cycles "
                              "FROM instruction ORDER BY id") == [
        (0, "0x1000", "core0.cubecore0", "SCALAR", "MOV_XD_IMM XD:X29,IMM", CODE_PATH, 4, 3, 1, 0, 2),
        (0, "0x1000", "core0.veccore0", "SCALAR", "MOV_XD_IMM XD:X29,IMM", CODE_PATH, 4, 4, 1, 1, 5),
        (1, "0x1010", "core0.cubecore0", "MTE2", "WAIT_FLAG PIPE:MTE2", "/tikcpp/kernel_event.h", 719, 599, 1, 0, 598),
        (1, "0x1010", "core0.veccore0", "MTE2", "WAIT_FLAG PIPE:MTE2", "/tikcpp/kernel_event.h", 719, 0, 0, 0, 0),
    ]
    assert rows(warehouse_db, "SELECT inner_code FROM instruction WHERE source_row = 1 LIMIT 1") == [
        ("/tikcpp/kernel_event.h:719\n/tikcpp/kernel_common.h:159",)]
    # float column per core; the JSON-string column (dtype 5) whole on every core's row
    assert rows(warehouse_db, "SELECT i.source_row, i.core_index, m.name, m.dtype, m.value FROM instruction_metric m "
                              "JOIN instruction i ON i.id = m.instruction_id ORDER BY i.id, m.name") == [
        (0, 0, "L2Cache Hit Rate", 2, 99.5), (0, 0, "Operands", 5, '{"x": [1, 2]}'),
        (0, 1, "L2Cache Hit Rate", 2, None), (0, 1, "Operands", 5, '{"x": [1, 2]}'),
        (1, 0, "L2Cache Hit Rate", 2, 0.25), (1, 0, "Operands", 5, "{}"),
        (1, 1, "L2Cache Hit Rate", 2, 1.0), (1, 1, "Operands", 5, "{}"),
    ]


def test_trace_block_goes_to_the_timeline(warehouse_db, profile):
    result = ingest(warehouse_db, profile.path)
    assert rows(warehouse_db, "SELECT p.pid, t.tid, s.name, s.ts, s.dur FROM slice s JOIN thread t ON t.id = s.thread_id "
                              "JOIN process p ON p.id = t.process_id WHERE s.source_id = ? ORDER BY s.ts",
                result.source_id) == [
        ("core0.veccore0", "SCALAR", "block0", 1000, 20000), ("core0.veccore0", "SCALAR", "MOV_XD_IMM", 2000, 5000)]


def test_base_info_list_shape(warehouse_db, profile):
    ingest(warehouse_db, profile.path)
    assert rows(warehouse_db, "SELECT block_offset, name, soc, op_type, block_dim, mix_block_dim, duration_us, device_id, "
                              "pid, detail_key, detail_shape, detail_header, detail_size FROM op_run") == [
        (profile.offset_of(0x05), "add_custom", "Ascend910B1", "aiv", 2, 0, 13.5, 3, "4242", "block_detail", "list",
         None, None)]
    assert rows(warehouse_db, "SELECT source_row, block_id, sub_index, core_type, duration_us, value FROM op_block") == [
        (0, 0, 0, "aiv", 5.25, 5.25), (1, 1, 0, "aiv", None, "NA")]
    assert rows(warehouse_db, "SELECT dur FROM op_run") == [(13500,)]
    assert rows(warehouse_db, "SELECT dur FROM op_block ORDER BY source_row") == [(5250,), (None,)]


def test_base_info_seed_mix_list_shape(warehouse_db, tmp_path):
    f = OpProfileFactory(path=tmp_path / "mix.bin", blocks=[json_block(0x05, MixBaseInfoFactory())])
    ingest(warehouse_db, f.path)
    assert rows(warehouse_db, "SELECT detail_key, detail_shape FROM op_run") == [("mix_block_detail", "list")]
    assert rows(warehouse_db, "SELECT block_id, sub_index, core_type, duration_us, dur FROM op_block") == [
        (0, 0, "aic", 1.5, 1500), (0, 1, "aiv0", 2.5, 2500), (0, 2, "aiv1", 3.5, 3500)]


def test_base_info_table_shape_rebuilds(warehouse_db, tmp_path):
    doc = TableBaseInfoFactory()
    f = OpProfileFactory(path=tmp_path / "table.bin", blocks=[json_block(0x05, doc)])
    result = ingest(warehouse_db, f.path)
    assert rows(warehouse_db, "SELECT name, block_dim, mix_block_dim, device_id, pid, detail_shape FROM op_run") == [
        ("MatmulLeakyrelu_mix_aic", 2, 4, 0, "1112422", "table")]
    assert rows(warehouse_db, "SELECT block_id, core_type, duration_us FROM op_block WHERE sub_index = 2") == [
        (0, "vector0", 133.206055), (1, "vector0", None)]
    # ns from the writer's text: 300.0660095214844 us (a float32 as JSON number), "250.377579" us, ...
    assert rows(warehouse_db, "SELECT dur FROM op_run") == [(300066,)]
    assert rows(warehouse_db, "SELECT block_id, sub_index, dur FROM op_block ORDER BY block_id, sub_index") == [
        (0, 1, 250378), (0, 2, 133206), (0, 3, 247621), (1, 1, 250885), (1, 2, None), (1, 3, 248198)]
    assert rebuild_block_table(warehouse_db, result.source_id) == doc["mix_block_detail"]
    assert rows(warehouse_db, "SELECT card FROM source") == [("MatmulLeakyrelu_mix_aic",)]


def test_compute_load_flat_and_nested(warehouse_db, profile):
    ingest(warehouse_db, profile.path)
    assert rows(warehouse_db, "SELECT view, source_row, block_id, block_type, name, unit, value, origin_value, advice "
                              "FROM compute_load ORDER BY view, source_row") == [
        ("chart", 0, 0, "cube0", "Cube All Active", 3, 11.15, 46050.0, None),
        ("chart", 1, 1, "vector0", "ALL_ACTIVE", "%", 73.6, None, "vector0 is idle"),
        ("table", 0, 0, "cube0", "Cube All Active", 3, 11.15, 46050.0, None),
        ("table", 1, 1, "vector0", "ALL_ACTIVE", "%", 73.6, None, "vector0 is idle"),
    ]


def test_memory_heat_map(warehouse_db, profile):
    ingest(warehouse_db, profile.path)
    assert rows(warehouse_db, "SELECT block_id, source_row, memory_path, request, request_per_byte, bandwidth_gb_s, "
                              "peak_ratio, display FROM memory_unit ORDER BY source_row") == [
        (0, 0, 0, 47847, 32, 19.008541, None, 1), (0, 1, "GM_TO_UB", 12, None, 4.5, -1.0, 0)]
    assert rows(warehouse_db, "SELECT bandwidth_bytes_per_s FROM memory_unit ORDER BY source_row") == [
        (19_008_541_000,), (4_500_000_000,)]
    assert rows(warehouse_db, "SELECT block_id, op_type, soc, hit, miss, total_request, hit_ratio FROM l2_cache") == [
        (0, "mix", "910B", 66845, 6976, 73821, 90.55011)]
    assert rows(warehouse_db, "SELECT block_id, pipe, ratio, cycle, total_cycles FROM pipe_ratio ORDER BY pipe") == [
        (0, "Cube", 11.25, 46050, 413123), (0, "Vector", 2.5, 6592, 219790)]


def test_memory_table_rebuilds_exactly(warehouse_db, profile):
    result = ingest(warehouse_db, profile.path)
    entry = profile.blocks[9].doc["table_per_block"][0]
    assert rebuild_table_detail(warehouse_db, result.source_id, 0) == entry["table_detail"]
    assert rows(warehouse_db, "SELECT value, value_num FROM memory_table WHERE table_name = 'L0C' AND row_index = 1 "
                              "ORDER BY column_index") == [("L0C Read Cube", None), ("5120", 5120.0),
                                                           ("16.272491", 16.272491), ("NA", None)]


def test_every_advice_kept(warehouse_db, profile):
    ingest(warehouse_db, profile.path)
    assert rows(warehouse_db, "SELECT block_type, block_id, advice_index, text FROM op_advice "
                              "ORDER BY block_offset, block_id IS NULL, advice_index") == [
        (5, None, 0, "use more cores"), (5, None, 1, "vectorise the tail"),
        (6, None, None, "balance the vector cores"),
        (7, None, 0, "table advice"),
        (8, 0, 0, "aicore compute usage lower than 20%"),
        (9, 0, 0, "aicore MTE2 bandwidth utilization lower than 80% when active"), (9, None, 0, "top-level advice"),
        (12, None, None, "\t1) core0 vector1 took more time than other core.\n"),
    ]


def test_memory_records_and_call_stacks(warehouse_db, profile):
    ingest(warehouse_db, profile.path)
    assert rows(warehouse_db, "SELECT source_row, type, type_name, core_id, space, space_name, block_type, "
                              "block_type_name, record_id, addr, mem_size_bytes, pc FROM mem_event ORDER BY source_row") == [
        (0, 0, "MALLOC", 1, 1, "GM", 0, "AIV", 10, 0x12C000000000, 4096, 0x4004BE),
        (1, 3, "LOAD", -1, 6, "UB", 1, "AIC", 11, 0x20, 32, -16),  # u64 0xFFFFFFFFFFFFFFF0 read as signed
    ]
    assert rows(warehouse_db, "SELECT e.record_id, f.depth, f.function_name, f.file_name, f.line, f.column_no, "
                              "f.start_line FROM mem_event e JOIN callstack_frame f ON f.pc = e.pc ORDER BY f.depth") == [
        (10, 0, "baz()", "/tmp/test.cpp", 11, 18, 9), (10, 1, "main", "/tmp/test.cpp", 15, 0, 14)]


def test_call_stack_map_keyed_by_pc(warehouse_db, tmp_path):
    stacks = {"0x10": {"ModuleName": "m.elf", "Symbol": [{"FunctionName": "f", "Line": "3"}]},
              "0xFFFFFFFFFFFFFFF0": {"Symbol": [{"FunctionName": "g"}]}}
    records = [(4, 0, 1, 0, 1, 0, 8, 0xFFFFFFFFFFFFFFF0)]
    f = OpProfileFactory(path=tmp_path / "keyed.bin",
                         blocks=[BlockFactory(type=0x0A, doc=None, payload=memory_records_payload(records, stacks))])
    ingest(warehouse_db, f.path)
    assert rows(warehouse_db, "SELECT pc, address, module_name, depth, function_name, line FROM callstack_frame "
                              "ORDER BY pc") == [(-16, "0xFFFFFFFFFFFFFFF0", None, 0, "g", None),
                                                 (16, "0x10", "m.elf", 0, "f", 3)]
    # a high PC joins its record through the same signed reading
    assert rows(warehouse_db, "SELECT e.type_name, f.function_name FROM mem_event e "
                              "JOIN callstack_frame f ON f.pc = e.pc") == [("STORE", "g")]


def test_numbers_beyond_64_bits_kept_as_reals(warehouse_db, tmp_path):
    doc = {"core_memory_map": [{"core_no": 0, "L2cache": {"hit": 2 ** 64, "miss": "18446744073709551616"},
                                "memory_unit": []}]}
    f = OpProfileFactory(path=tmp_path / "big.bin", blocks=[json_block(0x08, doc)])
    ingest(warehouse_db, f.path)
    assert rows(warehouse_db, "SELECT hit, miss FROM l2_cache") == [(2.0 ** 64, 2.0 ** 64)]


@pytest.mark.parametrize(
    "duration,bandwidth,dur,bytes_per_s",
    (
        # a float32 written as a JSON number and as text: every written digit counts, rounded once
        (300.0660095214844, 3.637730836868286, 300066, 3_637_730_837),
        ("300.0660095214844", "3.637730836868286", 300066, 3_637_730_837),
        # exact halves round to even (a float would make 133.2075 * 1000 = 133207.49999999999)
        ("133.2075", "0.0000000005", 133208, 0),
        (1.0005, "0.0000000015", 1000, 2),
        (7, 12, 7000, 12_000_000_000),
        (" 2.5 ", "NA", 2500, None),
        # not a number, not finite, or past 64 bits in the new unit: the REAL column keeps what there is
        ("5%", "N/A", None, None),
        (True, "nan", None, None),
        (1e16, "1e10", None, None),
    ),
)
def test_durations_in_ns_and_bandwidths_in_bytes_per_s_exactly(warehouse_db, tmp_path, duration, bandwidth, dur,
                                                               bytes_per_s):
    base = {"name": "op", "duration": duration, "block_detail": [{"block_id": 0, "duration": duration}]}
    memory = {"core_memory_map": [{"core_no": 0, "memory_unit": [{"memory_path": 0, "bandwidth": bandwidth}]}]}
    f = OpProfileFactory(path=tmp_path / "units.bin", blocks=[json_block(0x05, base), json_block(0x08, memory)])
    ingest(warehouse_db, f.path)
    assert rows(warehouse_db, "SELECT dur FROM op_run UNION ALL SELECT dur FROM op_block") == [(dur,), (dur,)]
    assert rows(warehouse_db, "SELECT bandwidth_bytes_per_s FROM memory_unit") == [(bytes_per_s,)]


def test_cache_sets_rates_as_the_seed_defines(warehouse_db, profile):
    ingest(warehouse_db, profile.path)
    assert rows(warehouse_db, "SELECT source_row, load_count, store_count, cache_line_id, hit, miss, allocate, "
                              "evict_and_write, evict_without_write, hit_rate, miss_rate, allocate_rate, "
                              "evict_and_write_rate, evict_without_write_rate FROM cache_set ORDER BY source_row") == [
        (0, 6, 2, 5, 4, 4, 3, 1, 2, 0.5, 0.5, 0.375, 0.125, 0.25),
        (1, 0, 0, 6, 0, 0, 0, 0, 0, None, None, None, None, None),
    ]


def test_core_load_roofline_cacheline_stalls(warehouse_db, profile):
    ingest(warehouse_db, profile.path)
    assert rows(warehouse_db, "SELECT core_id, source_row, subcore_id, subcore_type, cycles, throughput, "
                              "l2cache_hit_rate FROM core_load ORDER BY source_row") == [
        (0, 0, 0, "vector", 265838, 2635776, 80.15799), (0, 1, 0, "cube", 267206, 6825472, 94.524757)]
    assert rows(warehouse_db, "SELECT chart_index, title, line_index, bw, bw_name, computility, computility_name, "
                              "point_x, point_y FROM roofline ORDER BY line_index") == [
        (0, "Memory Unit", 0, 1600.5, "GM", 320.0, "Cube FP16", 12.5, 100.25),
        (0, "Memory Unit", 1, 800.0, None, 160.0, "Vector FP32", 3.0, 40.0)]
    assert rows(warehouse_db, "SELECT cacheline_id, hit_address_range, hit_count, hit_ratio, miss_address_range, "
                              "miss_count, miss_ratio FROM cache_line") == [
        (7, '["0x100", "0x180"]', 12, 0.75, '["0x180", "0x200"]', 4, 0.25)]
    assert rows(warehouse_db, "SELECT source_row, reason, count FROM stall_reason ORDER BY source_row") == [
        (0, "WAIT_FLAG", 598), (1, "BAR", 12)]


def test_empty_and_sparse_blocks_ingest_with_nulls(warehouse_db, tmp_path):
    # every optional field missing: an empty object for each JSON block, then sparse items
    empty = [json_block(block_type, {}) for block_type in (3, 4, 5, 6, 7, 8, 9, 12, 13, 14, 15)]
    sparse = [
        json_block(0x05, {"name": "only_name"}),
        json_block(0x08, {"core_memory_map": [{"core_no": "N/A", "memory_unit": [{}]}]}),
        json_block(0x0D, {"multiple_rooflines": [{"rooflines": [{"point": []}]}]}),
        json_block(0x03, {"Files": [{"Lines": [{"Line": 9}]}]}),
    ]
    f = OpProfileFactory(path=tmp_path / "sparse.bin", blocks=empty + sparse)
    ingest(warehouse_db, f.path)
    assert rows(warehouse_db, "SELECT COUNT(*), SUM(known) FROM op_block_raw") == [(15, 15)]
    assert rows(warehouse_db, "SELECT name, soc, block_dim, duration_us, detail_key FROM op_run ORDER BY name") == [
        (None, None, None, None, None), ("only_name", None, None, None, None)]
    assert rows(warehouse_db, "SELECT block_id, op_type, hit, hit_ratio FROM l2_cache") == [(None, None, None, None)]
    assert rows(warehouse_db, "SELECT memory_path, request, bandwidth_bytes_per_s, peak_ratio, display "
                              "FROM memory_unit") == [(None, None, None, None, None)]
    assert rows(warehouse_db, "SELECT dur FROM op_run") == [(None,), (None,)]
    assert rows(warehouse_db, "SELECT title, bw, point_x, point_y FROM roofline") == [(None, None, None, None)]
    assert rows(warehouse_db, "SELECT file, line, core, core_index, cycles FROM code_line") == [(None, 9, None, 0, None)]


def test_unknown_block_type_recorded_not_fatal(warehouse_db, tmp_path):
    blocks = [json_block(0x05, TableBaseInfoFactory()), BlockFactory(type=0x20, doc=None, payload=b"\x01\x02\x03")]
    f = OpProfileFactory(path=tmp_path / "unknown.bin", blocks=blocks)
    result = ingest(warehouse_db, f.path)
    detail = json.loads(rows(warehouse_db, "SELECT detail FROM source WHERE id = ?", result.source_id)[0][0])
    assert detail["unknown_blocks"] == [{"type": 0x20, "offset": f.offsets[1], "size": 4}]
    assert rows(warehouse_db, "SELECT block_type, block_offset, content_size_bytes, padding, known, json "
                              "FROM op_block_raw WHERE block_type = 32") == [(32, f.offsets[1], 4, 1, 0, None)]


def test_reingest_with_force_replaces_rows(warehouse_db, profile):
    first = ingest(warehouse_db, profile.path)
    again = ingest_file(warehouse_db, profile.path, force=True)
    assert again.status == "ok" and again.rows == first.rows == fact_rows(warehouse_db)


def test_card_falls_back_to_the_file_stem(warehouse_db, tmp_path):
    f = OpProfileFactory(path=tmp_path / "my_op.bin", blocks=[json_block(0x0F, {"top_stall_reason_table": {}})])
    ingest(warehouse_db, f.path)
    assert rows(warehouse_db, "SELECT card FROM source") == [("my_op",)]


# --- malformed files ---------------------------------------------------------------------------

def assert_failed(conn, path, *fragments):
    result = ingest_file(conn, path)
    assert result.status == "failed"
    assert result.error.startswith(str(path)) and "\n" not in result.error
    for fragment in fragments:
        assert fragment in result.error, result.error
    assert fact_rows(conn) == 0
    assert rows(conn, "SELECT status FROM source WHERE path = ?", str(path)) == [("failed",)]
    return result.error


def boundaries(data: bytes) -> list[tuple[int, int]]:
    """(offset, type) of every block, walked independently of the source."""
    found, offset = [], 0
    while offset < len(data):
        size, block_type, _, _, _ = HEADER.unpack_from(data, offset)
        found.append((offset, block_type))
        offset += HEADER.size + (4096 if block_type == 1 else 0) + size
    return found


def cuts(data: bytes):
    """Cut points inside every block (in its header, path, payload) with the block they break."""
    blocks = boundaries(data)
    ends = [offset for offset, _ in blocks[1:]] + [len(data)]
    for (offset, block_type), end in zip(blocks, ends):
        for cut in sorted({offset + 1, offset + 11, offset + 12, (offset + end) // 2, end - 1}):
            if offset < cut < end:
                yield cut, offset, block_type


@pytest.mark.parametrize("variant", ("factory", "real"))
def test_truncated_inside_any_block_fails_at_its_offset(warehouse_db, tmp_path, profile, realdata, variant):
    data = profile.data if variant == "factory" else (realdata / REAL).read_bytes()
    checked = 0
    for cut, offset, block_type in cuts(data):
        path = tmp_path / f"cut_{cut}.bin"
        path.write_bytes(data[:cut])
        if cut - offset < 12 and offset == 0:
            continue  # a first header cut short is not recognised as a bin at all (skipped, tested below)
        assert_failed(warehouse_db, path, f"block at byte {offset}")
        checked += 1
    assert checked >= 3 * len(boundaries(data))


@pytest.mark.parametrize("variant", ("factory", "real"))
def test_truncated_at_a_block_boundary_keeps_the_blocks_before(warehouse_db, tmp_path, profile, realdata, variant):
    # a file that ends exactly between two blocks is a well-formed shorter profile
    data = profile.data if variant == "factory" else (realdata / REAL).read_bytes()
    blocks = boundaries(data)
    for count, (offset, _) in enumerate(blocks[1:], start=1):
        path = tmp_path / f"boundary_{offset}.bin"
        path.write_bytes(data[:offset])
        result = ingest(warehouse_db, path)
        assert rows(warehouse_db, "SELECT block_offset, block_type FROM op_block_raw WHERE source_id = ? "
                                  "ORDER BY block_index", result.source_id) == blocks[:count]


def test_first_header_cut_short_is_skipped(warehouse_db, tmp_path, profile):
    path = tmp_path / "short.bin"
    path.write_bytes(profile.data[:7])
    assert ingest_file(warehouse_db, path).status == "skipped"


def corrupt(data: bytes, at: int, value: bytes) -> bytes:
    return data[:at] + value + data[at + len(value):]


@pytest.mark.parametrize("variant", ("factory", "real"))
def test_bad_tag_on_any_block(warehouse_db, tmp_path, profile, realdata, variant):
    data = profile.data if variant == "factory" else (realdata / REAL).read_bytes()
    for offset, block_type in boundaries(data)[1:]:
        path = tmp_path / f"tag_{offset}.bin"
        path.write_bytes(corrupt(data, offset + 11, b"\x5b"))
        assert_failed(warehouse_db, path, f"block at byte {offset} (type 0x{block_type:02x})", "bad tag 0x5b")


@pytest.mark.parametrize("variant", ("factory", "real"))
def test_content_size_past_end_of_file(warehouse_db, tmp_path, profile, realdata, variant):
    data = profile.data if variant == "factory" else (realdata / REAL).read_bytes()
    for offset, block_type in boundaries(data):
        path = tmp_path / f"size_{offset}.bin"
        path.write_bytes(corrupt(data, offset, struct.pack("<Q", len(data))))
        assert_failed(warehouse_db, path, f"block at byte {offset} (type 0x{block_type:02x})",
                      "runs past the end of the file")


@pytest.mark.parametrize("variant", ("factory", "real"))
def test_json_that_does_not_parse(warehouse_db, tmp_path, profile, realdata, variant):
    data = profile.data if variant == "factory" else (realdata / REAL).read_bytes()
    json_blocks = [(o, t) for o, t in boundaries(data) if t in (3, 4, 5, 6, 7, 8, 9, 12, 13, 14, 15)]
    assert json_blocks
    for offset, block_type in json_blocks:
        path = tmp_path / f"json_{offset}.bin"
        path.write_bytes(corrupt(data, offset + 12, b"#"))
        assert_failed(warehouse_db, path, f"block at byte {offset} (type 0x{block_type:02x})", "JSON does not parse")


def test_source_block_shorter_than_its_path(warehouse_db, tmp_path, profile):
    path = tmp_path / "path.bin"
    path.write_bytes(profile.data[:100])
    assert_failed(warehouse_db, path, "block at byte 0 (type 0x01)", "shorter than its 4096-byte path")


@pytest.mark.parametrize(("block", "reason"), (
    (BlockFactory(type=0x0A, doc=None, payload=struct.pack("<Q", 5) + b"\0" * 32), "5 records need 168 bytes"),
    (BlockFactory(type=0x0A, doc=None, payload=b"\1\0"), "too short for the u64 record count"),
    (BlockFactory(type=0x0A, doc=None, payload=memory_records_payload()[:-3]), "JSONDecodeError"),
    (BlockFactory(type=0x0B, doc=None, payload=b"\0" * 36), "not a multiple of 32"),
    (json_block(0x05, ["not", "an", "object"]), "base info: expected an object, got list"),
    (json_block(0x09, {"table_per_block": [{"table_detail": "oops"}]}), "table_detail: expected a list of objects"),
    (json_block(0x02, {"traceEvents": 5}), "type 0x02"),
))
def test_malformed_block_bodies(warehouse_db, tmp_path, block, reason):
    f = OpProfileFactory(path=tmp_path / "bad.bin", blocks=[json_block(0x0F, {"top_stall_reason_table": {"A": 1}}),
                                                            block])
    assert_failed(warehouse_db, f.path, f"block at byte {f.offsets[1]} (type 0x{block.type:02x})", reason)


def test_padding_larger_than_content(warehouse_db, tmp_path):
    path = tmp_path / "pad.bin"
    path.write_bytes(HEADER.pack(2, 0x05, 3, 0x5A, 0x5A) + b"{}")
    assert_failed(warehouse_db, path, "block at byte 0 (type 0x05)", "padding 3 exceeds contentSize 2")


def test_a_bad_block_after_good_ones_leaves_no_rows(warehouse_db, tmp_path):
    blocks = [*every_block(), BlockFactory(type=0x0B, doc=None, payload=b"\0" * 5)]
    f = OpProfileFactory(path=tmp_path / "late.bin", blocks=blocks)
    assert_failed(warehouse_db, f.path, f"block at byte {f.offsets[-1]} (type 0x0b)")


def test_cli_ingests_a_folder_of_operators_side_by_side(runner, warehouse_path, tmp_path, realdata):
    folder = tmp_path / "ops"
    folder.mkdir()
    OpProfileFactory(path=folder / "visualize_data.bin")
    (folder / "real.bin").write_bytes((realdata / REAL).read_bytes())
    result = runner.invoke(cli, ["ingest", str(folder), "--db", str(warehouse_path)])
    assert result.exit_code == 0, result.output
    listed = runner.invoke(cli, ["sql", "SELECT s.card, r.name FROM source s JOIN op_run r ON r.source_id = s.id "
                                        "ORDER BY s.card", "--db", str(warehouse_path), "--format", "json"])
    assert json.loads(listed.output) == [
        {"card": "MatmulLeakyreluCustom_0a4ecf73240c8db04ac5059db7c787a7_2_mix_aic",
         "name": "MatmulLeakyreluCustom_0a4ecf73240c8db04ac5059db7c787a7_2_mix_aic"},
        {"card": "add_custom", "name": "add_custom"}]


# --- the real file --------------------------------------------------------------------------------

def real_blocks(data: bytes) -> dict[int, tuple[int, dict]]:
    """Type -> (offset, parsed JSON) of the real file's blocks, read with struct alone."""
    found, offset = {}, 0
    while offset < len(data):
        size, block_type, padding, version, tag = HEADER.unpack_from(data, offset)
        assert (version, tag) == (0x5A, 0x5A)
        payload = data[offset + 12: offset + 12 + size - padding]
        found[block_type] = (offset, json.loads(payload))
        offset += 12 + size
    return found


def num(value):
    return None if value in ("NA", "N/A") else float(value)


def test_real_file_every_value_matches_its_json(warehouse_db, realdata):
    data = (realdata / REAL).read_bytes()
    blocks = real_blocks(data)
    assert sorted(blocks) == [5, 6, 7, 8, 9, 12]
    result = ingest(warehouse_db, realdata / REAL)
    sid = result.source_id

    base = blocks[5][1]
    assert rows(warehouse_db, "SELECT name, soc, op_type, block_dim, mix_block_dim, duration_us, device_id, pid, "
                              "detail_shape, detail_header FROM op_run") == [
        (base["name"], base["soc"], base["op_type"], int(base["block_dim"]), int(base["mix_block_dim"]),
         base["duration"], int(base["device_id"]), base["pid"], "table",
         json.dumps(base["mix_block_detail"]["head_name"], ensure_ascii=False))]
    assert rebuild_block_table(warehouse_db, sid) == base["mix_block_detail"]
    assert rows(warehouse_db, "SELECT card FROM source WHERE id = ?", sid) == [(base["name"],)]

    for block_type, view in ((6, "chart"), (7, "table")):
        items = blocks[block_type][1]["subblock_detail"]
        assert rows(warehouse_db, "SELECT block_id, block_type, name, unit, value, origin_value FROM compute_load "
                                  "WHERE view = ? ORDER BY source_row", view) == [
            (int(i["block_id"]), i["block_type"], i["name"], i["unit"], num(i["value"]),
             None if "origin_value" not in i else float(i["origin_value"])) for i in items]

    cores = blocks[8][1]["core_memory_map"]
    assert rows(warehouse_db, "SELECT block_id, memory_path, request, bandwidth_gb_s, peak_ratio, display "
                              "FROM memory_unit ORDER BY block_id, source_row") == [
        (int(c["core_no"]), u["memory_path"], int(u["request"]), num(u["bandwidth"]), num(u["peak_ratio"]), u["display"])
        for c in cores for u in c["memory_unit"]]
    assert rows(warehouse_db, "SELECT block_id, op_type, soc, hit, miss, total_request, hit_ratio FROM l2_cache "
                              "ORDER BY block_id") == [
        (int(c["core_no"]), c["op_type"], c["soc"], int(c["L2cache"]["hit"]), int(c["L2cache"]["miss"]),
         int(c["L2cache"]["total_request"]), num(c["L2cache"]["hit_ratio"])) for c in cores]
    assert rows(warehouse_db, "SELECT block_id, pipe, ratio, cycle, total_cycles FROM pipe_ratio "
                              "ORDER BY block_id, pipe") == sorted(
        (int(c["core_no"]), pipe, c[pipe]["ratio"], c[pipe]["cycle"], c[pipe]["total_cycles"])
        for c in cores for pipe in ("Cube", "Vector", "Vector1"))

    offset9, tables = blocks[9]
    for entry in tables["table_per_block"]:
        assert rebuild_table_detail(warehouse_db, sid, int(entry["block_id"])) == entry["table_detail"]

    load = blocks[12][1]
    assert rows(warehouse_db, "SELECT core_id, subcore_id, subcore_type, cycles, throughput, l2cache_hit_rate "
                              "FROM core_load ORDER BY core_id, source_row") == [
        (c["core_id"], int(s["subcore_id"]), s["subcore_type"], int(s["cycles"]), int(s["throughput"]),
         float(s["L2cache_hit_rate"])) for c in load["op_detail"] for s in c["core_detail"]]

    expected_advice = [(5, None, i, a) for i, a in enumerate(base["advice"])]
    expected_advice += [(8, int(c["core_no"]), i, a) for c in cores for i, a in enumerate(c["advice"])]
    expected_advice += [(9, int(e["block_id"]), i, a) for e in tables["table_per_block"] for i, a in enumerate(e["advice"])]
    expected_advice += [(12, None, None, load["advice"])]
    assert rows(warehouse_db, "SELECT block_type, block_id, advice_index, text FROM op_advice "
                              "ORDER BY block_offset, block_id, advice_index") == expected_advice

    raw = rows(warehouse_db, "SELECT block_type, block_offset, json FROM op_block_raw ORDER BY block_index")
    assert [(t, o, json.loads(text)) for t, o, text in raw] == [(t, o, doc) for t, (o, doc) in sorted(
        blocks.items(), key=lambda item: item[1][0])]
    assert result.rows == fact_rows(warehouse_db)


def test_real_file_durations_in_ns_and_bandwidths_in_bytes_per_s(warehouse_db, realdata):
    ingest(warehouse_db, realdata / REAL)
    assert rows(warehouse_db, "SELECT duration_us, dur FROM op_run") == [(300.0660095214844, 300066)]
    assert rows(warehouse_db, "SELECT value, dur FROM op_block ORDER BY source_row, sub_index") == [
        ("250.377579", 250378), ("133.206055", 133206), ("247.620605", 247621),
        ("250.884842", 250885), ("133.335754", 133336), ("248.197571", 248198)]
    cores = real_blocks((realdata / REAL).read_bytes())[8][1]["core_memory_map"]
    # the written "%.6f" GB/s text, scaled by 10**9 on its digits
    expected = [(int(c["core_no"]), u["bandwidth"], int(decimal.Decimal(u["bandwidth"]) * 10**9))
                for c in cores for u in c["memory_unit"]]
    assert rows(warehouse_db, "SELECT block_id, printf('%.6f', bandwidth_gb_s), bandwidth_bytes_per_s FROM memory_unit "
                              "ORDER BY block_id, source_row") == expected
    assert expected[:2] == [(0, "19.008541", 19_008_541_000), (0, "16.503309", 16_503_309_000)]
    assert len(expected) == 40


# --- rebuilding blocks from the tables (what the operator views answer with) --------------------------

def rebuild_table_detail(conn, source_id: int, block_id: int) -> list[dict]:
    """0x09 table_detail of one block, from memory_table alone."""
    tables: dict[int, dict] = {}
    for index, name, size, row, column, value in rows(
            conn, "SELECT table_index, table_name, table_size, row_index, column_index, value FROM memory_table "
                  "WHERE source_id = ? AND block_id = ? ORDER BY table_index, row_index, column_index",
            source_id, block_id):
        table = tables.setdefault(index, {"header_name": [], "row": [], "size": json.loads(size), "table_name": name})
        if row == 0:
            table["header_name"].append(value)
        elif column == 0:
            table["row"].append({"name": value, "value": []})
        else:
            table["row"][-1]["value"].append(value)
    return [tables[index] for index in sorted(tables)]


def rebuild_block_table(conn, source_id: int) -> dict:
    """0x05's table-shaped mix_block_detail, from op_run and op_block alone."""
    header, size = rows(conn, "SELECT detail_header, detail_size FROM op_run WHERE source_id = ?", source_id)[0]
    table_rows: dict[int, list] = {}
    for row, block_id, value in rows(conn, "SELECT source_row, block_id, value FROM op_block WHERE source_id = ? "
                                           "ORDER BY source_row, sub_index", source_id):
        table_rows.setdefault(row, [str(block_id)]).append(value)
    return {"head_name": json.loads(header), "row": [{"value": table_rows[r]} for r in sorted(table_rows)],
            "size": json.loads(size)}
