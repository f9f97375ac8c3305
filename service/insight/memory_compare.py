"""Compare mode of the Memory module: a rank's memory curve and operator size bounds beside the baseline rank's.

With a rank set as baseline the Memory page asks its curve and its size slider's bounds with
``isCompare`` (Ascend/msinsight ``modules/memory/src/components/DynamicLineChart.tsx``,
``MemoryDetailTable.tsx`` buildSearchSizeParam). The real server reads both ranks' memory each on
its own time zero and merges them (``server/src/modules/memory/handler/``):

- the curve (QueryMemoryViewHandler.cpp GetCompareGraphLegends, GetCompareGraphLines): the rank's
  legends " of Compare", then the baseline's, time excepted, " of Baseline"; the points merged in
  time order, a time both have on one row, a side with no point at a time NaN (``NULL``); no title;
- the bounds (QueryMemoryOperatorSizeHandler.cpp ExecuteComparisonAlgorithm): the smallest
  difference a pair of blocks can show (the rank's smallest less the baseline's largest) and the
  largest (the rank's largest less the baseline's smallest).
"""

from __future__ import annotations

import math

COMPARE, BASELINE = " of Compare", " of Baseline"


def curve_legends(compare: list[str], baseline: list[str]) -> list[str]:
    """GetCompareGraphLegends: the time column once, then each side's series named by side."""
    return compare[:1] + [legend + COMPARE for legend in compare[1:]] + [legend + BASELINE for legend in baseline[1:]]


def curve_points(compare: list[tuple], compare_width: int, baseline: list[tuple], baseline_width: int) -> list[tuple]:
    """GetCompareGraphLines: rows of (time, the rank's series, the baseline's series), by time."""
    mine_gap, base_gap = (math.nan,) * max(compare_width - 1, 0), (math.nan,) * max(baseline_width - 1, 0)
    merged, i, j = [], 0, 0
    while i < len(compare) or j < len(baseline):
        if j >= len(baseline) or (i < len(compare) and compare[i][0] < baseline[j][0]):
            merged.append((*compare[i], *base_gap))
            i += 1
        elif i >= len(compare) or compare[i][0] > baseline[j][0]:
            merged.append((baseline[j][0], *mine_gap, *baseline[j][1:]))
            j += 1
        else:
            merged.append((*compare[i], *baseline[j][1:]))
            i, j = i + 1, j + 1
    return merged


def size_bounds(compare: tuple[float, float], baseline: tuple[float, float]) -> tuple[float, float]:
    """ExecuteComparisonAlgorithm: (smallest, largest) difference of a block's size between the ranks."""
    return compare[0] - baseline[1], compare[1] - baseline[0]
