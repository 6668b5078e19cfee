// The page's own settings, kept in localStorage (`bashni-page`) through a reload: the number
// of engine lines in analysis (`#multipv`) and the move sounds (`#sound-on`, off by default).
// The new-game dialog's settings are store.js's (`bashni-settings`), the game itself too.

import { $ } from './state.js';

const KEY = 'bashni-page';
const FIELDS = { multipv: 'value', 'sound-on': 'checked' };

function read() {
  try { return JSON.parse(localStorage.getItem(KEY) || '{}') || {}; } catch (e) { return {}; }
}

function write() {
  const out = {};
  for (const [id, prop] of Object.entries(FIELDS)) out[id] = $(id)[prop];
  try { localStorage.setItem(KEY, JSON.stringify(out)); } catch (e) { /* private mode */ }
}

// Puts the kept settings back (before the first game is shown), and keeps every change.
export function restorePageSettings() {
  const kept = read();
  for (const [id, prop] of Object.entries(FIELDS)) {
    const el = $(id);
    if (kept[id] === undefined) continue;
    if (prop === 'checked') el.checked = kept[id] === true;
    else if ([...el.options].some((o) => o.value === String(kept[id]))) el.value = String(kept[id]);
  }
  for (const id of Object.keys(FIELDS)) $(id).addEventListener('change', write);
}
