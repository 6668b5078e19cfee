// The game API of `bashni serve` (web/CONTRACT.md), with two back ends behind one page:
// served by `bashni serve` it is HTTP (JSON in and out, Server-Sent Events); served by any
// static host (the site `wasm/build.sh DIR` writes: no /api there) it is the same server
// code compiled into bashni.wasm, running in a Web Worker (bashni-serve.js), its answers and
// events messages. The static site says so in its index.html, and boot.js has started the
// worker before this module loads; elsewhere the first call (`info`, which the page makes
// first) finds which: an answer of /api/info is the server's. Either way a refusal's `{"error"}` becomes the thrown Error's
// message, and `events` gives an EventSource (or an object that acts as one). Every request
// the page makes is here, and the addresses of games: the page's other modules assume no
// server beyond these calls.

let backend = null; // a promise of { back, info }: the back end and the first answer of /api/info
let picked = null;  // the back end, once known

// ---------- the server: HTTP and Server-Sent Events ----------

async function fetchCall(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers['Content-Type'] = 'application/json'; }
  const r = await fetch(path, opts);
  if (!r.ok || !(r.headers.get('Content-Type') || '').startsWith('application/json')) {
    let data = null;
    try { data = await r.json(); } catch (e) { data = null; }
    return { status: r.ok ? 502 : r.status, data };
  }
  return { status: r.status, data: await r.json() };
}

const server = {
  call: fetchCall,
  events: (id) => new EventSource(`/api/games/${id}/events`),
  pdnHref: (id) => `/api/games/${id}/pdn`,
  async pdnText(id) {
    const r = await fetch(`/api/games/${id}/pdn`);
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    return r.text();
  },
};

// ---------- the page's own back end: bashni.wasm in a Web Worker ----------

// What the back end in the browser keeps over a reload: the clocks of its clock games, so
// that a game opened again with `resume` goes on with them (the server keeps them itself).
const CLOCKS_KEY = 'bashni-site-clocks';
const CLOCKS_FOR_MS = 24 * 3600 * 1000;

// Largest request body, as the server's (413 beyond).
const MAX_BODY_BYTES = 256 * 1024;

// An EventSource-like stream of one game's events, fed by the worker's messages.
class WorkerEvents extends EventTarget {
  constructor(close) { super(); this.readyState = 0; this.onerror = null; this.closeStream = close; }
  deliver(event, data) {
    this.readyState = 1;
    this.dispatchEvent(new MessageEvent(event, { data: JSON.stringify(data) }));
  }
  fail() {
    this.readyState = 2;
    const e = new Event('error');
    this.dispatchEvent(e);
    if (this.onerror) this.onerror(e);
  }
  close() { if (this.readyState !== 2) { this.readyState = 2; this.closeStream(); } }
}

function readClocks() {
  try { return JSON.parse(localStorage.getItem(CLOCKS_KEY)) || {}; } catch (e) { return {}; }
}

// The worker's `keep`: this page's clock games, replacing what this page kept before (other
// tabs keep their own games in the same place).
function keepClocks(mine, kept) {
  const all = readClocks();
  for (const id of mine) delete all[id];
  const now = Date.now();
  for (const [id, c] of Object.entries(all)) if (!(now - c.unix_ms < CLOCKS_FOR_MS)) delete all[id];
  Object.assign(all, kept);
  try { localStorage.setItem(CLOCKS_KEY, JSON.stringify(all)); } catch (e) { /* storage full or off */ }
  return Object.keys(kept);
}

// `worker`: the one boot.js started, if it did.
function inPage(worker = new Worker(new URL('bashni-serve.js', document.baseURI))) {
  let first = true;
  const pending = new Map(); // request number -> resolve
  const streams = new Map(); // request number -> WorkerEvents
  let next = 1;
  let mine = [];
  const send = (m) => worker.postMessage(JSON.stringify(m));
  worker.onmessage = (e) => {
    const m = JSON.parse(e.data);
    // The site's files are kept for offline use once the module answers (not before: the
    // service worker's downloads would compete with the module's).
    if (first) { first = false; keepOffline(); }
    if (m.keep) { mine = keepClocks(mine, m.keep); return; }
    if (m.crash) {
      // A bug ended the module: its games are gone, as a stopped server's are.
      for (const [, es] of streams) { es.deliver('gone', {}); es.fail(); }
      streams.clear();
      for (const [, resolve] of pending) resolve({ status: 500, data: { error: m.crash } });
      pending.clear();
      return;
    }
    if (m.stream !== undefined) {
      const es = streams.get(m.stream);
      if (es) es.deliver(m.event, m.data);
      return;
    }
    const resolve = pending.get(m.id);
    pending.delete(m.id);
    if (resolve) resolve({ status: m.status, data: m.body, text: m.text });
  };
  send({ restore: readClocks() });
  const ask = (method, path, body) => new Promise((resolve) => {
    const id = next++;
    const text = body === undefined ? '' : JSON.stringify(body);
    if (text.length > MAX_BODY_BYTES) { resolve({ status: 413, data: { error: `request body over ${MAX_BODY_BYTES} bytes` } }); return; }
    pending.set(id, resolve);
    send({ id, method, path, body: text });
  });
  return {
    call: ask,
    events(gameId) {
      const id = next++;
      const es = new WorkerEvents(() => { streams.delete(id); send({ close: id }); });
      streams.set(id, es);
      pending.set(id, (r) => { if (r.status !== 200) { streams.delete(id); es.fail(); } });
      send({ id, method: 'GET', path: `/api/games/${gameId}/events` });
      return es;
    },
    pdnHref: () => null,
    async pdnText(gameId) {
      const r = await ask('GET', `/api/games/${gameId}/pdn`);
      if (r.status !== 200) throw new Error(r.data && r.data.error ? r.data.error : `HTTP ${r.status}`);
      return r.text;
    },
  };
}

// Offline after the first load: a service worker keeps the site's files (sw.js, beside the
// page on a static host; `bashni serve` has none and needs none).
function keepOffline() {
  if ('serviceWorker' in navigator) navigator.serviceWorker.register(new URL('sw.js', document.baseURI)).catch(() => {});
}

// ---------- which back end ----------

async function pick() {
  if (self.bashniBoot) { picked = inPage(self.bashniBoot); return { back: picked, info: null }; }
  try {
    const r = await fetchCall('GET', '/api/info');
    if (r.status === 200) { picked = server; return { back: server, info: r.data }; }
  } catch (e) { /* no server: a static host */ }
  picked = inPage();
  return { back: picked, info: null };
}

async function back() {
  if (!backend) backend = pick();
  return (await backend).back;
}

// Whether the page runs on its own back end in the browser (no server).
export async function inBrowser() { return (await back()) !== server; }

export async function api(method, path, body) {
  const b = await back();
  const r = await b.call(method, path, body);
  const ok = r.status >= 200 && r.status < 300;
  if (!ok) throw new Error(r.data && r.data.error ? r.data.error : `HTTP ${r.status}`);
  return r.data;
}

export const createGame = (body) => api('POST', '/api/games', body);
export const state = (id) => api('GET', `/api/games/${id}`);
export const post = (id, action, body) => api('POST', `/api/games/${id}/${action}`, body || {});
export const legalAt = (id, ply) => api('GET', `/api/games/${id}/legal?ply=${ply}`);
export const tablebaseAt = (id, ply) => api('GET', `/api/games/${id}/tablebase?ply=${ply}`);
export async function info() {
  if (!backend) backend = pick();
  const first = await backend;
  if (first.info) { const i = first.info; first.info = null; return i; }
  return api('GET', '/api/info');
}
export const review = (id) => api('GET', `/api/games/${id}/review`);

// The game's events (`state`, `analysis`, `review`, `notes`, `gone`), as an EventSource or
// one that acts as one (its readyState is CLOSED once it has given up). The back end is known
// by then: the page asks for `info` first.
export const events = (id) => (picked || server).events(id);
export const CLOSED = 2;

// The game's PDN (its main line, with its tags and notes): `a` becomes a link that
// downloads it, and its text.
export async function pdnText(id) { return (await back()).pdnText(id); }
export function pdnLink(a, id) {
  const href = id && (picked || server).pdnHref(id);
  a.href = href || '#';
  a.onclick = href || !id ? null : async (e) => {
    e.preventDefault();
    const text = await pdnText(id);
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'application/x-pdn' }));
    link.download = `bashni-${id}.pdn`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  };
}

// A game's own address, and the game an address names. The server serves the page at
// `/<id>`; a static host serves only its files, so there the game is named after `#` (the
// page's own path stays).
export const gameAddress = (id) => ((picked || server) === server ? '/' + id : location.pathname + '#' + id);
export function addressedGame(loc) {
  const m = /^\/([0-9a-f]{16})$/.exec(loc.pathname) || /^#([0-9a-f]{16})$/.exec(loc.hash);
  return m ? m[1] : null;
}
