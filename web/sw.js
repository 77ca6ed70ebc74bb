// The installed app's service worker: keeps the page's own files (never the WebSocket, never another
// origin's) so the app opens at once, and opens at all when the server cannot be reached (the page then
// says it is offline). Each file is answered from the cache when it is there and fetched again behind it
// (stale-while-revalidate): a server upgrade shows at the next opening but one. What the page loaded
// before this worker took charge is handed to it by the page (main.js, message `cache`).
const CACHE = "barbu-v1";

self.addEventListener("install", (event) => {
  // The page itself at least, so an offline opening has something to show.
  event.waitUntil(caches.open(CACHE).then((cache) => cache.add("/")).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

/** Whether `request` is for one of the page's own files: a GET of this origin, not a WebSocket's upgrade. */
function ours(request) {
  const url = new URL(request.url);
  return request.method === "GET" && url.origin === self.location.origin && !request.headers.get("Upgrade");
}

/** The page's address without its query: an invite's `?at=NAME` opens the same page. */
function key(request) {
  const url = new URL(request.url);
  return request.mode === "navigate" ? "/" : url.pathname;
}

self.addEventListener("fetch", (event) => {
  if (!ours(event.request)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const kept = await cache.match(key(event.request));
    const fresh = fetch(event.request).then((response) => {
      if (response.ok) cache.put(key(event.request), response.clone());
      return response;
    });
    if (kept) {
      event.waitUntil(fresh.catch(() => {})); // offline: the kept copy is all there is
      return kept;
    }
    return fresh;
  })());
});

self.addEventListener("message", (event) => {
  // The page's list of its own files (from the Resource Timing entries): kept for the next opening.
  if (event.data && Array.isArray(event.data.cache)) {
    event.waitUntil(caches.open(CACHE).then((cache) => Promise.all(
      event.data.cache.filter((path) => typeof path === "string" && path.startsWith("/"))
        .map((path) => cache.match(path).then((hit) => hit || cache.add(path).catch(() => {}))))));
  }
});
