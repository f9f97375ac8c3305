/* Step time per rank of one run: stacked bars of the profiler's buckets that add up to the step
 * (preparing, computing, communication not overlapped, free) per rank for one step (or the mean
 * over steps), the median over ranks as a line, slow ranks in red. Runs are never mixed.
 * A rank is slow when the last `warehouse analyze` found it so (its slow_rank_suspected findings,
 * the ones the report names): the page never judges with a threshold of its own.
 * Data: the named queries runs, step_time and findings; WH.config.analysis (null: not analysed). */
(function () {
  "use strict";
  var COLORS = { preparing: "#76b7b2", computing: "#4e79a7", communication: "#f28e2b", free: "#bab0ac", slow: "#d62728" };
  var FIELDS = ["duration", "preparing", "computing", "notOverlapped", "overlapped", "free"];

  function median(values) {
    var sorted = values.slice().sort(function (a, b) { return a - b; });
    var middle = (sorted.length - 1) / 2;
    return (sorted[Math.floor(middle)] + sorted[Math.ceil(middle)]) / 2;
  }

  /* The steps each rank was found slow in: {rank_id: [step ids] or null (its whole capture)}.
   * A finding holds its steps in numbers.step_ids (one finding per rank, its steps merged). */
  function slowSteps(findings) {
    var slow = {};
    findings.forEach(function (row) {
      var numbers = JSON.parse(row.numbers || "{}");
      var steps = numbers.step_ids || (row.step_id !== null && row.step_id >= 0 ? [row.step_id] : null);
      slow[row.rank_id] = steps === null || slow[row.rank_id] === null ? null : (slow[row.rank_id] || []).concat(steps);
    });
    return slow;
  }

  /* One bar per rank: the chosen step's row, or the mean of every step of the rank. A rank is
   * flagged in one step when a finding holds that step; over the mean, when it has a finding. */
  function perRank(steps, slow, stepId) {
    var ranks = {};
    steps.forEach(function (row) {
      if (stepId !== "" && String(row.step_id) !== stepId) return;
      var rank = ranks[row.rank_id] || (ranks[row.rank_id] = { rank_id: row.rank_id, n: 0, duration: 0, preparing: 0,
        computing: 0, notOverlapped: 0, overlapped: 0, free: 0 });
      rank.n += 1;
      rank.duration += row.duration_ns || 0;
      rank.preparing += row.preparing_ns || 0;
      rank.computing += row.computing_ns || 0;
      rank.notOverlapped += row.communication_not_overlapped_ns || 0;
      rank.overlapped += row.overlapped_ns || 0;
      rank.free += row.free_ns || 0;
    });
    var rows = Object.keys(ranks).map(function (key) {
      var rank = ranks[key];
      FIELDS.forEach(function (field) { rank[field] /= rank.n; });
      return rank;
    });
    rows.sort(function (a, b) { return a.rank_id - b.rank_id; });
    var middle = median(rows.map(function (r) { return r.duration; }));
    rows.forEach(function (r) {
      r.ratio = middle ? r.duration / middle : null;
      var found = slow[r.rank_id];
      r.flagged = found !== undefined && (stepId === "" || found === null || found.map(String).indexOf(stepId) >= 0);
      r.slowSteps = found;
    });
    return { rows: rows, median: middle };
  }

  function draw(data, stepLabel) {
    var labels = data.rows.map(function (r) { return "rank " + r.rank_id + (r.flagged ? " (slow)" : ""); });
    function series(name, field, color, extra) {
      return Object.assign({
        name: name, type: "bar", stack: "step", color: color,
        data: data.rows.map(function (r) { return { value: r[field], itemStyle: r.flagged ? { borderColor: COLORS.slow, borderWidth: 2 } : undefined }; }),
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
        series("preparing", "preparing", COLORS.preparing),
        series("computing", "computing", COLORS.computing),
        series("communication not overlapped", "notOverlapped", COLORS.communication),
        series("free", "free", COLORS.free, {
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
      return WH.html`<tr class="wh-rank${r.flagged ? " wh-slow" : ""}" data-rank-id="${r.rank_id}">
        <td>rank ${r.rank_id}${r.flagged ? " — slow" : ""}</td><td>${WH.formatNs(r.duration)}</td>
        <td>${WH.formatNs(r.preparing)}</td><td>${WH.formatNs(r.computing)}</td><td>${WH.formatNs(r.notOverlapped)}</td>
        <td>${WH.formatNs(r.overlapped)}</td><td>${WH.formatNs(r.free)}</td>
        <td>${r.ratio === null ? "" : r.ratio.toFixed(2) + "×"}</td></tr>`;
    });
    WH.summary(WH.html`<table><tr><th>rank</th><th>step time</th><th>preparing</th><th>computing</th>
      <th>communication not overlapped</th><th>overlapped</th><th>free</th><th>× median</th></tr>${rows}</table>`);
  }

  /* What the last analysis concluded about the shown ranks, in the report's words. */
  function verdict(rows, stepCount) {
    if (!WH.config.analysis) return "slow ranks not analysed yet: run warehouse analyze";
    var slow = rows.filter(function (r) { return r.flagged; }).map(function (r) {
      return "rank " + r.rank_id + (r.slowSteps ? " (in " + r.slowSteps.length + " of " + stepCount + " steps)" : "");
    });
    return (slow.length ? "slow: " + slow.join(", ") : "no slow rank") + " (warehouse analyze of " +
      WH.config.analysis.started_at + ")";
  }

  function showRun(runId, runs) {
    return Promise.all([WH.query("step_time", { run_id: runId }),
      WH.query("findings", { run_id: runId, finding_type: "slow_rank_suspected" })]).then(function (results) {
      var steps = results[0], slow = slowSteps(results[1]);
      if (!steps.length) return WH.empty("No steps in this run.");
      var stepIds = [];
      steps.forEach(function (row) { if (stepIds.indexOf(row.step_id) < 0) stepIds.push(row.step_id); });
      stepIds.sort(function (a, b) { return a - b; });
      var chosen = WH.args.step_id !== undefined ? String(WH.args.step_id) : "";
      function show(stepId) {
        var data = perRank(steps, slow, stepId);
        draw(data, stepId === "" ? "mean over " + stepIds.length + " steps" : "step " + stepId);
        summarize(data);
        WH.status("run " + runs[runId] + ": " + data.rows.length + " ranks; " + verdict(data.rows, stepIds.length));
        WH.done();
      }
      WH.select("step_id", "step", [["", "mean over steps"]].concat(stepIds.map(function (s) { return [s, "step " + s]; })), chosen, show);
      show(chosen);
    });
  }

  WH.start(function () {
    return WH.query("runs", {}).then(function (runs) {
      var withSteps = runs.filter(function (r) { return r.steps > 0; });
      if (!withSteps.length) return WH.empty("No steps in this warehouse (no run has step markers or a step summary).");
      var names = {};
      withSteps.forEach(function (r) { names[r.run_id] = r.name; });
      // the run asked for, else the run with the most ranks (the cluster), the first of them
      var chosen = WH.args.run_id !== undefined && names[WH.args.run_id] !== undefined ? String(WH.args.run_id) :
        String(withSteps.slice().sort(function (a, b) { return b.ranks - a.ranks || a.run_id - b.run_id; })[0].run_id);
      WH.select("run_id", "run", withSteps.map(function (r) { return [r.run_id, r.name]; }), chosen, function (runId) {
        window.location.search = "?run_id=" + encodeURIComponent(runId);
      });
      return showRun(chosen, names);
    });
  });
})();
