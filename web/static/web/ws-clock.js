/* The round clock on the organizer's round page: the seconds left come from the server (the page, then its JSON
 * every 15 s, after the phone wakes and when the connection returns); between two answers the page counts down
 * by itself from the last one, so a reload or a lost connection never shows a browser's own guess for long.
 */
(function () {
  "use strict";
  var box = document.querySelector("[data-clock]");
  if (!box) { return; }
  var timeEl = box.querySelector("[data-clock-time]");
  var labelEl = box.querySelector("[data-clock-label]");
  var url = box.getAttribute("data-url");
  var status = box.getAttribute("data-status");
  var remaining = box.getAttribute("data-remaining") === "" ? null : Number(box.getAttribute("data-remaining"));
  var since = performance.now();  // when `remaining` was the server's answer
  var reloaded = false;

  function text(seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    var mm = h ? (m < 10 ? "0" : "") + m : String(m);
    return (h ? h + ":" : "") + mm + ":" + (s < 10 ? "0" : "") + s;
  }

  function left() {
    if (remaining === null) { return null; }
    if (status !== "running") { return remaining; }
    return Math.max(0, remaining - (performance.now() - since) / 1000);
  }

  function paint() {
    var now = left();
    if (now === null) { return; }
    timeEl.textContent = text(Math.ceil(now));
    box.setAttribute("data-status", status);
    if (status === "running" && now <= 0) {
      // The time is up by this count: ask the server, and show the actions of a clock that is over.
      labelEl.textContent = box.getAttribute("data-over");
      if (!reloaded) { reloaded = true; refresh(); }
    }
  }

  function refresh() {
    fetch(url, { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } })
      .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.json(); })
      .then(function (clock) {
        var changed = clock.status !== status;
        status = clock.status;
        remaining = clock.remaining;
        since = performance.now();
        labelEl.textContent = clock.label;
        paint();
        // The clock changed meanwhile (its time up, or another organizer's phone): this page's buttons are stale.
        if (changed) { window.location.reload(); }
      })
      .catch(function () {});
  }

  paint();
  window.setInterval(paint, 250);
  window.setInterval(refresh, 15000);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { refresh(); } });
  window.addEventListener("online", refresh);
})();
