/* Step time over the history of runs: one line per rank (and the mean over the ranks, bold),
 * the runs in the order they started, a run slower than the one before it by more than the
 * run_regression rule's threshold marked in red. Data: the named query trend_step_time. */
(function () {
  "use strict";
  var REGRESSION_RATIO = 1.1;  // rule_run_regression's default threshold
  var COLORS = { overall: "#222", regression: "#d62728" };

  function lines(rows) {
    var runs = [];
    rows.forEach(function (r) { if (runs.indexOf(r.run_id) < 0) runs.push(r.run_id); });
    var names = runs.map(function (id) { return rows.filter(function (r) { return r.run_id === id; })[0].name; });
    var keys = [];
    rows.forEach(function (r) { var key = r.scope === "overall" ? "mean" : "rank " + r.rank_id; if (keys.indexOf(key) < 0) keys.push(key); });
    var series = keys.map(function (key) {
      return {
        name: key, type: "line", symbolSize: key === "mean" ? 8 : 5,
        lineStyle: key === "mean" ? { width: 3, color: COLORS.overall } : { width: 1 },
        itemStyle: key === "mean" ? { color: COLORS.overall } : undefined,
        data: runs.map(function (id) {
          var row = rows.filter(function (r) {
            return r.run_id === id && (key === "mean" ? r.scope === "overall" : r.scope === "rank" && "rank " + r.rank_id === key);
          })[0];
          return row ? row.duration_ns : null;
        }),
      };
    });
    var overall = runs.map(function (id) {
      return rows.filter(function (r) { return r.run_id === id && r.scope === "overall"; })[0];
    });
    var regressions = overall.map(function (row, i) {
      var before = overall[i - 1];
      return !!(row && before && before.duration_ns > 0 && row.duration_ns > REGRESSION_RATIO * before.duration_ns);
    });
    return { runs: runs, names: names, series: series, overall: overall, regressions: regressions };
  }

  function draw(data) {
    WH.chart().setOption({
      animation: false,
      title: { text: "Mean step time per run (" + data.runs.length + " runs, in the order they started)", left: "center",
        textStyle: { fontSize: 14 } },
      legend: { top: 28, type: "scroll" },
      grid: { top: 70, left: 90, right: 30, bottom: 60 },
      tooltip: { trigger: "axis", valueFormatter: WH.formatNs },
      xAxis: { type: "category", name: "run", data: data.names,
        axisLabel: { color: function (value, index) { return data.regressions[index] ? COLORS.regression : "#333"; } } },
      yAxis: { type: "value", name: "step time", axisLabel: { formatter: WH.formatNs } },
      series: data.series,
    }, true);
  }

  function summarize(data) {
    var rows = data.overall.map(function (row, i) {
      if (!row) return "";
      var before = data.overall[i - 1];
      var ratio = before && before.duration_ns ? row.duration_ns / before.duration_ns : null;
      return '<tr class="wh-run' + (data.regressions[i] ? " wh-slow" : "") + '" data-run-id="' + row.run_id + '">' +
        "<td>" + WH.escape(row.name) + (data.regressions[i] ? " — regression" : "") + "</td><td>" +
        WH.formatNs(row.duration_ns) + "</td><td>" + WH.formatNs(row.computing_ns) + "</td><td>" +
        WH.formatNs(row.communication_not_overlapped_ns) + "</td><td>" + WH.formatNs(row.free_ns) + "</td><td>" +
        (ratio === null ? "" : ratio.toFixed(2) + "×") + "</td></tr>";
    });
    WH.summary("<table><tr><th>run</th><th>mean step</th><th>computing</th><th>communication not overlapped</th>" +
      "<th>free</th><th>× the run before</th></tr>" + rows.join("") + "</table>");
  }

  WH.start(function () {
    return WH.query("trend_step_time", {}).then(function (rows) {
      if (!rows.length) return WH.empty("No run with steps in this warehouse.");
      var data = lines(rows);
      draw(data);
      summarize(data);
      var regressed = data.names.filter(function (name, i) { return data.regressions[i]; });
      WH.status(data.runs.length + " runs; " + (regressed.length ? "slower than the run before: " + regressed.join(", ") : "no regression"));
      WH.done();
    });
  });
})();
