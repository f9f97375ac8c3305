"""hccl_raw_{device}.csv: MindSpore's communication per step of one device.

MindSpore's hccl parser (mindspore/profiler/parser/hccl_parser.py) writes a record per step:
``step_num``, ``communication_cost`` and ``wait_cost`` (ms), ``link_info`` (JSON:
``{"{src}-{dst}": {"SDMA"|"RDMA": [time ms, size KB, bandwidth KB/s, ...]}}``) and
``communication_operator_cost`` (JSON: per operator ``[step, cost ms, wait ms, link_info]``), then a
last record ``-``, the mean of the steps. MindInsight's cluster pages show these (its cluster hccl and
parallel analysers; tests/st/func/profiler/test_parallel_proposer.py expects each rank's link summary,
the ``-`` record's links). The steps go to ``mindspore_hccl_step``, their links to
``mindspore_hccl_link``, their operators to ``mindspore_hccl_op``; the mean record is the mean of
every step's figures (on MindInsight's cluster_propose sample too, steps 1 to N), derivable from the
steps, so it is not stored (its line is noted in ``source.detail``).
"""

from __future__ import annotations

import json
import re
from decimal import Decimal

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.sources.kit.text import has_headers, insert_sql, ms_to_ns, open_records, scaled
from warehouse.sources.mindspore.device import device_of
from warehouse.sources.mindspore.step_trace_raw import AVERAGE, step_number

KIND = "mindspore_hccl_raw_csv"
NAME = re.compile(r"hccl_raw_(\d{1,9})\.csv")
HEADER = ("step_num", "communication_cost", "wait_cost", "link_info", "communication_operator_cost")
LINK = re.compile(r"(\d{1,9})-(\d{1,9})")
kb_to_bytes = scaled(1000)
STEP = insert_sql("mindspore_hccl_step", ["source_id", "source_row", "rank_id", "step_id", "communication_ns",
                                          "wait_ns"])
LINKS = insert_sql("mindspore_hccl_link", ["source_id", "source_row", "rank_id", "step_id", "src_rank", "dst_rank",
                                           "link_type", "time_ns", "size_bytes", "bandwidth_bytes_per_s"])
OPS = insert_sql("mindspore_hccl_op", ["source_id", "source_row", "rank_id", "step_id", "name", "communication_ns",
                                       "wait_ns"])


def detect(path) -> bool:
    return has_headers(path, frozenset(HEADER))


def ingest(conn, path, source_id) -> Outcome:
    rank, device = device_of(path, NAME)
    steps, links, ops, averages = [], [], [], []
    with open_records(path) as records:
        places = {name: records.header.index(name) for name in HEADER}
        for number, line, row, short in records:
            if short:
                raise IngestError(f"{path}: line {line}: {len(row)} fields for a header of {len(records.header)}")
            cell = {name: row[index] for name, index in places.items()}
            if cell["step_num"].strip() == AVERAGE:
                averages.append(line)
                continue
            try:
                step = step_number(cell["step_num"])
                steps.append((source_id, number, rank, step, ms_to_ns(cell["communication_cost"]),
                              ms_to_ns(cell["wait_cost"])))
                links += [(source_id, number, rank, step, *link) for link in _links(_json(cell["link_info"]))]
                ops += [(source_id, number, rank, step, *op) for op in _operators(_json(
                    cell["communication_operator_cost"]))]
            except ValueError as exc:
                raise IngestError(f"{path}: line {line}: {exc}") from None
    conn.executemany(STEP, steps)
    conn.executemany(LINKS, links)
    conn.executemany(OPS, ops)
    detail = {"table": "mindspore_hccl_step", "mean_record_lines": averages}
    return Outcome(rows=len(steps) + len(links) + len(ops), rank_id=rank, device_id=device, detail=detail)


def _json(text: str):
    """A JSON cell, its decimals exact.

    :raises ValueError: when it is not JSON.
    """
    try:
        return json.loads(text, parse_float=Decimal)
    except (json.JSONDecodeError, RecursionError):
        raise ValueError(f"not JSON: {text[:40]!r}") from None


def _links(info) -> list[tuple]:
    """(src, dst, type, time ns, bytes, bytes/s) of each link of a link_info object.

    :raises ValueError: naming the link whose name or figures do not read.
    """
    if not isinstance(info, dict):
        raise ValueError("link_info: expected an object")
    rows = []
    for name, kinds in info.items():
        match = LINK.fullmatch(name)
        if match is None or not isinstance(kinds, dict):
            raise ValueError(f"link_info: {name[:40]!r}: expected '<src>-<dst>' with an object of transports")
        for link_type, figures in kinds.items():
            if not isinstance(figures, list) or len(figures) < 3 or not all(_is_number(f) for f in figures[:3]):
                raise ValueError(f"link_info: {name}: {link_type[:20]!r}: expected [time, size, bandwidth]")
            time_ms, size_kb, bandwidth = figures[:3]
            rows.append((int(match[1]), int(match[2]), link_type, ms_to_ns(time_ms), kb_to_bytes(size_kb),
                         float(bandwidth) * 1000))
    return rows


def _operators(costs) -> list[tuple]:
    """(name, time ns, wait ns) of each operator of a communication_operator_cost object.

    :raises ValueError: naming the operator whose figures do not read.
    """
    if not isinstance(costs, dict):
        raise ValueError("communication_operator_cost: expected an object")
    rows = []
    for name, figures in costs.items():
        if not isinstance(figures, list) or len(figures) < 3 or not all(_is_number(f) for f in figures[1:3]):
            raise ValueError(f"communication_operator_cost: {name[:60]!r}: expected [step, cost, wait, ...]")
        rows.append((name, ms_to_ns(figures[1]), ms_to_ns(figures[2])))
    return rows


def _is_number(value) -> bool:
    return isinstance(value, (int, Decimal)) and not isinstance(value, bool) and abs(value) < 1 << 53
