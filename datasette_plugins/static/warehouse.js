/* Shared helpers of the picture pages: fetch rows from Datasette's JSON API (_shape=objects), format
 * nanoseconds, bytes and bytes/s the way the SQL functions do, report status, build controls.
 * Every page script ends by calling WH.done(), which marks <body data-wh-ready> so a
 * headless browser (and a test) knows the picture is drawn.
 *
 * Text from the warehouse is an input's text (a device id, a kernel or file name, a source line):
 * it reaches the page only as text. Controls and the status line set textContent; the only HTML
 * a page writes (its summary table, a chart's tooltip) is made by the tagged template WH.html,
 * which escapes every value it interpolates, and WH.summary and WH.tooltip take nothing else. */
(function () {
  "use strict";
  var config = window.WAREHOUSE;

  var truncated = {};  // query name -> whether its latest answer was cut at max_returned_rows

  function url(path, params) {
    var query = new URLSearchParams({ _shape: "objects" });
    Object.keys(params || {}).forEach(function (key) {
      if (params[key] !== null && params[key] !== undefined) query.set(key, params[key]);
    });
    return config.databaseUrl + path + ".json?" + query.toString();
  }

  /* Unix-epoch nanoseconds (~1.7e18) are past 2**53: keep them exact as BigInt where the
   * browser shows JSON.parse the number's source text (Chrome 114+). */
  function reviver(key, value, context) {
    if (typeof value === "number" && !Number.isSafeInteger(value) && context && /^-?\d+$/.test(context.source)) {
      return BigInt(context.source);
    }
    return value;
  }

  function fetchRows(address, name) {
    return fetch(address).then(function (response) {
      return response.text().then(function (text) {
        var body = JSON.parse(text, reviver);
        if (!response.ok || !body.ok || !Array.isArray(body.rows)) {
          throw new Error(body.error || body.title || ("HTTP " + response.status));
        }
        truncated[name] = body.truncated;
        return body.rows;
      });
    });
  }

  /* Markup made by WH.html: its literal parts are the page script's own, every value in it escaped. */
  function SafeHtml(text) { this.text = text; }

  var ENTITIES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

  /* ``value`` as HTML text, safe in an element and in a quoted attribute alike: SafeHtml as it
   * is, an array item by item, null and undefined as nothing, anything else escaped. */
  function escapeHtml(value) {
    if (value instanceof SafeHtml) return value.text;
    if (Array.isArray(value)) return value.map(escapeHtml).join("");
    if (value === null || value === undefined) return "";
    return String(value).replace(/[&<>"']/g, function (c) { return ENTITIES[c]; });
  }

  /* The HTML of ``content``, refused unless WH.html made it (a string built by hand may hold
   * an input's markup). */
  function markup(content) {
    if (!(content instanceof SafeHtml)) throw new TypeError("page HTML must be made by WH.html");
    return content.text;
  }

  /* The unit rules (warehouse/units.py TABLE, put in the page by the server): ladders of
   * [scale, name] from the largest, the decimals of a scaled value, the base unit's name. */
  var UNITS = config.units;

  /* ``value`` with ``decimals`` decimals, halves away from zero (toFixed on the magnitude), no "-0". */
  function fixed(value, decimals) {
    var text = Math.abs(value).toFixed(decimals);
    return (value < 0 && Number(text) !== 0 ? "-" : "") + text;
  }

  /* ``value`` in the largest unit of ``ladder`` it reaches; "" for null and what is no finite
   * number (the SQL functions answer NULL). */
  function scaled(value, ladder) {
    if (value === null || value === undefined || !Number.isFinite(Number(value))) return "";
    value = Number(value);
    for (var i = 0; i < ladder.units.length; i++) {
      var scale = ladder.units[i][0];
      if (Math.abs(value) >= scale) return fixed(value / scale, ladder.decimals) + " " + ladder.units[i][1];
    }
    return fixed(value, 0) + " " + ladder.base;
  }

  window.WH = {
    config: config,
    args: config.args,

    /* Rows of a named query (a canned query), as objects. */
    query: function (name, params) { return fetchRows(url("/" + name, params), name); },

    /* Rows of a short ad-hoc read-only SELECT, as objects. */
    sql: function (sql, params) {
      return fetchRows(url("", Object.assign({ sql: sql }, params || {})), "sql");
    },

    /* Whether the latest answer of a query was cut at Datasette's max_returned_rows. */
    truncated: function (name) { return !!truncated[name]; },

    queryUrl: function (name, params) {
      return config.databaseUrl + "/" + name + "?" + new URLSearchParams(params).toString();
    },

    /* ``value - origin`` as a Number, exact when either is a BigInt epoch timestamp. */
    rel: function (value, origin) {
      if (typeof value === "bigint" || typeof origin === "bigint") return Number(BigInt(value) - BigInt(origin));
      return value - origin;
    },

    /* ``origin + offset`` as decimal text, for a query parameter. */
    abs: function (origin, offset) {
      return (BigInt(origin) + BigInt(Math.round(offset))).toString();
    },

    /* Same output as the SQL function format_ns. */
    formatNs: function (ns) { return scaled(ns, UNITS.time); },

    /* Same output as the SQL function format_bytes. */
    formatBytes: function (size) { return scaled(size, UNITS.size); },

    /* Same output as the SQL function format_rate (bytes/s). */
    formatRate: function (bytesPerS) {
      var text = scaled(bytesPerS, UNITS.size);
      return text && text + UNITS.rate_suffix;
    },

    /* A number as a person reads it: four significant digits, thousands grouped (no 16-digit floats). */
    round: function (value) {
      if (value === null || value === undefined) return "";
      return Number(value).toLocaleString("en-US", { maximumSignificantDigits: 4 });
    },

    /* ``labels`` made unique: a label that several items share gets their own ``tells[i]`` appended. */
    uniqueLabels: function (labels, tells) {
      return labels.map(function (label, i) {
        var twins = labels.filter(function (other) { return other === label; }).length;
        return twins > 1 ? label + " · " + tells[i] : label;
      });
    },

    /* The operator list of the op_runs rows, as [source_id, label] options: the operator's name,
     * then the profile's own name where it says more (a card named as the operator does not),
     * then its input where two still read the same. */
    operatorOptions: function (runs) {
      var labels = WH.uniqueLabels(
        runs.map(function (r) { return r.name + (r.card && r.card !== r.name ? " · " + r.card : ""); }),
        runs.map(function (r) { return "source " + r.source_id; }));
      return runs.map(function (r, i) { return [r.source_id, labels[i]]; });
    },

    /* Tagged template: WH.html`<td>${name}</td>` is SafeHtml with ``name`` escaped. */
    html: function (strings) {
      var out = strings[0];
      for (var i = 1; i < strings.length; i++) out += escapeHtml(arguments[i]) + strings[i];
      return new SafeHtml(out);
    },

    /* An ECharts tooltip formatter (ECharts shows its answer as HTML) from one answering WH.html. */
    tooltip: function (format) {
      return function (params) { return markup(format(params)); };
    },

    /* The status line; it says so when an answer was cut at Datasette's max_returned_rows. */
    status: function (text, isError) {
      var element = document.getElementById("wh-status");
      var cut = Object.keys(truncated).filter(function (name) { return truncated[name]; });
      element.textContent = text + (cut.length ? " (" + cut.join(", ") + ": cut at the row limit, zoom in or raise max_returned_rows)" : "");
      element.className = "wh-status" + (isError ? " wh-error" : "");
    },

    /* A <select> in the controls form; options are [value, label] pairs. */
    select: function (name, label, options, selected, onChange) {
      var wrapper = document.createElement("label");
      wrapper.textContent = label;
      var element = document.createElement("select");
      element.name = name;
      options.forEach(function (option) {
        var item = document.createElement("option");
        item.value = option[0];
        item.textContent = option[1];
        if (String(option[0]) === String(selected)) item.selected = true;
        element.appendChild(item);
      });
      element.addEventListener("change", function () { onChange(element.value); });
      wrapper.appendChild(element);
      document.getElementById("wh-controls").appendChild(wrapper);
      return element;
    },

    /* An ECharts instance drawn as SVG (text and shapes land in the DOM). */
    chart: function () {
      var element = document.getElementById("wh-chart");
      var existing = echarts.getInstanceByDom(element);
      if (element.classList.contains("wh-empty")) {  // an earlier choice had nothing to draw
        element.classList.remove("wh-empty");
        if (existing) existing.resize();
      }
      if (existing) return existing;
      var chart = echarts.init(element, null, { renderer: "svg" });
      window.addEventListener("resize", function () { chart.resize(); });
      return chart;
    },

    /* The summary under the chart: SafeHtml from WH.html. */
    summary: function (content) { document.getElementById("wh-summary").innerHTML = markup(content); },

    /* Nothing to draw: say why, hide the empty chart frame. */
    empty: function (text) {
      document.getElementById("wh-chart").classList.add("wh-empty");
      WH.summary(WH.html``);
      WH.status(text);
      WH.done();
    },

    fail: function (error) {
      WH.status("Could not load the data: " + (error && error.message ? error.message : error), true);
      WH.done();
    },

    done: function () { document.body.setAttribute("data-wh-ready", "1"); },

    /* Start the page unless a named query it needs is missing from the registry. */
    start: function (main) {
      if (config.missing.length) {
        WH.empty("This warehouse's query library has no " + config.missing.join(", ") + ": nothing to draw.");
        return;
      }
      Promise.resolve().then(main).catch(WH.fail);
    },
  };
})();
