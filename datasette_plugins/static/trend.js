/* The history of runs, in the order they started: the mean step time, one line per rank (and
 * the mean over the ranks, bold), a run slower than the one before it by more than the
 * run_regression rule's threshold marked in red; or (show=kernels) the mean time of the kernels
 * with the most time, one line per kernel. Data: the named queries trend_step_time, trend_kernel. */
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
      return WH.html`<tr class="wh-run${data.regressions[i] ? " wh-slow" : ""}" data-run-id="${row.run_id}">
        <td>${row.name}${data.regressions[i] ? " — regression" : ""}</td><td>${WH.formatNs(row.duration_ns)}</td>
        <td>${WH.formatNs(row.computing_ns)}</td><td>${WH.formatNs(row.communication_not_overlapped_ns)}</td>
        <td>${WH.formatNs(row.free_ns)}</td><td>${ratio === null ? "" : ratio.toFixed(2) + "×"}</td></tr>`;
    });
    WH.summary(WH.html`<table><tr><th>run</th><th>mean step</th><th>computing</th><th>communication not overlapped</th>
      <th>free</th><th>× the run before</th></tr>${rows}</table>`);
  }

  /* One line per kernel: its mean time in each run (a gap where a run did not run it). */
  function showKernels() {
    return WH.query("trend_kernel", {}).then(function (rows) {
      if (!rows.length) return WH.empty("No run with kernels in this warehouse.");
      var runs = [], names = [], kernels = [];
      rows.forEach(function (r) {
        if (runs.indexOf(r.run_id) < 0) { runs.push(r.run_id); names.push(r.run_name); }
        if (kernels.indexOf(r.name) < 0) kernels.push(r.name);
      });
      WH.chart().setOption({
        animation: false,
        title: { text: "Mean time per run of the kernels with the most time", left: "center",
          textStyle: { fontSize: 14 } },
        legend: { top: 28, type: "scroll" },
        grid: { top: 70, left: 90, right: 30, bottom: 60 },
        tooltip: { trigger: "axis", valueFormatter: WH.formatNs },
        xAxis: { type: "category", name: "run", data: names },
        yAxis: { type: "value", name: "mean time", axisLabel: { formatter: WH.formatNs } },
        series: kernels.map(function (kernel) {
          return { name: kernel, type: "line", connectNulls: false, data: runs.map(function (id) {
            var row = rows.filter(function (r) { return r.run_id === id && r.name === kernel; })[0];
            return row ? row.mean_ns : null;
          }) };
        }),
      }, true);
      WH.summary(WH.html`<table><tr><th>kernel</th>${names.map(function (n) { return WH.html`<th>${n}</th>`; })}</tr>${
        kernels.map(function (kernel) {
          return WH.html`<tr data-kernel="${kernel}"><td>${kernel}</td>${runs.map(function (id) {
            var row = rows.filter(function (r) { return r.run_id === id && r.name === kernel; })[0];
            return WH.html`<td>${row ? WH.formatNs(row.mean_ns) : ""}</td>`;
          })}</tr>`;
        })}</table>`);
      WH.status(runs.length + " runs; " + kernels.length + (kernels.length === 1 ? " kernel" : " kernels"));
      WH.done();
    });
  }

  WH.start(function () {
    var show = WH.args.show === "kernels" ? "kernels" : "steps";
    WH.select("show", "show", [["steps", "step time per rank"], ["kernels", "kernels with the most time"]], show,
      function (value) { window.location.search = "?show=" + encodeURIComponent(value); });
    if (show === "kernels") return showKernels();
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
