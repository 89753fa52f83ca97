// The site's few behaviours, all optional: the page works without them.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  // Language picker: switch as soon as a language is chosen (the button stays for keyboards without JS).
  var select = document.getElementById("language-select");
  if (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  }
  // Print pages: the toolbar's button opens the browser's print dialog (no inline handler: the CSP forbids them).
  var printButtons = document.querySelectorAll("[data-print]");
  for (var i = 0; i < printButtons.length; i++) {
    printButtons[i].addEventListener("click", function () { window.print(); });
  }
  // Print pages on a screen narrower than A4 (a phone): the sheet keeps its A4 layout and is scaled down to the
  // screen's width (print.css, html.sheet-fit: on screen only), so the page never scrolls sideways; paper and the
  // PDFs are not touched. Measured at full size each time the window changes (a phone turned).
  var sheet = document.querySelector("body.print-page .print-main");
  if (sheet) {
    var root = document.documentElement;
    var a4 = 210 * 96 / 25.4;  // 210 mm in CSS pixels
    var fit = function () {
      root.classList.remove("sheet-fit");
      root.style.removeProperty("--sheet-zoom");
      var room = root.clientWidth;
      if (room >= a4) return;
      root.classList.add("sheet-fit");
      root.style.setProperty("--sheet-zoom", String(room / Math.max(a4, sheet.scrollWidth)));
    };
    fit();
    window.addEventListener("resize", fit);
  }
  // Wall: show its panels in turn (an individual event's names, the tables, the standings), for ever; the live
  // regions keep them current. The names come in pages, one at a time; a panel taller than the screen is shown a
  // screenful at a time, so a hall with many tables sees them all. data-wall-only keeps the wall on one panel.
  var stage = document.querySelector(".wall-stage");
  if (stage) {
    var seconds = parseInt(stage.getAttribute("data-wall-seconds"), 10) || 15;
    var only = stage.getAttribute("data-wall-only");
    var shown = stage.getAttribute("data-show");
    var page = 0;
    var screen = 0;
    var panels = function () {
      var names = [];
      stage.querySelectorAll(".wall-panel[data-panel]").forEach(function (p) {
        var name = p.getAttribute("data-panel");
        if ((!only || name === only) && names.indexOf(name) < 0) names.push(name);
      });
      return names.length ? names : [shown];
    };
    var pagesOf = function (name) {
      return stage.querySelectorAll('.wall-panel[data-panel="' + name + '"] .wall-page');
    };
    // After a live update the pages are new elements: the page on show stays the one shown.
    var showPage = function () {
      var pages = pagesOf(shown);
      if (page >= pages.length) page = 0;
      pages.forEach(function (p, i) { p.classList.toggle("is-current", i === page); });
      stage.classList.toggle("paged", pages.length > 0);
    };
    var step = function () {
      var pages = pagesOf(shown);
      if (pages.length) {
        page += 1;
        if (page < pages.length) { showPage(); window.scrollTo(0, 0); return; }
      } else {
        var pageHeight = Math.max(1, window.innerHeight * 0.85);
        var overflow = document.documentElement.scrollHeight - window.innerHeight;
        var screens = overflow > 1 ? 1 + Math.ceil(overflow / pageHeight) : 1;
        screen += 1;
        if (screen < screens) { window.scrollTo(0, screen * pageHeight); return; }
      }
      var names = panels();
      shown = names[(names.indexOf(shown) + 1) % names.length];
      page = 0;
      screen = 0;
      stage.setAttribute("data-show", shown);
      showPage();
      window.scrollTo(0, 0);
    };
    stage.addEventListener("live:updated", showPage);
    showPage();
    setInterval(step, seconds * 1000);
  }

  // Round clocks ([data-clock-ends]: a running clock's end, in the server's milliseconds) count down every second in
  // the server's time: the offset of this device's clock is learnt from the Date of every live update
  // (live.js), so a projector whose clock is wrong still shows the hall's time. A Date header is whole seconds, and a
  // server may stamp it up to a second late: a device within three seconds of the server keeps its own clock (no
  // jump back and forth). At zero the clock says the time is up; the next live update brings the server's word.
  var offset = 0;
  document.addEventListener("live:servertime", function (event) {
    var estimate = event.detail - Date.now();
    if (Math.abs(estimate - offset) > 3000) offset = estimate;
  });
  var two = function (n) { return (n < 10 ? "0" : "") + n; };
  var tick = function () {
    document.querySelectorAll("[data-clock-ends]").forEach(function (clock) {
      var left = Math.max(0, Math.ceil((parseInt(clock.getAttribute("data-clock-ends"), 10) - Date.now() - offset) / 1000));
      var time = clock.querySelector(".clock-time");
      if (left <= 0) {
        clock.removeAttribute("data-clock-ends");
        clock.setAttribute("data-clock-status", "over");
        clock.className = clock.className.replace(/clock-running/, "clock-over");
        var label = clock.querySelector(".clock-label");
        if (label) label.textContent = clock.getAttribute("data-clock-over");
        clock.querySelectorAll(".clock-time, .clock-ends").forEach(function (el) { el.remove(); });
        return;
      }
      var h = Math.floor(left / 3600);
      var m = Math.floor((left % 3600) / 60);
      var text = (h ? h + ":" + two(m) : String(m)) + ":" + two(left % 60);
      if (time && time.textContent !== text) time.textContent = text;
    });
  };
  if (document.querySelector("[data-clock], .live")) {
    tick();
    setInterval(tick, 1000);
    document.addEventListener("live:updated", tick);  // a clock just swapped in shows the time at once
  }
})();
