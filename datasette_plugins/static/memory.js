/* Memory per rank of one run, one series per profiler component: the highest allocated (solid)
 * and reserved (dashed) memory in each time bucket of APP (the whole process, reserved only),
 * PTA (torch_npu's allocator), GE (the graph engine) and PTA+GE, each its own curve named
 * "rank R · COMPONENT" in the legend (never one curve alternating between the process's and the
 * framework's memory), each curve's peak marked. Runs are never mixed. Data: the named queries
 * runs (run names), memory_peak (which ranks and components, their peaks) and memory_curve
 * (one call per rank). */
(function () {
  "use strict";
  var MAX_RANKS = 32;  // more curves than this is a blur: pick one rank in the control
  var PALETTE = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"];
  var COMPONENTS = ["APP", "PTA", "GE", "PTA+GE"];  // the profiler's order: process first, then the framework

  function unique(values) {
    var seen = [];
    values.forEach(function (v) { if (seen.indexOf(v) < 0) seen.push(v); });
    return seen;
  }

  function byComponent(a, b) {
    var i = COMPONENTS.indexOf(a), j = COMPONENTS.indexOf(b);
    return (i < 0 ? COMPONENTS.length : i) - (j < 0 ? COMPONENTS.length : j) || String(a).localeCompare(String(b));
  }

  function curves(runId, ranks, component) {
    ranks = ranks.slice(0, MAX_RANKS);
    return Promise.all(ranks.map(function (rank) {
      return WH.query("memory_curve", { run_id: runId, rank_id: rank, component: component === "" ? null : component });
    })).then(function (results) { return { ranks: ranks, rows: [].concat.apply([], results) }; });
  }

  /* The series of one rank, device and component: the peak row of memory_peak and its curve's rows. */
  function seriesOf(data, peaks) {
    var out = [];
    data.ranks.forEach(function (rank) {
      var rows = data.rows.filter(function (r) { return r.rank_id === rank; });
      var devices = unique(rows.map(function (r) { return r.device_id; }));
      devices.forEach(function (device) {
        var own = rows.filter(function (r) { return r.device_id === device; });
        unique(own.map(function (r) { return r.component; })).sort(byComponent).forEach(function (component) {
          out.push({
            rank: rank, device: device, component: component,
            label: "rank " + rank + (devices.length > 1 ? " device " + device : "") + " · " + component,
            rows: own.filter(function (r) { return r.component === component; }),
            peak: peaks.filter(function (p) {
              return p.rank_id === rank && p.device_id === device && p.component === component;
            })[0],
          });
        });
      });
    });
    return out;
  }

  function marker(value, ts, origin) {
    return { symbolSize: 36, label: { formatter: WH.formatBytes(value), fontSize: 9 },
      data: [{ coord: [WH.rel(ts, origin), value], value: value }] };
  }

  function draw(data, peaks) {
    var origin = data.rows.reduce(function (m, r) { return m === null || r.start_ns < m ? r.start_ns : m; }, null);
    var series = [];
    seriesOf(data, peaks).forEach(function (s, index) {
      var color = PALETTE[index % PALETTE.length];  // one colour for both curves of a component
      var allocated = s.rows.some(function (r) { return r.max_allocated_bytes !== null; });
      var peak = s.peak;
      if (allocated) {
        series.push({
          name: s.label, type: "line", showSymbol: false, step: "end", color: color,
          data: s.rows.map(function (r) { return [WH.rel(r.start_ns, origin), r.max_allocated_bytes]; }),
          markPoint: peak && peak.ts_of_peak !== null ? marker(peak.peak_allocated_bytes, peak.ts_of_peak, origin) : undefined,
        });
      }
      series.push({
        name: s.label, type: "line", showSymbol: false, step: "end", color: color, lineStyle: { type: "dashed", width: 1 },
        data: s.rows.map(function (r) { return [WH.rel(r.start_ns, origin), r.max_reserved_bytes]; }),
        // a component without allocated memory (APP: the process as the driver sees it) marks its reserved peak
        markPoint: !allocated && peak && peak.ts_of_reserved_peak !== null ?
          marker(peak.peak_reserved_bytes, peak.ts_of_reserved_peak, origin) : undefined,
      });
    });
    WH.chart().setOption({
      animation: false,
      title: { text: "Allocated (solid) and reserved (dashed) memory per component", left: "center", textStyle: { fontSize: 14 } },
      legend: { top: 28, type: "scroll" },
      grid: { top: 70, left: 90, right: 40, bottom: 70 },
      tooltip: { trigger: "axis", valueFormatter: WH.formatBytes },
      xAxis: { type: "value", name: "time", axisLabel: { formatter: WH.formatNs } },
      yAxis: { type: "value", name: "bytes", axisLabel: { formatter: WH.formatBytes } },
      dataZoom: [{ type: "inside" }, { type: "slider", labelFormatter: WH.formatNs }],
      series: series,
    }, true);
  }

  /* One row per rank, device and component; the one highest peak of them all is marked (a row's
   * peak: allocated, or reserved for a component that records no allocated memory), the first
   * of the rows that reach it when several do: one row stands out, never every rank of a run. */
  function summarize(peaks) {
    function value(p) { return p.peak_allocated_bytes !== null ? p.peak_allocated_bytes : p.peak_reserved_bytes; }
    var rows = peaks.slice().sort(function (a, b) {
      return a.rank_id - b.rank_id || a.device_id - b.device_id || byComponent(a.component, b.component);
    });
    var highest = rows.reduce(function (best, p) { return best === null || (value(p) || 0) > (value(best) || 0) ? p : best; }, null);
    WH.summary(WH.html`<table><tr><th>rank</th><th>device</th><th>component</th><th>peak allocated</th><th>peak reserved</th></tr>${
      rows.map(function (p) {
        var top = p === highest;
        return WH.html`<tr class="wh-rank${top ? " wh-slow" : ""}" data-rank-id="${p.rank_id}" data-component="${p.component}">
          <td>rank ${p.rank_id}${top ? " — highest peak" : ""}</td><td>${p.device_id}</td><td>${p.component}</td>
          <td>${p.peak_allocated_bytes === null ? "—" : WH.formatBytes(p.peak_allocated_bytes)}</td>
          <td>${WH.formatBytes(p.peak_reserved_bytes)}</td></tr>`;
      })}</table>`);
  }

  function showRun(runId, runName, peaks) {
    var ranks = unique(peaks.map(function (p) { return p.rank_id; }));
    var components = unique(peaks.map(function (p) { return p.component; })).sort(byComponent);
    var choice = {
      rank: WH.args.rank_id !== undefined ? String(WH.args.rank_id) : "",
      component: WH.args.component !== undefined ? String(WH.args.component) : "",
    };
    function show() {
      var chosenRanks = choice.rank === "" ? ranks : ranks.filter(function (r) { return String(r) === choice.rank; });
      var shown = peaks.filter(function (p) {
        return chosenRanks.indexOf(p.rank_id) >= 0 && (choice.component === "" || p.component === choice.component);
      });
      return curves(runId, chosenRanks, choice.component).then(function (data) {
        draw(data, shown);
        summarize(shown);
        WH.status("run " + runName + ": " + data.ranks.length + " of " + ranks.length + " ranks drawn" +
          (ranks.length > data.ranks.length && choice.rank === "" ? " (the first " + MAX_RANKS + ")" : "") +
          ", " + (choice.component === "" ? components.join(", ") : choice.component));
        WH.done();
      }).catch(WH.fail);
    }
    WH.select("rank_id", "rank", [["", "every rank"]].concat(ranks.map(function (r) { return [r, "rank " + r]; })),
      choice.rank, function (value) { choice.rank = value; show(); });
    WH.select("component", "component", [["", "every component"]].concat(components.map(function (c) { return [c, c]; })),
      choice.component, function (value) { choice.component = value; show(); });
    return show();
  }

  WH.start(function () {
    return Promise.all([WH.query("memory_peak", {}), WH.query("runs", {})]).then(function (results) {
      var peaks = results[0], names = {};
      results[1].forEach(function (r) { names[r.run_id] = r.name; });
      if (!peaks.length) return WH.empty("No memory records in this warehouse (memory_record is empty).");
      var runs = unique(peaks.map(function (p) { return p.run_id; }));
      // the run asked for, else the run with memory records of the most ranks, the first of them
      var ranksOf = function (run) { return unique(peaks.filter(function (p) { return p.run_id === run; }).map(function (p) { return p.rank_id; })).length; };
      var chosen = runs.filter(function (r) { return String(r) === String(WH.args.run_id); })[0];
      if (chosen === undefined) chosen = runs.slice().sort(function (a, b) { return ranksOf(b) - ranksOf(a) || a - b; })[0];
      if (runs.length > 1) {
        WH.select("run_id", "run", runs.map(function (r) { return [r, names[r] || "run " + r]; }), chosen, function (runId) {
          window.location.search = "?run_id=" + encodeURIComponent(runId);
        });
      }
      return showRun(chosen, names[chosen] || String(chosen), peaks.filter(function (p) { return p.run_id === chosen; }));
    });
  });
})();
