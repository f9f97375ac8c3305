"""The report as one self-contained HTML file: inline CSS, SVG charts and the step inspector's
script (:file:`inspector.js`, inlined), nothing fetched: no CDN, no image, no font.

One chapter per run. Charts: per rank and step, a stacked bar of the profiler's buckets that
add up to the step (preparing / computing / communication not overlapped / free; the
overlapped communication lies inside computing), and one of head / main / tail where layers
were observed; top kernels as bars. Each finding is an anchor (``#finding-N``) with its evidence rows.
The step inspector (:mod:`.inspector_data` gives its JSON) comes first: a run, rank and step
chosen (by its controls, or a click on a step's rank in a steps table), their breakdown, layers,
top kernels, timeline and operator card.

Every value that comes from an input or the warehouse (names, run names, step and rank ids, messages,
notes, paths, numbers, anchors) goes through :func:`_e` (HTML-escaped, quotes included) wherever it
lands: element text, SVG ``<text>`` and ``<title>``, attribute values. Only the report's own markup,
styles and colours are written as they are. The inspector's data is JSON in a
``<script type="application/json">`` block with ``<``, ``>`` and ``&`` as JSON escapes (no
``</script>`` can end it early); its script puts every value on the page as text.

``warehouse compare``'s report, tables alone, is written by :func:`render_chapters`: the same
tables, escaping and page.
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path

from warehouse.report import Report
from warehouse.report import detail, inspector_data
from warehouse.report.format import locator, ms, numbers, text_of
from warehouse.report.tables import Chapter, Table, all_tables, evidence_id

BUCKETS = (
    ("preparing", "preparing_ns", "#76b7b2"),
    ("computing", "computing_ns", "#4e79a7"),
    ("communication not overlapped", "communication_not_overlapped_ns", "#e15759"),
    ("free", "free_ns", "#bab0ac"),
)
PHASES = (("head", "head_ns", "#76b7b2"), ("main", "main_ns", "#59a14f"), ("tail", "tail_ns", "#edc948"))
CSS = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1200px; color: #222; }
h1 { font-size: 1.5em; } h2 { border-bottom: 1px solid #ccc; margin-top: 2em; }
table { border-collapse: collapse; margin: .5em 0; } td, th { border: 1px solid #ddd; padding: 3px 8px; }
th { background: #f4f4f4; text-align: left; } td { vertical-align: top; }
.high { color: #b00020; font-weight: bold; } .medium { color: #a66300; } .low { color: #555; }
.finding { border-left: 4px solid #ccc; padding: .2em 1em; margin: 1em 0; }
.finding.high { border-color: #b00020; } .finding.medium { border-color: #e0a000; }
.legend span { display: inline-block; margin-right: 1em; } .legend i { display: inline-block; width: 12px;
height: 12px; margin-right: 4px; vertical-align: middle; } code { font-size: 12px; }
.wh-controls label { margin-right: 1em; } .wh-bar { cursor: pointer; } .wh-picked { stroke: #000; stroke-width: 2; }
#wh-timeline { display: block; margin: .5em 0; }
"""
#: the step inspector's script, inlined into every report with steps
INSPECTOR_JS = (Path(__file__).parent / "inspector.js").read_text(encoding="utf-8")
BAR_WIDTH = 720
ROW_HEIGHT = 18


def render(database: str, reports: list[Report]) -> str:
    """The whole report as one HTML document: a chapter per run."""
    body = [f"<h1>Profiling diagnosis: {_e(database)}</h1>"]
    if not reports:
        body.append("<p>No run with steps, kernels or findings in this warehouse.</p>")
    elif any(report.steps for report in reports):
        body.append(_inspector(reports))
    for report in reports:
        body.append(f'<h2 id="run{_e(report.run_id)}">Run {_e(report.run_name)} (run_id {_e(report.run_id)})</h2>')
        body.extend(_chapter(report))
    return _page("Profiling diagnosis", body)


def render_chapters(title: str, database: str, chapters: list[Chapter]) -> str:
    """A report of tables alone as one HTML document: a heading per chapter, then its tables ("None." if none)."""
    body = [f"<h1>{_e(title)}: {_e(database)}</h1>"]
    for chapter in chapters:
        body.append(f"<h2>{_e(chapter.title)}</h2>")
        body.extend(_table(table, "compare") for table in chapter.tables)
        if not chapter.tables:
            body.append("<p>None.</p>")
    return _page(title, body)


def _page(title: str, body: list[str]) -> str:
    """The self-contained page around ``body`` (its parts, one a line): the report's styles inline."""
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{_e(title)}</title><style>{CSS}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def _inspector(reports: list[Report]) -> str:
    """The step inspector: its controls and empty tables, the steps' data as JSON, and its script."""
    data = json.dumps(inspector_data.of(reports), separators=(",", ":"))
    data = data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    limits = (f"The timeline embeds a step's {detail.MAX_KERNELS_PER_STEP:,} longest kernels and HCCL operators at "
              f"most, {detail.MAX_KERNELS_PER_RUN:,} per run shared evenly among its steps (the note above it says "
              "when a step shows fewer than it ran); the bubble axis marks where neither a kernel nor an HCCL operator "
              "of the step runs, the longest "
              f"{detail.MAX_GAPS_PER_STEP:,} such intervals at most. Wheel or buttons zoom; click a bar for its card.")
    return f"""<h2 id="inspector">Step inspector</h2>
<p>{_e(limits)}</p>
<div class="wh-controls"><label>run <select id="wh-run"></select></label><label>rank <select id="wh-rank"></select></label><label>step <select id="wh-step"></select></label></div>
<p id="wh-note"></p>
<h4>Breakdown</h4><table id="wh-breakdown"></table>
<h4>Timeline (one lane per stream)</h4>
<div><button id="wh-zoom-in">zoom in</button> <button id="wh-zoom-out">zoom out</button> <button id="wh-left">&lt; earlier</button> <button id="wh-right">later &gt;</button> <button id="wh-reset">whole step</button> <span id="wh-view"></span></div>
<svg xmlns="http://www.w3.org/2000/svg" id="wh-timeline" width="0" height="0" role="img" aria-label="timeline of the step"></svg>
<h4>Operator card</h4><p id="wh-card-hint"></p><table id="wh-card"></table>
<h4>Layers and blocks of the step</h4><table id="wh-layers"></table>
<h4>Top kernels of the step</h4><table id="wh-top"></table>
<script type="application/json" id="wh-steps">{data}</script>
<script>{INSPECTOR_JS}</script>"""


def _chapter(report: Report) -> list[str]:
    body = []
    for table in all_tables(report):
        body.append(_table(table, f"run{report.run_id}"))
        if table.key == "steps":
            body.append(_stacked(report, BUCKETS, "Step time per rank"))
            if any(s.layers for s in report.steps):
                body.append(_stacked(report, PHASES, "Head / main / tail (observed layers)"))
        elif table.key == "findings":
            body.append(_findings(report))
        elif table.key == "kernels":
            body.append(_kernel_bars(report))
    return body


def _table(table: Table, prefix: str) -> str:
    """A table under its title, the title's anchor ``{prefix}-{key}``."""
    head = "".join(f"<th>{_e(h)}</th>" for h in table.headers)
    rows = "".join("<tr>" + "".join(_cell(table, r, i, c) for i, c in enumerate(row)) + "</tr>"
                   for r, row in enumerate(table.text_rows()))
    return f'<h3 id="{_e(prefix)}-{_e(table.key)}">{_e(table.title)}</h3>\n<table><tr>{head}</tr>{rows}</table>'


def _cell(table: Table, row: int, column: int, text: str) -> str:
    if column == 0 and table.links:
        return f'<td><a href="#{_e(table.links[row])}">{_e(text)}</a></td>'
    if column == 0 and table.anchor:
        return f'<td><a href="#{_e(table.anchor + text)}">{_e(text)}</a></td>'
    return f"<td>{_e(text)}</td>"


def _stacked(report: Report, buckets, title: str) -> str:
    steps = [s for s in report.steps if all(getattr(s, attr) is not None for _, attr, _ in buckets)]
    if not steps:
        return ""
    longest = max(s.duration_ns for s in steps) or 1
    label_width = 130
    bars = []
    for index, step in enumerate(steps):
        y = index * (ROW_HEIGHT + 4)
        bars.append(f'<text x="0" y="{y + 13}" font-size="12">rank {_e(step.rank_id)} step {_e(step.step_id)}</text>')
        x = float(label_width)
        for name, attr, color in buckets:
            width = BAR_WIDTH * getattr(step, attr) / longest
            bars.append(f'<rect x="{x:.1f}" y="{y}" width="{width:.1f}" height="{ROW_HEIGHT}" fill="{color}">'
                        f"<title>{_e(name)}: {_e(ms(getattr(step, attr)))} ms</title></rect>")
            x += width
    legend = "".join(f'<span><i style="background:{c}"></i>{_e(n)}</span>' for n, _, c in buckets)
    height = len(steps) * (ROW_HEIGHT + 4)
    return (f"<h4>{_e(title)}</h4><div class=\"legend\">{legend}</div>"
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{label_width + BAR_WIDTH + 10}" height="{height}" '
            f'role="img" aria-label="{_e(title)}">{"".join(bars)}</svg>')


def _kernel_bars(report: Report) -> str:
    kernels = report.top_kernels
    if not kernels:
        return ""
    longest = max(k["total_ns"] for k in kernels) or 1
    bars = []
    for index, kernel in enumerate(kernels):
        y = index * (ROW_HEIGHT + 4)
        width = 400 * kernel["total_ns"] / longest
        bars.append(f'<rect x="0" y="{y}" width="{width:.1f}" height="{ROW_HEIGHT}" fill="#4e79a7"/>'
                    f'<text x="{width + 6:.1f}" y="{y + 13}" font-size="12">{_e(text_of(kernel["name"])[:80])} '
                    f"({_e(ms(kernel['total_ns']))} ms)</text>")
    height = len(kernels) * (ROW_HEIGHT + 4)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="{height}" role="img" '
            f'aria-label="top kernels">{"".join(bars)}</svg>')


def _findings(report: Report) -> str:
    parts = [f'<h3 id="run{_e(report.run_id)}-evidence">Findings with their evidence</h3>']
    for finding in report.findings:
        severity = _e(finding["severity"])
        rows = "".join(
            f"<tr><td>{_e(evidence_id(row['finding_id'], row['position']))}</td>"
            f"<td><code>{_e(row['path'])}</code></td><td>{_e(locator(row))}</td><td>{_e(row['note'])}</td></tr>"
            for row in report.evidence.get(finding["id"], [])
        )
        parts.append(
            f'<div class="finding {severity}" id="finding-{_e(finding["id"])}">'
            f"<p><span class=\"{severity}\">{severity}</span> · confidence {_e(finding['confidence'])} · "
            f"<b>{_e(finding['finding_type'])}</b></p><p>{_e(finding['message'])}</p>"
            f"<p><small>{_e(numbers(finding['numbers']))}</small></p>"
            f"<table><tr><th>evidence</th><th>input</th><th>row</th><th>what it shows</th></tr>{rows}</table></div>"
        )
    return "\n".join(parts)


def _e(value) -> str:
    """A value as HTML text, safe in element content and in a quoted attribute value."""
    return escape(text_of(value), quote=True)
