/* Memory per rank: the highest allocated (solid) and reserved (dashed) framework memory
 * in each time bucket, one colour per rank, the peak of each rank marked. Data: the named
 * queries memory_peak (which ranks, their peaks) and memory_curve (one call per rank). */
(function () {
  "use strict";
  var MAX_RANKS = 32;  // more curves than this is a blur: pick one rank in the control
  var PALETTE = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"];

  function curves(peaks, rankChoice) {
    var ranks = [];
    peaks.forEach(function (p) { if (ranks.indexOf(p.rank_id) < 0) ranks.push(p.rank_id); });
    if (rankChoice !== "") ranks = ranks.filter(function (r) { return String(r) === rankChoice; });
    ranks = ranks.slice(0, MAX_RANKS);
    return Promise.all(ranks.map(function (rank) { return WH.query("memory_curve", { rank_id: rank }); }))
      .then(function (results) { return { ranks: ranks, rows: [].concat.apply([], results) }; });
  }

  function draw(data, peaks) {
    var origin = data.rows.reduce(function (m, r) { return m === null || r.start_ns < m ? r.start_ns : m; }, null);
    var series = [];
    data.ranks.forEach(function (rank) {
      var rows = data.rows.filter(function (r) { return r.rank_id === rank; });
      var devices = [];
      rows.forEach(function (r) { if (devices.indexOf(r.device_id) < 0) devices.push(r.device_id); });
      devices.forEach(function (device) {
        var own = rows.filter(function (r) { return r.device_id === device; });
        var label = "rank " + rank + (devices.length > 1 ? " device " + device : "");
        var peak = peaks.filter(function (p) { return p.rank_id === rank && p.device_id === device; })[0];
        var color = PALETTE[series.length / 2 % PALETTE.length];  // one colour for both curves of a device
        series.push({
          name: label, type: "line", showSymbol: false, step: "end", color: color,
          data: own.map(function (r) { return [WH.rel(r.start_ns, origin), r.max_allocated_bytes]; }),
          markPoint: peak ? { symbolSize: 36, label: { formatter: WH.formatBytes(peak.peak_allocated_bytes), fontSize: 9 },
            data: [{ coord: [WH.rel(peak.ts_of_peak, origin), peak.peak_allocated_bytes], value: peak.peak_allocated_bytes }] } : undefined,
        });
        series.push({
          name: label, type: "line", showSymbol: false, step: "end", color: color, lineStyle: { type: "dashed", width: 1 },
          data: own.map(function (r) { return [WH.rel(r.start_ns, origin), r.max_reserved_bytes]; }),
        });
      });
    });
    WH.chart().setOption({
      animation: false,
      title: { text: "Allocated (solid) and reserved (dashed) memory", left: "center", textStyle: { fontSize: 14 } },
      legend: { top: 28, type: "scroll" },
      grid: { top: 70, left: 90, right: 40, bottom: 70 },
      tooltip: { trigger: "axis", valueFormatter: WH.formatBytes },
      xAxis: { type: "value", name: "time", axisLabel: { formatter: WH.formatNs } },
      yAxis: { type: "value", name: "bytes", axisLabel: { formatter: WH.formatBytes } },
      dataZoom: [{ type: "inside" }, { type: "slider", labelFormatter: WH.formatNs }],
      series: series,
    }, true);
  }

  function summarize(peaks) {
    var highest = peaks.reduce(function (m, p) { return Math.max(m, p.peak_allocated_bytes); }, 0);
    WH.summary("<table><tr><th>rank</th><th>device</th><th>peak allocated</th><th>peak reserved</th></tr>" +
      peaks.map(function (p) {
        var top = p.peak_allocated_bytes === highest;
        return '<tr class="wh-rank' + (top ? " wh-slow" : "") + '" data-rank-id="' + p.rank_id + '"><td>rank ' + p.rank_id +
          (top ? " — highest peak" : "") + "</td><td>" + p.device_id + "</td><td>" + WH.formatBytes(p.peak_allocated_bytes) +
          "</td><td>" + WH.formatBytes(p.peak_reserved_bytes) + "</td></tr>";
      }).join("") + "</table>");
  }

  WH.start(function () {
    return WH.query("memory_peak", {}).then(function (peaks) {
      if (!peaks.length) return WH.empty("No memory records in this warehouse (memory_record is empty).");
      var ranks = [];
      peaks.forEach(function (p) { if (ranks.indexOf(p.rank_id) < 0) ranks.push(p.rank_id); });
      var chosen = WH.args.rank_id !== undefined ? String(WH.args.rank_id) : "";
      function show(rankChoice) {
        return curves(peaks, rankChoice).then(function (data) {
          draw(data, peaks);
          summarize(peaks);
          WH.status(data.ranks.length + " of " + ranks.length + " ranks drawn" +
            (ranks.length > data.ranks.length && rankChoice === "" ? " (the first " + MAX_RANKS + ")" : ""));
          WH.done();
        }).catch(WH.fail);
      }
      WH.select("rank_id", "rank", [["", "every rank"]].concat(ranks.map(function (r) { return [r, "rank " + r]; })), chosen, show);
      return show(chosen);
    });
  });
})();
