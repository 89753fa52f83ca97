// "Where do I sit?": the answer as the player types (the page works without this: a GET form).
// The results alone come from the same URL with ?partial=1; an older answer never replaces a newer one, and the
// address keeps the search, so a reload or a shared link shows the same answer.
(function () {
  "use strict";
  var form = document.querySelector("[data-seat-search]");
  if (!form || !window.fetch || !window.history) return;
  var input = form.querySelector("input[name=q]");
  var results = document.getElementById("seat-results");
  var timer = null;
  var asked = 0;
  var shown = 0;
  var last = input.value.trim();

  function search() {
    var q = input.value.trim();
    var url = form.action + (q ? "?q=" + encodeURIComponent(q) : "");
    var n = ++asked;
    last = q;
    fetch(url + (q ? "&" : "?") + "partial=1", { credentials: "same-origin", headers: { "X-Requested-With": "seat" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html === null || n < shown) return;
        shown = n;
        results.innerHTML = html;
        history.replaceState(null, "", url);
      })
      .catch(function () { /* offline for a moment: the form still submits */ });
  }

  input.addEventListener("input", function () {
    clearTimeout(timer);
    if (input.value.trim() === last) return;
    timer = setTimeout(search, 150);
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    clearTimeout(timer);
    search();
    input.blur();  // a phone's keyboard closes: the answer is in sight
  });
})();
