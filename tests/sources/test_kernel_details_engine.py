"""kernel_details.csv read and converted by DuckDB: the same values as the Python converters of
text.py for every form a cell takes, and the failures named by file and line."""

from __future__ import annotations

import gzip

from tests.factories.text_exports import KERNEL_HEADER_8, KernelDetailsFactory, KernelRowFactory
from warehouse.ingest import ingest_file
from warehouse.sources.kit.text import integer, real, text, us_to_ns

#: (duration, block dim, aic_mac_ratio, name): plain, signed, spaced, exponent, more decimals than the
#: unit (rounded half to even), a long timestamp with its TAB, Unicode spaces, triple quotes, no value
CELLS = [
    ("1.0005", "1e3", " 0.5 ", "\u3000MatMul\u00a0"),
    ("1.0015", "2.5", "1e-3", '"""32,3"""'),
    ("-0.5", "3.5", "-0", "N/A"),
    ("+.5", " 42 ", "Infinity", "-"),
    (" 7.25 ", "+7", "0.186", "a b"),
    ("12.", "0012", "N/A", "x"),
    ("1736410576431631.806\t", "4294967295", "1E2", "y"),
    ("9007199254.740993", "12.", "0", "z"),
]


def test_every_form_converts_as_the_python_converters_do(warehouse_db, tmp_path):
    path = tmp_path / "kernel_details.csv"
    KernelDetailsFactory(path=path, rows=[
        KernelRowFactory(duration=duration, block_dim=block_dim, aic_mac_ratio=ratio, name=name)
        for duration, block_dim, ratio, name in CELLS])
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.rows) == ("ok", len(CELLS)), result.error
    got = warehouse_db.execute("SELECT dur, block_dim, aic_mac_ratio, name FROM kernel ORDER BY source_row").fetchall()
    assert got == [(us_to_ns(d), integer(b), real(r), text(n)) for d, b, r, n in CELLS]
    assert got[0] == (1000, 1000, 0.5, "MatMul") and got[6][0] == 1736410576431631806


def test_a_gzip_export_is_read_and_no_scratch_is_left_beside_the_warehouse(warehouse_db, tmp_path):
    written = KernelDetailsFactory(path=tmp_path / "in" / "kernel_details.csv")
    packed = tmp_path / "in" / "kernel_details.csv.gz"
    packed.write_bytes(gzip.compress(written.data))
    written.path.unlink()
    result = ingest_file(warehouse_db, packed)
    assert (result.status, result.rows) == ("ok", 2), result.error
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["in", *(p.name for p in tmp_path.glob("warehouse*"))])


def test_a_record_longer_than_the_header_fails_naming_its_line(warehouse_db, tmp_path):
    written = KernelDetailsFactory(path=tmp_path / "kernel_details.csv", rows=[KernelRowFactory()] * 3)
    lines = written.data.split(b"\r\n")
    lines[3] += b",extra"
    written.path.write_bytes(b"\r\n".join(lines))
    result = ingest_file(warehouse_db, written.path)
    assert result.error == f"{written.path}: line 4: 47 fields for a header of 46"
    assert warehouse_db.execute("SELECT count(*) FROM kernel").fetchone() == (0,)


def test_a_quote_never_closed_fails_as_the_record_reader_reads_it(warehouse_db, tmp_path):
    written = KernelDetailsFactory(path=tmp_path / "kernel_details.csv", header=KERNEL_HEADER_8,
                                   rows=[KernelRowFactory()] * 3)
    lines = written.data.split(b"\r\n")
    lines[2] = lines[2].rpartition(b",")[0] + b',"0'  # the last field of record 2 opens a quote
    written.path.write_bytes(b"\r\n".join(lines))
    result = ingest_file(warehouse_db, written.path)
    # DuckDB drops what follows such a quote; the record reader reads it into the field, as before
    assert result.error.startswith(f"{written.path}: line 4: column 'Block Dim': not a number: '0\\r\\n50,")
    assert warehouse_db.execute("SELECT count(*) FROM kernel").fetchone() == (0,)
    assert warehouse_db.execute("SELECT count(*) FROM kernel").fetchone() == (0,)
