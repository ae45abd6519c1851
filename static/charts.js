// pigclass: draws every [data-echarts] element with the vendored ECharts,
// on load and after htmx swaps. The options are built on the server.
(function () {
  "use strict";
  function draw(root) {
    if (!window.echarts || !root.querySelectorAll) return;
    var els = root.matches && root.matches("[data-echarts]") ? [root] : [];
    els = els.concat(Array.prototype.slice.call(root.querySelectorAll("[data-echarts]")));
    els.forEach(function (el) {
      var old = echarts.getInstanceByDom(el);
      if (old) old.dispose();
      var option = JSON.parse(el.dataset.echarts);
      withoutColour(option);
      readersNumbers(option);
      var big = document.body.classList.contains("wide");
      axisNames(option, big ? 24 : 12);
      if (big) projector(option);
      echarts.init(el).setOption(option);
    });
  }
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
    var ctx = document.createElement("canvas").getContext("2d");
    ctx.font = fontSize + "px sans-serif";
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
    return texts.reduce(function (w, t) { return Math.max(w, ctx.measureText(t).width); }, 0);
  }

  // On the projector every text is at least 24 px, and labels that would
  // lie on one another are hidden rather than drawn over each other.
  function projector(option) {
    var big = { fontSize: 24 };
    function each(x, fn) { (Array.isArray(x) ? x : x ? [x] : []).forEach(fn); }
    each(option.xAxis, function (a) { a.axisLabel = Object.assign({}, a.axisLabel, big); a.nameTextStyle = Object.assign({}, a.nameTextStyle, big); a.nameGap = Math.max(a.nameGap || 0, 40); });
    each(option.yAxis, function (a) { a.axisLabel = Object.assign({}, a.axisLabel, big); a.nameTextStyle = Object.assign({}, a.nameTextStyle, big); });
    each(option.legend, function (l) { l.textStyle = Object.assign({}, l.textStyle, big); });
    each(option.title, function (t) { t.textStyle = Object.assign({}, t.textStyle, { fontSize: 28 }); });
    each(option.series, function (s) {
      s.labelLayout = Object.assign({ hideOverlap: true }, s.labelLayout);
      if (s.label) s.label = Object.assign({}, s.label, big);
    });
    option.grid = Object.assign({ left: 90, right: 40, bottom: 90, top: 80, containLabel: true }, option.grid);
    option.textStyle = Object.assign({}, option.textStyle, big);
  }
  document.addEventListener("DOMContentLoaded", function () {
    draw(document);
    document.body.addEventListener("htmx:afterSwap", function (e) { draw(e.detail.elt); });
  });
  window.addEventListener("resize", function () {
    document.querySelectorAll("[data-echarts]").forEach(function (el) {
      var c = echarts.getInstanceByDom(el);
      if (c) c.resize();
    });
  });
})();
