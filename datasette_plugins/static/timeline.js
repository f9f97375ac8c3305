/* Timeline: a flame chart of one thread, or of every thread of a process stacked in lanes.
 * Slices are rectangles at (ts .. ts + dur, depth); zooming (scroll, drag, the slider)
 * refetches the slices of the visible window from the named query timeline_slices, leaving
 * out those narrower than a pixel (min_dur). Threads and their spans come from
 * timeline_threads. Click a slice for slice_detail. */
(function () {
  "use strict";
  var PALETTE = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"];
  var PIXELS = 2000;
  var FEW = 500;

  function color(name) {
    var hash = 0;
    for (var i = 0; i < name.length; i++) hash = (hash * 31 + name.charCodeAt(i)) | 0;
    return PALETTE[Math.abs(hash) % PALETTE.length];
  }

  function renderItem(params, api) {
    var left = api.coord([api.value(0), api.value(2)]);
    var right = api.coord([api.value(1), api.value(2)]);
    var height = api.size([0, 1])[1] * 0.85;
    var shape = echarts.graphic.clipRectByRect(
      { x: left[0], y: left[1] - height / 2, width: Math.max(right[0] - left[0], 1), height: height },
      { x: params.coordSys.x, y: params.coordSys.y, width: params.coordSys.width, height: params.coordSys.height });
    if (!shape) return null;
    var name = api.value(3);
    return {
      type: "rect", shape: shape, style: { fill: color(String(name)), stroke: "#fff", lineWidth: 0.5 },
      textContent: shape.width > 40 ? { style: { text: name, fill: "#fff", fontSize: 11, width: shape.width - 6, overflow: "truncate" } } : undefined,
      textConfig: { position: "insideLeft" },
    };
  }

  function threadLabel(t) { return processLabel(t) + " · tid " + t.tid + (t.name ? " " + t.name : ""); }

  function summarize(slices, start, end) {
    var byName = {};
    slices.forEach(function (s) {
      var entry = byName[s.name] || (byName[s.name] = { name: s.name, count: 0, total: 0 });
      entry.count += 1;
      entry.total += s.dur;
    });
    var top = Object.keys(byName).map(function (k) { return byName[k]; })
      .sort(function (a, b) { return b.total - a.total; }).slice(0, 10);
    WH.summary(WH.html`<table><tr><th>slice name (top 10 in window)</th><th>count</th><th>total</th></tr>${top.map(function (e) {
      return WH.html`<tr class="wh-slice-name"><td>${e.name}</td><td>${e.count}</td><td>${WH.formatNs(e.total)}</td></tr>`;
    })}</table>`);
  }

  /* The earliest of epoch timestamps that may be BigInts. */
  function earliest(values) {
    return values.reduce(function (m, v) { return WH.rel(v, m) < 0 ? v : m; });
  }

  /* One lane per thread. Times on the chart are ns after the lanes' first slice (exact
   * Numbers); the view [start, end) is in those units too. */
  function show(lanes, view, title) {
    var chart = WH.chart();
    var origin = earliest(lanes.map(function (t) { return t.start_ns; }));
    var span = Math.max.apply(null, lanes.map(function (t) { return WH.rel(t.end_ns, origin); }));
    var pending = null;

    function fetchWindow(thread, start, end, minDur) {
      return WH.query("timeline_slices", { thread_id: thread.thread_id, start: WH.abs(origin, Math.floor(start)),
        end: WH.abs(origin, Math.ceil(end)), min_dur: minDur });
    }

    /* Slices narrower than a pixel are left out, unless that leaves few: a device stream
     * of short kernels would otherwise look empty. Then every slice is fetched, unless
     * that answer is cut at the row limit. */
    function fetchLane(thread, start, end) {
      var minDur = Math.floor((end - start) / PIXELS);
      return fetchWindow(thread, start, end, minDur).then(function (wide) {
        if (minDur === 0 || wide.length >= FEW) return wide;
        return fetchWindow(thread, start, end, 0).then(function (all) { return WH.truncated("timeline_slices") ? wide : all; });
      });
    }

    function load(start, end) {
      return Promise.all(lanes.map(function (t) { return fetchLane(t, start, end); })).then(function (perLane) {
        var rows = [], data = [], all = [];
        perLane.forEach(function (slices, index) {
          var offset = rows.length;
          var maxDepth = slices.reduce(function (m, s) { return Math.max(m, s.depth); }, 0);
          for (var depth = 0; depth <= maxDepth; depth++) {
            rows.push(lanes.length === 1 ? "depth " + depth : depth === 0 ? "tid " + lanes[index].tid : "");
          }
          slices.forEach(function (s) {
            var ts = WH.rel(s.ts, origin);
            data.push([ts, ts + s.dur, offset + s.depth, s.name, s.id, s.dur, s.category]);
          });
          all = all.concat(slices);
        });
        var height = Math.max(480, 110 + 22 * rows.length) + "px";  // a readable row per depth
        if (chart.getDom().style.height !== height) {
          chart.getDom().style.height = height;
          chart.resize();
        }
        chart.setOption({ yAxis: { data: rows }, series: [{ data: data }] });
        summarize(all);
        WH.status(all.length + " slices" + (lanes.length > 1 ? " on " + lanes.length + " threads" : "") + " between " +
          WH.formatNs(start) + " and " + WH.formatNs(end) + " after the " + (lanes.length > 1 ? "threads'" : "thread's") +
          " first slice");
        WH.done();
      });
    }

    chart.setOption({
      animation: false,
      title: { text: title, left: "center", textStyle: { fontSize: 14 } },
      grid: { top: 40, left: 80, right: 30, bottom: 70 },
      tooltip: {
        formatter: WH.tooltip(function (p) {
          return WH.html`${p.value[3]}<br>${WH.formatNs(p.value[5])}${p.value[6] ? " · " + p.value[6] : ""}<br>at ${WH.formatNs(p.value[0])}`;
        }),
      },
      xAxis: { type: "value", min: 0, max: span, axisLabel: { formatter: WH.formatNs } },
      yAxis: { type: "category", inverse: true, data: ["depth 0"], axisTick: { show: false } },
      dataZoom: [
        { type: "inside", xAxisIndex: 0, filterMode: "weakFilter", startValue: view[0], endValue: view[1] },
        { type: "slider", xAxisIndex: 0, filterMode: "weakFilter", startValue: view[0], endValue: view[1],
          labelFormatter: WH.formatNs },
      ],
      series: [{ type: "custom", renderItem: renderItem, encode: { x: [0, 1], y: 2 }, data: [] }],
    }, true);

    chart.off("datazoom");
    chart.on("datazoom", function () {
      var zoom = chart.getOption().dataZoom[0];
      clearTimeout(pending);
      pending = setTimeout(function () { load(zoom.startValue, zoom.endValue).catch(WH.fail); }, 150);
    });
    chart.off("click");
    chart.on("click", function (p) { window.location.href = WH.queryUrl("slice_detail", { slice_id: p.value[4] }); });
    return load(view[0], view[1]);
  }

  var processLabels = {};  // process_id -> its label, set once the threads are known

  /* Each process's label, unique: its run (when there are several), rank, name and pid, and
   * its process_id where two would still read the same (a CANN and a Python process of one
   * rank share the pid; their names tell them apart). */
  function labelProcesses(processes, names) {
    var manyRuns = processes.some(function (t) { return t.run_id !== processes[0].run_id; });
    var labels = processes.map(function (t) {
      return (manyRuns ? "run " + t.run_id + " · " : "") + (t.rank_id === null ? "" : "rank " + t.rank_id + " · ") +
        (names[t.process_id] ? names[t.process_id] + " · " : "") + "pid " + t.pid;
    });
    var unique = WH.uniqueLabels(labels, processes.map(function (t) { return "process " + t.process_id; }));
    processes.forEach(function (t, i) { processLabels[t.process_id] = unique[i]; });
  }

  function processLabel(t) { return processLabels[t.process_id]; }

  function threadById(threads, id) {
    return threads.filter(function (t) { return String(t.thread_id) === String(id); })[0];
  }

  /* The thread a person opens the timeline for: the busiest (most slices) of the first rank's
   * threads (of the first run with ranks), not an operator simulator's core or whichever thread
   * comes first; the first thread when no thread has a rank, or when counting is refused. */
  function busiestOfFirstRank(threads) {
    var ranked = threads.filter(function (t) { return t.rank_id !== null; });
    if (!ranked.length) return Promise.resolve(threads[0]);
    var run = ranked[0].run_id;
    var rank = Math.min.apply(null, ranked.filter(function (t) { return t.run_id === run; }).map(function (t) { return t.rank_id; }));
    var own = ranked.filter(function (t) { return t.run_id === run && t.rank_id === rank; });
    var ids = own.map(function (t) { return Number(t.thread_id); }).join(", ");
    return WH.sql("select thread_id from _slice where thread_id in (" + ids + ") group by thread_id " +
                  "order by count(*) desc, thread_id limit 1").then(function (rows) {
      return own.filter(function (t) { return rows.length && t.thread_id === rows[0].thread_id; })[0] || own[0];
    }, function () { return own[0]; });
  }

  WH.start(function () {
    return Promise.all([WH.query("timeline_threads", {}), WH.sql("select id as process_id, name from process")]).then(function (results) {
      var threads = results[0].filter(function (t) { return t.start_ns !== null; });
      if (!threads.length) return WH.empty("No thread with slices in this warehouse.");
      var names = {};
      results[1].forEach(function (p) { names[p.process_id] = p.name; });
      var asked = threadById(threads, WH.args.thread_id) ||
        threads.filter(function (t) { return String(t.process_id) === String(WH.args.process_id); })[0];
      return (asked ? Promise.resolve(asked) : busiestOfFirstRank(threads)).then(function (first) { return open(threads, names, first); });
    });
  });

  /* The controls (process, thread) and the chart, opened on ``first``. */
  function open(threads, names, first) {
    var processId = first.process_id;
    var threadChoice = WH.args.thread_id || !WH.args.process_id ? String(first.thread_id) : "";
    var threadSelect = null;
    var initial = true;

    // start and end in the URL are epoch ns like the queries' parameters; they hold for the first view only
    function draw() {
      var lanes = threadChoice === "" ? threads.filter(function (t) { return t.process_id === processId; }) : [threadById(threads, threadChoice)];
      var origin = earliest(lanes.map(function (t) { return t.start_ns; }));
      var fromUrl = initial;
      initial = false;
      var start = fromUrl && WH.args.start ? WH.rel(BigInt(WH.args.start), origin) : 0;
      var end = fromUrl && WH.args.end ? WH.rel(BigInt(WH.args.end), origin)
        : Math.max.apply(null, lanes.map(function (t) { return WH.rel(t.end_ns, origin); }));
      var title = lanes.length === 1 ? threadLabel(lanes[0]) : processLabel(lanes[0]) + " · " + lanes.length + " threads";
      return show(lanes, [start, end], title).catch(WH.fail);
    }

    function threadControl() {
      if (threadSelect) threadSelect.parentNode.remove();
      var own = threads.filter(function (t) { return t.process_id === processId; });
      threadSelect = WH.select("thread_id", "thread", [["", "every thread (" + own.length + ")"]].concat(own.map(function (t) {
        return [t.thread_id, "tid " + t.tid + (t.name ? " " + t.name : "")];
      })), threadChoice, function (value) { threadChoice = value; draw(); });
    }

    var processes = [];
    threads.forEach(function (t) {
      if (!processes.some(function (p) { return p.process_id === t.process_id; })) processes.push(t);
    });
    labelProcesses(processes, names);
    WH.select("process_id", "process", processes.map(function (t) { return [t.process_id, processLabel(t)]; }), processId,
      function (value) {
        processId = Number(value);
        var own = threads.filter(function (t) { return t.process_id === processId; });
        threadChoice = String(own[0].thread_id);
        threadControl();
        draw();
      });
    threadControl();
    return draw();
  }
})();
