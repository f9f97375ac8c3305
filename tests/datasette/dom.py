"""What the page tests read from the DOM Chromium renders (``browse``): charts, status, rows, cells."""

from __future__ import annotations

import re
from html.parser import HTMLParser

BAR = re.compile(r"^M[\d.]+ [\d.]+l[\d.]+ 0l0 -(?P<height>[\d.]+)l")  # a vertical bar, drawn upwards
HORIZONTAL_BAR = re.compile(r"^M[\d.]+ [\d.]+l(?P<width>[\d.]+) 0l0 [\d.]+l")


class Dom(HTMLParser):
    """The parts of a rendered page the tests read: the chart's SVG shapes and texts,
    the summary's data rows (``<tr data-...>``), the status line and whether the page
    said it was done, the controls' options; on Datasette's own pages, the result cells
    (``<td class="col-...">``) with their text and tooltip, and every tag (``tags``)."""

    def __init__(self, html: str):
        super().__init__()
        self.ready = False
        self.paths: list[dict] = []
        self.texts: list[str] = []
        self.rows: list[dict] = []
        self.cells: list[dict] = []
        self.options: dict[str, list[str]] = {}  # a control's name -> its options' texts
        self.tags: list[tuple[str, dict]] = []
        self.status = ""
        self._in = None
        self._select: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if tag == "body":
            self.ready = attrs.get("data-wh-ready") == "1"
        elif tag == "path":
            self.paths.append(attrs)
        elif tag == "tr" and any(name.startswith("data-") for name in attrs):
            self.rows.append(attrs)
        elif tag == "td" and attrs.get("class", "").startswith("col-"):
            self.cells.append({"column": attrs["class"].split()[0][4:], "text": "", "title": None})
            self._in = "cell"
        elif tag == "span" and self._in == "cell":
            self.cells[-1]["title"] = attrs.get("title")
        elif tag == "select":
            self._select = self.options.setdefault(attrs.get("name"), [])
        elif tag == "option":
            self._select.append("")
            self._in = "option"
        if tag == "text" or attrs.get("id") == "wh-status":
            self._in = tag if tag == "text" else "status"
            if tag == "text":
                self.texts.append("")

    def handle_endtag(self, tag):
        if tag == "text" or (tag == "p" and self._in == "status") or (tag, self._in) in (("td", "cell"), ("option", "option")):
            self._in = None

    def handle_data(self, data):
        if self._in == "text":
            self.texts[-1] += data
        elif self._in == "status":
            self.status += data
        elif self._in == "cell":
            self.cells[-1]["text"] += data.strip()
        elif self._in == "option":
            self._select[-1] += data

    def column(self, name: str) -> list[dict]:
        """The result cells of one column, top to bottom."""
        return [cell for cell in self.cells if cell["column"] == name]

    def bar_heights(self, fill: str) -> list[float]:
        """Heights of the bars (rectangle paths) painted ``fill``, left to right."""
        return [float(m["height"]) for p in self.paths if p.get("fill") == fill and (m := BAR.match(p.get("d", "")))]

    def bar_widths(self, fill: str) -> list[float]:
        """Widths of the horizontal bars painted ``fill``, bottom to top."""
        return [float(m["width"]) for p in self.paths
                if p.get("fill") == fill and (m := HORIZONTAL_BAR.match(p.get("d", "")))]
