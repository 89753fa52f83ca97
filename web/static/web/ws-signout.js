/* Signing out on a shared phone: the table entry pages this user opened leave the device, the hands waiting to be
 * sent do not.
 *
 * The Service Worker (ws-sw.js) keeps the entry pages (…/t/<slug>/score/ and …/score/<match>/) in the Cache API
 * so that they open offline; they show the user's matches, so they are deleted before the sign-out form is sent
 * (the site's static files stay: they are nobody's). The hands typed but not yet stored sit in IndexedDB
 * (ws-queue.js): they are never touched here. When some wait, the sign-out asks first, saying how many; they are
 * sent once someone who keeps the score of their tournament signs in on this device and opens their match.
 * Without this script (or without JavaScript) the form signs out as before.
 */
(function () {
  "use strict";
  var DB_NAME = "manille-entry"; // ws-queue.js
  var CACHE_PREFIX = "ws-entry-"; // ws-sw.js
  var ENTRY_PAGE = /\/t\/[^/]+\/score\/(\d+\/)?$/; // ws-sw.js keeps the paths that end so
  var GIVE_UP_MS = 3000; // signing out never waits longer than this for the browser's storage

  /* How many hands of the queue are not stored yet (queued or refused); 0 when this device has no queue. */
  function waitingHands() {
    if (!window.indexedDB) return Promise.resolve(0);
    return new Promise(function (resolve) {
      var req;
      try {
        req = indexedDB.open(DB_NAME);
      } catch (e) {
        resolve(0);
        return;
      }
      // No queue on this device: opening would create an empty database; abort, so nothing is created.
      req.onupgradeneeded = function () { req.transaction.abort(); };
      req.onerror = function (event) { if (event && event.preventDefault) event.preventDefault(); resolve(0); };
      req.onsuccess = function () {
        var db = req.result;
        if (!db.objectStoreNames.contains("hands")) { db.close(); resolve(0); return; }
        var all = db.transaction("hands", "readonly").objectStore("hands").getAll();
        all.onsuccess = function () {
          db.close();
          resolve(all.result.filter(function (r) { return r.status !== "stored"; }).length);
        };
        all.onerror = function () { db.close(); resolve(0); };
      };
    });
  }

  /* Delete the entry pages from the Service Worker's caches; its static files stay. */
  function dropEntryPages() {
    if (!window.caches) return Promise.resolve();
    return caches.keys().then(function (names) {
      return Promise.all(names.filter(function (n) { return n.indexOf(CACHE_PREFIX) === 0; }).map(function (n) {
        return caches.open(n).then(function (cache) {
          return cache.keys().then(function (requests) {
            return Promise.all(requests.filter(function (r) { return ENTRY_PAGE.test(new URL(r.url).pathname); })
              .map(function (r) { return cache.delete(r); }));
          });
        });
      }));
    });
  }

  function atMost(promise, ms) {
    return Promise.race([promise, new Promise(function (resolve) { setTimeout(resolve, ms); })]);
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-signout]")) return;
    event.preventDefault();
    if (form.dataset.leaving === "1") return; // a second tap while the first is under way
    form.dataset.leaving = "1";
    atMost(waitingHands(), GIVE_UP_MS).then(function (count) {
      if (count > 0 && !window.confirm(form.dataset.waiting.replace("{n}", count))) return false;
      return atMost(dropEntryPages(), GIVE_UP_MS).then(function () { return true; }, function () { return true; });
    }, function () { return true; }).then(function (go) {
      if (go) {
        HTMLFormElement.prototype.submit.call(form); // submit() fires no submit event: no second pass here
      } else {
        form.dataset.leaving = "";
      }
    });
  });
})();
