// The HTTP API of `bashni serve` (web/CONTRACT.md): JSON in and out, a refusal's
// `{"error"}` becomes the thrown Error's message.

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
export const deleteGame = (id) => api('DELETE', `/api/games/${id}`);
export const post = (id, action, body) => api('POST', `/api/games/${id}/${action}`, body || {});
export const legalAt = (id, ply) => api('GET', `/api/games/${id}/legal?ply=${ply}`);
export const tablebaseAt = (id, ply) => api('GET', `/api/games/${id}/tablebase?ply=${ply}`);
export const info = () => api('GET', '/api/info');
export const review = (id) => api('GET', `/api/games/${id}/review`);
export const events = (id) => new EventSource(`/api/games/${id}/events`);
