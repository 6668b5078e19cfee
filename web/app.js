// bashni in the browser: Bashni, Turkish draughts and Russian draughts. The server owns the
// rules: this page draws what it is sent (the FEN of every position, the legal moves with
// their paths) and sends moves back. Modules: board.js draws, tree.js keeps the move tree
// (main line and variations), api.js talks to the server; this one runs the page. The
// automation contract (data-square, data-tower, #moves, #status, ...) is in web/CONTRACT.md.

import * as API from './api.js';
import { TITLES, parseFen, describeTower, drawBoard } from './board.js';
import * as T from './tree.js';

const $ = (id) => document.getElementById(id);
const STORE = 'bashni-game';

const ui = {
  info: null,        // GET /api/info
  st: null,          // the game state from the server (it holds the line tree.cur)
  tree: null,        // the move tree (tree.js)
  shown: 0,          // ply shown on the board
  follow: true,      // the shown ply follows the end of the line
  flipped: false,    // Black at the bottom
  sel: null,         // {from, via: [], cands: [...]} while choosing a move
  legalAt: null,     // {ply, legal} for an earlier position (analysis)
  analysis: null,    // the last analysis event
  es: null,          // EventSource
  settings: null,    // the dialog's last settings (without a start)
  game: null,        // this game's settings: {human, level, movetime_ms | clock}
  switching: false,  // the server game is being moved to another line of the tree
  infoSq: null,      // the square whose tower #tower-info describes
  clockBase: 0,      // performance.now() when the clocks were received
  review: null,      // the latest review report of this game (GET .../review, `review` events)
};

const variant = () => (ui.st ? ui.st.variant : 'bashni');
function notice(text) { $('notice').textContent = text || ''; }
async function act(action, body) {
  if (!ui.st) return null;
  notice('');
  try { const st = await API.post(ui.st.id, action, body); accept(st); return st; }
  catch (e) { notice(e.message); return null; }
}

// ---------- game life ----------

function gameSettings(body, st) {
  const g = { human: st.human, level: st.level };
  if (body.clock) g.clock = body.clock;
  else if (body.movetime_ms) g.movetime_ms = body.movetime_ms;
  else if (ui.settings && ui.settings.clock) g.clock = ui.settings.clock;
  else if (ui.settings && ui.settings.movetime_ms) g.movetime_ms = ui.settings.movetime_ms;
  return g;
}

// A new game: created first, and only once the server has accepted it does it replace the
// game shown (a bad FEN, PDN or variant leaves the current game exactly as it was).
// `loaded` names what was opened ('FEN', 'PDN'); `keep` restores a stored tree and board.
async function newGame(body, loaded, keep) {
  let st;
  try {
    st = await API.createGame(body);
  } catch (e) {
    notice((loaded ? `Could not open this ${loaded}: ` : '') + e.message);
    render();
    return false;
  }
  const old = ui.st;
  if (ui.es) { ui.es.close(); ui.es = null; }
  if (old) API.deleteGame(old.id).catch(() => {});
  ui.st = null; ui.analysis = null; ui.sel = null; ui.legalAt = null; ui.follow = true;
  ui.infoSq = null; ui.review = null;
  $('analysis-on').checked = false;
  ui.game = gameSettings(body, st);
  ui.tree = T.newTree(st.moves);
  ui.flipped = st.human === 'black';
  if (keep) {
    if (Array.isArray(keep.vars)) {
      ui.tree.vars = keep.vars.filter((v) => Array.isArray(v.moves)).map((v, i) => ({ id: i + 1, moves: v.moves.map(String) }));
      ui.tree.next = ui.tree.vars.length + 1;
    }
    if (typeof keep.flipped === 'boolean') ui.flipped = keep.flipped;
  }
  const n = st.moves.length;
  notice(loaded ? `Loaded ${TITLES[st.variant]} from ${loaded}: ${n} ${n === 1 ? 'ply' : 'plies'}, ${st.status}` : '');
  accept(st);
  listen(st.id);
  return true;
}

function listen(id) {
  const es = API.events(id);
  ui.es = es;
  es.addEventListener('state', (e) => accept(JSON.parse(e.data)));
  es.addEventListener('analysis', (e) => { ui.analysis = JSON.parse(e.data); render(); });
  es.addEventListener('review', (e) => { if (ui.st && ui.st.id === id) { ui.review = JSON.parse(e.data); render(); } });
  es.addEventListener('gone', () => { es.close(); if (ui.es === es) notice('This game was closed by the server: reload the page to bring it back.'); });
  es.onerror = () => { if (es.readyState === EventSource.CLOSED && ui.es === es) notice('Lost the connection to the server: reload the page to bring the game back.'); };
}

// Takes a state from the server (a reply or an event), the newest one wins.
function accept(st) {
  if (ui.st && st.id === ui.st.id && st.version < ui.st.version) return;
  const grew = !ui.st || st.id !== ui.st.id || st.moves.join() !== ui.st.moves.join();
  ui.st = st;
  document.body.dataset.game = st.id;
  ui.clockBase = performance.now();
  if (!ui.switching) {
    if (ui.tree) T.update(ui.tree, st.moves);
    if (ui.follow || ui.shown > st.moves.length) ui.shown = st.moves.length;
  } else if (ui.shown > st.moves.length) ui.shown = st.moves.length;
  if (grew) { ui.sel = null; ui.legalAt = null; hideChoice(); }
  if (!st.analysis) { ui.analysis = null; $('analysis-on').checked = false; }
  else { $('analysis-on').checked = true; if (ui.analysis && ui.analysis.ply !== st.analysis.ply) ui.analysis = null; }
  save();
  render();
}

// ---------- the stored game (a reload or a reopened tab brings it back) ----------

function stored() {
  const st = ui.st;
  if (!st || !ui.tree) return null;
  return {
    variant: st.variant, fen: st.start_fen, moves: ui.tree.main,
    vars: ui.tree.vars.map((v) => ({ moves: v.moves })),
    ...ui.game, flipped: ui.flipped,
  };
}
function save() {
  const s = stored();
  if (!s || ui.switching) return;
  try { localStorage.setItem(STORE, JSON.stringify(s)); } catch (e) { /* private mode */ }
}
function load() {
  try { return JSON.parse(localStorage.getItem(STORE) || 'null'); } catch (e) { return null; }
}
// The request that recreates a stored game on the server.
function recreate(s) {
  const body = { variant: s.variant, fen: s.fen, moves: s.moves || [], human: s.human, level: s.level };
  if (s.clock) body.clock = s.clock;
  else if (s.movetime_ms) body.movetime_ms = s.movetime_ms;
  return body;
}
// A link that carries the whole game (its main line).
function gameLink() {
  const st = ui.st;
  const q = new URLSearchParams({ variant: st.variant, fen: st.start_fen });
  if (ui.tree.main.length) q.set('moves', ui.tree.main.join(','));
  return '/?' + q.toString();
}

// ---------- the move tree ----------

// The server game is made to hold `target` (a line of the tree, `id` null for the main line):
// moves played from the last ply in common, or plies taken back. Needs analysis mode or a
// game where the person plays both sides (else analysis mode is switched on).
async function hold(target, id) {
  const st = ui.st;
  ui.switching = true;
  try {
    if (!st.analysis && st.human !== 'both') {
      accept(await API.post(st.id, 'analysis', { on: true, ply: Math.min(ui.shown, st.moves.length), multipv: +$('multipv').value }));
    }
    let last = null;
    const held = ui.st.moves;
    const c = T.common(held, target);
    if (c === target.length) {
      for (let i = held.length; i > c; i--) last = await API.post(st.id, 'takeback');
    } else {
      for (let i = c; i < target.length; i++) last = await API.post(st.id, 'move', { move: target[i], ply: i });
    }
    ui.tree.cur = id;
    ui.switching = false;
    if (last) accept(last);
    return true;
  } catch (e) {
    ui.switching = false;
    notice(e.message);
    // Whatever the server holds now: resynchronise from it.
    try { const now = await API.api('GET', `/api/games/${st.id}`); ui.tree.cur = id; accept(now); } catch (e2) { /* gone */ }
    return false;
  }
}

// Shows the position after `moves`: on the line held if it is there, else on the line of the
// tree that continues it (a new variation if none does).
async function goto(moves) {
  if (!ui.st || ui.switching) return;
  if (T.isPrefix(moves, ui.st.moves) && (ui.tree.cur != null || T.isPrefix(moves, ui.tree.main))) {
    show(moves.length);
    return;
  }
  const line = T.lineFor(ui.tree, moves);
  ui.follow = false;
  ui.shown = Math.min(ui.shown, T.common(ui.st.moves, moves));
  if (await hold(line.moves, line.id)) show(moves.length);
  else render();
}

async function promote() {
  const id = ui.tree.cur;
  if (id == null) return;
  T.promote(ui.tree, id);
  save();
  render();
}

async function removeVariation() {
  const id = ui.tree.cur;
  if (id == null) return;
  const fork = T.forkOf(ui.tree, T.varOf(ui.tree, id));
  ui.follow = false;
  ui.shown = Math.min(ui.shown, fork);
  if (await hold(ui.tree.main, null)) {
    T.remove(ui.tree, id);
    save();
    show(fork);
  }
}

function show(ply) {
  const st = ui.st;
  if (!st) return;
  ply = Math.max(0, Math.min(st.moves.length, ply));
  ui.shown = ply;
  ui.follow = ply === st.moves.length;
  ui.sel = null; hideChoice();
  if (st.analysis && st.analysis.ply !== ply) analyse(true);
  // The legal moves of an earlier position, asked for now rather than at the first click.
  if (ply < st.moves.length) movesHere();
  render();
}

// ---------- moving ----------

// The legal moves of the shown position, or null if the board takes no move now.
function movesHere() {
  const st = ui.st;
  if (!st || ui.switching || st.result && ui.shown === st.moves.length) return null;
  if (ui.shown === st.moves.length) {
    if (st.analysis || st.your_turn) return st.legal;
    return null;
  }
  if (!st.analysis && st.human !== 'both') return null;
  if (ui.legalAt && ui.legalAt.ply === ui.shown) return ui.legalAt.legal;
  const ply = ui.shown;
  API.legalAt(st.id, ply).then((l) => { if (ui.shown === ply) { ui.legalAt = l; render(); } }).catch((e) => notice(e.message));
  return null;
}

// Candidates through the clicked squares so far: `via` must appear in order after the origin.
function matching(legal, from, via) {
  return legal.filter((m) => {
    if (m.path[0] !== from) return false;
    let i = 1;
    for (const v of via) {
      while (i < m.path.length && m.path[i] !== v) i++;
      if (i >= m.path.length) return false;
      i++;
    }
    return true;
  });
}

function play(m) {
  ui.sel = null; hideChoice();
  const st = ui.st;
  if (ui.shown === st.moves.length) {
    // At the end of the line held: the line grows.
    ui.follow = true;
    const body = { move: m.move };
    if (st.analysis || st.human === 'both') body.ply = ui.shown;
    act('move', body);
  } else {
    // From an earlier position: a variation (or the line that already has this move).
    goto([...st.moves.slice(0, ui.shown), m.move]);
  }
}

function clickSquare(sq) {
  const st = ui.st;
  const tower = st ? parseFen(st.fens[ui.shown]).squares[sq] : null;
  ui.infoSq = tower ? sq : null;
  renderTowerInfo();
  const legal = movesHere();
  if (!legal) return;
  const sel = ui.sel;
  if (sel) {
    // Squares clicked in the order of the path narrow it best; in another order they still
    // narrow by which squares a path passes.
    let after = matching(legal, sel.from, [...sel.via, sq]);
    if (!after.length && sel.via.length) {
      const want = [...sel.via, sq];
      after = sel.cands.filter((m) => want.every((s) => m.path.slice(1).includes(s)));
    }
    // The origin clicked again (and no path returns to it): let go.
    if (!after.length || (sq === sel.from && !sel.via.length && !after.some((m) => m.path[m.path.length - 1] === sq))) {
      ui.sel = null; hideChoice();
      if (sq !== sel.from && legal.some((m) => m.path[0] === sq)) return clickSquare(sq);
      render();
      return;
    }
    if (after.length === 1) return play(after[0]);
    ui.sel = { from: sel.from, via: [...sel.via, sq], cands: after };
    showChoice(after);
    render();
    return;
  }
  const cands = legal.filter((m) => m.path[0] === sq);
  if (!cands.length) return;
  ui.sel = { from: sq, via: [], cands };
  render();
}

function showChoice(cands) {
  const box = $('choice');
  box.replaceChildren();
  const p = document.createElement('div');
  p.textContent = 'Several captures fit: click a square on the way, or choose:';
  box.appendChild(p);
  for (const m of cands) {
    const b = document.createElement('button');
    b.textContent = m.move;
    b.dataset.move = m.move;
    b.onclick = () => play(m);
    box.appendChild(b);
  }
  box.hidden = false;
}
function hideChoice() { $('choice').hidden = true; $('choice').replaceChildren(); }

// ---------- rendering ----------

function renderBoard() {
  const st = ui.st;
  const v = variant();
  const arrows = [];
  if (st) {
    if (st.hint && st.hint.ply === ui.shown && !st.analysis) arrows.push([st.hint.move, 'hint']);
    const an = ui.analysis;
    if (st.analysis && an && an.ply === ui.shown) {
      an.lines.slice().reverse().forEach((l) => { if (l.pv.length) arrows.push([l.pv[0], 'pv' + Math.min(l.multipv, 5)]); });
    }
    // A marked move's better one, on the position before it.
    const r = reviewed(ui.shown + 1);
    if (r && r.mark && r.best && r.best !== r.move && !(st.analysis && an && an.ply === ui.shown)) arrows.push([r.best, 'best']);
  }
  drawBoard($('board'), {
    variant: v, flipped: ui.flipped,
    fen: st ? st.fens[ui.shown] : null, ply: ui.shown,
    last: st && ui.shown > 0 ? st.moves[ui.shown - 1] : null,
    sel: ui.sel, arrows,
  });
  $('game-name').textContent = TITLES[v];
  document.title = 'bashni · ' + TITLES[v];
}

function moveItem(m, ply, number, first) {
  const li = document.createElement('li');
  li.textContent = m;
  li.dataset.move = m;
  li.dataset.ply = ply;
  const { num, white } = number(ply);
  if (white) li.dataset.num = num + '.';
  else if (first) li.dataset.num = num + '…';
  return li;
}

function renderMoves() {
  const st = ui.st, tree = ui.tree;
  const list = $('moves');
  list.replaceChildren();
  if (!st || !tree) return;
  const number = T.numbering(st.start_fen);
  const cur = tree.cur == null ? null : T.varOf(tree, tree.cur);
  const curFork = cur ? T.forkOf(tree, cur) : Infinity;
  const varsAt = (ply) => tree.vars.filter((v) => Math.min(T.forkOf(tree, v) + 1, tree.main.length) === ply);
  const addVariation = (v) => {
    const fork = T.forkOf(tree, v);
    v.moves.slice(fork).forEach((m, k) => {
      const ply = fork + k + 1;
      const li = moveItem(m, ply, number, k === 0);
      li.dataset.variation = v.id;
      li.classList.add('var');
      if (k === 0) li.classList.add('var-first');
      if (ply === v.moves.length) li.classList.add('var-last');
      if (v.id === tree.cur && ply === ui.shown) li.classList.add('current');
      li.onclick = () => goto(v.moves.slice(0, ply));
      list.appendChild(li);
    });
  };
  tree.main.forEach((m, i) => {
    const ply = i + 1;
    const li = moveItem(m, ply, number, i === 0);
    const r = reviewed(ply);
    if (r) {
      li.dataset.eval = evalText(r.eval);
      if (r.mark) li.dataset.mark = r.mark;
      li.title = `${r.mark ? MARK_NAME[r.mark] + ': ' : ''}${fmtMen(r.eval)} after it` + (r.mark && r.best ? `; best was ${r.best} (${fmtMen(r.best_eval)})` : '');
    }
    if (ply === ui.shown && ply <= curFork) li.classList.add('current');
    li.onclick = () => goto(tree.main.slice(0, ply));
    list.appendChild(li);
    varsAt(ply).forEach(addVariation);
  });
  if (!tree.main.length) tree.vars.forEach(addVariation);
  const c = list.querySelector('.current');
  if (c && ui.follow) c.scrollIntoView({ block: 'nearest' });
  $('var-tools').hidden = tree.cur == null;
}

function fmtClock(ms) {
  const neg = ms < 0; ms = Math.abs(ms);
  const s = Math.floor(ms / 1000), m = Math.floor(s / 60);
  const tenths = ms < 10000 ? '.' + Math.floor((ms % 1000) / 100) : '';
  return (neg ? '-' : '') + m + ':' + String(s % 60).padStart(2, '0') + tenths;
}

function renderClocks() {
  const st = ui.st;
  const top = $('clock-top'), bottom = $('clock-bottom');
  if (!st || st.time.kind !== 'clock') { top.textContent = ''; bottom.textContent = ''; return; }
  const t = st.time;
  const elapsed = performance.now() - ui.clockBase;
  const left = { white: t.white_ms - (t.running === 'white' ? elapsed : 0), black: t.black_ms - (t.running === 'black' ? elapsed : 0) };
  const [low, high] = ui.flipped ? ['black', 'white'] : ['white', 'black'];
  for (const [box, side] of [[bottom, low], [top, high]]) {
    box.textContent = (side === 'white' ? 'White ' : 'Black ') + fmtClock(left[side]);
    box.dataset.side = side;
    box.classList.toggle('running', t.running === side);
    box.classList.toggle('low', left[side] < 10000);
  }
}

function scoreText(score, side) {
  // Scores arrive from the mover's view; shown from White's.
  const sign = side === 'w' ? 1 : -1;
  if (score.mate !== undefined) {
    const n = score.mate * sign;
    return (n > 0 ? 'White' : 'Black') + ' wins in ' + Math.abs(score.mate);
  }
  const cp = score.cp * sign;
  return (cp >= 0 ? '+' : '−') + (Math.abs(cp) / 100).toFixed(2);
}
function whiteShare(score, side) {
  const sign = side === 'w' ? 1 : -1;
  if (score.mate !== undefined) return score.mate * sign > 0 ? 1 : 0;
  return 0.5 + 0.5 * Math.tanh((score.cp * sign) / 400);
}

function renderAnalysis() {
  const st = ui.st;
  const on = !!(st && st.analysis);
  $('analysis-panel').hidden = !on;
  const bar = $('eval-bar');
  bar.hidden = !on;
  // White's end of the bar is on White's side of the board.
  bar.dataset.whiteAt = ui.flipped ? 'top' : 'bottom';
  bar.title = `Evaluation (White at the ${bar.dataset.whiteAt} of the bar, as on the board)`;
  if (!on) return;
  const an = ui.analysis && ui.analysis.ply === ui.shown ? ui.analysis : null;
  const side = parseFen(st.fens[ui.shown]).side;
  const lines = $('an-lines');
  lines.replaceChildren();
  if (!an || !an.lines.length) {
    $('an-score').textContent = st.result && ui.shown === st.moves.length ? 'game over' : '…';
    $('an-depth').textContent = '';
    delete $('an-score').dataset.depth;
    $('evalfill').style.height = '50%';
    $('evaltext').textContent = '';
    return;
  }
  const best = an.lines[0];
  $('an-score').textContent = scoreText(best.score, side);
  $('an-score').dataset.depth = best.depth;
  $('an-depth').textContent = 'depth ' + best.depth + (an.done ? ' (stopped)' : '');
  $('evalfill').style.height = (100 * whiteShare(best.score, side)).toFixed(1) + '%';
  // The bar's chip is narrow: one decimal there (the panel has two), `#3` for a win in 3.
  $('evaltext').textContent = best.score.mate !== undefined
    ? (scoreText(best.score, side).startsWith('White') ? '+#' : '−#') + Math.abs(best.score.mate)
    : scoreText(best.score, side).slice(0, -1);
  const number = T.numbering(st.start_fen);
  const before = st.moves.slice(0, an.ply);
  for (const l of an.lines) {
    const li = document.createElement('li');
    const score = document.createElement('span');
    score.className = 'pv-score';
    score.textContent = scoreText(l.score, side);
    li.appendChild(score);
    li.title = `depth ${l.depth}`;
    l.pv.slice(0, 16).forEach((m, k) => {
      const ply = an.ply + k + 1;
      const { num, white } = number(ply);
      if (white || k === 0) {
        const n = document.createElement('span');
        n.className = 'pv-num';
        n.textContent = white ? num + '.' : num + '…';
        li.append(' ', n);
      }
      const b = document.createElement('span');
      b.className = 'pv-move';
      b.textContent = m;
      b.dataset.move = m;
      b.dataset.ply = ply;
      b.title = 'Play the line up to here as a variation';
      b.onclick = () => goto([...before, ...l.pv.slice(0, k + 1)]);
      li.append(' ', b);
    });
    lines.appendChild(li);
  }
}

const SIDE = { w: 'White', b: 'Black' };
function renderStatus() {
  const st = ui.st;
  const box = $('status');
  if (!st) { box.textContent = 'No game'; box.dataset.state = 'none'; return; }
  let text = st.status;
  if (st.thinking === 'hint') text += ' — looking for a hint…';
  if (ui.shown !== st.moves.length) {
    // The position shown, then the game's own state.
    const side = SIDE[parseFen(st.fens[ui.shown]).side];
    const where = ui.tree && ui.tree.cur != null ? ' of this variation' : '';
    text = `Ply ${ui.shown} of ${st.moves.length}${where}: ${side} to move here · the game: ${text}`;
  } else if (ui.tree && ui.tree.cur != null) text = 'Variation: ' + text;
  box.textContent = text;
  box.dataset.state = st.result ? 'over' : st.turn + '-to-move';
  box.dataset.thinking = st.thinking || '';
  box.dataset.yourTurn = String(!!st.your_turn);
  if (st.result) { box.dataset.result = st.result.result; box.dataset.reason = st.result.reason; }
  else { delete box.dataset.result; delete box.dataset.reason; }
  if (st.notice) notice(st.notice);
  // Whom you play.
  const g = ui.game || {};
  let who;
  if (st.human === 'both') who = 'You play both sides (no engine)';
  else {
    const time = g.clock ? `${+(g.clock.base_ms / 60000).toFixed(2)} min + ${+(g.clock.inc_ms / 1000).toFixed(2)} s`
      : g.movetime_ms ? `${+(g.movetime_ms / 1000).toFixed(2)} s a move` : '';
    who = `You play ${st.human === 'white' ? 'White' : 'Black'} against level ${st.level} (Elo ${st.elo})${time ? ', ' + time : ''}`;
  }
  $('opponent').textContent = who;
  const hint = $('hint-text');
  if (st.hint) {
    const side = parseFen(st.fens[st.hint.ply]).side;
    const sc = st.hint.score ? ' (' + scoreText(st.hint.score, side) + ')'
      : ui.analysis && ui.analysis.ply === st.hint.ply && ui.analysis.lines[0] ? ' (' + scoreText(ui.analysis.lines[0].score, side) + ')' : '';
    hint.textContent = `Hint after ply ${st.hint.ply}: ${st.hint.move}${sc} — the engine's best move at full strength`;
  } else hint.textContent = '';
}

function renderTowerInfo() {
  const st = ui.st;
  const tower = st && ui.infoSq ? parseFen(st.fens[ui.shown]).squares[ui.infoSq] : null;
  $('tower-info').textContent = tower ? describeTower(ui.infoSq, tower, variant()) : '';
}

function renderControls() {
  const st = ui.st;
  const over = !st || !!st.result;
  $('btn-takeback').disabled = !st || st.moves.length === 0;
  $('btn-resign').disabled = over;
  $('btn-hint').disabled = over || !st.your_turn || !!st.analysis || st.thinking === 'hint';
  $('btn-retry').hidden = !st || !st.engine_failed;
  $('pdn-download').href = st ? `/api/games/${st.id}/pdn` : '#';
  $('pdn-tree').hidden = !ui.tree || !ui.tree.vars.length;
  if (st) {
    const fen = st.fens[ui.shown];
    $('fen-link').href = (st.variant === 'bashni' ? '/?' : `/?variant=${st.variant}&`) + 'fen=' + encodeURIComponent(fen);
    $('game-link').href = gameLink();
    if (document.activeElement !== $('fen')) $('fen').value = fen;
  }
}

// ---------- game review ----------

const MARK_NAME = { '?!': 'Inaccuracy', '?': 'Mistake', '??': 'Blunder' };
// The review of main-line ply `ply` (1 = the first move), if the report has it and the main
// line still holds the move reviewed.
function reviewed(ply) {
  const rv = ui.review;
  if (!rv || !ui.tree || ply < 1) return null;
  const r = rv.moves[ply - 1];
  if (!r || r.ply !== ply || ui.tree.main[ply - 1] !== r.move) return null;
  for (let i = 0; i < ply - 1; i++) if (!rv.moves[i] || ui.tree.main[i] !== rv.moves[i].move) return null;
  return r;
}
// White's view, in men: `0.35`, `-1.20`, `M3` / `-M3` for mates.
function evalText(score) {
  if (score.mate !== undefined) return (score.mate < 0 ? '-M' : 'M') + Math.abs(score.mate);
  return (score.cp / 100).toFixed(2);
}
function fmtMen(score) {
  if (score.mate !== undefined) return (score.mate > 0 ? 'White' : 'Black') + ' wins in ' + Math.abs(score.mate);
  return (score.cp >= 0 ? '+' : '−') + (Math.abs(score.cp) / 100).toFixed(2);
}
// -1 (Black winning) .. +1 (White winning): tanh of the men, a mate at the edge.
function squash(score) {
  if (score.mate !== undefined) return score.mate > 0 ? 1 : -1;
  return Math.tanh(score.cp / 100 / 2.5);
}

async function startReview() {
  const st = ui.st;
  if (!st) return;
  notice('');
  // The server reviews the line it holds: the main line.
  if (ui.tree.cur != null && !(await hold(ui.tree.main, null))) return;
  try {
    ui.review = await API.post(st.id, 'review', { movetime_ms: 200 });
    render();
  } catch (e) { notice(e.message); }
}

const SVGNS = 'http://www.w3.org/2000/svg';
function svgEl(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  parent.appendChild(e);
  return e;
}

function renderReview() {
  const rv = ui.review, btn = $('review'), graph = $('review-graph');
  const st = ui.st;
  btn.disabled = !st || !st.moves.length || !!(rv && rv.running);
  if (!rv) {
    delete btn.dataset.progress;
    $('review-status').textContent = '';
    graph.setAttribute('hidden', ''); graph.replaceChildren();
    $('review-best').textContent = '';
    $('review-summary').hidden = true;
    return;
  }
  btn.dataset.progress = `${rv.done}/${rv.total}`;
  btn.textContent = rv.running ? 'Reviewing…' : 'Review again';
  $('review-status').textContent = rv.running ? `${rv.done} of ${rv.total} moves` : `${rv.done} moves reviewed`;
  // The graph: a point per move reviewed, White's view (up: White better), ±1 at a win.
  const W = 300, H = 80, n = Math.max(rv.total, 1);
  const x = (ply) => 4 + (ply / n) * (W - 8), y = (sc) => H / 2 - (H / 2 - 3) * squash(sc);
  graph.removeAttribute('hidden');
  graph.replaceChildren();
  const pts = [[x(0), H / 2], ...rv.moves.map((r) => [x(r.ply), y(r.eval)])];
  if (rv.moves.length) svgEl('path', { class: 'black-area', d: `M0,${H} L${pts.map((p) => p.join(',')).join(' L')} L${pts[pts.length - 1][0]},${H} Z` }, graph);
  svgEl('line', { class: 'mid', x1: 0, y1: H / 2, x2: W, y2: H / 2 }, graph);
  svgEl('path', { class: 'line', d: 'M' + pts.map((p) => p.join(',')).join(' L') }, graph);
  if (ui.shown > 0) svgEl('line', { class: 'cursor', x1: x(ui.shown), y1: 0, x2: x(ui.shown), y2: H }, graph);
  for (const r of rv.moves) {
    const c = svgEl('circle', { cx: x(r.ply), cy: y(r.eval), r: r.mark ? 3.5 : 2, 'data-ply': r.ply }, graph);
    if (r.mark) c.dataset.mark = r.mark;
    svgEl('title', {}, c).textContent = `${r.ply}. ${r.move}${r.mark || ''} ${fmtMen(r.eval)}`;
  }
  // The better move, in words, for the move about to be played here (or the one just played).
  const lines = [];
  for (const ply of [ui.shown + 1, ui.shown]) {
    const r = reviewed(ply);
    if (r && r.mark && r.best && r.best !== r.move && !lines.some((l) => l.ply === ply)) {
      lines.push({ ply, text: `${MARK_NAME[r.mark]} at ply ${ply}: ${r.move}${r.mark} (${fmtMen(r.eval)}). Best was ${r.best} (${fmtMen(r.best_eval)})` });
    }
  }
  $('review-best').textContent = lines.map((l) => l.text).join('\n');
  // Per side: marks and the average loss.
  const table = $('review-summary');
  table.replaceChildren();
  const head = htmlEl('tr', table);
  for (const [t, title] of [['', ''], ['?!', 'Inaccuracies'], ['?', 'Mistakes'], ['??', 'Blunders'], ['Avg loss', 'Average loss per move (each capped)']]) { const th = htmlEl('th', head); th.textContent = t; th.title = title; }
  for (const side of ['white', 'black']) {
    const s = rv.summary[side];
    const tr = htmlEl('tr', table);
    tr.dataset.side = side;
    for (const t of [side === 'white' ? 'White' : 'Black', s.inaccuracies, s.mistakes, s.blunders, (s.average_loss_cp / 100).toFixed(2) + ' men']) htmlEl('td', tr).textContent = t;
  }
  table.hidden = false;
}
function htmlEl(name, parent) { const e = document.createElement(name); parent.appendChild(e); return e; }

function render() {
  renderBoard();
  renderMoves();
  renderClocks();
  renderAnalysis();
  renderStatus();
  renderTowerInfo();
  renderControls();
  renderReview();
}

// ---------- analysis ----------

let analyseTimer = null;
function analyse(on) {
  clearTimeout(analyseTimer);
  // Stepping quickly through the moves asks for one analysis, not one per step.
  analyseTimer = setTimeout(async () => {
    ui.analysis = null;
    if (!on && ui.tree && ui.tree.cur != null && ui.st && ui.st.human !== 'both') {
      // The engine plays the main line only: back to it first.
      ui.follow = true;
      await hold(ui.tree.main, null);
    }
    const body = on ? { on: true, ply: ui.shown, multipv: +$('multipv').value } : { on: false };
    act('analysis', body);
  }, on ? 120 : 0);
}

// ---------- PDN with variations (the server's /pdn has the main line) ----------

async function downloadTree() {
  const st = ui.st;
  let head = '';
  try {
    const r = await fetch(`/api/games/${st.id}/pdn`);
    head = (await r.text()).split('\n').filter((l) => l.startsWith('[')).join('\n');
  } catch (e) { /* the moves alone */ }
  const result = st.result && ui.tree.cur == null ? st.result.result : '*';
  // Russian and Turkish PDN write captures with 'x'.
  const fmt = st.variant === 'bashni' ? (m) => m : (m) => m.replaceAll(':', 'x');
  const text = head + '\n\n' + T.movetext(ui.tree, st.start_fen, result, fmt) + '\n';
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  a.download = `bashni-${st.variant}.pdn`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// ---------- new game dialog ----------

function levelLabel() {
  const l = +$('level').value;
  const elo = ui.info ? ui.info.levels[l].elo : '';
  const measured = $('variant').value === 'bashni' ? '' : ' (in Bashni)';
  $('level-out').textContent = `Level ${l}${l === 20 ? ' (full strength)' : ''} · Elo ${elo}${measured}`;
}

function dialogSettings() {
  const form = $('new-form');
  const body = { variant: $('variant').value, human: form.human.value, level: +$('level').value };
  if (form.tmode.value === 'clock') {
    body.clock = { base_ms: Math.round(+$('clock-min').value * 60000), inc_ms: Math.round(+$('clock-inc').value * 1000) };
  } else {
    body.movetime_ms = Math.round(+$('movetime').value * 1000);
  }
  return body;
}

function openDialog() {
  if (ui.st) $('variant').value = ui.st.variant;
  levelLabel();
  $('new-dialog').showModal();
}

// ---------- wiring ----------

function wire() {
  $('board').addEventListener('click', (e) => {
    const t = e.target.closest('[data-square]');
    if (t) clickSquare(t.getAttribute('data-square'));
  });
  $('btn-new').onclick = openDialog;
  $('btn-flip').onclick = () => { ui.flipped = !ui.flipped; save(); render(); };
  $('btn-takeback').onclick = () => { ui.follow = true; act('takeback'); };
  $('btn-hint').onclick = () => act('hint');
  $('btn-resign').onclick = () => { if (confirm('Resign this game?')) act('resign'); };
  $('btn-retry').onclick = () => act('retry');
  $('analysis-on').onchange = (e) => analyse(e.target.checked);
  $('multipv').onchange = () => { if (ui.st && ui.st.analysis) analyse(true); };
  $('nav-first').onclick = () => show(0);
  $('nav-prev').onclick = () => show(ui.shown - 1);
  $('nav-next').onclick = () => show(ui.shown + 1);
  $('nav-last').onclick = () => show(ui.st ? ui.st.moves.length : 0);
  $('var-promote').onclick = promote;
  $('var-delete').onclick = removeVariation;
  $('pdn-tree').onclick = downloadTree;
  $('review').onclick = startReview;
  $('review-graph').addEventListener('click', (e) => {
    let t = e.target.closest('[data-ply]');
    if (!t && ui.review && ui.review.moves.length) {
      // A click beside the points: the nearest one.
      const box = $('review-graph').getBoundingClientRect();
      const ply = Math.round(((e.clientX - box.left) / box.width) * Math.max(ui.review.total, 1));
      t = { dataset: { ply: Math.max(1, Math.min(ui.review.moves.length, ply)) } };
    }
    if (t && ui.tree) goto(ui.tree.main.slice(0, +t.dataset.ply));
  });
  $('level').oninput = levelLabel;
  $('variant').onchange = levelLabel;
  $('new-dialog').addEventListener('close', () => {
    if ($('new-dialog').returnValue !== 'start') return;
    const body = dialogSettings();
    ui.settings = body;
    try { localStorage.setItem('bashni-settings', JSON.stringify(body)); } catch (e) { /* private mode */ }
    const fen = $('new-fen').value.trim();
    newGame(fen ? { ...body, fen } : body, fen ? 'FEN' : undefined);
  });
  $('fen-open').onclick = () => {
    const fen = $('fen').value.trim();
    if (fen) newGame({ ...(ui.settings || {}), human: 'both', fen, variant: variant() }, 'FEN');
  };
  $('pdn-file').onchange = async (e) => {
    const f = e.target.files[0];
    if (!f) return;
    const text = await f.text();
    e.target.value = '';
    // The server reads the game from the PDN's GameType.
    const { variant: _, ...rest } = ui.settings || {};
    newGame({ ...rest, human: 'both', pdn: text }, 'PDN');
  };
  document.addEventListener('keydown', (e) => {
    if (e.target.matches('input:not([type=checkbox]), select, textarea') || $('new-dialog').open) return;
    const keys = { ArrowLeft: () => show(ui.shown - 1), ArrowRight: () => show(ui.shown + 1), Home: () => show(0), End: () => show(ui.st ? ui.st.moves.length : 0), f: () => $('btn-flip').click(), n: openDialog };
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  });
  // Closing or leaving the page frees its engine at once (else the server notices the closed
  // event stream within seconds); the game itself stays in localStorage.
  window.addEventListener('pagehide', () => { save(); if (ui.st) fetch(`/api/games/${ui.st.id}`, { method: 'DELETE', keepalive: true }).catch(() => {}); });
  setInterval(() => { if (ui.st && ui.st.time.kind === 'clock' && ui.st.time.running) renderClocks(); }, 100);
}

function restoreSettings() {
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

async function main() {
  wire();
  render();
  try { ui.info = await API.info(); } catch (e) { notice(e.message); }
  if (ui.info) {
    $('level').value = ui.info.default_level;
    $('movetime').value = ui.info.default_movetime_ms / 1000;
    $('movetime').max = ui.info.max_think_ms / 1000;
  }
  ui.settings = restoreSettings() || dialogSettings();
  // `bashni serve --variant turkish`: the server names the first game.
  const served = ui.info && TITLES[ui.info.default_variant];
  if (served) { $('variant').value = ui.info.default_variant; ui.settings.variant = ui.info.default_variant; }
  levelLabel();
  const query = new URLSearchParams(location.search);
  const fen = query.get('fen');
  const moves = query.get('moves');
  // /?variant=turkish&fen=...&moves=...: a game (position, moves) named in the address.
  const v = query.get('variant');
  const named = v ? { variant: v } : fen ? { variant: 'bashni' } : {};
  let ok;
  const saved = load();
  if (fen || moves) {
    const body = { ...ui.settings, ...named, human: 'both' };
    if (fen) body.fen = fen;
    if (moves) body.moves = moves.split(',').map((m) => m.trim()).filter(Boolean);
    ok = await newGame(body, moves ? 'link' : 'FEN');
  } else if (v) {
    ok = await newGame({ ...ui.settings, ...named });
  } else if (saved && saved.variant && (!served || saved.variant === ui.info.default_variant)) {
    // A reload or a reopened tab: the stored game again (a clock starts afresh).
    ok = await newGame(recreate(saved), undefined, saved);
    if (!ok) notice('The stored game could not be restored: ' + $('notice').textContent);
  } else {
    ok = await newGame({ ...ui.settings, ...named });
  }
  // The address has done its work: a reload now brings back the game as it is then.
  if (location.search) history.replaceState(null, '', '/');
  if (!ok) {
    // The address named a game the server refuses: say why, and start the usual one.
    const why = $('notice').textContent;
    const { variant: _, ...rest } = ui.settings;
    await newGame(served ? { ...rest, variant: ui.info.default_variant } : rest);
    notice(why);
  }
}

main();
