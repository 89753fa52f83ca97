/* Table entry on a phone: the other side filled in, a live preview by the engine, and a queue that survives
 * a hall without wifi. Every hand typed goes to IndexedDB first (ws-queue.js) with its own Idempotency-Key and
 * the game and hand number it is meant for, then to the server in order; a refused hand stops the hands behind
 * it until it is fixed or dropped. Without JavaScript the form posts as a plain form.
 */
(function () {
  "use strict";
  var form = document.getElementById("hand-form");
  var configEl = document.getElementById("ws-entry-config");
  if (!configEl || !window.WsQueue) return;
  var config = JSON.parse(configEl.textContent);
  var words = JSON.parse(document.getElementById("ws-entry-words").textContent);
  var match = config.match, urls = config.urls, variant = config.variant;
  var state = config.state;
  var queueBox = document.getElementById("entry-queue");
  var queueList = document.getElementById("queue-list");
  var netLine = document.getElementById("entry-net");
  var previewBox = document.getElementById("entry-preview");
  var fixing = null; // the id of the refused record being fixed in the form
  var lastPreview = null; // {input: JSON of the hand, result}
  var lastRefusal = null; // {input: JSON of the hand, refusals}: the server's refusal of what the form holds
  var typed = {}; // the tricks and points fields the user typed in (the others may be filled from them)
  var syncing = false;
  var checking = false; // a hand being checked before it is queued

  function fmt(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (_, k) { return values[k] === undefined || values[k] === null ? "" : values[k]; });
  }

  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 15) | 64; b[8] = (b[8] & 63) | 128;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  function csrfToken() {
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (m) return decodeURIComponent(m[1]);
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin", redirect: "manual",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken(), "Accept": "application/json" },
      body: JSON.stringify(body)
    });
  }

  function nextSeat(seat) {
    var i = variant.order.indexOf(seat);
    return i < 0 ? "" : variant.order[(i + 1) % variant.order.length];
  }

  /* ------------------------------------------------------------------ the form */

  function field(name) { return form ? form.elements.namedItem(name) : null; }

  function radioValue(name) {
    var el = field(name);
    if (!el) return "";
    if (el.value !== undefined && !(el instanceof RadioNodeList)) return el.checked ? el.value : "";
    return el.value || "";
  }

  function setRadio(name, value) {
    if (!form) return;
    form.querySelectorAll("input[name='" + name + "']").forEach(function (el) { el.checked = el.value === String(value); });
  }

  function numberOf(name) {
    var el = field(name);
    if (!el || el.value.trim() === "") return null;
    var n = Number(el.value);
    return Number.isInteger(n) ? n : el.value;
  }

  /* The hand as the api.md shape, from the form's fields. */
  function handFromForm() {
    var hand = { dealer: radioValue("dealer") };
    if (variant.trump_mode === "turned") {
      var rank = radioValue("turned_rank"), suit = radioValue("turned_suit");
      if (rank && suit) hand.turned_card = rank + suit;
    } else if (radioValue("trump")) {
      hand.trump = radioValue("trump");
    }
    var blind = field("blind");
    if (blind && blind.checked) hand.blind = true;
    var doublings = Number(radioValue("doublings") || 0);
    if (doublings) hand.doublings = doublings;
    var thrown = field("thrown_in");
    if (thrown && thrown.checked) hand.thrown_in = true;
    ["tricks", "points"].forEach(function (name) {
      var ns = numberOf(name + "_ns"), ew = numberOf(name + "_ew");
      if (ns !== null || ew !== null) hand[name] = { ns: ns, ew: ew };
    });
    var penalty = radioValue("penalty_type");
    if (penalty) hand.penalty = { type: penalty, side: radioValue("penalty_side") };
    return hand;
  }

  function fillForm(hand) {
    setRadio("dealer", hand.dealer || "");
    if (variant.trump_mode === "turned") {
      var card = hand.turned_card || "";
      setRadio("turned_rank", card.slice(0, -1));
      setRadio("turned_suit", card.slice(-1));
    } else {
      setRadio("trump", hand.trump || "");
    }
    if (field("blind")) field("blind").checked = !!hand.blind;
    if (field("doublings")) setRadio("doublings", hand.doublings || 0);
    if (field("thrown_in")) field("thrown_in").checked = !!hand.thrown_in;
    ["tricks", "points"].forEach(function (name) {
      var v = hand[name] || {};
      ["ns", "ew"].forEach(function (side) {
        var value = v[side] === undefined || v[side] === null ? "" : String(v[side]);
        field(name + "_" + side).value = value;
        typed[name + "_" + side] = value !== "";  // a hand brought back is the user's: not overwritten
      });
    });
    updatePlaceholders();
    if (field("penalty_type")) {
      setRadio("penalty_type", hand.penalty ? hand.penalty.type : "");
      setRadio("penalty_side", hand.penalty ? hand.penalty.side : "");
    }
  }

  function clearErrors() {
    if (!form) return;
    form.querySelectorAll(".entry-field.has-error").forEach(function (el) { el.classList.remove("has-error"); });
    form.querySelectorAll(".field-error").forEach(function (el) { el.textContent = ""; });
    var general = document.getElementById("err-general");
    general.textContent = ""; general.hidden = true;
    var note = document.getElementById("save-note");
    if (note) { note.textContent = ""; note.hidden = true; }
  }

  /* The error line of a refusal's field (the turned card's trump errors on the card picker), or null. */
  function errorBox(refusal) {
    var name = refusal.field === "trump" && variant.trump_mode === "turned" ? "turned_card" : refusal.field;
    return (name && document.getElementById("err-" + name)) || null;
  }

  /* The refusals on their fields. */
  function showErrors(refusals) {
    clearErrors();
    var general = document.getElementById("err-general");
    refusals.forEach(function (r) {
      var box = errorBox(r);
      if (box) {
        box.textContent = box.textContent ? box.textContent + " " + r.message : r.message;
        box.closest(".entry-field").classList.add("has-error");
        var details = box.closest("details");
        if (details) details.open = true;
      } else {
        var p = document.createElement("p");
        p.textContent = r.message;
        general.appendChild(p);
        general.hidden = false;
      }
    });
  }

  /* A field's own error line: set (with the rule's words) or cleared. */
  function flagField(name, message) {
    var box = document.getElementById("err-" + name);
    if (!box) return;
    box.textContent = message || "";
    box.closest(".entry-field").classList.toggle("has-error", !!message);
  }

  function totalOf(kind) { return kind === "tricks" ? variant.tricks_per_deal : variant.hand_total; }

  /* A side's count typed in the form: a whole number from 0 to the deal's total, null when empty, NaN otherwise. */
  function countOf(name, total) {
    var el = field(name);
    if (!el || el.value.trim() === "") return null;
    var v = Number(el.value);
    return Number.isInteger(v) && v >= 0 && v <= total ? v : NaN;
  }

  /* What is wrong with the two sides' tricks or points as typed (the rule's words), or "". */
  function pairProblem(kind) {
    var total = totalOf(kind), ns = countOf(kind + "_ns", total), ew = countOf(kind + "_ew", total);
    if (Number.isNaN(ns) || Number.isNaN(ew)) return fmt(words.out_of_range, { total: total });
    if (ns !== null && ew !== null && ns + ew !== total) {
      return fmt(words[kind + "_total"], { total: total, got: ns + ew });
    }
    return "";
  }

  /* An empty side shows the value the other side leaves it (the deal's total minus it) as its placeholder. */
  function updatePlaceholders() {
    ["tricks", "points"].forEach(function (kind) {
      var total = totalOf(kind);
      ["ns", "ew"].forEach(function (side) {
        var el = field(kind + "_" + side);
        if (!el) return;
        var other = countOf(kind + "_" + (side === "ns" ? "ew" : "ns"), total);
        el.placeholder = other === null || Number.isNaN(other) ? "" : String(total - other);
      });
    });
  }

  /* Typing one side's tricks or points fills the other's from the deal's total, unless the user typed that one
   * too: what was typed is never replaced. Two sides typed that do not add up are flagged with the rule. */
  function pairFill(event) {
    var m = /^(tricks|points)_(ns|ew)$/.exec(event.target.name || "");
    if (!m) return;
    var total = totalOf(m[1]);
    var otherName = m[1] + "_" + (m[2] === "ns" ? "ew" : "ns"), other = field(otherName);
    typed[event.target.name] = event.target.value.trim() !== "";
    if (!typed[otherName]) {
      var v = countOf(event.target.name, total);
      other.value = v === null || Number.isNaN(v) ? "" : total - v;
    }
    updatePlaceholders();
    flagField(m[1], pairProblem(m[1]));
  }

  /* The page's own checks of a hand before it is queued: the refusals it would meet, on their fields. */
  function localProblems() {
    var found = [];
    ["tricks", "points"].forEach(function (kind) {
      var problem = pairProblem(kind);
      if (problem) found.push({ code: kind === "tricks" ? "tricks_total" : "points_total", field: kind, message: problem });
    });
    return found;
  }

  /* An empty side next to a valid one takes the value its placeholder shows (the deal's total minus the other). */
  function completePairs() {
    ["tricks", "points"].forEach(function (kind) {
      var total = totalOf(kind);
      ["ns", "ew"].forEach(function (side) {
        var el = field(kind + "_" + side);
        var other = countOf(kind + "_" + (side === "ns" ? "ew" : "ns"), total);
        if (el && el.value.trim() === "" && other !== null && !Number.isNaN(other)) el.value = total - other;
      });
    });
  }

  function resetForm(dealer) {
    typed = {};
    lastRefusal = null;
    fillForm({ dealer: dealer });
    lastPreview = null;
    previewBox.hidden = true;
    clearErrors();
  }

  /* ------------------------------------------------------------------ where the next hand goes */

  function pending(rows) { return rows.filter(function (r) { return r.status !== "stored"; }); }

  /* The game, hand number and dealer of the next hand: the server's state, then every hand still queued. */
  function nextPosition(rows) {
    var pos = { game: state.game, number: state.number, dealer: state.next_dealer };
    pending(rows).forEach(function (r) {
      if (r.id === fixing) return;
      pos = r.winner ? { game: r.game + 1, number: 1, dealer: nextSeat(r.hand.dealer) }
                     : { game: r.game, number: r.number + 1, dealer: nextSeat(r.hand.dealer) };
    });
    return pos;
  }

  function showPosition(rows, setDealer) {
    if (!form) return;
    var pos = nextPosition(rows);
    if (fixing === null) {
      field("game").value = pos.game;
      field("number").value = pos.number;
      document.getElementById("entry-title").textContent = fmt(words.title, pos);
      if (setDealer && pos.dealer) setRadio("dealer", pos.dealer);
    }
  }

  /* Number the hands not yet stored again from the server's state (after a drop, a fix or a game decided early). */
  function renumber(rows) {
    var g = state.game, n = state.number;
    return Promise.all(pending(rows).map(function (r) {
      r.game = g; r.number = n; n += 1;
      if (r.winner) { g += 1; n = 1; }
      return WsQueue.put(r);
    }));
  }

  function setState(newState) {
    if (!newState) return Promise.resolve();
    state = newState;
    var board = document.getElementById("entry-board");
    board.querySelector(".total[data-side=ns]").textContent = state.totals.ns;
    board.querySelector(".total[data-side=ew]").textContent = state.totals.ew;
    var games = board.querySelectorAll(".games");
    games[0].textContent = state.games_won.ns; games[1].textContent = state.games_won.ew;
    board.querySelector("[data-game]").textContent = state.decided ? words.decided : fmt(words.game_hand, state);
    var badge = document.querySelector(".crumbs .badge");  // the match's status (not started, playing, finished)
    if (badge && state.status_label) {
      badge.textContent = state.status_label;
      badge.className = "badge status-" + state.status;
    }
    if (form && state.decided && fixing === null) {
      // The match is decided: nothing more to enter (a refused hand can still be fixed or dropped).
      form.hidden = true;
      var done = document.getElementById("entry-decided");
      if (done) done.hidden = false;
    }
    return WsQueue.putState(match, state);
  }

  /* ------------------------------------------------------------------ the queue on the page */

  /* A seat, a trump and a turned card in the page's language (O and Z on a Dutch page; hearts, oros...). */
  function seatName(code) { return (words.seats && words.seats[code]) || code; }
  function trumpName(code) { return (words.suits && words.suits[code]) || code; }
  function cardName(code) { return (words.cards && words.cards[code]) || code; }

  /* Two sides' tricks or points: a side left empty shows what the other leaves it, or a placeholder. */
  function pairText(pair, total) {
    function known(v) { return typeof v === "number" && Number.isInteger(v); }
    var ns = pair.ns, ew = pair.ew;
    if (!known(ns) && known(ew) && ew >= 0 && ew <= total) ns = total - ew;
    else if (!known(ew) && known(ns) && ns >= 0 && ns <= total) ew = total - ns;
    function text(v) { return v === null || v === undefined || v === "" ? words.blank : String(v); }
    return text(ns) + "–" + text(ew);
  }

  function describe(r) {
    var h = r.hand, parts = [fmt(words.hand, r)];
    if (h.dealer) parts.push(seatName(h.dealer));
    if (h.trump) parts.push(trumpName(h.trump));
    if (h.turned_card) parts.push(cardName(h.turned_card));
    if (h.tricks) parts.push(pairText(h.tricks, variant.tricks_per_deal));
    if (h.points) parts.push(pairText(h.points, variant.hand_total));
    return parts.join(" · ");
  }

  function button(label, cls, onClick) {
    var b = document.createElement("button");
    b.type = "button"; b.className = cls; b.textContent = label;
    b.addEventListener("click", onClick);
    return b;
  }

  function render() {
    return WsQueue.list(match).then(function (rows) {
      queueList.textContent = "";
      var blocked = false, blockedBy = null;
      // Of the hands stored, only the last is shown (the game's table below lists them all): the form stays
      // near the top of the page however many hands this phone has sent.
      var stored = rows.filter(function (r) { return r.status === "stored"; });
      var lastStored = stored[stored.length - 1];
      rows.forEach(function (r) {
        var li = document.createElement("li");
        li.className = "q-" + r.status + (r.id === fixing ? " q-fixing" : "");
        li.dataset.status = r.status;
        li.hidden = r.status === "stored" && r !== lastStored;
        var head = document.createElement("p");
        var badge = document.createElement("span");
        badge.className = "badge q-badge";
        badge.textContent = words[r.status] || r.status;
        if (blocked && r.status === "queued") {  // behind a refused hand: not sent until it is fixed or dropped
          li.classList.add("q-waiting");
          badge.textContent = words.waiting_fix;
        }
        head.appendChild(badge);
        head.appendChild(document.createTextNode(" " + describe(r)));
        li.appendChild(head);
        if (r.status === "stored" && r.stored) {
          var p = document.createElement("p");
          p.className = "q-detail";
          p.textContent = r.stored.message;
          li.appendChild(p);
        }
        if (r.status === "refused") {
          if (!blocked) blockedBy = r;
          blocked = true;
          (r.refusals || []).forEach(function (x) {
            // The admin's sentence, then the API's code (what an organizer looks up).
            var p = document.createElement("p");
            p.className = "q-detail q-reason";
            p.textContent = x.message || words.error;
            if (x.code) {
              var code = document.createElement("code");
              code.className = "q-code";
              code.textContent = x.code;
              p.appendChild(document.createTextNode(" "));
              p.appendChild(code);
            }
            li.appendChild(p);
          });
          var actions = document.createElement("p");
          actions.className = "q-actions";
          if (form) actions.appendChild(button(words.edit, "btn-secondary", function () { startFix(r); }));
          actions.appendChild(button(words.retry, "btn-secondary", function () { retry(r); }));
          actions.appendChild(button(words.drop, "btn-danger", function () { drop(r); }));
          li.appendChild(actions);
        }
        queueList.appendChild(li);
      });
      // A refused hand says so above the list: the queue waits for it, it does not stop silently.
      var banner = document.getElementById("queue-blocked");
      if (blockedBy) {
        if (!banner) {
          banner = document.createElement("p");
          banner.id = "queue-blocked"; banner.className = "q-blocked"; banner.setAttribute("role", "alert");
          queueBox.insertBefore(banner, queueList);
        }
        banner.textContent = fmt(words.blocked, { hand: fmt(words.hand, blockedBy) });
      } else if (banner) {
        banner.remove();
      }
      queueBox.hidden = rows.length === 0;
      document.getElementById("queue-send").hidden = pending(rows).length === 0 || blocked;
      netLine.textContent = navigator.onLine ? "· " + words.online : "· " + words.offline;
      netLine.className = "net " + (navigator.onLine ? "on" : "off");
      // Corrections and deletions go straight to the server: only once nothing waits in the queue.
      var last = document.getElementById("entry-last");
      if (last) {
        var locked = pending(rows).length > 0, note = last.querySelector(".locked-note");
        last.classList.toggle("locked", locked);
        if (locked && !note) {
          note = document.createElement("p");
          note.className = "locked-note muted";
          note.textContent = words.unchanged_since;
          last.insertBefore(note, last.children[1] || null);
        } else if (!locked && note) {
          note.remove();
        }
      }
      showPosition(rows, false);
      return rows;
    });
  }

  function startFix(r) {
    fixing = r.id;
    form.hidden = false;
    fillForm(r.hand);
    showErrors(r.refusals || []);
    lastRefusal = { input: JSON.stringify(handFromForm()), refusals: r.refusals || [] };
    document.getElementById("entry-title").textContent = words.fixing;
    field("game").value = r.game; field("number").value = r.number;
    render();
    form.scrollIntoView({ behavior: "smooth", block: "start" });
  }

  function refreshState() {
    if (!navigator.onLine) return Promise.resolve();
    return fetch(urls.state, { credentials: "same-origin", redirect: "manual", headers: { Accept: "application/json" } })
      .then(function (resp) { return resp.ok ? resp.json().then(function (d) { return setState(d.state); }) : null; })
      .catch(function () { return null; });
  }

  function retry(r) {
    return refreshState().then(function () { return WsQueue.list(match); }).then(function (rows) {
      r = rows.filter(function (x) { return x.id === r.id; })[0];
      if (!r) return;
      r.status = "queued"; r.refusals = null;
      return WsQueue.put(r).then(function () { return WsQueue.list(match); }).then(renumber);
    }).then(render).then(sync);
  }

  function drop(r) {
    if (!window.confirm(words.drop_confirm)) return;
    if (fixing === r.id) { fixing = null; resetForm(""); }
    WsQueue.remove(r.id).then(refreshState).then(function () { return WsQueue.list(match); })
      .then(renumber).then(render).then(function (rows) { showPosition(rows, true); }).then(sync);
  }

  /* ------------------------------------------------------------------ sending */

  /* A refusal that is no fault of the hand (signed out, the table's code no longer valid, too many requests for
   * now): the queue stops with the server's words (or the page's), the hand stays queued. */
  function stopWith(resp, fallback) {
    return resp.json().then(function (data) {
      var first = (data.refusals || [])[0];
      return { stop: true, message: (first && first.message) || fallback };
    }, function () { return { stop: true, message: fallback }; });
  }

  function sendOne(r) {
    // played_at: when the hand was typed at the table (the queue's own time), so the round clock judges the
    // hand by it and not by when a lost connection let it through.
    return post(urls.enter, { hand: r.hand, game: r.game, number: r.number, key: r.key, played_at: r.created })
      .then(function (resp) {
      if (resp.type === "opaqueredirect" || resp.status === 401) return { stop: true, message: words.signed_out };
      if (resp.status === 403) return stopWith(resp, words.signed_out);
      if (resp.status === 429) return stopWith(resp, words.error);
      if (resp.status >= 500) return { stop: true, message: words.error };
      return resp.json().then(function (data) {
        if (resp.ok) {
          r.status = "stored"; r.stored = data.stored; r.refusals = null;
          return WsQueue.put(r).then(function () { return setState(data.state); }).then(function () { return { stored: true }; });
        }
        r.status = "refused";
        r.refusals = data.refusals || [{ code: "refused", field: "", message: words.error }];
        return WsQueue.put(r).then(function () { return { stop: true }; });
      });
    }, function () {
      return { stop: true, offline: true };
    });
  }

  function sync() {
    if (syncing || !navigator.onLine) return render();
    syncing = true;
    var storedAny = false;
    var general = null;
    function step() {
      return WsQueue.list(match).then(function (rows) {
        var next = pending(rows)[0];
        if (!next || next.status === "refused" || next.id === fixing) return null;
        return sendOne(next).then(function (outcome) {
          if (outcome.stored) { storedAny = true; return render().then(step); }
          if (outcome.message) general = outcome.message;
          return null;
        });
      });
    }
    return step().then(function () {
      syncing = false;
      var box = document.getElementById("queue-problem");
      if (general) {
        if (!box) {
          box = document.createElement("p");
          box.id = "queue-problem"; box.className = "q-problem"; box.setAttribute("role", "alert");
          queueBox.insertBefore(box, queueList);
        }
        box.textContent = general;
      } else if (box) {
        box.remove();
      }
      if (storedAny) { WsQueue.prune(match, 10); refreshSections(); }
      return render();
    }, function (err) { syncing = false; throw err; });
  }

  /* After hands are stored, the page's outcome (a decided match waits for its confirmation), its list of hands and
     its last-hand actions are read again. */
  function refreshSections() {
    fetch(urls.page, { credentials: "same-origin", redirect: "manual" }).then(function (resp) {
      return resp.ok ? resp.text() : null;
    }).then(function (html) {
      if (!html) return;
      var doc = new DOMParser().parseFromString(html, "text/html");
      [".entry-outcome", ".entry-hands", ".entry-last", ".entry-game"].forEach(function (sel) {
        var fresh = doc.querySelector(sel), here = document.querySelector(sel);
        if (fresh && here) here.replaceWith(fresh);
        else if (fresh && !here) document.querySelector("main").appendChild(fresh);
        else if (here && !fresh) here.remove();
      });
      render();
    }).catch(function () {});
  }

  /* ------------------------------------------------------------------ the preview */

  var previewTimer = null;
  function complete(hand) {
    if (!hand.dealer) return false;
    if (hand.thrown_in) return true;
    if (!hand.trump && !hand.turned_card) return false;
    return !!(hand.tricks && hand.points) || !!hand.penalty;
  }

  /* A preview is asked as the queue will send the hand: for the game and hand number the form shows. */
  function previewBody(hand) {
    var game = field("game"), number = field("number");
    return { hand: hand, game: game ? Number(game.value) || null : null, number: number ? Number(number.value) || null : null };
  }

  function schedulePreview() {
    clearTimeout(previewTimer);
    previewTimer = setTimeout(runPreview, 350);
  }

  function runPreview() {
    var hand = handFromForm();
    if (!complete(hand) || localProblems().length) { previewBox.hidden = true; return; }
    WsQueue.list(match).then(function (rows) {
      if (!navigator.onLine || pending(rows).some(function (r) { return r.id !== fixing; })) {
        // Offline, or online with hands ahead of this one that the server has not stored yet.
        previewBox.textContent = navigator.onLine ? words.preview_waiting : words.preview_offline;
        previewBox.className = "entry-preview muted";
        previewBox.hidden = false;
        return;
      }
      var input = JSON.stringify(hand);
      post(urls.preview, previewBody(hand)).then(function (resp) {
        if (input !== JSON.stringify(handFromForm())) return; // typed on meanwhile
        if (resp.type === "opaqueredirect" || resp.status === 401 || resp.status === 403 || resp.status === 429 ||
            resp.status >= 500) {
          previewBox.hidden = true; return;
        }
        return resp.json().then(function (data) {
          if (input !== JSON.stringify(handFromForm())) return;
          if (data.preview) {
            var p = data.preview;
            lastPreview = { input: input, result: p };
            lastRefusal = null;
            clearErrors();
            var text = fmt(words.preview, { ns_name: state.ns_name, ew_name: state.ew_name, ns: p.score.ns, ew: p.score.ew,
                                            tns: p.totals.ns, tew: p.totals.ew });
            if (p.multiplier > 1) text += " " + fmt(words.preview_multiplier, { n: p.multiplier });
            var notes = p.labels.slice();
            if (p.bonus && p.bonus.applied) notes.push(fmt(words.preview_bonus, { n: p.bonus.points }));
            if (notes.length) text += " (" + notes.join(", ") + ")";
            if (p.game_winner_name) text += " " + fmt(words.preview_wins, { team: p.game_winner_name });
            previewBox.textContent = text;
            previewBox.className = "entry-preview ok";
            previewBox.hidden = false;
          } else {
            lastPreview = null;
            previewBox.hidden = true;
            lastRefusal = { input: input, refusals: data.refusals || [] };
            showErrors(data.refusals || []);
          }
        });
      }).catch(function () {
        previewBox.textContent = words.preview_offline;
        previewBox.className = "entry-preview muted";
        previewBox.hidden = false;
      });
    });
  }

  /* ------------------------------------------------------------------ typing and saving */

  /* Save refused: the reasons on their fields, a word by the button, the first field in red brought into view. */
  function refuseSave(refusals) {
    showErrors(refusals);
    var note = document.getElementById("save-note");
    if (note) { note.textContent = words.save_blocked; note.hidden = false; }
    var first = form.querySelector(".entry-field.has-error");
    if (first) {
      first.scrollIntoView({ block: "center" });
      var input = first.querySelector("input");
      if (input) input.focus({ preventScroll: true });
    }
  }

  /* The server's refusals of this hand on the form's fields, if it can tell now: the last preview's answer, else
   * a preview asked at once (online, nothing ahead of it in the queue). Offline or unsure: none (the queue sends
   * it, and a refusal then comes back to the form). */
  function serverRefusals(hand, input) {
    function onFields(refusals) { return (refusals || []).filter(errorBox); }
    if (lastPreview && lastPreview.input === input) return Promise.resolve([]);
    if (lastRefusal && lastRefusal.input === input) return Promise.resolve(onFields(lastRefusal.refusals));
    if (!navigator.onLine) return Promise.resolve([]);
    return WsQueue.list(match).then(function (rows) {
      if (pending(rows).some(function (r) { return r.id !== fixing; })) return [];
      var asked = post(urls.preview, previewBody(hand)).then(function (resp) {
        if (resp.status !== 400 && resp.status !== 409) return [];
        return resp.json().then(function (data) {
          lastRefusal = { input: input, refusals: data.refusals || [] };
          return onFields(data.refusals);
        });
      });
      var late = new Promise(function (resolve) { setTimeout(function () { resolve([]); }, 5000); });
      return Promise.race([asked, late]).catch(function () { return []; });
    });
  }

  /* While a saved hand is checked (up to 5 s on a slow hall network) the form takes no typing: the next hand
   * typed over it at once used to be lost, neither saved nor kept, since the check found the form changed. */
  function lockForm(locked) {
    Array.prototype.forEach.call(form.elements, function (el) {
      if (locked && !el.disabled) { el.disabled = true; el.setAttribute("data-checking", ""); }
      else if (!locked && el.hasAttribute("data-checking")) { el.disabled = false; el.removeAttribute("data-checking"); }
    });
    if (locked) form.setAttribute("aria-busy", "true"); else form.removeAttribute("aria-busy");
  }

  function onSubmit(event) {
    event.preventDefault();
    completePairs();
    updatePlaceholders();
    var hand = handFromForm();
    var input = JSON.stringify(hand);
    // A hand flagged in red (by the page's own checks or by the server) is not queued: it would only be refused.
    var local = localProblems();
    if (local.length) { refuseSave(local); return; }
    if (checking) return;  // a second tap while the first is checked queues nothing more
    checking = true;
    lockForm(true);
    serverRefusals(hand, input).then(function (refusals) {
      checking = false;
      lockForm(false);
      if (input !== JSON.stringify(handFromForm())) return;  // changed meanwhile (it cannot be, locked): save again
      if (refusals.length) refuseSave(refusals);
      else queueHand(hand, input);
    });
  }

  function queueHand(hand, input) {
    var winner = lastPreview && lastPreview.input === input ? lastPreview.result.game_winner : null;
    var fixedId = fixing;
    clearErrors();
    var saved;
    if (fixing !== null) {
      saved = WsQueue.list(match).then(function (rows) {
        var r = rows.filter(function (x) { return x.id === fixedId; })[0];
        fixing = null;
        if (!r) return null;
        r.hand = hand; r.status = "queued"; r.refusals = null; r.key = uuid(); r.winner = winner;
        return WsQueue.put(r).then(refreshState).then(function () { return WsQueue.list(match); }).then(renumber);
      });
    } else {
      saved = WsQueue.add({ match: match, key: uuid(), game: Number(field("game").value),
                            number: Number(field("number").value), hand: hand, status: "queued", winner: winner });
    }
    var savedId = null;
    saved.then(function (added) {
      savedId = typeof added === "number" ? added : fixedId;
      resetForm("");
      return render();
    }).then(function (rows) {
      showPosition(rows, true);
      return sync();
    }).then(function (rows) {
      // The hand just saved was refused at once: back into the form, the reasons on their fields.
      var mine = (rows || []).filter(function (r) { return r.id === savedId && r.status === "refused"; })[0];
      if (mine && fixing === null) startFix(mine);
    });
  }

  /* ------------------------------------------------------------------ the Service Worker */

  function registerWorker() {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.register(urls.sw, { scope: urls.scope }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (reg) {
      // This page and the match list open offline from now on (the first visit was not yet controlled).
      if (reg.active) reg.active.postMessage({ type: "keep", urls: [urls.page, urls.list] });
    }).catch(function () {});
  }

  /* ------------------------------------------------------------------ start */

  WsQueue.getState(match).then(function (kept) {
    // A page opened from the cache offline may be older than the last state the server told this phone.
    if (kept && kept.state && kept.state.version > state.version) return setState(kept.state);
    return WsQueue.putState(match, state);
  }).then(render).then(function (rows) {
    showPosition(rows, !document.querySelector(".entry-field.has-error"));
    return sync();
  });

  if (form) {
    form.addEventListener("submit", onSubmit);
    form.addEventListener("input", function (event) { pairFill(event); schedulePreview(); });
    form.addEventListener("change", schedulePreview);
  }
  document.getElementById("queue-send").addEventListener("click", function () { sync(); });
  window.addEventListener("online", function () { refreshState().then(sync); });
  window.addEventListener("offline", render);
  setInterval(function () { if (navigator.onLine) sync(); }, 15000);
  registerWorker();
})();
