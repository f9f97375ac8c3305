"""Framework.host[.vm].point.{device}.slice_{n}: the operators that mark a step's points.

MindSpore's host writes a line per point, ``{tag} {full op name}``: the operator whose task the
training trace's record of that tag marks (tag 1 the forward pass's start, 2 the backward pass's
end, then a start and an end per reduce operator; MindSpore's step trace parser names its reduce
columns by them). Each line is a row of ``mindspore_framework_point``; the device is the number in
the file name. A line that is not a number and a name fails the file naming the line.
"""

from __future__ import annotations

from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.kit.numbers import whole
from warehouse.sources.mindspore.device import device_records_source
from warehouse.sources.mindspore.framework import host_file, lines

KIND = "mindspore_framework_point"
NAME = host_file("point")


def records(path: Path):
    """(line number, tag, op name) of every line of the file.

    :raises IngestError: naming the line that is not ``{tag} {op name}``.
    """
    for number, text in lines(path):
        tag, _, name = text.partition(" ")
        if not tag.isdigit() or not name.strip() or len(tag) > 9:
            raise IngestError(f"{path}: line {number}: expected '<tag> <op name>', found {text[:80]!r}")
        yield number, whole(tag), name.strip()


detect, ingest = device_records_source(NAME, "mindspore_framework_point", ["tag", "op_name"], records)
