// The workspace's forms, progressively enhanced (the forms work without this script):
// - the tournament form shows only the chosen variant's house options and its default best-of;
// - the standings order: up/down buttons (keyboard and touch) move a measure; the checkboxes submit in
//   the list's order, so no hidden field is needed; "Back to the default order" restores it;
// - a copy button copies an invitation link.
(function () {
  "use strict";

  // --- the variant's house options -------------------------------------------------------------
  var variant = document.getElementById("id_variant");
  var groups = document.querySelectorAll("[data-variant-options] .house-options");
  var bestOf = document.getElementById("id_best_of");
  function showVariant() {
    var chosen = variant.value;
    for (var i = 0; i < groups.length; i++) {
      var mine = groups[i].getAttribute("data-variant") === chosen;
      groups[i].hidden = !mine;
      // Another variant's fields are not sent; a frozen form keeps its fieldsets disabled.
      if (!variant.disabled) { groups[i].disabled = !mine; }
      if (mine && bestOf) { bestOf.placeholder = groups[i].getAttribute("data-best-of"); }
    }
  }
  if (variant && groups.length) {
    variant.addEventListener("change", showVariant);
    showVariant();
  }

  // --- parts shown only for a choice: data-when="<field>=<value>" (the entry kind, the match length...) -----
  var conditional = document.querySelectorAll("[data-when]");
  function chosen(name) {
    var checked = document.querySelector('input[name="' + name + '"]:checked');
    if (checked) { return checked.value; }
    var select = document.querySelector('select[name="' + name + '"]');
    return select ? select.value : "";
  }
  function showWhen() {
    for (var i = 0; i < conditional.length; i++) {
      var rule = conditional[i].getAttribute("data-when").split("=");
      // Hidden, not disabled: what was typed is still sent, and saved as it is (it only counts for that choice).
      conditional[i].hidden = chosen(rule[0]) !== rule[1];
    }
  }
  if (conditional.length) {
    document.addEventListener("change", function (event) {
      if (event.target.name) { showWhen(); }
    });
    showWhen();
  }

  // --- the sortable standings order ------------------------------------------------------------
  var lists = document.querySelectorAll("[data-sortable] .sortable");
  function refresh(list) {
    var items = list.querySelectorAll(".sort-item");
    for (var i = 0; i < items.length; i++) {
      var buttons = items[i].querySelectorAll("[data-move]");
      buttons[0].disabled = i === 0;
      buttons[1].disabled = i === items.length - 1;
    }
  }
  function announce(list, item) {
    var status = list.parentNode.querySelector("[data-sort-status]");
    var items = Array.prototype.slice.call(list.querySelectorAll(".sort-item"));
    if (status) {
      var name = item.querySelector(".sort-name").textContent;
      status.textContent = name + ": " + status.getAttribute("data-moved").replace("%(n)s", items.indexOf(item) + 1);
    }
    item.classList.add("moved");
    setTimeout(function () { item.classList.remove("moved"); }, 600);
  }
  function move(list, item, step) {
    if (step < 0 && item.previousElementSibling) {
      list.insertBefore(item, item.previousElementSibling);
    } else if (step > 0 && item.nextElementSibling) {
      list.insertBefore(item.nextElementSibling, item);
    } else {
      return;
    }
    refresh(list);
    var button = item.querySelector('[data-move="' + step + '"]');
    (button && !button.disabled ? button : item.querySelector("input")).focus();
    announce(list, item);
  }
  function defaultOrder(list) {
    var items = Array.prototype.slice.call(list.querySelectorAll(".sort-item"));
    var rank = function (el) {
      var d = el.getAttribute("data-default");
      return d ? parseInt(d, 10) : 1000;
    };
    var metricOrder = function (el) { return parseInt(el.getAttribute("data-index"), 10); };
    items.sort(function (a, b) { return (rank(a) - rank(b)) || (metricOrder(a) - metricOrder(b)); });
    for (var i = 0; i < items.length; i++) {
      items[i].querySelector("input").checked = rank(items[i]) < 1000;
      list.appendChild(items[i]);
    }
    refresh(list);
  }
  for (var l = 0; l < lists.length; l++) {
    (function (list) {
      // data-index: each measure's place in the engine's list, for the default order's tail.
      list.addEventListener("click", function (event) {
        var button = event.target.closest("[data-move]");
        if (!button) { return; }
        move(list, button.closest(".sort-item"), parseInt(button.getAttribute("data-move"), 10));
      });
      var reset = list.parentNode.querySelector("[data-default-order]");
      if (reset) { reset.addEventListener("click", function () { defaultOrder(list); }); }
      refresh(list);
    })(lists[l]);
  }

  // --- copy a link -------------------------------------------------------------------------------
  var copyButtons = document.querySelectorAll("[data-copy]");
  for (var c = 0; c < copyButtons.length; c++) {
    copyButtons[c].addEventListener("click", function (event) {
      var button = event.currentTarget;
      var input = document.getElementById(button.getAttribute("data-copy"));
      var label = button.textContent;
      var done = function () {
        button.textContent = button.getAttribute("data-copied");
        setTimeout(function () { button.textContent = label; }, 2000);
      };
      input.select();
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(input.value).then(done, function () { document.execCommand("copy"); done(); });
      } else {
        document.execCommand("copy");
        done();
      }
    });
  }

  // A form returned with errors: bring the summary into view for screen readers and small screens.
  var summary = document.getElementById("form-errors");
  if (summary) { summary.focus(); }
})();
