"""kernel_details.csv: the device kernels of a torch_npu text export (8, 32 or 46 columns).

Rows go to ``kernel`` with origin ``kernel_details_csv`` (see :mod:`warehouse.sources.kit.kernel_csv`).
"""

from __future__ import annotations

from warehouse.sources.kit.kernel_csv import kernel_source

KIND = "kernel_details_csv"
REQUIRED = frozenset({"Name", "Accelerator Core", "Start Time(us)", "Duration(us)"})
detect, ingest = kernel_source(KIND, REQUIRED)
