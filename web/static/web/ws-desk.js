/* The director's desk: the list asks for itself again every few seconds and announces a new dispute. */
(function () {
  "use strict";
  var box = document.getElementById("desk-rows");
  if (!box || !window.fetch) { return; }
  var alertBox = document.getElementById("desk-alert");
  var every = (parseInt(box.getAttribute("data-poll"), 10) || 5) * 1000;
  function disputes() {
    var list = box.querySelector("[data-disputes]");
    return (list ? list.getAttribute("data-disputes") : "").trim().split(/\s+/).filter(Boolean);
  }
  var known = disputes();
  function busy() {  // a director typing a reason: the list waits
    var active = document.activeElement;
    return active && box.contains(active) && (active.tagName === "INPUT" || active.tagName === "BUTTON");
  }
  function poll() {
    if (document.hidden || busy()) { return; }
    fetch(box.getAttribute("data-url"), {credentials: "same-origin", headers: {"Accept": "text/html"}})
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (html === null) { return; }
        // A reason typed (or kept after a wrong PIN) outlives the list's refresh.
        var typed = {};
        box.querySelectorAll("input[name=reason]").forEach(function (i) { if (i.value) { typed[i.id] = i.value; } });
        box.innerHTML = html;
        Object.keys(typed).forEach(function (id) {
          var input = document.getElementById(id);
          if (input && !input.value) { input.value = typed[id]; }
        });
        var now = disputes();
        var fresh = now.filter(function (d) { return known.indexOf(d) < 0; });
        known = now;
        // The new dispute's row says it in the page's language, its round named as the row names it ("A new
        // dispute: table 1 of the final.", round_words.new_dispute).
        var row = fresh.length ? document.getElementById("desk-" + fresh[0]) : null;
        if (row && row.getAttribute("data-alert") && alertBox) {
          alertBox.textContent = row.getAttribute("data-alert");
          alertBox.hidden = false;
          document.title = "(!) " + document.title.replace(/^\(!\) /, "");
        }
      })
      .catch(function () { /* offline a moment: the next poll tries again */ });
  }
  setInterval(poll, every);
})();
