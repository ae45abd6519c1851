// pigclass: draws every [data-echarts] element with the vendored ECharts,
// on load and after htmx swaps. The options are built on the server.
(function () {
  "use strict";
  // ECharts takes a line of text to be as tall as the CJK glyph "国" is
  // wide: a font's size where the system has a CJK font, but a third of
  // it where it has none (a Linux machine with Latin fonts only), and
  // then labels meant to stand clear of each other, or to be left out
  // when they would not, are drawn over each other. The glyph is
  // measured as the size of its font, as a CJK font draws it.
  if (window.echarts && echarts.setPlatformAPI) {
    var measuring = document.createElement("canvas").getContext("2d");
    echarts.setPlatformAPI({
      measureText: function (text, font) {
        measuring.font = font || "12px sans-serif";
        var m = measuring.measureText(text), px = /([\d.]+)px/.exec(measuring.font);
        return text === "\u56fd" && px ? { width: Math.max(m.width, parseFloat(px[1])) } : m;
      }
    });
  }
  function draw(root) {
    if (!window.echarts || !root.querySelectorAll) return;
    var els = root.matches && root.matches("[data-echarts]") ? [root] : [];
    els = els.concat(Array.prototype.slice.call(root.querySelectorAll("[data-echarts]")));
    els.forEach(function (el) {
      drawOne(el);
      if (sized) sized.observe(el);
    });
  }
  // drawOne draws el's chart at its size now: on the projector the
  // option is laid out for that size (fonts, ticks, label lines), so a
  // chart whose box changes is drawn again, not stretched.
  function drawOne(el) {
    var old = echarts.getInstanceByDom(el);
    if (old) old.dispose();
    var option = JSON.parse(el.dataset.echarts);
    withoutColour(option);
    readersNumbers(option);
    var big = document.body.classList.contains("wide");
    el.dataset.drawn = el.clientWidth + "x" + el.clientHeight;
    if (big) {
      projector(option, el.clientWidth, el.clientHeight);
    } else {
      axisNames(option, 12);
    }
    if (still) option.animation = false;
    echarts.init(el).setOption(option);
  }
  var still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  var sized = window.ResizeObserver ? new ResizeObserver(function (entries) {
    entries.forEach(function (e) {
      var el = e.target;
      if (!el.isConnected) { sized.unobserve(el); return; }
      if (el.dataset.drawn === el.clientWidth + "x" + el.clientHeight || !el.clientWidth || !el.clientHeight) return; // unchanged, or hidden
      if (document.body.classList.contains("wide")) { drawOne(el); return; }
      var c = echarts.getInstanceByDom(el);
      if (c) c.resize();
    });
  }) : null;
  // Series told apart without colour: bars and areas get ECharts' decal
  // patterns, lines their own dash and mark, scatters their own mark. The
  // page's own accessible name of the chart is kept (ECharts' generated
  // description is off).
  function withoutColour(option) {
    option.aria = Object.assign({ enabled: true, label: { enabled: false }, decal: { show: true } }, option.aria);
    var dashes = ["solid", "dashed", "dotted"], marks = ["circle", "triangle", "rect", "diamond"];
    (Array.isArray(option.series) ? option.series : option.series ? [option.series] : []).forEach(function (s, i) {
      if (s.type === "line") {
        s.lineStyle = Object.assign({ type: dashes[i % dashes.length], width: 3 }, s.lineStyle);
        if (!s.symbol) s.symbol = marks[i % marks.length];
      }
      if (s.type === "scatter" && !s.symbol) s.symbol = marks[i % marks.length];
    });
  }

  // Numbers on value axes and in tooltips are written as the page's
  // readers write them (0.25 in English, 0,25 in Spanish): the page's
  // lang, through the browser's Intl.
  function readersNumbers(option) {
    if (!window.Intl) return;
    var nf = new Intl.NumberFormat(document.documentElement.lang || "en", { maximumFractionDigits: 4 });
    function fmt(v) { return typeof v === "number" ? nf.format(v) : v; }
    function each(x, fn) { (Array.isArray(x) ? x : x ? [x] : []).forEach(fn); }
    each(option.xAxis, function (a) { if (a.type === "value") a.axisLabel = Object.assign({ formatter: fmt }, a.axisLabel); });
    each(option.yAxis, function (a) { if (!a.type || a.type === "value") a.axisLabel = Object.assign({ formatter: fmt }, a.axisLabel); });
    option.tooltip = Object.assign({ valueFormatter: function (v) { return Array.isArray(v) ? v.map(fmt).join(" · ") : fmt(v); } }, option.tooltip);
  }

  // Axis names sit centred along their axis (the y name turned), where a
  // long name in a longer language still fits a phone's narrow chart. The
  // y name stands clear of the widest tick label the data can give (its
  // largest number, written as the axis writes it), so the two never
  // overlap.
  function axisNames(option, fontSize) {
    function each(x, fn) { (Array.isArray(x) ? x : x ? [x] : []).forEach(fn); }
    var named = false, left = 56;
    each(option.xAxis, function (a) { if (a.name) { named = true; a.nameLocation = a.nameLocation || "middle"; a.nameGap = a.nameGap || 28 + fontSize; } });
    each(option.yAxis, function (a) {
      if (!a.name) return;
      named = true;
      a.nameLocation = a.nameLocation || "middle";
      a.nameRotate = 90;
      // The turned name is centred on its gap: half its height, and room.
      var gap = widestLabel(option, a, fontSize) + 8 + fontSize;
      a.nameGap = Math.max(a.nameGap || 0, gap);
      left = Math.max(left, a.nameGap + fontSize + 8);
    });
    if (named) option.grid = Object.assign({ left: left, right: 16, bottom: 48 + 2 * fontSize, containLabel: false }, option.grid);
  }

  // widestLabel is the width in px of the widest tick label of a y axis:
  // its categories, or the largest of the series' numbers as its formatter
  // writes them (one digit more, for the round number above).
  function widestLabel(option, axis, fontSize) {
    var texts = [];
    if (Array.isArray(axis.data)) {
      axis.data.forEach(function (d) { texts.push(String(d && d.value !== undefined ? d.value : d)); });
    } else {
      var max = 0;
      (Array.isArray(option.series) ? option.series : [option.series]).forEach(function (ser) {
        ((ser && ser.data) || []).forEach(function (d) {
          var v = d && d.value !== undefined ? d.value : d;
          if (Array.isArray(v)) v = v[1];
          if (typeof v === "number" && isFinite(v)) max = Math.max(max, Math.abs(v));
        });
      });
      var f = axis.axisLabel && axis.axisLabel.formatter;
      var x = max * 10 + 9;
      var text = typeof f === "function" ? f(x) : typeof f === "string" ? f.replace("{value}", x) : String(x);
      texts.push("-" + text);
    }
    return texts.reduce(function (w, t) { return Math.max(w, textWidth(t, fontSize)); }, 0);
  }

  // On the projector every text is 18 to 24 px (by the chart's size) and
  // laid out for the box it is drawn in: the legend above the plot, the
  // tick labels inside the grid (containLabel), as many value ticks as
  // the height holds, category labels broken into lines as wide as their
  // category (never turned onto each other), the x axis's labels clear of
  // the y axis's lowest, the axis names outside the labels.
  function projector(option, width, height) {
    var fs = Math.max(18, Math.min(24, Math.round(Math.min(width / 40, height / 18))));
    var big = { fontSize: fs };
    function each(x, fn) { (Array.isArray(x) ? x : x ? [x] : []).forEach(fn); }
    // The legend above the plot, its items wrapped into as many rows as
    // the width needs (every item shown whole).
    var legendRows = 0;
    each(option.legend, function (l) {
      if (l.show === false) return;
      l.top = 0; l.bottom = null; l.left = "center"; l.type = "plain"; l.width = width - 24;
      l.textStyle = Object.assign({}, l.textStyle, big);
      var names = Array.isArray(l.data) ? l.data.map(function (d) { return d && d.name !== undefined ? d.name : d; }) : [];
      if (!names.length) each(option.series, function (s) { if (s.name) names.push(s.name); });
      legendRows += rows(names, width - 24, fs);
    });
    var legend = legendRows > 0;
    each(option.title, function (t) { t.textStyle = Object.assign({}, t.textStyle, { fontSize: fs + 4 }); });
    var yName = false, xName = false;
    each(option.yAxis, function (a) { if (a.name) yName = true; });
    each(option.xAxis, function (a) { if (a.name) xName = true; });
    // The y axis's name stands above the axis, level, where no tick
    // label is: the legend's row, then the name's, then the plot. A label
    // written above its point (a share over its box) may stand above the
    // plot when the point is at the axis's top: the name then stands a
    // label's height higher, clear of it.
    var above = 0;
    each(option.series, function (s) {
      if (s.label && s.label.show && s.label.position === "top") above = Math.round(fs * 1.4) + 6;
    });
    var top = (legend ? legendRows * Math.round(fs * 1.4 + 10) + 8 : fs) + (yName ? Math.round(1.6 * fs) + above : 0);
    var grid = { left: 12, right: fs, top: top, bottom: xName ? 2 * fs + 8 : 8, containLabel: true };
    var plotW = width - grid.left - grid.right - 4 * fs, plotH = height - grid.top - grid.bottom - 3 * fs;
    var labelLines = 1;
    each(option.xAxis, function (a) {
      a.axisLabel = Object.assign({}, a.axisLabel, big, { margin: Math.round(fs * 0.6) + 6, hideOverlap: true });
      if (Array.isArray(a.data) && a.data.length) {
        // Each label gets its category's width, or every k-th label k
        // categories' width when one word is wider than a category.
        var texts = a.data.map(function (d) { return String(d && d.value !== undefined ? d.value : d); });
        // The labels' font gives way first, down to 18 px.
        var each1 = plotW / texts.length, lfs = fs, word = widestWord(texts, lfs);
        while (lfs > 18 && word + 12 > each1) word = widestWord(texts, --lfs);
        var k = Math.max(1, Math.ceil((word + 12) / each1));
        var w = Math.max(word + 4, Math.floor(k * each1) - 8);
        a.axisLabel.fontSize = lfs;
        a.axisLabel.rotate = 0; a.axisLabel.interval = k - 1; a.axisLabel.width = w; a.axisLabel.overflow = "break"; a.axisLabel.lineHeight = Math.round(lfs * 1.2);
        texts.forEach(function (text) { labelLines = Math.max(labelLines, lines(text, w, lfs)); });
      } else if (!a.type || a.type === "value") {
        a.splitNumber = Math.max(2, Math.min(8, Math.floor(plotW / (fs * 4))));
      }
      a.nameTextStyle = Object.assign({}, a.nameTextStyle, big);
    });
    each(option.xAxis, function (a) {
      if (a.name) { a.nameLocation = "middle"; a.nameGap = a.axisLabel.margin + labelLines * Math.round(fs * 1.2) + Math.round(fs * 0.7); }
    });
    if (labelLines > 1) plotH -= (labelLines - 1) * fs * 1.2;
    each(option.yAxis, function (a) {
      a.axisLabel = Object.assign({}, a.axisLabel, big, { hideOverlap: true });
      if (!a.type || a.type === "value") a.splitNumber = Math.max(2, Math.min(6, Math.floor(plotH / (fs * 2.6))));
      a.nameTextStyle = Object.assign({}, a.nameTextStyle, big);
      if (a.name) {
        a.nameLocation = "end"; a.nameRotate = 0; a.nameGap = Math.round(fs * 0.6) + above;
        a.nameTextStyle.align = "left";
      }
    });
    each(option.series, function (s) {
      // A label that would run past the chart's right edge goes to the
      // left of its point; labels on each other are left out.
      s.labelLayout = s.labelLayout || function (p) {
        if (p.labelRect.x + p.labelRect.width > width - 4) return { x: p.rect.x - 4, align: "right", hideOverlap: true };
        return { hideOverlap: true };
      };
      if (s.label) s.label = Object.assign({}, s.label, big);
    });
    option.grid = Object.assign({}, option.grid, grid);
    option.textStyle = Object.assign({}, option.textStyle, big);
  }

  // rows is how many rows a plain legend of names takes in w px: each
  // item its icon (25 px), a gap (5) and its words, 10 px apart.
  function rows(names, w, fs) {
    var n = names.length ? 1 : 0, used = 0;
    names.forEach(function (name) {
      var item = 25 + 5 + textWidth(String(name), fs) + 10;
      if (used > 0 && used + item > w) { n++; used = 0; }
      used += item;
    });
    return n;
  }

  // widestWord is the width in px of the widest word of texts in fs px.
  function widestWord(texts, fs) {
    var most = 0;
    texts.forEach(function (text) {
      text.split(/\s+/).forEach(function (word) { most = Math.max(most, textWidth(word, fs)); });
    });
    return Math.ceil(most);
  }

  // lines is how many lines text takes broken at spaces into lines w px
  // wide, in fs px.
  function lines(text, w, fs) {
    var n = 1, line = "";
    text.split(/\s+/).forEach(function (word) {
      var next = line ? line + " " + word : word;
      if (line && textWidth(next, fs) > w) { n++; line = word; } else { line = next; }
    });
    return n;
  }

  // textWidth is the width in px of text drawn in fs px sans-serif, as
  // ECharts draws it (one canvas, kept).
  var measurer = null;
  function textWidth(text, fs) {
    measurer = measurer || document.createElement("canvas").getContext("2d");
    measurer.font = fs + "px sans-serif";
    return measurer.measureText(text).width;
  }
  document.addEventListener("DOMContentLoaded", function () {
    draw(document);
    document.body.addEventListener("htmx:afterSwap", function (e) { draw(e.detail.elt); });
  });
  if (!sized) {
    window.addEventListener("resize", function () {
      document.querySelectorAll("[data-echarts]").forEach(function (el) {
        var c = echarts.getInstanceByDom(el);
        if (c) c.resize();
      });
    });
  }
})();
