/* The organizer's pages: follow a pairing task until its round is there, submit the club picker on change,
   ask before a withdrawal. Everything works without this script too (the progress page refreshes itself). */
(function () {
  "use strict";

  function followPairing(box) {
    var url = box.getAttribute("data-status-url");
    var label = box.querySelector("[data-task-label]");
    var stage = box.querySelector("[data-task-stage]");
    var failures = 0;
    function poll() {
      fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-store" })
        .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.json(); })
        .then(function (task) {
          failures = 0;
          if (task.round_url) { window.location.assign(task.round_url); return; }
          if (task.status === "failed") { window.location.reload(); return; }
          if (label) { label.textContent = task.label; }
          if (stage) { stage.textContent = task.stage || ""; }
          window.setTimeout(poll, 1000);
        })
        .catch(function () {
          failures += 1;
          window.setTimeout(poll, Math.min(1000 * failures, 5000));
        });
    }
    window.setTimeout(poll, 1000);
  }

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("pair-progress");
    if (box && (box.getAttribute("data-status") === "pending" || box.getAttribute("data-status") === "running")) {
      followPairing(box);
    }
    document.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
      select.addEventListener("change", function () { if (select.value) { select.form.submit(); } });
    });
    // The director's decisions: the sides' choices name the chosen match's teams ("NS: <team>").
    document.querySelectorAll("select[data-desk-match]").forEach(function (match) {
      // A narrow screen cuts the chosen match short in its select: the whole of it, wrapped, under it.
      var whole = match.parentNode.querySelector("[data-desk-chosen]");
      function show() {
        var chosen = match.options[match.selectedIndex];
        if (whole && chosen) { whole.textContent = chosen.textContent; whole.hidden = false; }
      }
      match.addEventListener("change", show);
      show();
      var sides = match.form.querySelector("select[data-desk-sides]");
      if (!sides) { return; }
      var plain = {};
      Array.prototype.forEach.call(sides.options, function (o) { plain[o.value] = o.textContent; });
      function name() {
        var chosen = match.options[match.selectedIndex];
        Array.prototype.forEach.call(sides.options, function (o) {
          var team = chosen && (o.value === "ns" || o.value === "ew") ? chosen.getAttribute("data-" + o.value) : null;
          o.textContent = team ? sides.getAttribute("data-" + o.value) + ": " + team : plain[o.value];
        });
      }
      match.addEventListener("change", name);
      name();
    });
    document.querySelectorAll("form[data-confirm]").forEach(function (form) {
      form.addEventListener("submit", function (event) {
        if (!window.confirm(form.getAttribute("data-confirm"))) { event.preventDefault(); }
      });
    });
    document.querySelectorAll("form.pair-form").forEach(function (form) {
      form.addEventListener("submit", function () {
        var button = form.querySelector("button");
        if (button) { button.disabled = true; }
      });
    });
  });
})();
