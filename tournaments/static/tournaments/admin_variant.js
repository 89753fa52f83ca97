"use strict";
// A new tournament in the admin: choosing another variant reloads the page with that variant's house
// options, keeping what was already typed (the admin's add page takes its initial values from the URL).
document.addEventListener("DOMContentLoaded", function () {
  var variant = document.getElementById("id_variant");
  if (!variant || !/\/add\/$/.test(window.location.pathname)) {
    return;
  }
  variant.addEventListener("change", function () {
    var params = new URLSearchParams(window.location.search);
    var form = variant.form;
    ["name", "slug", "club", "format", "rounds", "best_of", "status", "starts_on"].forEach(function (name) {
      var field = form.elements[name];
      if (field && field.value) {
        params.set(name, field.value);
      }
    });
    params.set("variant", variant.value);
    window.location.search = params.toString();
  });
});
