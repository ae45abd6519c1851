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
      echarts.init(el).setOption(JSON.parse(el.dataset.echarts));
    });
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
