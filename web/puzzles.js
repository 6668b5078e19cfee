// The puzzle mode (puzzles.html, at /puzzles on `bashni serve`): the shipped puzzles of each
// game (puzzles/<game>.csv, docs/puzzles.md), as lichess sets its own. The board is shown
// from the solver's side, the opponent's last move is played on it, and the person moves (a
// click or a drag, as on the game page: drag.js); a right move is answered with the
// opponent's reply, a wrong one is said so, and the person may retry or see the solution.
// Each puzzle comes from the back end (api.js: the server, or the same code in the page on a
// static site) with every position of its line and the legal moves there: this page owns no
// rules. The first try at each puzzle is a game between the person and the puzzle, rated by
// Glicko-2 (glicko.js) as lichess rates its puzzles: both ratings move, and both are kept in
// this browser; the puzzle's is shown once it is over. The contract (the ids and attributes
// tests may rely on) is in docs/puzzles.md.

import { api } from './api.js';
import { TITLES, drawBoard, parseFen } from './board.js';
import { ui, $, actions } from './state.js';
import { wireHand } from './drag.js';
import { fresh, ratePuzzle } from './glicko.js';

// localStorage: {rating: {variant: glicko}, puzzles: {variant/id: glicko},
// tried: {variant/id: 'solved'|'failed'}, last: {variant: id}}; a glicko is
// {rating, deviation, volatility} (an older page kept the person's rating as a number).
const KEY = 'bashni-puzzles';
const START_RATING = 1500;
// How unsure a puzzle's starting rating is (from the depth that finds it, docs/puzzles.md):
// less than a new player's, more than a played puzzle's.
const PUZZLE_DEVIATION = 200;
const REPLY_MS = 450;              // the pause before the opponent's move is played

const pz = {
  list: [],      // the game's puzzles: [{id, rating, themes}]
  p: null,       // the puzzle set: GET /api/puzzles/<variant>/<id>
  at: 0,         // plies of its line on the board (positions[at] is shown)
  state: 'idle', // 'play' (the person's move), 'wait' (a reply is coming), 'wrong', 'solved', 'failed'
  wrong: false,  // a wrong move was made in this puzzle (it counts as failed)
};

function kept() {
  try { return JSON.parse(localStorage.getItem(KEY)) || {}; } catch (e) { return {}; }
}
function keep(k) {
  try { localStorage.setItem(KEY, JSON.stringify(k)); } catch (e) { /* storage full or off */ }
}

const variant = () => $('pz-variant').value;
const solverSide = () => parseFen(pz.p.positions[1].fen).side;

function render() {
  const p = pz.p;
  if (!p) { drawBoard($('board'), { variant: variant(), flipped: false, fen: null }); return; }
  drawBoard($('board'), {
    variant: p.variant,
    flipped: solverSide() === 'b',
    fen: p.positions[pz.at].fen,
    ply: pz.at,
    last: pz.at > 0 ? p.moves[pz.at - 1] : null,
    sel: ui.sel,
  });
  const status = $('pz-status');
  status.dataset.state = pz.state;
  const side = solverSide() === 'w' ? 'White' : 'Black';
  status.textContent = {
    idle: 'Loading…',
    play: pz.at === 1 ? `Your turn: find the best move for ${side}.` : 'Right! Keep going: your move.',
    wait: 'Right!',
    wrong: 'That is not the move. Retry, or see the solution.',
    solved: pz.wrong ? 'Solved, after a wrong try.' : 'Solved!',
    failed: 'The solution is on the board.',
  }[pz.state];
  const over = pz.state === 'solved' || pz.state === 'failed';
  $('pz-retry').hidden = pz.state !== 'wrong';
  $('pz-solution').hidden = !(pz.state === 'wrong' || pz.state === 'play');
  $('pz-result').hidden = !over;
  $('pz-analyse').hidden = !over;
  if (over) {
    const now = Math.round(puzzleRating(kept(), p).rating);
    $('pz-rating').textContent = now === p.rating ? `Puzzle rating ${now}` : `Puzzle rating ${now} (from ${p.rating})`;
    $('pz-rating').dataset.rating = now;
    $('pz-rating').dataset.start = p.rating;
    $('pz-themes').textContent = p.themes.join(', ');
    $('pz-analyse').href = `./?variant=${p.variant}&fen=${encodeURIComponent(p.fen)}&moves=${p.moves.join(',')}`;
  }
  const you = Math.round(personRating(kept(), variant()).rating);
  $('pz-you').textContent = `Your ${TITLES[variant()]} puzzle rating: ${you}`;
  $('pz-you').dataset.rating = you;
  $('pz-link').href = `#${p.variant}/${p.id}`;
  $('pz-source').textContent = `Puzzle ${p.id}, from ${p.source}`;
  document.body.dataset.puzzle = p.id;
}

// The person's rating in game `v` as kept, or a new player's.
function personRating(k, v) {
  const r = (k.rating || {})[v];
  if (typeof r === 'number') return fresh(r);
  return r && Number.isFinite(r.rating) ? r : fresh(START_RATING);
}

// Puzzle `p`'s rating as kept in this browser, or its starting rating.
function puzzleRating(k, p) {
  const r = (k.puzzles || {})[`${p.variant}/${p.id}`];
  return r && Number.isFinite(r.rating) ? r : fresh(p.rating, PUZZLE_DEVIATION);
}

// The first try at a puzzle rates the person and the puzzle (Glicko-2); later ones do not.
function score(solved) {
  const k = kept();
  k.tried = k.tried || {};
  const key = `${pz.p.variant}/${pz.p.id}`;
  if (k.tried[key]) return;
  k.tried[key] = solved ? 'solved' : 'failed';
  const rated = ratePuzzle(personRating(k, pz.p.variant), puzzleRating(k, pz.p), solved);
  k.rating = k.rating || {};
  k.rating[pz.p.variant] = rated.person;
  k.puzzles = k.puzzles || {};
  k.puzzles[key] = rated.puzzle;
  keep(k);
}

// Runs `f` after the pause of a reply, unless another puzzle is set by then.
function later(f) {
  const p = pz.p;
  setTimeout(() => { if (pz.p === p) f(); }, REPLY_MS);
}

function hideChoice() { $('choice').hidden = true; $('choice').replaceChildren(); }

// The person's move `m` (its text).
function play(m) {
  ui.sel = null;
  hideChoice();
  const p = pz.p;
  if (pz.state !== 'play') return;
  if (m !== p.moves[pz.at]) {
    pz.wrong = true;
    pz.state = 'wrong';
    score(false);
    render();
    return;
  }
  pz.at += 1;
  if (pz.at === p.moves.length) {
    pz.state = 'solved';
    score(!pz.wrong);
    render();
    return;
  }
  pz.state = 'wait';
  render();
  later(() => { pz.at += 1; pz.state = 'play'; render(); });
}

// A click on a square: select a tower that can move, narrow a capture by a square on its way,
// or play the move that ends there (several paths to one square: #choice asks which).
function clickSquare(sq) {
  if (!pz.p || pz.state !== 'play') return;
  const legal = pz.p.positions[pz.at].legal;
  const sel = ui.sel;
  if (sel && sq !== sel.from) {
    const via = [...sel.via, sq];
    const ends = sel.cands.filter((m) => m.path[m.path.length - 1] === sq && sel.via.every((v) => m.path.includes(v)));
    if (ends.length === 1) { play(ends[0].move); return; }
    if (ends.length > 1) {
      const box = $('choice');
      box.replaceChildren();
      for (const m of ends) {
        const b = document.createElement('button');
        b.textContent = m.move; b.dataset.move = m.move;
        b.onclick = () => play(m.move);
        box.appendChild(b);
      }
      box.hidden = false;
      return;
    }
    const through = sel.cands.filter((m) => via.every((v) => m.path.slice(1).includes(v)));
    if (through.length) { ui.sel = { from: sel.from, via, cands: through }; render(); return; }
  }
  const cands = legal.filter((m) => m.path[0] === sq);
  ui.sel = cands.length && !(sel && sel.from === sq && !sel.via.length) ? { from: sq, via: [], cands } : null;
  hideChoice();
  render();
}

// Sets puzzle `id` of the chosen game: its position before the opponent's move, then that move.
async function start(id) {
  ui.sel = null;
  hideChoice();
  pz.state = 'idle';
  pz.wrong = false;
  try {
    pz.p = await api('GET', `/api/puzzles/${variant()}/${encodeURIComponent(id)}`);
  } catch (e) {
    $('pz-status').textContent = e.message;
    $('pz-status').dataset.state = 'error';
    return;
  }
  const k = kept();
  k.last = k.last || {};
  k.last[variant()] = id;
  keep(k);
  if (location.hash !== `#${variant()}/${id}`) history.replaceState(null, '', `#${variant()}/${id}`);
  pz.at = 0;
  render();
  later(() => { pz.at = 1; pz.state = 'play'; render(); });
}

const chosen = () => {
  const t = $('pz-theme').value;
  return t ? pz.list.filter((p) => p.themes.includes(t)) : pz.list;
};

// The next puzzle of the theme chosen after the one set (the first the person has not tried
// first, else the next in the file's order).
function next() {
  const list = chosen();
  if (!list.length) { pz.p = null; render(); $('pz-status').textContent = 'No puzzle of this game and theme yet.'; $('pz-status').dataset.state = 'none'; return; }
  const tried = kept().tried || {};
  const at = pz.p ? list.findIndex((p) => p.id === pz.p.id) : -1;
  const order = [...list.slice(at + 1), ...list.slice(0, at + 1)];
  const fresh = order.find((p) => !tried[`${variant()}/${p.id}`]);
  start((fresh || order[0]).id);
}

// Reads the game's list and fills the theme choice; then sets `id` (or the next puzzle).
async function loadGame(id) {
  pz.state = 'idle';
  $('game-name').textContent = `· ${TITLES[variant()]}`;
  try {
    pz.list = (await api('GET', `/api/puzzles?variant=${variant()}`)).puzzles;
  } catch (e) {
    pz.list = [];
  }
  const themes = [...new Set(pz.list.flatMap((p) => p.themes))].sort();
  const sel = $('pz-theme');
  const was = sel.value;
  sel.replaceChildren(new Option('Any', ''), ...themes.map((t) => new Option(t, t)));
  sel.value = themes.includes(was) ? was : '';
  pz.p = null;
  if (id && pz.list.some((p) => p.id === id)) { start(id); return; }
  const last = (kept().last || {})[variant()];
  const at = pz.list.find((p) => p.id === last);
  if (at) { pz.p = { id: at.id }; }
  next();
}

// The solution from the position shown on: each move played in turn, with its arrow.
function showSolution() {
  if (!pz.p) return;
  if (!pz.wrong) { pz.wrong = true; score(false); }
  ui.sel = null;
  hideChoice();
  pz.state = 'failed';
  const step = () => {
    if (pz.at >= pz.p.moves.length) { render(); return; }
    pz.at += 1;
    render();
    later(step);
  };
  step();
}

function fromAddress() {
  const m = /^#([a-z]+)\/([A-Za-z0-9]+)$/.exec(location.hash);
  return m && Object.keys(TITLES).includes(m[1]) ? { variant: m[1], id: m[2] } : null;
}

function wire() {
  actions.clickSquare = clickSquare;
  wireHand();
  $('pz-next').onclick = next;
  $('pz-retry').onclick = () => { pz.state = 'play'; render(); };
  $('pz-solution').onclick = showSolution;
  $('pz-variant').onchange = () => loadGame(null);
  $('pz-theme').onchange = () => { pz.p = null; next(); };
  window.addEventListener('hashchange', () => {
    const a = fromAddress();
    if (a && (!pz.p || a.id !== pz.p.id || a.variant !== variant())) { $('pz-variant').value = a.variant; loadGame(a.id); }
  });
  const a = fromAddress();
  if (a) $('pz-variant').value = a.variant;
  loadGame(a && a.id);
}

wire();
