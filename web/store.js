// The game kept in localStorage: `bashni-game` the last one a tab showed (the site's root
// opens it), `bashni-games` the last few by id (a game's own address finds its tree there).
// A tab joins a game the server still has (every tab of it follows it live); one the server
// no longer has is created again from here with its whole move tree. Also the link that
// carries a game, and the dialog's last settings (`bashni-settings`).

import { ui, $ } from './state.js';
import { TITLES } from './board.js';
import * as T from './tree.js';
import { storedNotes } from './comments.js';

// The ends the rules cannot find again from the moves: kept with the stored game.
const DECIDED = ['resignation', 'time forfeit', 'draw agreement'];

const STORE = 'bashni-game';
const BY_ID = 'bashni-games';
// Games kept by id.
const KEPT = 8;

function stored() {
  const st = ui.st;
  if (!st || !ui.tree) return null;
  return {
    variant: st.variant, fen: st.start_fen, moves: ui.tree.main,
    // Whole lines, in the tree's order (a variation after the one it hangs from).
    vars: ui.tree.vars.map((v) => ({ moves: v.moves })),
    end: decidedEnd(),
    notes: storedNotes(ui.tree), tags: ui.tags,
    ...ui.game, flipped: ui.flipped,
    // The server game's id: the game opened again after a reload names it (`resume`), so
    // that the server goes on with its clocks instead of refilling them.
    id: st.id,
    review: ui.review || undefined,
    // Analysis mode, and threat mode within it, and the position shown (on the line held):
    // a reload turns them on again there.
    analysis: st.analysis ? (ui.threat ? 'threat' : 'on') : undefined,
    shown: ui.shown, line: st.moves,
    // The game this one was created again from (a tab still showing that one follows).
    from: ui.from || undefined,
  };
}

// A stored game's review, shown again without a new one: run 0, so that the first report of
// a review started now replaces it; the page checks each entry against the main line.
export function restoredReview(s) {
  const r = s && s.review;
  if (!r || !Array.isArray(r.moves) || !r.summary || !r.summary.white || !r.summary.black) return null;
  return { ...r, run: 0, running: false, done: r.moves.length, total: Math.max(r.total | 0, r.moves.length) };
}

// The main line's resignation or loss on time, if it ended so.
function decidedEnd() {
  const e = ui.mainEnd;
  if (!e || !e.result || e.line !== ui.tree.main.join() || !DECIDED.includes(e.result.reason)) return undefined;
  return { result: e.result.result, reason: e.result.reason };
}

export function save() {
  const s = stored();
  if (!s || ui.switching) return;
  try {
    const text = JSON.stringify(s);
    // (unchanged: no write, so that the other tabs of the game hear of changes only)
    if (localStorage.getItem(STORE) !== text) localStorage.setItem(STORE, text);
    const all = byId();
    all[s.id] = { ...s, at: Date.now() };
    const ids = Object.keys(all).sort((a, b) => all[b].at - all[a].at);
    for (const id of ids.slice(KEPT)) delete all[id];
    localStorage.setItem(BY_ID, JSON.stringify(all));
  } catch (e) { /* private mode, or full */ }
}

function byId() {
  try {
    const all = JSON.parse(localStorage.getItem(BY_ID) || '{}');
    return all && typeof all === 'object' && !Array.isArray(all) ? all : {};
  } catch (e) { return {}; }
}

// The last game a tab showed.
export function load() {
  try { return JSON.parse(localStorage.getItem(STORE) || 'null'); } catch (e) { return null; }
}

// The game kept for id `id`, or null.
export function loadFor(id) {
  const last = load();
  if (last && last.id === id) return last;
  const s = byId()[id];
  return s && typeof s === 'object' ? s : null;
}

// A stored game (text of `bashni-game` as a storage event gives it), or null.
export function parse(text) {
  try { const s = JSON.parse(text || 'null'); return s && typeof s === 'object' ? s : null; } catch (e) { return null; }
}

// The move tree of a stored game (null when it has none).
export function treeOf(s) {
  if (!s || !Array.isArray(s.moves)) return null;
  return T.withVariations(T.newTree(s.moves.map(String)), storedLines(s));
}

// The variations of a stored game, as whole lines.
export function storedLines(s) {
  return Array.isArray(s && s.vars) ? s.vars.filter((v) => v && Array.isArray(v.moves)).map((v) => v.moves) : [];
}

// The start of a game with its variations: the server checks every line and answers with
// them (`variations`), as for a PDN's.
export function startOf(fen, main, lines) {
  const body = { moves: main, variations: lines };
  if (fen) body.fen = fen;
  return body;
}

// A stored game that ended by resignation or on time, as a PDN that records that end (the
// server reads its Termination tag), with its variations.
function pdnOf(s) {
  const tree = T.withVariations(T.newTree(s.moves || []), storedLines(s));
  const quote = (v) => String(v).replaceAll('\\', '\\\\').replaceAll('"', '\\"');
  const own = ['Result', 'Termination', 'FEN'];
  const tags = [...(Array.isArray(s.tags) ? s.tags.filter((t) => !own.includes(t[0])) : []),
    ['Result', s.end.result], ['Termination', s.end.reason]];
  if (s.fen) tags.push(['FEN', s.fen]);
  const head = tags.map(([k, v]) => `[${k} "${quote(v)}"]`).join('\n');
  // The stored notes are the page's now: the PDN's comments and glyphs bring them back.
  const notes = new Map(notesOf(s).map((n) => [n.moves.join(' '), n.glyph + (n.comment ? ' {' + n.comment + '}' : '')]));
  const note = (moves) => notes.get(moves.join(' ')) || '';
  return { pdn: head + '\n\n' + T.movetext(tree, s.fen || '', s.end.result, (m) => m, note) + '\n' };
}

// A stored game's notes on the lines it keeps (a variation left out takes its notes along).
function notesOf(s) {
  const lines = [s.moves || [], ...storedLines(s)];
  return (Array.isArray(s.notes) ? s.notes : []).filter((n) => n && Array.isArray(n.moves)
    && lines.some((l) => T.isPrefix(n.moves, l)));
}

// The request that recreates a stored game on the server.
export function recreate(s) {
  const ended = s.end && DECIDED.includes(s.end.reason) && /^(1-0|0-1|1\/2-1\/2)$/.test(s.end.result);
  const start = ended ? pdnOf(s) : startOf(s.fen, s.moves || [], storedLines(s));
  if (!ended) { start.notes = notesOf(s); if (Array.isArray(s.tags)) start.tags = s.tags; }
  const body = { variant: s.variant, ...start, human: s.human, level: s.level };
  if (s.clock) body.clock = s.clock;
  else if (s.movetime_ms) body.movetime_ms = s.movetime_ms;
  if (s.clock && typeof s.id === 'string') body.resume = s.id;
  return body;
}

// A link that carries the whole game: its main line, and its variations (`vars`: each a
// whole line, moves joined by `,`, lines by `;`).
export function gameLink() {
  const st = ui.st;
  const q = new URLSearchParams({ variant: st.variant, fen: st.start_fen });
  if (ui.tree.main.length) q.set('moves', ui.tree.main.join(','));
  if (ui.tree.vars.length) q.set('vars', ui.tree.vars.map((v) => v.moves.join(',')).join(';'));
  return './?' + q.toString();
}

// The lines of a link's `vars`.
export function linkLines(text) {
  return (text || '').split(';').map((l) => l.split(',').map((m) => m.trim()).filter(Boolean)).filter((l) => l.length);
}

export function saveSettings(body) {
  try { localStorage.setItem('bashni-settings', JSON.stringify(body)); } catch (e) { /* private mode */ }
}

// The dialog's last settings, put back into the dialog.
export function restoreSettings() {
  try {
    const s = JSON.parse(localStorage.getItem('bashni-settings') || 'null');
    if (!s) return null;
    const form = $('new-form');
    form.human.value = s.human || 'white';
    if (TITLES[s.variant]) $('variant').value = s.variant;
    $('level').value = s.level ?? 5;
    if (s.clock) { form.tmode.value = 'clock'; $('clock-min').value = s.clock.base_ms / 60000; $('clock-inc').value = s.clock.inc_ms / 1000; }
    else if (s.movetime_ms) { form.tmode.value = 'move'; $('movetime').value = s.movetime_ms / 1000; }
    return s;
  } catch (e) { return null; }
}
