// pigclass: keyboard shortcuts (R, H, digits for Hog) and the move deadline
// countdown. Everything works without this script; it only adds comfort.
(function () {
  "use strict";
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    var t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) return;
    var key = e.key.toUpperCase();
    if (key === "0") key = "10";
    var button = document.querySelector('#board button[data-key="' + key + '"], #skunk button[data-key="' + key + '"]');
    if (button) {
      e.preventDefault();
      button.click();
    }
  });
  // The countdown says the time left, and in words, not colour alone,
  // when it is short.
  function tick() {
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      var left = Math.max(0, Math.round((Number(el.dataset.deadline) - Date.now()) / 1000));
      var urgent = left <= 5;
      el.classList.toggle("urgent", urgent);
      el.textContent = urgent ? "Hurry: " + left + " s left to move!" : left + " s left to move";
    });
  }
  setInterval(tick, 500);
})();
