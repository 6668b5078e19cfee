// The page's own settings, kept in localStorage (`bashni-page`) through a reload: the number
// of engine lines in analysis (`#multipv`), the move sounds (`#sound-on`, off by default) and
// the preferences of #prefs-dialog: the board's colours (`#pref-board`), the pieces'
// (`#pref-pieces`; each has a high-contrast theme), the coordinates (`#pref-coords`) and the
// sounds' volume (`#pref-volume`, 0 to 100). The board shows them as `data-board-theme`,
// `data-piece-theme` and `data-coords` (style.css draws each theme). The new-game dialog's
// settings are store.js's (`bashni-settings`), the game itself too.

import { $ } from './state.js';

const KEY = 'bashni-page';
const FIELDS = {
  multipv: 'value', 'sound-on': 'checked',
  'pref-board': 'value', 'pref-pieces': 'value', 'pref-coords': 'checked', 'pref-volume': 'value',
};

function read() {
  try { return JSON.parse(localStorage.getItem(KEY) || '{}') || {}; } catch (e) { return {}; }
}

function write() {
  const out = {};
  for (const [id, prop] of Object.entries(FIELDS)) out[id] = $(id)[prop];
  try { localStorage.setItem(KEY, JSON.stringify(out)); } catch (e) { /* private mode */ }
}

// The preferences on the board (its attributes; style.css does the rest).
function apply() {
  const board = $('board');
  board.dataset.boardTheme = $('pref-board').value;
  board.dataset.pieceTheme = $('pref-pieces').value;
  board.dataset.coords = $('pref-coords').checked ? 'on' : 'off';
}

// A kept value back in its field: a select's only if it is one of its options, a range's
// within its bounds (anything else kept is ignored).
function restore(el, prop, value) {
  if (prop === 'checked') el.checked = value === true;
  else if (el.tagName === 'SELECT') { if ([...el.options].some((o) => o.value === String(value))) el.value = String(value); }
  else if (Number.isFinite(+value)) el.value = String(Math.max(+el.min, Math.min(+el.max, +value)));
}

// Puts the kept settings back (before the first game is shown), and keeps every change.
export function restorePageSettings() {
  const kept = read();
  for (const [id, prop] of Object.entries(FIELDS)) {
    if (kept[id] !== undefined) restore($(id), prop, kept[id]);
  }
  apply();
  for (const id of Object.keys(FIELDS)) {
    $(id).addEventListener('change', () => { apply(); write(); });
    $(id).addEventListener('input', apply);
  }
  $('btn-prefs').onclick = () => $('prefs-dialog').showModal();
  $('prefs-close').onclick = () => $('prefs-dialog').close();
}
