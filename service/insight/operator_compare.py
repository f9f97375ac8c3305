"""Compare mode of the Operator module: a rank's table paired with the baseline rank's, as the real server pairs them.

In compare mode (``isCompare``, a rank set as baseline) the Operator page hides its pies and the
"Operator" grouping (Ascend/msinsight ``modules/operator/src/components/operator/Operator.tsx``,
``Filter.tsx``) and reads each table row as ``{compare, baseline, diff}`` (``DetailTable.tsx``
handleDiffData: the diff row shown, baseline and compare under it). The real server
(``server/src/modules/operator/handler/``) reads every group or operator of both ranks, whatever
``topK`` (``DbSummaryDataBase.cpp`` binds -1 when isCompare), filtered, then:

- ``operator/statistic`` (QueryOpStatisticInfoHandler.cpp GetCmpDataVec, CalDiffDataByGroup): groups
  matched on type and core ("Operator Type"), name, shape and core ("Input Shape"), type
  ("Communication Operator Type"), in that key's order; figures subtracted with 3 decimals
  (NumberUtil::StringDoubleMinus), the count as its integer part (TruncateNumberString, "0" for a
  missing side); the other text fields as the server writes them (see :func:`_statistic_diff`);
- ``operator/details`` (QueryOpDetailInfoHandler.cpp GetCmpDataVec, FromatDatailData): each side's
  operators by name then start, walked in step and paired while the names agree; times, waits and
  block counts subtracted when both are numbers, else ``"compare->baseline"``, as the text fields
  and the PMU figures (``"->baseline"``, ``"compare->"`` for a figure one rank lacks);

then both sort on the diff's ``orderBy`` column (``order`` "ascend", else descending; numbers before
other text; without a known column, the diff's total time, or duration, compared as text), keep the
first ``topK`` (all when -1) as ``total`` and answer the page asked (past the last page: the last).
A missing side is the server's empty row: every field "".
"""

from __future__ import annotations

import functools

from service.insight.compare import fixed_minus, is_double, truncated

STATISTIC_KEYS = ("opType", "opName", "accCore", "inputShape", "totalTime", "count", "avgTime", "maxTime", "minTime")
STATISTIC_FIGURES = ("totalTime", "count", "avgTime", "maxTime", "minTime")
DETAIL_KEYS = ("name", "type", "accCore", "startTime", "duration", "waitTime", "blockNum", "inputShape", "inputType",
               "inputFormat", "outputShape", "outputType", "outputFormat")
DETAIL_FIGURES = ("startTime", "duration", "waitTime", "blockNum")
DETAIL_ARROWS = ("type", "accCore", "inputShape", "inputType", "inputFormat", "outputShape", "outputType",
                 "outputFormat")
#: the columns each handler sorts as text / as numbers (its Desc/AsceCompareFunctions), its default
#: column (compared as text), and whether the default ascends when asked (the details' never does)
STATISTIC_ORDER = (("opType", "opName", "inputShape", "accCore"), STATISTIC_FIGURES, "totalTime", True)
DETAIL_ORDER = (("name", "type", "accCore"), ("startTime", "duration", "waitTime"), "duration", False)
#: the grouping key of each statistic grouping (QueryOpStatisticInfoHandler::GetGroup)
GROUP_KEYS = {"Operator Type": ("opType", "accCore"), "Communication Operator Type": ("opType",),
              "Input Shape": ("opName", "inputShape", "accCore")}
PAGE_SIZE = 10


def _numbers_first(first: str, second: str, ascending: bool) -> bool:
    """NumberUtil::IsStr2DoubleDesc / IsStr2DoubleAsce: numbers by value, before any other text."""
    if is_double(first) and is_double(second):
        return float(first) < float(second) if ascending else float(first) > float(second)
    return is_double(first)


def _ordered(items: list[dict], order_rules: tuple, order_by: str, order: str) -> list[dict]:
    """The items in the handler's order of their diffs (StaticCmp): ``order_rules`` is (text columns,
    number columns, default column, whether it ascends when asked); the default compares as text,
    descending for the details whatever ``order`` (DetailAsceCmp's default is DetailDescCmp's)."""
    texts, numbers, default, default_ascends = order_rules
    ascending = order == "ascend"

    def before(first: dict, second: dict) -> bool:
        one, two = first["diff"], second["diff"]
        if order_by in numbers:
            return _numbers_first(one[order_by], two[order_by], ascending)
        if order_by in texts:
            return one[order_by] < two[order_by] if ascending else one[order_by] > two[order_by]
        if ascending and default_ascends:
            return one[default] < two[default]
        return one[default] > two[default]

    return sorted(items, key=functools.cmp_to_key(
        lambda first, second: -1 if before(first, second) else (1 if before(second, first) else 0)))


def _page(items: list, current: int, page_size: int) -> list:
    """GetFixNumDiffCmpData's page: past the last page, the last one."""
    if not items:
        return []
    offset = page_size * (current - 1)
    if offset >= len(items):
        offset = len(items) - (len(items) % page_size or page_size)
    return items[offset:offset + page_size]


def _top(items: list, top_k: int) -> list:
    """The first ``top_k`` items (all of them for -1)."""
    return items[:top_k] if top_k > 0 else items


def _statistic_diff(group: str, compare: dict, baseline: dict) -> dict:
    """CalDiffDataByGroup: figures subtracted; the grouping's own fields the compare rank's (else the
    baseline's), the others ``compare->baseline`` (an Input Shape row's type is the compare rank's
    twice: ``"T -> T"``, as the server writes it)."""
    diff = {key: fixed_minus(compare[key], baseline[key]) for key in STATISTIC_FIGURES}
    diff["accCore"] = compare["accCore"] or baseline["accCore"]
    if group == "Input Shape":
        diff.update(opName=compare["opName"] or baseline["opName"],
                    inputShape=compare["inputShape"] or baseline["inputShape"],
                    opType=f"{compare['opType']} -> {compare['opType']}")
    else:
        diff.update(opType=compare["opType"] or baseline["opType"],
                    opName=f"{compare['opName']}->{baseline['opName']}",
                    inputShape=f"{compare['inputShape']}->{baseline['inputShape']}")
    return {key: diff[key] for key in STATISTIC_KEYS}


def _counted(row: dict) -> dict:
    """A statistic row as the server writes it: the count as its integer part."""
    return {**row, "count": truncated(row["count"])}


def statistic(group: str, baseline: list[dict], compare: list[dict], page: tuple[int, int], order: tuple[str, str],
              top_k: int) -> dict:
    """operator/statistic in compare mode: the two ranks' statistic rows (protocol rows of text) paired."""
    empty = dict.fromkeys(STATISTIC_KEYS, "")
    pairs: dict[str, dict] = {}
    for side, found in (("baseline", baseline), ("compare", compare)):
        for row in found:
            pairs.setdefault("".join(row[key] for key in GROUP_KEYS[group]), {})[side] = row
    items = []
    for key in sorted(pairs):
        mine, theirs = pairs[key].get("compare", empty), pairs[key].get("baseline", empty)
        items.append({"diff": _statistic_diff(group, mine, theirs), "baseline": theirs, "compare": mine})
    kept = _top(_ordered(items, STATISTIC_ORDER, *order), top_k)
    return {"total": len(kept), "data": [{side: _counted(item[side]) for side in ("diff", "baseline", "compare")}
                                         for item in _page(kept, *page)]}


def _walked(baseline: list[dict], compare: list[dict]) -> list[tuple[dict | None, dict | None]]:
    """GetCmpDataVec: (baseline, compare) operators, each side by name then start, paired in step
    while their names agree, an unpaired one alone."""
    base, mine = (sorted(side, key=lambda row: (row["name"], row["startTime"])) for side in (baseline, compare))
    i = j = 0
    pairs: list[tuple[dict | None, dict | None]] = []
    while i < len(base) and j < len(mine):
        if base[i]["name"] == mine[j]["name"]:
            pairs.append((base[i], mine[j]))
            i, j = i + 1, j + 1
        elif base[i]["name"] < mine[j]["name"]:
            pairs.append((base[i], None))
            i += 1
        else:
            pairs.append((None, mine[j]))
            j += 1
    return pairs + [(row, None) for row in base[i:]] + [(None, row) for row in mine[j:]]


def _pmu_minus(compare: str, baseline: str) -> str:
    """CalPmuDataCompare: subtracted when both are numbers, else ``compare->baseline``."""
    if is_double(compare) and is_double(baseline):
        return fixed_minus(compare, baseline)
    return f"{compare}->{baseline}"


def details(baseline: tuple[list[dict], list[str]], compare: tuple[list[dict], list[str]], page: tuple[int, int],
            order: tuple[str, str], top_k: int, level: str) -> dict:
    """operator/details in compare mode: each rank's (operator rows, PMU figure names) paired; ``level``
    the baseline rank's (the server keeps the last rank's it read)."""
    if top_k == 0:
        return {"total": 0, "level": "", "pmuHeaders": [], "data": []}
    (base_rows, base_names), (rows, names) = baseline, compare
    both = set(names) & set(base_names)
    mine_only, base_only = set(names) - both, set(base_names) - both
    items = []
    for theirs, mine in _walked(base_rows, rows):
        # the server's std::map operator[] gives each side the figures its diff reads, "" when it has none
        mine = {**dict.fromkeys(DETAIL_KEYS, ""), **dict.fromkeys(both | mine_only, ""), **(mine or {})}
        theirs = {**dict.fromkeys(DETAIL_KEYS, ""), **dict.fromkeys(both | base_only, ""), **(theirs or {})}
        diff = {"name": mine["name"] or theirs["name"]}
        diff.update({key: _pmu_minus(mine[key], theirs[key]) for key in DETAIL_FIGURES})
        diff.update({key: f"{mine[key]}->{theirs[key]}" for key in DETAIL_ARROWS})
        diff.update({name: _pmu_minus(mine[name], theirs[name]) for name in both})
        diff.update({name: f"->{theirs[name]}" for name in base_only})
        diff.update({name: f"{mine[name]}->" for name in mine_only})
        items.append({"diff": {key: diff[key] for key in (*DETAIL_KEYS, *sorted(diff.keys() - set(DETAIL_KEYS)))},
                      "baseline": theirs, "compare": mine})
    kept = _top(_ordered(items, DETAIL_ORDER, *order), top_k)
    return {"total": len(kept), "level": level, "pmuHeaders": sorted(set(names) | set(base_names)),
            "data": _page(kept, *page)}
