/* Live regions: keep every `.live[data-live-kind][data-live-pk]` of the page up to date.
 *
 * With push (`<body data-live-push="1">`) each region listens on a WebSocket
 * (/ws/live/<kind>/<pk>/?lang=<body data-lang>) and swaps in the HTML the server sends after every
 * change. When the socket drops, the region polls while it reconnects (backoff 1 s to 10 s), and it
 * fetches itself once on every (re)connection to catch up on what it missed.
 * Without push the region polls /live/<kind>/<pk>/ every 1.5 s with If-None-Match: a 304 costs
 * nothing, a 200 is swapped in. Polling pauses while the page is hidden.
 * A region's URLs can be overridden with data-live-url (HTTP) and data-live-ws (WebSocket). A region with
 * data-live-every="<seconds>" never opens a socket: it fetches itself at once, then polls that often (a round's
 * clock on a match page: a slow poll, not a socket that hears every hand of the tournament).
 * Every answer's Date header is announced to the page (a "live:servertime" event on the document, detail: the
 * server's time in milliseconds), so a clock counts down in the server's time, not the device's.
 * An element with [data-live-status] gets the class live-on, live-poll or live-off; each region gets
 * data-live-state="push", "poll" or "off", and data-live-synced once a fetch of its own has been answered
 * (200 or 304: it has caught up with the server at least once since the page loaded).
 */
(function () {
  "use strict";

  var POLL_MS = 1500;
  var BACKOFF_MIN_MS = 1000;
  var BACKOFF_MAX_MS = 10000;
  var CLOSE_NOT_FOUND = 4404;

  var body = document.body;
  var push = body.getAttribute("data-live-push") === "1" && "WebSocket" in window;
  var lang = body.getAttribute("data-lang") || document.documentElement.lang || "";
  var regions = [];

  /* The server's time of an answer, from its Date header (whole seconds: the middle of that second). */
  function serverTime(response) {
    var date = Date.parse(response.headers.get("Date") || "");
    if (!isNaN(date)) {
      document.dispatchEvent(new CustomEvent("live:servertime", { detail: date + 500 }));
    }
  }

  function status() {
    regions.forEach(function (r) {
      r.el.setAttribute("data-live-state", r.gone ? "off" : r.socketOpen ? "push" : "poll");
    });
    var el = document.querySelector("[data-live-status]");
    if (!el) return;
    var on = regions.length && regions.every(function (r) { return r.socketOpen; });
    var off = regions.length && regions.every(function (r) { return r.gone; });
    var state = off ? "live-off" : on ? "live-on" : regions.length ? "live-poll" : "live-off";
    el.classList.remove("live-on", "live-poll", "live-off");
    el.classList.add(state);
  }

  /* The horizontal scroll of each scrolling table in the region, in order: a reader who scrolled the
   * standings to the tiebreaks on a phone stays there when an update replaces the table. */
  function scrolls(el) {
    return Array.prototype.map.call(el.querySelectorAll(".table-scroll"), function (s) { return s.scrollLeft; });
  }

  function swap(region, html, etag) {
    var el = region.el;
    if (etag && etag === el.getAttribute("data-live-etag")) return;
    var kept = scrolls(el);
    el.setAttribute("aria-busy", "true");
    el.innerHTML = html;
    el.querySelectorAll(".table-scroll").forEach(function (s, i) { if (kept[i]) s.scrollLeft = kept[i]; });
    if (etag) el.setAttribute("data-live-etag", etag);
    el.removeAttribute("aria-busy");
    el.dispatchEvent(new CustomEvent("live:updated", { bubbles: true }));
  }

  function Region(el) {
    this.el = el;
    this.every = parseInt(el.getAttribute("data-live-every"), 10) * 1000 || 0;
    this.kind = el.getAttribute("data-live-kind");
    this.pk = el.getAttribute("data-live-pk");
    this.url = el.getAttribute("data-live-url") || "/live/" + this.kind + "/" + this.pk + "/";
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    this.wsUrl = el.getAttribute("data-live-ws") ||
      scheme + location.host + "/ws/live/" + this.kind + "/" + this.pk + "/?lang=" + encodeURIComponent(lang);
    this.socket = null;
    this.socketOpen = false;
    this.gone = false;         // the server says the region no longer exists (404 / close 4404)
    this.backoff = BACKOFF_MIN_MS;
    this.pollTimer = null;
    this.fetching = null;
  }

  /* One conditional GET; swaps on 200, ignores 304 and errors. */
  Region.prototype.fetch = function () {
    var self = this;
    if (self.fetching || self.gone) return self.fetching;
    var headers = { "X-Requested-With": "live" };
    var etag = self.el.getAttribute("data-live-etag");
    if (etag) headers["If-None-Match"] = etag;
    self.fetching = fetch(self.url, { headers: headers, credentials: "same-origin", cache: "no-cache" })
      .then(function (response) {
        serverTime(response);
        if (response.status === 404) { self.stop(); return; }
        if (response.status !== 200) return;
        return response.text().then(function (html) { swap(self, html, response.headers.get("ETag")); });
      })
      .then(function () { self.el.setAttribute("data-live-synced", ""); })
      .catch(function () { /* offline for a moment: the next poll tries again */ })
      .then(function () { self.fetching = null; });
    return self.fetching;
  };

  Region.prototype.poll = function () {
    var self = this;
    if (self.pollTimer || self.gone) return;
    self.pollTimer = setInterval(function () {
      if (!document.hidden && !self.socketOpen) self.fetch();
    }, self.every || POLL_MS);
  };

  Region.prototype.stopPolling = function () {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = null;
  };

  Region.prototype.stop = function () {
    this.gone = true;
    this.stopPolling();
    if (this.socket) { try { this.socket.close(); } catch (e) { /* closed already */ } }
    status();
  };

  Region.prototype.connect = function () {
    var self = this;
    if (self.gone) return;
    var socket;
    try {
      socket = new WebSocket(self.wsUrl);
    } catch (e) {
      self.poll();
      return;
    }
    self.socket = socket;
    socket.onopen = function () {
      self.socketOpen = true;
      self.backoff = BACKOFF_MIN_MS;
      self.stopPolling();
      self.fetch();  // catch up on what happened while the socket was away
      status();
    };
    socket.onmessage = function (event) {
      var data;
      try { data = JSON.parse(event.data); } catch (e) { return; }
      if (data && typeof data.html === "string") swap(self, data.html, data.etag);
    };
    socket.onclose = function (event) {
      self.socket = null;
      self.socketOpen = false;
      if (event.code === CLOSE_NOT_FOUND) { self.stop(); return; }
      self.poll();
      status();
      var wait = self.backoff;
      self.backoff = Math.min(self.backoff * 2, BACKOFF_MAX_MS);
      setTimeout(function () { self.connect(); }, wait);
    };
  };

  Region.prototype.start = function () {
    if (this.every) {
      this.fetch();
      this.poll();
    } else if (push) this.connect();
    else this.poll();
  };

  function start() {
    var els = document.querySelectorAll(".live[data-live-kind][data-live-pk]");
    for (var i = 0; i < els.length; i++) regions.push(new Region(els[i]));
    regions.forEach(function (r) { r.start(); });
    status();
    document.addEventListener("visibilitychange", function () {
      // Back on the page: catch up at once rather than at the next tick.
      if (!document.hidden) regions.forEach(function (r) { if (!r.socketOpen) r.fetch(); });
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
