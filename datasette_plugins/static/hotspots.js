/* Hot spots in source: an operator's source file, each line with the cycles and
 * instructions spent on it (summed over cores, or on one core) as numbers, the hottest
 * lines shaded; a bar chart of the hottest lines above. Data: the named queries op_runs
 * and op_hot_lines, the file's text from code_file and its cores from code_line. */
(function () {
  "use strict";
  var TOP = 10;
  var MAX_LINES = 100000;  // every line with cycles, not just the query's default top 50

  function fileText(sourceId, path) {
    return WH.sql("select content from code_file where source_id = :source_id and path = :path",
      { source_id: sourceId, path: path }).then(function (rows) {
      if (!rows.length || rows[0].content === null) return null;
      var content = rows[0].content;
      // a file that is not UTF-8 is stored as a BLOB, which Datasette sends as base64
      return content.$base64 ? atob(content.encoded) : String(content);
    });
  }

  function perLine(rows) {
    var lines = {};
    rows.forEach(function (r) {
      var entry = lines[r.line] || (lines[r.line] = { line: r.line, cycles: 0, instructions: 0 });
      entry.cycles += r.cycles || 0;
      entry.instructions += r.instructions_executed || 0;
    });
    return lines;
  }

  function drawTop(lines, file) {
    var top = Object.keys(lines).map(function (k) { return lines[k]; })
      .sort(function (a, b) { return b.cycles - a.cycles; }).slice(0, TOP).reverse();
    WH.chart().setOption({
      animation: false,
      title: { text: "Hottest lines of " + file.split("/").pop(), left: "center", textStyle: { fontSize: 14 } },
      grid: { top: 40, left: 80, right: 60, bottom: 30 },
      tooltip: { trigger: "axis" },
      xAxis: { type: "value", name: "cycles" },
      yAxis: { type: "category", data: top.map(function (l) { return "line " + l.line; }) },
      series: [{ type: "bar", color: "#e15759", data: top.map(function (l) { return l.cycles; }),
        label: { show: true, position: "right" } }],
    }, true);
    document.getElementById("wh-chart").style.height = Math.max(160, 60 + 28 * top.length) + "px";
    WH.chart().resize();
  }

  function codeTable(text, lines) {
    var max = Object.keys(lines).reduce(function (m, k) { return Math.max(m, lines[k].cycles); }, 0);
    var source = text === null ? [] : text.split("\n");
    var count = Math.max(source.length, Object.keys(lines).reduce(function (m, k) { return Math.max(m, Number(k)); }, 0));
    var rows = [];
    for (var n = 1; n <= count; n++) {
      var hot = lines[n];
      var share = hot && max ? hot.cycles / max : 0;
      rows.push(WH.html`<tr data-line="${n}"${hot ? WH.html` data-cycles="${hot.cycles}"` : ""}${
        share >= 0.5 ? WH.html` class="wh-hot"` : ""} style="background: rgba(225, 87, 89, ${(0.6 * share).toFixed(3)})">
        <td>${n}</td><td>${hot ? hot.cycles : ""}</td><td>${hot ? hot.instructions : ""}</td>
        <td class="wh-src">${source[n - 1] || ""}</td></tr>`);
    }
    return WH.html`<table class="wh-code"><tr><th>line</th><th>cycles</th><th>instructions</th><th class="wh-src">source</th></tr>${rows}</table>`;
  }

  WH.start(function () {
    return WH.query("op_runs", {}).then(function (runs) {
      if (!runs.length) return WH.empty("No operator profile in this warehouse (op_run is empty).");
      var chosen = runs.filter(function (r) { return String(r.source_id) === String(WH.args.source_id); })[0] || runs[0];

      function showFile(run, rows, file, core) {
        var own = rows.filter(function (r) { return r.file === file; });
        var lines = perLine(own);
        return fileText(run.source_id, file).then(function (text) {
          drawTop(lines, file);
          WH.summary(codeTable(text, lines));
          var total = Object.keys(lines).reduce(function (s, k) { return s + lines[k].cycles; }, 0);
          WH.status(run.name + (core ? " on " + core : "") + ": " + Object.keys(lines).length + " lines with cycles in " +
            file + ", " + total + " cycles in all" +
            (text === null ? " (source text not in the profile)" : ""));
          WH.done();
        });
      }

      var extraSelects = [];

      /* The file and core controls belong to one operator: replaced when it changes. */
      function control(name, label, options, selected, onChange) {
        var element = WH.select(name, label, options, selected, onChange);
        extraSelects.push(element);
        return element;
      }

      function showLines(run, core, fileWanted) {
        return WH.query("op_hot_lines", { source_id: run.source_id, core: core, limit: MAX_LINES }).then(function (rows) {
          if (!rows.length) return WH.empty("Operator " + run.name + " has no per-line data.");
          var files = [];
          rows.forEach(function (r) { if (files.indexOf(r.file) < 0) files.push(r.file); });
          var file = files.indexOf(fileWanted) >= 0 ? fileWanted : files[0];
          return showFile(run, rows, file, core).then(function () { return files; });
        });
      }

      function showRun(sourceId) {
        var run = runs.filter(function (r) { return String(r.source_id) === String(sourceId); })[0];
        extraSelects.forEach(function (element) { element.parentNode.remove(); });
        extraSelects = [];
        var core = run === chosen && WH.args.core || "";  // the URL's choices are for its operator
        var file = run === chosen ? WH.args.file : undefined;
        var cores = WH.sql("select distinct core from code_line where source_id = :source_id order by core_index",
          { source_id: sourceId });
        return Promise.all([showLines(run, core, file), cores]).then(function (results) {
          var files = results[0], coreRows = results[1];
          if (!files) return;  // nothing to draw: the page already says so
          control("file", "file", files.map(function (f) { return [f, f]; }), file || files[0],
            function (chosenFile) { file = chosenFile; showLines(run, core, file).catch(WH.fail); });
          control("core", "core", [["", "every core (summed)"]].concat(coreRows.map(function (r) { return [r.core, r.core]; })),
            core, function (chosenCore) { core = chosenCore; showLines(run, core, file).catch(WH.fail); });
        }).catch(WH.fail);
      }

      WH.select("source_id", "operator", WH.operatorOptions(runs), chosen.source_id, showRun);
      return showRun(chosen.source_id);
    });
  });
})();
