// The service worker: the app's shell (css, js, htmx, icons) is kept for the table's Wi-Fi
// dropping out, and so is the last scoreboard seen of each game, shown offline with when it
// was last updated. Saves are not queued: a round entered offline fails as before.
"use strict";

const SHELL = "scorekeeper-shell-v1";
const BOARDS = "scorekeeper-boards-v1";
const SHELL_FILES = JSON.parse(new URL(self.location).searchParams.get("shell") || "[]");
const SCOREBOARD = /^\/games\/\d+$/;

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

// The scoreboard's HTML with a note that it is what was seen last, and when.
async function offlineBoard(request) {
  const cache = await caches.open(BOARDS);
  const kept = await cache.match(request, { ignoreSearch: true });
  if (!kept) return Response.error();
  const seen = new Date(kept.headers.get("X-Seen-At") || Date.now());
  const time = seen.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  const note = `<p class="flash flash-warning offline-note" role="status">Offline, last updated ${time}.</p>`;
  const html = (await kept.text()).replace('<main id="main">', `<main id="main">${note}`);
  return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (SCOREBOARD.test(url.pathname) && request.mode === "navigate") {
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
