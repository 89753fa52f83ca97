/* The Service Worker of the table entry pages (served at /my/sw.js, scope /my/t/; the view puts
 * self.WS_ENTRY = {version, assets} in front of this file).
 *
 * The entry pages (…/score/ and …/score/<match>/, …/table/ and …/table/<match>/) are fetched from the network first and kept, so that
 * they open offline; the site's static files are kept at install and served from the cache (refreshed
 * in the background). Every other request, and every POST, goes to the network untouched: hands reach
 * the server only through the page's own queue.
 */
"use strict";
var CONFIG = self.WS_ENTRY || { version: "dev", assets: [] };
var CACHE = "ws-entry-" + CONFIG.version;
var ENTRY_PAGE = /\/(score|table)\/(\d+\/)?$/;  // a scorekeeper's pages, and a table's by its code

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(CONFIG.assets); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n.indexOf("ws-entry-") === 0 && n !== CACHE; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

function keep(request, response) {
  // Only a page the user really got: not a redirect to the sign-in page, not an error.
  if (!response || response.status !== 200 || response.redirected || response.type !== "basic") return response;
  var copy = response.clone();
  caches.open(CACHE).then(function (cache) { cache.put(request.url.split("#")[0], copy); });
  return response;
}

function networkFirst(request) {
  return fetch(request).then(function (response) { return keep(request, response); }, function () {
    return caches.match(request.url.split("#")[0], { ignoreSearch: true }).then(function (hit) {
      return hit || new Response("<!doctype html><meta charset=utf-8><title>Offline</title><p>Offline.</p>",
                                 { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
    });
  });
}

function cacheFirst(request) {
  return caches.match(request, { ignoreSearch: true }).then(function (hit) {
    var fresh = fetch(request).then(function (response) { return keep(request, response); });
    if (hit) { fresh.catch(function () {}); return hit; }
    return fresh;
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (CONFIG.assets.indexOf(url.pathname) >= 0) {
    event.respondWith(cacheFirst(request));
  } else if (ENTRY_PAGE.test(url.pathname) && url.pathname.indexOf("/t/") >= 0) {
    event.respondWith(networkFirst(request));
  }
});

/* The page asks to keep itself (its first visit came before this worker controlled it). */
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type !== "keep" || !Array.isArray(data.urls)) return;
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return Promise.all(data.urls.map(function (u) {
      var url = new URL(u, self.location.origin);
      if (url.origin !== self.location.origin || !ENTRY_PAGE.test(url.pathname)) return null;
      return fetch(url.href, { credentials: "same-origin" }).then(function (response) {
        if (response.status === 200 && !response.redirected) return cache.put(url.href, response);
        return null;
      }).catch(function () { return null; });
    }));
  }));
});
