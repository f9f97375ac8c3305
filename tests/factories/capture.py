"""factory-boy factories that write a capture's metadata files byte for byte.

As the real files of MindInsight's resources are written: msprof's ``start_info.{N}`` / ``end_info.{N}``
compact JSON with its numbers as strings, ``{file}.done`` as ``filesize:{bytes}`` and a line end;
MindSpore's ``host_start.log.{N}`` a ``[Device{N}]`` section and ``key: value`` lines, LF ends; its older
profiler's ``min_cycle_counter_{N}.txt`` a float as Python prints it, no line end, and
``step_trace_point_info.json`` as ``json.dump`` writes a dict. Each
factory takes ``path`` and returns a :class:`~factories.text_exports.CsvFile` (``rows`` what was
written, ``data`` the bytes).
"""

from __future__ import annotations

import json

import factory

from factories.text_exports import CsvExportFactory


class StartInfoFactory(CsvExportFactory):
    """start_info: the real file's instant on its two clocks (its end_info has the same shape)."""

    rows = factory.LazyFunction(lambda: [{"collectionDateBegin": "2023-08-18 14:27:04.324979",
                                          "collectionTimeBegin": "1692340024324979",
                                          "clockMonotonicRaw": "56579931060630"}])
    data = factory.LazyAttribute(lambda o: json.dumps(o.rows[0], separators=(",", ":")).encode("utf-8"))


class HostStartLogFactory(CsvExportFactory):
    """host_start.log: the real file's host clocks of device 0."""

    device = 0
    rows = factory.LazyFunction(lambda: [("clock_realtime", 1591183963784568740), ("clock_monotonic_raw", 261003032627)])
    data = factory.LazyAttribute(lambda o: "".join(
        [f"[Device{o.device}]\n", *(f"{key}: {value}\n" for key, value in o.rows)]).encode("utf-8"))

    class Meta:
        exclude = ("device",)


class DoneMarkFactory(CsvExportFactory):
    """A .done mark of a file of ``rows[0]`` bytes."""

    rows = factory.LazyFunction(lambda: [130])
    data = factory.LazyAttribute(lambda o: f"filesize:{o.rows[0]}\n".encode("utf-8"))


class MinCycleCounterFactory(CsvExportFactory):
    """min_cycle_counter: MindInsight's run_1 file (its device's first cycle counter)."""

    rows = factory.LazyFunction(lambda: [43806841592.0])
    data = factory.LazyAttribute(lambda o: str(o.rows[0]).encode("utf-8"))


class PointInfoFactory(CsvExportFactory):
    """step_trace_point_info: MindInsight's run_1 file (the operators starting the forward and ending the backward
    pass)."""

    rows = factory.LazyFunction(lambda: [{"fp_start": "Default/Cast-op6", "bp_end": "Default/TransData-op7"}])
    data = factory.LazyAttribute(lambda o: json.dumps(o.rows[0]).encode("utf-8"))
