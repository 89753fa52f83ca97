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
  // Wall: show the tables and the standings in turn, for ever; the live regions keep both current. A panel
  // taller than the screen is shown a screenful at a time, so a hall with many tables sees them all.
  var stage = document.querySelector(".wall-stage");
  if (stage) {
    var seconds = parseInt(stage.getAttribute("data-wall-seconds"), 10) || 15;
    var panels = ["tables", "standings"];
    var index = 0;
    var screen = 0;
    var step = function () {
      var pageHeight = Math.max(1, window.innerHeight * 0.85);
      var overflow = document.documentElement.scrollHeight - window.innerHeight;
      var screens = overflow > 1 ? 1 + Math.ceil(overflow / pageHeight) : 1;
      screen += 1;
      if (screen >= screens) {
        screen = 0;
        index = (index + 1) % panels.length;
        stage.setAttribute("data-show", panels[index]);
      }
      window.scrollTo(0, screen * pageHeight);
    };
    setInterval(step, seconds * 1000);
  }
})();
