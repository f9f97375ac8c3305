/* Step time per rank: stacked compute / communication / free bars per rank for one step
 * (or the mean over steps), the median over ranks as a line, slow ranks in red.
 * Data: the named queries step_time and slow_ranks. */
(function () {
  "use strict";
  var COLORS = { compute: "#4e79a7", communication: "#f28e2b", free: "#bab0ac", slow: "#d62728" };

  function median(values) {
    var sorted = values.slice().sort(function (a, b) { return a - b; });
    var middle = (sorted.length - 1) / 2;
    return (sorted[Math.floor(middle)] + sorted[Math.ceil(middle)]) / 2;
  }

  /* One bar per rank: the chosen step's row, or the mean of every step of the rank. */
  function perRank(steps, slow, stepId) {
    var ranks = {};
    steps.forEach(function (row) {
      if (stepId !== "" && String(row.step_id) !== stepId) return;
      var rank = ranks[row.rank_id] || (ranks[row.rank_id] = { rank_id: row.rank_id, n: 0, duration: 0, compute: 0, communication: 0, overlap: 0, free: 0 });
      rank.n += 1;
      rank.duration += row.duration_ns;
      rank.compute += row.compute_ns || 0;
      rank.communication += row.communication_ns || 0;
      rank.overlap += row.overlap_ns || 0;
      rank.free += row.free_ns || 0;
    });
    var flagged = {};
    slow.forEach(function (row) {
      if (row.flagged && (stepId === "" || String(row.step_id) === stepId)) flagged[row.rank_id] = true;
    });
    var rows = Object.keys(ranks).map(function (key) {
      var rank = ranks[key];
      ["duration", "compute", "communication", "overlap", "free"].forEach(function (field) { rank[field] /= rank.n; });
      rank.flagged = !!flagged[rank.rank_id];
      return rank;
    });
    rows.sort(function (a, b) { return a.rank_id - b.rank_id; });
    var middle = median(rows.map(function (r) { return r.duration; }));
    rows.forEach(function (r) { r.ratio = middle ? r.duration / middle : null; });
    return { rows: rows, median: middle };
  }

  function draw(data, stepLabel) {
    var labels = data.rows.map(function (r) { return "rank " + r.rank_id + (r.flagged ? " (slow)" : ""); });
    function series(name, field, color, extra) {
      return Object.assign({
        name: name, type: "bar", stack: "step", color: color,
        data: data.rows.map(function (r) { return { value: field(r), itemStyle: r.flagged ? { borderColor: COLORS.slow, borderWidth: 2 } : undefined }; }),
      }, extra || {});
    }
    WH.chart().setOption({
      animation: false,
      title: { text: "Step time per rank: " + stepLabel, left: "center", textStyle: { fontSize: 14 } },
      legend: { top: 28 },
      grid: { top: 70, left: 90, right: 30, bottom: labels.length > 12 ? 110 : 40 },
      tooltip: { trigger: "axis", valueFormatter: WH.formatNs },
      xAxis: {
        type: "category", data: labels,
        // every rank labelled (a slow one must never be the label left out), upright when many
        axisLabel: { interval: 0, rotate: labels.length > 12 ? 90 : 0, fontWeight: "bold",
          color: function (value) { return value.indexOf("(slow)") >= 0 ? COLORS.slow : "#333"; } },
      },
      yAxis: { type: "value", name: "time", axisLabel: { formatter: WH.formatNs } },
      series: [
        series("compute", function (r) { return r.compute; }, COLORS.compute),
        series("communication (not overlapped)", function (r) { return Math.max(r.communication - r.overlap, 0); }, COLORS.communication),
        series("free", function (r) { return r.free; }, COLORS.free, {
          markLine: {
            symbol: "none", lineStyle: { type: "dashed", color: "#333" },
            label: { position: "insideEndTop", formatter: "median " + WH.formatNs(data.median) },
            data: [{ yAxis: data.median }],
          },
        }),
      ],
    }, true);
  }

  function summarize(data) {
    var rows = data.rows.map(function (r) {
      return '<tr class="wh-rank' + (r.flagged ? " wh-slow" : "") + '" data-rank-id="' + r.rank_id + '">' +
        "<td>rank " + r.rank_id + (r.flagged ? " — slow" : "") + "</td><td>" + WH.formatNs(r.duration) + "</td><td>" +
        WH.formatNs(r.compute) + "</td><td>" + WH.formatNs(r.communication) + "</td><td>" + WH.formatNs(r.free) +
        "</td><td>" + (r.ratio === null ? "" : r.ratio.toFixed(2) + "×") + "</td></tr>";
    });
    WH.summary("<table><tr><th>rank</th><th>step time</th><th>compute</th><th>communication</th><th>free</th>" +
      "<th>× median</th></tr>" + rows.join("") + "</table>");
  }

  WH.start(function () {
    return Promise.all([WH.query("step_time", {}), WH.query("slow_ranks", {})]).then(function (results) {
      var steps = results[0], slow = results[1];
      if (!steps.length) return WH.empty("No steps in this warehouse (the step table is empty).");
      var stepIds = [];
      steps.forEach(function (row) { if (stepIds.indexOf(row.step_id) < 0) stepIds.push(row.step_id); });
      stepIds.sort(function (a, b) { return a - b; });
      var chosen = WH.args.step_id !== undefined ? String(WH.args.step_id) : "";
      function show(stepId) {
        var data = perRank(steps, slow, stepId);
        draw(data, stepId === "" ? "mean over " + stepIds.length + " steps" : "step " + stepId);
        summarize(data);
        var slowRanks = data.rows.filter(function (r) { return r.flagged; }).map(function (r) { return r.rank_id; });
        WH.status(data.rows.length + " ranks; " + (slowRanks.length ? "slow: rank " + slowRanks.join(", rank ") : "no slow rank"));
        WH.done();
      }
      WH.select("step_id", "step", [["", "mean over steps"]].concat(stepIds.map(function (s) { return [s, "step " + s]; })), chosen, show);
      show(chosen);
    });
  });
})();
