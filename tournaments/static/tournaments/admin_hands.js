"use strict";
// A game's hand table: a row added with "Add another" is dealt by the seat after the row above's dealer,
// in the variant's direction of play (the page's #hand-dealers says which seat follows which).
document.addEventListener("formset:added", function (event) {
  var rules = document.getElementById("hand-dealers");
  if (!rules || !event.detail || event.detail.formsetName !== "hands") {
    return;
  }
  var next = {};
  rules.dataset.nextSeat.split(" ").forEach(function (pair) {
    var seats = pair.split(":");
    next[seats[0]] = seats[1];
  });
  var row = event.target;
  var dealer = row.querySelector("select[name$='-dealer']");
  var previous = row.previousElementSibling;
  while (previous && !previous.querySelector("select[name$='-dealer']")) {
    previous = previous.previousElementSibling;
  }
  var above = previous && previous.querySelector("select[name$='-dealer']");
  if (dealer && above && next[above.value]) {
    dealer.value = next[above.value];
  }
  var multiplier = row.querySelector("td.field-multiplier_line p, td.field-multiplier_line");
  if (multiplier && rules.dataset.multiplierHint) {
    multiplier.textContent = "×?";
    multiplier.title = rules.dataset.multiplierHint;
  }
});
