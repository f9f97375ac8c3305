"""The device a MindSpore intermediate is about: the number its file name carries.

MindSpore writes one file per device into one profiler folder (``step_trace_raw_0_detail_time.csv``
beside ``step_trace_raw_10_detail_time.csv``), so the folder names no rank; the file name does.
"""

from __future__ import annotations

import re
from decimal import Decimal
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.sources.kit.numbers import whole
from warehouse.sources.kit.rank_layout import rank_or_unknown
from warehouse.sources.kit import multirow
from warehouse.sources.kit.csv_bulk import ingest_csv
from warehouse.sources.kit.text import CsvTable, has_headers, insert_sql, load_json_object
from warehouse.sources.mindspore.framework import lines


def device_of(path: str | Path, pattern: re.Pattern) -> tuple[int, int | None]:
    """(rank, device) of the file: the device number ``pattern``'s group 1 finds in the file name
    (a ``.gz`` suffix ignored) as both, else the rank the folders say (-1 when they do not) and no
    device."""
    match = pattern.fullmatch(Path(path).name.removesuffix(".gz"))
    if match is None:
        return rank_or_unknown(path).rank, None
    device = whole(match[1])
    return device, device


def device_csv_source(spec: CsvTable, pattern: re.Pattern) -> tuple[Callable[[Any], bool], Callable[..., Outcome]]:
    """The ``detect`` and ``ingest`` of a source reading one MindSpore CSV into ``spec.table``, each
    row with the device of the file name (:func:`device_of`)."""

    def detect(path) -> bool:
        return has_headers(path, spec.required, spec.excluded)

    def ingest(conn, path, source_id) -> Outcome:
        rank, device = device_of(path, pattern)
        outcome = ingest_csv(conn, path, source_id, spec, rank)
        outcome.device_id = device
        return outcome

    return detect, ingest


def device_csv_versions(specs: tuple[CsvTable, ...], pattern: re.Pattern
                        ) -> tuple[Callable[[Any], bool], Callable[..., Outcome]]:
    """The ``detect`` and ``ingest`` of a source reading a MindSpore CSV whose versions name their columns
    apart: ``specs`` holds one declaration per version, and a file is read by the first whose required
    header names it has (:func:`device_csv_source`)."""
    versions = [device_csv_source(spec, pattern) for spec in specs]

    def detect(path) -> bool:
        return any(is_version(path) for is_version, _ in versions)

    def ingest(conn, path, source_id) -> Outcome:
        return next(read for is_version, read in versions if is_version(path))(conn, path, source_id)

    return detect, ingest


def device_records_source(pattern: re.Pattern, table: str, columns: list[str],
                          records: Callable[[Path], Iterable[tuple]]) -> tuple[Callable[[Any], bool], Callable[..., Outcome]]:
    """The ``detect`` and ``ingest`` of a source reading one MindSpore file named by ``pattern`` (a
    ``.gz`` suffix ignored) into ``table``: ``records(path)`` gives each row's number and then its
    ``columns``, and each row gets the device of the file name (:func:`device_of`)."""
    sql = insert_sql(table, ["source_id", "source_row", "rank_id", *columns])

    def detect(path) -> bool:
        return pattern.fullmatch(Path(path).name.removesuffix(".gz")) is not None

    def ingest(conn, path, source_id) -> Outcome:
        path = Path(path)
        rank, device = device_of(path, pattern)
        rows = [(source_id, number, rank, *values) for number, *values in records(path)]
        multirow.insert_rows(conn, sql, rows)
        return Outcome(rows=len(rows), rank_id=rank, device_id=device, detail={"table": table})

    return detect, ingest


def named_text(path: str | Path, patterns: tuple[re.Pattern, ...], first_line: Callable[[str], bool]) -> bool:
    """Whether a MindSpore text file is one of its kind: its name (a ``.gz`` suffix ignored) is one of
    ``patterns`` and its first line that holds something passes ``first_line`` (or it has none). A
    file so named that is not UTF-8 text is one too: reading it fails naming the line."""
    if not any(pattern.fullmatch(Path(path).name.removesuffix(".gz")) for pattern in patterns):
        return False
    try:
        first = next(lines(Path(path)), None)
    except IngestError:
        return True
    return first is None or first_line(first[1])


def device_json_figures(path: str | Path, keys: tuple[str, ...]) -> list:
    """The numbers a MindSpore summary JSON (a small object of figures) holds at ``keys``, None where absent.

    :raises IngestError: naming the key whose value is not a number, or the top level when it is no object.
    """
    document = load_json_object(path)
    figures = []
    for key in keys:
        value = document.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, Decimal))
                                  or not -(1 << 63) < value < 1 << 63):
            raise IngestError(f"{path}: {key}: expected a number, found {str(value)[:40]!r}")
        figures.append(value)
    return figures


def table_rows(path: Path, head: tuple[str | None, ...], total: str, width: int,
               convert: Callable[[list[str]], tuple]) -> tuple[list[tuple], str | None]:
    """The rows of a MindSpore text table (its parsers' tables of space-separated fields) and its total: first the
    lines ``head`` (their words one space apart; None a line of dashes, which tabulate writes and the plain
    layouts do not), then a row per line, ``convert`` of its ``width`` fields, and last the line starting
    ``total``, whose text after it is returned as written (None when the file has none).

    :raises IngestError: naming the line that is not the head's, a row of another width or whose figures do not
        read, or a line after the total.
    """
    rows, figure, expected = [], None, list(head)
    for number, text in lines(path):
        while expected and expected[0] is None and not set(text) <= set("- "):
            expected.pop(0)  # no dashes under the header
        if expected:
            line = expected.pop(0)
            if line is not None and " ".join(text.split()) != line:
                raise IngestError(f"{path}: line {number}: expected {line!r}, found {text[:80]!r}")
            continue
        if figure is not None:
            raise IngestError(f"{path}: line {number}: a line after the total line")
        if text.startswith(total):
            figure = text.removeprefix(total).strip()
            continue
        fields = text.split()
        try:
            if len(fields) != width:
                raise ValueError(f"{len(fields)} fields for a header of {width}")
            rows.append(convert(fields))
        except ValueError as exc:
            raise IngestError(f"{path}: line {number}: {exc}") from None
    return rows, figure
