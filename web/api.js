// The HTTP API of `bashni serve` (web/CONTRACT.md): JSON in and out, a refusal's
// `{"error"}` becomes the thrown Error's message. Every request the page makes is here, and
// the addresses of games: the page's other modules assume no server beyond these calls.

export async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers['Content-Type'] = 'application/json'; }
  const r = await fetch(path, opts);
  let data = null;
  try { data = await r.json(); } catch (e) { data = { error: `HTTP ${r.status}` }; }
  if (!r.ok) throw new Error(data && data.error ? data.error : `HTTP ${r.status}`);
  return data;
}

export const createGame = (body) => api('POST', '/api/games', body);
export const state = (id) => api('GET', `/api/games/${id}`);
export const post = (id, action, body) => api('POST', `/api/games/${id}/${action}`, body || {});
export const legalAt = (id, ply) => api('GET', `/api/games/${id}/legal?ply=${ply}`);
export const tablebaseAt = (id, ply) => api('GET', `/api/games/${id}/tablebase?ply=${ply}`);
export const info = () => api('GET', '/api/info');
export const review = (id) => api('GET', `/api/games/${id}/review`);
// The game's events (`state`, `analysis`, `review`, `notes`, `gone`), as an EventSource;
// CLOSED is its readyState once it has given up.
export const events = (id) => new EventSource(`/api/games/${id}/events`);
export const CLOSED = EventSource.CLOSED;

// The game's PDN (its main line, with its tags and notes): a link to download, and its text.
export const pdnHref = (id) => `/api/games/${id}/pdn`;
export async function pdnText(id) {
  const r = await fetch(pdnHref(id));
  if (!r.ok) throw new Error(`HTTP ${r.status}`);
  return r.text();
}

// A game's own address (`/<id>`, served as the page), and the game an address names.
export const gameAddress = (id) => '/' + id;
export function addressedGame(loc) {
  const m = /^\/([0-9a-f]{16})$/.exec(loc.pathname);
  return m ? m[1] : null;
}
