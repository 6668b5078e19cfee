// The site's service worker: it keeps every file of the site (wasm/build.sh writes their
// list and a version made from their contents below), so that the page opens and plays with
// no network after its first load. A new build is a new version: its files are fetched
// whole, and the old ones dropped, the next time the page is opened online.
const VERSION = '@VERSION@';
const FILES = [@FILES@];
const CACHE = `bashni-${VERSION}`;

self.addEventListener('install', (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (e) => {
  const old = (k) => k.startsWith('bashni-') && k !== CACHE;
  e.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter(old).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

// The site's own files from the cache (the page's address with its query, `?fen=...`, is
// the page); anything else, and whatever the cache lacks, from the network.
self.addEventListener('fetch', (e) => {
  if (e.request.method !== 'GET' || new URL(e.request.url).origin !== self.location.origin) return;
  e.respondWith(caches.open(CACHE)
    .then((c) => c.match(e.request, { ignoreSearch: true }))
    .then((hit) => hit || fetch(e.request)));
});
