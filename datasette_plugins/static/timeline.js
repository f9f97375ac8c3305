/* Timeline: a flame chart of one thread. Slices are rectangles at (ts .. ts + dur, depth);
 * zooming (scroll, drag, the slider) refetches the slices of the visible window from the
 * named query timeline_slices, leaving out those narrower than a pixel (min_dur).
 * Threads and their spans come from timeline_threads. Click a slice for slice_detail. */
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

  function threadLabel(t) {
    return (t.rank_id === null ? "" : "rank " + t.rank_id + " · ") + "pid " + t.pid + " · tid " + t.tid + (t.name ? " " + t.name : "");
  }

  function summarize(slices, start, end) {
    var byName = {};
    slices.forEach(function (s) {
      var entry = byName[s.name] || (byName[s.name] = { name: s.name, count: 0, total: 0 });
      entry.count += 1;
      entry.total += s.dur;
    });
    var top = Object.keys(byName).map(function (k) { return byName[k]; })
      .sort(function (a, b) { return b.total - a.total; }).slice(0, 10);
    WH.summary("<table><tr><th>slice name (top 10 in window)</th><th>count</th><th>total</th></tr>" + top.map(function (e) {
      return '<tr class="wh-slice-name"><td>' + WH.escape(e.name) + "</td><td>" + e.count + "</td><td>" + WH.formatNs(e.total) + "</td></tr>";
    }).join("") + "</table>");
    WH.status(slices.length + " slices between " + WH.formatNs(start) + " and " + WH.formatNs(end) + " after the thread's first slice");
  }

  /* Times on the chart are ns after the thread's first slice (exact Numbers); the window
   * [start, end) is in those units too. */
  function show(thread, window) {
    var chart = WH.chart();
    var origin = thread.start_ns;
    var span = WH.rel(thread.end_ns, origin);
    var pending = null;

    function fetchWindow(start, end, minDur) {
      return WH.query("timeline_slices", { thread_id: thread.thread_id, start: WH.abs(origin, Math.floor(start)),
        end: WH.abs(origin, Math.ceil(end)), min_dur: minDur });
    }

    /* Slices narrower than a pixel are left out, unless that leaves few: a device stream
     * of short kernels would otherwise look empty. Then every slice is fetched, unless
     * that answer is cut at the row limit. */
    function load(start, end) {
      var minDur = Math.floor((end - start) / PIXELS);
      return fetchWindow(start, end, minDur)
        .then(function (wide) {
          if (minDur === 0 || wide.length >= FEW) return wide;
          return fetchWindow(start, end, 0).then(function (all) { return WH.truncated("timeline_slices") ? wide : all; });
        })
        .then(function (slices) {
          var maxDepth = slices.reduce(function (m, s) { return Math.max(m, s.depth); }, 0);
          var height = Math.max(480, 110 + 22 * (maxDepth + 1)) + "px";  // a readable row per depth
          if (chart.getDom().style.height !== height) {
            chart.getDom().style.height = height;
            chart.resize();
          }
          chart.setOption({
            yAxis: { data: Array.from({ length: maxDepth + 1 }, function (_, i) { return "depth " + i; }) },
            series: [{
              data: slices.map(function (s) {
                var ts = WH.rel(s.ts, origin);
                return [ts, ts + s.dur, s.depth, s.name, s.id, s.dur, s.category];
              }),
            }],
          });
          summarize(slices, start, end);
          WH.done();
        });
    }

    chart.setOption({
      animation: false,
      title: { text: threadLabel(thread), left: "center", textStyle: { fontSize: 14 } },
      grid: { top: 40, left: 70, right: 30, bottom: 70 },
      tooltip: {
        formatter: function (p) {
          return WH.escape(p.value[3]) + "<br>" + WH.formatNs(p.value[5]) + (p.value[6] ? " · " + WH.escape(p.value[6]) : "") +
            "<br>at " + WH.formatNs(p.value[0]);
        },
      },
      xAxis: {
        type: "value", min: 0, max: span,
        axisLabel: { formatter: WH.formatNs },
      },
      yAxis: { type: "category", inverse: true, data: ["depth 0"] },
      dataZoom: [
        { type: "inside", xAxisIndex: 0, filterMode: "weakFilter", startValue: window[0], endValue: window[1] },
        { type: "slider", xAxisIndex: 0, filterMode: "weakFilter", startValue: window[0], endValue: window[1],
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
    return load(window[0], window[1]);
  }

  WH.start(function () {
    return WH.query("timeline_threads", {}).then(function (threads) {
      threads = threads.filter(function (t) { return t.start_ns !== null; });
      if (!threads.length) return WH.empty("No thread with slices in this warehouse.");
      var chosen = threads.filter(function (t) { return String(t.thread_id) === String(WH.args.thread_id); })[0] || threads[0];
      function pick(threadId) {
        var thread = threads.filter(function (t) { return String(t.thread_id) === String(threadId); })[0];
        // start and end in the URL are epoch ns like the queries' parameters
        var start = thread === chosen && WH.args.start ? WH.rel(BigInt(WH.args.start), thread.start_ns) : 0;
        var end = thread === chosen && WH.args.end ? WH.rel(BigInt(WH.args.end), thread.start_ns) : WH.rel(thread.end_ns, thread.start_ns);
        return show(thread, [start, end]).catch(WH.fail);
      }
      WH.select("thread_id", "thread", threads.map(function (t) { return [t.thread_id, threadLabel(t)]; }), chosen.thread_id, pick);
      return pick(chosen.thread_id);
    });
  });
})();
