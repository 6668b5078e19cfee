// The game shown, followed live: opened new, joined (a game the server still has: a reload,
// its own address `/<id>`, a second tab, the site's root), or created again from the stored
// game when the server no longer has it. Every tab of a game takes the same states from its
// event stream (moves, clocks, analysis, the review, notes) and places the line the server
// holds in its move tree the same way (tree.js `place`); tabs of one browser also share the
// tree itself through localStorage. A tab whose game is closed, or whose stream is lost, says
// so in #stale and offers to follow it (web/CONTRACT.md).

import * as API from './api.js';
import { TITLES } from './board.js';
import * as T from './tree.js';
import { ui, $, actions, notice } from './state.js';
import * as S from './store.js';
import { applyReview } from './review.js';
import { takeNotes } from './comments.js';
import { afterState } from './dialog.js';
import { playSound } from './sound.js';

// Whether a state may be this tab's own doing (a request of its own on its way): only
// another tab's changes move this tab's board to where they happened.
const busy = () => ui.switching || ui.pending > 0 || ui.analysing;

// Takes a state from the server (a reply or an event), the newest one wins.
export function accept(st) {
  if (ui.st && st.id === ui.st.id && st.version < ui.st.version) return;
  const prev = ui.st;
  const same = prev && prev.id === st.id;
  const grew = !same || st.moves.join() !== prev.moves.join();
  const extended = same && T.isPrefix(prev.moves, st.moves);
  ui.st = st;
  document.body.dataset.game = st.id;
  ui.clockBase = performance.now();
  if (!ui.switching) {
    if (ui.tree) T.place(ui.tree, st.moves, st.main_line !== false);
    if (same && !busy()) followOthers(prev, st, extended);
    if (ui.follow || ui.shown > st.moves.length) ui.shown = st.moves.length;
    // The main line's end, kept while a variation is shown.
    if (ui.tree && ui.tree.cur == null) ui.mainEnd = { line: st.moves.join(), result: st.result };
  } else if (ui.shown > st.moves.length) ui.shown = st.moves.length;
  if (grew) { ui.sel = null; ui.legalAt = null; actions.hideChoice(); }
  if (!st.analysis) { ui.analysis = null; $('analysis-on').checked = false; if (!busy()) ui.threat = false; }
  else {
    // (while the person's "off" is on its way, states still in analysis do not tick it again)
    if (!ui.leavingAnalysis) $('analysis-on').checked = true;
    if (ui.analysis && ui.analysis.ply !== st.analysis.ply) ui.analysis = null;
  }
  S.save();
  actions.render();
  if (!ui.switching) { playSound(prev, st); afterState(prev, st); }
}

// Another tab's change: a line switched or a position analysed there is shown here too (a
// move at the line's end is followed as the engine's are, when this tab shows the end).
function followOthers(prev, st, extended) {
  const a = st.analysis, was = prev.analysis;
  if (a && (!was || was.ply !== a.ply || !!was.threat !== !!a.threat || !extended)) {
    ui.shown = Math.min(a.ply, st.moves.length);
    ui.follow = ui.shown === st.moves.length;
    ui.threat = !!a.threat;
  } else if (!extended) {
    ui.shown = st.moves.length;
    ui.follow = true;
  }
}

// ---------- the event stream ----------

function listen(id) {
  const es = API.events(id);
  ui.es = es;
  const mine = () => ui.es === es && ui.st && ui.st.id === id;
  es.addEventListener('state', (e) => { if (mine()) { stale(null); accept(JSON.parse(e.data)); } });
  es.addEventListener('analysis', (e) => { if (mine()) { ui.analysis = JSON.parse(e.data); actions.render(); } });
  es.addEventListener('review', (e) => { if (mine()) applyReview(JSON.parse(e.data)); });
  // Another tab's comment or glyph.
  es.addEventListener('notes', (e) => { if (mine()) { takeNotes(JSON.parse(e.data)); S.save(); actions.render(); } });
  es.addEventListener('gone', (e) => {
    es.close();
    if (!mine()) return;
    let next = null;
    try { next = JSON.parse(e.data).replaced_by || null; } catch (err) { /* no data */ }
    stale(next ? 'moved' : 'gone', next);
  });
  es.onerror = () => { if (es.readyState === API.CLOSED && mine()) stale('lost'); };
}

function unlisten() {
  if (ui.es) { ui.es.close(); ui.es = null; }
}

// #stale: this tab no longer follows its game. `kind`: 'gone' (closed on the server),
// 'moved' (closed, and game `next` goes on in its place: another tab opened it again),
// 'lost' (the connection to the server), null (live again).
export function stale(kind, next = null) {
  const box = $('stale');
  if (!kind) { ui.stale = null; box.hidden = true; delete box.dataset.kind; return; }
  ui.stale = { kind, next: next || ui.movedTo };
  if (ui.stale.next) ui.stale.kind = 'moved';
  box.dataset.kind = ui.stale.kind;
  $('stale-text').textContent = ui.stale.kind === 'moved'
    ? 'This game goes on in another tab: this one no longer follows it.'
    : ui.stale.kind === 'gone' ? 'This game was closed: this tab no longer follows it.'
      : 'Lost the connection to the server: this tab no longer follows the game.';
  $('stale-follow').textContent = ui.stale.kind === 'moved' ? 'Follow it' : 'Reconnect';
  box.hidden = false;
}

// The button of #stale: the game that goes on, or this one again (joined if the server has
// it, else created again from this tab's tree).
async function followStale() {
  const s = ui.stale;
  if (!s) return;
  const id = s.next || (ui.st && ui.st.id);
  if (!id) return;
  const mine = s.next ? S.loadFor(s.next) : S.loadFor(id) || (ui.st && S.load());
  if (await openGame(id, mine)) stale(null);
}

// Tabs of one browser: another tab stored the game this one shows (its tree, and its
// variations, come here too), or created this tab's closed game again under a new id.
function fromOtherTab(e) {
  if (e.key !== 'bashni-game' || !ui.st || ui.switching) return;
  const s = S.parse(e.newValue);
  if (!s) return;
  if (s.id === ui.st.id && s.variant === ui.st.variant && s.fen === ui.st.start_fen) {
    const tree = S.treeOf(s);
    if (!tree) return;
    T.place(tree, ui.st.moves, ui.st.main_line !== false);
    ui.tree = tree;
    if (Array.isArray(s.tags)) ui.tags = s.tags;
    actions.render();
  } else if (s.from && s.from === ui.st.id) {
    ui.movedTo = s.id;
    if (ui.stale) stale('moved', s.id);
  }
}

// ---------- opening a game ----------

// Settings of this game for a rematch and the stored game: whom the person plays, the level,
// the time.
function settingsOf(st, body = {}) {
  const g = { human: st.human, level: st.level };
  if (body.clock) g.clock = body.clock;
  else if (body.movetime_ms) g.movetime_ms = body.movetime_ms;
  else if (st.time && st.time.kind === 'clock') g.clock = { base_ms: st.time.base_ms, inc_ms: st.time.inc_ms };
  else if (st.time && st.time.kind === 'movetime') g.movetime_ms = st.time.ms;
  return g;
}

// This tab now shows the game of state `st` (with its tags and notes), its tree `tree`;
// `kept`: the stored game it comes from, if any (orientation, review, the position shown).
function show(st, tree, kept, body) {
  unlisten();
  stale(null);
  Object.assign(ui, {
    st: null, analysis: null, sel: null, legalAt: null, follow: true, infoSq: null, review: null,
    learn: null, mainEnd: null, threat: !!(st.analysis && st.analysis.threat), movedTo: null,
    // (created again from a stored game: that game's id, for a tab still showing it)
    from: !kept ? null : kept.id !== st.id ? kept.id || null : kept.from || null,
  });
  $('analysis-on').checked = false;
  ui.game = settingsOf(st, body);
  ui.tree = tree;
  takeNotes(st);
  if (kept) ui.review = S.restoredReview(kept); // until the server's own, if it has one
  ui.flipped = kept && typeof kept.flipped === 'boolean' ? kept.flipped : st.human === 'black';
  T.place(ui.tree, st.moves, st.main_line !== false);
  ui.shown = st.moves.length;
  if (st.analysis) ui.shown = Math.min(st.analysis.ply, st.moves.length);
  ui.follow = ui.shown === st.moves.length;
  accept(st);
  listen(st.id);
  // The address bar names the game, as lichess does: a reload or a second tab opens it.
  history.replaceState(null, '', API.gameAddress(st.id));
}

// A new game: created first, and only once the server has accepted it does it replace the
// game shown (a bad FEN, PDN or variant leaves the current game exactly as it was). The game
// it replaces is left, not closed: another tab may be following it (the server closes a game
// no tab shows). `loaded` names what was opened ('FEN', 'PDN', 'link'); `kept` restores a
// stored game. The answer's `variations` (of a PDN, or of a tree sent as one) become the tree's.
export async function newGame(body, loaded, kept) {
  let st;
  try {
    st = await API.createGame(body);
  } catch (e) {
    notice((loaded ? `Could not open this ${loaded}: ` : '') + e.message);
    actions.render();
    return false;
  }
  show(st, T.withVariations(T.newTree(st.moves), st.variations || []), kept, body);
  const n = st.moves.length, k = ui.tree.vars.length;
  const vars = k ? `, ${k} variation${k === 1 ? '' : 's'}` : '';
  notice(loaded ? `Loaded ${TITLES[st.variant]} from ${loaded}: ${n} ${n === 1 ? 'ply' : 'plies'}${vars}, ${st.status}` : '', 'info');
  return true;
}

// Game `id`: joined if the server has it (this tab then follows it with every other tab of
// it), else created again from `kept` (the stored game), its clocks going on (`resume`).
// False when neither works (the reason in #notice).
export async function openGame(id, kept) {
  let st = null;
  try { if (id) st = await API.state(id); } catch (e) { /* closed, or never here: created again */ }
  if (st) {
    const same = kept && kept.id === st.id && kept.variant === st.variant && kept.fen === st.start_fen;
    show(st, (same && S.treeOf(kept)) || T.newTree(st.moves), same ? kept : null);
    notice('');
    return true;
  }
  if (!kept || !kept.variant) {
    notice(`The game ${id} is no longer open.`);
    return false;
  }
  let ok = await newGame(S.recreate(kept), undefined, kept);
  if (!ok && S.storedLines(kept).length) {
    // A variation the server refuses costs the variations, not the game.
    const why = $('notice').textContent;
    ok = await newGame(S.recreate({ ...kept, vars: [] }), undefined, kept);
    if (ok) notice('The stored variations could not be restored: ' + why);
  }
  if (!ok) notice('The stored game could not be restored: ' + $('notice').textContent);
  else if (kept.analysis) restoreAnalysis(kept);
  return ok;
}

// Analysis (and threat) mode on again, at the position the stored game showed when it is on
// the main line the server now holds.
function restoreAnalysis(kept) {
  const st = ui.st;
  const at = Number.isInteger(kept.shown) && Array.isArray(kept.line) && T.isPrefix(kept.line.slice(0, kept.shown), st.moves)
    ? Math.min(kept.shown, st.moves.length) : st.moves.length;
  ui.shown = at;
  ui.follow = at === st.moves.length;
  ui.threat = kept.analysis === 'threat';
  $('analysis-on').checked = true;
  actions.analyse(true);
}

export function wireLive() {
  $('stale-follow').onclick = followStale;
  window.addEventListener('storage', fromOtherTab);
  // Leaving the page keeps the game: the server closes it once no tab has shown it for a
  // few seconds (a reload takes it up again before that).
  window.addEventListener('pagehide', () => { S.save(); unlisten(); });
}
