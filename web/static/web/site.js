// The site's few behaviours, all optional: the page works without them.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  // Language picker: switch as soon as a language is chosen (the button stays for keyboards without JS).
  var select = document.getElementById("language-select");
  if (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  }
  // Wall: show the tables and the standings in turn, for ever; the live regions keep both current.
  var stage = document.querySelector(".wall-stage");
  if (stage) {
    var seconds = parseInt(stage.getAttribute("data-wall-seconds"), 10) || 15;
    var panels = ["tables", "standings"];
    var index = 0;
    setInterval(function () {
      index = (index + 1) % panels.length;
      stage.setAttribute("data-show", panels[index]);
      var shown = stage.querySelector('.wall-panel[data-panel="' + panels[index] + '"]');
      if (shown) { shown.scrollTop = 0; }
    }, seconds * 1000);
  }
})();
