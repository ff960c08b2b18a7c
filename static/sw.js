// The service worker: the app's shell (css, js, htmx, icons) is kept for the table's Wi-Fi
// dropping out, and so are the last scoreboard, the last round forms and the last own-hand page
// seen of each game: the board is shown offline with when it was last updated, a round form or
// a hand so that a reload without signal still has it (the typing comes back from the phone's
// own storage). Saves are not the worker's: static/js/app.js keeps a save made without signal in
// IndexedDB and sends it when the signal returns (a round with its form's one-time token, so the
// server stores it once; a hand's "done" or "went out", which the server takes again without
// harm). POSTs pass through here untouched.
"use strict";

const SHELL = "scorekeeper-shell-v1";
// app.js puts an own-hand page that moved on by itself in here too (its keepPage).
const BOARDS = "scorekeeper-boards-v1";
const SHELL_FILES = JSON.parse(new URL(self.location).searchParams.get("shell") || "[]");
const SCOREBOARD = /^\/games\/\d+$/;
const ROUND_FORM = /^\/games\/\d+\/rounds\/(new|\d+\/edit)$/;
const MY_HAND = /^\/games\/\d+\/hand$/;
// Whose pages BOARDS holds (an opaque tag of the account, or of a link phone's household), kept
// in BOARDS itself under this key.
const KEPT_FOR = "/sw-kept-for";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(SHELL_FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n !== SHELL && n !== BOARDS).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

// A page of someone else's session was opened here (a link followed from a member's session,
// another account signed in): what was kept for the one before is not theirs to see. Signing
// out and following a link also send Clear-Site-Data, which clears it all where the browser
// takes that header; this is for where it does not.
self.addEventListener("message", (event) => {
  const keptFor = event.data && event.data.keptFor;
  if (typeof keptFor !== "string" || !keptFor) return;
  event.waitUntil((async () => {
    const held = await (await caches.open(BOARDS)).match(KEPT_FOR);
    const before = held ? await held.text() : null;
    if (before === keptFor) return;
    if (before !== null) await caches.delete(BOARDS);
    await (await caches.open(BOARDS)).put(KEPT_FOR, new Response(keptFor));
  })());
});

// The words of a note, as the kept page gives them in its own language (templates/base.html's
// data-offline-* attributes, still escaped as HTML: they go back into HTML as they are).
function offlineWords(html, name) {
  const found = html.match(new RegExp(`data-offline-${name}="([^"]*)"`));
  return found ? found[1] : "";
}

// The page's HTML as seen last, with a note saying so (the board: when).
async function offlineBoard(request) {
  const cache = await caches.open(BOARDS);
  const kept = await cache.match(request, { ignoreSearch: true });
  if (!kept) return Response.error();
  const html = await kept.text();
  const seen = new Date(kept.headers.get("X-Seen-At") || Date.now());
  // The time as the page's language writes it, in the phone's own variant of it (es-CL), on the
  // 24-hour clock as every time the app shows ("19:30").
  const language = (html.match(/<html lang="([A-Za-z-]+)"/) || [])[1] || "";
  const own = self.navigator.language || "";
  const locale = own.split("-")[0] === language ? own : language || [];
  const time = seen.toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  let words = offlineWords(html, "round");
  if (SCOREBOARD.test(request)) words = offlineWords(html, "board").replace("{time}", time);
  else if (MY_HAND.test(request)) words = offlineWords(html, "hand");
  // A page kept before its words were given (an older version of the app) goes without a note.
  const note = words ? `<p class="flash flash-warning offline-note" role="status">${words}</p>` : "";
  const page = html.replace('<main id="main">', `<main id="main">${note}`);
  return new Response(page, { headers: { "Content-Type": "text/html; charset=utf-8" } });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const kept = SCOREBOARD.test(url.pathname) || ROUND_FORM.test(url.pathname) || MY_HAND.test(url.pathname);
  if (kept && request.mode === "navigate") {
    // Network first: the board must be live; a copy is kept for when the network is gone.
    event.respondWith(
      fetch(request).then(async (response) => {
        if (response.ok) {
          const headers = new Headers(response.headers);
          headers.set("X-Seen-At", new Date().toISOString());
          const body = await response.clone().text();
          const cache = await caches.open(BOARDS);
          await cache.put(url.pathname, new Response(body, { headers }));
        }
        return response;
      }).catch(() => offlineBoard(url.pathname)),
    );
    return;
  }
  if (SHELL_FILES.includes(url.pathname)) {
    event.respondWith(caches.match(url.pathname).then((kept) => kept || fetch(request)));
  }
});
