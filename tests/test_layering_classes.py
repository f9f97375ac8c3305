"""Layering: which kernel classes are compute, and which trace slices are GPU kernels (NCCL ones
communication), are stated in one view each (issue 33).

The compute set is the op_class view's (warehouse/model/views/op_class.sql), a trace's GPU kernels
and their NCCL class the gpu_kernel view's; every other SQL file joins them. No SQL under queries/
or warehouse/ may list classes holding 'aic' (op_class IN (...) or NOT IN), match names against an
NCCL pattern or pick the kernel slice categories itself, except the files listed here, each with its
reason. A new file that does fails here, naming the file and what it restates.
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ROOTS = [REPO / "queries", REPO / "warehouse"]
DEFINITIONS = {
    "warehouse/model/views/op_class.sql": "the compute set itself",
    "warehouse/model/views/gpu_kernel.sql": "a trace's GPU kernels and their NCCL class themselves",
}
EXCEPTIONS: dict[str, str] = {}

CLASS_LIST = re.compile(r"op_class\s+(?:NOT\s+)?IN\s*\(([^)]*)\)", re.IGNORECASE)
NCCL = re.compile(r"'%nccl%'", re.IGNORECASE)
KERNEL_CATEGORY = re.compile(r"'kernel'\s*,\s*'Kernel'")  # a trace's GPU kernel slices


def restatements(text: str) -> list[str]:
    """What the SQL ``text`` (its comment lines left out) restates of the two meanings."""
    code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("--"))
    found = [match[0] for match in CLASS_LIST.finditer(code) if "'aic'" in match[1].lower()]
    return found + NCCL.findall(code) + KERNEL_CATEGORY.findall(code)


def _sql_files():
    for root in ROOTS:
        for path in sorted(root.rglob("*.sql")):
            if "_bundled" not in path.parts:
                yield path.relative_to(REPO).as_posix()


def test_the_scan_sees_each_restatement():
    assert restatements("where op_class in ('aic', 'aiv')") == ["op_class in ('aic', 'aiv')"]
    assert restatements("WHERE op_class NOT IN ('mix_cv', 'AIC')") == ["op_class NOT IN ('mix_cv', 'AIC')"]
    assert restatements("lower(name) like '%NCCL%'") == ["'%NCCL%'"]
    assert restatements("c.value IN ('kernel', 'Kernel')") == ["'kernel', 'Kernel'"]
    assert restatements("op_class in ('mix_cv', 'mix_comm_aiv')") == []
    assert restatements("-- op_class IN ('aic') in prose") == []


def test_no_sql_outside_the_two_views_restates_them():
    found = {path: hit for path in _sql_files() if (hit := restatements((REPO / path).read_text(encoding="utf-8")))}
    assert set(DEFINITIONS) <= set(_sql_files())
    unexplained = {path: hit for path, hit in found.items() if path not in DEFINITIONS and path not in EXCEPTIONS}
    assert unexplained == {}, "join the op_class / gpu_kernel views, or list the file with its reason"
    stale = sorted(set(EXCEPTIONS) - set(found))
    assert stale == [], "these exceptions no longer restate anything: remove them"
