/* Table entry's queue: the hands typed on this phone, kept in IndexedDB until the server has stored them.
 *
 * A record: {id (auto, the order), match, key (the Idempotency-Key), game, number (where the hand is meant
 * to go), hand (the api.md shape), status "queued" | "refused" | "stored", refusals, stored, created}.
 * Also the last state the server told of each match, so a page opened offline numbers new hands right.
 * Everything is a Promise; window.WsQueue is the whole interface.
 */
(function () {
  "use strict";
  var DB_NAME = "manille-entry", VERSION = 1, db = null;

  function open() {
    if (db) return Promise.resolve(db);
    return new Promise(function (resolve, reject) {
      var req = indexedDB.open(DB_NAME, VERSION);
      req.onupgradeneeded = function () {
        var d = req.result;
        if (!d.objectStoreNames.contains("hands")) {
          var hands = d.createObjectStore("hands", { keyPath: "id", autoIncrement: true });
          hands.createIndex("match", "match", { unique: false });
        }
        if (!d.objectStoreNames.contains("state")) d.createObjectStore("state", { keyPath: "match" });
      };
      req.onsuccess = function () { db = req.result; resolve(db); };
      req.onerror = function () { reject(req.error); };
    });
  }

  function run(storeName, mode, work) {
    return open().then(function (d) {
      return new Promise(function (resolve, reject) {
        var tx = d.transaction(storeName, mode), result;
        var store = tx.objectStore(storeName);
        work(store, function (value) { result = value; });
        tx.oncomplete = function () { resolve(result); };
        tx.onerror = function () { reject(tx.error); };
        tx.onabort = function () { reject(tx.error); };
      });
    });
  }

  function request(req, set) { req.onsuccess = function () { set(req.result); }; }

  window.WsQueue = {
    add: function (record) {
      record.created = record.created || new Date().toISOString();
      return run("hands", "readwrite", function (store, set) { request(store.add(record), set); });
    },
    put: function (record) {
      return run("hands", "readwrite", function (store, set) { request(store.put(record), set); });
    },
    remove: function (id) {
      return run("hands", "readwrite", function (store) { store.delete(id); });
    },
    /* The records of a match in the order they were typed. */
    list: function (match) {
      return run("hands", "readonly", function (store, set) {
        request(store.index("match").getAll(IDBKeyRange.only(match)), function (rows) {
          set(rows.sort(function (a, b) { return a.id - b.id; }));
        });
      });
    },
    /* Keep the last `keep` stored records of a match (the page shows what was stored), drop older ones. */
    prune: function (match, keep) {
      return this.list(match).then(function (rows) {
        var stored = rows.filter(function (r) { return r.status === "stored"; });
        var old = stored.slice(0, Math.max(0, stored.length - keep));
        return Promise.all(old.map(function (r) { return window.WsQueue.remove(r.id); }));
      });
    },
    getState: function (match) {
      return run("state", "readonly", function (store, set) { request(store.get(match), set); });
    },
    putState: function (match, state) {
      return run("state", "readwrite", function (store) { store.put({ match: match, state: state }); });
    }
  };
})();
