/* The cluster's shape of one run: each rank drawn at its place, its pipeline stage (rows) and
 * its index in its data-parallel group (columns), one colour per stage; the table says per rank
 * its groups and the set the cross-rank rules compare it within. A run that does not say its
 * parallel groups says so: its ranks are then compared with every other rank. Data: the named
 * queries runs (run names) and cluster_shape (the run's shape and one row per rank). */
(function () {
  "use strict";
  var PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7"];

  /* An axis label at whole indexes only (the axes run half a step past the first and last rank). */
  function whole(value) { return Number.isInteger(value) ? String(value) : ""; }
  /* a point's label is drawn as canvas text, not HTML */
  function rankLabel(p) { return "rank " + p.data.rank.rank_id; }

  function orDash(value) { return value === null || value === undefined ? "—" : value; }

  function sizes(shape) {
    return ["dp", "tp", "pp", "cp", "ep"].filter(function (kind) { return shape[kind + "_size"] !== null; })
      .map(function (kind) { return kind.toUpperCase() + " " + shape[kind + "_size"]; }).join(" × ");
  }

  function draw(ranks) {
    var placed = ranks.filter(function (r) { return r.stage_id !== null; });
    var stages = placed.reduce(function (m, r) { return Math.max(m, r.stage_id); }, 0) + 1;
    WH.chart().setOption({
      animation: false,
      title: { text: "Ranks by pipeline stage and data-parallel index", left: "center", textStyle: { fontSize: 14 } },
      grid: { top: 50, left: 90, right: 40, bottom: 50 },
      tooltip: { formatter: WH.tooltip(function (p) { return WH.html`rank ${p.data.rank.rank_id}: ${p.data.rank.compared_within}`; }) },
      xAxis: { type: "value", name: "data-parallel index", nameLocation: "middle", nameGap: 28, minInterval: 1,
        min: -0.5, max: placed.reduce(function (m, r) { return Math.max(m, r.dp_index || 0); }, 0) + 0.5,
        axisLine: { onZero: false }, axisLabel: { formatter: whole } },
      yAxis: { type: "value", name: "pipeline stage", nameLocation: "middle", nameGap: 40, minInterval: 1, inverse: true,
        min: -0.5, max: stages - 0.5, axisLine: { onZero: false }, axisLabel: { formatter: whole } },
      series: [{
        type: "scatter", symbol: "roundRect", symbolSize: [56, 28],
        label: { show: true, formatter: rankLabel, color: "#fff" },
        data: placed.map(function (r, index) {
          // ranks of one place (tensor-parallel neighbours) side by side
          var same = placed.filter(function (o, j) { return j < index && o.stage_id === r.stage_id && o.dp_index === r.dp_index; });
          return { value: [(r.dp_index || 0) + same.length * 0.2, r.stage_id + same.length * 0.2], rank: r,
            itemStyle: { color: PALETTE[r.stage_id % PALETTE.length] } };
        }),
      }],
    }, true);
  }

  function summarize(shape, ranks) {
    WH.summary(WH.html`<p class="wh-shape" data-shape-known="${shape.shape_known}">${
      shape.shape_known ? "Shape " + (sizes(shape) || "known") + " over " + orDash(shape.world_size) + " ranks, from "
        : "Compared with every rank: "}${shape.note}.</p>
      <table><tr><th>rank</th><th>stage</th><th>DP index</th><th>TP index</th><th>DP group</th><th>PP group</th>
      <th>compared within</th></tr>${ranks.map(function (r) {
        return WH.html`<tr class="wh-rank" data-rank-id="${r.rank_id}"><td>rank ${r.rank_id}</td><td>${orDash(r.stage_id)}</td>
          <td>${orDash(r.dp_index)}</td><td>${orDash(r.tp_index)}</td><td>${orDash(r.dp_ranks)}</td>
          <td>${orDash(r.pp_ranks)}</td><td>${r.compared_within}</td></tr>`;
      })}</table>`);
  }

  function showRun(rows, runName) {
    var shape = rows[0], ranks = rows.filter(function (r) { return r.rank_id !== null; });
    if (!shape.shape_known || !ranks.some(function (r) { return r.stage_id !== null; })) {
      document.getElementById("wh-chart").classList.add("wh-empty");
    } else {
      draw(ranks);
    }
    summarize(shape, ranks);
    WH.status("run " + runName + ": " + ranks.length + " ranks" + (shape.shape_known ? "" : ", shape unknown"));
    WH.done();
  }

  WH.start(function () {
    return Promise.all([WH.query("cluster_shape", {}), WH.query("runs", {})]).then(function (results) {
      var rows = results[0], names = {};
      results[1].forEach(function (r) { names[r.run_id] = r.name; });
      if (!rows.length) return WH.empty("No run in this warehouse.");
      var runs = rows.map(function (r) { return r.run_id; }).filter(function (r, i, all) { return all.indexOf(r) === i; });
      // the run asked for, else the first run that says its shape, else the first run
      var chosen = runs.filter(function (r) { return String(r) === String(WH.args.run_id); })[0];
      if (chosen === undefined) {
        chosen = (rows.filter(function (r) { return r.shape_known; })[0] || rows[0]).run_id;
      }
      if (runs.length > 1) {
        WH.select("run_id", "run", runs.map(function (r) { return [r, names[r] || "run " + r]; }), chosen, function (runId) {
          window.location.search = "?run_id=" + encodeURIComponent(runId);
        });
      }
      showRun(rows.filter(function (r) { return r.run_id === chosen; }), names[chosen] || String(chosen));
    });
  });
})();
