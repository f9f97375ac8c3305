/* Roofline of one operator: per chart of its profile, each roof (bandwidth slope up to the
 * compute ceiling, log-log) and the operator's point on it; the table says how close each point
 * is to its roof. msprof op writes a point per roof, so the chart draws one point per row of
 * the table, in its roof's colour: chart and table show the same rows. Data: the named queries
 * op_runs (which operators, and how many roofs each has: the page opens on one with a roofline)
 * and op_roofline (the roofs, their points, and how much of each roof its point reached).
 * Units as msprof op writes them: intensity in FLOP/byte, performance and compute roofs in
 * TFLOP/s, bandwidths in TB/s (so that bandwidth x intensity is a performance). */
(function () {
  "use strict";
  var PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#9c755f", "#76b7b2"];
  var INTENSITY = "FLOP/byte", PERFORMANCE = "TFLOP/s", BANDWIDTH = "TB/s";

  /* The roof at intensity x: the bandwidth slope, capped by the compute roof. */
  function roof(line, x) { return Math.min(line.bw * x, line.computility); }

  /* A roof's name: its bandwidth over its compute roof. */
  function roofName(line, i) {
    return (line.bw_name || "bandwidth " + i) + " / " + (line.computility_name || "compute");
  }

  /* Whether a point can sit on the log-log axes. */
  function drawable(line) { return line.point_x > 0 && line.point_y > 0; }

  /* A point's label, as its row of the table reads it. */
  function pointText(line) {
    return WH.round(line.point_x) + " " + INTENSITY + ", " + WH.round(line.point_y) + " " + PERFORMANCE;
  }

  function draw(lines, title) {
    var ridges = lines.map(function (l) { return l.computility / l.bw; });
    var xs = ridges.concat(lines.filter(drawable).map(function (l) { return l.point_x; }));
    // whole decades around the ridges and the points, so the log axis ticks at powers of ten
    var low = Math.pow(10, Math.floor(Math.log10(Math.min.apply(null, xs))) - 1);
    var high = Math.pow(10, Math.ceil(Math.log10(Math.max.apply(null, xs))) + 1);
    var series = [];
    lines.forEach(function (line, i) {
      var ridge = ridges[i], colour = PALETTE[i % PALETTE.length];
      series.push({
        name: roofName(line, i), type: "line", showSymbol: false, color: colour,
        data: [[low, roof(line, low)], [ridge, line.computility], [high, line.computility]],
      });
      if (!drawable(line)) return;
      series.push({
        name: roofName(line, i), type: "scatter", symbolSize: 12, color: colour,
        data: [[line.point_x, line.point_y]],
        label: { show: true, position: "right", formatter: pointText(line) },
      });
    });
    WH.chart().setOption({
      animation: false,
      title: { text: title, left: "center", textStyle: { fontSize: 14 } },
      legend: { top: 28 },
      // the performance axis is named along itself, left of its labels: never under the legend
      grid: { top: 70, left: 90, right: 80, bottom: 50 },
      tooltip: { trigger: "item", formatter: WH.tooltip(function (p) {
        return WH.html`${p.seriesName}<br>${WH.round(p.value[0])} ${INTENSITY}, ${WH.round(p.value[1])} ${PERFORMANCE}`;
      }) },
      xAxis: { type: "log", name: "arithmetic intensity (" + INTENSITY + ")", nameLocation: "middle", nameGap: 28, min: low, max: high,
        axisLabel: { formatter: WH.round } },
      yAxis: { type: "log", name: "performance (" + PERFORMANCE + ")", nameLocation: "middle", nameGap: 60,
        axisLabel: { formatter: WH.round } },
      series: series,
    }, true);
  }

  /* The table: a row per roof, its point as the chart labels it (a point off the log axes says so). */
  function summarize(lines) {
    WH.summary(WH.html`<table><tr><th>roof</th><th>bandwidth (${BANDWIDTH})</th><th>compute roof (${PERFORMANCE})</th>
      <th>ridge intensity (${INTENSITY})</th><th>the operator's point</th>
      <th>attainable at its intensity (${PERFORMANCE})</th><th>reached</th><th>bound</th></tr>${lines.map(function (l, i) {
        return WH.html`<tr class="wh-roof" data-roof="${l.bw_name}" data-point-x="${l.point_x}"
          data-point-y="${l.point_y}" data-efficiency="${l.efficiency}">
          <td>${roofName(l, i)}</td><td>${WH.round(l.bw)}</td><td>${WH.round(l.computility)}</td>
          <td>${WH.round(l.computility / l.bw)}</td><td class="wh-point">${drawable(l) ? pointText(l) : "not drawn (not positive)"}</td>
          <td>${WH.round(l.attainable)}</td>
          <td>${l.efficiency === null ? "" : (100 * l.efficiency).toFixed(1) + " %"}</td><td>${l.bound}</td></tr>`;
      })}</table>`);
  }

  WH.start(function () {
    return WH.query("op_runs", {}).then(function (runs) {
      if (!runs.length) return WH.empty("No operator profile in this warehouse (op_run is empty).");
      var withRoofs = runs.filter(function (r) { return r.roofs > 0; });
      if (!withRoofs.length) {
        return WH.empty("No operator profile in this warehouse has a roofline (" + runs.length +
                        (runs.length === 1 ? " profile" : " profiles") + ", no roof with a bandwidth and a compute roof).");
      }
      // the operator of the URL, else the first that has a roofline
      var chosen = runs.filter(function (r) { return String(r.source_id) === String(WH.args.source_id); })[0] || withRoofs[0];
      var chartSelect = null;

      function showChart(run, rows, charts, title) {
        var lines = rows.filter(function (r) { return r.title === title; });
        draw(lines, run.name + ": " + title);
        summarize(lines);
        WH.status(lines.length + (lines.length === 1 ? " roof" : " roofs") + " for " + run.name + " (" + charts.length + " chart" + (charts.length > 1 ? "s" : "") + ")");
        WH.done();
      }

      function show(sourceId) {
        return WH.query("op_roofline", { source_id: sourceId }).then(function (rows) {
          var run = runs.filter(function (r) { return String(r.source_id) === String(sourceId); })[0];
          if (chartSelect) chartSelect.parentNode.remove();
          chartSelect = null;
          if (!rows.length) return WH.empty("Operator " + run.name + " has no roofline data.");
          var charts = [];
          rows.forEach(function (r) { if (charts.indexOf(r.title) < 0) charts.push(r.title); });
          var first = charts.indexOf(WH.args.chart) >= 0 ? WH.args.chart : charts[0];
          if (charts.length > 1) {
            chartSelect = WH.select("chart", "chart", charts.map(function (c) { return [c, c]; }), first,
              function (title) { showChart(run, rows, charts, title); });
          }
          showChart(run, rows, charts, first);
        }).catch(WH.fail);
      }
      WH.select("source_id", "operator", WH.operatorOptions(runs), chosen.source_id, show);
      return show(chosen.source_id);
    });
  });
})();
