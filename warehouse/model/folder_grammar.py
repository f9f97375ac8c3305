"""The folder grammar of the profilers' outputs: what each folder and sidecar name means.

This is the one place these names are parsed. :mod:`warehouse.model.runs` reads it to find the
run an input belongs to, :mod:`~warehouse.sources.kit.rank_layout` to find its rank and device,
and the sources that tell a torch_npu rank folder from other folders ask it too::

    RUN/                              a run: the folder holding its rank folders
      {worker}_ascend_pt/             a rank folder (torch_npu; MindSpore: {worker}_ascend_ms;
                                      MindStudio Insight's samples: test_rank_{N}); a worker
                                      called rank{N} names rank N
        profiler_info_{N}.json        the rank's sidecar: it marks a rank folder, N is the rank
        ASCEND_PROFILER_OUTPUT/       the rank's exports
        PROF_*/                       the CANN half of the rank, laid out as msprof's below
      cluster_analysis_output/        msprof-analyze's cluster outputs of the run above it
    PROF_*/                           msprof: a run of one process (a run of its own when no
                                      rank folder holds it)
      device_{N}/info.json.{N}        device N, and the RANK_ID the process ran with
      device_{N}/start_info.{N}       the device's clock: collectionTimeBegin (us since the epoch)
                                      taken at clockMonotonicRaw (ns of the monotonic clock)
      device_{N}/timeline/            the device's timeline JSONs, {what}_{numbers}.json: msprof_*
                                      (every track of one iteration), task_time_*, hccl_*, ... (one
                                      track each, repeated in msprof_*), step_trace_* (the iterations)
      host/info.json                  the host's RANK_ID
      mindstudio_profiler_output/     its exports (older releases: device_{N}/summary/)

Names only: reading a sidecar's content is :mod:`~warehouse.sources.kit.rank_layout`'s.
"""

from __future__ import annotations

import re
from pathlib import Path

#: a framework's rank folder, ``{worker}_ascend_pt`` (torch_npu) or ``{worker}_ascend_ms`` (MindSpore)
FRAMEWORK_RANK_FOLDER = re.compile(r"^(?P<worker>.+)_ascend_(?P<framework>pt|ms)$")
#: the worker name that states its rank (``rank3_ascend_pt``)
RANK_WORKER = re.compile(r"^rank(\d+)$")
#: MindStudio Insight's sample rank folders
INSIGHT_RANK_FOLDER = re.compile(r"^test_rank_(\d+)$")
#: torch_npu's framework suffix (its rank folders hold the CANN half of their rank db)
TORCH_NPU = "pt"
PROFILER_INFO = re.compile(r"^profiler_info_(\d+)\.json$")
PROF_FOLDER = re.compile(r"^PROF_")
DEVICE_FOLDER = re.compile(r"^device_(\d+)$")
DEVICE_INFO = re.compile(r"^info\.json\.(\d+)$")
HOST_FOLDER = "host"
TIMELINE_FOLDER = "timeline"
#: a timeline JSON's name: what it holds, then numbers (``task_time_0_2_1.json``: task_time)
TIMELINE_FILE = re.compile(r"^(?P<what>[a-z_]+?)_\d+(?:_\d+)*\.json$")
#: the timeline JSON holding every track of its iteration, and the one holding the iterations
TIMELINE_WHOLE = "msprof"
TIMELINE_STEPS = "step_trace"
HOST_INFO = "info.json"
CLUSTER_FOLDER = "cluster_analysis_output"
#: MindSpore's raw profiler files (seed 003): a job folder holds them, some in its ``data`` folder
MINDSPORE_RAW_FILE = re.compile(r"^(hwts\.log\.data\.45|training_trace\.46|DATA_PREPROCESS|Framework\.host)\.")
MINDSPORE_DATA_FOLDER = "data"
#: MindSpore's profiler JSONs about one device of the run whose profiler folder holds them: its data
#: pipeline's, its FLOPs' (in all and per scope), its dynamic shapes', its timeline (a Chrome trace, which
#: elsewhere is a run of its own) and the timeline's summary, its parallel strategy, and the marey graph of a
#: step with its operators' scopes (MindInsight's, kept beside them)
MINDSPORE_DEVICE_JSON = re.compile(
    r"^(pipeline_profiling|minddata_cpu_utilization|flops_summary|flops_scope|dynamic_shape_info|parallel_strategy|"
    r"ascend_marey_timeline|scope_map|"
    r"(ascend|gpu)_timeline_summary|(ascend_|gpu_)?timeline_display)_\d+\.json(\.gz)?$")
#: MindSpore's timeline of one device (MindSpore's timeline generators; the older profiler named it
#: ``timeline_display_{device}.json``): its rank is the device its name carries
MINDSPORE_TIMELINE = re.compile(r"^(?:ascend_|gpu_)?timeline_display_(\d{1,9})\.json(?:\.gz)?$")
#: how many folders above a file its rank is looked for (rank folder/ASCEND_PROFILER_OUTPUT/file,
#: PROF_*/device_{N}/summary/file), and one more for the rank folder holding a PROF_* folder
RANK_DEPTH = 3
#: how many folders above a file its run's layout is looked for
RUN_DEPTH = 6


def is_mindspore_raw_in_data(path: Path) -> bool:
    """A MindSpore raw file in its job folder's ``data`` folder (it belongs to the job folder's run)."""
    return path.parent.name == MINDSPORE_DATA_FOLDER and MINDSPORE_RAW_FILE.match(path.name) is not None


def is_mindspore_device_json(name: str) -> bool:
    """A MindSpore profiler JSON about one device, part of its folder's run."""
    return MINDSPORE_DEVICE_JSON.match(name) is not None


def rank_of_mindspore_timeline(name: str) -> int | None:
    """The device a MindSpore timeline's file name carries (its rank), else None (not one)."""
    match = MINDSPORE_TIMELINE.match(name)
    return int(match[1]) if match else None


def is_rank_folder(name: str) -> bool:
    """A rank folder's name (``*_ascend_pt``, ``*_ascend_ms``, ``test_rank_N``)."""
    return bool(FRAMEWORK_RANK_FOLDER.match(name) or INSIGHT_RANK_FOLDER.match(name))


def rank_of_folder(name: str) -> int | None:
    """The rank a rank folder's name states (``rank{N}_ascend_pt|ms``, ``test_rank_{N}``), else None."""
    framework = FRAMEWORK_RANK_FOLDER.match(name)
    match = RANK_WORKER.match(framework["worker"]) if framework else INSIGHT_RANK_FOLDER.match(name)
    return int(match[1]) if match else None


def is_torch_npu_folder(name: str) -> bool:
    """A torch_npu rank folder (``*_ascend_pt``)."""
    framework = FRAMEWORK_RANK_FOLDER.match(name)
    return bool(framework) and framework["framework"] == TORCH_NPU


def is_prof_folder(name: str) -> bool:
    """An msprof ``PROF_*`` folder."""
    return bool(PROF_FOLDER.match(name))


def device_of_folder(name: str) -> int | None:
    """N of a ``device_{N}`` folder, else None."""
    match = DEVICE_FOLDER.match(name)
    return int(match[1]) if match else None


def rank_of_profiler_info(name: str) -> int | None:
    """N of a ``profiler_info_{N}.json`` file, else None."""
    match = PROFILER_INFO.match(name)
    return int(match[1]) if match else None


def is_device_info(name: str) -> bool:
    """A device's ``info.json.{N}``."""
    return bool(DEVICE_INFO.match(name))


def timeline_file(path: Path) -> str | None:
    """What an msprof timeline JSON holds (``msprof``, ``task_time``, ``step_trace``, ...), from its name,
    when it sits in a ``PROF_*/device_{N}/timeline/`` folder; else None."""
    match = TIMELINE_FILE.match(path.name)
    folder = path.parent
    if match is None or folder.name != TIMELINE_FOLDER or device_of_folder(folder.parent.name) is None:
        return None
    return match["what"] if is_prof_folder(folder.parent.parent.name) else None


def start_info(device_folder: Path) -> Path | None:
    """The ``start_info.{N}`` of a ``device_{N}`` folder (None when the folder is not one)."""
    device = device_of_folder(device_folder.name)
    return None if device is None else device_folder / f"start_info.{device}"
