"""Framework.host.*task_desc_info* and *graph_desc_info*: which operator each device task runs.

MindSpore's host writes them beside the device's raw files (its framework parser,
framework_parser.py, looks in the job folder, then in its ``data`` folder):

- ``Framework.host[.vm].task_desc_info.{device}.slice_{n}``: a line per AI Core operator,
  ``{full op name} {block dim} {task id} {stream id}`` separated by spaces (a newer five-field
  line puts one more field first, which is not read);
- ``Framework.host[.vm].graph_desc_info.{device}.slice_{n}``: a line per operator of
  ``key:value`` fields separated by spaces: ``op_name``, ``op_type``, then per input and output
  ``input_id`` (``output_id``), ``_format``, ``_data_type`` (a number: MindSpore's own type
  enumeration when the file name says ``vm``, GE's otherwise), ``_shape`` (quoted).

In the ``data`` folder of ``container/{device}`` the host names them with the profiling job's id after
the device (``Framework.host.vm.task_desc_info.0.JOB2.slice_0``: MindSpore's framework parser's
``_regex_framework_in_data``, ``[a-zA-Z0-9]+``); the content is the same.

A task is the operator's when its task id is; below 25000, MindSpore's threshold, task ids
repeat across streams, so the stream must match too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import open_binary
from warehouse.sources.kit.numbers import whole

#: the profiling job's id a host file in a container's data folder has after its device (module doc)
JOB = r"(?:[a-zA-Z0-9]{1,64}\.)?"
#: a framework file of one device: (backend ``vm.`` or none, kind, device)
FILE = re.compile(rf"Framework\.host\.(vm\.)?(task_desc_info|graph_desc_info)\.(\d{{1,9}})\.{JOB}slice_\d{{1,9}}")
#: below this task id, a task is keyed by its stream too (MindSpore's _task_id_threshold)
TASK_ID_THRESHOLD = 25000
#: MindSpore's data type numbers (VmDataType, the vm backend)
VM_TYPES = dict(enumerate(
    ("BOOL", "INT", "INT8", "INT16", "INT32", "INT64", "UINT", "UINT8", "UINT16", "UINT32", "UINT64", "FLOAT",
     "FLOAT16", "FLOAT32", "FLOAT64"), start=27))
#: GE's data type numbers (GeDataType)
GE_TYPES = {0: "FLOAT", 1: "FLOAT16", 2: "INT8", 3: "INT32", 4: "UINT8", 6: "INT16", 7: "UINT16", 8: "UINT32",
            9: "INT64", 10: "UINT64", 11: "DOUBLE", 12: "BOOL", 13: "STRING", 16: "COMPLEX64", 17: "COMPLEX128"}
#: GE's format numbers (GeFormat), the common ones
GE_FORMATS = {0: "NCHW", 1: "NHWC", 2: "ND", 3: "NC1HWC0", 4: "FRACTAL_Z", 29: "FRACTAL_NZ", 30: "NCDHW",
              32: "NDC1HWC0", 33: "FRACTAL_Z_3D"}
TENSOR_FIELDS = ("format", "data_type", "shape")
#: an operator's tensor columns (kernel's and mindspore_framework_op's): per side, shapes, data types, formats
TENSOR_COLUMNS = tuple((side, field) for side in (0, 1) for field in ("shape", "data_type", "format"))


def own_name(full_name: str) -> str:
    """An operator's own name: the last part of its scope (MindSpore's op_name; Default/Cast-op10: Cast-op10)."""
    return full_name.rsplit("/", 1)[-1]


def type_of(full_name: str) -> str:
    """An operator's type as MindSpore reads it from the name alone: its own name up to the first '-'
    (Default/Cast-op10: Cast), as its AI CPU parser and its operator type table of a timeline do."""
    return own_name(full_name).split("-")[0]


def host_file(kind: str) -> re.Pattern:
    """The name of a framework file of ``kind`` (task_desc_info, graph_desc_info, point); group 1 the device."""
    return re.compile(rf"Framework\.host\.(?:vm\.)?{kind}\.(\d{{1,9}})\.{JOB}slice_\d{{1,9}}")


@dataclass
class Operator:
    """One operator as the framework files say it."""

    full_name: str
    block_dim: int
    op_type: str | None = None
    #: per side (input, output): per tensor id, its format, data type and shape
    tensors: tuple[dict, dict] = field(default_factory=lambda: ({}, {}))

    @property
    def name(self) -> str:
        """The operator's own name (:func:`own_name`)."""
        return own_name(self.full_name)

    def described(self, side: int, field: str) -> str | None:
        """The side's tensors' ``field`` joined by ';' (as kernel exports write shapes), None when none."""
        tensors = self.tensors[side]
        return ";".join(tensors[key].get(field, "") for key in sorted(tensors)) if tensors else None

    def tensor_columns(self) -> tuple:
        """Its tensors as :data:`TENSOR_COLUMNS` say."""
        return tuple(self.described(side, field) for side, field in TENSOR_COLUMNS)


def framework_files(path: Path, device: int | None) -> dict[str, list[Path]]:
    """The task and graph framework files of ``device`` that MindSpore reads for the raw file ``path``:
    in its folder, that folder's ``data`` folder, and the folder above when it is a ``data`` folder."""
    folders = [path.parent, path.parent / "data"] + ([path.parent.parent] if path.parent.name == "data" else [])
    found = {"task_desc_info": [], "graph_desc_info": []}
    for folder in folders:
        if not folder.is_dir():
            continue
        for candidate in sorted(folder.iterdir()):
            match = FILE.fullmatch(candidate.name)
            if match and candidate.is_file() and (device is None or int(match[3]) == device):
                found[match[2]].append(candidate)
    return found


def lines(path: Path):
    """(line number, text) of a framework file's lines that hold something.

    :raises IngestError: naming the line that is not UTF-8.
    """
    with open_binary(path) as stream:
        for number, raw in enumerate(stream, 1):
            try:
                text = raw.decode("utf-8").strip()
            except UnicodeDecodeError:
                raise IngestError(f"{path}: line {number}: not UTF-8 text") from None
            if text:
                yield number, text


def task_records(path: Path):
    """(line number, full op name, block dim, task id, stream id) of every line of a task_desc_info file.

    :raises IngestError: naming the line that is not four (or five) fields of a name and three numbers.
    """
    for number, text in lines(path):
        fields = text.split(" ")
        fields = fields[1:] if len(fields) == 5 else fields
        if len(fields) != 4 or not all(field.isdigit() for field in fields[1:]):
            raise IngestError(f"{path}: line {number}: expected '<op name> <block dim> <task id> <stream id>', "
                              f"found {text[:80]!r}")
        try:
            yield number, fields[0], *(whole(field) for field in fields[1:])
        except ValueError as exc:
            raise IngestError(f"{path}: line {number}: {exc}") from None


def read_tasks(path: Path, operators: dict[str, Operator]) -> dict[tuple[int | None, int], Operator]:
    """The operators of a task_desc_info file by task key (:func:`task_key`), each added to ``operators``.

    :raises IngestError: as :func:`task_records`.
    """
    tasks = {}
    for _number, name, block_dim, task_id, stream_id in task_records(path):
        operator = operators.setdefault(name, Operator(name, block_dim))
        tasks[task_key(stream_id, task_id)] = operator
    return tasks


def graph_records(path: Path, vm: bool):
    """(line number, operator) of every line of a graph_desc_info file: the operator's name, type and
    tensors (its block dim 0: the task file says it).

    :raises IngestError: naming the line with a field that is not ``key:value``, a tensor id that is not a
        number, or a tensor field before its ``input_id`` / ``output_id``.
    """
    types = VM_TYPES if vm else GE_TYPES
    for number, text in lines(path):
        operator, tensor = Operator("", 0), None
        for field in text.split(" "):
            key, colon, value = field.partition(":")
            if not colon:
                raise IngestError(f"{path}: line {number}: not a 'key:value' field: {field[:40]!r}")
            if key == "op_name":
                operator.full_name = value
            elif key == "op_type":
                operator.op_type = value
            elif key in ("input_id", "output_id"):
                tensor = {}
                operator.tensors[0 if key == "input_id" else 1][_tensor_id(path, number, value)] = tensor
            elif key.split("_", 1)[-1] in TENSOR_FIELDS and key.split("_", 1)[0] in ("input", "output"):
                if tensor is None:
                    raise IngestError(f"{path}: line {number}: {key!r} before its tensor's id")
                tensor[key.split("_", 1)[1]] = _tensor_value(key, value, types, vm)
        yield number, operator


def read_graph(path: Path, operators: dict[str, Operator], vm: bool) -> None:
    """Give the ``operators`` a graph_desc_info file names their type and tensors.

    :raises IngestError: as :func:`graph_records`.
    """
    for _number, described in graph_records(path, vm):
        operator = operators.get(described.full_name)
        if operator is not None:
            operator.op_type, operator.tensors = described.op_type, described.tensors


def _tensor_id(path, number: int, value: str) -> int:
    """A tensor's id.

    :raises IngestError: naming the line when it is not a number.
    """
    if not value.isdigit():
        raise IngestError(f"{path}: line {number}: a tensor id that is not a number: {value[:40]!r}")
    return whole(value)


def _tensor_value(key: str, value: str, types: dict[int, str], vm: bool) -> str:
    """A tensor field as MindSpore shows it: a shape unquoted, a data type (a GE format) by name."""
    if key.endswith("_shape"):
        return value.strip('"')
    if key.endswith("_data_type") and value.isdigit():
        return types.get(int(value), value)
    if key.endswith("_format") and not vm and value.isdigit():
        return GE_FORMATS.get(int(value), value)
    return value


def task_key(stream_id: int | None, task_id: int) -> tuple[int | None, int]:
    """The key a task is known by: its task id, with its stream below ``TASK_ID_THRESHOLD``."""
    return (stream_id if task_id < TASK_ID_THRESHOLD else None), task_id


def operators_of(path: Path, device: int | None) -> tuple[dict[tuple[int | None, int], Operator], list[str]]:
    """The operators of the tasks of ``device`` (by :func:`task_key`) that the framework files beside the
    raw file ``path`` name, and those files' names."""
    files = framework_files(path, device)
    operators: dict[str, Operator] = {}
    tasks = {}
    for task_file in files["task_desc_info"]:
        tasks.update(read_tasks(task_file, operators))
    for graph_file in files["graph_desc_info"]:
        read_graph(graph_file, operators, vm=".vm." in graph_file.name)
    return tasks, [file.name for kind in files.values() for file in kind]
