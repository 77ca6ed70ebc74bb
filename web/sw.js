// The installed app's service worker: keeps the page's own files (never the WebSocket, never another
// origin's) so the app opens at once, and opens at all when the server cannot be reached (the page then
// says it is offline). Files are kept by their whole URL, version query and all (`/js/main.js?v=HASH`, when
// the server versions them). Each is answered from the cache when it is there and fetched again behind it;
// the page itself ("/") is kept only once every file it names is kept too, so the page and its files stay
// one consistent set: a server upgrade shows at the opening after the next one. What the page loaded before
// this worker took charge is handed to it by the page (main.js, message `cache`).
const CACHE = "barbu-v1";
/** The files a page names (`src="/…"`, `href="/…"`: style sheets, its script, module preloads, icons). */
const NAMED = /\s(?:src|href)="(\/[^"]*)"/g;

self.addEventListener("install", (event) => {
  event.waitUntil(fetch("/").then((page) => page.ok && caches.open(CACHE).then((cache) => keepPage(cache, page)))
    .catch(() => {}).then(() => self.skipWaiting()));
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

/** The cache's key of `request`: "/" for the page (an invite's `?at=NAME` opens the same page), else the
 *  file's path and query. */
function key(request) {
  const url = new URL(request.url);
  return request.mode === "navigate" ? "/" : url.pathname + url.search;
}

/** Keep `paths` (those not kept yet); a file the server does not answer is left out. */
function keepAll(cache, paths) {
  return Promise.all(paths.map((path) => cache.match(path).then((hit) => hit || cache.add(path).catch(() => {}))));
}

/**
 * Keep the page `response` as "/", after every file it names; then let go of kept versions of files it no
 * longer names (`?v=` of an earlier server).
 */
async function keepPage(cache, response) {
  const named = [...(await response.clone().text()).matchAll(NAMED)].map((found) => found[1]);
  await keepAll(cache, named);
  await cache.put("/", response);
  const current = new Set(named);
  for (const old of await cache.keys()) {
    const url = new URL(old.url);
    if (url.searchParams.has("v") && !current.has(url.pathname + url.search)) await cache.delete(old);
  }
}

self.addEventListener("fetch", (event) => {
  if (!ours(event.request)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const at = key(event.request);
    const kept = await cache.match(at);
    const fresh = fetch(event.request).then((response) => {
      if (response.ok) {
        const copy = response.clone();
        event.waitUntil(at === "/" ? keepPage(cache, copy) : cache.put(at, copy));
      }
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
    const paths = event.data.cache.filter((path) => typeof path === "string" && path.startsWith("/") && path !== "/");
    event.waitUntil(caches.open(CACHE).then((cache) => keepAll(cache, paths)));
  }
});
