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
      button.focus(); // so that focus comes back to it in the new board
      // A board swapped in a moment ago is bound by htmx only when it
      // settles: bind it now, or the key would post the form natively.
      if (window.htmx && button.form) htmx.process(button.form);
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
      // The words come from the page, in its language: {n} is the count.
      var words = urgent ? el.dataset.hurry : el.dataset.left;
      if (words) el.textContent = words.replace("{n}", left);
    });
  }
  setInterval(tick, 500);

  // A lesson phase's countdown (data-clock-left: the milliseconds left
  // when the server drew it) counts down by this device's clock from the
  // moment it arrived, so a phone whose clock is wrong still counts
  // right; its words come from the page ({t}: minutes and seconds).
  function stampClocks() {
    document.querySelectorAll("[data-clock-left]").forEach(function (el) {
      if (!el.dataset.clockEnds) el.dataset.clockEnds = String(Date.now() + Number(el.dataset.clockLeft));
    });
  }
  function clocks() {
    stampClocks();
    document.querySelectorAll("[data-clock-ends]").forEach(function (el) {
      var left = Math.max(0, Math.ceil((Number(el.dataset.clockEnds) - Date.now()) / 1000));
      var text = left > 0 ? el.dataset.left.replace("{t}", Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0")) : el.dataset.over;
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle("over", left === 0);
    });
  }
  document.addEventListener("DOMContentLoaded", clocks);
  document.addEventListener("htmx:afterSwap", stampClocks);
  document.addEventListener("htmx:oobAfterSwap", stampClocks);
  setInterval(clocks, 250);

  // A server that does not answer is said so, and the notice goes when it
  // answers again (htmx polls on by itself).
  function offline(on) {
    var el = document.getElementById("offline");
    if (el) el.hidden = !on;
  }
  document.addEventListener("htmx:sendError", function () { offline(true); });
  document.addEventListener("htmx:afterRequest", function (e) {
    if (e.detail.xhr && e.detail.xhr.status > 0) offline(false);
  });

  // Focus stays on the action the student used when htmx replaces the
  // board: the same button if it is there again, else the first action,
  // else the board itself.
  var focused = null;
  document.addEventListener("htmx:beforeSwap", function (e) {
    var a = document.activeElement;
    focused = a && e.detail.target && e.detail.target.contains(a) ? a.getAttribute("data-testid") : null;
  });
  document.addEventListener("htmx:afterSwap", function (e) {
    var board = document.getElementById("board");
    if (!board || focused === null) return;
    var el = board.querySelector('[data-testid="' + focused + '"]') || board.querySelector(".actions button");
    if (!el) {
      board.setAttribute("tabindex", "-1");
      el = board;
    }
    el.focus({ preventScroll: true });
    showTurn(board, el);
    focused = null;
  });

  // showTurn scrolls a phone's screen so that the scores and the button
  // in focus show together: the button into view, but the scores not off
  // the top if both fit.
  function showTurn(board, el) {
    var players = board.querySelector(".players");
    if (!el || !players || el === board) return;
    var h = window.innerHeight, b = el.getBoundingClientRect(), p = players.getBoundingClientRect();
    var by = 0;
    if (b.bottom > h) by = b.bottom - h + 8;
    if (p.top - by < 0 && b.bottom - (p.top - 4) <= h) by = p.top - 4;
    if (by !== 0) window.scrollBy(0, by);
  }
  // Whatever moves the focus onto an action (htmx's autofocus as a swap
  // settles, a key, the page loading) scrolls it to the middle of the
  // screen: the same rule once that is done.
  document.addEventListener("focusin", function (e) {
    var board = document.getElementById("board");
    if (board && e.target !== board && board.contains(e.target)) {
      requestAnimationFrame(function () { showTurn(board, e.target); });
    }
  });
  // The first action has autofocus, which scrolls it to the middle of the
  // screen: once the page is shown, the same rule as after each move.
  window.addEventListener("load", function () {
    var board = document.getElementById("board");
    if (board && board.contains(document.activeElement)) requestAnimationFrame(function () { showTurn(board, document.activeElement); });
  });
})();

// Push: a page of a class listens to its event stream (htmx's SSE
// extension on <body sse-connect>), and its live parts (hx-trigger
// "every Ns, sse:look") fetch themselves when it says "look". While the
// stream is heard (a look, or an "alive" every 5 seconds) their timed
// polls are held back (but for one every 10 seconds of a part's
// silence); a stream not heard from for 12 seconds (a proxy
// that buffers, a phone that slept, a server gone) lets them poll again,
// and the first look of a stream opened again catches the page up.
// body[data-pushed] says which, body[data-looks] counts the looks and
// body[data-look] is what the last said, for the tests.
(function () {
  "use strict";
  var heard = 0;
  function hear() {
    heard = Date.now();
    document.body.setAttribute("data-pushed", "live");
  }
  function pushed() { return heard > 0 && Date.now() - heard < 12000; }
  // A look that comes while a part is being swapped in (htmx binds the
  // new part as it settles) finds no listener on it: a moment later
  // (and twice more, should it be held back again), every part that did
  // not ask since that look asks now.
  var looks = 0, asked = {};
  // partOf names a live part by its address, the same for the part a
  // swap puts in its place.
  function partOf(el) { return (el.getAttribute("hx-get") || "").split("?")[0]; }
  function look(e) {
    hear();
    var n = ++looks, data = e && e.data;
    document.body.setAttribute("data-looks", String(n));
    document.body.setAttribute("data-look", String(data || ""));
    [150, 600, 1500].forEach(function (ms) {
      setTimeout(function () {
        if (!window.htmx || looks > n) return; // a later look asks again itself
        document.querySelectorAll('[hx-trigger*="sse:look"]').forEach(function (el) {
          if ((asked[partOf(el)] || 0) < n) htmx.trigger(el, "sse:look", { data: data });
        });
      }, ms);
    });
  }
  document.addEventListener("htmx:sseOpen", function (e) {
    var src = e.detail && e.detail.source;
    if (!src) return;
    src.addEventListener("look", look);
    src.addEventListener("alive", hear);
  });
  document.addEventListener("htmx:sseError", function () {
    heard = 0;
    document.body.setAttribute("data-pushed", "polling");
  });
  // A request a look caused says so: the server then draws the part as
  // the class is now, not as last drawn for the timed polls.
  // A look names the board the student's page shows and its version
  // ("ID/VERSION", VERSION the match's and the class's, "6.3"): a board
  // that shows that version or a newer one already asks nothing (the
  // looks that follow the student's own move, whose answer drew it).
  function showsAtLeast(shown, said) {
    var a = shown.split("."), b = said.split(".");
    if (a.length !== b.length) return false;
    for (var i = 0; i < a.length; i++) {
      if (!(Number(a[i]) >= Number(b[i]))) return false;
    }
    return true;
  }
  document.addEventListener("htmx:configRequest", function (e) {
    var ev = e.detail && e.detail.triggeringEvent, el = e.detail && e.detail.elt;
    if (!ev || ev.type !== "sse:look") return;
    if (el && el.querySelector && el.querySelector("form.htmx-request")) {
      // Its own form is on its way (the student's move): its answer
      // draws the part, and the look is asked again after (above).
      e.preventDefault();
      return;
    }
    if (el) asked[partOf(el)] = looks;
    var said = String((ev.detail && ev.detail.data) || "").split("/");
    var path = e.detail.path || "", shows = /[?&]v=([^&]*)/.exec(path);
    if (said.length === 2 && shows && path.indexOf("/m/" + said[0] + "/board?") >= 0 && showsAtLeast(decodeURIComponent(shows[1]), said[1])) {
      e.preventDefault();
      return;
    }
    e.detail.headers["X-Pigclass-Look"] = "1";
  });
  // A timed poll has no triggering event; a look, a click or a load has.
  // While the stream is heard a part's timed polls are held back, but for
  // one every 10 seconds it has not asked at all: a look lost in a race
  // (a part swapped in as it came) costs seconds, not the lesson.
  document.addEventListener("htmx:beforeRequest", function (e) {
    var d = e.detail, el = d && d.elt;
    if (!el) return;
    var timed = !(d.requestConfig && d.requestConfig.triggeringEvent), now = Date.now();
    if (timed && pushed() && (el.getAttribute("hx-trigger") || "").indexOf("sse:look") >= 0) {
      if (!el.pigclassAsked) el.pigclassAsked = now;
      if (now - el.pigclassAsked < 10000) {
        e.preventDefault();
        return;
      }
    }
    el.pigclassAsked = now;
  });
})();

// A live part whose class is gone (its teacher deleted it: its poll
// answers 404), or that may no longer be seen (the teacher removed this
// student: 403), says so in its place: the words of data-gone around it,
// or, for a removed student (X-Pigclass-Removed), the server's own short
// answer. Polling stops with it (a removed student's page still asks, to
// come back when the teacher lets them back in).
document.addEventListener("htmx:responseError", function (e) {
  var xhr = e.detail.xhr, el = e.detail.elt;
  if (!xhr || (xhr.status !== 404 && xhr.status !== 403) || !el || !el.closest) return;
  var gone = el.closest("[data-gone]");
  if (!gone) return;
  var words = gone.getAttribute("data-gone");
  var said = (xhr.responseText || "").trim();
  var removed = !!xhr.getResponseHeader("X-Pigclass-Removed");
  if (removed && said && said.length < 400 && said.indexOf("<") < 0) words = said;
  // A removed student may be let back in: the page asks now and then, and
  // comes back by itself the moment the answer is no longer "removed".
  var url = el.getAttribute("hx-get");
  if (removed && url && window.fetch) {
    var timer = setInterval(function () {
      fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin" }).then(function (r) {
        if (r.status !== 403 && r.status !== 404) {
          clearInterval(timer);
          location.reload();
        }
      }).catch(function () {});
    }, 2000);
  }
  if (!words) return;
  var p = document.createElement("p");
  p.className = "gone";
  p.setAttribute("role", "status");
  p.setAttribute("data-testid", "gone");
  p.textContent = words;
  var home = document.createElement("a");
  home.href = "/";
  home.className = "button";
  home.textContent = gone.getAttribute("data-home") || "pigclass";
  var box = document.createElement("div");
  box.className = "gone-box";
  box.appendChild(p);
  box.appendChild(home);
  gone.replaceWith(box);
});

// A move the server did not take says so beside the buttons, and the
// board stays as it was, to tap again: too fast (429), or not stored (a
// 5xx: the class moving to another of the district's servers, or the
// proxy's own 502 or 504 page while one stops). The words are the server's
// short answer when it sent one, else the page's own (data-notsaved, in
// its language). The board's next redraw takes the notice away.
document.addEventListener("htmx:responseError", function (e) {
  var xhr = e.detail.xhr, form = e.detail.elt;
  if (!xhr || (xhr.status !== 429 && xhr.status < 500) || !form || !form.matches || !form.matches("form[hx-post]")) return;
  var page = form.closest("[data-notsaved]");
  if (!page) return;
  var said = (xhr.responseText || "").trim();
  var words = said && said.length < 400 && said.indexOf("<") < 0 ? said : page.getAttribute("data-notsaved");
  var at = form.closest(".actions") || form;
  var p = at.previousElementSibling;
  if (!p || p.getAttribute("data-testid") !== "not-taken") {
    p = document.createElement("p");
    p.className = "notice";
    p.setAttribute("role", "alert");
    p.setAttribute("data-testid", "not-taken");
    at.parentNode.insertBefore(p, at);
  }
  p.textContent = words;
});

// The dashboard keeps its place across its own forms: a post (start a
// round, a lesson step, a switch) comes back to the dashboard where the
// teacher was, not at its top (through a confirmation page too, within a
// minute).
(function () {
  "use strict";
  var key = "pigclass-place";
  document.addEventListener("submit", function () {
    if (!document.querySelector('[data-testid="dash-bar"]')) return;
    try {
      sessionStorage.setItem(key, JSON.stringify({ path: location.pathname, y: window.scrollY, at: Date.now() }));
    } catch (e) {}
  });
  window.addEventListener("load", function () {
    var place;
    try { place = JSON.parse(sessionStorage.getItem(key) || "null"); } catch (e) { return; }
    if (!place || place.path !== location.pathname || Date.now() - place.at > 60000 || location.hash) return;
    sessionStorage.removeItem(key);
    window.scrollTo(0, place.y);
  });
})();

// "My classes": the dashboard keeps its class's teacher link in this
// browser alone (localStorage, never sent to the server); the front page
// lists them, newest first, so that a teacher reopens a class on another
// day of the unit. "Forget this list" empties it.
(function () {
  "use strict";
  var key = "pigclass-classes";
  function load() {
    try { return JSON.parse(localStorage.getItem(key) || "[]") || []; } catch (e) { return []; }
  }
  function save(list) {
    try { localStorage.setItem(key, JSON.stringify(list.slice(0, 20))); } catch (e) {}
  }
  (function () { // the script is deferred: the page is parsed
    var link = document.querySelector('[data-testid="teacher-link"]');
    var code = document.querySelector('[data-testid="dash-bar"] [data-testid="join-code"]');
    if (link && code) {
      var c = code.textContent.trim();
      var list = load().filter(function (x) { return x.code !== c; });
      list.unshift({ code: c, url: link.getAttribute("href"), seen: new Date().toISOString().slice(0, 10) });
      save(list);
    }
    var box = document.getElementById("my-classes");
    if (!box) return;
    var classes = load();
    if (!classes.length) return;
    var ul = box.querySelector("ul");
    classes.forEach(function (x) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = x.url;
      a.textContent = x.code;
      a.setAttribute("translate", "no");
      a.setAttribute("data-testid", "my-class");
      li.appendChild(a);
      li.appendChild(document.createTextNode(" · " + (box.dataset.seen || "{date}").replace("{date}", x.seen)));
      ul.appendChild(li);
    });
    box.hidden = false;
    var forget = box.querySelector("button");
    if (forget) forget.addEventListener("click", function () {
      try { localStorage.removeItem(key); } catch (e) {}
      box.hidden = true;
    });
  })();

  // fitScreen makes the shared screen's left side (the questions, then
  // who joined, the podium or Skunk) fit its box whole: its words shrink
  // step by step, then the side takes half the stage's width and they
  // shrink again. Only where the page is one screen high (app.css); a
  // phone scrolls instead.
  function fitScreen() {
    fitTitle();
    var stage = document.querySelector(".projector .stage");
    var side = stage && stage.querySelector(".side");
    if (!side || getComputedStyle(side).overflow !== "hidden") return;
    var scales = [1, 0.92, 0.85, 0.78, 0.72, 0.66, 0.6, 0.55];
    var fits = function () { return side.scrollHeight <= side.clientHeight + 1 && side.scrollWidth <= side.clientWidth + 1; };
    stage.classList.remove("side-wide");
    for (var wide = 0; wide < 2; wide++) {
      if (wide) {
        if (!stage.querySelector("#projector-chart .chart")) return;
        stage.classList.add("side-wide");
      }
      for (var i = 0; i < scales.length; i++) {
        stage.style.setProperty("--fit", scales[i]);
        if (fits()) return;
      }
    }
  }
  // fitTitle keeps the round's name on the shared screen to two lines
  // where it can: a long one is drawn smaller, down to 32 px (read from
  // the back of the room), never cut.
  function fitTitle() {
    var title = document.querySelector(".projector .screen-title");
    if (!title) return;
    title.style.fontSize = "";
    var size = parseFloat(getComputedStyle(title).fontSize);
    for (var px = size; px - 2 >= 32 && title.getBoundingClientRect().height > 2.2 * 1.15 * px; ) {
      px -= 2;
      title.style.fontSize = px + "px";
    }
  }
  // podiumFirst: when a round ends while the room watches (the shared
  // screen turns to its results), the podium takes the screen for a
  // while, then sits beside the chart.
  // A chart the teacher picks while the podium holds the screen takes it
  // at once: the podium yields when the chart shown changes.
  var shownState = null, podiumTimer = null, podiumChart = null;
  function chartShown() {
    var f = document.querySelector("#projector-chart figure");
    return f ? f.getAttribute("data-testid") : "";
  }
  function podiumFirst() {
    var p = document.getElementById("projector");
    if (!p) return;
    var state = p.dataset.state, root = document.documentElement;
    if (state === "results" && shownState !== null && shownState !== "results" && p.querySelector(".podium")) {
      clearTimeout(podiumTimer);
      root.classList.add("podium-first");
      podiumChart = chartShown();
      podiumTimer = setTimeout(function () {
        root.classList.remove("podium-first");
        fitScreen();
      }, 12000);
    } else if (state !== "results" || root.classList.contains("podium-first") && chartShown() !== podiumChart) {
      clearTimeout(podiumTimer);
      root.classList.remove("podium-first");
    }
    shownState = state;
  }
  document.addEventListener("DOMContentLoaded", function () {
    var p = document.getElementById("projector");
    if (p) shownState = p.dataset.state;
    fitScreen();
  });
  document.addEventListener("htmx:afterSettle", function () {
    podiumFirst();
    fitScreen();
  });
  window.addEventListener("resize", fitScreen);
})();

// A strategy's map painted with the finger (issue 46): touching a cell of
// the map, or dragging over cells, sets them to the brush's number; a
// keyboard types in a cell. Each cell is shaded by its number, so the
// map reads at a glance (cool: hold early; warm: roll on).
(function () {
  "use strict";
  var painting = null;
  function shade(cell) {
    var max = Number(cell.max) || 100, v = Number(cell.value);
    cell.style.background = v > 0 ? "hsl(" + Math.round(210 - 210 * Math.min(v, max) / max) + ", 70%, 86%)" : "";
  }
  function cellAt(x, y) {
    var el = document.elementFromPoint(x, y);
    if (el && el.tagName === "TD") el = el.querySelector("input");
    return el && el.matches && el.matches('form[data-paint] input[data-testid="map-cell"]') ? el : null;
  }
  function paint(form, cell) {
    var brush = form.querySelector("[data-brush]");
    if (!cell || !brush || !(Number(brush.value) >= 1)) return;
    cell.value = brush.value;
    shade(cell);
  }
  document.addEventListener("pointerdown", function (e) {
    var cell = cellAt(e.clientX, e.clientY);
    if (!cell) return;
    e.preventDefault(); // no keyboard pops up: the finger paints
    painting = cell.form;
    paint(painting, cell);
  });
  document.addEventListener("pointermove", function (e) {
    if (painting) paint(painting, cellAt(e.clientX, e.clientY));
  });
  ["pointerup", "pointercancel"].forEach(function (type) {
    document.addEventListener(type, function () { painting = null; });
  });
  // A slider's one less and one more (a finger cannot hit its steps).
  document.addEventListener("click", function (e) {
    var b = e.target.closest && e.target.closest("button[data-step]");
    var input = b && document.getElementById(b.dataset.for);
    if (!input) return;
    if (Number(b.dataset.step) > 0) input.stepUp(); else input.stepDown();
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
  document.addEventListener("input", function (e) {
    if (e.target.matches && e.target.matches('input[data-testid="map-cell"]')) shade(e.target);
    // A slider shows its number beside it (hold at N).
    var out = e.target.dataset && e.target.dataset.show && document.getElementById(e.target.dataset.show);
    if (out) out.textContent = e.target.value;
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll('input[data-testid="map-cell"]').forEach(shade);
  });
})();

// A table's device (issue 45): every entry (a hold, a throw's pieces, a
// turn's row, a throw entered again) goes into a queue kept in the
// browser's storage and is sent in order; while the network is down the
// device plays on from the board's state (the scores, whose turn, what
// each throw does), until a bot is to throw or the game looks won. The
// server refuses an entry that does not follow the last it has, and does
// nothing with one it has already: sent again after a drop, nothing is
// lost or doubled. One it refuses (another device entered something else
// at that place meanwhile: a conflict, 409) stops the queue: the device
// shows the game as it is and holds what it has left until its player
// enters them again after it or drops them (issue 58, item 9). Every
// device of a table follows the game by the board's poll, held back while
// its own entries are on their way. Without this script the forms post as
// they are.
(function () {
  "use strict";
  var sending = false, failing = false, timer = null;
  function entryBox() { return document.querySelector('#board[data-table] [data-testid="table-entry"]'); }
  function key() {
    var b = document.querySelector('#board[data-queue]');
    return b ? "pigclass-table:" + b.dataset.queue : null;
  }
  // A queue held after a refusal has the words to say so beside it.
  function heldOf(k) {
    try { return JSON.parse(localStorage.getItem(k + "#held")); } catch (e) { return null; }
  }
  function load(k) {
    try { return JSON.parse(localStorage.getItem(k) || "[]"); } catch (e) { return []; }
  }
  function store(k, q) {
    if (q.length) localStorage.setItem(k, JSON.stringify(q)); else localStorage.removeItem(k);
  }
  function words(box) { try { return JSON.parse(box.dataset.words); } catch (e) { return {}; } }
  function state(box) { try { return JSON.parse(box.dataset.state); } catch (e) { return null; } }
  function fill(text, name, extra) {
    return String(text || "").replace("{name}", name || "").replace("{faces}", extra || "").replace("{n}", extra || "");
  }

  // play applies one entry to the state s as the server will: it returns
  // false if the device cannot know what follows (a bot to throw, a game
  // of one throw a turn, a throw the state does not know).
  function play(s, e) {
    if (s.blocked) return false;
    var n = s.scores.length;
    var next = function () { s.tt = 0; s.seat = (s.seat + 1) % n; if (s.bots[s.seat]) s.blocked = "bot"; };
    if (e.correct) {
      if (!s.prev) return false;
      var p = s.prev;
      s.seat = p.seat; s.tt = p.tt; s.scores = p.scores.slice(); s.seq = p.seq; s.blocked = false;
      if (!throwOf(s, e.faces, next)) return false;
      s.seq = p.seq + 1;
      return true;
    }
    if (e.turn) {
      var fields = e.turn.toLowerCase().trim().split(/\s+/);
      for (var i = 0; i < fields.length; i++) {
        if (s.blocked) return false;
        // A hold ends the row; a number after it is the score the sheet
        // has, which the server checks.
        if (fields[i] === "h") { hold(s, next); break; }
        if (!throwOf(s, fields[i].split("").join(" "), next)) return false;
      }
      return true;
    }
    if (e.action === "hold") { hold(s, next); return true; }
    return throwOf(s, e.faces, next);
  }
  function hold(s, next) {
    s.prev = null; s.last = "";
    s.scores[s.seat] += s.tt; s.seq++; next();
  }
  function throwOf(s, faces, next) {
    var fx = s.effects && s.effects[String(faces || "").trim().split(/[\s,]+/).join(" ")];
    if (!fx) { s.blocked = "hog"; s.seq++; return false; }
    s.prev = { seat: s.seat, tt: s.tt, scores: s.scores.slice(), seq: s.seq };
    s.last = String(faces).trim().split(/[\s,]+/).join(" ");
    s.seq++;
    if (fx[1] === 2) { s.scores[s.seat] = 0; next(); return true; }
    if (fx[1] === 1) { next(); return true; }
    s.tt += fx[0];
    if (s.scores[s.seat] + s.tt >= s.target) s.blocked = "over";
    return true;
  }

  // show draws the state on the board while the network is down.
  function show(box, s, queued) {
    var w = words(box), board = document.getElementById("board");
    var note = box.querySelector('[data-testid="table-queued"]');
    if (note) { note.hidden = !queued; note.textContent = fill(w.queued, "", String(queued)); }
    board.querySelectorAll('input[name="seq"]').forEach(function (i) { i.value = s.seq; });
    board.setAttribute("data-seq", s.seq);
    var tt = board.querySelector('[data-testid="turn-total"]');
    if (tt) tt.textContent = s.tt;
    // Each player's line by their seat (a table lists them in playing
    // order, which need not be the seats').
    board.querySelectorAll(".players > li").forEach(function (li, i) {
      var seat = li.dataset.seat !== undefined ? Number(li.dataset.seat) : i;
      var score = li.querySelector('[data-testid="score"]');
      if (score) score.textContent = s.scores[seat];
      li.classList.toggle("to-move", seat === s.seat);
    });
    // What the server last said of the dice is behind the device now.
    board.querySelectorAll(".dice, .announce").forEach(function (el) { el.hidden = true; });
    var banner = board.querySelector('[data-testid="turn-banner"]');
    if (banner) banner.textContent = fill(w.turn, s.names[s.seat]);
    var ask = box.querySelector('[data-testid="table-ask"]');
    if (ask) ask.textContent = fill(w.ask, s.names[s.seat]);
    var correct = box.querySelector('[data-testid="table-correct"]');
    if (correct) {
      correct.hidden = !s.last;
      var sum = correct.querySelector("summary");
      if (sum && s.last && s.prev) sum.textContent = fill(w.last, s.names[s.prev.seat], (s.said && s.said[s.last]) || s.last);
    }
    var blocked = s.blocked ? fill(w[s.blocked], s.names[s.seat]) : "";
    box.querySelectorAll("form[data-entry] button, form[data-entry] input").forEach(function (el) {
      if (el.type !== "hidden") el.disabled = !!blocked;
    });
    if (blocked && note) { note.hidden = false; note.textContent = blocked + " " + note.textContent; }
  }

  // entryOf reads an entry form as posted, with the button pressed.
  function entryOf(form, submitter) {
    var data = new FormData(form);
    if (submitter && submitter.name) data.set(submitter.name, submitter.value);
    var pieces = [];
    for (var i = 1; data.has("piece" + i); i++) pieces.push(data.get("piece" + i));
    var faces = data.get("faces") || pieces.join(" ");
    var body = new URLSearchParams();
    data.forEach(function (v, k) { if (!/^piece\d+$/.test(k)) body.set(k, v); });
    if (pieces.length) body.set("faces", faces);
    return { url: form.getAttribute("action"), body: body.toString(), action: data.get("action"),
      faces: faces, turn: data.get("turn"), correct: data.get("correct") === "1" };
  }

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.matches || !form.matches('#board[data-table] form[data-entry]')) return;
    var box = entryBox(), k = key();
    if (!box || !k || !window.localStorage || !window.fetch) return; // posts as it is
    ev.preventDefault();
    var e = entryOf(form, ev.submitter);
    var q = load(k);
    q.push(e);
    store(k, q);
    var s = state(box);
    if (s && !s.blocked) {
      play(s, e);
      box.dataset.state = JSON.stringify(s);
      // The board goes on at once (the next entry carries the next seq),
      // whether or not the server has answered yet.
      show(box, s, failing ? q.length : 0);
    }
    flush();
  });

  // flush sends the queue in order; a network error keeps it and shows
  // the device's own state, and tries again in a moment.
  function flush() {
    var k = key();
    if (sending || !k) return;
    var q = load(k);
    if (!q.length) return;
    sending = true;
    var e = q[0];
    fetch(e.url, { method: "POST", body: e.body, credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true" } })
      .then(function (r) {
        return r.text().then(function (html) {
          // Too fast, or not saved: the same entry again in a moment.
          var later = r.status === 429 || r.status >= 500 || r.headers.get("Retry-After") !== null;
          // Refused: a conflict, or any entry the board answers with an
          // error (it is not dropped unseen).
          var refused = !later && (r.status === 409 || saidIn(html) !== "");
          return { ok: true, later: later, refused: refused, html: html, wait: r.headers.get("Retry-After") };
        });
      })
      .catch(function () { return { ok: false }; })
      .then(function (res) {
        sending = false;
        var box = entryBox();
        failing = !res.ok;
        if (!res.ok || res.later) {
          var el = document.getElementById("offline");
          if (el) el.hidden = res.ok;
          if (box) show(box, state(box), load(k).length);
          // The server's word on why it waits (play paused), beside the
          // entries the device keeps.
          var said = res.ok && saidIn(res.html), note = box && box.querySelector('[data-testid="table-queued"]');
          if (said && note) { note.hidden = false; note.textContent = said + " " + note.textContent; }
          clearTimeout(timer);
          timer = setTimeout(flush, 1000 * Math.max(1, Math.min(10, Number(res.wait) || 1)));
          return;
        }
        var off = document.getElementById("offline");
        if (off) off.hidden = true;
        if (res.refused) {
          var s = box && state(box);
          localStorage.setItem(k + "#held", JSON.stringify({ words: box ? words(box) : {}, said: (s && s.said) || {} }));
          swap(res.html);
          showHeld();
          return;
        }
        q = load(k);
        q.shift();
        // Entered again after a refusal: each at the place the last
        // answer gives.
        if (q.length && q[0].fresh) q[0].body = withSeq(q[0].body, seqIn(res.html));
        store(k, q);
        if (q.length) { flush(); return; }
        swap(res.html);
      });
  }

  function withSeq(body, seq) {
    var p = new URLSearchParams(body);
    if (seq !== null) p.set("seq", seq);
    return p.toString();
  }
  function seqIn(html) {
    var tpl = document.createElement("template");
    tpl.innerHTML = html || "";
    var b = tpl.content.querySelector("#board");
    return b ? b.getAttribute("data-seq") : null;
  }

  // showHeld says which entries the device holds after a refusal, on the
  // board as the server drew it, with the player's two choices; no new
  // entry is taken until they choose.
  function showHeld() {
    var k = key(), board = document.getElementById("board");
    if (!k || !board) return;
    var old = board.querySelector('[data-testid="table-held"]');
    if (old) old.remove();
    var held = heldOf(k), q = load(k);
    if (!held || !q.length) return;
    var w = held.words || {};
    var list = q.map(function (e) {
      if (e.turn) return fill(w.a_row, "", e.turn);
      if (e.action === "hold") return w.a_hold;
      var f = String(e.faces || "").trim().split(/[\s,]+/).join(" ");
      return fill(w.a_throw, "", held.said[f] || f);
    }).join("; ");
    var div = document.createElement("div");
    div.className = "notice table-held";
    div.setAttribute("role", "alert");
    div.setAttribute("data-testid", "table-held");
    var p = document.createElement("p");
    p.textContent = fill(w.held, "", list);
    div.appendChild(p);
    [["again", "big primary"], ["drop", "big"]].forEach(function (c) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = c[1];
      b.textContent = w[c[0]];
      b.setAttribute("data-held", c[0]);
      b.setAttribute("data-testid", "table-held-" + c[0]);
      div.appendChild(b);
    });
    (board.querySelector('[data-testid="board-error"]') || board.querySelector("h1")).after(div);
    board.querySelectorAll("form[data-entry] button, form[data-entry] input").forEach(function (el) {
      if (el.type !== "hidden") el.disabled = true;
    });
  }

  // The player's choice on the held entries: enter them again after the
  // game as it is now (each at the place the server gives), or drop them.
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest && ev.target.closest('[data-testid="table-held"] button[data-held]');
    var k = key(), board = document.getElementById("board");
    if (!b || !k || !board) return;
    localStorage.removeItem(k + "#held");
    var q = b.getAttribute("data-held") === "drop" ? [] : load(k);
    q.forEach(function (e) { e.fresh = true; });
    if (q.length) q[0].body = withSeq(q[0].body, board.getAttribute("data-seq"));
    store(k, q);
    b.closest('[data-testid="table-held"]').remove();
    board.querySelectorAll("form[data-entry] button, form[data-entry] input").forEach(function (el) { el.disabled = false; });
    flush();
  });

  // The board's poll is held back while the device's own entries are on
  // their way (or wait for the network), and while a piece is picked; a
  // board drawn anew still says what is held.
  document.addEventListener("htmx:beforeRequest", function (ev) {
    var board = ev.detail && ev.detail.elt;
    if (!board || board.id !== "board" || !board.hasAttribute("data-queue")) return;
    var k = key();
    var busy = sending || (load(k).length > 0 && !heldOf(k)) || !!board.querySelector("form[data-entry] input:checked");
    if (busy) ev.preventDefault();
  });
  document.addEventListener("htmx:afterSettle", showHeld);

  // saidIn is the error the server's board holds, or "".
  function saidIn(html) {
    var tpl = document.createElement("template");
    tpl.innerHTML = html || "";
    var e = tpl.content.querySelector('[data-testid="board-error"]');
    return e ? e.textContent.trim() : "";
  }

  // swap puts the server's board in place of the device's once the queue
  // is sent: the server's word is the last.
  function swap(html) {
    var board = document.getElementById("board");
    if (!board) return;
    var tpl = document.createElement("template");
    tpl.innerHTML = html;
    var fresh = tpl.content.querySelector("#board");
    if (!fresh) { location.reload(); return; }
    board.replaceWith(fresh);
    if (window.htmx) htmx.process(fresh);
    // Out-of-band parts as htmx would swap them: the live region's words
    // go inside it (it stays hidden to the eye, said to screen readers).
    tpl.content.querySelectorAll("[hx-swap-oob]").forEach(function (el) {
      var old = el.id && document.getElementById(el.id);
      if (!old) return;
      if (el.getAttribute("hx-swap-oob") === "innerHTML") { old.innerHTML = el.innerHTML; return; }
      el.removeAttribute("hx-swap-oob");
      old.replaceWith(el);
    });
  }

  window.addEventListener("online", flush);
  document.addEventListener("DOMContentLoaded", function () {
    var box = entryBox(), k = key();
    if (k && heldOf(k)) { showHeld(); return; }
    if (box && k && load(k).length) {
      // Entries left from before a reload go first; the board shows them
      // played on (those the server has already are not played twice).
      var s = state(box), q = load(k);
      q.forEach(function (e) {
        var seq = Number(new URLSearchParams(e.body).get("seq"));
        if (s && seq >= s.seq) play(s, e);
      });
      if (s) { box.dataset.state = JSON.stringify(s); show(box, s, q.length); }
      flush();
    }
  });
})();

// A login card's QR code opens the join page with the student's name and
// rejoin code in the address's fragment (#name=...&rejoin=..., which no
// server sees): they fill in the join form's nickname and rejoin code
// (which take a student of the class list to their seat as they take
// anyone back to theirs), and the fragment is taken out of the address,
// so that the code stays on the card and not in the browser's history.
(function () {
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector('[data-testid="join-form"]');
    if (!form || location.hash.length < 2) return;
    var said = new URLSearchParams(location.hash.slice(1));
    var name = said.get("name"), code = said.get("rejoin");
    if (!name || !code) return;
    history.replaceState(null, "", location.pathname + location.search);
    var rejoin = form.querySelector("input[name=rejoin]");
    form.querySelector("input[name=nickname]").value = name;
    rejoin.value = code;
    var more = rejoin.closest("details");
    if (more) more.open = true;
    form.querySelector("button[type=submit]").focus();
  });
  // A learning platform that opened pigclass's registration page (LTI
  // Dynamic Registration 1.0, 3.6) closes it when told the registration
  // is done: the page that says so carries data-lti-close.
  document.addEventListener("DOMContentLoaded", function () {
    if (!document.querySelector("[data-lti-close]")) return;
    var to = window.opener || window.parent;
    if (to && to !== window) to.postMessage({ subject: "org.imsglobal.lti.close" }, "*");
  });
  // A launch in a frame of a browser that keeps no cookie there: the
  // state of the sign-in is kept in the learning platform's storage
  // (LTI Client Side postMessages), put at the login and read back at the
  // launch, which is then posted again to pigclass.
  document.addEventListener("DOMContentLoaded", function () {
    var box = document.querySelector("[data-lti-storage]");
    if (!box) return;
    var d = box.dataset, id = "pigclass-" + Math.random().toString(36).slice(2), done = false;
    var to = window.parent;
    try { if (d.target !== "_parent" && window.parent.frames[d.target]) to = window.parent.frames[d.target]; } catch (x) {}
    function finish(ok) {
      if (done) return;
      done = true;
      if (d.ltiStorage === "put") { location.href = box.querySelector("[data-lti-next]").href; return; }
      if (ok) { box.querySelector("form[data-lti-stored]").submit(); return; }
      box.querySelector("[data-lti-waiting]").hidden = true;
      box.querySelector("[data-lti-failed]").hidden = false;
    }
    window.addEventListener("message", function (e) {
      if (e.origin !== d.origin || !e.data || e.data.message_id !== id) return;
      finish(d.ltiStorage === "put" || (e.data.subject === "lti.get_data.response" && e.data.value === d.value));
    });
    var ask = d.ltiStorage === "put" ? { subject: "lti.put_data", message_id: id, key: d.key, value: d.value } : { subject: "lti.get_data", message_id: id, key: d.key };
    try { to.postMessage(ask, d.origin); } catch (x) {}
    setTimeout(function () { finish(d.ltiStorage === "put"); }, 3000);
  });
  // The link an instructor chose goes back to their learning platform at
  // once (LTI Deep Linking): the form's button does it without script.
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("form[data-autosubmit]");
    if (form) form.submit();
  });
})();
