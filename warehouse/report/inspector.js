/* The HTML report's step inspector (seed 004 section 10), inlined into the report by
 * warehouse/report/html.py: choose a run, rank and step; see its breakdown, layers and top
 * kernels, a zoomable timeline of its kernels (one lane per stream, the HCCL operators in a
 * lane of their own) above the bubble axis (the intervals where none of them runs), and, on a
 * click on a bar, the operator card: every field of that kernel's (or operator's) row.
 *
 * The data is the JSON block #wh-steps, written by the report. Every value from it reaches
 * the page as text (textContent, setAttribute of a number or the report's own colours),
 * never as markup: the report is opened by users on data from untrusted inputs.
 */
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var WIDTH = 1100, LABEL = 110, LANE = 22, AXIS = 28;
  var PLOT = WIDTH - LABEL - 10;
  var COLOURS = { aic: "#4e79a7", aiv: "#59a14f", mix_cv: "#b07aa1", mix_comm_aiv: "#ff9da7",
                  communication: "#e15759", aicpu: "#f28e2b" };
  var OTHER = "#9c9c9c", IDLE = "#bab0ac";
  var data = JSON.parse(document.getElementById("wh-steps").textContent);
  var classField = data.fields.indexOf("op_class");
  var runSelect = byId("wh-run"), rankSelect = byId("wh-rank"), stepSelect = byId("wh-step");
  var step = null, view = [0, 1], picked = null;

  function byId(id) { return document.getElementById(id); }

  function make(node, attributes, text) {
    Object.keys(attributes).forEach(function (name) { node.setAttribute(name, String(attributes[name])); });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function element(tag, attributes, text) { return make(document.createElement(tag), attributes, text); }

  function svg(tag, attributes, text) { return make(document.createElementNS(SVG, tag), attributes, text); }

  function clear(node) { while (node.firstChild) { node.removeChild(node.firstChild); } }

  function options(select, labels) {
    clear(select);
    labels.forEach(function (label, index) { select.appendChild(element("option", { value: index }, label)); });
  }

  function fillTable(table, content) {
    clear(table);
    var head = element("tr", {});
    content.headers.forEach(function (h) { head.appendChild(element("th", {}, h)); });
    table.appendChild(head);
    content.rows.forEach(function (row) {
      var tr = element("tr", {});
      row.forEach(function (cell) { tr.appendChild(element("td", {}, cell)); });
      table.appendChild(tr);
    });
  }

  function duration(ns) {
    return ns >= 1e6 ? (ns / 1e6).toFixed(3) + " ms" : (ns / 1e3).toFixed(1) + " us";
  }

  function ranksOf(run) {
    var seen = [];
    run.steps.forEach(function (s) { if (seen.indexOf(s.rank) < 0) { seen.push(s.rank); } });
    return seen;
  }

  function stepsOf(run, rank) { return run.steps.filter(function (s) { return s.rank === rank; }); }

  function show(runIndex, rankIndex, stepIndex) {
    var run = data.runs[Number(runIndex)], rank = ranksOf(run)[Number(rankIndex)];
    runSelect.value = String(runIndex);
    options(rankSelect, ranksOf(run).map(function (r) { return "rank " + r; }));
    rankSelect.value = String(rankIndex);
    options(stepSelect, stepsOf(run, rank).map(function (s) { return "step " + s.step; }));
    stepSelect.value = String(stepIndex);
    step = stepsOf(run, rank)[Number(stepIndex)];
    view = [0, Math.max(step.window, 1)];
    picked = null;
    byId("wh-note").textContent = step.note;
    fillTable(byId("wh-breakdown"), step.breakdown);
    fillTable(byId("wh-layers"), step.layers);
    fillTable(byId("wh-top"), step.top);
    card(null);
    draw();
  }

  /* "#inspect-{run id}-{row of the run's steps}": the link of a step's rank in a steps table */
  function inspect(hash) {
    var link = /^#inspect-(-?\d+)-(\d+)$/.exec(hash);
    var runIndex = link ? data.runs.map(function (r) { return r.id; }).indexOf(link[1]) : -1;
    var chosen = runIndex < 0 ? undefined : data.runs[runIndex].steps[Number(link[2])];
    if (chosen === undefined) { return false; }
    var run = data.runs[runIndex], rankIndex = ranksOf(run).indexOf(chosen.rank);
    show(runIndex, rankIndex, stepsOf(run, chosen.rank).indexOf(chosen));
    byId("inspector").scrollIntoView();
    return true;
  }

  function x(t) { return LABEL + (t - view[0]) / (view[1] - view[0]) * PLOT; }

  function span(start, end) {
    var a = Math.max(start, view[0]), b = Math.min(end, view[1]);
    return b < a ? null : { x: x(a), width: Math.max(x(b) - x(a), 1) };
  }

  function draw() {
    var chart = byId("wh-timeline");
    clear(chart);
    var height = (step.lanes.length + 1) * LANE + AXIS;
    chart.setAttribute("width", WIDTH);
    chart.setAttribute("height", height);
    step.lanes.forEach(function (label, lane) {
      chart.appendChild(svg("rect", { class: "wh-lane", x: LABEL, y: lane * LANE, width: PLOT, height: LANE - 2,
                                      fill: "#f4f4f4" }));
      chart.appendChild(svg("text", { x: 0, y: lane * LANE + 15, "font-size": 12 }, label));
    });
    step.kernels.forEach(function (kernel, index) {
      var at = span(kernel[0], kernel[0] + kernel[1]);
      if (at === null) { return; }
      var bar = svg("rect", { class: index === picked ? "wh-bar wh-picked" : "wh-bar", "data-k": index, x: at.x,
                              y: kernel[2] * LANE + 2, width: at.width, height: LANE - 6,
                              fill: kernel[4] ? COLOURS.communication : COLOURS[kernel[3][classField]] || OTHER });
      bar.appendChild(svg("title", {}, kernel[3][fieldsOf(kernel).indexOf("name")] + " · " + duration(kernel[1])));
      bar.addEventListener("click", function () { picked = index; card(kernel); draw(); });
      chart.appendChild(bar);
    });
    var axis = step.lanes.length * LANE;
    chart.appendChild(svg("text", { x: 0, y: axis + 15, "font-size": 12 }, "bubble axis"));
    step.gaps.forEach(function (gap) {
      var at = span(gap[0], gap[1]);
      if (at === null) { return; }
      var mark = svg("rect", { class: "wh-gap", x: at.x, y: axis + 4, width: at.width, height: LANE - 8,
                               fill: IDLE });
      mark.appendChild(svg("title", {}, "idle " + duration(gap[1] - gap[0])));
      chart.appendChild(mark);
    });
    ticks(chart, axis + LANE);
    byId("wh-view").textContent = duration(view[0]) + " - " + duration(view[1]) + " from the step's start";
  }

  function ticks(chart, y) {
    chart.appendChild(svg("line", { x1: LABEL, x2: LABEL + PLOT, y1: y, y2: y, stroke: "#888" }));
    for (var i = 0; i <= 4; i++) {
      var t = view[0] + (view[1] - view[0]) * i / 4;
      chart.appendChild(svg("line", { x1: x(t), x2: x(t), y1: y, y2: y + 4, stroke: "#888" }));
      chart.appendChild(svg("text", { x: x(t) - (i === 4 ? 60 : i ? 30 : 0), y: y + 16, "font-size": 11 },
                            duration(t)));
    }
  }

  function card(kernel) {
    var table = byId("wh-card");
    clear(table);
    byId("wh-card-hint").textContent = kernel === null
      ? "Click a bar of the timeline: its card lists every field of its kernel (or HCCL operator) row."
      : "Every field of the " + (kernel[4] ? "HCCL operator" : "kernel") + " row (ts and dur in ns):";
    if (kernel === null) { return; }
    fillTable(table, { headers: ["field", "value"],
                       rows: fieldsOf(kernel).map(function (f, i) { return [f, kernel[3][i]]; }) });
  }

  /* the names of a bar's fields: an HCCL operator's row (kernel[4] is 1) or a kernel's */
  function fieldsOf(kernel) { return kernel[4] ? data.operatorFields : data.fields; }

  function zoom(factor, centre) {
    var whole = Math.max(step.window, 1);
    var width = Math.min(Math.max((view[1] - view[0]) * factor, Math.min(100, whole)), whole);
    var start = Math.min(Math.max(centre - (centre - view[0]) * width / (view[1] - view[0]), 0), whole - width);
    view = [start, start + width];
    draw();
  }

  function pan(fraction) {
    var width = view[1] - view[0];
    var start = Math.min(Math.max(view[0] + width * fraction, 0), Math.max(step.window, 1) - width);
    view = [start, start + width];
    draw();
  }

  if (!data.runs.length) { return; }
  options(runSelect, data.runs.map(function (r) { return r.name + " (run_id " + r.id + ")"; }));
  runSelect.addEventListener("change", function () { show(runSelect.value, 0, 0); });
  rankSelect.addEventListener("change", function () { show(runSelect.value, rankSelect.value, 0); });
  stepSelect.addEventListener("change", function () { show(runSelect.value, rankSelect.value, stepSelect.value); });
  byId("wh-zoom-in").addEventListener("click", function () { zoom(0.5, (view[0] + view[1]) / 2); });
  byId("wh-zoom-out").addEventListener("click", function () { zoom(2, (view[0] + view[1]) / 2); });
  byId("wh-left").addEventListener("click", function () { pan(-0.25); });
  byId("wh-right").addEventListener("click", function () { pan(0.25); });
  byId("wh-reset").addEventListener("click", function () { view = [0, Math.max(step.window, 1)]; draw(); });
  byId("wh-timeline").addEventListener("wheel", function (event) {
    event.preventDefault();
    var box = byId("wh-timeline").getBoundingClientRect();
    var at = view[0] + (event.clientX - box.left - LABEL) / PLOT * (view[1] - view[0]);
    zoom(event.deltaY < 0 ? 0.8 : 1.25, Math.min(Math.max(at, view[0]), view[1]));
  }, { passive: false });
  window.addEventListener("hashchange", function () { inspect(window.location.hash); });
  if (!inspect(window.location.hash)) { show(0, 0, 0); }
})();
